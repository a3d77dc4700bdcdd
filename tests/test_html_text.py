from scrapy_boilerplate.html import normalize_space, parse_html, raw_text, to_text


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


def test_raw_text_is_every_text_node_of_the_subtree_without_its_tail():
    root = parse_html("<div id=x>a &amp; b<!-- note -->c<b>\u00e9t\u00e9&nbsp;<i>d</i>e</b>f<br>\ng</div>tail").root
    div = root.find(".//div")
    assert raw_text(div) == "".join(div.itertext()) == "a & bc\u00e9t\u00e9\u00a0def\ng"
