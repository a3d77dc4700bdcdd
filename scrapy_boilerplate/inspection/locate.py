"""Where a piece of the parsed tree's text lies in ``page.html``: the link between ``chars:`` ranges and the tree.

The parser decodes entities (``&rsquo;`` -> ``’``) and line ends (CRLF -> LF), so text is found in
a decoded copy of the source that keeps a map back to source offsets.  Each piece is searched
from the start of its element's source line (lxml's ``sourceline``), or from where the previous
piece ended when that is further on the same line, so one wrong match cannot push every later
piece out of reach.
"""

from __future__ import annotations

import bisect
import html
import re

_DECODED_RE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?|\r\n?")
_BODY_RE = re.compile(r"<body[\s>]", re.IGNORECASE)
_PLAIN_PREFIX_RE = re.compile(r"[<>\r]")  # text before one of these is compared as is
MIN_ANCHOR_CHARS = 8  # a shorter piece is matched verbatim only and never moves the cursor


class DecodedSource:
    """``page.html`` with entities and line ends decoded, mapped back to source offsets."""

    def __init__(self, source: str) -> None:
        parts: list[str] = []
        # (decoded offset, source offset) at the start of each stretch; stretches alternate
        # between copied text (same length in both) and one decoded entity or line end.
        self._decoded_starts: list[int] = []
        self._source_starts: list[int] = []
        decoded = copied_from = 0
        for match in _DECODED_RE.finditer(source):
            self._mark(decoded, copied_from)
            parts.append(source[copied_from : match.start()])
            decoded += match.start() - copied_from
            raw = match.group()
            replacement = "\n" if raw[0] == "\r" else html.unescape(raw)
            self._mark(decoded, match.start())
            parts.append(replacement)
            decoded += len(replacement)
            copied_from = match.end()
        self._mark(decoded, copied_from)
        parts.append(source[copied_from:])
        self.text = "".join(parts)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        body = _BODY_RE.search(self.text)
        self.body_start = body.start() if body else 0

    def _mark(self, decoded: int, source: int) -> None:
        self._decoded_starts.append(decoded)
        self._source_starts.append(source)

    def to_decoded(self, source_offset: int) -> int:
        """The decoded offset of a source offset (an offset inside an entity maps to its start)."""
        k = bisect.bisect_right(self._source_starts, source_offset) - 1
        if k < 0:
            return 0
        decoded, source = self._decoded_starts[k], self._source_starts[k]
        if k % 2 == 0:  # copied text: same length on both sides
            return decoded + (source_offset - source)
        return decoded  # inside one decoded entity or line end

    def line_start(self, line: int | None) -> int:
        """Decoded offset where 1-based source ``line`` starts (0 when unknown)."""
        if not line or line < 1:
            return 0
        return self.line_starts[min(line, len(self.line_starts)) - 1]


class Locator:
    """Finds text pieces, in document order, in a :class:`DecodedSource`."""

    def __init__(self, source: DecodedSource) -> None:
        self.source = source
        self.cursor = source.body_start

    def _line_span(self, line: int) -> tuple[int, int]:
        starts = self.source.line_starts
        end = starts[line] if line < len(starts) else len(self.source.text)
        return self.source.line_start(line), end

    def _find(self, core: str, start: int) -> tuple[int, bool] | None:
        text = self.source.text
        pos = text.find(core, start)
        if pos >= 0:
            return pos, True
        prefix = _PLAIN_PREFIX_RE.split(core, maxsplit=1)[0]
        pos = text.find(prefix, start) if len(prefix) >= MIN_ANCHOR_CHARS else -1
        return (pos, False) if pos >= 0 else None

    def locate(self, core: str, line: int | None, is_tail: bool) -> tuple[int, bool] | None:
        """Decoded offset of stripped text ``core`` and whether it matched exactly.

        ``line`` is the source line of the element that holds the text (``is_tail`` false) or
        that the text follows (``is_tail`` true): text is searched from that line's start, or
        from the cursor when the cursor is on that line; a tail is searched from the cursor first.
        """
        starts = []
        if is_tail or not line:
            starts.append(self.cursor)
        if line:
            line_start, line_end = self._line_span(line)
            starts.append(self.cursor if line_start <= self.cursor < line_end else line_start)
        found = None
        for start in starts:
            found = self._find(core, start)
            if found is not None:
                break
        if found is not None and len(core) >= MIN_ANCHOR_CHARS:
            pos, exact = found
            self.cursor = pos + (len(core) if exact else 1)
        return found
