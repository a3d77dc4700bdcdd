"""Fitting a site's sample: under the store's fit lock, once for every worker, with its drift baseline.

:meth:`SampleFitter.fit` takes the site's fit lock (``busy`` while another worker holds it), fits
the model on every worker's sample pages, cleans them (the baseline of the drift watch is the share
of text the model removes from them, and their items take these cleans), stores the model and
closes the sample.  A sample found closed was fitted by another worker: its model is ``loaded``;
a sample that lost pages (a new generation) is ``incomplete``.  A model the store cannot keep is
used all the same, and the sample is left open so another worker fits and stores it.

It blocks (CPU and store I/O): the crawl runs it in a worker thread, or inline when short.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from scrapy_boilerplate.crawl.events import SampleClean
from scrapy_boilerplate.crawl.templating import TEMPLATE_MARK, page_signature
from scrapy_boilerplate.drift.monitor import fit_baseline
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.records import extra_fields
from scrapy_boilerplate.store.base import StoreError
from scrapy_boilerplate.store.record import StoredModel
from scrapy_boilerplate.store.sharing import SpiderStore

FITTED, LOADED, BUSY, INCOMPLETE = "fitted", "loaded", "busy", "incomplete"

Cleans = dict[str, SampleClean]  # url -> a fit's clean of that sample page


@dataclass(frozen=True)
class FitOutcome:
    """What a fit did: ``fitted`` here, ``loaded`` another worker's, ``busy``, ``incomplete``.

    ``stored`` is the model to use; ``saved`` whether the store kept it (``store_error``: the failure
    that kept it out, the model is used all the same); ``sample_cleans`` the model's cleans of its
    sample pages, by URL.
    """

    status: str
    stored: StoredModel | None = None
    saved: bool = False
    store_error: StoreError | None = None
    sample_cleans: Cleans = field(default_factory=dict)


class SampleFitter:
    """Fits ``spec`` on a site's sample in a :class:`SpiderStore` (see the module docstring)."""

    def __init__(
        self,
        spec: ModelSpec,
        keep_cleaned_html: bool = True,
        fingerprint: bool = True,
        spec_for: Callable[[str], ModelSpec] | None = None,
        fields: tuple[str, ...] = (),
    ) -> None:
        """``keep_cleaned_html``: whether the sample's cleans keep their cleaned HTML (a crawl without
        BOILERPLATE_CLEANED_HTML_FIELD never reads it, and serialising costs each sample page a trip
        through libxml2's serialiser, which hands the GIL to the reactor and back); ``fingerprint``:
        whether the drift watch will compare pages with the sample's fingerprint (a crawl without drift
        watch, or a model whose rules' coverage tells, needs none); ``fields``: the record fields each
        sample clean carries (see :func:`~scrapy_boilerplate.records.extra_fields`), read here from the
        trees the fit parsed."""
        self.spec = spec
        self.spec_for = spec_for  # a domain's own spec (its pinned selectors); None: ``spec`` for all
        self.keep_cleaned_html = keep_cleaned_html
        self.fingerprint = fingerprint  # False: no drift watch, so no sample fingerprint
        self.fields = fields

    def fit(self, samples: SpiderStore, domain: str, parsed: Sequence[Page] = ()) -> FitOutcome:
        """Fit ``domain`` on its shared sample unless another worker is at it or already did.

        ``parsed`` may hold sample pages already parsed (on the reactor thread, see
        :meth:`SpiderStore.local_sample`); a page is used only if the sample still holds the same
        URL and HTML.
        """
        lock = samples.fit_lock(domain)
        if lock is None:
            return FitOutcome(BUSY)
        with lock:
            state = samples.state(domain)
            if state.closed:
                stored = samples.closed_sample(domain, state)
                return FitOutcome(LOADED, stored) if stored is not None else FitOutcome(INCOMPLETE)
            pages = samples.sample_pages(domain, parsed)
            if len(pages) < samples.sample_size:
                return FitOutcome(INCOMPLETE)
            stored, cleans = self._fit_pages(samples.spider, domain, pages, state.generation)
            try:
                stored = samples.save(stored)
            except StoreError as exc:  # leave the sample open: another worker fits and stores it
                return FitOutcome(FITTED, stored, False, exc, cleans)
            samples.finish_sample(domain, state.generation)
        return FitOutcome(FITTED, stored, True, None, cleans)

    def fit_partial(
        self, samples: SpiderStore, domain: str, parsed: Sequence[Page] = (), min_pages: int = 1
    ) -> FitOutcome:
        """Fit ``domain`` on its sample as it is, at least ``min_pages`` pages (the crawl is stopping).

        No lock, nothing stored, and the sample stays open: the model serves this crawl's waiting
        items only, while the next crawl (or another worker) goes on filling the sample.
        """
        state = samples.state(domain)
        pages = samples.sample_pages(domain, parsed)
        if len(pages) < min_pages:
            return FitOutcome(INCOMPLETE)
        stored, cleans = self._fit_pages(samples.spider, domain, pages, state.generation)
        return FitOutcome(FITTED, stored, sample_cleans=cleans)

    def _fit_pages(self, spider: str, domain: str, pages: list[Page], generation: int) -> tuple[StoredModel, Cleans]:
        """The model fitted on ``pages`` as a store record (with its drift baseline), and its cleans of them."""
        model = (self.spec_for(domain) if self.spec_for else self.spec).create().fit(pages)
        cleaned = [model.clean(page) for page in pages]
        baseline = fit_baseline(model, pages, cleaned, self.fingerprint)
        template = page_signature(pages[0]) if TEMPLATE_MARK in domain and pages else frozenset()
        stored = StoredModel.new(spider, domain, model, len(pages), baseline, generation, template)
        # The sample's cleans serve their items, which never carry decisions (they are for the
        # inspection report): drop them.  Unread, they would keep each page's parsed tree (~0.5 MB on
        # dragnet pages) alive until its item comes; read, they cost style_tree ~0.26 M
        # instructions a page (naming every region by path), 5 M per fitted domain.  ``replace``
        # reads the cleaned HTML, so a model's deferred serialisation is made here and no tree stays.
        cleans = {
            page.url: SampleClean(page.html, self._kept(c), extra_fields(page, c, self.fields))
            for page, c in zip(pages, cleaned, strict=False)
        }
        return stored, cleans

    def _kept(self, cleaned: CleanedPage) -> CleanedPage:
        if self.keep_cleaned_html:
            return replace(cleaned, decisions=())
        return replace(cleaned, decisions=(), html="")
