"""The ``ngram`` model: a site's frequent n-grams are its template, cut at the FindOptimal point."""

from scrapy_boilerplate.models.ngram.model import NGramModel

__all__ = ["NGramModel"]
