"""Site models and their registry."""

from scrapy_boilerplate.models.base import CleanedPage, Decision, SiteModel
from scrapy_boilerplate.models.errors import ModelFormatError, NotFittedError, UnknownModelError
from scrapy_boilerplate.models.registry import (
    available_models,
    create_model,
    get_model_class,
    register,
    registered,
    registry,
)
from scrapy_boilerplate.models.serialization import dump_model, load_model, read_model, save_model

__all__ = [
    "CleanedPage",
    "Decision",
    "ModelFormatError",
    "NotFittedError",
    "SiteModel",
    "UnknownModelError",
    "available_models",
    "create_model",
    "dump_model",
    "get_model_class",
    "load_model",
    "read_model",
    "register",
    "registered",
    "registry",
    "save_model",
]
