"""Persistent site models: stores (directory, Redis), and the coordination of a crawl's samples and fits."""

from scrapy_boilerplate.store.base import ModelStore, StoreError
from scrapy_boilerplate.store.coordination import Coordinator, FitLock, LocalCoordinator, SampleOffer, SampleState
from scrapy_boilerplate.store.directory import DirectoryStore, default_directory
from scrapy_boilerplate.store.factory import check_location, coordinator_for, open_store, store_from_settings
from scrapy_boilerplate.store.memory import MemoryStore
from scrapy_boilerplate.store.record import Baseline, StoredModel, StoreEntry, StoreFormatError
from scrapy_boilerplate.store.redis_backend import RedisStore
from scrapy_boilerplate.store.sharing import SpiderStore

__all__ = [
    "Baseline",
    "Coordinator",
    "DirectoryStore",
    "FitLock",
    "LocalCoordinator",
    "MemoryStore",
    "ModelStore",
    "RedisStore",
    "SampleOffer",
    "SampleState",
    "SpiderStore",
    "StoreEntry",
    "StoreError",
    "StoreFormatError",
    "StoredModel",
    "check_location",
    "coordinator_for",
    "default_directory",
    "open_store",
    "store_from_settings",
]
