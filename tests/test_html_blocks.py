from scrapy_boilerplate.html import iter_blocks, parse_html
from scrapy_boilerplate.page import Page


def test_leaf_blocks_in_document_order():
    root = parse_html(
        "<body><div id='nav'><ul><li>Home</li><li>News</li></ul></div>"
        "<div><p>Para <b>one</b>.</p><p>Para two.</p></div><footer>(c)</footer></body>"
    ).root
    blocks = list(iter_blocks(root))
    assert [(b.element.tag, b.text, b.leaf) for b in blocks] == [
        ("li", "Home", True),
        ("li", "News", True),
        ("p", "Para one.", True),
        ("p", "Para two.", True),
        ("footer", "(c)", True),
    ]


def test_text_directly_under_body_makes_body_a_block():
    root = parse_html("<body>Loose text <span>here</span><p>para</p> tail</body>").root
    blocks = list(iter_blocks(root))
    assert blocks[0].element.tag == "body" and not blocks[0].leaf
    assert blocks[0].text == "Loose text here tail"
    assert [b.text for b in blocks[1:]] == ["para"]
    assert [b.text for b in iter_blocks(root, include_mixed=False)] == ["para"]


def test_inline_only_page_has_no_leaf_blocks_but_keeps_text():
    root = parse_html("<span>only inline</span>").root
    blocks = list(iter_blocks(root))
    assert [(b.element.tag, b.text) for b in blocks] == [("body", "only inline")]


def test_block_text_matches_the_full_text_walk():
    from scrapy_boilerplate.html import to_text
    from scrapy_boilerplate.testing.synthetic import make_site

    pages = [s.html for s in make_site("blocks.example", 4, seed=5)]
    pages.append(
        "<body><p>one<br>two <b>bold</b><!-- c -->tail</p><div>a<select><option>x</option>"
        "<option>y</option></select></div><p>x<noscript>hidden</noscript>y</p></body>"
    )
    for html in pages:
        root = parse_html(html).root
        for block in iter_blocks(root):
            if block.leaf:
                assert block.text == to_text(block.element)


def test_table_only_partition():
    root = parse_html(
        "<body><div>Intro text</div><table><tr><td>Menu</td></tr></table>"
        "<table><tr><td>outer<table><tr><td>inner</td></tr></table></td></tr></table></body>"
    ).root
    blocks = list(iter_blocks(root, tags=frozenset({"table", "body"})))
    assert [(b.element.tag, b.text, b.leaf) for b in blocks] == [
        ("body", "Intro text", False),
        ("table", "Menu", True),
        ("table", "outer", False),
        ("table", "inner", True),
    ]


def _varied_pages() -> list[str]:
    from scrapy_boilerplate.testing.synthetic import make_site

    pages = [s.html for s in make_site("lengths.example", 4, seed=7)]
    pages.append(
        "<body><div> <!-- c --><ul> <li>one</li> </ul> <div><p>deep</p></div></div><div><!-- only --></div>"
        "<div></div><div> <p>a</p> tail</div><section> <span>inline</span><p>b</p></section></body>"
    )
    pages.append(
        "<body>Loose <span>text</span><p>one<br>two <b>bold</b>tail</p><div>a<select><option>x</option>"
        "<option>y</option></select><p>inner</p> after</div><p>x<noscript>hidden</noscript>y</p><p> </p></body>"
    )
    return pages


def test_block_lengths_are_the_lengths_of_the_block_texts():
    from scrapy_boilerplate.html.blocks import block_lengths

    for html in _varied_pages():
        root = parse_html(html).root
        expected = [(b.element, len(b.text)) for b in iter_blocks(root)]
        assert list(block_lengths(root)) == expected
    assert (root.findall(".//p")[-1], 0) in expected  # an empty leaf block is kept, as by iter_blocks


def test_block_walk_length_is_the_length_of_its_text():
    from scrapy_boilerplate.html.blocks import BlockWalk

    for html in _varied_pages():
        walk = BlockWalk(parse_html(html).root)
        elements = list(walk.elements())
        leaves = [element not in walk.contains for element in elements]
        assert not all(leaves)
        for element, leaf in zip(elements, leaves, strict=False):
            assert walk.length(element) == len(walk.text(element, leaf))
        measured_alone = BlockWalk(parse_html(html).root)  # lengths asked for before anything else
        assert [measured_alone.length(e) for e in measured_alone.elements()] == [walk.length(e) for e in elements]


def test_a_pages_text_blocks_are_walked_once_and_are_the_blocks_with_text():
    page = Page("<html><body><div><p>One</p><p> </p><p>Two <b>bold</b></p></div>tail</body></html>")
    blocks = page.text_blocks()
    assert [(b.element, b.text) for b in blocks] == [(b.element, b.text) for b in iter_blocks(page.body) if b.text]
    assert {"One", "Two bold"} <= {b.text for b in blocks} and all(b.text for b in blocks)
    assert page.text_blocks() is blocks  # the fit and the cleans of a sample page share one walk
