"""A small site written for the tests: pages of one template around an article with headings, a
list, a table, code and a quote, and (on request) the page's metadata as JSON-LD."""

from __future__ import annotations

import json

from scrapy_boilerplate.page import Page

TOPICS = ["tide tables", "harbour dredging", "ferry timetables", "lighthouse repairs", "net mending", "pier lights"]


def article_page(number: int, jsonld: dict | None = None) -> Page:
    """A page of a small harbour site: a header menu, a sidebar and a footer around an article
    with headings, a list, a table, code and a quote."""
    topic = TOPICS[number]
    prose = " ".join(
        f"Sentence {i} about {topic} tells the reader what the committee decided on day {i + number}." for i in range(6)
    )
    return Page(
        f"""<html lang="en-GB"><head><title>{topic} | Harbour Notes</title>{_script(jsonld)}</head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/archive">Archive</a></li>
<li><a href="/about">About us</a></li></ul></nav></header>
<div class="layout"><article class="post"><h1>Notes on {topic}</h1>
<p class="lead" style="color:red">{prose}</p>
<h2>Steps taken for {topic}</h2>
<ul><li>Survey the {topic} site in week {number}</li><li>Order the parts for {topic}</li>
<li>Report the costs of {topic} to the board</li></ul>
<h2>Costs of {topic}</h2>
<table class="costs"><tr><th>Item</th><th>Cost</th></tr><tr><td>Labour for {topic}</td><td>{100 + number} pounds</td></tr>
<tr><td>Materials for {topic}</td><td>{200 + number} pounds</td></tr></table>
<pre><code>schedule --topic "{topic}" --week {number}</code></pre>
<blockquote><p>The {topic} work is done, said the <em>harbour master</em> in <a href="/people/{number}">a statement</a>.</p></blockquote>
<p>{prose}</p></article>
<aside class="sidebar"><h3>Popular posts</h3><ul><li><a href="/p/1">Old boats</a></li><li><a href="/p/2">Gull census</a></li></ul></aside></div>
<footer><p>Copyright Harbour Notes. All rights reserved.</p><ul><li><a href="/privacy">Privacy</a></li></ul></footer>
<script>var tracking = "secret";</script></body></html>""",
        f"https://harbour.example/notes/{number}",
    )


def _script(jsonld: dict | None) -> str:
    return f'<script type="application/ld+json">{json.dumps(jsonld)}</script>' if jsonld else ""
