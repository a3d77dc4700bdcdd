"""Site models by name.  Built-in models register on import; users may register their own."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from typing import Any

from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.models.errors import UnknownModelError

# Built-in models and the module that defines each; imported on first use.
_BUILTIN_MODULES: dict[str, str] = {
    "fusion": "scrapy_boilerplate.models.fusion.model",
    "pvalue": "scrapy_boilerplate.models.pvalue.model",
    "block_dup": "scrapy_boilerplate.models.blocks.block_dup",
    "entropy": "scrapy_boilerplate.models.blocks.entropy",
    "ngram": "scrapy_boilerplate.models.ngram.model",
    "style_tree": "scrapy_boilerplate.models.style_tree.model",
}


class ModelRegistry:
    """A name -> model class map; one instance, :data:`registry`, serves the package."""

    def __init__(self, builtin_modules: dict[str, str]) -> None:
        self._builtin_modules = dict(builtin_modules)
        self._classes: dict[str, type[SiteModel]] = {}

    def register(self, cls: type[SiteModel]) -> type[SiteModel]:
        """Register ``cls`` under ``cls.name`` (usable as a class decorator)."""
        if not (isinstance(cls, type) and issubclass(cls, SiteModel)):
            raise TypeError(f"{cls!r} is not a SiteModel subclass")
        self._classes[cls.name] = cls
        return cls

    @contextlib.contextmanager
    def registered(self, cls: type[SiteModel]) -> Iterator[type[SiteModel]]:
        """``cls`` registered for the duration of a ``with`` block; afterwards its name means what it meant before.

        For tests and experiments that need a model by name without leaving it registered.
        """
        name = getattr(cls, "name", None)
        if isinstance(name, str) and name in self._builtin_modules:
            self.get_class(name)  # a built-in model's own class is what its name gives back afterwards
        previous = self._classes.get(name) if isinstance(name, str) else None
        self.register(cls)  # raises TypeError before anything changed
        try:
            yield cls
        finally:
            if previous is None:
                self._classes.pop(cls.name, None)
            else:
                self._classes[cls.name] = previous

    def names(self) -> list[str]:
        """Every model name that can be created, sorted."""
        return sorted(set(self._classes) | set(self._builtin_modules))

    def get_class(self, name: str) -> type[SiteModel]:
        """The class registered as ``name``; raises ``UnknownModelError`` with the valid names."""
        if name not in self._classes and name in self._builtin_modules:
            importlib.import_module(self._builtin_modules[name])
        try:
            return self._classes[name]
        except KeyError:
            raise UnknownModelError(f"unknown model {name!r}; choose one of: {', '.join(self.names())}") from None

    def create(self, name: str, **params: Any) -> SiteModel:
        """A new, unfitted model ``name`` built with ``params``."""
        return self.get_class(name)(**params)


registry = ModelRegistry(_BUILTIN_MODULES)
register = registry.register
registered = registry.registered
get_model_class = registry.get_class
create_model = registry.create
available_models = registry.names
