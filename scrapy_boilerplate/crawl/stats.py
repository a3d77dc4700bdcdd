"""Stats keys of the plugin, all under ``boilerplate/`` (``component/event[/detail]``, as Scrapy does)."""

from __future__ import annotations

PREFIX = "boilerplate/"

SAMPLE_PAGES = "boilerplate/sample/pages"
SAMPLE_SKIPPED = "boilerplate/sample/skipped/{reason}"  # non_html, empty, too_large, status
SAMPLE_RESUMED = "boilerplate/sample/resumed"  # domains going on with a partial sample kept in JOBDIR
MODELS_FITTED = "boilerplate/models/fitted"
MODELS_PARTIAL = "boilerplate/models/partial"  # fitted on a partial sample at a graceful stop
FIT_SECONDS = "boilerplate/models/fit_seconds"
DOMAINS_FALLBACK = "boilerplate/domains/fallback"
TEMPLATES_FOUND = "boilerplate/templates/found"  # page templates found in this crawl (stored ones not counted)
TEMPLATES_WITHOUT_ITEMS = "boilerplate/templates/without_items"  # full samples never fitted: no item came
DOMAINS_EVICTED = "boilerplate/domains/evicted"
ITEMS_CLEANED = "boilerplate/items/cleaned/{model}"
ITEMS_FALLBACK = "boilerplate/items/fallback"
ITEMS_FALLBACK_REASON = "boilerplate/items/fallback/{reason}"  # see crawl.fallback.FallbackReason
ITEMS_SINGLE_PAGE = "boilerplate/items/single_page/{reason}"  # the page's template has no fit: no failure
ITEMS_HELD = "boilerplate/items/held"
ITEMS_RELEASED = "boilerplate/items/released/{reason}"  # model, or a fallback reason
ITEMS_RESCUED = "boilerplate/items/rescued"  # the model kept almost nothing: the longest prose block stands in
ITEMS_SKIPPED = "boilerplate/items/skipped/{reason}"  # opt_out, no_html, not_html, too_large, undeclared_field
# markdown, title, author, published, language, page_type: written, or empty (the page states none)
FIELDS = "boilerplate/fields/{field}/{outcome}"
PAGE_TYPES = "boilerplate/page_types/{type}"  # items of each page type (when its field is set)
CHARS_TOTAL = "boilerplate/chars/total"
CHARS_REMOVED = "boilerplate/chars/removed"
REMOVED_SHARE = "boilerplate/removed_share"
ERRORS = "boilerplate/errors/{kind}"
STORE_LOADED = "boilerplate/store/loaded"
STORE_SAVED = "boilerplate/store/saved"
STORE_CORRUPT = "boilerplate/store/corrupt"  # counted by the store itself (scrapy_boilerplate.store.base)
STORE_ERRORS = "boilerplate/store/errors"
MODELS_SHARED = "boilerplate/models/shared"
MODELS_REFITTED = "boilerplate/models/refitted"
DRIFT_DETECTED = "boilerplate/drift/detected"
RECOVERY_RECORDED = "boilerplate/recovery/recorded"  # waiting items recorded on the shared store
RECOVERY_UNRECORDABLE = "boilerplate/recovery/unrecordable"  # waiting items JSON cannot hold
RECOVERY_CLAIMED = "boilerplate/recovery/claimed"  # a dead worker's items taken over here
RECOVERY_TAKEN_OVER = "boilerplate/recovery/taken_over"  # items of this worker another took over
RECOVERY_CORRUPT = "boilerplate/recovery/corrupt"  # unreadable records, removed
RECOVERY_VANISHED = "boilerplate/recovery/vanished"  # records the server lost (items exported here)

# Every documented key pattern (the docs test compares this with docs/README).
ALL_KEYS: tuple[str, ...] = (
    SAMPLE_PAGES,
    SAMPLE_SKIPPED,
    SAMPLE_RESUMED,
    MODELS_FITTED,
    MODELS_PARTIAL,
    FIT_SECONDS,
    DOMAINS_FALLBACK,
    TEMPLATES_FOUND,
    TEMPLATES_WITHOUT_ITEMS,
    DOMAINS_EVICTED,
    ITEMS_CLEANED,
    ITEMS_FALLBACK,
    ITEMS_FALLBACK_REASON,
    ITEMS_SINGLE_PAGE,
    ITEMS_HELD,
    ITEMS_RELEASED,
    ITEMS_RESCUED,
    ITEMS_SKIPPED,
    FIELDS,
    PAGE_TYPES,
    CHARS_TOTAL,
    CHARS_REMOVED,
    REMOVED_SHARE,
    ERRORS,
    STORE_LOADED,
    STORE_SAVED,
    STORE_CORRUPT,
    STORE_ERRORS,
    MODELS_SHARED,
    MODELS_REFITTED,
    DRIFT_DETECTED,
    RECOVERY_RECORDED,
    RECOVERY_UNRECORDABLE,
    RECOVERY_CLAIMED,
    RECOVERY_TAKEN_OVER,
    RECOVERY_CORRUPT,
    RECOVERY_VANISHED,
)
