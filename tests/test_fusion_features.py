"""Adding a feature to fusion is one registered function plus retraining.

The corpus: sites whose pages are forum threads or news stories under one template.  Both end with
the same replies box; on a thread the replies are the content, under a story they are readers'
comments.  Only the page's address tells the two apart, so only a page-level feature that reads it
lets the trees keep the replies of a thread and drop those of a story.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.models import ModelFormatError, create_model
from scrapy_boilerplate.models.fusion.features import FEATURES, registered_feature
from scrapy_boilerplate.models.fusion.inputs import PageInputs
from scrapy_boilerplate.models.fusion.layout import FeatureLayout
from scrapy_boilerplate.models.fusion.registry import Feature, FeatureRegistry
from scrapy_boilerplate.models.fusion.weights import FusionWeights
from scrapy_boilerplate.page import Page

lightgbm = pytest.importorskip("lightgbm", reason="training needs the train extra")

WORDS = [
    "river",
    "council",
    "harbour",
    "bakery",
    "library",
    "valley",
    "market",
    "ferry",
    "bridge",
    "school",
    "garden",
    "museum",
    "station",
    "winter",
    "summer",
    "morning",
    "evening",
    "people",
    "families",
    "workers",
    "visitors",
    "students",
    "farmers",
    "builders",
]
REPLY_START = "Reply from"


def _sentence(rng: random.Random) -> str:
    words = rng.sample(WORDS, 9)
    return f"The {words[0]} and the {words[1]} said that {' '.join(words[2:8])} would follow the {words[8]}."


def _page(rng: random.Random, site: str, kind: str) -> tuple[str, str]:
    """(html, gold) of one thread or story page."""
    headline = f"{kind.title()} about the {rng.choice(WORDS)} and the {rng.choice(WORDS)}"
    body = [" ".join(_sentence(rng) for _ in range(3)) for _ in range(3)]
    replies = [f"{REPLY_START} {rng.choice(WORDS)}: " + " ".join(_sentence(rng) for _ in range(2)) for _ in range(3)]
    html = f"""<html><head><title>{headline}</title></head><body>
    <ul class="menu"><li><a href="/">{site}</a></li><li><a href="/a">Topics</a></li><li><a href="/b">About</a></li></ul>
    <div class="main"><h1>{headline}</h1>{"".join(f"<p>{p}</p>" for p in body)}</div>
    <div class="replies">{"".join(f"<p>{r}</p>" for r in replies)}</div>
    <div class="footer">Copyright {site}. <a href="/privacy">Privacy</a></div></body></html>"""
    gold = [headline, *body, *(replies if kind == "thread" else [])]
    return html, "\n\n".join(gold)


def _write_corpus(root, sites: int = 6, pages: int = 6, seed: int = 5) -> None:
    rng = random.Random(seed)
    for s in range(sites):
        folder = root / f"site{s}.example"
        folder.mkdir(parents=True)
        for i in range(pages):
            kind = "thread" if i % 2 else "story"
            html, gold = _page(rng, folder.name, kind)
            (folder / f"{kind}-{i}.html").write_text(html, encoding="utf-8")
            (folder / f"{kind}-{i}.txt").write_text(gold, encoding="utf-8")


def thread_address(inputs: PageInputs) -> np.ndarray:
    """1 on a page whose address names a forum thread (one value for the whole page)."""
    return np.array([1.0 if "/thread-" in inputs.page.url else 0.0])


THREAD = Feature("thread_address", ("thread_address",), thread_address, per_page=True)
PARAMS = {"min_data_in_leaf": 5, "num_iterations": 60, "feature_fraction": 1.0, "bagging_fraction": 1.0}


def _train(data, tmp_path, name: str) -> str:
    from scrapy_boilerplate.models.fusion.training.dataset import corpus_rows
    from scrapy_boilerplate.models.fusion.training.fit import train_weights

    layout = FeatureLayout.for_training()
    rows = corpus_rows(find_sites(data), 20, layout)
    path = tmp_path / name
    path.write_bytes(train_weights(rows, layout, PARAMS).dumps())
    return str(path)


def _kept_replies(weights: str, kind: str) -> int:
    rng = random.Random(99)
    html, _ = _page(rng, "new.example", kind)
    text = create_model("fusion", weights=weights).fit([]).clean(Page(html, f"file:///new.example/{kind}-0.html")).text
    return text.count(REPLY_START)


def test_a_registered_page_feature_is_trained_saved_and_used_at_inference(tmp_path):
    data = tmp_path / "data"
    _write_corpus(data)
    without = _train(data, tmp_path, "without.json")
    with registered_feature(THREAD):
        with_thread = _train(data, tmp_path, "with.json")
        document = json.loads((tmp_path / "with.json").read_bytes())
        assert document["features"][-1] == {"name": "thread_address", "columns": ["thread_address"]}
        weights = FusionWeights.from_json(document)
        column = weights.layout.column("thread_address")
        assert column in weights.trees.feature.tolist()  # the trees split on it
        assert _kept_replies(with_thread, "thread") == 3
        assert _kept_replies(with_thread, "story") == 0
    # without the feature, a thread's replies and a story's comments look alike to the trees
    assert (_kept_replies(without, "thread"), _kept_replies(without, "story")) != (3, 0)
    with pytest.raises(ModelFormatError, match="'thread_address', which this release does not compute"):
        create_model("fusion", weights=with_thread).fit([])


def test_a_page_feature_gives_one_value_to_every_block_row():
    registry = FeatureRegistry([*FEATURES.all(), THREAD])
    layout = FeatureLayout.for_training(registry).with_columns("role_words", ())
    html, _ = _page(random.Random(1), "one.example", "thread")
    inputs = PageInputs.of(Page(html, "file:///one.example/thread-1.html"))
    matrix = layout.rows(inputs)
    assert matrix.shape == (len(inputs.blocks), len(layout.names))
    assert (matrix[:, layout.column("thread_address")] == 1.0).all()
    assert np.isnan(matrix[:, layout.column("dup_cosine")]).all()  # no site evidence: missing


def test_a_feature_name_or_column_is_registered_once():
    with pytest.raises(ValueError, match="registered already"):
        FEATURES.register(Feature("block_cues", ("x",), thread_address))
    with pytest.raises(ValueError, match="reuses columns"):
        FEATURES.register(Feature("words_again", ("words_log",), thread_address))
    with registered_feature(THREAD):
        assert FEATURES.get("thread_address") is THREAD
    assert FEATURES.get("thread_address") is None
