"""The SST's importances against values worked out by hand from the paper's definitions."""

from __future__ import annotations

import math

import pytest

from scrapy_boilerplate.models import read_model, save_model
from scrapy_boilerplate.models.style_tree.build import BuildOptions, SiteStyleTree
from scrapy_boilerplate.models.style_tree.importance import mark
from scrapy_boilerplate.models.style_tree.model import StyleTreeModel
from scrapy_boilerplate.page import Page

NAV = '<div class="nav"><a href="/home">Home</a><a href="/news">News</a></div>'


def page(h1: str, paragraphs: list[str]) -> Page:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return Page(f'<html><body>{NAV}<h1>{h1}</h1><div class="main">{body}</div></body></html>')


PAGES = [
    page("Sports sports news", ["alpha beta"]),
    page("Sports scores", ["gamma delta", "epsilon"]),
    page("Weather", ["zeta"]),
]


def fitted(pages: list[Page], attenuation: float = 0.9):
    """The SST of ``pages`` without the enhancements, so every node is the paper's basic one."""
    sst = SiteStyleTree(BuildOptions(virtual_leaves=False, merge_elements=False)).add_pages(p.body for p in pages)
    infos = mark(sst.root, threshold=0.2, attenuation=attenuation, local_noise_entropy=None)
    nav, h1, main = sst.root.children()
    return sst, infos, nav, h1, main


def log(x: float, base: int) -> float:
    return math.log(x) / math.log(base)


def test_two_page_importances_match_the_hand_computation():
    sst, infos, nav, h1, main = fitted(PAGES[:2])
    imp = lambda node: infos[id(node)].comp_imp  # noqa: E731
    # Links identical on both pages: each feature has entropy 1 -> leaf CompImp 1 - 2/2 = 0.
    assert [imp(a) for a in nav.children()] == pytest.approx([0.0, 0.0])
    # One style node on both pages: NodeImp = -1 log_2 1 = 0, CompImp = 0.1 * 0 + 0.9 * 0 = 0.
    assert infos[id(nav)].node_imp == pytest.approx(0.0)
    assert imp(nav) == pytest.approx(0.0)
    # h1 features: sports (2, 1), news (1, 0), scores (0, 1) over m = 2 pages.
    h_sports = -(2 / 3) * log(2 / 3, 2) - (1 / 3) * log(1 / 3, 2)
    assert imp(h1) == pytest.approx(1 - h_sports / 3)
    # main: two style nodes, one page each: NodeImp = 1; every <p> is on one page only (CompImp 1).
    assert infos[id(main)].node_imp == pytest.approx(1.0)
    assert imp(main) == pytest.approx((1 - 0.9**2) * 1 + 0.9**2 * (0.5 * 1 + 0.5 * 1))
    # body: one style node (NodeImp 0), CompImp = 0.9 * mean(nav, h1, main).
    assert imp(sst.root) == pytest.approx(0.9 * (0 + (1 - h_sports / 3) + 1) / 3)
    assert infos[id(nav)].noisy and not infos[id(nav)].meaningful
    assert infos[id(main)].meaningful and infos[id(h1)].meaningful
    assert not infos[id(sst.root)].noisy and not infos[id(sst.root)].meaningful  # mixed


def test_three_pages_use_log_base_m_and_the_attenuation_factor():
    sst, infos, nav, h1, main = fitted(PAGES, attenuation=0.5)
    # main on 3 pages: style (p) used by 2, style (p, p) by 1.
    node_imp = -(2 / 3) * log(2 / 3, 3) - (1 / 3) * log(1 / 3, 3)
    assert infos[id(main)].node_imp == pytest.approx(node_imp)
    assert infos[id(main)].comp_imp == pytest.approx((1 - 0.5**2) * node_imp + 0.5**2 * 1.0)
    # Identical links on 3 pages: entropy 1 with log base 3 too.
    assert infos[id(nav)].comp_imp == pytest.approx(0.0)
    # h1: sports (2, 1, 0) -> entropy over m = 3; news, scores, weather on one page each -> 0.
    h_sports = -(2 / 3) * log(2 / 3, 3) - (1 / 3) * log(1 / 3, 3)
    assert infos[id(h1)].comp_imp == pytest.approx(1 - h_sports / 4)


def test_a_node_on_one_page_is_fully_important():
    sst, infos, *_ = fitted(PAGES[:1])
    assert all(info.comp_imp == 1.0 and info.meaningful for info in infos.values())


def test_paper_variant_drops_what_maps_to_noise_and_says_why():
    model = StyleTreeModel(variant="paper", merge_elements=False, virtual_leaves=False, local_noise=False)
    cleaned = model.fit(PAGES).clean(page("Markets", ["eta theta", "iota"]))
    assert "Home" not in cleaned.text and "News" not in cleaned.text
    assert "Markets" in cleaned.text and "eta theta" in cleaned.text
    removed = [d for d in cleaned.decisions if not d.kept]
    assert removed and all("< threshold 0.20 (noisy)" in d.reason for d in removed)
    assert [d.reason for d in removed] == ["style node <div class=nav> CompImp 0.00 < threshold 0.20 (noisy)"]


def test_an_unseen_style_is_kept_as_possibly_meaningful():
    model = StyleTreeModel(variant="paper", merge_elements=False, virtual_leaves=False, local_noise=False)
    model.fit(PAGES)
    odd = Page(f'<html><body>{NAV}<h1>Odd</h1><div class="main"><p>x</p></div><ul><li>kappa</li></ul></body></html>')
    cleaned = model.clean(odd)
    # The paper maps a whole child style node: <body>'s new sequence is unseen, so all of it stays.
    assert "kappa" in cleaned.text and "Home" in cleaned.text
    assert [d.reason for d in cleaned.decisions] == [
        "<body> has a child style node the sample never showed: possibly meaningful"
    ]


def test_save_load_round_trip_cleans_identically(tmp_path):
    model = StyleTreeModel(variant="paper").fit(PAGES)
    save_model(model, tmp_path / "sst.json")
    loaded = read_model(tmp_path / "sst.json", StyleTreeModel)
    new = page("Markets", ["eta theta", "iota"])
    for p in [*PAGES, new]:
        assert loaded.clean(p).text == model.clean(p).text
        assert loaded.clean(p).decisions == model.clean(p).decisions
