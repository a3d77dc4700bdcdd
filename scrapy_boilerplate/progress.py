"""A one-line progress display for long CLI runs: sites and pages done, pages per second, time left.

Shown only on a terminal: when the stream is a file or a pipe (CI logs, redirects) or the user
asked for ``--quiet``, nothing is written, so the output stays the one summary line.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

REDRAW_SECONDS = 0.2  # at most five redraws a second: cheap even at thousands of pages a second
CLEAR_LINE = "\r\x1b[K"


def format_duration(seconds: float) -> str:
    """``1h02m``, ``3m05s`` or ``42s``."""
    seconds = max(int(round(seconds)), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def wants_progress(stream: TextIO, quiet: bool) -> bool:
    """True when progress should be drawn on ``stream``: a terminal, and not ``--quiet``."""
    if quiet:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        return False


class Progress:
    """Counts sites and pages and redraws one status line on ``stream`` (when ``enabled``)."""

    def __init__(
        self,
        label: str,
        total_sites: int,
        total_pages: int,
        enabled: bool,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.total_sites, self.total_pages = total_sites, total_pages
        self.sites = self.pages = 0
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.started = clock()
        self._drawn_at: float | None = None

    def status(self) -> str:
        """The status line: ``LABEL: sites 3/10, pages 120/400, 55.0 pages/s, 5s left``."""
        elapsed = self.clock() - self.started
        rate = self.pages / elapsed if elapsed > 0 else 0.0
        left = format_duration((self.total_pages - self.pages) / rate) if rate > 0 else "?"
        return (
            f"{self.label}: sites {self.sites}/{self.total_sites}, pages {self.pages}/{self.total_pages}, "
            f"{rate:.1f} pages/s, {left} left"
        )

    def _draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if not force and self._drawn_at is not None and now - self._drawn_at < REDRAW_SECONDS:
            return
        self._drawn_at = now
        self.stream.write(CLEAR_LINE + self.status())
        self.stream.flush()

    def page_done(self, count: int = 1) -> None:
        """``count`` more pages are done."""
        self.pages += count
        self._draw()

    def site_done(self) -> None:
        """One more site is done (the last one is always drawn, so the final count shows)."""
        self.sites += 1
        self._draw(force=self.sites >= self.total_sites)

    def close(self) -> None:
        """Clear the status line so the summary that follows stands alone."""
        if self.enabled and self._drawn_at is not None:
            self.stream.write(CLEAR_LINE)
            self.stream.flush()
