"""Persistent site models: stores (directory, Redis), crawl coordination and template drift."""

from scrapy_boilerplate.store.base import ModelStore, StoreError
from scrapy_boilerplate.store.coordination import Coordinator, FitLock, LocalCoordinator, SampleOffer, SampleState
from scrapy_boilerplate.store.directory import DirectoryStore, default_directory
from scrapy_boilerplate.store.drift import Drift, DriftMonitor, fit_baseline
from scrapy_boilerplate.store.factory import check_location, coordinator_for, open_store, store_from_settings
from scrapy_boilerplate.store.fingerprint import Fingerprint
from scrapy_boilerplate.store.memory import MemoryStore
from scrapy_boilerplate.store.record import Baseline, StoredModel, StoreEntry, StoreFormatError
from scrapy_boilerplate.store.redis_backend import RedisStore
from scrapy_boilerplate.store.sharing import FitOutcome, Learned, SharedLearning

__all__ = [
    "Baseline",
    "Coordinator",
    "DirectoryStore",
    "Drift",
    "DriftMonitor",
    "Fingerprint",
    "FitLock",
    "FitOutcome",
    "Learned",
    "LocalCoordinator",
    "MemoryStore",
    "ModelStore",
    "RedisStore",
    "SampleOffer",
    "SampleState",
    "SharedLearning",
    "StoreEntry",
    "StoreError",
    "StoreFormatError",
    "StoredModel",
    "check_location",
    "coordinator_for",
    "default_directory",
    "fit_baseline",
    "open_store",
    "store_from_settings",
]
