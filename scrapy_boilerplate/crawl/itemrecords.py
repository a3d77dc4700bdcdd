"""A waiting item and its page as bytes, and back: what another worker needs to finish the item.

The record is JSON, compressed: the item's fields (through itemadapter, so dicts, ``scrapy.Item``,
dataclass and attrs items alike; ``bytes`` values are kept as base64), the import path of its
class, and the page it is cleaned from (URL and HTML; an item that carries its HTML field needs no
second copy).  An item whose fields JSON cannot hold (a ``datetime``, a ``set``...) cannot be
recorded: :class:`UnrecordableItem`.  Back, the item is rebuilt as its own class when that class
imports and accepts the fields, else as a dict of the same fields.
"""

from __future__ import annotations

import base64
import importlib
import json
import zlib
from dataclasses import dataclass
from typing import Any

from itemadapter import ItemAdapter

FORMAT = "scrapy-boilerplate/held-item"
VERSION = 1
_BYTES = "__scrapy_boilerplate_bytes__"  # marks a base64 bytes value inside the item's JSON
COMPRESS_LEVEL = 1  # HTML shrinks 4-6 times even at the fastest level


class UnrecordableItem(ValueError):
    """The item holds a value that JSON cannot keep."""


@dataclass
class HeldRecord:
    """A recorded item, rebuilt: the item, its page's URL and HTML (None: the item carries it), and
    whether its own class could be rebuilt (else it is a dict of the same fields)."""

    item: Any
    url: str
    html: str | None
    own_class: bool = True


def _encode_value(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return {_BYTES: base64.b64encode(bytes(value)).decode("ascii")}
    raise TypeError(f"{type(value).__name__} values cannot be recorded")


def _decode_value(obj: dict[str, Any]) -> Any:
    if len(obj) == 1 and _BYTES in obj:
        return base64.b64decode(obj[_BYTES])
    return obj


def class_path(cls: type) -> str:
    """``module:qualname`` of ``cls``."""
    return f"{cls.__module__}:{cls.__qualname__}"


def encode_record(item: Any, url: str, html: str | None) -> bytes:
    """The record of ``item`` waiting for the page ``url`` (``html`` None: in the item); raises
    :class:`UnrecordableItem`."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "class": None if isinstance(item, dict) and type(item) is dict else class_path(type(item)),
        "fields": ItemAdapter(item).asdict(),
        "url": url,
        "html": html,
    }
    try:
        text = json.dumps(document, default=_encode_value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise UnrecordableItem(str(exc)) from exc
    return zlib.compress(text.encode("utf-8"), COMPRESS_LEVEL)


def decode_record(data: bytes) -> HeldRecord:
    """The item and page of a record; raises ``ValueError`` for a record that is not one."""
    try:
        document = json.loads(zlib.decompress(data).decode("utf-8"), object_hook=_decode_value)
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise ValueError(f"not a held-item record: {exc}") from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != VERSION:
        raise ValueError("not a held-item record of this version")
    fields, url, html = document.get("fields"), document.get("url"), document.get("html")
    if not isinstance(fields, dict) or not isinstance(url, str) or not (html is None or isinstance(html, str)):
        raise ValueError("a held-item record without its fields or page")
    item, own = _rebuild(document.get("class"), fields)
    return HeldRecord(item, url, html, own)


def _rebuild(path: Any, fields: dict[str, Any]) -> tuple[Any, bool]:
    """The item as its class (``module:qualname``) when it can be, else a dict; and which it is."""
    if path is None:
        return fields, True
    try:
        module, _, qualname = str(path).partition(":")
        cls: Any = importlib.import_module(module)
        for name in qualname.split("."):
            cls = getattr(cls, name)
        if not ItemAdapter.is_item_class(cls):
            return fields, False
        return cls(**fields), True
    except Exception:  # any failure to rebuild keeps the fields, as a dict
        return fields, False
