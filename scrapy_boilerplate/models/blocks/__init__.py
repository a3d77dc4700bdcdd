"""The block models: ``block_dup`` (blocks the site repeats) and ``entropy`` (blocks of low information)."""

from scrapy_boilerplate.models.blocks.block_dup import BlockDupModel
from scrapy_boilerplate.models.blocks.entropy import EntropyModel

__all__ = ["BlockDupModel", "EntropyModel"]
