import lxml.etree

from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.models.style_tree.model import StyleTreeModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site


def _title_kept(cleaned: CleanedPage) -> bool:
    return any(decision.reason.startswith("title/byline") for decision in cleaned.decisions)


def test_cleaned_html_is_the_main_text_without_its_tail_and_the_page_stays_as_it_was():
    pages = [Page(p.html, p.url) for p in make_site("tail.example", 24, seed=3, linked=True)]
    model = StyleTreeModel().fit(pages[:20])
    plain = next(p for p in pages[20:] if not _title_kept(model.clean(p)))  # the article alone
    page = Page(plain.html.replace("</article>", "</article>after the article", 1), plain.url)
    before = lxml.etree.tostring(page.tree)
    cleaned = model.clean(page)
    assert cleaned.text.split("\n\n")[-1] in cleaned.html.replace("<p>", "").replace("</p>", "")
    assert "after the article" not in cleaned.html and "after the article" not in cleaned.text
    assert lxml.etree.tostring(page.tree) == before
    assert model.clean(page) == cleaned


def test_a_deep_nest_of_short_elements_is_walked_a_bounded_number_of_times(monkeypatch):
    """Each element of a nest of short divs (with empty children) is read for a few ancestors at
    most, not for every one: the comment-heading search walked each candidate's whole subtree."""
    from scrapy_boilerplate.models.style_tree import refine

    site = make_site("deep.example", 7, seed=2)
    model = StyleTreeModel().fit([Page(p.html, p.url) for p in site[:6]])
    nest = '<div class="n">' + "<span></span>" * 12
    depth = 400
    html = site[6].html.replace("<p>", nest * depth + "deep text" + "</div>" * depth + "<p>", 1)
    walked = []
    real_to_text = refine.to_text

    def counting_to_text(el):
        walked.append(sum(1 for _ in el.iter()))
        return real_to_text(el)

    monkeypatch.setattr(refine, "to_text", counting_to_text)
    cleaned = model.clean(Page(html, "http://deep.example/x"))
    elements = sum(1 for _ in Page(html).tree.iter())
    assert sum(walked) < 3 * elements  # was ~depth/2 walks of the nest: about 70 times the page
    assert site[6].article_text.split("\n\n")[1][:60] in cleaned.text and "deep text" in cleaned.text
