"""The numpy FindOptimal agrees with the paper's reference implementation on random inputs."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scrapy_boilerplate.models.ngram import reference as paper
from scrapy_boilerplate.models.ngram.corpus import collapse, corpus_of
from scrapy_boilerplate.models.ngram.counting import NGramCounter
from scrapy_boilerplate.models.ngram.find_optimal import (
    AlternationTables,
    alternation_table,
    find_optimal_fast,
    find_optimal_with_starts,
    top_positions,
    window_min,
)
from scrapy_boilerplate.models.ngram.hashing import HashIndex, covered, delimiter_inside, hash_at, hash_windows


def random_docs(seed: int, alphabet: str = "abcdefgh<>/ =\n") -> list[str]:
    """Documents sharing random template chunks around random bodies (enough n-grams that the
    top 1 percent is not empty)."""
    rng = random.Random(seed)
    chunks = ["".join(rng.choice(alphabet) for _ in range(rng.randint(5, 40))) for _ in range(8)]
    docs = []
    for _ in range(rng.randint(1, 7)):
        parts = []
        for chunk in chunks:
            parts.append(chunk)
            parts.append("".join(rng.choice(alphabet + "xyzé") for _ in range(rng.randint(0, 50))))
        docs.append(paper.preprocess("".join(parts)))
    return docs


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("delimiters", [False, True])
def test_alternation_tables_match_the_reference(seed, delimiters):
    docs = random_docs(seed)
    corpus = corpus_of(docs)
    counter = NGramCounter(corpus, delimiters)
    for n in range(2, 9):
        counter.advance()
        assert counter.n == n
        level = counter.level()
        ranked = paper.countsort(docs, n, delimiters)
        assert level.distinct == len(ranked)
        table = alternation_table(corpus, level)
        expected = [paper.alternation(docs, ranked, a) for a in range(0, 101, 7)]
        assert [int(table[a]) for a in range(0, 101, 7)] == expected


def assert_lazy_tables_match_reference(docs, delimiters: bool, step: int) -> None:
    """The walk's lazily built tables for n = 2..8 equal the paper's alternation counts."""
    tables = AlternationTables(NGramCounter(corpus_of(docs), delimiters))
    for n in range(2, 9):
        ranked = paper.countsort(docs, n, delimiters)
        expected = [paper.alternation(docs, ranked, a) for a in range(0, 101, step)]
        assert [int(tables.get(n)[a]) for a in range(0, 101, step)] == expected


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("delimiters", [False, True])
def test_the_walks_lazy_tables_match_the_reference(seed, delimiters):
    assert_lazy_tables_match_reference(random_docs(seed + 50), delimiters, step=3)


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("delimiters", [False, True])
def test_find_optimal_and_its_useless_set_match_the_reference(seed, delimiters):
    docs = random_docs(seed + 100)
    corpus = corpus_of(docs)
    cut = find_optimal_fast(corpus, delimiters)
    assert cut == paper.find_optimal(docs, delimiters)
    text = "\0" + "\0".join(docs) + "\0"
    for a in (cut.a, 60):  # 60 percent reaches n-grams seen once
        starts = top_positions(corpus, cut.n, a, delimiters)
        expected = paper.top_share(paper.countsort(docs, cut.n, delimiters), a)
        assert {text[s : s + cut.n] for s in starts} == expected
    walked, starts = find_optimal_with_starts(corpus, delimiters)
    assert walked == cut
    assert {text[s : s + cut.n] for s in starts} == paper.top_share(paper.countsort(docs, cut.n, delimiters), cut.a)


def test_template_heavy_documents_walk_past_the_start():
    docs = [
        paper.preprocess(
            "<div class=nav><a href=/x>home</a><a href=/y>news</a></div>"
            f"<p>story number {i} about {'abcdefghij'[i]} things</p><footer>c 2024</footer>"
        )
        for i in range(10)
    ]
    cut = find_optimal_fast(corpus_of(docs))
    assert cut == paper.find_optimal(docs)


def test_collapse_matches_the_paper_preprocessing_and_maps_back():
    text = "  <p>\tHello\r\n\n  wörld </p>\n"
    codes, offsets = collapse(text)
    collapsed = "".join(map(chr, codes))
    assert collapsed == paper.preprocess(text)
    assert all(text[o] == c or (c == " " and text[o].isspace()) for o, c in zip(offsets, collapsed, strict=False))


def test_window_min():
    values = np.array([5, 3, 9, 9, 1, 7, 8, 8, 8, 2], dtype=np.int32)
    for width in range(1, 12):
        expected = [min(values[max(0, j - width + 1) : j + 1]) for j in range(len(values))]
        assert window_min(values, width).tolist() == expected


def test_unpackable_keys_fall_back_to_a_lexicographic_sort(monkeypatch):
    import scrapy_boilerplate.models.ngram.counting as count

    docs = random_docs(7)
    expected = paper.find_optimal(docs)
    monkeypatch.setattr(count, "PACK_BITS", 0)
    assert find_optimal_fast(corpus_of(docs)) == expected


@pytest.mark.slow
@pytest.mark.parametrize("delimiters", [False, True])
def test_tiny_chunks_change_no_count(monkeypatch, delimiters):
    """The counter sorts, gathers and ranks chunk by chunk (and the table counts so): chunk
    borders, and groups larger than a chunk, must not change a table or the cut point."""
    import scrapy_boilerplate.models.ngram.counting as count
    import scrapy_boilerplate.models.ngram.find_optimal as fast

    monkeypatch.setattr(count, "CHUNK", 50)
    monkeypatch.setattr(fast, "CHUNK", 37)
    for seed in range(4):
        docs = random_docs(seed + 200)
        assert_lazy_tables_match_reference(docs, delimiters, step=9)
        assert find_optimal_fast(corpus_of(docs), delimiters) == paper.find_optimal(docs, delimiters)


@pytest.mark.parametrize("size", [0, 1, 7, 5000])
def test_the_hash_index_finds_exactly_the_stored_hashes(size):
    rng = np.random.default_rng(size)
    values = np.unique(rng.integers(0, 2**64 - 1, size, dtype=np.uint64, endpoint=True))
    crowded = values[:1] + np.arange(1, 4, dtype=np.uint64) if size else values  # one crowded bucket
    values = np.unique(np.concatenate([values, crowded]))
    queries = np.concatenate(
        [
            values,
            rng.integers(0, 2**64 - 1, 3000, dtype=np.uint64, endpoint=True),
            values[:1] + np.uint64(7) if size else values,
        ]
    )
    assert np.array_equal(HashIndex(values).contains(queries), np.isin(queries, values))


@pytest.mark.parametrize("n", [1, 12, 13, 96])
def test_window_hashes_match_the_per_position_horner_form(n):
    codes = np.random.default_rng(n).integers(0, 0x110000, 70000, dtype=np.uint32)  # past the first powers table
    assert np.array_equal(hash_windows(codes, n), hash_at(codes, np.arange(len(codes) - n + 1), n))


@pytest.mark.parametrize("size", [1, 300, 70000])
def test_the_hash_prefilter_never_rejects_a_stored_hash(size):
    rng = np.random.default_rng(size)
    edges = np.array([0, 1, 2**63, 2**64 - 1], dtype=np.uint64)
    values = np.unique(np.concatenate([rng.integers(0, 2**64 - 1, size, dtype=np.uint64, endpoint=True), edges]))
    index = HashIndex(values)
    assert index.maybe_contains(values).all()
    strangers = rng.integers(0, 2**64 - 1, 20000, dtype=np.uint64, endpoint=True)
    strangers = strangers[~np.isin(strangers, values)]
    assert index.maybe_contains(strangers).mean() < 0.1  # the point of it: most non-members stop here
    for members in (values[:5], values):  # few members (prefiltered) and mostly members (exact only)
        queries = np.concatenate([strangers, members])
        assert np.array_equal(index.contains(queries), np.isin(queries, values))


@pytest.mark.parametrize("n", [3, 40, 96])
@pytest.mark.parametrize("delimiters", [False, True])
def test_covered_marks_exactly_the_characters_under_useless_ngrams(n, delimiters):
    rng = np.random.default_rng(n)
    template = rng.choice(np.array([60, 62, 97, 98, 99], dtype=np.uint32), 400)
    codes = np.concatenate([template, rng.choice(np.array([97, 98], dtype=np.uint32), 700), template[:250]])
    hashes = hash_windows(codes, n)
    useless = np.unique(np.concatenate([hashes[:350], rng.choice(hashes, 40)]))  # long runs and strays
    expected = np.zeros(len(codes), dtype=bool)
    starts = np.isin(hashes, useless) & (~delimiter_inside(codes, n) if delimiters else True)
    for start in np.flatnonzero(starts):
        expected[start : start + n] = True
    assert np.array_equal(covered(codes, n, HashIndex(useless), delimiters), expected)
