"""Saved pages on disk: every directory that directly holds ``*.html`` files is one site."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

MAX_PAGE_BYTES = 50 * 1024 * 1024  # larger files are refused as pages, not read into memory


@dataclass(frozen=True)
class Site:
    """One site: its path relative to the corpus root and its pages in file-name order."""

    root: Path
    relative: Path
    pages: tuple[Path, ...]

    @property
    def name(self) -> str:
        """The site's directory name (its host, in the development set)."""
        return self.relative.name or self.root.name


def find_sites(root: str | Path) -> list[Site]:
    """All sites under ``root``, sorted by relative path; pages sorted by file name."""
    root = Path(root)
    if not root.is_dir():
        raise NotADirectoryError(f"{root} is not a directory")
    sites = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        dirnames.sort()
        pages = sorted(name for name in filenames if name.lower().endswith(".html"))
        if pages:
            directory = Path(dirpath)
            sites.append(Site(root, directory.relative_to(root), tuple(directory / name for name in pages)))
    return sorted(sites, key=lambda site: str(site.relative))


def read_page_bytes(path: Path) -> bytes:
    """The raw bytes of a saved page; raises ``OSError`` (or ``ValueError`` when over the size cap)."""
    size = path.stat().st_size
    if size > MAX_PAGE_BYTES:
        raise ValueError(f"{path} is {size} bytes, over the {MAX_PAGE_BYTES}-byte page limit")
    return path.read_bytes()
