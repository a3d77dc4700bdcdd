"""Who samples and who fits: per-domain sample slots, sample pages and a fit lock.

A crawl collects each domain's sample, then one party fits it.  In one process that is plain
bookkeeping (:class:`LocalCoordinator`); across the workers of a distributed crawl the same
operations must be atomic on a shared server (:class:`~scrapy_boilerplate.store.redis_coordination.RedisCoordinator`).

Each domain has a sample *generation*: 0 for the first sample, bumped by :meth:`restart_sample`
when the template drifts, so a model records which sample it was fitted on.
"""

from __future__ import annotations

import abc
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SampleOffer:
    """Outcome of offering a page: whether it joined the sample, and the sample's size after."""

    accepted: bool
    count: int
    generation: int


@dataclass(frozen=True)
class SampleState:
    """A domain's sample generation, how many pages it holds (or held), and whether it was fitted."""

    generation: int
    count: int
    closed: bool = False


class FitLock(abc.ABC):
    """A held fit lock; use as a context manager so it is released however fitting ends."""

    @abc.abstractmethod
    def release(self) -> bool:
        """Release the lock if this holder still owns it; False if it had expired and moved on."""

    def __enter__(self) -> FitLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Coordinator(abc.ABC):
    """The sampling and fitting primitives the crawl needs, per (spider, domain)."""

    @abc.abstractmethod
    def offer(self, spider: str, domain: str, url: str, html: str, size: int) -> SampleOffer:
        """Add a page to the sample unless it is full (``size`` pages) or already holds ``url``."""

    @abc.abstractmethod
    def state(self, spider: str, domain: str) -> SampleState:
        """The domain's current sample generation and page count."""

    @abc.abstractmethod
    def pages(self, spider: str, domain: str) -> list[tuple[str, str]]:
        """The sampled (url, html) pairs, in the order they were accepted."""

    @abc.abstractmethod
    def finish_sample(self, spider: str, domain: str, generation: int) -> None:
        """Drop the sampled pages once fitted, keeping the sample closed to new pages."""

    @abc.abstractmethod
    def restart_sample(self, spider: str, domain: str, generation: int) -> int | None:
        """Open sample ``generation + 1``, empty, unless a generation above ``generation`` already exists.

        Pass the generation the outdated model was fitted on: when several workers notice the
        same drift, the first one restarts and the others get ``None``.
        """

    @abc.abstractmethod
    def acquire_fit_lock(self, spider: str, domain: str, ttl: float) -> FitLock | None:
        """The domain's fit lock for ``ttl`` seconds, or ``None`` if someone else holds it."""


class _LocalLock(FitLock):
    def __init__(self, owner: LocalCoordinator, name: tuple[str, str], token: str) -> None:
        self._owner, self._name, self._token = owner, name, token

    def release(self) -> bool:
        return self._owner._release(self._name, self._token)


@dataclass
class _LocalSample:
    generation: int = 0
    count: int = 0
    closed: bool = False
    pages: dict[str, str] = field(default_factory=dict)


class LocalCoordinator(Coordinator):
    """In-process coordination for a crawl that runs in one process (thread-safe)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """``clock``: the time in seconds that fit locks expire by (a test passes one it moves)."""
        self.clock = clock
        self._mutex = threading.Lock()
        self._samples: dict[tuple[str, str], _LocalSample] = {}
        self._locks: dict[tuple[str, str], tuple[str, float]] = {}

    def _sample(self, name: tuple[str, str]) -> _LocalSample:
        return self._samples.setdefault(name, _LocalSample())

    def offer(self, spider: str, domain: str, url: str, html: str, size: int) -> SampleOffer:
        with self._mutex:
            sample = self._sample((spider, domain))
            if sample.closed or sample.count >= size or url in sample.pages:
                return SampleOffer(False, sample.count, sample.generation)
            sample.pages[url] = html
            sample.count += 1
            return SampleOffer(True, sample.count, sample.generation)

    def state(self, spider: str, domain: str) -> SampleState:
        with self._mutex:
            sample = self._sample((spider, domain))
            return SampleState(sample.generation, sample.count, sample.closed)

    def pages(self, spider: str, domain: str) -> list[tuple[str, str]]:
        with self._mutex:
            return list(self._sample((spider, domain)).pages.items())

    def finish_sample(self, spider: str, domain: str, generation: int) -> None:
        with self._mutex:
            sample = self._sample((spider, domain))
            if sample.generation == generation:
                sample.closed, sample.pages = True, {}

    def restart_sample(self, spider: str, domain: str, generation: int) -> int | None:
        with self._mutex:
            if self._sample((spider, domain)).generation > generation:
                return None
            self._samples[(spider, domain)] = _LocalSample(generation + 1)
            return generation + 1

    def restore(self, spider: str, domain: str, generation: int, pages: dict[str, str]) -> None:
        """Put back an open sample kept from an earlier run of the crawl (see :mod:`jobdir`)."""
        with self._mutex:
            self._samples[(spider, domain)] = _LocalSample(generation, len(pages), False, dict(pages))

    def open_samples(self, spider: str) -> list[str]:
        """Domains of ``spider`` whose open sample has pages."""
        with self._mutex:
            return [d for (name, d), sample in self._samples.items() if name == spider and sample.pages]

    def acquire_fit_lock(self, spider: str, domain: str, ttl: float) -> FitLock | None:
        with self._mutex:
            held = self._locks.get((spider, domain))
            now = self.clock()
            if held is not None and held[1] > now:
                return None
            token = uuid.uuid4().hex
            self._locks[(spider, domain)] = (token, now + ttl)
            return _LocalLock(self, (spider, domain), token)

    def _release(self, name: tuple[str, str], token: str) -> bool:
        with self._mutex:
            held = self._locks.get(name)
            if held is None or held[0] != token:
                return False
            del self._locks[name]
            return True
