"""What the block models (``block_dup``, ``entropy``) share: a page's text blocks, stable feature
hashes, per-site helpers and the assembly of a cleaned page from kept/removed blocks."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from scrapy_boilerplate.html import BLOCK_TAGS, Block, iter_blocks
from scrapy_boilerplate.html.structure import kept_blocks_html
from scrapy_boilerplate.html.walk import element_path_finder
from scrapy_boilerplate.models.base import CleanedPage, Decision
from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.tokenize import tokenize

# The TABLE-only partition of InfoDiscoverer; BODY collects the text outside every table.
TABLE_TAGS: frozenset[str] = frozenset({"table", "body"})
PARTITIONS: dict[str, frozenset[str]] = {"blocks": BLOCK_TAGS, "table": TABLE_TAGS}
BLOCK_SEPARATOR = "\n\n"


def text_blocks(page: Page, tags: frozenset[str] = BLOCK_TAGS) -> list[Block]:
    """The blocks of ``page``'s body that hold visible text (textless blocks carry no content)."""
    if tags == BLOCK_TAGS:
        return list(page.text_blocks())
    return [block for block in iter_blocks(page.body, tags=tags) if block.text]


def text_lines(text: str) -> list[str]:
    """A block's text lines: split on newlines, lower-cased, whitespace-only lines dropped."""
    return [line.strip().lower() for line in text.split("\n") if line and not line.isspace()]


def stable_keys(strings: Iterable[str]) -> np.ndarray:
    """64-bit hashes of ``strings`` that are the same in every process (unlike ``hash``)."""
    out = []
    for text in strings:
        data = text.encode("utf-8", "surrogatepass")
        out.append((zlib.crc32(data) << 32) | zlib.adler32(data))
    return np.array(out, dtype=np.uint64)


def expand_ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(start, start + count)`` for every pair, without a Python loop."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    return np.repeat(starts.astype(np.int64), counts) + offsets


def check_array(arrays: dict[str, np.ndarray], name: str, kind: str, ndim: int = 1) -> np.ndarray:
    """``arrays[name]`` if it exists with dtype kind ``kind`` ("i", "u", "f", "b") and ``ndim``."""
    array = arrays.get(name)
    if not isinstance(array, np.ndarray) or array.dtype.kind != kind or array.ndim != ndim:
        raise ModelFormatError(f"array {name!r} is missing or malformed")
    return array


@dataclass(frozen=True)
class BlockVerdict:
    """Whether one block is kept, and why, in the model's own terms."""

    kept: bool
    reason: str


def assemble(
    page: Page,
    blocks: Sequence[Block],
    verdicts: Sequence[BlockVerdict],
    model: str,
    score: float | None = None,
    tags: frozenset[str] = BLOCK_TAGS,
) -> CleanedPage:
    """The cleaned page made of the kept blocks (found with block ``tags``), with one decision per
    block; ``score`` defaults to the share of blocks kept."""
    getpath = element_path_finder(page.tree)
    kept = [block for block, verdict in zip(blocks, verdicts, strict=False) if verdict.kept]
    text = BLOCK_SEPARATOR.join(block.text for block in kept)
    total = len(BLOCK_SEPARATOR.join(block.text for block in blocks))
    html = partial(kept_blocks_html, page.body, kept, tags)  # serialised when read
    decisions = tuple(
        Decision(getpath(block.element), verdict.kept, len(block.text), verdict.reason)
        for block, verdict in zip(blocks, verdicts, strict=False)
    )
    if score is None:
        score = len(kept) / len(blocks) if blocks else 0.0
    return CleanedPage(text, html, model, total, len(text), score, decisions)


def block_terms(blocks: Sequence[Block]) -> list[list[str]]:
    """Each block's terms (the project's tokens), in order, repeats kept."""
    return [tokenize(block.text) for block in blocks]
