"""Site style tree building: leaf detection and per-page feature counts."""

from __future__ import annotations

from collections import Counter

from scrapy_boilerplate.html import parse_html
from scrapy_boilerplate.models.style_tree.build import ElementNode, content_features, is_leaf


def test_add_features_counts_each_feature_per_page_in_any_call_order():
    node = ElementNode("p")
    node.add_features(0, Counter({"a": 1, "b": 2}))
    node.add_features(1, Counter({"b": 1}))
    node.add_features(1, Counter({"b": 3, "c": 1}))  # the same leaf twice on one page adds up
    node.add_features(0, Counter({"a": 4}))  # an earlier page again, after a later one
    assert node.leaf_pages == 4
    assert node.features == {"a": {0: 5}, "b": {0: 2, 1: 4}, "c": {1: 1}}
    assert list(node.features) == ["a", "b", "c"]  # first-seen order, which the importance sums follow


def test_virtual_leaves_are_parents_of_actual_leaves_only():
    body = parse_html(
        "<body><ul><li>a</li><li>b<!-- c --></li></ul><div><p>x<b>y</b></p></div><span>t</span></body>"
    ).root.find("body")
    ul, div, span = body
    assert is_leaf(span, virtual_leaves=False) and is_leaf(span, virtual_leaves=True)
    assert is_leaf(ul, virtual_leaves=True) and not is_leaf(ul, virtual_leaves=False)
    assert not is_leaf(div, virtual_leaves=True)  # its <p> holds an element
    assert not is_leaf(body, virtual_leaves=True)


def test_content_features_shingle_words_in_order_with_links_and_images():
    p = parse_html('<body><p>One two three two three <a href=" /x ">four</a><img src="i.png"></p></body>').root.find(
        ".//p"
    )
    assert list(content_features(p, 3).items()) == [
        ("one two three", 1),
        ("two three two", 1),
        ("three two three", 1),
        ("two three four", 1),
        ("a:/x", 1),
        ("img:i.png", 1),
    ]
    assert content_features(p, 1)["three"] == 2


def test_shifted_gives_runs_of_n_consecutive_words():
    from scrapy_boilerplate.models.style_tree.build import _shifted

    words = ["a", "b", "c", "d"]
    assert list(_shifted(words, 3)) == [("a", "b", "c"), ("b", "c", "d")]
    assert list(_shifted(words, 2)) == [("a", "b"), ("b", "c"), ("c", "d")]
    assert list(_shifted(words, 5)) == []


def test_add_features_of_a_new_node_keeps_the_leaf_order():
    node = ElementNode("p")
    node.add_features(3, {"z": 1, "a": 2})
    node.add_features(5, {"a": 1, "m": 1})
    assert list(node.features.items()) == [("z", {3: 1}), ("a", {3: 2, 5: 1}), ("m", {5: 1})]


def test_text_features_counts_words_or_shingles_in_first_seen_order():
    from scrapy_boilerplate.models.style_tree.build import text_features

    assert list(text_features("B a b, A", 1).items()) == [("b", 2), ("a", 2)]
    assert text_features("one two three one two", 2) == {"one two": 2, "two three": 1, "three one": 1}
    assert text_features("too short", 3) == {"too": 1, "short": 1}
    assert text_features("", 3) == {}


def test_leaf_features_equal_content_features_for_repeated_leaves():
    from scrapy_boilerplate.models.style_tree.build import LeafFeatures

    body = parse_html(
        '<body><p>Home <a href="/a">About us</a></p><p>Home <a href="/b">About us</a></p>'
        "<p>Home About us</p><li>x y z x y</li><li>x y z x y</li></body>"
    ).root.find("body")
    features = LeafFeatures(shingle=2)
    for leaf in list(body) * 2:
        assert list(features(leaf).items()) == list(content_features(leaf, 2).items())
    first, second, third = (features(leaf) for leaf in body[:3])
    assert first["a:/a"] == 1 and "a:/a" not in second and "a:/a" not in third  # media never leak between leaves
