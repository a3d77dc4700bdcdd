"""What kind of page it is: article, forum, product, collection, listing, documentation, service,
or a page with no main content.

A gradient-boosted classifier over what the page says of itself (its address, its structured
data, the words of its template) and what its markup shows (repeated cards, code, forms, prices,
headings, how its text is spread), trained on labelled pages and shipped as JSON weights.
"""

from scrapy_boilerplate.models.base import PageType
from scrapy_boilerplate.pagetype.classify import PageTypeClassifier, TypeSignal, classify_page, page_type_of
from scrapy_boilerplate.pagetype.labels import NO_CONTENT, PAGE_TYPES
from scrapy_boilerplate.pagetype.siblings import SIBLING_WEIGHT, combine_with_siblings
from scrapy_boilerplate.pagetype.signals import PageSignals, read_signals
from scrapy_boilerplate.pagetype.weights import PageTypeWeights, load_page_type_weights

__all__ = [
    "NO_CONTENT",
    "PAGE_TYPES",
    "SIBLING_WEIGHT",
    "PageSignals",
    "PageType",
    "PageTypeClassifier",
    "PageTypeWeights",
    "TypeSignal",
    "classify_page",
    "combine_with_siblings",
    "load_page_type_weights",
    "page_type_of",
    "read_signals",
]
