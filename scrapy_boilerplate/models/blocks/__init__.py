"""The block models: ``block_dup`` (blocks the site repeats) and ``entropy`` (blocks of low information).

Besides the models, :func:`block_vectors` (a page's block vectors, as ``BlockDupModel.match`` takes
them) and :func:`word_pairs` (the improved ``entropy``'s features) are public: ``fusion`` reads its
site evidence through them.
"""

from scrapy_boilerplate.models.blocks.block_dup import BlockDupModel
from scrapy_boilerplate.models.blocks.entropy import EntropyModel, word_pairs
from scrapy_boilerplate.models.blocks.index import block_vectors

__all__ = ["BlockDupModel", "EntropyModel", "block_vectors", "word_pairs"]
