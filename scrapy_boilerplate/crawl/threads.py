"""Run CPU work in the reactor's thread pool, or give the reactor a turn, from ``async def`` Scrapy hooks."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.task import deferLater
from twisted.internet.threads import deferToThread

T = TypeVar("T")


async def run_in_thread(func: Callable[..., T], *args: object) -> T:
    """Await ``func(*args)`` run off the reactor thread (pool size: REACTOR_THREADPOOL_MAXSIZE).

    ``deferToThread`` works with every reactor, asyncio or not; ``maybe_deferred_to_future``
    makes the Deferred awaitable in either case (scrapy/utils/defer.py).
    """
    return await maybe_deferred_to_future(deferToThread(func, *args))


async def next_reactor_turn() -> None:
    """Return once the reactor has had a turn: long work on its thread lets the crawl's I/O run in between."""
    from twisted.internet import reactor  # imported late: the crawler installs the reactor

    await maybe_deferred_to_future(deferLater(reactor, 0, lambda: None))
