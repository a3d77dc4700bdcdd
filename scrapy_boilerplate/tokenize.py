"""The one tokeniser: NFKC, case-folded runs of letters/digits/marks, one token per CJK/Thai char.

It is the token definition of the evaluation metric (``../shared/datasets/README.md``), and
models that count words use it too, so "a word" means the same thing everywhere.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from collections import Counter

# Scripts written without spaces between words; each character is one token.
_UNSPACED_RANGES = (
    (0x0E00, 0x0E7F),  # Thai
    (0x0E80, 0x0EFF),  # Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3134F),  # CJK extensions B..G
)


def _char_class(ranges: list[tuple[int, int]]) -> str:
    return "".join(
        re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ranges
    )


# Where combining marks can be: planes 0-2 from U+0300, and plane 14 (variation selectors).  Plane 3
# holds CJK ideographs only, planes 4-13 nothing, 15-16 private use; the scan of these spans is
# a quarter of a scan of every code point (~70 ms saved on a crawl's first non-ASCII text), and a
# test checks that it finds the same ranges as the full scan under this Python's Unicode tables.
MARK_SPANS: tuple[tuple[int, int], ...] = ((0x300, 0x2FFFF), (0xE0000, 0xEFFFF))


def mark_ranges(spans: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """Code point ranges of Unicode categories Mn, Mc, Me within ``spans`` (in order)."""
    ranges: list[tuple[int, int]] = []
    for lo, hi in spans:
        for cp in range(lo, min(hi, sys.maxunicode) + 1):
            if unicodedata.category(chr(cp))[0] == "M":
                if ranges and ranges[-1][1] == cp - 1:
                    ranges[-1] = (ranges[-1][0], cp)
                else:
                    ranges.append((cp, cp))
    return ranges


@functools.cache
def _combining_mark_ranges() -> list[tuple[int, int]]:
    """Code point ranges of combining marks (computed once, on first use)."""
    return mark_ranges(MARK_SPANS)


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    unspaced = re.compile(f"([{_char_class(list(_UNSPACED_RANGES))}])")
    word = re.compile(rf"[\w{_char_class(_combining_mark_ranges())}]+")
    return unspaced, word


# On ASCII text the rules below reduce to runs of ``[a-z0-9]`` in the lower-cased text: NFKC changes
# nothing, case-folding is lower(), no character is unspaced, and ``\w`` is ``[A-Za-z0-9_]`` with
# ``_`` a separator.  Every other ASCII character turned into a space, ``str.split`` cuts exactly
# those runs, at a third of the cost of ``re.findall("[a-z0-9]+")`` on prose (whose class test and
# match scan run per character).
_ASCII_SEPARATORS = str.maketrans(
    {chr(c): " " for c in range(128) if not ("a" <= chr(c) <= "z" or "0" <= chr(c) <= "9")}
)


# Non-ASCII characters the rules below read as a space wherever they stand: typographic quotes and
# dashes, bullets, arrows, signs and spaces (NFKC turns each into nothing but non-word characters;
# a test checks every one against the full rules).  Text whose only non-ASCII characters are these
# (nine in ten non-ASCII blocks of news pages: curly quotes) takes the ASCII path, four times faster.
SEPARATOR_SYMBOLS = (
    "\u00a0\u2002\u2003\u2009\u200a\u202f\u205f\u3000"  # spaces
    "\u2018\u2019\u201a\u201c\u201d\u201e\u2039\u203a\u00ab\u00bb"  # quotes
    "\u2010\u2011\u2012\u2013\u2014\u2015\u2026\u00bf\u00a1\u00a7\u00b6\u2020\u2021\u2030\u2032\u2033"  # punctuation
    "\u00b7\u2022\u2023\u2043\u25a0\u25a1\u25b2\u25b6\u25bc\u25c0\u25c4\u25ba\u25c6\u25c7\u25cf\u25cb"  # bullets
    "\u2190\u2191\u2192\u2193\u2605\u2660\u2663\u2665\u2666\u2713\u2714\u2717\u2718"  # arrows, marks
    "\u00a2\u00a3\u00a4\u00a5\u20ac\u00a9\u00ae\u00b0\u00b1\u00d7\u00ac\u00a6"  # signs
)
_SEPARATOR_SYMBOL = re.compile(f"[{SEPARATOR_SYMBOLS}]")


def tokenize(text: str | None) -> list[str]:
    """Word tokens of ``text`` as the metric defines them (underscore separates words)."""
    if not text:
        return []
    if text.isascii():  # most text of most pages: the same tokens, four times faster
        return text.lower().translate(_ASCII_SEPARATORS).split()
    spaced = _SEPARATOR_SYMBOL.sub(" ", text)
    if spaced.isascii():
        return spaced.lower().translate(_ASCII_SEPARATORS).split()
    return unicode_tokens(text)


def unicode_tokens(text: str) -> list[str]:
    """:func:`tokenize` by the full rules, for any text (the fast paths above give the same tokens)."""
    unspaced, word = _patterns()
    text = unicodedata.normalize("NFKC", text).casefold().replace("_", " ")
    return word.findall(unspaced.sub(r" \1 ", text))


def token_bag(text: str | None) -> Counter[str]:
    """Multiset of the tokens of ``text``."""
    return Counter(tokenize(text))


_ASCII_WORD = re.compile("[A-Za-z0-9]+")
_NON_SPACE = re.compile(r"\S+")


@functools.lru_cache(maxsize=4096)
def _char_kind(char: str) -> str:
    """``"u"`` for a character of an unspaced script (a token of its own), ``"w"`` for one that is
    part of a word (it yields tokens once NFKC-normalised), ``""`` for a separator."""
    tokens = tokenize(char)
    if not tokens:
        return ""
    unspaced, _ = _patterns()
    return "u" if unspaced.search(unicodedata.normalize("NFKC", char)) else "w"


def _chunk_spans(chunk: str, offset: int) -> list[tuple[int, int, str]]:
    """Token spans of a non-ASCII run without whitespace; the run as one span when its pieces'
    tokens differ from its own (NFKC composing across a separator: never seen in real text)."""
    spans: list[tuple[int, int, str]] = []
    start = None
    for i, char in enumerate([*chunk, " "]):
        kind = _char_kind(char) if char != " " else ""
        if kind == "w" and start is None:
            start = i
        if kind != "w" and start is not None:
            spans += [(offset + start, offset + i, token) for token in tokenize(chunk[start:i])]
            start = None
        if kind == "u":
            spans += [(offset + i, offset + i + 1, token) for token in tokenize(char)]
    if [token for _, _, token in spans] != tokenize(chunk):
        return [(offset, offset + len(chunk), token) for token in tokenize(chunk)]
    return spans


def token_spans(text: str | None) -> list[tuple[int, int, str]]:
    """``tokenize(text)`` with where each token lies in ``text``: ``(start, end, token)`` in order.

    The tokens are exactly ``tokenize(text)``'s; characters that NFKC expands to several tokens
    (``½`` is ``1``, ``2``) give each of them the same span.
    """
    if not text:
        return []
    if text.isascii():
        return [(m.start(), m.end(), m.group().lower()) for m in _ASCII_WORD.finditer(text)]
    spans: list[tuple[int, int, str]] = []
    for match in _NON_SPACE.finditer(text):
        chunk, offset = match.group(), match.start()
        if chunk.isascii():
            spans += [(offset + m.start(), offset + m.end(), m.group().lower()) for m in _ASCII_WORD.finditer(chunk)]
        else:
            spans += _chunk_spans(chunk, offset)
    return spans
