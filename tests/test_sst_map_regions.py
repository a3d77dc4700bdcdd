"""``style_tree.mapping``'s regions: NamedTuples made at C speed, with the verdict of their style node."""

from __future__ import annotations

import lxml.etree

from scrapy_boilerplate.models.style_tree.compact import MEANINGFUL, NOISY, CompactNode
from scrapy_boilerplate.models.style_tree.mapping import Region, Verdicts


def test_verdicts_make_regions_like_the_namedtuple_does():
    el = lxml.etree.fromstring("<div class='nav'/>")
    noisy = CompactNode("div|class=nav", NOISY, 0.05)
    kept = CompactNode("article", MEANINGFUL, 0.9)
    verdicts = Verdicts(0.2)
    region = verdicts.region(noisy, el)
    assert type(region) is Region
    assert region == Region(el, False, "style node <div class=nav> CompImp 0.05 < threshold 0.20 (noisy)", noisy)
    assert (region.element, region.kept, region.node) == (el, False, noisy)
    again = verdicts.region(kept, el)
    assert again.kept and again.reason.endswith("(meaningful)") and again.node is kept
    assert region._replace(kept=True).kept  # still a NamedTuple to its users
