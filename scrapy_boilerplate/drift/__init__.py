"""Template drift: a site's fingerprint, the monitor of its cleaned pages, and the crawl's watch over them."""

from scrapy_boilerplate.drift.fingerprint import Fingerprint
from scrapy_boilerplate.drift.monitor import Drift, DriftMonitor, fit_baseline
from scrapy_boilerplate.drift.watch import DriftWatch, clean_and_measure

__all__ = ["Drift", "DriftMonitor", "DriftWatch", "Fingerprint", "clean_and_measure", "fit_baseline"]
