"""Documents as one numpy array of symbols, preprocessed as the n-gram paper says.

Tabs, newlines and other ASCII whitespace become a space and runs of spaces collapse; every
document keeps a map from its preprocessed characters back to offsets in the original text,
so ranges found on the preprocessed string can be reported on ``page.html``.  The documents
are concatenated with a separator symbol (id 0) before, between and after them, so that no
n-gram can cross a document boundary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

SEP = 0  # symbol id of the document separator
SPACE = 32
DELIMITER_CODES = (ord("<"), ord(">"))
_UNICODE_SIZE = 0x110000


def code_points(text: str) -> np.ndarray:
    """The code points of ``text`` as uint32 (lone surrogates kept as their own values)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def collapse(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Preprocessed code points of ``text`` and, for each, its offset in ``text``."""
    codes = code_points(text)
    space = (codes - np.uint32(9) <= 4) | (codes == SPACE)  # 9-13 or 32 (below 9 wraps around)
    keep = ~space
    keep[1:] |= ~space[:-1]
    keep[:1] = True
    # every whitespace character as a space, then the kept ones: one pass each, no gather by index
    return np.where(space, np.uint32(SPACE), codes)[keep], np.flatnonzero(keep)


@dataclass(frozen=True)
class Corpus:
    """Preprocessed documents as compact symbol ids with separators around each one."""

    ids: np.ndarray  # uint16 or uint32 symbol ids, SEP around every document
    alphabet: np.ndarray  # uint32 code point of each symbol id (id 0 = separator)
    starts: np.ndarray  # int64 index in ``ids`` of each document's first symbol
    lengths: np.ndarray  # int64 preprocessed length of each document

    @property
    def size(self) -> int:
        """Number of symbols including separators."""
        return len(self.ids)

    def delimiter_mask(self) -> np.ndarray:
        """True where the symbol is ``<`` or ``>``."""
        wanted = np.flatnonzero(np.isin(self.alphabet, np.array(DELIMITER_CODES, dtype=np.uint32)))
        return np.isin(self.ids, wanted.astype(self.ids.dtype))


def _build(texts: Sequence[str], codes_of: Callable[[str], np.ndarray]) -> Corpus:
    """Two passes over ``texts`` (alphabet, then symbols) so only one document's codes live at a time."""
    present = np.zeros(_UNICODE_SIZE, dtype=bool)
    lengths = np.zeros(len(texts), dtype=np.int64)
    for i, text in enumerate(texts):
        codes = codes_of(text)
        present[codes] = True
        lengths[i] = len(codes)
    alphabet = np.concatenate([np.zeros(1, dtype=np.uint32), np.flatnonzero(present).astype(np.uint32)])
    del present
    dtype = np.uint16 if len(alphabet) <= np.iinfo(np.uint16).max else np.uint32
    lookup = np.zeros(_UNICODE_SIZE, dtype=dtype)
    lookup[alphabet[1:]] = np.arange(1, len(alphabet), dtype=dtype)
    starts = np.cumsum(lengths + 1) - lengths  # a separator before each document
    ids = np.zeros(int(lengths.sum() + len(texts) + 1), dtype=dtype)
    for text, start, length in zip(texts, starts, lengths, strict=False):
        ids[start : start + length] = lookup[codes_of(text)]
    return Corpus(ids, alphabet, starts, lengths)


def build_corpus(texts: Sequence[str]) -> Corpus:
    """A corpus of raw documents (e.g. ``page.html``), preprocessed as the paper says."""
    return _build(texts, lambda text: collapse(text)[0])


def corpus_of(texts: Sequence[str]) -> Corpus:
    """A corpus of already preprocessed strings (as the paper's reference functions take them)."""
    return _build(texts, code_points)
