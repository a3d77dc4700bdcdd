"""The page types, in the order the classifier's outputs follow."""

from __future__ import annotations

NO_CONTENT = "no_content"  # a page with no main content: a login wall, an error page, an empty listing
PAGE_TYPES: tuple[str, ...] = (
    "article",
    "forum",
    "product",
    "collection",
    "listing",
    "documentation",
    "service",
    NO_CONTENT,
)
