"""The ``fusion`` model: one learned block classifier over the evidence of the other models and the page."""

from scrapy_boilerplate.models.fusion.model import FusionModel

__all__ = ["FusionModel"]
