"""A bad setting ends the crawl with one line: its message, without Scrapy's start-up traceback.

Scrapy builds its components inside the crawl's start-up task, so an exception raised by a
component's ``from_crawler`` (or an add-on's ``update_settings``) reaches no caller of ours: asyncio
logs it with its whole traceback ("Task exception was never retrieved"), or Twisted does
("Unhandled error in Deferred") under a non-asyncio reactor.  The ``scrapy crawl`` command exits
with status 1 either way.  A filter on those two loggers, installed when a component raises the
first bad setting into Scrapy's start-up (:func:`fail_crawl`), rewrites the record that carries it
into the setting's message alone, once.  Making the error installs nothing: code that catches it
(a test, a tool reading the settings) leaves logging as it was.  (Where the
crawl runs on Twisted Deferreds, as under a non-asyncio reactor or on Scrapy 2.13-2.14, Twisted also
prints the traceback to stderr itself, outside logging.)
"""

from __future__ import annotations

import logging
from typing import Any

# The loggers through which Scrapy's start-up errors reach the user.
STARTUP_ERROR_LOGGERS = ("asyncio", "twisted")
# Twisted logs an unhandled failure as this line, then the failure in a record of its own.
TWISTED_HEADER = "Unhandled error in Deferred:"


class BadSettingError(ValueError):
    """A ``BOILERPLATE_*`` setting (or a Scrapy setting it depends on) has an unusable value."""


def bad_setting(name: str, value: Any, why: str) -> BadSettingError:
    """The error for ``name=value``; raising it ends the crawl with its message as the only output."""
    return bad_configuration(f"{name}={value!r} is invalid: {why}")


def bad_configuration(message: str) -> BadSettingError:
    """A configuration error that is not one setting's value (e.g. a component missing)."""
    return BadSettingError(message)


class _OneLineFilter(logging.Filter):
    """Turns the start-up error records of a :class:`BadSettingError` into its message, logged once."""

    def __init__(self) -> None:
        super().__init__()
        self.reported: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().strip() == TWISTED_HEADER:
            return False  # the heading of the record that carries the error (this process failed to start)
        message = _bad_setting_message(record)
        if message is None:
            return True
        if message in self.reported:
            return False
        self.reported.add(message)
        record.name = "scrapy_boilerplate"
        record.levelno, record.levelname = logging.ERROR, "ERROR"
        record.msg, record.args, record.exc_info, record.exc_text, record.stack_info = message, (), None, None, None
        return True


def _bad_setting_message(record: logging.LogRecord) -> str | None:
    """The message of the BadSettingError that ``record`` reports, or None."""
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, BadSettingError):
        return str(error)
    # Twisted's records carry the traceback as text, its last line "<module>.BadSettingError: message".
    text = record.getMessage()
    marker = f"{BadSettingError.__name__}: "
    if marker not in text:
        return None
    return text.rsplit(marker, 1)[1].strip().splitlines()[0]


def fail_crawl(crawler: Any, error: BadSettingError) -> BadSettingError:
    """``error``, to raise into Scrapy's start-up: its records are rewritten into its message (see the
    module docstring), and the ``scrapy`` command exits with status 1 for it.

    Scrapy 2.13 and 2.14 decide that status by whether the crawler got its spider, which it has by
    the time components are built; without one, they count the crawl as failed to start, as later
    versions do for any start-up error.
    """
    _install_filter()
    crawler.spider = None
    return error


def _install_filter() -> None:
    for name in STARTUP_ERROR_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, _OneLineFilter) for f in logger.filters):
            logger.addFilter(_OneLineFilter())
