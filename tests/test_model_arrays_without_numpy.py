"""style_tree saves and loads its tree as stdlib arrays, so a crawl with it never imports numpy.

numpy's start-up (its OpenBLAS threads) costs ~0.14 CPU s and ~10 MiB per crawl (docs/perf.md);
the saved format must stay the one numpy writes, so stores keep working across the change.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from array import array

import numpy as np
import pytest

from scrapy_boilerplate.models import ModelFormatError, create_model, dump_model, load_model
from scrapy_boilerplate.models.serialization import _decode_array, _encode_array
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site


@pytest.mark.parametrize(
    ("code", "dtype", "values"),
    [
        ("i", "<i4", [-1, 0, 7, 2**31 - 1]),
        ("B", "|u1", [0, 1, 2, 255]),
        ("d", "<f8", [0.0, 0.25, -1.5, 1e300]),
    ],
)
def test_stdlib_arrays_are_saved_exactly_as_numpy_saves_them(code, dtype, values):
    plain = _encode_array(array(code, values))
    assert plain == _encode_array(np.array(values, dtype=dtype))
    back = _decode_array("a", plain, plain=True)
    assert isinstance(back, array) and back.tolist() == values
    assert _decode_array("a", plain).tolist() == values  # and numpy models read them as before


def test_arrays_are_swapped_to_and_from_the_saved_byte_order_on_a_big_endian_machine(monkeypatch):
    """Pretend this machine is big-endian: its in-memory words must be swapped when saved and loaded."""
    assert base64.b64decode(_encode_array(array("i", [1, -2]))["data"]) == b"\x01\0\0\0\xfe\xff\xff\xff"
    monkeypatch.setattr(sys, "byteorder", "big")
    saved = _encode_array(array("i", [1, -2]))
    assert base64.b64decode(saved["data"]) == b"\0\0\0\x01\xff\xff\xff\xfe"
    assert _decode_array("a", saved, plain=True).tolist() == [1, -2]


def test_plain_decoding_rejects_what_it_cannot_represent():
    spec = _encode_array(np.zeros((2, 3), dtype="<i4"))
    with pytest.raises(ModelFormatError, match="1-D"):
        _decode_array("grid", spec, plain=True)
    short = {**_encode_array(array("i", [1, 2, 3])), "shape": [4]}
    with pytest.raises(ModelFormatError, match="malformed"):
        _decode_array("short", short, plain=True)
    ragged = {"dtype": "<i4", "shape": [1], "data": base64.b64encode(b"\x01\x02\x03").decode()}
    with pytest.raises(ModelFormatError, match="malformed"):
        _decode_array("ragged", ragged, plain=True)


def _fitted_style_tree() -> bytes:
    pages = [Page(s.html, s.url) for s in make_site("arrays.example", 8, seed=5)]
    return dump_model(create_model("style_tree").fit(pages))


def test_a_damaged_style_tree_array_is_refused():
    document = json.loads(_fitted_style_tree())
    parent = document["arrays"]["parent"]
    values = np.frombuffer(base64.b64decode(parent["data"]), dtype="<i4").copy()
    values[-1] = len(values)  # a parent after its child
    parent["data"] = base64.b64encode(values.tobytes()).decode()
    with pytest.raises(ModelFormatError, match="parents"):
        load_model(json.dumps(document).encode())


@pytest.mark.slow
def test_fitting_saving_loading_and_cleaning_with_style_tree_never_imports_numpy():
    """In a fresh interpreter: the crawl's whole path for style_tree, then a look at sys.modules."""
    script = """
import sys
from scrapy_boilerplate.crawl import addon  # what Scrapy imports for the add-on
from scrapy_boilerplate.models import create_model, dump_model, load_model
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site
pages = [Page(s.html, s.url) for s in make_site("arrays.example", 8, seed=5)]
model = create_model("style_tree").fit(pages)
again = load_model(dump_model(model))
assert again.clean(pages[0]).text == model.clean(pages[0]).text
print("numpy" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
