"""Model files saved by an earlier release keep loading: same model back, same bytes when saved again.

``tests/data/saved_models/`` holds one file per model of that release and variant, fitted on the six
pages of ``make_site("saved.example", n_pages=6, seed=1)`` by the release whose models were flat
modules (``models/style_tree.py``, ``models/pvalue.py``, ...).  Nothing in a file names a module, so
moving code must not change them; a model whose file format changes bumps its ``format_version``,
and then its old file must fail with ``ModelFormatError`` instead (and gets re-written).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_boilerplate import Page, load_model
from scrapy_boilerplate.models import dump_model, read_model
from scrapy_boilerplate.testing.synthetic import make_site

FILES = sorted((Path(__file__).parent / "data" / "saved_models").glob("*.json"))
SAVED_MODELS = ("style_tree", "block_dup", "entropy", "ngram", "pvalue")  # the models of that release


def test_every_model_of_that_release_has_saved_files_of_both_variants():
    assert {path.stem for path in FILES} == {f"{name}{suffix}" for name in SAVED_MODELS for suffix in ("", "-paper")}


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_saved_model_loads_saves_to_the_same_bytes_and_cleans(path: Path):
    data = path.read_bytes()
    model = load_model(data)
    assert model.name == path.stem.removesuffix("-paper")
    assert model.get_params()["variant"] == ("paper" if path.stem.endswith("-paper") else "improved")
    assert dump_model(model) == data
    assert read_model(path, type(model)).get_params() == model.get_params()
    page = make_site("saved.example", n_pages=6, seed=1)[0]
    cleaned = model.clean(Page(page.html, page.url))
    assert cleaned.model == model.name
    assert 0 < cleaned.kept_chars < cleaned.total_chars
