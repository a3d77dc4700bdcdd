"""Look at reports as a person would: headless Chromium renders them at 1,024 and 1,400 px.

For every model on three real sites (the bundled example sites everywhere, three sites of the
development data where it is present): no sideways scroll, a header under 40% of the first
screen (measured, and seen in the screenshot's pixels), and the token equality read back from
the DOM the browser built.  Then, on one report: the view switch and the filters work without
script, removed text is grey and struck through only on hover, kept text is dark on white.
Set ``INSPECT_SCREENSHOTS=DIR`` to keep the screenshots.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np
import pytest
from helpers.browser import BROWSER, BROWSERS, Browser
from helpers.pngread import png_size, read_png
from helpers.report_checks import check_report

from scrapy_boilerplate.inspection import build_report
from scrapy_boilerplate.inspection.style import HEADER_BACKGROUND, REMOVED_BACKGROUND, REMOVED_TEXT
from scrapy_boilerplate.inspection.target import from_site
from scrapy_boilerplate.models import available_models
from scrapy_boilerplate.models.spec import ModelSpec

pytestmark = [
    pytest.mark.slow,  # renders reports in headless Chromium
    pytest.mark.skipif(
        BROWSER is None,
        reason=f"no headless browser found (looked for {', '.join(BROWSERS)}); .ci/run installs chromium",
    ),
]

MODELS = available_models()
SCREENS = {1024: 768, 1400: 900}  # viewport width -> height
HEADER_SHARE = 0.4  # of the first screen, at most
EXAMPLE = Path(__file__).resolve().parent.parent / "example_project"
BUNDLED = {  # (site folder, page)
    "news.example": (EXAMPLE / "saved_pages" / "news.example", "03.html"),
    "blog.example": (EXAMPLE / "saved_pages" / "blog.example", "02.html"),
    "harbor-gazette.example": (EXAMPLE / "demo" / "corpus" / "harbor-gazette.example" / "article", "4.html"),
}
DEV = {  # dragnet sites: a blog whose comments follow the post, a news site with long navigation, a tech blog
    "headrush.typepad.com": ("dragnet/headrush.typepad.com", "R532.html"),
    "cnn.com": ("dragnet/cnn.com", "R566.html"),
    "9to5mac.com": ("dragnet/9to5mac.com", "T105.html"),
}
MEASURE = """({
  scrollWidth: document.documentElement.scrollWidth, width: innerWidth, height: innerHeight,
  header: document.querySelector("header").getBoundingClientRect().height,
  html: document.documentElement.outerHTML})"""


def _hex(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])


def _rgb(colour: str) -> str:
    red, green, blue = _hex(colour)
    return f"rgb({red}, {green}, {blue})"


@pytest.fixture(scope="module")
def browser():
    with Browser() as chromium:
        yield chromium


def _report(site_dir: Path, page: str, model: str, folder: Path):
    """Write the report ``inspect SITE_DIR PAGE`` writes (the same fit, summary and header warnings)."""
    args = argparse.Namespace(paths=[str(site_dir), page], model=ModelSpec.parse(model), sample_size=20)
    target = from_site(args)
    path = folder / f"{site_dir.name}-{model}.html"
    path.write_text(
        build_report(target.page, target.cleaned, target.summary, target.label, target.warnings), encoding="utf-8"
    )
    return path, target


def _look(browser: Browser, report: Path, target, width: int, name: str) -> dict:
    """Open ``report`` at ``width``; check scroll, header share, screenshot and token equality."""
    browser.open(report.as_uri(), width, SCREENS[width])
    seen = browser.evaluate(MEASURE)
    shot = browser.screenshot()
    if os.environ.get("INSPECT_SCREENSHOTS"):
        folder = Path(os.environ["INSPECT_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}-{width}.png").write_bytes(shot)
    assert (seen["width"], seen["height"]) == (width, SCREENS[width])
    assert seen["scrollWidth"] <= width, f"{name}: scrolls sideways ({seen['scrollWidth']} > {width})"
    assert seen["header"] < HEADER_SHARE * seen["height"], f"{name}: header {seen['header']:.0f} px"
    assert png_size(shot) == (width, SCREENS[width])
    header = int(seen["header"])
    pixels = read_png(shot, rows=header + 8)
    band = np.all(pixels[4 : header - 4, 4] == _hex(HEADER_BACKGROUND), axis=1).mean()
    assert band > 0.8, f"{name}: the header is not where the DOM says ({band:.0%})"
    assert not np.all(pixels[header + 4 :, 4] == _hex(HEADER_BACKGROUND)), name
    check_report(seen["html"], target.page, target.cleaned, name)  # the DOM the browser built
    return seen


def _check_sites(browser: Browser, sites: dict, tmp_path: Path) -> list[str]:
    figures = []
    for name, (site_dir, page) in sites.items():
        for model in MODELS:
            report, target = _report(site_dir, page, model, tmp_path)
            for width in SCREENS:
                seen = _look(browser, report, target, width, f"{name}-{model}")
                figures.append(f"{name} {model} {width}: scroll {seen['scrollWidth']}, header {seen['header']:.0f}")
    return figures


def test_reports_of_every_model_fit_the_screen_on_the_bundled_sites(browser, tmp_path: Path):
    figures = _check_sites(browser, BUNDLED, tmp_path)
    assert len(figures) == len(BUNDLED) * len(MODELS) * len(SCREENS)


def test_reports_of_every_model_fit_the_screen_on_real_sites(browser, tmp_path: Path, dev_data: Path):
    sites = {name: (dev_data / folder, page) for name, (folder, page) in DEV.items()}
    figures = _check_sites(browser, sites, tmp_path)
    print("\n".join(figures))
    assert len(figures) == len(DEV) * len(MODELS) * len(SCREENS)


@pytest.fixture(scope="module")
def news_report(browser, tmp_path_factory) -> tuple[Path, object]:
    site_dir, page = BUNDLED["news.example"]
    return _report(site_dir, page, "pvalue", tmp_path_factory.mktemp("news"))


def _style(browser: Browser, selector: str) -> dict:
    return browser.evaluate(
        f"""(() => {{ const s = getComputedStyle(document.querySelector({selector!r}));
        return {{color: s.color, background: s.backgroundColor, line: s.textDecorationLine}}; }})()"""
    )


def _click(browser: Browser, selector: str) -> None:
    """A real mouse click on the element (the report itself runs no script)."""
    box = browser.evaluate(
        f"(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();"
        f" return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
    )
    for kind in ("mousePressed", "mouseReleased"):
        browser.send(
            "Input.dispatchMouseEvent", session=True, type=kind, x=box[0], y=box[1], button="left", clickCount=1
        )


def test_view_switch_filters_and_hover_need_no_script(browser, news_report):
    report, target = news_report
    browser.open(report.as_uri(), 1400, 900)
    assert browser.evaluate("document.scripts.length") == 0
    assert _style(browser, "main span.rm") == {"color": _rgb(REMOVED_TEXT), "background": _rgb(REMOVED_BACKGROUND),
                                               "line": "none"}  # fmt: skip
    assert _style(browser, "main span.kp")["line"] == "none"
    box = browser.evaluate("(() => { const r = document.querySelector('main span.rm').getBoundingClientRect();"
                           " return [r.left + 2, r.top + r.height / 2]; })()")  # fmt: skip
    browser.send("Input.dispatchMouseEvent", session=True, type="mouseMoved", x=box[0], y=box[1])
    assert _style(browser, "main span.rm:hover")["line"] == "line-through"
    visible = "(s) => getComputedStyle(document.querySelector(s)).display !== 'none'"
    assert browser.evaluate(f"({visible})('main.page')") and not browser.evaluate(f"({visible})('#output')")
    _click(browser, "label:has(#view-output)")
    assert not browser.evaluate(f"({visible})('main.page')") and browser.evaluate(f"({visible})('#output')")
    assert browser.evaluate("document.getElementById('output').innerText").split() == target.cleaned.text.split()
    count = "(v) => [...document.querySelectorAll('li.dec')].filter(li => li.offsetParent && li.classList.contains(v)).length"
    assert browser.evaluate(f"({count})('v-kept')") > 0
    _click(browser, "label:has(#fv-removed)")
    assert browser.evaluate(f"({count})('v-kept')") == 0 and browser.evaluate(f"({count})('v-removed')") > 0


def _luminance(pixels: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of sRGB pixels."""
    c = pixels.astype(float) / 255
    c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ np.array([0.2126, 0.7152, 0.0722])


def test_screenshot_shows_removed_text_grey_and_kept_text_dark(browser, news_report):
    report, _ = news_report
    browser.open(report.as_uri(), 1400, 900)
    boxes = browser.evaluate("""(() => { const pick = (sel) => [...document.querySelectorAll(sel)]
      .map(e => e.getBoundingClientRect()).filter(r => r.width > 30 && r.top >= 0 && r.bottom <= innerHeight)
      .map(r => [r.left, r.top, r.right, r.bottom]); return {removed: pick('main span.rm'), kept: pick('main span.kp')}; })()""")
    image = read_png(browser.screenshot())
    for verdict, background, ratio in (("removed", REMOVED_BACKGROUND, 4.5), ("kept", "#ffffff", 7)):
        assert boxes[verdict], f"no {verdict} text on the first screen"
        pixels = np.concatenate(
            [
                image[int(t) + 1 : int(b) - 1, int(left) + 1 : int(r) - 1].reshape(-1, 3)
                for left, t, r, b in boxes[verdict]
            ]
        )
        shade = np.all(np.abs(pixels.astype(int) - _hex(background)) <= 3, axis=1).mean()
        assert shade > 0.5, (verdict, shade)  # the background behind the text
        lum = _luminance(pixels)
        text = np.percentile(lum, 1)
        assert (np.median(lum) + 0.05) / (text + 0.05) >= ratio, verdict  # readable: WCAG AA (removed), AAA (kept)
