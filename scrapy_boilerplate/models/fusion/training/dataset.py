"""Labelled training rows from gold-annotated sites, in both regimes.

Every page with gold gives its blocks' page features once with site features (the site models
fitted on the site's first pages, as a crawl or ``bench`` fits them) when its site has two pages
or more, and once without (the single-page regime), so one set of weights serves both.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scrapy_boilerplate.corpus import Site, gold_path
from scrapy_boilerplate.models.fusion.heldout import site_key
from scrapy_boilerplate.models.fusion.page_features import page_blocks
from scrapy_boilerplate.models.fusion.site_features import SiteEvidence
from scrapy_boilerplate.models.fusion.training.labels import block_labels
from scrapy_boilerplate.offline import load_page
from scrapy_boilerplate.page import Page

logger = logging.getLogger(__name__)


@dataclass
class PageRows:
    """One labelled page: its blocks' features in both regimes, role words, labels and sizes."""

    site: str  # the site key (see heldout.site_key)
    path: str
    features: np.ndarray  # float32 page features
    site_features: np.ndarray | None  # float32 site features; None when the site has one page
    roles: list[frozenset[str]]
    labels: np.ndarray  # float32 share of each block's tokens in the gold
    tokens: np.ndarray  # int32 tokens per block
    gold_tokens: int  # tokens of the gold text


def _gold(path: Path) -> str | None:
    gold = gold_path(path)
    return gold.read_text(encoding="utf-8", errors="replace") if gold.is_file() else None


def site_rows(site: Site, sample_size: int) -> list[PageRows]:
    """The labelled rows of every page of ``site`` that has gold."""
    pages: list[tuple[Path, Page]] = []
    for path in site.pages:
        try:
            pages.append((path, load_page(path)))
        except (OSError, ValueError) as exc:
            logger.warning("skipping %s: %s", path, exc)
    evidence = SiteEvidence().fit([page for _, page in pages[:sample_size]])
    key = site_key(site)
    out = []
    for path, page in pages:
        gold = _gold(path)
        if gold is None:
            continue
        found = page_blocks(page, None)
        if not found.blocks:
            continue
        site_part = evidence.features(page, found.blocks, found.tokens) if evidence.present else None
        labels, gold_tokens = block_labels(found.tokens, gold)
        out.append(
            PageRows(
                key,
                str(path),
                found.features.astype(np.float32),
                None if site_part is None else site_part.astype(np.float32),
                found.roles,
                labels.astype(np.float32),
                np.array([len(t) for t in found.tokens], dtype=np.int32),
                gold_tokens,
            )
        )
    return out


def corpus_rows(sites: list[Site], sample_size: int, on_site: Callable[[], None] | None = None) -> list[PageRows]:
    """Rows of every site, in the given order."""
    rows: list[PageRows] = []
    for site in sites:
        rows.extend(site_rows(site, sample_size))
        if on_site is not None:
            on_site()
    return rows
