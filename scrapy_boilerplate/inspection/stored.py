"""Find and read the model a crawl stored for a URL's site, in any store ``models`` reads.

In a directory store it is ``<STORE>/<spider>/<domain>.json``: either what ``SiteModel.save``
writes or the model store's record, which wraps that same document with metadata
(``{"format": "scrapy-boilerplate/stored-model", "meta", "model"}``).  In a Redis store it is the
same record under the spider and domain.  Every form loads through
:func:`~scrapy_boilerplate.models.serialization.load_model`'s validation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from scrapy_boilerplate.models.base import ModelFormatError, SiteModel
from scrapy_boilerplate.models.serialization import load_model
from scrapy_boilerplate.store import DirectoryStore, ModelStore
from scrapy_boilerplate.store.cli import open_for_command
from scrapy_boilerplate.store.record import decode_record

RECORD_FORMAT = "scrapy-boilerplate/stored-model"
_FILE_SAFE = " .-_:@+,="  # characters a store leaves as they are in file names


class StoredModelNotFound(LookupError):
    """No stored model matches the URL (or several spiders stored one and none was chosen)."""


@dataclass(frozen=True)
class StoredModel:
    """A stored model, where it was found (a file, or a store and key), and the metadata the store
    recorded with it (if any)."""

    model: SiteModel
    location: str
    meta: dict[str, Any]

    @property
    def sample_pages(self) -> int | None:
        """How many pages the model was fitted on, when the store recorded it."""
        pages = self.meta.get("pages")
        return pages if isinstance(pages, int) and not isinstance(pages, bool) else None


def domain_keys(url: str) -> list[str]:
    """The names a site's model may be filed under: the URL's host (with port, as the crawl keys
    domains), the bare host name, and the host with or without a leading ``www.``."""
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        raise ValueError(f"{url!r} has no host name")
    netloc = parts.netloc.rpartition("@")[2].lower()
    other = host[4:] if host.startswith("www.") else f"www.{host}"
    return list(dict.fromkeys([netloc, host, other]))


def stored_model_path(store: str | Path, url: str, spider: str | None = None) -> Path:
    """The stored model file for ``url``'s site, looked up in one spider's folder or in all of them."""
    store = Path(store)
    if not store.is_dir():
        raise StoredModelNotFound(f"model store {store} is not a directory")
    spiders = [store / quote(spider, safe=_FILE_SAFE)] if spider else sorted(p for p in store.iterdir() if p.is_dir())
    for key in domain_keys(url):
        name = quote(key, safe=_FILE_SAFE) + ".json"
        found = [folder / name for folder in spiders if (folder / name).is_file()]
        if len(found) > 1:
            names = ", ".join(path.parent.name for path in found)
            raise StoredModelNotFound(
                f"models for {key} were stored by several spiders ({names}); choose one with --spider"
            )
        if found:
            return found[0]
    where = str(store / spider) if spider else f"any spider folder of {store}"
    raise StoredModelNotFound(f"no stored model for {domain_keys(url)[0]} in {where}")


def load_stored(path: Path) -> StoredModel:
    """Read a stored model file of either form; raises ``ModelFormatError`` when it is not one."""
    data = path.read_bytes()
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelFormatError(f"{path} is not a model file: {exc}") from exc
    if isinstance(document, dict) and document.get("format") == RECORD_FORMAT:
        inner, meta = document.get("model"), document.get("meta")
        if not isinstance(inner, dict) or not isinstance(meta, dict):
            raise ModelFormatError(f"{path}: stored-model record without model or metadata")
        return StoredModel(load_model(json.dumps(inner).encode("utf-8")), str(path), meta)
    return StoredModel(load_model(data), str(path), {})


def _record_in(store: ModelStore, url: str, spider: str | None) -> tuple[str, bytes]:
    """(``spider/domain``, record) of the model of ``url``'s site in ``store``."""
    for domain in domain_keys(url):
        spiders = [spider] if spider else sorted({e.spider for e in store.list() if e.domain == domain})
        found = {name: data for name in spiders if (data := store.get_record(name, domain)) is not None}
        if len(found) > 1:
            raise StoredModelNotFound(
                f"models for {domain} were stored by several spiders ({', '.join(found)}); choose one with --spider"
            )
        for name, data in found.items():
            return f"{name}/{domain}", data
    where = f"spider {spider} of {store.location}" if spider else store.location
    raise StoredModelNotFound(f"no stored model for {domain_keys(url)[0]} in {where}")


def find_stored(location: str | None, prefix: str | None, url: str, spider: str | None = None) -> StoredModel:
    """The model stored for ``url``'s site in the store at ``location`` (a directory or a Redis URL;
    None: the Scrapy project's store, as ``models`` uses).  Raises ``StoredModelNotFound``,
    ``ModelFormatError``, ``StoreError``, ``OSError`` or ``ValueError``."""
    store = open_for_command(location, prefix)
    try:
        store.check()
        if isinstance(store, DirectoryStore):  # also holds files SiteModel.save wrote
            return load_stored(stored_model_path(store.root, url, spider))
        key, data = _record_in(store, url, spider)
        stored = decode_record(data)
        return StoredModel(stored.model, f"{store.location}, {key}", stored.entry.to_json())
    finally:
        store.close()
