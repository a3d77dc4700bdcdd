"""Seeded mutants of real pages and of model files, for fuzzing every model and the pipeline.

A page mutant is raw bytes plus an optional ``Content-Type``, as a crawl receives them: cut
short, with flipped or spliced bytes, unclosed or mis-nested tags, a huge attribute, deep
nesting, control characters, or re-encoded under a wrong, foreign or non-text charset.  A model
file mutant is a saved model damaged at the byte level or with one JSON value replaced by one
that JSON allows but a loader may trip on.  The same seed gives the same mutants.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Mutation = Callable[[random.Random, bytes], tuple[bytes, str | None]]

_CLOSING_TAG = re.compile(rb"</[a-zA-Z][a-zA-Z0-9]*\s*>")
_OPENING_TAG = re.compile(rb"<[a-zA-Z][a-zA-Z0-9]*")
NEST_TAGS = ("div", "span", "p", "section", "b", "li", "td", "table", "font", "a")
# Declared charsets: real ones (often wrong for the bytes), unknown names, and codecs that decode no text.
CHARSETS = ("utf-8", "utf-16", "utf-16-be", "utf-32", "cp1252", "shift_jis", "koi8-r", "gb18030", "iso-2022-jp")
ODD_CHARSETS = ("base64", "rot13", "zlib", "hex", "bz2", "uu", "quopri", "idna", "undefined", "x-no-such", "")
ENCODINGS = ("utf-16", "utf-16-le", "utf-32", "cp1252", "shift_jis", "koi8-r", "gb18030", "utf-7", "latin-1")
BINARY_HEADERS = (
    b"\x1f\x8b\x08\x00\x00\x00\x00\x00",
    b"\x89PNG\r\n\x1a\n",
    b"%PDF-1.4\n",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
)


def truncate(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """The page cut off anywhere (a dropped connection)."""
    return body[: rng.randint(0, len(body))], None


def flip_bytes(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """A few bytes changed at random."""
    data = bytearray(body)
    for _ in range(rng.randint(1, 24) if data else 0):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data), None


def splice_controls(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """Control characters, NULs and stray high bytes after tags and inside text."""
    data = body
    for _ in range(rng.randint(1, 40)):
        at = rng.randint(0, len(data))
        junk = bytes(rng.choice([*range(0, 32), 0x7F, 0x80, 0x9F, 0xC3, 0xFF]) for _ in range(rng.randint(1, 4)))
        data = data[:at] + junk + data[at:]
    return data, None


def unclose_tags(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """Closing tags dropped at random."""
    share = rng.random()
    return _CLOSING_TAG.sub(lambda m: b"" if rng.random() < share else m.group(0), body), None


def misnest_tags(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """Closing tags moved elsewhere, and stray ones added."""
    closing = _CLOSING_TAG.findall(body)
    data = body
    for _ in range(rng.randint(1, 30)):
        tag = rng.choice(closing) if closing else b"</div>"
        at = rng.randint(0, len(data))
        data = data[:at] + tag + data[at:]
    return data, None


def huge_attribute(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """One element with an attribute of tens or hundreds of kilobytes (inline data, tracking blobs)."""
    tags = list(_OPENING_TAG.finditer(body))
    at = rng.choice(tags).end() if tags else 0
    value = bytes(rng.choice(b"abcxyz0123456789 -_=/+&;") for _ in range(rng.randint(20_000, 300_000)))
    name = rng.choice([b"data-x", b"style", b"class", b"onclick", b"src"])
    return body[:at] + b" " + name + b'="' + value + b'"' + body[at:], None


def deep_nesting(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """Part of the page wrapped in hundreds or thousands of nested elements, some with empty children."""
    depth = rng.choice([50, 300, 1000, 2500, 5000])
    tag = rng.choice(NEST_TAGS).encode()
    filler = b"<span></span>" * rng.choice([0, 0, 1, 6])
    opening = b"<" + tag + (b' class="n"' if rng.random() < 0.5 else b"") + b">" + filler
    closing = b"</" + tag + b">" if rng.random() < 0.7 else b""
    start = rng.randint(0, len(body))
    end = rng.randint(start, len(body))
    return body[:start] + opening * depth + body[start:end] + closing * depth + body[end:], None


def odd_encoding(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """Re-encoded, declared wrongly (header or ``<meta>``), declared as a non-text codec, or behind a binary header."""
    text = body.decode("utf-8", "replace")
    choice = rng.randrange(4)
    if choice == 0:
        encoded = text.encode(rng.choice(ENCODINGS), "replace")
        return encoded, f"text/html; charset={rng.choice(CHARSETS + ODD_CHARSETS)}" if rng.random() < 0.5 else None
    if choice == 1:
        meta = f'<meta charset="{rng.choice(CHARSETS + ODD_CHARSETS)}">'
        return (meta + text).encode("utf-8", "replace"), None
    if choice == 2:
        return body, f"text/html; charset={rng.choice(ODD_CHARSETS)}"
    return rng.choice(BINARY_HEADERS) + body, None


PAGE_MUTATIONS: dict[str, Mutation] = {
    "truncate": truncate,
    "flip_bytes": flip_bytes,
    "control_characters": splice_controls,
    "unclosed_tags": unclose_tags,
    "misnested_tags": misnest_tags,
    "huge_attribute": huge_attribute,
    "deep_nesting": deep_nesting,
    "odd_encoding": odd_encoding,
}


@dataclass(frozen=True)
class PageMutant:
    """Mutated page bytes, the ``Content-Type`` they come with (or None) and what was done to them."""

    body: bytes
    content_type: str | None
    mutations: tuple[str, ...]


def mutate_page(rng: random.Random, body: bytes) -> PageMutant:
    """One to three mutations of ``body``, in a random order."""
    names = rng.sample(sorted(PAGE_MUTATIONS), rng.randint(1, 3))
    content_type = None
    for name in names:
        body, declared = PAGE_MUTATIONS[name](rng, body)
        content_type = declared or content_type
    return PageMutant(body, content_type, tuple(names))


# JSON that parses but that a loader may not expect: raw tokens, spliced in as text.
ODD_VALUES: tuple[bytes, ...] = (
    b"7" * 4301,
    b"-" + b"9" * 5000,
    b"1e400",
    b"-1e400",
    b"-Infinity",
    b"Infinity",
    b"NaN",
    b"-1",
    b"0",
    b"18446744073709551616",
    b"0.5",
    b'"text"',
    b'""',
    b"[]",
    b"[1,2,3]",
    b"{}",
    b'{"a":1}',
    b"null",
    b"true",
    b"[" * 5000 + b"]" * 5000,
)


def _json_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a parsed JSON document."""
    paths = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            paths.extend(_json_paths(child, (*path, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value[:50]):
            paths.extend(_json_paths(child, (*path, index)))
    return paths


def _replaced(document: Any, path: tuple[Any, ...], marker: str) -> Any:
    if not path:
        return marker
    copy = dict(document) if isinstance(document, dict) else list(document)
    copy[path[0]] = _replaced(document[path[0]], path[1:], marker)
    return copy


def mutate_model_file(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """A damaged model file: bytes cut or flipped, a key dropped, or one value replaced by odd JSON."""
    kind = rng.choice(["truncate", "flip_bytes", "drop_key", "odd_value", "odd_value", "odd_value"])
    if kind == "truncate":
        return truncate(rng, data)[0], kind
    if kind == "flip_bytes":
        return flip_bytes(rng, data)[0], kind
    document = json.loads(data)
    paths = [p for p in _json_paths(document) if p]
    path = rng.choice(paths)
    if kind == "drop_key":
        holder: Any = document
        for step in path[:-1]:
            holder = holder[step]
        holder.pop(path[-1])  # a dict's key or a list's item
        return json.dumps(document).encode(), f"{kind} {'/'.join(map(str, path))}"
    marker = "\x00odd\x00"
    text = json.dumps(_replaced(document, path, marker)).encode()
    return text.replace(json.dumps(marker).encode(), rng.choice(ODD_VALUES), 1), f"{kind} at {'/'.join(map(str, path))}"
