"""Which blocks fusion keeps: P(main) at or above the threshold, unless that loses the article.

The trees score each block on its own; on a page whose article they have never seen the like of
(a short post on a busy template, a long one in unfamiliar markup) every article block can fall
under the threshold while the page plainly holds prose.  When the kept blocks hold fewer words
than :data:`LOST_SHARE` of the prose in the page's prose core (the block run of
:func:`~scrapy_boilerplate.models.fusion.prose.prose_core`), the threshold for that page drops to
:data:`RELATIVE_P` of the best P of a prose block: the blocks the trees rank nearest the best
prose are kept, whatever their absolute P.
"""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.models.fusion.page_features import PAGE_FEATURES
from scrapy_boilerplate.models.fusion.prose import prose_core, prose_words

LOST_SHARE = 0.25
RELATIVE_P = 0.3
_WORDS, _LINKS, _STOPS, _PUNCT = (
    PAGE_FEATURES.index(name) for name in ("words_log", "link_share", "stop_share", "punct_rate")
)


def page_threshold(probability: np.ndarray, matrix: np.ndarray, threshold: float) -> float:
    """The P at or above which this page's blocks are kept (``threshold`` unless the kept blocks
    would hold too little of the page's prose)."""
    if not len(probability):
        return threshold
    words = np.rint(np.expm1(matrix[:, _WORDS]))
    prose_in = prose_words(words, matrix[:, _LINKS], matrix[:, _STOPS], matrix[:, _PUNCT])
    start, end = prose_core(prose_in, words)
    core_prose = float(prose_in[start:end].sum())
    prose = prose_in > 0
    kept_words = float(words[probability >= threshold].sum())
    if core_prose <= 0.0 or kept_words >= LOST_SHARE * core_prose:
        return threshold
    return min(threshold, RELATIVE_P * float(probability[prose].max()))
