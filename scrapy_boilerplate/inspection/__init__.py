"""Inspection reports: see what a site model kept and removed on a page, and why."""

from scrapy_boilerplate.inspection.marks import MarkedPage, Segment, mark_page
from scrapy_boilerplate.inspection.markup import ReportTokens, read_report
from scrapy_boilerplate.inspection.report import build_report
from scrapy_boilerplate.inspection.summary import RemovedRegion, SiteSummary, summarize_site

__all__ = [
    "MarkedPage",
    "RemovedRegion",
    "ReportTokens",
    "Segment",
    "SiteSummary",
    "build_report",
    "mark_page",
    "read_report",
    "summarize_site",
]
