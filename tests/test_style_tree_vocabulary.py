from scrapy_boilerplate.html import parse_html
from scrapy_boilerplate.models.style_tree.refine import Removal, drop_by_vocabulary

_PAGE = (
    "<body><div class='sidebar'><div class='share'>share this</div>" + "<p>{}</p>" + "</div>"
    "<div class='content'><p>{}</p></div><div class='related'><p>{}</p></div></body>"
)


def test_drop_by_vocabulary_removes_the_outermost_named_elements_in_document_order():
    root = parse_html(_PAGE.format("side " * 10, "article text " * 60, "see also " * 10)).root
    body = root.find("body")
    removal = Removal.measured(body)
    drop_by_vocabulary(body, removal)
    sidebar, related = root.find(".//div[@class='sidebar']"), root.find(".//div[@class='related']")
    assert list(removal.removed) == [sidebar, related]  # the share box inside the sidebar goes with it
    assert removal.removed[sidebar][0].startswith("class/id names sidebar and it holds")
    assert removal.is_removed(root.find(".//div[@class='share']"))
    assert not removal.is_removed(root.find(".//div[@class='content']"))


def test_drop_by_vocabulary_spares_a_named_wrapper_of_most_of_the_text():
    root = parse_html(_PAGE.format("side " * 200, "article text " * 10, "see also " * 10)).root
    body = root.find("body")
    removal = Removal.measured(body)
    drop_by_vocabulary(body, removal)
    share = root.find(".//div[@class='share']")
    assert list(removal.removed) == [share, root.find(".//div[@class='related']")]
