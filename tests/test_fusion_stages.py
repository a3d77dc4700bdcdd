"""fusion's clean as stages: blocks a rule decided are kept or dropped as it said and never scored."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from helpers.fusion_pages import TEASER, news_site

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.models.fusion.decide import LOST_SHARE
from scrapy_boilerplate.models.fusion.rules import RuleDecisions
from scrapy_boilerplate.page import Page


class DecideBy:
    """Rules that decide the blocks whose text starts with one of ``verdicts``' keys."""

    def __init__(self, verdicts: dict[str, bool]) -> None:
        self.verdicts = verdicts

    def decide(self, page: Page, blocks: Sequence[Block]) -> RuleDecisions:
        found = [
            next((keep for start, keep in self.verdicts.items() if b.text.startswith(start)), None) for b in blocks
        ]
        decided = np.array([keep is not None for keep in found], dtype=bool)
        reasons = ["site rule: " + ("content" if keep else "boilerplate") for keep in found]
        return RuleDecisions(decided, np.array([bool(keep) for keep in found]), reasons)


class CountingTrees:
    """The model's trees, counting the rows they score."""

    def __init__(self, trees) -> None:
        self.trees, self.rows = trees, 0

    def probabilities(self, matrix: np.ndarray) -> np.ndarray:
        self.rows += len(matrix)
        return self.trees.probabilities(matrix)


def test_a_block_a_rule_decided_is_not_scored_and_keeps_the_rules_verdict():
    pages = news_site("harbour.example")
    model = create_model("fusion", site_rules=False).fit(pages)  # no learned rule: these rules alone
    before = model.score(pages[0])
    teaser = next(i for i, block in enumerate(before.blocks) if block.text == TEASER)
    first = next(i for i, block in enumerate(before.blocks) if block.text.startswith("The city council"))
    assert not before.keep[teaser] and before.keep[first]  # what the trees say alone
    trees = CountingTrees(model.stages.trees)
    rules = DecideBy({TEASER[:30]: True, "The city council": False})
    stages = dataclasses.replace(model.stages, rules=rules, trees=trees)
    after = stages.run(pages[0])
    assert trees.rows == len(after.blocks) - 2
    assert np.isnan(after.probability[[teaser, first]]).all()
    assert after.keep[teaser] and not after.keep[first]
    others = np.ones(len(after.blocks), dtype=bool)
    others[[teaser, first]] = False
    assert np.array_equal(after.probability[others], before.probability[others])
    assert np.array_equal(after.keep[others], before.keep[others])


def test_site_features_skip_the_decided_blocks():
    pages = news_site("harbour.example")
    model = create_model("fusion").fit(pages)
    stages = dataclasses.replace(model.stages, rules=DecideBy({TEASER[:30]: False}))
    blocks, rules = stages.decide(pages[0])
    matrix = stages.features(pages[0], blocks, rules)
    teaser = int(np.flatnonzero(rules.decided)[0])
    entropy = stages.layout.column("term_entropy")
    assert np.isnan(matrix[teaser, entropy])
    assert not np.isnan(np.delete(matrix[:, entropy], teaser)).all()


def test_a_rule_that_keeps_the_article_spares_the_page_its_lower_threshold():
    pages = news_site("harbour.example")
    model = create_model("fusion", threshold=1.0).fit(pages[:1])  # the trees keep nothing
    alone = model.score(pages[0])
    assert alone.threshold < 1.0  # the article would be lost: the page's threshold drops
    article = [block.text[:20] for block in alone.blocks if block.text.split()[0] in {"The", "Officials", "Residents"}]
    assert len(article) >= 3 and LOST_SHARE < 1.0
    stages = dataclasses.replace(model.stages, rules=DecideBy(dict.fromkeys(article, True)))
    ruled = stages.run(pages[0])
    assert ruled.threshold == 1.0
    assert sum(ruled.keep) == len(article)


def test_the_decisions_of_ruled_blocks_give_the_rules_reason():
    from scrapy_boilerplate.models.fusion.explain import decisions

    pages = news_site("harbour.example")
    model = create_model("fusion").fit(pages)
    stages = dataclasses.replace(model.stages, rules=DecideBy({TEASER[:30]: True}))
    scored = stages.run(pages[0])
    weights = model.loaded_weights
    made = decisions(pages[0], scored, weights.trees, weights.names)
    teaser = next(d for d in made if d.chars == len(TEASER))
    assert teaser.kept and teaser.reason == "site rule: content"
    assert all(d.reason.startswith("P(main) ") for d in made if d is not teaser)
