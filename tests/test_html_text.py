import sys

import lxml.etree
import pytest

from scrapy_boilerplate.html import body_text, normalize_space, parse_html, raw_text, to_text
from scrapy_boilerplate.html.text import collapsed_length, spaced_text
from scrapy_boilerplate.tokenize import tokenize


def text_of(html: str) -> str:
    return to_text(parse_html(html).root)


def test_paragraphs_and_headings_are_separated_by_blank_lines():
    assert text_of("<h1>Title</h1><p>First   para\n graph.</p><p>Second.</p>") == (
        "Title\n\nFirst para graph.\n\nSecond."
    )


def test_list_items_and_table_rows_on_their_own_lines():
    html = "<ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>"
    assert text_of(html) == "one\ntwo\n\na b\nc"


def test_br_breaks_lines_and_inline_tags_do_not():
    assert text_of("<p>line<br>next <b>bold</b><a href='#'>link</a></p>") == "line\nnext boldlink"


def test_empty_elements_leave_no_blank_lines():
    assert text_of("<div><p> </p><div></div><p>x</p></div>") == "x"


def test_normalize_space():
    assert normalize_space("  a \t\n b\u00a0 ") == "a b"


def _split_and_join(text: str) -> str:
    return " ".join(text.split())


def test_normalize_space_and_collapsed_length_match_split_and_join():
    tricky = [
        "",
        " ",
        "a",
        "a b",
        "a  b",
        " a",
        "a ",
        "a\tb",
        "a\nb",
        "a\r\nb",
        "\n  ",
        "a\u00a0b",
        "a\u2003b",
        "a\u2028b",
        "a\x1fb",
        "a\x85b",
        "a\x0bb\x0c",
        "\u3000a",
        "caf\u00e9 na\u00efve",
        "a\u200bb",
        "\x00",
    ]
    for text in tricky:
        assert normalize_space(text) == _split_and_join(text), repr(text)
        assert collapsed_length(text) == len(_split_and_join(text)), repr(text)


@pytest.mark.slow
def test_normalize_space_fast_path_misses_no_whitespace_character():
    # Every character that str.split splits on, between two letters or at an end, is collapsed.
    for code in range(sys.maxunicode + 1):
        for text in (f"a{chr(code)}b", f"{chr(code)}a", f"a{chr(code)}"):
            assert normalize_space(text) == _split_and_join(text), hex(code)


def test_raw_text_is_every_text_node_of_the_subtree_without_its_tail():
    root = parse_html("<div id=x>a &amp; b<!-- note -->c<b>\u00e9t\u00e9&nbsp;<i>d</i>e</b>f<br>\ng</div>tail").root
    div = root.find(".//div")
    assert raw_text(div) == "".join(div.itertext()) == "a & bc\u00e9t\u00e9\u00a0def\ng"


def test_raw_text_is_the_same_in_a_worker_thread():
    # A crawl's fit runs raw_text in a pool thread, where it joins the text in Python (no GIL release).
    from concurrent.futures import ThreadPoolExecutor

    root = parse_html(
        "<div>a &amp; b<!-- note -->c<b>\u00e9t\u00e9&nbsp;<i>d</i>e</b>f<br>\ng<p>h<span>i</span></p>j</div>"
        "tail<div>k</div>"
    ).root
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    on_main = [raw_text(el) for el in elements]
    with ThreadPoolExecutor(1) as pool:
        in_thread = list(pool.map(raw_text, elements))
    assert in_thread == on_main and "a & bc\u00e9t\u00e9\u00a0def\nghij" in on_main


TRICKY_PAGES = [
    # tables, cells, rows and captions; nested lists; line breaks in inline text
    "<table><caption>Cap</caption><tr><th>h1</th><th>h2</th></tr><tr><td>a<br>b</td><td> c </td></tr></table>"
    "<ul><li>one<ul><li>inner</li></ul></li><li><b>two</b> tail</li></ul><p>x<br><br>y</p>",
    # comments, scripts, styles, noscript and template content never reach the text, their tails do
    "<div>a<!-- note -->b<script>var s = '<p>no</p>';</script>c<style>p {}</style>d"
    "<noscript><p>off</p></noscript>e<template><p>t</p></template>f</div>",
    # nested inline elements join words; entities and non-breaking spaces; empty blocks leave no lines
    "<p>al<b>p<i>h</i></b>a &amp; &lt;b&gt;&nbsp;beta\u00a0 <span> </span>gamma</p><div><p> </p><div></div></div>"
    "<h2>H</h2><section><article><p>deep</p></article></section>",
    # text directly in body, breaks at the very start and end, runs of mixed breaks and blanks
    "lead<hr><br> <p> <br>\n<div> </div><li>item</li> </p>\t<dd>d</dd><pre>  pre  text </pre>end<br>",
    # a second top-level element (a broken page) and text after the body
    "<html><body><p>in</p></body></html><html><body><p>second</p></body></html>",
    # characters that look like the marks body_text uses internally
    "<p>del\x7f here</p><p>c1\x80 there</p><li>x</li>",
    "<p>a\x01b\ue000c</p><ol><li>1</li><li>2</li></ol>",
]


def test_body_text_is_to_text_on_tricky_html_for_every_element():
    for html in TRICKY_PAGES:
        root = parse_html(html).root
        for element in root.iter():
            assert body_text(element) == to_text(element), (html, element.tag)


def test_body_text_keeps_the_layout_of_to_text():
    root = parse_html(TRICKY_PAGES[0]).root
    assert body_text(root) == "Cap\nh1 h2\na\nb c\n\none\n\ninner\n\ntwo tail\n\nx\ny"
    assert body_text(parse_html(TRICKY_PAGES[1]).root) == "abcdef"


def test_body_text_on_a_tree_deeper_than_libxslt_walks():
    root = lxml.etree.Element("body")
    element = root
    for depth in range(4000):
        element = lxml.etree.SubElement(element, "div" if depth % 2 else "span")
    element.text = "deep"
    element.tail = "tail"
    assert body_text(root) == to_text(root) == "deep\n\ntail"


def test_to_text_keeps_the_tails_of_comments_and_processing_instructions():
    div = lxml.etree.fromstring("<div>a<!-- c -->b<p>c</p></div>")
    div.insert(1, lxml.etree.ProcessingInstruction("php", "echo 1"))
    div[1].tail = " pi-tail "
    assert to_text(div) == "ab pi-tail\n\nc"
    assert to_text(div[0]) == "" and to_text(div[1]) == ""  # a comment or PI alone has no text
    assert to_text(lxml.etree.fromstring("<script>x</script>")) == ""


def test_spaced_text_has_the_words_of_to_text_on_tricky_html_for_every_element():
    for html in TRICKY_PAGES:
        root = parse_html(html).root
        for element in root.iter():
            assert tokenize(spaced_text(element)) == tokenize(to_text(element)), (html, element.tag)


def test_spaced_text_separates_words_at_breaks_and_cells_only():
    root = parse_html("<ul><li>one</li><li>two<b>s</b></li></ul><table><tr><td>a</td><td>b</td></tr></table>").root
    assert spaced_text(root).split() == ["one", "twos", "a", "b"]
