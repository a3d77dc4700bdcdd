"""The ``pvalue`` model: each page's main text by the P value, with no sample to learn from."""

from scrapy_boilerplate.models.pvalue.model import PValueModel

__all__ = ["PValueModel"]
