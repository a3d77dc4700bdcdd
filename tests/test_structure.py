"""The cleaned HTML keeps the kept content's structure, and nothing the model removed."""

from __future__ import annotations

import lxml.etree
import lxml.html
import pytest
from helpers.harbour_site import TOPICS, article_page

from scrapy_boilerplate.html import iter_blocks, parse_html, to_text
from scrapy_boilerplate.html.structure import kept_blocks_html, kept_html
from scrapy_boilerplate.models.registry import available_models
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.tokenize import tokenize


@pytest.fixture(scope="module")
def site() -> list[Page]:
    return [article_page(number) for number in range(len(TOPICS))]


def _tree(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(html)


def _texts(tree: lxml.html.HtmlElement, tag: str) -> list[str]:
    return [" ".join(el.text_content().split()) for el in tree.iter(tag)]


def test_the_cleaned_html_of_a_page_keeps_its_headings_list_items_and_table_cells(site):
    model = ModelSpec("fusion").create().fit(site[:5])
    cleaned = model.clean(site[5])
    tree = _tree(cleaned.html)
    assert _texts(tree, "h2") == ["Steps taken for pier lights", "Costs of pier lights"]
    assert _texts(tree, "li") == [
        "Survey the pier lights site in week 5",
        "Order the parts for pier lights",
        "Report the costs of pier lights to the board",
    ]
    assert _texts(tree, "td") == ["Labour for pier lights", "105 pounds", "Materials for pier lights", "205 pounds"]
    assert _texts(tree, "code") == ['schedule --topic "pier lights" --week 5']
    assert [a.get("href") for a in tree.iter("a")] == ["/people/5"] and _texts(tree, "em") == ["harbour master"]
    assert len(list(tree.iter("blockquote"))) == 1 and len(list(tree.iter("pre"))) == 1
    # what the model removed is not there: the menu, the sidebar, the footer, nor any style
    for removed in ("Archive", "Gull census", "Copyright", "secret", "color:red", "class="):
        assert removed not in cleaned.html


@pytest.mark.parametrize("model", available_models())
def test_the_cleaned_html_holds_the_words_of_the_text_and_no_other(site, model):
    fitted = ModelSpec(model).create().fit(site[:5])
    for page in site[4:]:
        cleaned = fitted.clean(page)
        html_words = sorted(tokenize(to_text(parse_html(cleaned.html).root)))
        assert html_words == sorted(tokenize(cleaned.text)) and html_words


def _blocks(html: str) -> tuple[lxml.html.HtmlElement, list]:
    body = parse_html(html).root.find("body")
    return body, [block for block in iter_blocks(body) if block.text]


def test_a_removed_block_leaves_its_list_and_a_kept_container_keeps_only_its_own_text():
    body, blocks = _blocks(
        "<body><ul class='x'><li>first item</li><li>dropped item</li><li>third item</li></ul>"
        "<div id='c'>own words <div>dropped child</div> more own words</div></body>"
    )
    kept = [block for block in blocks if "dropped" not in block.text]
    assert kept_blocks_html(body, kept) == (
        "<div><ul><li>first item</li><li>third item</li></ul><div> own words  more own words</div></div>"
    )
    assert kept_blocks_html(body, []) == "<div></div>"


def test_tags_are_written_plainly_and_empty_cells_keep_their_columns():
    body, blocks = _blocks(
        "<body><table><tr><td><b>bold</b> and <i>it</i> <span class='s'>span</span></td><td></td>"
        "<td><a href='javascript:void(0)'>no link</a> <a href='/x?a=1&amp;b=2'>link</a></td></tr></table>"
        "<section><p>a &lt;tag&gt; &amp; more</p></section><select><option>one</option><option>two</option></select>"
        "<img src='/i.png' alt='picture'></body>"
    )
    html = kept_blocks_html(body, blocks)
    # the body holds text of its own (the options): a kept container block, written as a <div>
    assert html == (
        "<div><div><table><tr><td><strong>bold</strong> and <em>it</em> span</td><td></td>"
        '<td>no link <a href="/x?a=1&amp;b=2">link</a></td></tr></table><p>a &lt;tag&gt; &amp; more</p>'
        ' one<br> two<br><img src="/i.png" alt="picture"></div></div>'  # options on lines of their own
    )
    assert "<div><p>a &lt;tag&gt;" in kept_html(body)  # the section, as a whole element's part


def test_emptied_elements_go_and_orphan_items_become_divs():
    root = parse_html("<body><div><p></p><p> </p><span></span><li>item alone</li><td>cell alone</td></div></body>").root
    html = kept_html(root.find("body"))
    assert html == "<div><div><div> <div>item alone</div><div>cell alone</div></div></div></div>"


def test_a_page_nested_deeper_than_python_recursion_is_written():
    depth = 3000
    body = element = lxml.etree.Element("body")
    for _ in range(depth):
        element = lxml.etree.SubElement(element, "div")
    element.text = "deep text"
    html = kept_html(body)
    assert "deep text" in html and html.count("<div>") == depth + 2  # the wrapper, the body, each div


def test_a_table_partition_writes_the_text_outside_its_tables():
    body, _ = _blocks("<body><div>outside words</div><table><tr><td>cell words</td></tr></table></body>")
    blocks = [block for block in iter_blocks(body, tags=frozenset({"table", "body"})) if block.text]
    html = kept_blocks_html(body, [b for b in blocks if b.element.tag == "body"], frozenset({"table", "body"}))
    assert html == "<div><div><div> outside words</div></div></div>"  # the body's own text, its div inline


def test_touching_inline_elements_of_a_container_block_stay_apart_as_in_its_text():
    body, blocks = _blocks(
        "<body><div><a href='/new'>New</a><a href='/deals'>Deals</a><span>More</span><p>A paragraph.</p></div></body>"
    )
    html = kept_blocks_html(body, blocks)
    assert [block.text for block in blocks] == ["New Deals More", "A paragraph."]
    assert sorted(tokenize(to_text(parse_html(html).root))) == ["a", "deals", "more", "new", "paragraph"]
