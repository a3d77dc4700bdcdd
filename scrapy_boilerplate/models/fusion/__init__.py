"""The ``fusion`` model: one learned block classifier over the evidence of the other models and the page.

``fusion`` is a meta-model: its site features are the verdicts of ``style_tree``, ``block_dup`` and
``entropy`` fitted on the site's sample, read through the public names of those families' packages.
It is the one model family that imports another; no other family does.
"""

from scrapy_boilerplate.models.fusion.model import FusionModel

__all__ = ["FusionModel"]
