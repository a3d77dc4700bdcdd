"""The log lines of the crawl's decisions about its sites: each changes what users get in their items.

A model put to use (fitted here, stored before the crawl, or shared by another worker), a site left
to the fallback, a fit that failed, and at the end the sites whose new sample after a template
change never filled.  The learner logs them as it routes the events of :mod:`events`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from scrapy_boilerplate.crawl.events import FellBack, FitFailed, ModelReady, ModelSource, SiteKey
from scrapy_boilerplate.crawl.templating import key_domain

logger = logging.getLogger(__name__)

PARTIAL_NOTE = (
    " (the crawl is stopping before its sample of {size} pages filled: this model cleans this crawl's"
    " waiting items and is not stored)"
)


def log_model_ready(event: ModelReady, model_label: str, sample_size: int) -> None:
    """One INFO line: the fit made here (its time, the share of text it removes), or the stored model used."""
    entry = event.stored.entry
    if event.source in (ModelSource.FITTED, ModelSource.PARTIAL):
        removed = [kept.cleaned.removed_share for kept in event.sample_cleans.values()]
        logger.info(
            "boilerplate: %s %s for %s on %d pages in %.2f s; it removes %.0f%% of the text%s%s",
            "re-fitted" if event.replaced else "fitted",
            model_label,
            key_domain(event.key),
            entry.pages,
            event.seconds,
            100 * (sum(removed) / len(removed) if removed else 0.0),
            template_note(event.key),
            PARTIAL_NOTE.format(size=sample_size) if event.source is ModelSource.PARTIAL else "",
        )
    else:
        logger.info(
            "boilerplate: using the stored %s model of %s (fitted on %d pages by %s)%s",
            entry.model,
            key_domain(event.key),
            entry.pages,
            entry.fitter or "another crawl",
            template_note(event.key),
        )


def template_note(key: SiteKey) -> str:
    """`` (page template KEY)`` for the key of one of a domain's templates ("" for a domain's only one)."""
    return f" (page template {key})" if key != key_domain(key) else ""


def log_template_found(key: SiteKey, url: str, count: int, cap: int, fallback_label: str) -> None:
    """One INFO line per new page template of a domain; the last one the cap allows says what follows."""
    logger.info(
        "boilerplate: page template %d of %s found on %s (%s): it gets a sample and a fit of its own%s",
        count,
        key_domain(key),
        url,
        key,
        f"; the domain has the most templates BOILERPLATE_MAX_TEMPLATES allows ({cap}): its pages like none of "
        f"them are cleaned by the single-page {fallback_label}"
        if count == cap
        else "",
    )


def log_fell_back(event: FellBack, fallback_label: str) -> None:
    """One INFO line: the site has no model coming for now, and why."""
    logger.info(
        "boilerplate: %s has no site model%s (%s, %d pages sampled here); cleaning it with %s",
        key_domain(event.key),
        template_note(event.key),
        event.reason.what,
        event.sampled,
        fallback_label,
    )


def log_fit_failed(event: FitFailed, model_label: str) -> None:
    """One WARNING line: the site's fit raised."""
    logger.warning("boilerplate: fitting %s on %s failed (%r)", model_label, event.key, event.error)


def log_unfinished_samples(resampling: Iterable[tuple[SiteKey, int]], sample_size: int) -> None:
    """At the crawl's end, one INFO line per site that changed template but never filled its new sample."""
    for key, pages in resampling:
        logger.info(
            "boilerplate: the crawl ended before %s's new sample filled after its template changed "
            "(%d of %d pages): its items were cleaned by the model fitted before the change, and "
            "this crawl stores no newer one",
            key,
            pages,
            sample_size,
        )
