"""block_dup (Yoshida & Yamamoto) from the paper's definitions, on hand-made pages."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

from scrapy_boilerplate.models import ModelFormatError, dump_model, load_model, read_model, save_model
from scrapy_boilerplate.models.blocks.block_dup import BlockDupModel
from scrapy_boilerplate.models.blocks.common import text_blocks
from scrapy_boilerplate.models.blocks.index import BlockIndex, block_vectors
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

FOOTER = "<footer><p>Copyright Example News<br>All rights reserved</p></footer>"


def page(article: str, url: str = "", extra: str = "") -> Page:
    return Page(
        f"<html><body><nav><a href='/'>Home</a> <a href='/w'>World</a></nav>{extra}"
        f"<div class='story'>{article}</div>{FOOTER}</body></html>",
        url,
    )


def cosine(a: dict, b: dict) -> float:
    dot = sum(v * b.get(k, 0) for k, v in a.items())
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


def test_block_vector_counts_tags_lines_and_title_alt():
    blocks = text_blocks(Page("<body><p title='Note'>Line One<br>line ONE<br> <img alt='Logo'>Two</p></body>"))
    vectors = block_vectors(blocks)
    # tags p, br, br, img; lines "line one" twice (after lower-casing) and "two"; title + alt texts.
    assert vectors.tags[0] == {"p": 1, "br": 2, "img": 1}
    assert sorted(vectors.weight.tolist()) == [1.0, 1.0, 1.0, 2.0]
    assert vectors.norm[0] == pytest.approx(math.sqrt(1 + 4 + 1 + 4 + 1 + 1 + 1))


def test_blocks_above_the_threshold_on_other_pages_are_duplicates():
    lines = [f"item {i}" for i in range(10)]
    # 10 lines and 9 <br>: one line differs, so cos = (1 + 81 + 9) / (1 + 81 + 10) = 0.989
    list_a = "<p>" + "<br>".join(lines) + "</p>"
    list_b = "<p>" + "<br>".join(lines[:9] + ["item changed"]) + "</p>"
    sample = [page(f"<h2>First story</h2>{list_a}", "a"), page(f"<h2>Second story</h2>{list_b}", "b")]
    model = BlockDupModel(variant="paper").fit(sample)
    cleaned = model.clean(sample[0])
    assert "item 3" not in cleaned.text and "Copyright" not in cleaned.text
    assert "First story" in cleaned.text
    reasons = {d.reason for d in cleaned.decisions if not d.kept}
    assert any("cosine 0.99 > 0.9" in r for r in reasons)
    expected = cosine(
        {"p": 1, "br": 9, **{f"l{x}": 1 for x in lines}},
        {"p": 1, "br": 9, **{f"l{x}": 1 for x in lines[:9] + ["item changed"]}},
    )
    assert expected == pytest.approx(91 / 92)


def test_blocks_below_the_threshold_are_content():
    # {p, br, "hello world", "second"} against {p, br, "hello world", "other"}: cos = 3 / 4 = 0.75
    sample = [page("<p>Hello world<br>Second</p>", "a"), page("<p>Hello world<br>Other</p>", "b")]
    cleaned = BlockDupModel(variant="paper").fit(sample).clean(sample[0])
    assert "Hello world" in cleaned.text and "Copyright" not in cleaned.text
    assert any(d.kept and "best cosine 0.75 <= 0.9" in d.reason for d in cleaned.decisions)
    assert "Hello world" not in BlockDupModel(variant="paper", threshold=0.7).fit(sample).clean(sample[0]).text


def test_the_same_article_under_two_urls_is_not_compared_with_itself():
    story = "<h2>Storm hits the harbour</h2><p>The storm flooded the old harbour on Monday night.</p>"
    sample = [
        page(story, "http://x/a"),
        page(story, "http://x/a?print=1", extra="<p>Print edition</p>"),
        page("<h2>Budget vote</h2><p>The council approved the budget.</p>", "http://x/b"),
    ]
    with_check = BlockDupModel(variant="paper").fit(sample).clean(sample[0])
    assert "flooded the old harbour" in with_check.text and "Copyright" not in with_check.text
    without = BlockDupModel(variant="paper", near_duplicates=False).fit(sample).clean(sample[0])
    assert "flooded the old harbour" not in without.text


def test_unseen_page_is_compared_with_the_sample():
    sample = [
        page(f"<p>Story number {i} about the {w}.</p>", f"s{i}") for i, w in enumerate(["bridge", "mayor", "canal"])
    ]
    model = BlockDupModel(variant="paper").fit(sample)
    fresh = page("<p>A brand new story about the museum.</p>", "new")
    cleaned = model.clean(fresh)
    assert cleaned.text == "A brand new story about the museum."
    removed = [d for d in cleaned.decisions if not d.kept]
    assert removed and all("duplicate of page" in d.reason for d in removed)
    for decision in cleaned.decisions:
        assert len(fresh.tree.xpath(decision.path)) == 1


def as_dict(vectors, row: int) -> dict:
    """Block ``row`` of ``vectors`` as a plain sparse vector, for brute-force cosines."""
    d = {("t", k): c for k, c in vectors.tags[row].items()}
    d.update(
        {("h", int(k)): w for k, w, o in zip(vectors.keys, vectors.weight, vectors.owner, strict=False) if o == row}
    )
    return d


def brute_force_best(query, sample_vectors) -> list[float]:
    """Each query block's best cosine against every block of ``sample_vectors``."""
    others = [as_dict(v, r) for v in sample_vectors for r in range(len(v))]
    return [max(cosine(as_dict(query, row), other) for other in others) for row in range(len(query))]


def test_vectorised_index_finds_the_brute_force_best_cosine():
    pages = [Page(s.html) for s in make_site("index.example", 6, seed=9)]
    vectors = [block_vectors(text_blocks(p)) for p in pages]
    index = BlockIndex.build(vectors[1:])
    query = vectors[0]
    match = index.best_matches(query, np.zeros(len(query), np.int64), np.zeros((1, 5), bool), 0.5)
    for row, best in enumerate(brute_force_best(query, vectors[1:])):
        if best > 0.5:
            assert match.cosine[row] == pytest.approx(best)


def listing_page(seed: int, rows: int) -> Page:
    """A flat page of repeated rows: identical ones, and distinct ones sharing a "Reply" line."""
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(rows):
        kind = rng.integers(3)
        if kind == 0:
            parts.append("<p>Sponsored: subscribe to our newsletter</p>")
        elif kind == 1:
            parts.append(f"<div>comment {int(rng.integers(rows // 2))} on this story<br>Reply</div>")
        else:
            parts.append(f"<div><b>{int(rng.integers(4))}</b> replies<br>Reply<br>Share</div>")
    return page("".join(parts), f"listing-{seed}")


@pytest.mark.parametrize("threshold", [0.5, 0.9])
def test_repeated_and_frequent_blocks_still_match_like_brute_force(monkeypatch, threshold):
    # Few postings per feature count as frequent here, so the capped path is the one checked.
    monkeypatch.setattr("scrapy_boilerplate.models.blocks.index.FREQUENT_POSTINGS", 3)
    vectors = [block_vectors(text_blocks(listing_page(seed, 60))) for seed in range(4)]
    index = BlockIndex.build(vectors[1:])
    query = vectors[0]
    match = index.best_matches(query, np.zeros(len(query), np.int64), np.zeros((1, 3), bool), threshold)
    for row, best in enumerate(brute_force_best(query, vectors[1:])):
        assert (match.cosine[row] > threshold) == (best > threshold)
        if best > threshold:
            assert match.cosine[row] == pytest.approx(best)


@pytest.mark.slow
def test_pages_of_thousands_of_repeated_blocks_clean_in_bounded_memory():
    # Pairing every block with every block of the same shape would need gigabytes here.
    sample = [listing_page(seed, 12_000) for seed in range(2)] + [page(f"<p>Story {i}</p>", f"s{i}") for i in range(3)]
    fresh = listing_page(7, 12_000)
    tracemalloc.start()
    try:
        model = BlockDupModel(variant="paper", threshold=0.5).fit(sample)
        cleaned = model.clean(fresh)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 400 * 2**20
    assert "Sponsored" not in cleaned.text and "Copyright" not in cleaned.text
    assert len(cleaned.decisions) >= 12_000


def test_round_trip_and_damaged_state(tmp_path):
    sample = [Page(s.html, s.url) for s in make_site("trip.example", 6, seed=2)]
    unseen = [Page(s.html) for s in make_site("trip.example", 8, seed=2)[6:]]
    model = BlockDupModel(variant="paper", threshold=0.8).fit(sample)
    save_model(model, tmp_path / "m.json")
    loaded = read_model(tmp_path / "m.json", BlockDupModel)
    assert loaded.threshold == 0.8
    for p in sample + unseen:
        assert [d.reason for d in loaded.clean(p).decisions] == [d.reason for d in model.clean(p).decisions]
    import json

    document = json.loads(dump_model(model))
    del document["arrays"]["post_keys"]
    with pytest.raises(ModelFormatError):
        load_model(json.dumps(document).encode())
