"""Near-duplicate pages (the same article under two URLs), whose blocks must not be compared.

Yoshida & Yamamoto's main failure is an article published twice: every block then occurs on two
pages and is taken for boilerplate.  Their proposed fix is to find such page pairs first.  Here a
page's *rare lines* are its text lines found on at most ``RARE_PAGES`` sample pages and not on
all of them (template lines are on most pages); two pages are near-duplicates when the rare lines they share hold at
least ``NEAR_DUPLICATE_SHARE`` of the characters of either page's rare lines.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scrapy_boilerplate.models.blocks.common import check_array
from scrapy_boilerplate.models.errors import ModelFormatError

RARE_PAGES = 2  # a line on at most this many sample pages belongs to an article, not the template
NEAR_DUPLICATE_SHARE = 0.5  # shared rare characters over the larger page's rare characters


class NearDuplicates:
    """Document frequencies of the sample's lines and each sample page's rare lines."""

    def __init__(
        self,
        line_keys: np.ndarray,
        line_pages: np.ndarray,
        rare_keys: np.ndarray,
        rare_page: np.ndarray,
        rare_chars: np.ndarray,
        n_pages: int,
    ) -> None:
        self.line_keys, self.line_pages = line_keys, line_pages
        self.rare_keys, self.rare_page, self.rare_chars = rare_keys, rare_page, rare_chars
        self.n_pages = n_pages
        self.page_rare_chars = np.bincount(rare_page, weights=rare_chars, minlength=n_pages)

    @classmethod
    def build(cls, pages: Sequence[tuple[np.ndarray, np.ndarray]]) -> NearDuplicates:
        """From each sample page's (distinct line keys, line lengths)."""
        all_keys = np.concatenate([keys for keys, _ in pages]) if pages else np.zeros(0, np.uint64)
        line_keys, line_pages = np.unique(all_keys, return_counts=True)
        rare_keys, rare_page, rare_chars = [], [], []
        for number, (keys, chars) in enumerate(pages):
            rare = cls._rare(line_keys, line_pages, keys, len(pages))
            rare_keys.append(keys[rare])
            rare_page.append(np.full(int(rare.sum()), number, np.int32))
            rare_chars.append(chars[rare])
        empty_u, empty_i = np.zeros(0, np.uint64), np.zeros(0, np.int64)
        return cls(
            line_keys,
            line_pages.astype(np.int32),
            np.concatenate(rare_keys) if pages else empty_u,
            np.concatenate(rare_page) if pages else empty_i.astype(np.int32),
            np.concatenate(rare_chars) if pages else empty_i,
            len(pages),
        )

    @staticmethod
    def _rare(line_keys: np.ndarray, line_pages: np.ndarray, keys: np.ndarray, n_pages: int) -> np.ndarray:
        """Lines on at most ``RARE_PAGES`` sample pages and not on all of them."""
        position = np.clip(np.searchsorted(line_keys, keys), 0, max(len(line_keys) - 1, 0))
        found = (line_keys[position] == keys) if len(line_keys) else np.zeros(len(keys), bool)
        pages = np.where(found, line_pages[position] if len(line_keys) else 0, 0)
        return (pages <= RARE_PAGES) & (pages < n_pages)

    def of_page(self, keys: np.ndarray, chars: np.ndarray) -> np.ndarray:
        """Which sample pages a page with these distinct lines near-duplicates (bool per sample page)."""
        rare = self._rare(self.line_keys, self.line_pages, keys, self.n_pages)
        mine = float(chars[rare].sum())
        hits = np.isin(self.rare_keys, keys[rare])
        shared = np.bincount(self.rare_page[hits], weights=self.rare_chars[hits], minlength=self.n_pages)
        larger = np.maximum(self.page_rare_chars, mine)
        return (shared > 0) & (shared >= NEAR_DUPLICATE_SHARE * larger)

    def arrays(self) -> dict[str, np.ndarray]:
        """The numeric state, for saving."""
        return {
            "line_keys": self.line_keys,
            "line_pages": self.line_pages,
            "rare_keys": self.rare_keys,
            "rare_page": self.rare_page,
            "rare_chars": self.rare_chars,
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], n_pages: int) -> NearDuplicates:
        """Rebuild from :meth:`arrays`; raises ``ModelFormatError`` when they do not fit together."""
        line_keys, line_pages = check_array(arrays, "line_keys", "u"), check_array(arrays, "line_pages", "i")
        rare_keys, rare_page = check_array(arrays, "rare_keys", "u"), check_array(arrays, "rare_page", "i")
        rare_chars = check_array(arrays, "rare_chars", "i")
        if len(line_keys) != len(line_pages) or not (len(rare_keys) == len(rare_page) == len(rare_chars)):
            raise ModelFormatError("near-duplicate arrays disagree in length")
        if len(rare_page) and (rare_page.min() < 0 or rare_page.max() >= n_pages):
            raise ModelFormatError("near-duplicate page numbers out of range")
        return cls(line_keys, line_pages, rare_keys, rare_page, rare_chars, n_pages)
