"""Stats keys of the plugin, all under ``boilerplate/`` (``component/event[/detail]``, as Scrapy does)."""

from __future__ import annotations

PREFIX = "boilerplate/"

SAMPLE_PAGES = "boilerplate/sample/pages"
SAMPLE_SKIPPED = "boilerplate/sample/skipped/{reason}"  # non_html, empty, too_large, status
MODELS_FITTED = "boilerplate/models/fitted"
FIT_SECONDS = "boilerplate/models/fit_seconds"
DOMAINS_FALLBACK = "boilerplate/domains/fallback"
ITEMS_CLEANED = "boilerplate/items/cleaned/{model}"
ITEMS_FALLBACK = "boilerplate/items/fallback"
ITEMS_HELD = "boilerplate/items/held"
ITEMS_RELEASED = "boilerplate/items/released/{reason}"  # model, deadline, quiet, closing
ITEMS_HOLD_FULL = "boilerplate/items/hold_full"
ITEMS_SKIPPED = "boilerplate/items/skipped/{reason}"  # opt_out, no_html, not_html, too_large, undeclared_field
CHARS_TOTAL = "boilerplate/chars/total"
CHARS_REMOVED = "boilerplate/chars/removed"
REMOVED_SHARE = "boilerplate/removed_share"
ERRORS = "boilerplate/errors/{kind}"

# Every documented key pattern (the docs test compares this with docs/README).
ALL_KEYS: tuple[str, ...] = (
    SAMPLE_PAGES, SAMPLE_SKIPPED, MODELS_FITTED, FIT_SECONDS, DOMAINS_FALLBACK, ITEMS_CLEANED,
    ITEMS_FALLBACK, ITEMS_HELD, ITEMS_RELEASED, ITEMS_HOLD_FULL, ITEMS_SKIPPED, CHARS_TOTAL,
    CHARS_REMOVED, REMOVED_SHARE, ERRORS,
)
