"""A cleaned page as Markdown: its structure-keeping HTML converted by html-to-markdown (the
``markdown`` extra), headings as ``#``, lists, tables as pipe tables, code as fenced blocks."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


class MarkdownUnavailableError(RuntimeError):
    """The ``markdown`` extra is not installed."""


INSTALL_HINT = "Markdown needs the markdown extra: pip install 'scrapy-boilerplate-learner[markdown]'"


@functools.cache
def _converter() -> Callable[[str], str]:
    """html-to-markdown's ``convert`` with the project's options (made once per process)."""
    try:
        import html_to_markdown
    except ImportError:
        raise MarkdownUnavailableError(INSTALL_HINT) from None
    options: Any = html_to_markdown.ConversionOptions(
        heading_style="atx",
        bullets="-",
        code_block_style="backticks",
        compact_tables=True,
        escape_asterisks=True,
        escape_underscores=True,
        extract_metadata=False,
        wrap=False,
        # no cleanup of its own: the HTML holds the kept content only (its navigation and form
        # removal would take kept text, and costs a quarter of the conversion)
        preprocessing=html_to_markdown.PreprocessingOptions(enabled=False),
    )

    def convert(html: str) -> str:
        return str(html_to_markdown.convert(html, options).content).strip()

    return convert


def markdown_available() -> bool:
    """True when the ``markdown`` extra is installed."""
    try:
        _converter()
    except MarkdownUnavailableError:
        return False
    return True


def to_markdown(html: str) -> str:
    """``html`` (a cleaned page's structure-keeping HTML) as Markdown; raises
    :class:`MarkdownUnavailableError` without the ``markdown`` extra."""
    return _converter()(html)
