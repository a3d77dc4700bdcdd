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
    h2m: Any = html_to_markdown
    options: Any = h2m.ConversionOptions(
        heading_style=h2m.HeadingStyle.ATX,
        bullets="-",
        code_block_style=h2m.CodeBlockStyle.BACKTICKS,
        compact_tables=True,
        escape_asterisks=True,
        escape_underscores=True,
        extract_metadata=False,
        wrap=False,
        # no cleanup of its own: the HTML holds the kept content only (its navigation and form
        # removal would take kept text, and costs a quarter of the conversion)
        preprocessing=h2m.PreprocessingOptions(enabled=False),
        # the converter's defaults, as its enum values: given as strings (as the defaults are),
        # every call would map each to its enum again, 30 microseconds a page
        list_indent_type=h2m.ListIndentType.SPACES,
        highlight_style=h2m.HighlightStyle.DOUBLE_EQUAL,
        whitespace_mode=h2m.WhitespaceMode.NORMALIZED,
        newline_style=h2m.NewlineStyle.SPACES,
        inline_data_media=h2m.InlineDataMedia.KEEP,
        hidden_content=h2m.HiddenContent.DROP,
        url_escape_style=h2m.UrlEscapeStyle.ANGLE,
        link_style=h2m.LinkStyle.INLINE,
        output_format=h2m.OutputFormat.MARKDOWN,
        tier_strategy=h2m.TierStrategy.AUTO,
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
