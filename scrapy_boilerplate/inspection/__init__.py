"""Inspection reports: see what a site model kept and removed on a page, and why."""

from scrapy_boilerplate.inspection.coverage import Verdict, parse_chars, walk
from scrapy_boilerplate.inspection.report import build_report
from scrapy_boilerplate.inspection.summary import RemovedRegion, SiteSummary, summarize_site

__all__ = ["RemovedRegion", "SiteSummary", "Verdict", "build_report", "parse_chars", "summarize_site", "walk"]
