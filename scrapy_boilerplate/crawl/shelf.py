"""Fitted models kept in memory: at most ``BOILERPLATE_MODELS_IN_MEMORY``, the others reloaded from the store.

A fitted site model holds its site's evidence (a ``fusion`` fit of 5 pages keeps about 0.7 MB), so
a broad crawl that kept every template's model would grow by that much per template.  A model the
store holds is put to use as a :class:`ShelvedModel`: the crawl holds that small stand-in, which
loads the model from the store when a page needs it and keeps the most recently used ones loaded;
the least recently used beyond the bound is dropped (its record stays in the store).  A model the
store does not hold (a partial fit, a store that failed) stays loaded.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store.record import StoredModel


class ModelGone(RuntimeError):
    """A shelved model's record is no longer in the store (deleted, or the store failed)."""


class ShelvedModel(SiteModel):
    """A site model loaded from the store when a page needs it (see the module docstring)."""

    def __init__(self, key: SiteKey, model: SiteModel, shelf: ModelShelf) -> None:
        super().__init__()
        self.key = key
        self.name = model.name  # type: ignore[misc]  # the model's own name, per instance
        self._params = model.get_params()
        self._model: SiteModel | None = model
        self._shelf = shelf
        self._fitted = True  # only fitted models are shelved

    @property
    def loaded(self) -> bool:
        """True while the model is in memory."""
        return self._model is not None

    def unload(self) -> None:
        """Drop the model from memory (the store keeps it)."""
        self._model = None

    def model(self) -> SiteModel:
        """The model, loaded from the store if it was dropped."""
        model = self._model
        if model is None:
            model = self._model = self._shelf.reload(self.key)
        self._shelf.used(self)
        return model

    def clean(self, page: Page) -> CleanedPage:
        """Clean ``page`` with the model."""
        return self.model().clean(page)

    def get_params(self) -> dict[str, Any]:
        """The model's parameters (kept here: they are read without loading it)."""
        return dict(self._params)

    def _fit(self, pages: list[Page]) -> None:
        raise TypeError("a shelved model is fitted already")

    def _clean(self, page: Page) -> CleanedPage:
        return self.model().clean(page)

    def get_state(self) -> tuple[dict[str, Any], Any]:
        """The model's learned state (saving a shelved model saves the model)."""
        return self.model().get_state()

    def __getattr__(self, name: str) -> Any:
        """Anything else a model has (e.g. ``rule_selectors``) is the model's."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.model(), name)


class ModelShelf:
    """Keeps at most ``capacity`` shelved models loaded, the least recently used dropped first."""

    def __init__(self, capacity: int, load: Callable[[SiteKey], StoredModel | None]) -> None:
        """``load(key)``: the stored model of ``key`` (None when the store has none)."""
        self.capacity = capacity
        self.load = load
        self.reloads = 0  # models loaded again after they were dropped
        self._loaded: OrderedDict[ShelvedModel, None] = OrderedDict()
        self._lock = threading.Lock()  # cleans run in the crawl's thread pool too

    def shelve(self, key: SiteKey, stored: StoredModel) -> StoredModel:
        """``stored`` with its model as a :class:`ShelvedModel` (the store holds its record)."""
        shelved = ShelvedModel(key, stored.model, self)
        self.used(shelved)
        return replace(stored, model=shelved)

    def used(self, shelved: ShelvedModel) -> None:
        """``shelved`` was just used: it is the last to be dropped; past the bound, the oldest is."""
        with self._lock:
            self._loaded.pop(shelved, None)
            self._loaded[shelved] = None
            while len(self._loaded) > self.capacity:
                oldest, _ = self._loaded.popitem(last=False)
                oldest.unload()

    def reload(self, key: SiteKey) -> SiteModel:
        """The model of ``key`` from the store, again."""
        stored = self.load(key)
        if stored is None:
            raise ModelGone(f"the stored model of {key} is gone")
        with self._lock:
            self.reloads += 1
        return stored.model

    def __len__(self) -> int:
        return len(self._loaded)
