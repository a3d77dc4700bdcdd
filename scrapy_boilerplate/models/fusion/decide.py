"""The threshold stage: P(main) at or above the threshold is kept, unless that loses the article.

The trees score each block on its own; on a page whose article they have never seen the like of
(a short post on a busy template, a long one in unfamiliar markup) every article block can fall
under the threshold while the page plainly holds prose.  When the kept blocks (those the rules kept
among them) hold fewer words than :data:`LOST_SHARE` of the prose in the page's prose core (the
block run with the most prose words net of other words), the threshold for that page drops to
:data:`RELATIVE_P` of the best P of a prose block (a block a learned site rule kept counts at the
model's mean P for its path on the sample): the blocks the trees rank nearest the best prose are
kept, whatever their absolute P.
"""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.html.prose import ProseRule
from scrapy_boilerplate.models.fusion.rules import RuleDecisions

LOST_SHARE = 0.25
RELATIVE_P = 0.3
# Prose here: 10 words or more, at most half in links, and read as sentences: function words or,
# in languages off the stop list, a punctuation mark every 20 words.
PROSE = ProseRule(min_size=10, max_link_share=0.5)
MIN_STOP_SHARE = 0.15
MIN_PUNCT_RATE = 0.05
# The block cues the stage reads, in this order (see :func:`page_threshold`).
PROSE_CUES: tuple[str, ...] = ("words_log", "link_share", "stop_share", "punct_rate")


def prose_words(words: np.ndarray, link_share: np.ndarray, stop_share: np.ndarray, punct: np.ndarray) -> np.ndarray:
    """Per block, its non-link words when it reads like prose, else 0."""
    prose = PROSE.holds(words, link_share, 1.0) & ((stop_share >= MIN_STOP_SHARE) | (punct >= MIN_PUNCT_RATE))
    return np.where(prose, words * (1.0 - link_share), 0.0)


def prose_core(prose: np.ndarray, words: np.ndarray) -> tuple[int, int]:
    """The block run [start, end) with the most prose words minus other words (max-sum run;
    empty when no run gains)."""
    running = np.concatenate([[0.0], np.cumsum(2.0 * prose - words)])  # prose words +1, others -1
    lowest = np.minimum.accumulate(running)
    end = int(np.argmax(running - lowest))
    if running[end] - lowest[end] <= 0.0:
        return 0, 0
    return int(np.argmin(running[: end + 1])), end


def page_threshold(
    probability: np.ndarray, cues: np.ndarray, threshold: float, rules: RuleDecisions | None = None
) -> float:
    """The P at or above which this page's scored blocks are kept: ``threshold`` unless the kept
    blocks would hold too little of the page's prose.

    ``cues`` holds the :data:`PROSE_CUES` columns of every block; ``probability`` is NaN where the
    ``rules`` decided a block."""
    if not len(probability):
        return threshold
    words = np.rint(np.expm1(cues[:, 0]))
    prose_in = prose_words(words, cues[:, 1], cues[:, 2], cues[:, 3])
    start, end = prose_core(prose_in, words)
    core_prose = float(prose_in[start:end].sum())
    prose = prose_in > 0
    kept = probability >= threshold
    ranked = probability
    if rules is not None and rules.any:
        kept = np.where(rules.decided, rules.keep, kept)
        ranked = np.where(rules.decided & rules.keep, rules.known_probability(), probability)
        prose &= ~np.isnan(ranked)
    kept_words = float(words[kept].sum())
    if core_prose <= 0.0 or kept_words >= LOST_SHARE * core_prose or not prose.any():
        return threshold
    return min(threshold, RELATIVE_P * float(ranked[prose].max()))
