import lxml.etree
import lxml.html

from scrapy_boilerplate.html import drop_non_content, parse_html, to_text
from scrapy_boilerplate.html.clean import remove_keeping_tail


def test_non_content_nodes_are_dropped_and_tails_kept():
    root = parse_html(
        "<body><p>a<script>var x = 'hidden';</script>b<!-- note -->c</p>"
        "<style>p{color:red}</style><noscript>enable js</noscript><template><p>t</p></template>d</body>"
    ).root
    drop_non_content(root)
    assert to_text(root) == "abc\n\nd"
    assert root.xpath("//script|//style|//noscript|//template|//comment()") == []


def test_dropped_nodes_leave_their_tails_in_place():
    root = parse_html(
        "<body><p><script>1</script>first<!-- c -->second<style>s</style><style>t</style>third"
        "<b>bold</b>after<noscript><script>2</script>inner</noscript>last</p></body>"
    ).root
    drop_non_content(root)
    paragraph = root.find(".//p")
    assert paragraph.text == "firstsecondthird"
    assert paragraph.find("b").tail == "afterlast"
    assert [child.tag for child in paragraph] == ["b"]
    paragraph.find("b").tail = "edited"  # the merged tail is one string to lxml
    assert lxml.etree.tostring(paragraph, encoding="unicode") == "<p>firstsecondthird<b>bold</b>edited</p>"


def test_a_non_content_root_is_left_alone():
    root = parse_html("<body><noscript><!-- c --><p>p</p></noscript></body>").root.find(".//noscript")
    drop_non_content(root)
    assert lxml.etree.tostring(root, encoding="unicode") == "<noscript><!-- c --><p>p</p></noscript>"


def test_remove_keeping_tail_appends_to_previous_sibling_or_parent():
    root = parse_html("<body><p>x<b>bold</b> tail1<i>it</i> tail2</p></body>").root
    bold, italic = root.find(".//b"), root.find(".//i")
    remove_keeping_tail(bold)
    remove_keeping_tail(italic)
    assert to_text(root) == "x tail1 tail2"


def test_page_tree_is_already_clean():
    from scrapy_boilerplate.page import Page

    page = Page("<html><head><script>1</script></head><body><p>hi</p><script>2</script></body></html>")
    assert page.tree.xpath("//script") == []
    assert page.html.count("<script>") == 2  # the raw HTML is kept as given


def test_a_tail_with_control_characters_is_kept_without_them_when_its_element_goes():
    root = parse_html("<body><p>first</p><aside>menu</aside>\x08after\x01 it<div>x</div>\x0bend</body>").root
    body = root.find("body")
    remove_keeping_tail(body.find("aside"))  # the tail joins the previous sibling's
    remove_keeping_tail(body.find("p"))  # ... then the parent's text
    remove_keeping_tail(body.find("div"))
    assert body.text == "after itend" and len(body) == 0


_FORUM_POSTS = "".join(
    f"<div class='post'><span>user{i}</span><p>Reply number {i}: the setting lives in the config file under "
    f"the network section, and a restart of the service picks the change up without a reboot.</p></div>"
    for i in range(4)
)


def test_a_page_served_to_clients_without_script_inside_noscript_is_read_as_they_read_it():
    from scrapy_boilerplate.page import Page

    html = (
        "<html><body><section id='splash'><style>p{}</style>Loading</section>"
        f"<noscript><h1>How do I change the port?</h1>{_FORUM_POSTS}</noscript><noscript><img src=x></noscript>"
        "</body></html>"
    )
    page = Page(html)
    texts = [block.text for block in page.text_blocks()]
    assert texts[0] == "Loading" and texts[1] == "How do I change the port?"
    assert sum("Reply number" in text for text in texts) == 4
    assert page.tree.xpath("//noscript|//style") == []


def test_noscript_beside_the_page_content_is_still_dropped():
    from scrapy_boilerplate.page import Page

    html = (
        f"<html><body><main>{_FORUM_POSTS}</main>"
        "<noscript><p>Please enable JavaScript to see the comments powered by a service that needs it, "
        "and to vote, to reply and to follow this thread; without it the thread reads as it stands.</p>"
        "<p>More words here so that the plea holds well over two hundred characters of visible text.</p></noscript>"
        "</body></html>"
    )
    texts = [block.text for block in Page(html).text_blocks()]
    assert sum("Reply number" in text for text in texts) == 4
    assert not any("JavaScript" in text for text in texts)
