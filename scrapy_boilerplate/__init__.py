"""scrapy-boilerplate: learn each site's template during a crawl and strip it from every item."""

from scrapy_boilerplate.models import (
    CleanedPage,
    ModelFormatError,
    NotFittedError,
    SiteModel,
    available_models,
    create_model,
    load_model,
)
from scrapy_boilerplate.page import Page

__version__ = "0.1.0"

__all__ = [
    "CleanedPage",
    "ModelFormatError",
    "NotFittedError",
    "Page",
    "SiteModel",
    "available_models",
    "create_model",
    "load_model",
]
