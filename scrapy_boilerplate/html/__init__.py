"""The one HTML layer every model uses: decode, parse, drop non-content, walk, blocks, text."""

from scrapy_boilerplate.html.blocks import BLOCK_TAGS, Block, is_block, iter_blocks
from scrapy_boilerplate.html.clean import (
    NON_CONTENT_TAGS,
    drop_non_content,
    remove_keeping_tail,
    reveal_noscript,
    write_text,
    xml_compatible,
)
from scrapy_boilerplate.html.decode import decode_html, looks_binary
from scrapy_boilerplate.html.parse import ParsedHtml, parse_html
from scrapy_boilerplate.html.text import body_text, normalize_space, raw_text, to_text
from scrapy_boilerplate.html.walk import iter_elements

__all__ = [
    "BLOCK_TAGS",
    "body_text",
    "Block",
    "NON_CONTENT_TAGS",
    "ParsedHtml",
    "decode_html",
    "drop_non_content",
    "is_block",
    "looks_binary",
    "iter_blocks",
    "iter_elements",
    "normalize_space",
    "parse_html",
    "raw_text",
    "remove_keeping_tail",
    "reveal_noscript",
    "to_text",
    "write_text",
    "xml_compatible",
]
