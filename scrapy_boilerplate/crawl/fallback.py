"""Why an item was cleaned by the single-page (fallback) model, said once per domain, and the crawl's summary.

Every item that the fallback model cleans has one reason.  Most are failures (the hold was full, the
fit failed...): the first such item of each domain logs one WARNING naming the reason and the
setting that changes it, and every item is counted under ``boilerplate/items/fallback/<reason>``.
Some are no failure: the page's template has no fit (its sample did not fill, the domain has its cap
of templates, or its items do not wait): the first such item of each domain logs one INFO line, and
every item is counted under ``boilerplate/items/single_page/<reason>``.  At close one INFO line sums
up the items by model and the reasons.
"""

from __future__ import annotations

import enum
import logging
from collections import Counter, defaultdict
from typing import Any

import scrapy_boilerplate.crawl.stats as keys

logger = logging.getLogger(__name__)


class FallbackReason(enum.Enum):
    """Why the fallback cleaned an item: (stats name, what happened, what to change)."""

    SAMPLE_NOT_FILLED = (
        "sample_not_filled",
        "the crawl found fewer pages of its template than the sample needs",
        "a smaller BOILERPLATE_SAMPLE_SIZE",
        False,
    )
    HOLD_FULL = (
        "hold_full",
        "the items waiting for site models filled the hold",
        "a larger BOILERPLATE_HOLD_MAX_BYTES or BOILERPLATE_HOLD_MAX_ITEMS",
    )
    DEADLINE = (
        "deadline",
        "its items waited longer than the hold allows without its site model coming closer",
        "a longer BOILERPLATE_HOLD_TIMEOUT",
    )
    FIT_FAILED = ("fit_failed", "fitting the site model failed", "another BOILERPLATE_MODEL")
    EVICTED = (
        "evicted",
        "too many domains were sampling at once and it made the least progress",
        "a larger BOILERPLATE_MAX_SAMPLING_DOMAINS",
    )
    CLOSING = (
        "closing",
        "the crawl stopped before its model was ready, with too few sample pages to fit one",
        "letting the crawl finish (or a smaller BOILERPLATE_MIN_SAMPLE_SIZE)",
    )
    NO_URL = ("no_url", "the item has no URL to tell its site", "setting BOILERPLATE_URL_FIELD to the URL field")
    NOT_SAMPLED = (
        "not_sampled",
        "none of the crawled pages of its template could join a sample",
        "crawling its HTML pages (or giving the item its page's URL)",
        False,
    )
    MODEL_ERROR = ("model_error", "the site model failed on the page", "another BOILERPLATE_MODEL")
    SAMPLE_STALLED = (
        "sample_stalled",
        "its template's sample got no new page for BOILERPLATE_HOLD_TIMEOUT seconds (its items go on without "
        "waiting until the sample fills)",
        "a longer BOILERPLATE_HOLD_TIMEOUT",
        False,
    )
    TEMPLATE_CAP = (
        "template_cap",
        "its domain has BOILERPLATE_MAX_TEMPLATES templates and the page is like none of them",
        "a larger BOILERPLATE_MAX_TEMPLATES",
        False,
    )
    NOT_WAITING = (
        "not_waiting",
        "the crawl's samples fill too slowly for its items to wait (its template's fit serves the pages after it)",
        "a longer BOILERPLATE_HOLD_TIMEOUT",
        False,
    )

    def __init__(self, key: str, what: str, remedy: str, failure: bool = True) -> None:
        """``failure``: False for a page whose template has no fit (yet), which is no fault of the crawl."""
        self.key, self.what, self.remedy, self.failure = key, what, remedy, failure


class FallbackReport:
    """Counts cleaned items by model and fallback reason; warns once per domain; sums up at close."""

    def __init__(self, stats: Any, fallback_label: str) -> None:
        self.stats = stats
        self.fallback_label = fallback_label
        self._warned: set[str] = set()
        self._told: set[tuple[str, FallbackReason]] = set()  # (domain, reason) said at INFO, not failures
        self._items_by_model: Counter[str] = Counter()
        self._items_by_reason: Counter[FallbackReason] = Counter()
        self._domains_by_reason: defaultdict[FallbackReason, set[str]] = defaultdict(set)

    def cleaned(self, model: str, domain: str, reason: FallbackReason | None) -> None:
        """One item cleaned by ``model``; ``reason`` is set when that model is the fallback."""
        self._items_by_model[model] += 1
        if reason is None:
            return
        self._items_by_reason[reason] += 1
        self._domains_by_reason[reason].add(domain)
        if not reason.failure:
            self.stats.inc_value(keys.ITEMS_SINGLE_PAGE.format(reason=reason.key))
            if (domain, reason) not in self._told:
                self._told.add((domain, reason))
                logger.info(
                    "boilerplate: pages of %s are cleaned by the single-page %s where %s (%s)",
                    domain,
                    self.fallback_label,
                    reason.what,
                    reason.key,
                )
            return
        self.stats.inc_value(keys.ITEMS_FALLBACK)
        self.stats.inc_value(keys.ITEMS_FALLBACK_REASON.format(reason=reason.key))
        if domain not in self._warned:
            self._warned.add(domain)
            logger.warning(
                "boilerplate: items of %s are cleaned by the fallback %s: %s (%s); %s would change this",
                domain or "an item without a URL",
                self.fallback_label,
                reason.what,
                reason.key,
                reason.remedy,
            )

    def summary(self, skipped: dict[str, int]) -> str | None:
        """The close line: items by model, fallback reasons with their domains, items passed on uncleaned."""
        total = sum(self._items_by_model.values())
        if not total and not skipped:
            return None
        models = ", ".join(f"{name} {count}" for name, count in self._items_by_model.most_common())
        line = f"boilerplate: {total} items cleaned ({models or 'none'})"
        for failure, what in ((False, "by the single-page"), (True, "by the fallback")):
            counts = [(reason, n) for reason, n in self._items_by_reason.most_common() if reason.failure is failure]
            if counts:
                reasons = ", ".join(
                    f"{reason.key} {count} in {len(self._domains_by_reason[reason])} domains"
                    for reason, count in counts
                )
                line += f"; {sum(n for _, n in counts)} {what} {self.fallback_label}: {reasons}"
        if skipped:
            line += "; passed on uncleaned: " + ", ".join(f"{k} {v}" for k, v in sorted(skipped.items()))
        return line

    def log_summary(self, skipped: dict[str, int]) -> None:
        """Log :meth:`summary` at INFO (spider close)."""
        line = self.summary(skipped)
        if line is not None:
            logger.info(line)
