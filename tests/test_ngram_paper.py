"""The paper's definitions (section 2, Figs. 2 and 3, section 4.1) on its own examples."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.models.ngram.reference import (
    alternation,
    boundaries,
    countsort,
    find_optimal,
    preprocess,
    range_scores,
    range_string,
    top_share,
)


def test_worked_example_range_string_and_alternation_count():
    x = "accbaacbc"
    r = range_string(x, {"cb", "ba"})
    assert r == "110001001"
    assert boundaries(r) == 4


def test_preprocessing_turns_tabs_and_newlines_into_one_space():
    assert preprocess("<p>\n\tHello  \r\n world</p>") == "<p> Hello world</p>"


def test_countsort_orders_by_frequency_with_ties_by_first_occurrence():
    ranked = countsort(["abab", "ba"], 2)
    assert ranked == [("ab", 2), ("ba", 2)]  # a tie: "ab" occurs first
    assert countsort(["ab", "ab"], 3) == []  # no 3-gram fits in a 2-letter document


def test_ngrams_do_not_cross_documents():
    ranked = dict(countsort(["xa", "bx"], 2))
    assert "ab" not in ranked


def test_delimiter_aware_ngrams_hold_angle_brackets_only_at_their_ends():
    grams = dict(countsort(["<p>x</p>"], 3, delimiters=True))
    assert "<p>" in grams and ">x<" in grams
    assert "p>x" not in grams and "x</" not in grams


def test_top_share_takes_the_first_a_percent_of_distinct_ngrams():
    ranked = [(f"g{i}", 100 - i) for i in range(200)]
    assert top_share(ranked, 1) == {"g0", "g1"}
    assert len(top_share(ranked, 10)) == 20


def test_alternation_sums_boundaries_over_documents():
    docs = ["accbaacbc", "zzcbzz"]
    ranked = countsort(docs, 2)  # "cb" is the most frequent 2-gram (3 times) of 9 distinct ones
    assert ranked[0] == ("cb", 3) and len(ranked) == 9
    # the top 12 percent of 9 is 1 n-gram, cb: r = 110011001 (4 boundaries) and 110011 (2).
    assert alternation(docs, ranked, 12) == 4 + 2
    assert alternation(docs, ranked, 11) == 0  # no n-gram at all


def _site(n_pages: int) -> list[str]:
    """Pages sharing a long template around distinct bodies."""
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma", "omega", "rho"]
    pages = []
    for i in range(n_pages):
        body = " ".join(words[(i * 7 + j * 5) % len(words)] + str((i * j) % 13) for j in range(12))
        pages.append(
            f"<html><head><title>Site</title></head><body><div id=nav>home news sport</div>"
            f"<div id=main><p>{body}</p></div><div id=foot>copyright the site</div></body></html>"
        )
    return pages


def test_find_optimal_reaches_a_local_minimum_on_a_path_from_2_1():
    docs = [preprocess(p) for p in _site(6)]
    cut = find_optimal(docs)
    assert cut.n >= 2 and cut.a >= 1
    ranked_n, ranked_n1 = countsort(docs, cut.n), countsort(docs, cut.n + 1)
    here = alternation(docs, ranked_n, cut.a)
    assert here == cut.alternation
    assert here <= alternation(docs, ranked_n, cut.a + 1)
    assert here <= alternation(docs, ranked_n1, cut.a)
    assert here < alternation(docs, countsort(docs, 2), 1)


def test_range_scores_per_character():
    scores = range_scores("110001001", "111000001")
    assert scores.accuracy == pytest.approx(7 / 9)
    assert scores.recall == pytest.approx(3 / 4)
    assert scores.precision == pytest.approx(3 / 4)
    with pytest.raises(ValueError):
        range_scores("10", "1")
