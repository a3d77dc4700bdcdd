"""A small news site written by hand for fusion's tests: four articles under one template, with a
teaser that reads like prose and repeats on every page."""

from __future__ import annotations

from scrapy_boilerplate.page import Page

ARTICLES = [
    [
        "The city council voted on Tuesday to expand the harbour ferry service to three new stops.",
        "Officials said the first boats would run in the spring, once the piers have been rebuilt.",
        "Residents of the eastern districts have asked for the service for more than a decade.",
        "The plan will be paid for by a regional transport grant and a small rise in fares.",
    ],
    [
        "A small bakery on the old market square has won the national bread prize this year.",
        "Its owner, who took over the shop from her father, bakes every loaf by hand before dawn.",
        "The judges praised the crust of her rye bread and the long, slow rise of the dough.",
        "She said the prize money would go toward a second oven and an apprentice.",
    ],
    [
        "Heavy rain flooded several roads in the valley overnight, and two bridges were closed.",
        "The weather service expects the river to peak on Thursday afternoon before it recedes.",
        "Farmers along the banks moved their animals to higher ground as the water rose.",
        "Volunteers filled sandbags at the fire station until well after midnight.",
    ],
    [
        "The university opened a new library wing with room for two thousand readers at once.",
        "Architects kept the original stone facade and added a glass reading hall behind it.",
        "Students will be able to borrow laptops and book quiet rooms through a new website.",
        "The opening ceremony drew former staff, local writers and the mayor of the town.",
    ],
]
# A teaser that reads like prose but repeats on every page of the site: template, not article.
TEASER = (
    "Our editors have picked the stories that everyone in the region was reading this week, from the "
    "changes to the school calendar to the long debate about the new bus lanes in the centre of town."
)


def site_page(site: str, number: int, article: list[str]) -> Page:
    paragraphs = "".join(f"<p>{text}</p>" for text in article)
    html = f"""<html><head><title>Story {number} - {site}</title></head><body>
    <div class="masthead"><a href="/">{site}</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
    <ul class="menu"><li><a href="/a">Politics</a></li><li><a href="/b">Business</a></li><li><a href="/c">Culture</a></li></ul>
    <div class="story"><h1>Story number {number} from {site}</h1>{paragraphs}</div>
    <div class="picks"><h3>Editors' picks</h3><p>{TEASER}</p></div>
    <div class="footer">Copyright {site}. All rights reserved. <a href="/privacy">Privacy</a></div>
    </body></html>"""
    return Page(html, f"https://{site}/story/{number}")


def news_site(name: str) -> list[Page]:
    return [site_page(name, i, ARTICLES[i % len(ARTICLES)]) for i in range(len(ARTICLES))]
