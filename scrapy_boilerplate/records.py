"""What a cleaned page gives its user beside the text: Markdown, title, author, publication date,
language and page type, as the ``extract`` command writes them and a crawl's items receive them."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

from scrapy_boilerplate.markdown import MarkdownUnavailableError, to_markdown
from scrapy_boilerplate.metadata import FIELDS as METADATA_FIELDS
from scrapy_boilerplate.metadata import read_metadata
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype.tell import tell_page_type

logger = logging.getLogger(__name__)

# The fields of a page's record, in the order a JSON record lists them.
RECORD_FIELDS: tuple[str, ...] = ("url", "text", "markdown", *METADATA_FIELDS, "page_type", "model")
FORMATS: dict[str, str] = {"text": ".txt", "markdown": ".md", "json": ".json"}


def page_type(page: Page, cleaned: CleanedPage) -> str | None:
    """The page's type: the one its clean carries, else the classifier's reading of ``page``; None
    (and a warning) when it cannot be told."""
    told = cleaned.page_type or tell_page_type(page)
    return told.label if told is not None else None


def extra_fields(page: Page, cleaned: CleanedPage, names: Iterable[str]) -> dict[str, Any]:
    """The ``names`` among markdown, the metadata fields and page_type, for ``page`` as ``cleaned``
    cleaned it (the metadata read once for all of them)."""
    wanted = list(names)
    values: dict[str, Any] = {}
    metadata_names = [name for name in wanted if name in METADATA_FIELDS]
    if metadata_names:
        values.update(dict.fromkeys(metadata_names))
        try:
            metadata = read_metadata(page, metadata_names)
            values.update({name: getattr(metadata, name) for name in metadata_names})
        except Exception as exc:  # one odd page never stops a run: its fields stay None
            logger.warning("could not read the metadata of %s (%r); its metadata fields are empty", page.url, exc)
    if "markdown" in wanted:
        values["markdown"] = markdown_of(page.url, cleaned)
    if "page_type" in wanted:
        values["page_type"] = page_type(page, cleaned)
    return values


def markdown_of(url: str, cleaned: CleanedPage) -> str | None:
    """``cleaned``'s Markdown; None (and a warning) when the converter fails on it."""
    try:
        return to_markdown(cleaned.html)
    except MarkdownUnavailableError:
        raise
    except Exception as exc:  # the converter's own errors on odd HTML: the page keeps its text
        logger.warning("could not convert %s to Markdown (%r); its markdown is empty", url, exc)
        return None


def page_record(page: Page, cleaned: CleanedPage) -> dict[str, Any]:
    """Every field of :data:`RECORD_FIELDS` for ``page``."""
    values = extra_fields(page, cleaned, RECORD_FIELDS)
    values.update(url=page.url, text=cleaned.text, model=cleaned.model)
    return {name: values[name] for name in RECORD_FIELDS}


def render(output_format: str, page: Page, cleaned: CleanedPage) -> str:
    """The file ``extract --format output_format`` writes for ``page``."""
    if output_format == "text":
        return cleaned.text
    if output_format == "markdown":
        return markdown_of(page.url, cleaned) or ""
    return json.dumps(page_record(page, cleaned), ensure_ascii=False, indent=1)
