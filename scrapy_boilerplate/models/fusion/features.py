"""The features fusion computes, by name, in column order: the built-in ones, then any registered later.

To add one, register a :class:`~.registry.Feature` (a name, its columns, the function computing them
from a page's :class:`~.inputs.PageInputs`) and retrain: ``scrapy-boilerplate train`` reads every
registered feature and the weights file it writes names them; inference computes the features a
weights file names.  docs/fusion.md gives the recipe.
"""

from __future__ import annotations

from scrapy_boilerplate.models.fusion.page_features import BLOCK_CUES, block_cues
from scrapy_boilerplate.models.fusion.registry import Feature, FeatureRegistry
from scrapy_boilerplate.models.fusion.roles import ROLE_WORDS
from scrapy_boilerplate.models.fusion.site_features import SITE_FEATURES
from scrapy_boilerplate.models.fusion.structure_cues import GROUP_CUES, PAGE_SHAPE, group_cues, page_shape

FEATURES = FeatureRegistry(
    [
        Feature("block_cues", BLOCK_CUES, block_cues),
        *SITE_FEATURES,
        ROLE_WORDS,
        Feature("sibling_groups", GROUP_CUES, group_cues),
        Feature("page_shape", PAGE_SHAPE, page_shape, per_page=True),
    ]
)
register_feature = FEATURES.register
registered_feature = FEATURES.registered
