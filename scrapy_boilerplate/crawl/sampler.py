"""Pages offered to each site's sample: a site's first sight, the bound on sites sampling, the store's count.

A site seen for the first time takes its stored model (it cleans from its first page) or goes on with
the partial sample an earlier run kept in ``JOBDIR``; otherwise it samples.  A page joins the site's
sample through the store's coordinator (shared between the workers of a distributed crawl), which
says how many pages the sample has; the site book turns that into the fit when it is full.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from urllib.parse import urldefrag

from scrapy.http import Response

from scrapy_boilerplate.crawl.book import SiteBook
from scrapy_boilerplate.crawl.domain import DomainStatus
from scrapy_boilerplate.crawl.events import Event, Evicted, ModelSource, SiteKey
from scrapy_boilerplate.crawl.page_checks import sample_skip_reason
from scrapy_boilerplate.crawl.persistence import StoreSession
from scrapy_boilerplate.crawl.templating import PageTemplates, is_unmatched
from scrapy_boilerplate.page import Page

logger = logging.getLogger(__name__)


class Sampler:
    """Offers pages to the sites' samples (see the module docstring); its changes go to ``emit``."""

    def __init__(
        self,
        book: SiteBook,
        templates: PageTemplates,
        session: StoreSession,
        emit: Callable[[list[Event]], None],
        on_store_lost: Callable[[], None],
        max_page_bytes: int,
    ) -> None:
        """``on_store_lost()`` is called when the shared store failed while a page was offered;
        larger pages reaching the pipeline join no sample."""
        self.book = book
        self.templates = templates
        self.max_page_bytes = max_page_bytes
        self.session = session
        self.emit = emit
        self.on_store_lost = on_store_lost
        self._resumed = set(session.open_samples())  # partial samples kept in JOBDIR by an earlier run
        if self._resumed:
            logger.info(
                "boilerplate: going on with the partial samples of %d domains kept in JOBDIR", len(self._resumed)
            )

    def wants(self, key: SiteKey) -> bool:
        """True while ``key`` collects a sample (its first, or a new one after a template change)."""
        if is_unmatched(key):
            return False
        self._see(key)
        return self.book.wants_pages(key)

    def may_want(self, domain: str) -> bool:
        """True while a page of ``domain`` whose template is not known yet may join a sample: the
        domain may still find a new template, or one of its templates collects a sample."""
        keys = self.templates.templates(domain)
        return len(keys) < self.templates.max_templates or any([self.wants(key) for key in keys])

    def offer(self, key: SiteKey, page: Page) -> None:
        """Offer one page to ``key``'s (possibly shared) sample, once; the fit is queued when it fills it."""
        self._see(key)
        if not self.book.wants_pages(key) or self.book.offered(key, page.url):
            return
        if not self.book.sampling(key):
            self._make_room(key)
        offer = self.session.offer(key, page)
        if offer is None:  # the shared store is gone: sample again, in this process
            self.on_store_lost()
            offer = self.session.offer(key, page)
        if offer is None:
            self.emit(self.book.page_offered(key, page.url, False, None))
        else:
            self.emit(self.book.page_offered(key, page.url, offer.accepted, offer.count))

    def offer_page(self, page: Page) -> None:
        """Offer ``page`` to its template's sample, if that samples (a page that passed no middleware)."""
        key = self.templates.key(page)
        if self.wants(key):
            self.offer(key, Page(page.html, page.url))  # the sample keeps the text, not the tree

    def offer_late(self, key: SiteKey, url: str, html: str, response: Response | None = None) -> None:
        """A page of ``key`` reached the pipeline (from ``response``, or an item's HTML field): while
        the site samples again after a template change, it joins the new sample unless the sampling
        middleware already offered it.  Drift is noticed in the pipeline, after Scrapy downloaded on:
        pages downloaded before it was noticed passed the middleware already.  The URL's fragment is
        dropped: a listing page's entries share their page."""
        if self.book.status(key) is not DomainStatus.RESAMPLING:
            return
        if response is not None and sample_skip_reason(response, self.max_page_bytes) is not None:
            return
        url = urldefrag(url)[0]
        if not self.book.offered(key, url):
            self.offer(key, Page(html, url))

    def _see(self, key: SiteKey) -> None:
        """On first sight, ``key`` takes its stored model, or its sample kept in JOBDIR."""
        if key in self.book:
            return
        self.book.open(key)
        stored = self.session.load(key)
        if stored is not None:
            self.emit(self.book.adopt(key, stored, ModelSource.STORED))
        elif key in self._resumed:
            self.emit(self.book.resume(key, self.session.sample_urls(key)))

    def _make_room(self, key: SiteKey) -> None:
        """Bound sample memory: past BOILERPLATE_MAX_SAMPLING_DOMAINS, sites give up their samples."""
        events = self.book.make_room(key)
        for event in events:
            if isinstance(event, Evicted):
                self.session.drop_sample(event.key)
        self.emit(events)
