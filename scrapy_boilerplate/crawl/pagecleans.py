"""One clean per page: the items a listing page yields share its clean.

Scrapy passes a callback's items through the pipelines together, so while the first item's clean
runs in the thread pool the others arrive: they wait for that clean instead of starting their own.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

T = TypeVar("T")

# The latest responses whose clean is kept for their items still to come (items of a few pages
# can interleave in the pipelines); a response, and the tree its clean may still read, stay alive
# as long as its entry.
KEPT_PAGES = 4


@dataclass
class _PageClean(Generic[T]):
    """A response's clean by one model: its result, or the items waiting while it runs."""

    response: Response
    cleaner: object
    result: T | None = None
    waiting: list[Deferred[T]] | None = field(default_factory=list)  # None once the result is in


class PageCleans(Generic[T]):
    """The cleans of the latest responses, each shared by the items of its response."""

    def __init__(self, kept: int = KEPT_PAGES) -> None:
        self._pages: OrderedDict[int, _PageClean[T]] = OrderedDict()
        self._kept = kept

    def keep(self, response: Response, cleaner: object, result: T) -> None:
        """Record a clean made elsewhere (the fit's own clean of a sample page) for the response's items."""
        self._store(_PageClean(response, cleaner, result, None))

    async def share(self, response: Response, cleaner: object, clean: Callable[[], Awaitable[T]]) -> T:
        """The result of ``clean()`` for ``response`` by ``cleaner``, run once for all the response's items."""
        entry = self._pages.get(id(response))
        if entry is not None and entry.response is response and entry.cleaner is cleaner:
            self._pages.move_to_end(id(response))
            if entry.waiting is None:
                return entry.result  # type: ignore[return-value]  # set with waiting=None
            waiter: Deferred[T] = Deferred()
            entry.waiting.append(waiter)
            return await maybe_deferred_to_future(waiter)
        entry = _PageClean(response, cleaner)
        self._store(entry)
        try:
            result = await clean()
        except BaseException:
            self._forget(entry)
            self._wake(entry, Failure())
            raise
        entry.result = result
        self._wake(entry, result)
        return result

    def _store(self, entry: _PageClean[T]) -> None:
        self._pages[id(entry.response)] = entry
        self._pages.move_to_end(id(entry.response))
        while len(self._pages) > self._kept:
            self._pages.popitem(last=False)

    def _forget(self, entry: _PageClean[T]) -> None:
        if self._pages.get(id(entry.response)) is entry:
            del self._pages[id(entry.response)]

    @staticmethod
    def _wake(entry: _PageClean[T], outcome: Any) -> None:
        """Give the items that waited the clean's result (or its failure)."""
        waiting, entry.waiting = entry.waiting or [], None
        for waiter in waiting:
            if isinstance(outcome, Failure):
                waiter.errback(outcome)
            else:
                waiter.callback(outcome)
