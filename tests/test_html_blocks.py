from scrapy_boilerplate.html import iter_blocks, parse_html


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
