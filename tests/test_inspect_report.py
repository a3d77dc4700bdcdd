"""The inspection report: the coverage rule, inert output, header figures and the ``inspect`` command."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import lxml.html
import pytest
from conftest import write_site
from helpers.marker_model import COOKIE, MarkerModel
from helpers.pngread import png_size, read_png

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.html import normalize_space
from scrapy_boilerplate.inspection import build_report, mark_page, read_report, summarize_site
from scrapy_boilerplate.inspection.style import HEADER_BACKGROUND
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


def _spans(report: str, verdict: str, css: str = "") -> list[str]:
    """Texts of the page view's spans with ``data-verdict=verdict`` (and class ``css``, if given)."""
    tree = lxml.html.fromstring(report)
    extra = f' and contains(concat(" ", @class, " "), " {css} ")' if css else ""
    return [normalize_space(s.text_content()) for s in tree.xpath(f'//main//span[@data-verdict="{verdict}"{extra}]')]


def _segments(page: Page, cleaned: CleanedPage) -> list[tuple[str, bool, int | None]]:
    return [(s.text, s.kept, s.decision) for s in mark_page(page, cleaned).all_segments() if s.text.strip()]


def _verdicts(page: Page, cleaned: CleanedPage) -> dict[str, tuple[bool, int | None]]:
    return {normalize_space(text): (kept, decision) for text, kept, decision in _segments(page, cleaned)}


def _cleaned(text: str, *decisions: Decision) -> CleanedPage:
    return CleanedPage(text, "", "t", 100, len(text), None, decisions)


def test_the_output_marks_the_page_and_the_agreeing_decision_explains_it():
    page = Page(
        "<html><body><div id='a'>outer <p>inner <b>bold</b> after bold</p> tail of p</div>"
        "<p>loose text</p></body></html>"
    )
    root = page.tree.getroottree()
    outer, inner = root.getpath(page.tree.find(".//div[@id='a']")), root.getpath(page.tree.find(".//p"))
    decisions = (
        Decision(outer, False, 0, "outer"),
        Decision(inner, False, 0, "first"),
        Decision(inner, True, 0, "later"),
    )
    verdicts = _verdicts(page, _cleaned("inner bold after bold", *decisions))
    assert verdicts["outer"] == (False, 0) and verdicts["tail of p"] == (False, 0)  # a <p>'s tail is the div's text
    assert verdicts["inner"] == (True, 2) and verdicts["after bold"] == (True, 2)  # the decision agreeing with it
    assert verdicts["loose text"] == (False, None)  # no decision: removed because the output lacks it
    again = _verdicts(page, _cleaned("outer loose text", *decisions))
    assert again["loose text"] == (True, None) and again["inner"] == (False, 1)
    assert again["outer"] == (True, 0)  # kept by the output; its decision disagrees (flagged, not obeyed)
    assert not mark_page(page, _cleaned("outer loose text", *decisions)).all_segments()[0].agrees


def test_cuts_fall_between_whole_tokens():
    page = Page("<html><body><p><b>P</b>aul Ryan spoke at 00:59 on (CNN)Tropical storms</p></body></html>")
    segments = _segments(page, _cleaned("Ryan spoke at 00 on Tropical"))
    assert [(text, kept) for text, kept, _ in segments] == [
        ("P", False),  # "P|aul" is one word: both of its pieces are removed
        ("aul", False),
        (" Ryan spoke at 00:", True),
        ("59", False),
        (" on", True),
        (" (CNN)", False),
        ("Tropical", True),
        (" storms", False),
    ]


def test_chars_ranges_explain_their_tokens_and_override_element_decisions():
    html = "<html><body><div><p>alpha beta gamma delta</p></div></body></html>"
    page = Page(html)
    start = html.index("mma")  # mid-word: the range explains the tokens that start inside it
    div = page.tree.getroottree().getpath(page.tree.find(".//div"))
    cleaned = _cleaned(
        "alpha beta", Decision(div, True, 0, "div"), Decision(f"chars:{start}-{start + 9}", False, 9, "r")
    )
    assert _segments(page, cleaned) == [("alpha beta", True, 0), (" gamma", False, 0), (" delta", False, 1)]


def _marker_report(index: int = 1) -> tuple[str, list[Page], list]:
    synthetic = make_site("marker.example", 4, seed=7)
    pages = [Page(s.html, s.url) for s in synthetic]
    model = MarkerModel().fit(pages)
    cleaned = [(page, model.clean(page)) for page in pages]
    summary = summarize_site("test-marker", 3, cleaned, ["00.html", "01.html", "02.html"])
    return build_report(pages[index], cleaned[index][1], summary), pages, synthetic


def test_report_marks_what_the_output_holds_and_flags_decisions_that_disagree():
    report, pages, synthetic = _marker_report()
    truth = synthetic[1]
    removed, kept = " ".join(_spans(report, "removed")), " ".join(_spans(report, "kept"))
    assert "Popular" in kept  # the kept range inside the removed sidebar
    assert COOKIE in removed and "Copyright marker.example" in removed and truth.template_texts[0] in removed
    first_paragraph = truth.article_text.split("\n\n")[1]
    half = len(first_paragraph) // 2
    assert first_paragraph[: half - 20] in kept and first_paragraph[half + 20 :] in removed
    # kept by the article's decision, absent from the output: the title, and the word the model's
    # cut in the middle of the first paragraph (the output holds half a word, which is not on the page)
    assert _spans(report, "removed", "x")[0] == truth.title
    assert "Related" in removed and "Comments" in removed and "Copyright" not in kept
    assert read_report(report).kept_is_output()


def test_report_header_and_side_panel():
    report, _, synthetic = _marker_report()
    tree = lxml.html.fromstring(report)
    header = normalize_space(tree.find(".//header").text_content())
    assert "Fitted on 3 of the site's 4 pages" in header and "removed on average over 4 pages" in header
    disagreeing = sum(map(len, _spans(report, "removed", "x")))
    assert disagreeing > len(synthetic[1].title) and f"part ways on {disagreeing} characters" in header
    assert "1 word of the output is not on this page as such" in header
    largest = [normalize_space(li.text_content()) for li in tree.xpath("//ol[@class='largest']/li")]
    assert largest[0].endswith("characters: not in the output, and no decision speaks for it")  # related, comments
    assert "#2: sidebar: shared by every page" in largest[1] and len(largest) == 3
    regions = tree.xpath("//table[@class='regions']//tr/td[1]/code/@title")
    assert regions[:1] == ["/html/body/div[2]/aside"]
    assert "4 of 4" in normalize_space(tree.xpath("//table[@class='regions']//tr[2]")[0].text_content())
    panel = {li.get("id"): normalize_space(li.text_content()) for li in tree.xpath("//aside//li[@id]")}
    assert len(panel) == 8
    assert "cookie range: seen on every page" in panel["why-4"] and "chars:" in panel["why-4"]
    assert "its path names nothing on this page" in panel["why-7"]
    folded = tree.xpath("//aside//details//li/@id")
    assert "why-7" in folded and "why-0" not in folded
    for link in tree.xpath("//aside//a/@href") + tree.xpath("//header//a/@href"):
        assert tree.xpath(f"//*[@id='{link[1:]}']"), link  # every link lands
    for link in tree.xpath("//main//a[@class='ref']/@href"):
        assert link.startswith("#why-") and tree.xpath(f"//li[@id='{link[1:]}']"), link  # and back


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
    kept, removed = " ".join(_spans(report, "kept")), " ".join(_spans(report, "removed"))
    assert gold.split("\n\n")[1][:200] in kept
    assert "Copyright news.example" in removed and "Copyright" not in kept
    tree = lxml.html.fromstring(report)
    assert "Fitted on 3 of the site's 6 pages" in tree.find(".//header").text_content()
    panel = tree.find(".//aside").text_content()
    assert "max P = " in panel and "outside the main region: P = " in panel


def test_inspect_cli_with_a_registered_model_and_a_page_outside_the_site(marker, corpus: Path, tmp_path: Path):
    outside = tmp_path / "elsewhere.html"
    outside.write_text(make_site("news.example", 9, seed=1)[8].html, encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["inspect", "--model", "test-marker", str(corpus / "news.example"), str(outside), "-o", str(out)]) == 0
    assert "cookie range: seen on every page" in out.read_text(encoding="utf-8")


def test_inspect_cli_user_errors(corpus: Path, tmp_path: Path, capsys, monkeypatch):
    out = str(tmp_path / "r.html")
    assert main(["inspect", str(corpus / "news.example"), "missing.html", "-o", out]) == 2
    assert "page missing.html not found" in capsys.readouterr().err
    assert main(["inspect", str(corpus), "x.html", "-o", out]) == 2
    assert main(["inspect", str(corpus / "news.example"), "-o", out]) == 2
    assert "give SITE_DIR and PAGE" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)  # no Scrapy project here, and no crawl stored models in .scrapy/boilerplate
    assert main(["inspect", "--from-crawl", "http://news.example/a", "-o", out]) == 2
    assert "no model store at .scrapy/boilerplate: the directory does not exist" in capsys.readouterr().err
    assert not Path(out).exists()


def test_paths_of_broken_tag_names_still_resolve():
    page = Page('<html><body><div><bodyonload="load()"><p>Kept words</p></div><p>Other words</p></body></html>')
    odd = page.tree.find(".//p")
    path = page.tree.getroottree().getpath(odd)
    assert '"' in path  # not valid XPath: lxml kept the broken tag name
    cleaned = CleanedPage("Kept words", "", "t", 20, 10, None, (Decision(path, True, 10, "odd"),))
    assert _verdicts(page, cleaned) == {"Kept words": (True, 0), "Other words": (False, None)}


def test_chars_ranges_are_source_offsets_across_entities_and_line_ends():
    html = (
        "<html><head><title>open\r\nuntil</title></head>\r\n<body>\r\n"
        "<p>Caf&eacute; &amp; bar: it&rsquo;s open\r\nuntil late tonight</p></body></html>"
    )
    page = Page(html)
    start = html.index("open\r\nuntil l")
    cleaned = CleanedPage("", "", "t", 40, 0, None, (Decision(f"chars:{start}-{start + 11}", False, 11, "range"),))
    assert _segments(page, cleaned) == [
        ("Café & bar: it’s", False, None),
        (" open\nuntil", False, 0),
        (" late tonight", False, None),
    ]


def _site_with_an_empty_page(root: Path, pages: int) -> Path:
    site = write_site(root, "odd.example", make_site("odd.example", pages, seed=3), gold=False)
    (site / "00.html").write_text("<html><head><title>x</title></head><body> </body></html>", encoding="utf-8")
    return site


def test_odd_input_is_named_in_the_header(tmp_path: Path):
    site = _site_with_an_empty_page(tmp_path, 5)
    out = tmp_path / "r.html"
    assert main(["inspect", "--model", "block_dup", str(site), "00.html", "-o", str(out)]) == 0
    header = normalize_space(lxml.html.fromstring(out.read_text(encoding="utf-8")).find(".//header").text_content())
    assert "This page has no visible text: there is nothing to keep or remove" in header
    assert "This page was left out of the fit: no visible text" in header
    assert "The fit left out 1 of the site's pages: 00.html (no visible text)" in header
    assert "Fitted on 4 of the site's 5 pages" in header
    assert "cannot be told from fewer than 3" not in header
    assert main(["inspect", "--model", "block_dup", str(site), "01.html", "-o", str(out)]) == 0
    header = normalize_space(lxml.html.fromstring(out.read_text(encoding="utf-8")).find(".//header").text_content())
    assert "no visible text: there is nothing" not in header and "left out of the fit: no" not in header


def test_a_site_of_fewer_than_three_pages_is_warned_about(tmp_path: Path):
    site = _site_with_an_empty_page(tmp_path, 3)  # one empty page: the fit has two
    out = tmp_path / "r.html"
    assert main(["inspect", "--model", "style_tree", str(site), "01.html", "-o", str(out)]) == 0
    header = normalize_space(lxml.html.fromstring(out.read_text(encoding="utf-8")).find(".//header").text_content())
    assert "The model was fitted on 2 pages: what repeats across a site (its template) cannot be told" in header


@pytest.mark.parametrize(
    ("output", "message"),
    [
        ("{tmp}", "is a folder; give the report's file name, e.g. -o {tmp}/report.html"),
        ("{tmp}/a-file.txt/report.html", "cannot write {tmp}/a-file.txt/report.html: {tmp}/a-file.txt is a file"),
        ("/proc/report.html", "cannot write /proc/report.html: "),
    ],
)
def test_a_bad_output_path_is_one_clear_line(corpus: Path, tmp_path: Path, capsys, output: str, message: str):
    (tmp_path / "a-file.txt").write_text("x", encoding="utf-8")
    path = output.format(tmp=tmp_path)
    assert main(["inspect", "--model", "pvalue", str(corpus / "news.example"), "01.html", "-o", path]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("inspect: ") and message.format(tmp=tmp_path) in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err and captured.out == ""


def _prose_page() -> tuple[Page, list[str]]:
    paragraphs = [
        f"Paragraph {k} tells the story in plain words, " + "and it goes on for a while " * 4 for k in range(4)
    ]
    body = "".join(f"<p>{text}</p>" for text in paragraphs)
    return Page(f"<html><body><h1>Title</h1>{body}</body></html>"), paragraphs


def _header_of(page: Page, cleaned: CleanedPage) -> str:
    report = build_report(page, cleaned, summarize_site("t", 3, [(page, cleaned)]))
    return normalize_space(lxml.html.fromstring(report).find(".//header").text_content())


def test_the_decisive_reason_comes_first_when_most_prose_is_removed():
    page, paragraphs = _prose_page()
    getpath = page.tree.getroottree().getpath
    p = page.tree.findall(".//p")
    decisions = [Decision(getpath(p[0]), True, 0, "lead paragraph")]
    decisions += [Decision(getpath(p[k]), False, 0, f"cut: paragraph {k + 1} of 4, score 0.{k}") for k in (1, 2, 3)]
    header = _header_of(page, _cleaned("Title\n\n" + paragraphs[0], *decisions))
    assert "Decisive: 75% of this page's prose removed, 75% by #1 and 2 more like it: cut: paragraph 2 of 4" in header
    assert "Largest removed:" in header and header.count("more like it") == 2  # the decisive line and the list


def test_output_that_lacks_what_the_decisions_keep_is_named_as_such():
    page, paragraphs = _prose_page()
    body = page.tree.getroottree().getpath(page.body)
    header = _header_of(page, _cleaned("Title", Decision(body, True, 0, "no useless n-gram")))
    assert (
        "Decisive: 100% of this page's prose removed, 100% not in the output, although #0 keeps it "
        "(no useless n-gram); the model gave no reason" in header
    )
    assert "part ways on" in header
    assert "Decisive" not in _header_of(page, _cleaned("Title " + " ".join(paragraphs[:2])))


def test_the_docs_show_a_screenshot_of_a_fusion_report():
    docs = Path(__file__).resolve().parent.parent / "docs"
    images = re.findall(
        r"!\[[^\]]*fusion[^\]]*\]\((images/[^)]+\.png)\)", (docs / "inspect.md").read_text(encoding="utf-8")
    )
    assert images, "docs/inspect.md shows no screenshot of a fusion report"
    shot = (docs / images[0]).read_bytes()
    assert png_size(shot) == (1024, 768)
    header = read_png(shot, rows=12)[4:10, 4]
    assert (header == [int(HEADER_BACKGROUND[i : i + 2], 16) for i in (1, 3, 5)]).all()  # a report's header


def test_a_reason_citing_a_sample_page_names_its_file(corpus: Path, tmp_path: Path):
    out = tmp_path / "r.html"
    assert main(["inspect", "--model", "block_dup", str(corpus / "news.example"), "03.html", "-o", str(out)]) == 0
    panel = lxml.html.fromstring(out.read_text(encoding="utf-8")).find(".//aside").text_content()
    cited = re.findall(r"duplicate of page (\d+) \((\d\d\.html)\)", panel)
    assert cited and all(name == f"{int(number):02d}.html" for number, name in cited)  # the sample is 00..05


def test_reading_a_page_that_is_not_a_report_says_so():
    with pytest.raises(ValueError, match="not an inspect report"):
        read_report("<html><body><main><p>A page.</p></main></body></html>")
    with pytest.raises(ValueError, match="not an inspect report"):
        read_report('<html><body><div id="output">Text.</div></body></html>')


@pytest.mark.parametrize(
    ("declared", "encoding"),
    [("", "cp1252"), ('<meta charset="iso-8859-7">', "iso-8859-7"), ('<meta charset="utf-8">', "utf-8")],
)
def test_pages_are_decoded_as_a_browser_would(tmp_path: Path, declared: str, encoding: str):
    # a legacy page declaring nothing is Windows-1252 ("aren’t", not "aren�t"); a declared charset wins
    words = "Λέξεις" if encoding == "iso-8859-7" else "We aren’t “quoted” here, café"
    site = tmp_path / "site"
    site.mkdir()
    for i in range(3):
        html = f"<html><head>{declared}<title>t</title></head><body><p>{words} {i}.</p></body></html>"
        (site / f"{i:02d}.html").write_bytes(html.encode(encoding))
    out = tmp_path / "r.html"
    assert main(["inspect", "--model", "pvalue", str(site), "01.html", "-o", str(out)]) == 0
    page_view = normalize_space(lxml.html.fromstring(out.read_text(encoding="utf-8")).find(".//main").text_content())
    assert f"{words} 1." in page_view and "\ufffd" not in page_view
