"""What a collection's ``manifest.json`` says about its pages: the collection, the page type, empty gold.

Each development set holds a ``manifest.json`` whose ``pages[]`` name every page by ``path``
(``<site>/<page>``, relative to the set's folder); WCXB's also give each page's ``page_type``
(article, forum, product, collection, listing, documentation, service) and ``gold_empty`` (the
page shows no main content: the right output is empty).  A folder of several sets is read set by
set, so pages of every set are known by their own manifest.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from scrapy_boilerplate.corpus import page_name

logger = logging.getLogger(__name__)

MANIFEST = "manifest.json"
MAX_MANIFEST_DEPTH = 2  # a set's manifest lies in the folder given or in one of its sub-folders
PAGE_TYPES: tuple[str, ...] = ("article", "forum", "product", "collection", "listing", "documentation", "service")


@dataclass(frozen=True)
class PageLabel:
    """One page's entry in its collection's manifest."""

    collection: str  # the name of the folder that holds the manifest
    page_type: str | None  # one of PAGE_TYPES, or None where the manifest gives none
    gold_empty: bool = False


def page_key(page: Path) -> Path:
    """The key of a page in :func:`page_labels`: its absolute folder and name, without the suffix
    (links are not followed, so a set linked into a folder is known by the path the folder gives)."""
    return Path(os.path.abspath(page)).parent / page_name(page)


def _manifests(data_dir: Path) -> list[Path]:
    """The manifests in ``data_dir`` and in its folders down to :data:`MAX_MANIFEST_DEPTH` levels."""
    found = []
    base = len(data_dir.parts)
    for dirpath, dirnames, filenames in os.walk(data_dir, followlinks=True):
        here = Path(dirpath)
        if MANIFEST in filenames:
            found.append(here / MANIFEST)
        if len(here.parts) - base >= MAX_MANIFEST_DEPTH - 1:
            dirnames.clear()
        dirnames.sort()
    return found


def _labels_of(manifest: Path) -> dict[Path, PageLabel]:
    """The labels one manifest gives (none, with a warning, when it cannot be read as one)."""
    try:
        document = json.loads(manifest.read_bytes())
        entries = document["pages"]
        folder = Path(os.path.abspath(manifest.parent))
        labels = {}
        for entry in entries:
            kind = entry.get("page_type")
            label = PageLabel(folder.name, kind if kind in PAGE_TYPES else None, bool(entry.get("gold_empty")))
            labels[folder / entry["path"]] = label
        return labels
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        logger.warning("ignoring %s: not a collection manifest (%r)", manifest, exc)
        return {}


def page_labels(data_dir: Path) -> dict[Path, PageLabel]:
    """Every page the manifests under ``data_dir`` describe, by :func:`page_key`."""
    labels: dict[Path, PageLabel] = {}
    for manifest in _manifests(Path(data_dir)):
        labels.update(_labels_of(manifest))
    return labels
