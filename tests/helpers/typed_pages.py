"""Small pages of every type, written for the tests (no page of any data set is copied here).

Each builder takes a host and a number, so that a test can make many sites' pages of one type
that differ in their words, as pages of different sites do.
"""

from __future__ import annotations

PARAGRAPH = (
    "The council met on Tuesday evening to discuss the plan for the river park, and after a long debate "
    "the members agreed that the first phase should begin in the spring. Residents who spoke at the meeting "
    "asked for more trees, safer crossings and a place for children to play near the water."
)
NAV = """<header class="site-header"><nav class="main-nav"><ul>
<li><a href="/">Home</a></li><li><a href="/about">About</a></li><li><a href="/contact">Contact</a></li>
</ul></nav></header>"""
FOOTER = """<footer class="site-footer"><p>Copyright 2025. <a href="/privacy">Privacy</a> ·
<a href="/terms">Terms</a></p></footer>"""


def _page(title: str, head: str, body: str) -> str:
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>{head}</head>
<body>{NAV}{body}{FOOTER}</body></html>"""


def article(host: str, n: int) -> tuple[str, str]:
    url = f"https://{host}/2025/03/{n + 10}/river-park-plan-approved-after-long-debate-{n}"
    head = f"""<meta property="og:type" content="article"><link rel="canonical" href="{url}">
<meta property="article:published_time" content="2025-03-{n + 10}T09:00:00Z"><meta name="author" content="Ann Lee">
<script type="application/ld+json">{{"@context":"https://schema.org","@type":"NewsArticle","headline":"River park"}}</script>"""
    paragraphs = "".join(f"<p>{PARAGRAPH} Part {i} of the story, number {n}.</p>" for i in range(6))
    body = f"""<main><article class="post-content"><h1>River park plan approved after a long debate</h1>
<p class="byline">By Ann Lee · <time datetime="2025-03-{n + 10}">March {n + 10}, 2025</time></p>
{paragraphs}</article>
<section class="comments"><h3>3 comments</h3><div class="comment"><p>Great news for the town!</p></div></section>
</main>"""
    return url, _page(f"River park plan approved after a long debate {n} | City News", head, body)


def forum(host: str, n: int) -> tuple[str, str]:
    url = f"https://forum.{host}/t/my-router-drops-the-connection-every-night/{48000 + n}"
    posts = "".join(
        f"""<div class="topic-post post" id="post_{i}"><div class="post-author"><a href="/u/user{i}">user{i}</a>
<span class="post-date">Mar {i + 3}, 2025</span></div><div class="post-body cooked"><p>{PARAGRAPH[: 120 + 30 * i]}
I tried resetting it {i} times already.</p></div><div class="post-actions"><button class="reply">Reply</button>
<button class="like">Like</button></div></div>"""
        for i in range(7)
    )
    head = """<meta name="generator" content="Discourse 3.2"><meta property="og:type" content="website">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Router"}</script>"""
    body = f"""<main><h1>My router drops the connection every night</h1>
<div class="topic-meta"><a href="/c/networking">Networking</a> · 7 replies · 1.2k views</div>
<div class="post-stream">{posts}</div><a href="/latest">Latest topics</a></main>"""
    return url, _page(f"My router drops the connection every night - Networking - Community Forum {n}", head, body)


def product(host: str, n: int) -> tuple[str, str]:
    url = f"https://shop.{host}/products/merino-wool-hiking-socks-{n}"
    head = """<meta property="og:type" content="product">
<meta property="product:price:amount" content="18.00"><meta property="product:price:currency" content="USD">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Socks",
"offers":{"@type":"Offer","price":"18.00","priceCurrency":"USD"},
"aggregateRating":{"@type":"AggregateRating","ratingValue":"4.7","reviewCount":"212"}}</script>"""
    body = f"""<main class="product-page"><div class="breadcrumb"><a href="/">Home</a> / <a href="/collections/socks">Socks</a></div>
<div class="product-gallery"><img src="/img/sock-{n}.jpg" alt="Merino wool hiking socks"></div>
<div class="product-info"><h1 class="product-title">Merino Wool Hiking Socks</h1>
<div class="product-rating">★★★★★ 4.7 out of 5 (212 reviews)</div><div class="price">$18.00</div>
<form class="add-to-cart" action="/cart/add"><label>Size</label><select name="size"><option>S</option>
<option>M</option><option>L</option></select><input type="number" name="quantity" value="1">
<button type="submit" class="add-to-cart-button">Add to cart</button></form>
<div class="product-description"><h2>Description</h2><p>Cushioned merino socks for long days on the trail,
with a reinforced heel and toe. Made from soft wool that keeps feet dry and warm, pair {n}.</p></div>
<div class="product-specs"><h2>Specifications</h2><table><tr><td>Material</td><td>70% merino wool</td></tr>
<tr><td>Weight</td><td>Midweight</td></tr></table></div></div>
<section class="reviews"><h2>Customer reviews</h2><div class="review"><p>Warm and comfy.</p></div></section></main>"""
    return url, _page(f"Merino Wool Hiking Socks {n} – Trail Outfitters", head, body)


def collection(host: str, n: int) -> tuple[str, str]:
    url = f"https://shop.{host}/collections/hiking-socks"
    cards = "".join(
        f"""<li class="product-card grid__item"><a href="/products/sock-{i}"><img src="/img/s{i}.jpg" alt="">
<h3 class="card__title">Trail Sock {i}</h3></a><span class="price">${12 + i}.00</span>
<span class="rating">★★★★☆ {20 + i} reviews</span><button class="quick-add">Add to cart</button></li>"""
        for i in range(12)
    )
    head = """<meta property="og:type" content="website">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"CollectionPage","name":"Socks"}</script>"""
    body = f"""<div class="shop-header"><a href="/collections/all">Shop all</a> <a href="/account">Account</a>
<a class="cart-link" href="/cart">Cart (0)</a></div>
<main class="collection"><h1>Hiking Socks</h1><p class="collection-description">Socks for every trail {n}.</p>
<div class="facets"><form class="filters"><h2>Filter</h2><label><input type="checkbox" name="size"> Small</label>
<label><input type="checkbox" name="size"> Large</label><select name="sort_by"><option>Best selling</option>
<option>Price, low to high</option></select></form></div>
<ul class="product-grid">{cards}</ul><nav class="pagination"><a href="?page=2">2</a><a href="?page=3">3</a></nav></main>"""
    return url, _page(f"Shop Hiking Socks {n} – Trail Outfitters", head, body)


def listing(host: str, n: int) -> tuple[str, str]:
    url = f"https://{host}/blog/"
    entries = "".join(
        f"""<article class="post-card"><h2 class="entry-title"><a href="/blog/2025/post-title-number-{i}">News story
number {i} about the town</a></h2><div class="entry-meta"><time datetime="2025-02-{i + 1:02d}">February {i + 1}, 2025</time>
by Staff</div><p class="excerpt">A short summary of story {i}, with the first lines of the post.</p>
<a class="read-more" href="/blog/2025/post-title-number-{i}">Read more</a></article>"""
        for i in range(10)
    )
    head = """<meta property="og:type" content="website">"""
    body = f"""<main class="blog-index"><h1>Latest news {n}</h1>{entries}
<nav class="pagination"><a href="/blog/page/2/">Older posts</a></nav></main>
<aside class="sidebar"><h3>Categories</h3><ul><li><a href="/category/town/">Town</a></li></ul></aside>"""
    return url, _page(f"Blog {n} – Town Herald", head, body)


def documentation(host: str, n: int) -> tuple[str, str]:
    url = f"https://docs.{host}/docs/getting-started/installation"
    side = "".join(f'<li><a href="/docs/guide/topic-{i}">Topic {i}</a></li>' for i in range(14))
    body = f"""<div class="docs-layout"><aside class="sidebar docs-sidebar"><nav class="menu"><ul>{side}</ul></nav></aside>
<main class="docs-content"><nav class="breadcrumbs"><a href="/docs">Docs</a> › Getting started</nav>
<article class="markdown"><h1>Installation</h1><p>Install the client library with the package manager, then
configure your API key as shown below. Version {n} needs Python 3.10 or newer.</p>
<h2 id="install">Install the package</h2><pre><code class="language-bash">pip install example-client=={n}.0
example-client --version</code></pre>
<h2 id="configure">Configure</h2><p>Set the <code>EXAMPLE_API_KEY</code> environment variable or pass the key
to the <code>Client</code> constructor.</p><pre><code class="language-python">from example_client import Client
client = Client(api_key="...")
print(client.status())</code></pre>
<h2 id="next">Next steps</h2><p>Read the <a href="/docs/guide/topic-1">quickstart guide</a>.</p></article>
<nav class="table-of-contents"><h4>On this page</h4><ul><li><a href="#install">Install</a></li>
<li><a href="#configure">Configure</a></li></ul></nav></main></div>"""
    return url, _page(f"Installation | Example Client Documentation {n}", "", body)


def service(host: str, n: int) -> tuple[str, str]:
    url = f"https://www.{host}/services/cloud-consulting/"
    features = "".join(
        f"""<div class="feature-card"><h3>Benefit {i}</h3><p>We help your team move faster with a clear plan
and hands-on support for step {i}.</p></div>"""
        for i in range(4)
    )
    head = """<meta property="og:type" content="website">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Service","name":"Cloud consulting"}</script>"""
    body = f"""<main><section class="hero"><h1>Cloud consulting services</h1><p>Plan, migrate and run your
workloads with certified experts {n}.</p><a class="btn btn-primary" href="/contact">Get a free quote</a></section>
<section class="features"><h2>Why choose us</h2>{features}</section>
<section class="process"><h2>How we work</h2><ol><li>Discovery call</li><li>Assessment</li><li>Migration</li></ol></section>
<section class="testimonials"><h2>What our clients say</h2><blockquote>They made our move painless.</blockquote></section>
<section class="cta"><h2>Ready to get started?</h2><a class="button" href="/contact">Contact us</a>
<button class="btn">Book a demo</button></section></main>"""
    return url, _page(f"Cloud Consulting Services {n} | Acme Solutions", head, body)


def no_content(host: str, n: int) -> tuple[str, str]:
    """A page drawn by script: its saved HTML holds the shop's frame and an empty mount point."""
    url = f"https://www.{host}/p/standing-desk-pro-{n}"
    state = ", ".join(f'"k{i}": "{"x" * 60}"' for i in range(200))
    head = f"""<meta property="og:type" content="product"><meta name="next-head-count" content="12">
<meta name="robots" content="index,follow"><script id="__NEXT_DATA__" type="application/json">{{{state}}}</script>
<script src="/_next/static/chunks/main-{n}.js"></script>"""
    body = f"""<div id="__next"><div class="overlay"></div><div class="app-loading">Loading…</div></div>
<div class="newsletter"><a href="/subscribe">Subscribe</a></div><script>window.__APP_STATE__ = {{{state}}};</script>"""
    return url, _page(f"Standing Desk Pro {n} | Buy now", head, body)


BUILDERS = {
    "article": article,
    "forum": forum,
    "product": product,
    "collection": collection,
    "listing": listing,
    "documentation": documentation,
    "service": service,
    "no_content": no_content,
}
