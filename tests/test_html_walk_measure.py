from scrapy_boilerplate.html import iter_elements, parse_html
from scrapy_boilerplate.html.measure import measure
from scrapy_boilerplate.html.walk import post_order, pre_order


def test_iter_elements_document_order_skips_comments_and_pruned_subtrees():
    root = parse_html("<body><div><p>a</p><!--c--><ul><li>x</li></ul></div><p>b</p></body>").root
    body = root.find("body")
    assert [el.tag for el in iter_elements(body)] == ["body", "div", "p", "ul", "li", "p"]
    assert [el.tag for el in iter_elements(body, skip=frozenset({"ul"}))] == ["body", "div", "p", "p"]


def test_post_order_is_children_first_and_survives_depth():
    root = parse_html("<body><div><p>a</p><p>b</p></div></body>").root
    assert [el.tag for el in post_order(root.find("body"))] == ["p", "p", "div", "body"]
    deep = parse_html("<div>" * 1500 + "x" + "</div>" * 1500).root
    assert sum(1 for _ in post_order(deep)) > 1500


def test_pre_order_prunes_what_the_caller_set_aside_during_the_walk():
    root = parse_html("<body><div><p>a</p><!--c--><ul><li>x</li></ul></div><p>b</p></body>").root
    body = root.find("body")
    assert [el.tag for el in pre_order(body)] == ["body", "div", "p", "ul", "li", "p"]
    set_aside = set()
    seen = []
    for el in pre_order(body, lambda node: node in set_aside):
        seen.append(el.tag)
        if el.tag == "ul":
            set_aside.update(el)  # its <li>, reached next, is left out
    assert seen == ["body", "div", "p", "ul", "p"]


def test_measure_text_link_and_markup_lengths():
    root = parse_html('<body><div id="m">ab<a href="u">cde</a>f</div></body>').root
    div = root.find(".//div")
    lengths = measure(root)[div]
    assert (lengths.text, lengths.link_text, lengths.valid_text) == (6, 3, 3)
    # <div id="m"> = 12, </div> = 6, <a href="u"> = 12, </a> = 4, text = 6
    assert lengths.markup == 12 + 6 + 12 + 4 + 6


def test_measure_with_collapsed_whitespace():
    from scrapy_boilerplate.html import normalize_space

    root = parse_html("<body><p>  a   b  </p></body>").root
    p = root.find(".//p")
    assert measure(root)[p].text == 9
    assert measure(root, lambda t: len(normalize_space(t)))[p].text == 3


def test_element_path_finder_gives_lxml_getpath_for_every_node():
    from scrapy_boilerplate.html.walk import element_path_finder

    root = parse_html(
        "<body><div><p>a</p><!--c--><p>b</p><ul><li>x</li><li>y</li></ul></div>"
        "<div><span>s</span><p>c</p></div><p>d</p></body>"
    ).root
    path = element_path_finder(root)
    getpath = root.getroottree().getpath
    for node in reversed(list(root.iter())):  # deepest first, so parents are indexed on the way up
        assert path(node) == getpath(node)


def test_measure_hands_over_the_attributes_it_reads_in_document_order():
    root = parse_html('<body><div class="a"><p>x</p><a href="u" id="i">y</a></div><p>z</p></body>').root
    body = root.find("body")
    div, link = root.find(".//div"), root.find(".//a")
    attributes = {}
    assert measure(body, attributes=attributes) == measure(body)
    assert list(attributes) == [div, link]  # only elements with attributes, in document order
    assert attributes[link] == [("href", "u"), ("id", "i")]
