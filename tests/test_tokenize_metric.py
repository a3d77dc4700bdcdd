import random
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate.evaluation.metric import mean_score, score_text
from scrapy_boilerplate.tokenize import (
    MARK_SPANS,
    SEPARATOR_SYMBOLS,
    mark_ranges,
    token_bag,
    token_spans,
    tokenize,
    unicode_tokens,
)


def test_words_are_casefolded_letter_digit_runs():
    assert tokenize("Hello, World! It's 2012_v2.") == ["hello", "world", "it", "s", "2012", "v2"]


def test_nfkc_and_casefold():
    assert tokenize("ﬁne STRASSE Straße") == ["fine", "strasse", "strasse"]


def test_combining_marks_stay_inside_words():
    assert tokenize("cafe\u0301 nai\u0308ve") == ["café", "naïve"]  # NFKC composes them
    assert tokenize("x\u0334y") == ["x\u0334y"]  # a mark with no precomposed form still joins


def test_unspaced_scripts_are_one_token_per_character():
    assert tokenize("東京タワー is tall") == ["東", "京", "タ", "ワ", "ー", "is", "tall"]
    assert tokenize("สวัสดี") == ["ส", "ว", "ั", "ส", "ด", "ี"]


@pytest.mark.parametrize("text", ["".join(map(chr, range(128))), "Mixed_CASE words, 42nd\tline\nA-Z a-z 0-9 _x_"])
def test_ascii_text_tokenizes_as_it_does_beside_other_scripts(text):
    # Pure-ASCII text takes a shortcut; a non-ASCII word after it must not change its tokens.
    assert tokenize(text) == tokenize(text + " \u00e9t\u00e9")[:-1]
    assert tokenize(text + " \u00e9t\u00e9")[-1] == "\u00e9t\u00e9"


def test_ascii_shortcut_agrees_with_the_general_rules_around_every_pair_of_characters():
    for a in map(chr, range(128)):
        for b in map(chr, range(128)):
            text = f"{a}x{b}Y9{a}{b}"
            assert tokenize(text) == tokenize(text + " \u00e9")[:-1], repr(text)


def test_separator_symbols_split_words_as_the_general_rules_do_beside_every_ascii_character():
    # text whose only non-ASCII characters are these symbols takes the ASCII shortcut
    for symbol in SEPARATOR_SYMBOLS:
        assert tokenize(f"it{symbol}s") == unicode_tokens(f"it{symbol}s") == ["it", "s"], repr(symbol)
        for a in map(chr, range(128)):
            text = f"{a}x{symbol}{a}9{symbol}{symbol}Q{a}{symbol}"
            assert tokenize(text) == unicode_tokens(text), repr(text)


@settings(deadline=None)  # no time bound per example: a loaded machine is slow, not wrong
@given(st.text(alphabet=st.sampled_from([*map(chr, range(128)), *SEPARATOR_SYMBOLS, "\u00e9", "\u0301"])))
def test_every_shortcut_gives_the_general_rules_tokens(text):
    assert tokenize(text) == unicode_tokens(text)


def test_bag_counts():
    assert token_bag("a b a") == Counter({"a": 2, "b": 1})


@pytest.mark.parametrize(
    ("pred", "gold", "expected"),
    [
        ("", "", (1.0, 1.0, 1.0)),
        ("x", "", (0.0, 1.0, 0.0)),
        ("", "x", (0.0, 0.0, 0.0)),
        (None, "x", (0.0, 0.0, 0.0)),
        ("a a b c", "a b b", (0.5, 2 / 3, 2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))),
    ],
)
def test_score_definition(pred, gold, expected):
    score = score_text(pred, gold)
    assert (score.p, score.r, score.f1) == pytest.approx(expected)


def test_mean_is_macro_over_pages():
    mean = mean_score([score_text("a", "a"), score_text("", "a")])
    assert (mean.n, mean.f1) == (2, 0.5)
    assert mean_score([]).f1 is None


def test_combining_marks_are_found_where_a_scan_of_every_code_point_finds_them():
    assert mark_ranges(MARK_SPANS) == mark_ranges(((0x300, sys.maxunicode),))
    assert tokenize("a\U000e0100x b") == ["a\U000e0100x", "b"]  # a plane-14 variation selector joins too


TRICKY = "Café e\u0301té ½ brand™ 東京タワー ｶﾀｶﾅ Straße ﬁne a_b =\u0338 x ไทย İstanbul ǅ \u00a0nbsp\u3000ideo (CNN)Tropical 00:59"


def test_token_spans_give_the_tokens_and_where_they_are():
    spans = token_spans(TRICKY)
    assert [token for _, _, token in spans] == tokenize(TRICKY)
    found = {TRICKY[start:end]: token for start, end, token in spans}
    assert found["Café"] == "café" and found["e\u0301té"] == "été" and found["Straße"] == "strasse"
    assert [TRICKY[s:e] for s, e, t in spans if t in ("1", "2")] == ["½", "½"]  # one character, two tokens
    assert [TRICKY[s:e] for s, e, _ in spans][-4:] == ["CNN", "Tropical", "00", "59"]
    assert [TRICKY[s:e] for s, e, t in spans if t in "東京"] == ["東", "京"]


def test_token_spans_match_tokenize_on_random_text():
    rng = random.Random(5)
    alphabet = "aZ9 _-.,é\u0301½™東タｶßﬁ\u0338=\u00a0\u3000İǅไ٣①\U00020000\u200b\u00ad\u0300\n"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert [token for _, _, token in token_spans(text)] == tokenize(text), text
