"""Labelled training rows from gold-annotated sites, in both regimes.

Every page with gold gives the values of every feature of the layout (:mod:`..layout`, the one
assembly inference uses too): the site features with the site models fitted on the site's first
pages, as a crawl or ``bench`` fits them, when its site has two pages or more.  Each such page is
then a training example with its site features and once without (the single-page regime), so one
set of weights serves both.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scrapy_boilerplate.corpus import Site, gold_path
from scrapy_boilerplate.models.fusion.heldout import site_key
from scrapy_boilerplate.models.fusion.inputs import PageInputs
from scrapy_boilerplate.models.fusion.layout import FeatureLayout, PageValues
from scrapy_boilerplate.models.fusion.site_evidence import SiteEvidence
from scrapy_boilerplate.models.fusion.training.labels import block_labels
from scrapy_boilerplate.offline import load_page
from scrapy_boilerplate.page import Page

logger = logging.getLogger(__name__)


@dataclass
class PageRows:
    """One labelled page: its features' values (float32 arrays; a learned feature's observations),
    whether they include site features, the blocks' labels and sizes."""

    site: str  # the site key (see heldout.site_key)
    path: str
    values: PageValues
    with_site: bool  # False: the site has one page, its site features are missing
    labels: np.ndarray  # float32 share of each block's tokens in the gold
    tokens: np.ndarray  # int32 tokens per block
    gold_tokens: int  # tokens of the gold text


def _stored(values: PageValues) -> PageValues:
    """``values`` with every array as float32 (a training corpus holds hundreds of thousands of rows)."""
    return {
        name: value.astype(np.float32) if isinstance(value, np.ndarray) else value for name, value in values.items()
    }


def _gold(path: Path) -> str | None:
    gold = gold_path(path)
    return gold.read_text(encoding="utf-8", errors="replace") if gold.is_file() else None


def site_rows(site: Site, sample_size: int, layout: FeatureLayout) -> list[PageRows]:
    """The labelled rows of every page of ``site`` that has gold, with the values of ``layout``'s features."""
    pages: list[tuple[Path, Page]] = []
    for path in site.pages:
        try:
            pages.append((path, load_page(path)))
        except (OSError, ValueError) as exc:
            logger.warning("skipping %s: %s", path, exc)
    evidence = SiteEvidence.fit([page for _, page in pages[:sample_size]], layout.parts)
    site_evidence = evidence if evidence.present else None
    key = site_key(site)
    out = []
    for path, page in pages:
        gold = _gold(path)
        if gold is None:
            continue
        inputs = PageInputs.of(page, site_evidence)
        if not inputs.blocks:
            continue
        values = _stored(layout.compute(inputs))
        labels, gold_tokens = block_labels(inputs.tokens, gold)
        tokens = np.array([len(t) for t in inputs.tokens], dtype=np.int32)
        out.append(
            PageRows(key, str(path), values, site_evidence is not None, labels.astype(np.float32), tokens, gold_tokens)
        )
    return out


def corpus_rows(
    sites: list[Site], sample_size: int, layout: FeatureLayout, on_site: Callable[[], None] | None = None
) -> list[PageRows]:
    """Rows of every site, in the given order."""
    rows: list[PageRows] = []
    for site in sites:
        rows.extend(site_rows(site, sample_size, layout))
        if on_site is not None:
            on_site()
    return rows
