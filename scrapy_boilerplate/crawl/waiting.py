"""The pipeline's first step: an item's site model, waiting for it while the site samples.

An item of a site with a model in use goes on at once with it; an item of a site whose model is
coming (its sample is filling, or its fit is pending) waits in the hold, bounded, recorded for
recovery on a shared store; any other item goes to the fallback, with the reason.  Either way the
step ends with a :data:`~scrapy_boilerplate.crawl.holding.Release`, which carries the model.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from scrapy.utils.defer import maybe_deferred_to_future

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.book import SiteBook
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.crawl.holding import HoldQueue, Release, ToFallback, WithModel
from scrapy_boilerplate.crawl.itempages import ItemPage
from scrapy_boilerplate.crawl.templating import is_unmatched


class ModelWait:
    """An item's release: with its site's model, at once or after waiting, or to the fallback."""

    def __init__(
        self,
        book: SiteBook,
        hold: HoldQueue,
        record: Callable[[Any, str, str | None], Awaitable[None]],
        stats: Any,
        waiting_pays: Callable[[], bool] = lambda: True,
        arrived: Callable[[SiteKey], None] = lambda key: None,
    ) -> None:
        """``record(item, url, html)`` records an item that starts waiting (``html`` None: the item
        carries it); ``waiting_pays()``: whether the crawl's samples fill fast enough for items to
        wait (see :mod:`~scrapy_boilerplate.crawl.pacing`); ``arrived(key)``: an item of ``key`` came."""
        self.book = book
        self.arrived = arrived
        self.hold = hold
        self.waiting_pays = waiting_pays
        self.record = record
        self.stats = stats

    def waits(self, key: SiteKey) -> bool:
        """True when an item of ``key`` would wait for the site's model now."""
        return self.book.in_use(key) is None and self.book.items_wait(key) and self.waiting_pays()

    async def release(self, key: SiteKey, page: ItemPage, item: Any) -> Release:
        """How ``item`` of site ``key`` (``page``: its page) goes on; waits while the site's model is coming."""
        if not key:
            return ToFallback(FallbackReason.NO_URL)
        if is_unmatched(key):
            return ToFallback(FallbackReason.TEMPLATE_CAP)
        self.arrived(key)
        in_use = self.book.in_use(key)
        if in_use is not None:
            return WithModel(in_use)
        if not self.book.items_wait(key):
            return ToFallback(self.book.fallback_reason(key))
        if not self.waiting_pays():
            return ToFallback(FallbackReason.NOT_WAITING)
        held = self.hold.hold(key, page.size)
        if held is None:
            return ToFallback(FallbackReason.HOLD_FULL)
        self.stats.inc_value(keys.ITEMS_HELD)
        await self.record(item, page.url, page.html if page.response is not None else None)
        release = await maybe_deferred_to_future(held)
        self.stats.inc_value(keys.ITEMS_RELEASED.format(reason=release.key))
        return release
