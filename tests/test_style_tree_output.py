import lxml.etree

from scrapy_boilerplate.models.style_tree.model import StyleTreeModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.synthetic import make_site


def test_cleaned_html_is_the_main_text_without_its_tail_and_the_page_stays_as_it_was():
    pages = [Page(p.html, p.url) for p in make_site("tail.example", 24, seed=3, linked=True)]
    model = StyleTreeModel().fit(pages[:20])
    plain = next(p for p in pages[20:] if model.clean(p).html.startswith("<article"))  # no title above it
    page = Page(plain.html.replace("</article>", "</article>after the article", 1), plain.url)
    before = lxml.etree.tostring(page.tree)
    cleaned = model.clean(page)
    assert cleaned.html.startswith("<article") and cleaned.html.endswith("</article>")
    assert "after the article" not in cleaned.html and "after the article" not in cleaned.text
    assert lxml.etree.tostring(page.tree) == before
    assert model.clean(page) == cleaned
