"""The ``style_tree`` model: the Site Style Tree of a site's sample, and the main text inside what it keeps."""

from scrapy_boilerplate.models.style_tree.model import StyleTreeModel

__all__ = ["StyleTreeModel"]
