"""Misspelt ``BOILERPLATE_*`` setting names: Scrapy ignores a name nobody reads, so the plugin says so."""

from __future__ import annotations

import difflib
import logging
from collections.abc import Collection

from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

PREFIX = "BOILERPLATE_"


def closest_name(name: str, known: Collection[str]) -> str:
    """The known setting name most like ``name`` (a misspelling's likely intent)."""
    return max(sorted(known), key=lambda candidate: difflib.SequenceMatcher(None, name, candidate).ratio())


def warn_unknown_settings(settings: BaseSettings, known: Collection[str]) -> list[str]:
    """Log one WARNING per ``BOILERPLATE_*`` setting that is not in ``known``, naming the closest known
    one; returns the unknown names."""
    unknown = sorted(name for name in settings if isinstance(name, str) and name.startswith(PREFIX))
    unknown = [name for name in unknown if name not in known]
    for name in unknown:
        logger.warning(
            "boilerplate: unknown setting %s is ignored; did you mean %s?",
            name,
            closest_name(name, known),
        )
    return unknown
