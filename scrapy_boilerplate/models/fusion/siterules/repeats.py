"""What repeats across a template's sample pages: a block's place (its path), its text, or both.

On a 2012 news site a block repeated across pages is nearly always boilerplate; on a documentation
or product template the headings, spec labels and tabs repeat too, in the markup, while their text
varies from page to page (or the label repeats and sits among text that varies).  Three counts per
block tell these apart, each over the sample pages other than the page itself:

- ``path_share``: the share of those pages that hold a block on the same path;
- ``text_share``: the share that hold a block of the same text anywhere;
- ``path_text_same``: of the pages holding the path, the share whose blocks there have this text;

and one says where the block sits: ``in_varying_core``, whether it lies between the first and the
last block of the page whose text no other sample page holds (the part of the page that varies).
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scrapy_boilerplate.models.errors import ModelFormatError

REPEAT_FEATURES: tuple[str, ...] = ("path_share", "text_share", "path_text_same", "in_varying_core")


def _key(text: str) -> int:
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


def _page_keys(paths: Sequence[str], texts: Sequence[str]) -> tuple[set[int], set[int], set[int]]:
    """A page's distinct path, text and (path, text) keys."""
    path_keys = {_key(path) for path in paths}
    text_keys = {_key(text) for text in texts}
    pair_keys = {_key(path + "\0" + text) for path, text in zip(paths, texts, strict=True)}
    return path_keys, text_keys, pair_keys


@dataclass
class RepeatIndex:
    """On how many sample pages each path, text and (path, text) key appears."""

    pages: int = 0
    paths: Counter[int] = field(default_factory=Counter)
    texts: Counter[int] = field(default_factory=Counter)
    pairs: Counter[int] = field(default_factory=Counter)
    digests: list[int] = field(default_factory=list)  # each sample page's HTML digest

    def add_page(self, html: str, paths: Sequence[str], texts: Sequence[str]) -> None:
        """Count one sample page's blocks."""
        path_keys, text_keys, pair_keys = _page_keys(paths, texts)
        self.pages += 1
        self.paths.update(path_keys)
        self.texts.update(text_keys)
        self.pairs.update(pair_keys)
        self.digests.append(_key(html))

    def features(self, html: str, paths: Sequence[str], texts: Sequence[str]) -> np.ndarray:
        """One row of :data:`REPEAT_FEATURES` per block (NaN with no other sample page)."""
        rows = np.full((len(paths), len(REPEAT_FEATURES)), np.nan)
        own = 1 if _key(html) in self.digests else 0  # a sample page is compared with the others only
        others = self.pages - own
        if others < 1 or not len(paths):
            return rows
        for i, (path, text) in enumerate(zip(paths, texts, strict=True)):
            path_pages = self.paths[_key(path)] - own
            rows[i, 0] = path_pages / others
            rows[i, 1] = (self.texts[_key(text)] - own) / others
            if path_pages > 0:
                rows[i, 2] = (self.pairs[_key(path + "\0" + text)] - own) / path_pages
        novel = np.flatnonzero(rows[:, 1] == 0.0)
        rows[:, 3] = 0.0
        if len(novel):
            rows[novel[0] : novel[-1] + 1, 3] = 1.0
        return rows

    def state(self) -> dict[str, Any]:
        """JSON-able state (keys as sorted [key, pages] pairs)."""
        return {
            "pages": self.pages,
            "paths": sorted(self.paths.items()),
            "texts": sorted(self.texts.items()),
            "pairs": sorted(self.pairs.items()),
            "digests": self.digests,
        }

    @classmethod
    def from_state(cls, state: Any) -> RepeatIndex:
        """Rebuild what :meth:`state` gave; raise ``ModelFormatError`` on anything else."""
        try:
            paths, texts, pairs = (
                Counter({int(k): int(n) for k, n in state[name]}) for name in ("paths", "texts", "pairs")
            )
            index = cls(int(state["pages"]), paths, texts, pairs, [int(d) for d in state["digests"]])
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFormatError(f"bad repeat index state: {exc!r}") from None
        if len(index.digests) != index.pages or any(n > index.pages for c in (paths, texts, pairs) for n in c.values()):
            raise ModelFormatError("bad repeat index state: counts over its page count")
        return index
