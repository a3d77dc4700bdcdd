"""The model-store interface: fitted models kept per spider and domain, with their metadata.

Backends store opaque record bytes (:mod:`scrapy_boilerplate.store.record`); this base class
decodes and validates them.  A corrupt or incompatible record is logged once, counted
(``boilerplate/store/corrupt``) and treated as absent, so the crawl re-learns the domain instead
of failing.  Backend failures (disk, network) raise :class:`StoreError` for the caller to degrade.
"""

from __future__ import annotations

import abc
import builtins
import logging
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.store.record import StoredModel, StoreEntry, decode_entry, decode_record, encode_record

logger = logging.getLogger(__name__)

MAX_NAME_LENGTH = 200


class StoreError(RuntimeError):
    """The store's backend failed (I/O error, connection refused...); the stored data is not at fault.

    ``step`` names what failed: ``read``, ``write``, ``delete``, ``list``, ``sample`` (a shared
    sample's pages or state), ``lock`` (the fit lock), ``connect`` (the store cannot be used at all)
    or ``job directory`` (partial samples kept in JOBDIR); the crawl logs each step's first failure.
    """

    def __init__(self, message: str, step: str = "read") -> None:
        super().__init__(message)
        self.step = step


class StatsLike(Protocol):
    """The part of Scrapy's ``StatsCollector`` a store uses."""

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None: ...


def check_name(kind: str, value: Any) -> str:
    """Validate a spider or domain name used as a storage key."""
    if not isinstance(value, str) or not value or value in {".", ".."}:
        raise ValueError(f"{kind} name must be a non-empty string other than '.' and '..', got {value!r}")
    if "\x00" in value or len(value) > MAX_NAME_LENGTH:
        raise ValueError(f"{kind} name {value[:40]!r} has a NUL byte or is over {MAX_NAME_LENGTH} characters")
    return value


class ModelStore(abc.ABC):
    """Get, put, delete and list fitted models per (spider, domain)."""

    def __init__(self, stats: StatsLike | None = None) -> None:
        self.stats = stats
        self.corrupt = 0  # records found corrupt by this instance (also counted in ``stats``)
        self._reported: set[tuple[str, str]] = set()

    # -- public interface ----------------------------------------------------------------
    @property
    @abc.abstractmethod
    def location(self) -> str:
        """Where the models live, as the user would write it (a path or a redis URL)."""

    def get(self, spider: str, domain: str) -> StoredModel | None:
        """The stored model of ``domain``, or ``None`` when there is none or it is unusable."""
        data = self.get_record(spider, domain)
        if data is None:
            return None
        try:
            return decode_record(data)
        except ModelFormatError as exc:
            self._corrupt(spider, domain, exc)
            return None

    def entry(self, spider: str, domain: str) -> StoreEntry | None:
        """Only the metadata of ``domain``'s stored model (cheaper than :meth:`get`)."""
        try:
            return self._load_entry(check_name("spider", spider), check_name("domain", domain))
        except ModelFormatError as exc:
            self._corrupt(spider, domain, exc)
            return None

    def put(self, stored: StoredModel) -> StoreEntry:
        """Store (or replace) a model atomically; returns its entry with ``size`` filled in."""
        data = encode_record(stored)
        entry = decode_entry(data)
        self._write(check_name("spider", entry.spider), check_name("domain", entry.domain), data)
        self._reported.discard((entry.spider, entry.domain))
        return entry

    def delete(self, spider: str, domain: str) -> bool:
        """Remove ``domain``'s model; True if there was one."""
        return self._delete(check_name("spider", spider), check_name("domain", domain))

    def list(self, spider: str | None = None) -> list[StoreEntry]:
        """Entries of every stored model (of ``spider`` only, if given), by spider then domain."""
        entries = []
        for spider_name, domain in sorted(self._keys(check_name("spider", spider) if spider is not None else None)):
            found = self.entry(spider_name, domain)
            if found is not None:
                entries.append(found)
        return entries

    def names(self, spider: str) -> builtins.list[str]:
        """The domain names (site keys) of ``spider``'s stored models, without reading them."""
        return sorted(domain for _, domain in self._keys(check_name("spider", spider)))

    def revision(self, spider: str, domain: str) -> object:
        """A value that changes whenever ``domain``'s model is replaced or deleted (for polling)."""
        found = self.entry(spider, domain)
        return None if found is None else (found.fitted_at, found.fitter, found.generation)

    def revisions(self, spider: str, domains: Sequence[str]) -> dict[str, object]:
        """:meth:`revision` of several domains (backends answer in one round trip where they can)."""
        return {domain: self.revision(spider, domain) for domain in domains}

    # -- raw records, for moving models between stores -----------------------------------------
    def get_record(self, spider: str, domain: str) -> bytes | None:
        """The stored record bytes, undecoded."""
        return self._read(check_name("spider", spider), check_name("domain", domain))

    def put_record(self, data: bytes) -> StoreEntry:
        """Store record bytes (from :meth:`get_record` of any store) after validating them fully."""
        entry = decode_record(data).entry
        self._write(check_name("spider", entry.spider), check_name("domain", entry.domain), data)
        self._reported.discard((entry.spider, entry.domain))
        return decode_entry(data)

    # -- helpers -----------------------------------------------------------------------------
    def _corrupt(self, spider: str, domain: str, exc: Exception) -> None:
        """Count and log a bad record once (until a good one replaces it), however often it is read."""
        if (spider, domain) in self._reported:
            return
        self._reported.add((spider, domain))
        self.corrupt += 1
        if self.stats is not None:
            self.stats.inc_value("boilerplate/store/corrupt")
        logger.warning(
            "stored model of %s/%s in %s is unusable and will be re-learned: %s", spider, domain, self.location, exc
        )

    def _load_entry(self, spider: str, domain: str) -> StoreEntry | None:
        """Metadata of one record; backends with a cheaper path override this."""
        data = self._read(spider, domain)
        return decode_entry(data) if data is not None else None

    # -- backend hooks -----------------------------------------------------------------------
    @abc.abstractmethod
    def _read(self, spider: str, domain: str) -> bytes | None:
        """Record bytes, or ``None`` if absent."""

    @abc.abstractmethod
    def _write(self, spider: str, domain: str, data: bytes) -> None:
        """Replace the record atomically: readers see the old or the new one, never a mix."""

    @abc.abstractmethod
    def _delete(self, spider: str, domain: str) -> bool:
        """Remove the record; True if it existed."""

    @abc.abstractmethod
    def _keys(self, spider: str | None) -> Iterable[tuple[str, str]]:
        """(spider, domain) of every stored record, optionally of one spider."""

    def check(self, writing: bool = False) -> None:  # noqa: B027 - a no-op default for stores always usable
        """Raise :class:`StoreError` saying why the store cannot be read (or, ``writing``, written)."""

    def close(self) -> None:  # noqa: B027 - a no-op default that backends with connections override
        """Release connections (nothing to do for most backends)."""
