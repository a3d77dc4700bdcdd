"""Template fingerprints, fit-time baselines and the drift monitor on synthetic sites."""

from __future__ import annotations

import pytest
from helpers.store_support import redesign

from scrapy_boilerplate import Page, create_model
from scrapy_boilerplate.drift import DriftMonitor, Fingerprint, fit_baseline
from scrapy_boilerplate.drift.fingerprint import block_signatures
from scrapy_boilerplate.testing.synthetic import make_site


def site(n: int = 40, seed: int = 5) -> list[Page]:
    return [Page(s.html, s.url) for s in make_site("drift.example", n, seed=seed)]


def test_unseen_pages_of_the_same_template_map_to_seen_regions():
    pages = site()
    fingerprint = Fingerprint.of(pages[:10])
    shares = [fingerprint.unseen(page) for page in pages[10:]]
    assert max(shares) < 0.05


def test_a_redesigned_template_maps_to_unseen_regions():
    pages = site()
    fingerprint = Fingerprint.of(pages[:10])
    shares = [fingerprint.unseen(Page(redesign(page.html), page.url)) for page in pages[10:20]]
    assert min(shares) > 0.9


def test_signatures_ignore_positions_and_numbers_but_weigh_text():
    a = Page('<html><body><div class="post-1"><p>one two</p><p>three</p></div></body></html>')
    b = Page('<html><body><div class="post-22"><p>four five six seven</p></div></body></html>')
    assert set(block_signatures(a)) == set(block_signatures(b))
    assert sum(block_signatures(a).values()) == len("one two") + len("three")


def test_a_sample_with_a_one_off_region_has_a_nonzero_baseline_unseen_share():
    pages = site(10)
    odd = Page(pages[0].html.replace("</footer>", '</footer><div class="poll"><p>Vote in our poll</p></div>'))
    assert Fingerprint.of(pages[1:]).unseen_share == 0.0
    assert Fingerprint.of([odd, *pages[1:]]).unseen_share > 0.0


def test_unseen_share_weighs_the_text_of_new_regions_against_all_of_the_pages_text():
    fingerprint = Fingerprint.of(site(10))
    page = site(12)[11]
    poll = "Vote in our poll on the new bridge"
    mixed = Page(page.html.replace("</footer>", f'</footer><div class="poll"><p>{poll}</p></div>'))
    chars = block_signatures(mixed)
    assert fingerprint.unseen(page) == 0.0
    assert fingerprint.unseen(mixed) == pytest.approx(len(poll) / sum(chars.values()))
    assert fingerprint.unseen(Page("<html><body></body></html>")) == 0.0


def test_fit_baseline_records_the_models_removed_share_on_its_sample():
    pages = site(10)
    model = create_model("pvalue").fit(pages)
    baseline = fit_baseline(model, pages)
    expected = sum(model.clean(p).removed_share for p in pages) / len(pages)
    assert baseline.removed_share == pytest.approx(expected)
    assert 0.1 < baseline.removed_share < 0.9  # the template is a real share of every page
    assert baseline.signatures == Fingerprint.of(pages).signatures


def _feed(monitor: DriftMonitor, model, fingerprint: Fingerprint, pages: list[Page]) -> list[int]:
    """Indexes of the pages at which the monitor reported drift."""
    hits = []
    for i, page in enumerate(pages):
        cleaned = model.clean(page)
        if monitor.observe("drift.example", cleaned.removed_share, fingerprint.unseen(page)):
            hits.append(i)
    return hits


def test_the_monitor_stays_quiet_on_the_same_template_and_fires_once_after_a_redesign():
    pages = site(70)
    sample, same, later = pages[:10], pages[10:40], pages[40:]
    model = create_model("pvalue").fit(sample)
    baseline = fit_baseline(model, sample)
    fingerprint = Fingerprint(baseline.signatures, baseline.unseen_share)
    monitor = DriftMonitor(window=10, tolerance=0.25, every=1)
    monitor.watch("drift.example", baseline)
    assert _feed(monitor, model, fingerprint, same) == []
    redesigned = [Page(redesign(p.html), p.url) for p in later]
    hits = _feed(monitor, model, fingerprint, redesigned)
    assert len(hits) == 1 and hits[0] < 10  # within one window of the change, then it stops watching
    assert not monitor.watching("drift.example")


def test_the_monitor_needs_a_full_window_and_validates_its_settings():
    pages = site(12)
    model = create_model("pvalue").fit(pages[:6])
    baseline = fit_baseline(model, pages[:6])
    monitor = DriftMonitor(window=5, tolerance=0.2)
    assert monitor.due("d") is False  # not watched
    monitor.watch("d", baseline)
    assert [monitor.due("d") for _ in range(8)] == [False, False, False, True] * 2  # one page in four
    assert [monitor.observe("d", 1.0, 1.0) for _ in range(4)] == [None] * 4
    drift = monitor.observe("d", 1.0, 1.0)
    assert drift is not None and "unseen share 1.00" in drift.describe()
    assert monitor.observe("unwatched", 1.0, 1.0) is None
    with pytest.raises(ValueError, match="window"):
        DriftMonitor(window=0)
    with pytest.raises(ValueError, match="tolerance"):
        DriftMonitor(tolerance=0)
    with pytest.raises(ValueError, match="every"):
        DriftMonitor(every=0)


def test_block_signatures_weigh_each_block_by_its_text_as_iter_blocks_gives_it():
    """The length-only pass gives the figures of the block texts themselves (the fingerprint's definition)."""
    from collections import Counter

    from scrapy_boilerplate.drift.fingerprint import _Signer
    from scrapy_boilerplate.html import iter_blocks

    pages = site(6)
    pages += [
        Page(redesign(pages[0].html)),
        Page("<html><body>Loose <i>text</i><div>own<p>one<br>two</p> tail</div><p> </p></body></html>"),
    ]
    for page in pages:
        signature_of = _Signer({})
        expected: Counter[str] = Counter()
        for block in iter_blocks(page.body):
            if block.text:
                expected[signature_of(block.element)] += len(block.text)
        assert block_signatures(page) == expected


def test_unseen_equals_the_share_of_the_pages_block_signatures_outside_the_fingerprint():
    from scrapy_boilerplate.drift.fingerprint import unseen_share

    fingerprint = Fingerprint.of(site(10))
    page = site(12)[11]
    pages = [
        page,
        Page(page.html.replace("</footer>", '</footer><div class="poll">Own <p>Vote now</p> text</div>')),
        Page(redesign(page.html)),
    ]
    shares = [fingerprint.unseen(p) for p in pages]
    assert shares == [unseen_share(block_signatures(p), fingerprint.signatures) for p in pages]
    assert 0.0 < shares[1] < 0.5 < shares[2]


def test_a_signature_does_not_depend_on_the_order_elements_are_signed_in_even_on_deep_pages():
    from scrapy_boilerplate.drift.fingerprint import _Signer

    page = Page("<html><body>" + "<div class='d'><span>" * 120 + "deep" + "</span></div>" * 120 + "</body></html>")
    elements = list(page.body.iter())
    top_down, bottom_up = _Signer({}), _Signer({})
    forward = [top_down(el) for el in elements]
    backward = [bottom_up(el) for el in reversed(elements)][::-1]  # the deepest first: every ancestor unsigned
    assert forward == backward
    assert len(set(forward)) == len(elements)  # each depth is its own region
    assert sum(block_signatures(page).values()) == len("deep")


def test_the_baseline_is_the_mean_share_of_each_pages_text_in_regions_no_other_page_showed():
    """Fingerprint.of skips measuring text where it cannot matter: its figures stay those of the definition."""
    from scrapy_boilerplate.drift.fingerprint import unseen_share

    shapes = [
        "<header><a>Logo</a><nav><ul><li><a>Home</a></li><li> <b>Blog</b></li></ul></nav></header>",
        "<div class='post'><p><b> </b><i>late</i> words</p><p>   </p><div><span><p>deep</p></span></div></div>",
        "<div class='post'>own <p>nested</p> tail<ul><li></li><li><br>after break</li></ul></div>",
        "Loose text under body<table><tr><td>cell</td><td><p>inner</p></td></tr></table>",
        "<aside><h3>Poll</h3><p>Vote</p></aside><div class='post'><p>only here</p></div>",
        "",
    ]
    pages = [Page(f"<html><body>{shape}<footer><p>Copyright</p></footer></body></html>") for shape in shapes]
    pages.append(Page("<html><body><div><div><p>Copyright</p></div></div></body></html>"))
    per_page = [block_signatures(page) for page in pages]
    shares = []
    for i, chars in enumerate(per_page):
        others = set().union(*(set(c) for j, c in enumerate(per_page) if j != i))
        shares.append(unseen_share(chars, others))
    fingerprint = Fingerprint.of(pages)
    assert fingerprint.signatures == frozenset().union(*per_page)
    assert fingerprint.unseen_share == sum(shares) / len(shares)
    assert 0.0 < fingerprint.unseen_share < 1.0
    assert [fingerprint.unseen(page) for page in pages] == [0.0] * len(pages)
