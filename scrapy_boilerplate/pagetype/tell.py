"""Telling a page's type where a run asks for it: the classifier (and numpy with it) is imported on
the first page told, so a crawl or an extraction that never asks never loads them."""

from __future__ import annotations

import logging

from scrapy_boilerplate.models.base import PageType
from scrapy_boilerplate.page import Page

logger = logging.getLogger(__name__)


def tell_page_type(page: Page) -> PageType | None:
    """``page``'s type with the shipped weights; None, and a warning naming the page, when it cannot
    be told (one odd page never stops a run)."""
    try:
        from scrapy_boilerplate.pagetype.classify import PageTypeClassifier

        return PageTypeClassifier().classify(page)
    except Exception as exc:
        logger.warning("boilerplate: could not tell the type of %s (%r); its page type is empty", page.url, exc)
        return None
