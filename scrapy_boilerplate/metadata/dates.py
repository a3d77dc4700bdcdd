"""Publication dates as pages write them, read as ISO 8601 calendar dates (``YYYY-MM-DD``).

Only explicit dates are read: ISO 8601 strings (with or without a time), and day-month-year
written with a month name.  A bare number like ``04/09/2025`` is ambiguous (day or month first)
and is not read; nothing is guessed.
"""

from __future__ import annotations

import datetime
import re

# The oldest date a web page is taken to be published on, and how far ahead of today a date may
# lie (a time zone, a clock a little fast) before it is no publication date.
EARLIEST_YEAR = 1990
MAX_DAYS_AHEAD = 2

_ISO = re.compile(r"\s*(\d{4})-(\d{1,2})-(\d{1,2})(?![\d])")
_COMPACT = re.compile(r"\s*(\d{4})(\d{2})(\d{2})(?:T|$)")
_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_MONTH_FIRST = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b", re.I)


def _checked(year: int, month: int, day: int, today: datetime.date) -> str | None:
    try:
        found = datetime.date(year, month, day)
    except ValueError:
        return None
    if year < EARLIEST_YEAR or found > today + datetime.timedelta(days=MAX_DAYS_AHEAD):
        return None
    return found.isoformat()


def parse_date(text: str | None, today: datetime.date | None = None) -> str | None:
    """The calendar date ``text`` states, as ``YYYY-MM-DD``; None when it states none plainly.

    ISO 8601 (``2025-09-04``, ``2025-09-04T10:00:00+02:00``: the date as written, not moved to
    UTC), its compact form (``20250904``), and dates with a month name (``Sep 4, 2025``,
    ``4 September 2025``).  Dates before 1990 or in the future are refused.
    """
    if not text:
        return None
    text = text.strip()[:200]
    today = today or datetime.date.today()
    match = _ISO.match(text) or _COMPACT.match(text)
    if match:
        return _checked(int(match[1]), int(match[2]), int(match[3]), today)
    match = _MONTH_FIRST.search(text)
    if match:
        return _checked(int(match[3]), _MONTHS[match[1].lower()], int(match[2]), today)
    match = _DAY_FIRST.search(text)
    if match:
        return _checked(int(match[3]), _MONTHS[match[2].lower()], int(match[1]), today)
    return None
