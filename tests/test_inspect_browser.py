"""Look at the report as a person would: headless Chromium renders it, the DOM and the pixels are checked."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import lxml.html
import numpy as np
import pytest
from helpers.pngread import read_png

from scrapy_boilerplate.cli import main

pytestmark = pytest.mark.slow  # renders the report in headless Chromium

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER = next((path for path in map(shutil.which, BROWSERS) if path), None)
WIDTH, HEIGHT = 1280, 1600
REMOVED_GREY = np.array([200, 200, 200])  # the report's #c8c8c8

pytestmark = pytest.mark.skipif(
    BROWSER is None, reason=f"no headless browser found (looked for {', '.join(BROWSERS)}); .ci/run installs chromium"
)

# Test-only probe: records where removed and kept parts are laid out, and their computed styles.
PROBE = """<script>(function () {
  function box(el) { var r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
  function shown(el) { var r = el.getBoundingClientRect();
    return r.width > 40 && r.height > 12 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }
  function pick(sel) { return Array.prototype.filter.call(document.querySelectorAll(sel), shown).map(box); }
  function style(sel) { var s = getComputedStyle(document.querySelector(sel));
    return {bg: s.backgroundColor, color: s.color, line: s.textDecorationLine}; }
  document.body.setAttribute("data-probe", JSON.stringify({width: innerWidth, height: innerHeight,
    removed: pick("main .drm"), kept: pick("main .dkp span.kp"),
    rm: style("main span.rm"), kp: style("main .dkp span.kp")}));
})();</script>"""


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    command = [
        BROWSER,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--force-device-scale-factor=1",
        "--hide-scrollbars",
        f"--window-size={WIDTH},{HEIGHT}",
        *args,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def _luminance(pixels: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of sRGB pixels."""
    c = pixels.astype(float) / 255
    c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ np.array([0.2126, 0.7152, 0.0722])


def _region(image: np.ndarray, box: list[float], inset: int = 2) -> np.ndarray:
    left, top, right, bottom = (int(round(v)) for v in box)
    return image[top + inset : bottom - inset, left + inset : right - inset].reshape(-1, 3)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict:
    """The pvalue report of a synthetic page: Chromium's DOM, the probe's layout and the screenshot."""
    from scrapy_boilerplate.testing.synthetic import make_site

    tmp_path = tmp_path_factory.mktemp("browser")
    site = tmp_path / "news.example"
    site.mkdir()
    for i, page in enumerate(make_site("news.example", 6, seed=1)):
        (site / f"{i:02d}.html").write_text(page.html, encoding="utf-8")
    report = tmp_path / "report.html"
    assert main(["inspect", "--model", "pvalue", str(site), "02.html", "-o", str(report)]) == 0
    probe = tmp_path / "probe.html"
    html = report.read_text(encoding="utf-8")
    csp_start = html.index('<meta http-equiv="Content-Security-Policy"')
    without_csp = html[:csp_start] + html[html.index(">", csp_start) + 1 :]  # lets the probe script run
    probe.write_text(without_csp.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = _chromium(tmp_path, "--dump-dom", report.as_uri()).stdout
    probed = _chromium(tmp_path, "--dump-dom", probe.as_uri()).stdout
    shot = tmp_path / "shot.png"
    _chromium(tmp_path, f"--screenshot={shot}", report.as_uri())
    layout = json.loads(lxml.html.fromstring(probed).find("body").get("data-probe"))
    return {"dom": lxml.html.fromstring(dom), "layout": layout, "image": read_png(shot.read_bytes())}


def test_browser_dom_has_no_script_and_marks_every_decision(rendered):
    dom = rendered["dom"]
    assert dom.findall(".//script") == [] and dom.findall(".//iframe") == []
    removed_roots = dom.xpath("//main//*[contains(@class, 'drm')]")
    assert removed_roots and all(
        "removed: outside the main region" in el.get("title") or "never main text" in el.get("title")
        for el in removed_roots
    )
    assert dom.xpath("//main//span[contains(@class, 'miss')]") == []  # pvalue's decisions match its output
    assert "Copyright news.example" in " ".join(s.text_content() for s in dom.xpath("//main//span[@class='rm']"))
    assert (
        len(dom.xpath("//aside[@class='panel']//li"))
        == len(dom.xpath("//main//*[@title and starts-with(@id, 'd')]")) + 1
    )


def test_browser_styles_removed_text_grey_and_struck_through(rendered):
    layout = rendered["layout"]
    # --dump-dom's viewport may be shorter than the screenshot's; the page column lays out the same
    assert layout["width"] == WIDTH and layout["height"] <= HEIGHT
    assert layout["rm"] == {"bg": "rgb(200, 200, 200)", "color": "rgb(58, 58, 58)", "line": "line-through"}
    assert layout["kp"]["bg"] == "rgb(255, 255, 255)" and layout["kp"]["line"] == "none"


def test_screenshot_shades_removed_regions(rendered):
    image, layout = rendered["image"], rendered["layout"]
    assert image.shape == (HEIGHT, WIDTH, 3)
    assert layout["removed"], "no removed region inside the first screen"
    for box in layout["removed"]:
        pixels = _region(image, box)
        grey = np.all(np.abs(pixels.astype(int) - REMOVED_GREY) <= 6, axis=1).mean()
        assert grey > 0.5, (box, grey)
    text = np.concatenate([_region(image, box) for box in layout["removed"]])
    assert (_luminance(text) < 0.2).mean() > 0.01  # the struck-through text is drawn on the grey


def test_screenshot_keeps_text_dark_on_light(rendered):
    image, layout = rendered["image"], rendered["layout"]
    assert layout["kept"], "no kept text inside the first screen"
    pixels = np.concatenate([_region(image, box, inset=0) for box in layout["kept"]])
    luminance = _luminance(pixels)
    background = np.median(luminance)
    assert background > 0.9  # a white page behind kept text
    assert np.all(np.abs(pixels.astype(int) - REMOVED_GREY) <= 6, axis=1).mean() < 0.02  # not shaded
    darkest = np.percentile(luminance, 1)
    assert (background + 0.05) / (darkest + 0.05) >= 7  # WCAG AAA contrast for the text strokes
