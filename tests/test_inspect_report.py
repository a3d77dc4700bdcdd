"""The inspection report: the coverage rule, inert output, header figures and the ``inspect`` command."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import lxml.html
import pytest
from helpers.marker_model import COOKIE, UNRESOLVABLE, MarkerModel

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.html import normalize_space
from scrapy_boilerplate.inspection import build_report, summarize_site, walk
from scrapy_boilerplate.inspection.coverage import Text
from scrapy_boilerplate.models import create_model, registry
from scrapy_boilerplate.models.base import CleanedPage, Decision
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

HOSTILE = """<html><head><title>Hostile</title><style>body{display:none}</style>
<link rel="stylesheet" href="http://evil.example/a.css"><script>alert(1)</script></head>
<body onload="steal()"><div style="background:url(http://evil.example/bg.png)">
<p>Safe words &lt;script&gt;alert(2)&lt;/script&gt; stay text.</p>
<img src="http://evil.example/pixel.gif" alt="a chart" onerror="steal()">
<iframe src="http://evil.example/frame"></iframe><a href="javascript:steal()">a link</a>
<object data="http://evil.example/x.swf">fallback</object><form action="http://evil.example/post"><input value="x"></form>
<svg><image href="http://evil.example/s.png"/></svg><video src="http://evil.example/v.mp4"></video></div></body></html>"""


@pytest.fixture
def marker() -> Iterator[type[MarkerModel]]:
    """The test model, registered for the duration of one test only."""
    with registry.registered(MarkerModel):
        yield MarkerModel


def _spans(report: str, css: str) -> list[str]:
    tree = lxml.html.fromstring(report)
    return [
        normalize_space(s.text_content())
        for s in tree.xpath(f'//main//span[contains(concat(" ", @class, " "), " {css} ")]')
    ]


def _verdicts(page: Page, cleaned: CleanedPage) -> dict[str, bool]:
    return {
        normalize_space(e.text): e.verdict.kept for e in walk(page, cleaned) if isinstance(e, Text) and e.text.strip()
    }


def test_nearest_decision_wins_and_tails_belong_to_the_parent():
    page = Page(
        "<html><body><div id='a'>outer <p>inner <b>bold</b> after bold</p> tail of p</div>"
        "<p>loose text</p></body></html>"
    )
    root = page.tree.getroottree()
    outer, inner = root.getpath(page.tree.find(".//div[@id='a']")), root.getpath(page.tree.find(".//p"))
    decisions = (
        Decision(outer, False, 0, "outer"),
        Decision(inner, True, 0, "inner"),
        Decision(inner, False, 0, "dup"),
    )
    cleaned = CleanedPage("inner bold after bold", "", "t", 40, 20, None, decisions)
    verdicts = _verdicts(page, cleaned)
    assert verdicts["outer"] is False and verdicts["tail of p"] is False  # the <p>'s tail is the div's text
    assert verdicts["inner"] and verdicts["bold"] and verdicts["after bold"]  # first decision for <p> counts
    assert verdicts["loose text"] is False  # no decision: not in the cleaned text
    assert _verdicts(page, CleanedPage("loose text", "", "t", 40, 10))["loose text"] is True


def test_chars_ranges_split_text_and_override_element_decisions():
    html = "<html><body><div><p>alpha beta gamma delta</p></div></body></html>"
    page = Page(html)
    start = html.index("gamma")
    div = page.tree.getroottree().getpath(page.tree.find(".//div"))
    cleaned = CleanedPage(
        "alpha beta",
        "",
        "t",
        22,
        10,
        None,
        (Decision(div, True, 0, "div"), Decision(f"chars:{start}-{start + 11}", False, 11, "range")),
    )
    pieces = [(e.text, e.verdict.kept, e.verdict.decision) for e in walk(page, cleaned) if isinstance(e, Text)]
    assert pieces == [("alpha beta ", True, 0), ("gamma delta", False, 1)]


def _marker_report(index: int = 1) -> tuple[str, list[Page], list]:
    synthetic = make_site("marker.example", 4, seed=7)
    pages = [Page(s.html, s.url) for s in synthetic]
    model = MarkerModel().fit(pages)
    cleaned = [(page, model.clean(page)) for page in pages]
    summary = summarize_site("test-marker", 3, cleaned)
    return build_report(pages[index], cleaned[index][1], summary), pages, synthetic


def test_report_marks_both_decision_forms_and_inferred_text():
    report, pages, synthetic = _marker_report()
    truth = synthetic[1]
    removed, kept = " ".join(_spans(report, "rm")), " ".join(_spans(report, "kp"))
    assert truth.title in kept and "Popular" in kept  # the kept range inside the removed sidebar
    assert COOKIE in removed and "Copyright marker.example" in removed and truth.template_texts[0] in removed
    first_paragraph = truth.article_text.split("\n\n")[1]
    half = len(first_paragraph) // 2
    assert first_paragraph[: half - 2] in kept and first_paragraph[half + 2 :] in removed
    missing = _spans(report, "miss")
    assert missing == [truth.title]  # kept by a decision, absent from the output: flagged
    inferred = " ".join(_spans(report, "inf"))
    assert "Related" in inferred and "Comments" in inferred
    assert all(text not in kept for text in ("Related", "Comments", "Copyright"))


def test_report_header_and_side_panel():
    report, _, _ = _marker_report()
    tree = lxml.html.fromstring(report)
    header = normalize_space(tree.find(".//header").text_content())
    assert "3 of the site's 4 pages" in header
    assert "removed on this page" in header and "removed on average" in header and "%" in header
    title = _marker_report()[2][1].title
    assert f"{len(title)} characters that a decision keeps are missing from the model's cleaned text" in header
    regions = tree.xpath("//table[@class='regions']//tr/td[1]")
    assert [normalize_space(td.text_content()) for td in regions][:1] == ["/html/body/div[2]/aside"]
    assert "4 of 4" in normalize_space(tree.xpath("//table[@class='regions']//tr[2]")[0].text_content())
    panel = [normalize_space(li.text_content()) for li in tree.xpath("//aside[@class='panel']//li")]
    assert len(panel) == 8
    assert any("cookie range: seen on every page" in item and "chars:" in item for item in panel)
    assert any(UNRESOLVABLE in item and "not found in this page" in item for item in panel)
    for link in tree.xpath("//aside[@class='panel']//a/@href"):
        assert tree.xpath(f"//*[@id='{link[1:]}']"), link  # every panel link lands on the page


def test_report_is_inert_whatever_the_page_holds():
    page = Page(HOSTILE, "http://evil.example/")
    cleaned = create_model("pvalue").fit([]).clean(page)
    report = build_report(page, cleaned, summarize_site("pvalue", 0, [(page, cleaned)]))
    tree = lxml.html.fromstring(report)
    assert [
        el.tag for el in tree.iter("script", "iframe", "img", "object", "embed", "link", "svg", "video", "form")
    ] == []
    assert len(tree.findall(".//style")) == 1 and "evil" not in tree.find(".//style").text
    for el in tree.iter():
        for name, value in el.attrib.items():
            assert not name.startswith("on") and name not in ("src", "data", "action", "style"), (el.tag, name)
            assert "evil" not in value or name == "title", (el.tag, name, value)
        if el.get("href") is not None:
            assert el.get("href").startswith("#")
    assert "default-src 'none'" in tree.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")[0]
    text = tree.find(".//main").text_content()
    assert "<script>alert(2)</script>" in text  # escaped text stays text
    assert "[img: a chart]" in text and "a link" in text


def test_pvalue_report_names_p_values(corpus: Path, tmp_path: Path, capsys):
    out = tmp_path / "report.html"
    assert (
        main(
            [
                "inspect",
                "--model",
                "pvalue",
                "--sample-size",
                "3",
                str(corpus / "news.example"),
                "02.html",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith(f"inspect: wrote {out} (pvalue:")
    report = out.read_text(encoding="utf-8")
    gold = (corpus / "news.example" / "02.txt").read_text(encoding="utf-8")
    kept, removed = " ".join(_spans(report, "kp")), " ".join(_spans(report, "rm"))
    assert gold.split("\n\n")[1][:200] in kept
    assert "Copyright news.example" in removed and "Copyright" not in kept
    tree = lxml.html.fromstring(report)
    assert "3 of the site's 6 pages" in tree.find(".//header").text_content()
    panel = tree.find(".//aside").text_content()
    assert "max P = " in panel and "outside the main region: P = " in panel


def test_inspect_cli_with_a_registered_model_and_a_page_outside_the_site(marker, corpus: Path, tmp_path: Path):
    outside = tmp_path / "elsewhere.html"
    outside.write_text(make_site("news.example", 9, seed=1)[8].html, encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["inspect", "--model", "test-marker", str(corpus / "news.example"), str(outside), "-o", str(out)]) == 0
    assert "cookie range: seen on every page" in out.read_text(encoding="utf-8")


def test_inspect_cli_user_errors(corpus: Path, tmp_path: Path, capsys):
    out = str(tmp_path / "r.html")
    assert main(["inspect", str(corpus / "news.example"), "missing.html", "-o", out]) == 2
    assert "page missing.html not found" in capsys.readouterr().err
    assert main(["inspect", str(corpus), "x.html", "-o", out]) == 2
    assert main(["inspect", str(corpus / "news.example"), "-o", out]) == 2
    assert "give SITE_DIR and PAGE" in capsys.readouterr().err
    assert main(["inspect", "--from-crawl", "http://news.example/a", "-o", out]) == 2
    assert "needs --store" in capsys.readouterr().err
    assert not Path(out).exists()


def test_paths_of_broken_tag_names_still_resolve():
    page = Page('<html><body><div><bodyonload="load()"><p>Kept words</p></div><p>Other words</p></body></html>')
    odd = page.tree.find(".//p")
    path = page.tree.getroottree().getpath(odd)
    assert '"' in path  # not valid XPath: lxml kept the broken tag name
    cleaned = CleanedPage("", "", "t", 20, 0, None, (Decision(path, True, 10, "odd"),))
    assert _verdicts(page, cleaned) == {"Kept words": True, "Other words": False}


def test_chars_ranges_are_source_offsets_across_entities_and_line_ends():
    html = (
        "<html><head><title>open\r\nuntil</title></head>\r\n<body>\r\n"
        "<p>Caf&eacute; &amp; bar: it&rsquo;s open\r\nuntil late tonight</p></body></html>"
    )
    page = Page(html)
    start = html.index("open\r\nuntil l")
    cleaned = CleanedPage("", "", "t", 40, 0, None, (Decision(f"chars:{start}-{start + 11}", False, 11, "range"),))
    pieces = [(e.text, e.verdict.decision) for e in walk(page, cleaned) if isinstance(e, Text) and e.text.strip()]
    assert pieces == [("Café & bar: it’s ", None), ("open\nuntil", 0), (" late tonight", None)]
