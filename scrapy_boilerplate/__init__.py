"""scrapy-boilerplate: learn each site's template during a crawl and strip it from every item."""

from scrapy_boilerplate.models import (
    CleanedPage,
    ModelFormatError,
    NotFittedError,
    SiteModel,
    available_models,
    create_model,
    load_model,
    read_model,
    save_model,
)
from scrapy_boilerplate.page import Page

__version__ = "0.1.0"

__all__ = [
    "Addon",
    "CleanedPage",
    "ModelFormatError",
    "NotFittedError",
    "Page",
    "SiteModel",
    "available_models",
    "create_model",
    "load_model",
    "read_model",
    "save_model",
]


def __getattr__(name: str) -> object:
    """Import the Scrapy add-on lazily, so offline use never imports Scrapy's crawl machinery."""
    if name == "Addon":
        from scrapy_boilerplate.crawl import Addon

        return Addon
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
