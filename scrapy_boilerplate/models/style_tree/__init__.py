"""The ``style_tree`` model: the Site Style Tree of a site's sample, and the main text inside what it keeps.

``NOISY`` is the status of a style node the fitted tree judges boilerplate (a region's
``node.status``, from ``StyleTreeModel.regions``); ``fusion`` reads its site evidence through it.
"""

from scrapy_boilerplate.models.style_tree.compact import NOISY
from scrapy_boilerplate.models.style_tree.model import StyleTreeModel

__all__ = ["NOISY", "StyleTreeModel"]
