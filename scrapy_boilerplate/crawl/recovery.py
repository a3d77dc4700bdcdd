"""Waiting items of a worker that dies are taken over by another worker (shared Redis store only).

Each item that starts waiting in the pipeline is first recorded on the Redis server (the item and
its page, see :mod:`itemrecords` and :mod:`scrapy_boilerplate.store.held_items`), and its record is
removed when the item leaves the pipeline, before it goes on to the next pipelines and the feeds.
Every worker renews a heartbeat; when a worker's heartbeat lapses for ``BOILERPLATE_WORKER_TIMEOUT``
seconds, a live worker moves its records to itself (atomically: each record to one worker) and
sends the items through its own item pipelines, so they reach its feeds once.  A worker whose
record was taken over while it lived (it stalled past the timeout) drops its copy of the item.

While another worker holds recorded items, an idle worker stays open (up to the worker timeout
plus ``BOILERPLATE_HOLD_TIMEOUT``), so that a worker killed near the end of a crawl still has
someone to take over its items; records nobody took over wait for the next crawl of the spider.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import uuid
from collections.abc import Callable
from typing import Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider
from scrapy.http import HtmlResponse
from scrapy.utils.defer import deferred_from_coro

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.clock import Clock, looping_call
from scrapy_boilerplate.crawl.config import BoilerplateConfig
from scrapy_boilerplate.crawl.domain import domain_of
from scrapy_boilerplate.crawl.engine_state import send_to_item_pipelines, spider_closing
from scrapy_boilerplate.crawl.itempages import ItemPages
from scrapy_boilerplate.crawl.itemrecords import HeldRecord, UnrecordableItem, decode_record, encode_record
from scrapy_boilerplate.crawl.persistence import StoreSession
from scrapy_boilerplate.crawl.threads import run_in_thread
from scrapy_boilerplate.html import decode_html
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import StoreError
from scrapy_boilerplate.store.held_items import TAKEN_OVER, VANISHED, HeldItemRecords

logger = logging.getLogger(__name__)

CLAIM_BATCH = 100  # records taken over per look (the next look takes the next ones)
BEATS_PER_TIMEOUT = 3  # heartbeats within one worker timeout, at least


class HeldItemRecovery:
    """Records this worker's waiting items; takes over a dead worker's (see the module docstring)."""

    def __init__(
        self,
        config: BoilerplateConfig,
        session: StoreSession,
        crawler: Crawler,
        item_pages: ItemPages,
        offer_page: Callable[[Page], None],
        clock: Clock,
    ) -> None:
        """``offer_page(page)`` offers a taken-over item's page to its site's sample."""
        self.config = config
        self.session = session
        self.crawler = crawler
        self.stats = crawler.stats
        self.item_pages = item_pages
        self.offer_page = offer_page
        self.clock = clock
        self.timeout = config.worker_timeout
        self.interval = min(config.store_poll, self.timeout / BEATS_PER_TIMEOUT)
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.records: HeldItemRecords | None = None
        self._ids: dict[int, tuple[Any, str]] = {}  # id(item) -> (item, its record id)
        self._numbers = itertools.count()
        self._unremoved: list[str] = []  # records whose removal failed: retried at each look
        self._loop = looping_call(self.tick, clock)
        self._busy = False
        self._others_holding = False
        self._idle_since: float | None = None
        self._reported: set[str] = set()
        self._pending: set[Any] = set()

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start beating and looking (``spider_opened``), when the store is shared."""
        session = self.session
        if not session.shared or self.records is not None:
            return
        client, prefix = session.store.client, session.store.prefix  # type: ignore[attr-defined]  # a RedisStore
        self.records = HeldItemRecords(client, prefix, session.samples.spider, self.worker)
        session.coordinator.lock_owner = self.worker  # type: ignore[attr-defined]  # a RedisCoordinator
        for signal in (signals.item_dropped, signals.item_error):  # it left before the plugin's pipeline
            self.crawler.signals.connect(self._left_early, signal=signal)
        self._loop.start(self.interval, now=True)

    def stop(self) -> None:
        """Stop beating (``spider_closed``): records left are retried once, then the heartbeat goes."""
        if self._loop.running:
            self._loop.stop()
        if self.records is None:
            return
        try:
            self._remove_unremoved()
            self.records.leave()
        except StoreError as exc:
            self.session.failed("ending the heartbeat", exc)
        if self._unremoved:
            logger.warning(
                "boilerplate: %d records of items this worker exported could not be removed from %s; another "
                "worker may export those items again",
                len(self._unremoved),
                self.session.location,
            )

    # -- the pipeline's side ------------------------------------------------------------------
    def has_record(self, item: Any) -> bool:
        """True when ``item`` is recorded (it waited here, or was taken over from a dead worker)."""
        entry = self._ids.get(id(item))
        return entry is not None and entry[0] is item

    async def record(self, item: Any, url: str, html: str | None) -> None:
        """Record ``item``, which starts waiting, with its page (``html`` None: the item carries it)."""
        if self.records is None or self.has_record(item) or not self.session.shared:
            return  # (a worker gone on without its shared store records nothing new)
        try:
            data = encode_record(item, url, html)
        except UnrecordableItem as exc:
            self._unrecordable(item, exc)
            return
        record_id = f"{self.worker}:{next(self._numbers)}"
        try:
            await run_in_thread(self.records.put, record_id, data)
        except StoreError as exc:
            self.session.failed("recording a waiting item", exc)
            return
        self._ids[id(item)] = (item, record_id)
        self.stats.inc_value(keys.RECOVERY_RECORDED)

    async def release(self, item: Any) -> bool:
        """``item`` leaves the pipeline: remove its record.  False when another worker took the
        record over (this worker stalled past the timeout): that worker exports the item, not this one."""
        entry = self._ids.pop(id(item), None)
        if entry is None or entry[0] is not item or self.records is None:
            return True
        try:
            outcome = await run_in_thread(self.records.remove, entry[1])
        except StoreError as exc:
            self.session.failed("removing a waiting item's record", exc)
            self._unremoved.append(entry[1])
            return True
        if outcome == TAKEN_OVER:
            self.stats.inc_value(keys.RECOVERY_TAKEN_OVER)
        elif outcome == VANISHED:
            self.stats.inc_value(keys.RECOVERY_VANISHED)
        return outcome != TAKEN_OVER

    async def _left_early(self, item: Any, **_: Any) -> None:
        """A taken-over item dropped (or failed) in a pipeline before the plugin's: its record goes too."""
        if self.has_record(item):
            await self.release(item)

    def _unrecordable(self, item: Any, exc: UnrecordableItem) -> None:
        self.stats.inc_value(keys.RECOVERY_UNRECORDABLE)
        name = type(item).__name__
        if name not in self._reported:
            self._reported.add(name)
            logger.warning(
                "boilerplate: a %s item cannot be recorded while it waits for its site model (%s); if this worker "
                "dies then, it is lost (counted in %s)",
                name,
                exc,
                keys.RECOVERY_UNRECORDABLE,
            )

    # -- the heartbeat, and dead workers' items ------------------------------------------------
    def tick(self) -> None:
        """One heartbeat, and a look for dead workers' records, in a thread (unless one runs)."""
        if self._busy or self.records is None:
            return
        self._busy = True
        look = deferred_from_coro(self._look(claim=not spider_closing(self.crawler)))
        self._pending.add(look)
        look.addBoth(lambda _: self._pending.discard(look))

    async def _look(self, claim: bool) -> None:
        try:
            claimed = await run_in_thread(self._beat_and_claim, claim)
        except StoreError as exc:
            self.session.failed("looking for dead workers' items", exc)
            return
        finally:
            self._busy = False
        for record_id, data in claimed:
            self._emit(record_id, data)

    def _beat_and_claim(self, claim: bool) -> list[tuple[str, bytes]]:
        """(worker thread) Renew the heartbeat, retry failed removals, take over dead workers' records."""
        assert self.records is not None  # typing: started
        self.records.beat(self.timeout)
        self._remove_unremoved()
        holders = self.records.holders()
        self._others_holding = bool(holders)
        if claim:
            self._release_dead_workers_locks([w for w, alive in holders.items() if not alive])
        claimed: list[tuple[str, bytes]] = []
        for worker, alive in holders.items():
            if claim and not alive and len(claimed) < CLAIM_BATCH:
                taken = self.records.claim(worker, CLAIM_BATCH - len(claimed))
                if taken:
                    logger.info(
                        "boilerplate: worker %s stopped beating for %.0f s; taking over %d of its waiting items",
                        worker,
                        self.timeout,
                        len(taken),
                    )
                claimed += taken
        return claimed

    def _release_dead_workers_locks(self, dead_holders: list[str]) -> None:
        """(worker thread) Delete the fit locks of the workers whose heartbeat expired, holding items or
        not, so their domains are fitted at once rather than after the locks' TTL."""
        assert self.records is not None  # typing: started
        for worker in sorted({*self.records.dead_workers(), *dead_holders}):
            if self.records.release_locks(worker):
                logger.info("boilerplate: worker %s stopped beating; its fit locks are released", worker)
            self.records.forget(worker)

    def _remove_unremoved(self) -> None:
        assert self.records is not None  # typing: started
        while self._unremoved:
            self.records.remove(self._unremoved[0])
            self._unremoved.pop(0)

    def _emit(self, record_id: str, data: bytes) -> None:
        """Send a taken-over item through this worker's pipelines, its page linked as a response's."""
        try:
            held = decode_record(data)
        except ValueError as exc:
            self.stats.inc_value(keys.RECOVERY_CORRUPT)
            logger.warning("boilerplate: a waiting item's record %s is unreadable (%s); removed", record_id, exc)
            deferred_from_coro(run_in_thread(self.records.remove, record_id)).addErrback(lambda _: None)  # type: ignore[union-attr]
            return
        self.stats.inc_value(keys.RECOVERY_CLAIMED)
        if not held.own_class:
            logger.warning("boilerplate: a taken-over item's class could not be rebuilt; it goes on as a dict")
        self._ids[id(held.item)] = (held.item, record_id)
        self._rejoin_sample(held)
        emitted = deferred_from_coro(send_to_item_pipelines(self.crawler, held.item))
        self._pending.add(emitted)
        emitted.addBoth(lambda _: self._pending.discard(emitted))

    def _rejoin_sample(self, held: HeldRecord) -> None:
        """Link the item to its page (unless it carries it), and offer the page to its domain's
        sample as a crawled page, so the item waits for the domain's model as it did."""
        html: Any = held.html
        if html is None:
            html = ItemAdapter(held.item).get(self.config.html_field)
            html = decode_html(html) if isinstance(html, bytes) else html
        else:
            response = HtmlResponse(held.url, body=html.encode("utf-8"), encoding="utf-8")
            self.item_pages.link(held.item, response)
        if isinstance(html, str) and domain_of(held.url):
            self.offer_page(Page(html, held.url))

    # -- staying open for other workers' items -------------------------------------------------
    def spider_idle(self) -> None:
        """Keep an idle worker open while another worker holds recorded items (bounded)."""
        if self.records is None or not self._others_holding:
            self._idle_since = None
            return
        now = self.clock.seconds()
        if self._idle_since is None:
            self._idle_since = now
        if now - self._idle_since < self.timeout + self.config.hold_timeout:
            raise DontCloseSpider
