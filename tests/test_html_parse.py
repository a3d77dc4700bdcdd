import lxml.etree
from helpers.parses import count_parses

from scrapy_boilerplate.html import parse_html, to_text
from scrapy_boilerplate.page import Page


def test_empty_and_whitespace_input_give_an_empty_document():
    for text in ("", "   \n", "\x00\x00"):
        parsed = parse_html(text)
        assert parsed.root.tag == "html"
        assert parsed.root.find("body") is not None
        assert to_text(parsed.root) == ""


def test_nul_bytes_are_stripped_not_fatal():
    parsed = parse_html("<p>before\x00after</p><p>next</p>")
    assert to_text(parsed.root) == "beforeafter\n\nnext"


def test_xhtml_page_with_an_xml_declaration_keeps_its_text():
    # XHTML pages often start with one; lxml refuses a decoded string that declares an encoding.
    html = '<?xml version="1.0" encoding="iso-8859-1"?>\n<html><body><p>caf\u00e9 text</p></body></html>'
    parsed = parse_html(html)
    assert to_text(parsed.root) == "caf\u00e9 text"
    assert not parsed.truncated


def test_broken_markup_recovers():
    parsed = parse_html("<div><p>one<p>two</span></div></td><li>three")
    text = to_text(parsed.root)
    assert "one" in text and "two" in text and "three" in text


def test_fragment_gets_a_body():
    parsed = parse_html("just text")
    assert parsed.root.find("body") is not None
    assert to_text(parsed.root) == "just text"


def test_no_external_entities_or_network():
    hostile = (
        '<?xml version="1.0"?><!DOCTYPE html [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'
        "<html><body><p>x&secret;y</p></body></html>"
    )
    text = to_text(parse_html(hostile).root)
    assert "root:" not in text
    assert "x" in text


def test_html_entities_are_decoded():
    assert to_text(parse_html("<p>caf&eacute; &amp; tea&nbsp;time</p>").root) == "café & tea time"


def test_deep_nesting_is_survived_and_flagged():
    depth = 10_000
    text = "<html><body><p>start</p>" + "<div>" * depth + "deep" + "</div>" * depth + "</body></html>"
    page = Page(text)
    assert page.truncated  # libxml2 gives up past its depth limit and we say so
    assert "start" in to_text(page.body)


def test_moderate_nesting_is_parsed_fully():
    depth = 1_000
    text = "<p>start</p>" + "<div>" * depth + "deep" + "</div>" * depth + "<p>end</p>"
    page = Page(text)
    assert not page.truncated
    assert to_text(page.body).split() == ["start", "deep", "end"]


def test_huge_page_parses():
    paragraph = "<p>" + "word " * 200 + "</p>"
    count = 10 * 1024 * 1024 // len(paragraph)
    text = "<html><body>" + paragraph * count + "</body></html>"
    assert len(text) >= 9_900_000
    page = Page(text)
    assert len(page.body) == count and not page.truncated  # every paragraph, none given up


def test_binary_garbage_does_not_crash():
    garbage = bytes(range(256)).decode("latin-1") * 100
    page = Page(garbage)
    assert isinstance(to_text(page.body), str)


def _serialised(root) -> bytes:
    return lxml.etree.tostring(root)


def test_private_tree_is_the_copied_tree_and_editing_it_leaves_the_page_alone(monkeypatch):
    text = "<html><head><title>t</title><script>x()</script></head><body><!-- c --><p>one</p><p>two</p></body></html>"
    parses = count_parses(monkeypatch)
    fresh = Page(text)
    private = fresh.private_tree()  # parsed on its own: the shared tree is not parsed for it
    fresh.private_tree()
    assert parses == [text, text]  # each private tree its own parse: no shared tree was kept to copy
    parsed = Page(text)
    assert _serialised(private) == _serialised(parsed.private_tree()) == _serialised(parsed.copy_tree())
    private.find("body").clear()
    parsed.private_tree().find("body").clear()  # a copy once the shared tree exists
    assert to_text(fresh.body) == to_text(parsed.body) == "one\n\ntwo"


def test_a_parse_after_a_truncated_one_is_complete_and_not_flagged():
    # Each thread reuses one parser: the depth error of one page must not leak into the next.
    deep = "<html><body>" + "<div>" * 10_000 + "deep" + "</div>" * 10_000 + "</body></html>"
    assert parse_html(deep).truncated
    after = parse_html("<p>one</p><p>two</p>")
    assert not after.truncated
    assert to_text(after.root) == "one\n\ntwo"


def test_parses_in_several_threads_give_the_same_trees():
    from concurrent.futures import ThreadPoolExecutor

    texts = [
        f"<html><body><div id='d{i}'><p>text {i}</p>" + "<p>more</p>" * i + "</div></body></html>" for i in range(200)
    ]
    expected = [_serialised(parse_html(text).root) for text in texts]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda text: _serialised(parse_html(text).root), texts))
    assert got == expected
