"""Find the model a crawl stored for a URL's site: ``<STORE>/<spider>/<domain>.json`` (``SiteModel.save``)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit


class StoredModelNotFound(LookupError):
    """No stored model matches the URL (or several spiders stored one and none was chosen)."""


def domain_of(url: str) -> str:
    """The host a stored model is filed under: the URL's lower-case host name, without port."""
    host = urlsplit(url).hostname
    if not host:
        raise ValueError(f"{url!r} has no host name")
    return host


def _candidates(domain: str) -> list[str]:
    """``domain`` itself, then the same host with or without a leading ``www.``."""
    other = domain[4:] if domain.startswith("www.") else f"www.{domain}"
    return [domain, other]


def stored_model_path(store: str | Path, url: str, spider: str | None = None) -> Path:
    """The stored model file for ``url``'s site, looked up in one spider's folder or in all of them."""
    store = Path(store)
    spiders = [store / spider] if spider else sorted(p for p in store.iterdir() if p.is_dir())
    for name in _candidates(domain_of(url)):
        found = [folder / f"{name}.json" for folder in spiders if (folder / f"{name}.json").is_file()]
        if len(found) > 1:
            names = ", ".join(path.parent.name for path in found)
            raise StoredModelNotFound(f"models for {name} were stored by several spiders ({names}); choose one with --spider")
        if found:
            return found[0]
    where = f"{store / spider}" if spider else f"any spider folder of {store}"
    raise StoredModelNotFound(f"no stored model for {domain_of(url)} in {where}")
