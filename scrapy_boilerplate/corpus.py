"""Saved pages on disk: every directory that directly holds pages is one site.

A page is ``<name>.html``, or ``<name>.html.gz`` (a gzipped page, as WCXB stores them); its gold
text, where a collection has one, is ``<name>.txt`` beside it, and every output written for it is
named ``<name>.txt`` too.
"""

from __future__ import annotations

import gzip
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

MAX_PAGE_BYTES = 50 * 1024 * 1024  # larger pages (unpacked) are refused, not read into memory
PAGE_SUFFIXES: tuple[str, ...] = (".html", ".html.gz")
_GZIP_SUFFIX = ".gz"


@dataclass(frozen=True)
class Site:
    """One site: its path relative to the corpus root and its pages in file-name order."""

    root: Path
    relative: Path
    pages: tuple[Path, ...]

    @property
    def name(self) -> str:
        """The site's directory name (its host, in the development sets)."""
        return self.relative.name or self.root.name


def is_page(name: str) -> bool:
    """True for a file name that holds a page (``*.html`` or ``*.html.gz``)."""
    return name.lower().endswith(PAGE_SUFFIXES)


def page_name(path: Path) -> str:
    """The page's name without its page suffix: ``0001`` for ``0001.html`` and ``0001.html.gz``."""
    name = path.name
    for suffix in sorted(PAGE_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def gold_path(page: Path) -> Path:
    """The gold text lying beside a page (``<name>.txt``)."""
    return page.with_name(page_name(page) + ".txt")


def find_sites(root: str | Path) -> list[Site]:
    """All sites under ``root``, sorted by relative path; pages sorted by file name."""
    root = Path(root)
    if not root.is_dir():
        raise NotADirectoryError(f"{root} is not a directory")
    sites = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        dirnames.sort()
        pages = sorted(name for name in filenames if is_page(name))
        if pages:
            directory = Path(dirpath)
            sites.append(Site(root, directory.relative_to(root), tuple(directory / name for name in pages)))
    return sorted(sites, key=lambda site: str(site.relative))


def read_page_bytes(path: Path) -> bytes:
    """The raw bytes of a saved page, unpacked when gzipped; raises ``OSError`` (or ``ValueError``
    when over the size cap, or for a broken gzip file)."""
    if not path.name.lower().endswith(_GZIP_SUFFIX):
        size = path.stat().st_size
        if size > MAX_PAGE_BYTES:
            raise ValueError(f"{path} is {size} bytes, over the {MAX_PAGE_BYTES}-byte page limit")
        return path.read_bytes()
    try:
        with gzip.open(path, "rb") as packed:
            body = packed.read(MAX_PAGE_BYTES + 1)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise ValueError(f"{path} is not a readable gzip file: {exc}") from None
    if len(body) > MAX_PAGE_BYTES:
        raise ValueError(f"{path} unpacks to over the {MAX_PAGE_BYTES}-byte page limit")
    return body
