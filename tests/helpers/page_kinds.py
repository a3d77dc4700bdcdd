"""Small pages of three kinds written by hand for fusion's tests, each with the part whose fate depends
on the kind of page: a Q&A page's answers (content), an article's reader comments (not content), a
listing's entries (content) beside its filters and sort controls (not)."""

from __future__ import annotations

from scrapy_boilerplate.page import Page

_HEADER = """<header class="site-header"><a class="logo" href="/">{site}</a>
<nav class="top-nav"><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li>
<li><a href="/contact">Contact</a></li><li><a href="/login">Log in</a></li></ul></nav></header>"""
_FOOTER = """<footer class="site-footer"><p>Copyright {site}. All rights reserved.</p>
<ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms of use</a></li></ul></footer>"""

QUESTION = (
    "I keep a small garden shed and the door swells every winter until it no longer closes. "
    "I have tried planing the edge, but it swells again the next year. What can I do so that it stays square?"
)
ANSWERS = [
    "The wood takes up moisture through its end grain, which is almost certainly bare at the bottom of the door. "
    "Take the door off, let it dry indoors for a week, then seal all four edges with two coats of exterior paint. "
    "Planing only removes the swelling of one season; sealing the edges stops the water from getting in at all.",
    "Check the hinges before you blame the wood. A sagging top hinge drops the far corner of the door onto the "
    "frame, and that looks exactly like swelling. Replace the short screws in the top hinge with long ones that "
    "reach the stud, and the door will often close again without any planing.",
    "If the shed has no gutter, rain runs straight down the face of the door and soaks the bottom rail. "
    "A short drip cap above the door and a gutter along the roof edge kept ours dry for years. "
    "It costs less than a new door and it protects the frame as well.",
]
RELATED = ["How do I fix a sticking window?", "Best paint for a wooden fence?", "Why does my gate sag?"]


def qa_page() -> Page:
    """A question with three answers, each with its votes and author, and related questions beside."""
    answers = "".join(
        f"""<div class="answer" id="answer-{i}"><div class="votes"><button>Up</button><span>{12 - i}</span>
        <button>Down</button></div><div class="answer-body"><p>{text}</p></div>
        <div class="user-info">answered by <a href="/users/{i}">gardener{i}</a></div></div>"""
        for i, text in enumerate(ANSWERS)
    )
    related = "".join(f'<li><a href="/q/{i}">{title}</a></li>' for i, title in enumerate(RELATED))
    html = f"""<html><head><title>How do I stop a shed door from swelling? - Home Improvement</title></head><body>
    {_HEADER.format(site="Home Improvement")}
    <div id="content"><div id="question-header"><h1>How do I stop a shed door from swelling?</h1></div>
    <div class="question"><div class="votes"><button>Up</button><span>25</span><button>Down</button></div>
    <div class="post-text"><p>{QUESTION}</p></div><div class="tags"><a href="/t/doors">doors</a>
    <a href="/t/wood">wood</a></div></div>
    <h2>{len(ANSWERS)} Answers</h2><div id="answers">{answers}</div></div>
    <aside class="sidebar"><h3>Related questions</h3><ul>{related}</ul></aside>
    {_FOOTER.format(site="Home Improvement")}</body></html>"""
    return Page(html, "https://diy.example/questions/101/shed-door")


ARTICLE = [
    "The regional rail company will replace its oldest trains by the end of next year, its chief executive said on Monday.",
    "The new trains carry a third more passengers and use less energy on the steep line through the hills.",
    "Commuters have complained for years about breakdowns on the route, which serves eleven towns.",
    "The company said that fares would not rise to pay for the trains, which are funded by the state.",
    "Work on the depot where the trains will be kept starts in the spring and should take eight months.",
]
COMMENTS = [
    "About time too. I have been stuck on that line three times this month and nobody ever tells us anything.",
    "I will believe it when I see it. They promised new trains five years ago and nothing happened at all.",
    "Does anyone know whether the new trains will have space for bicycles? That would make a huge difference.",
]


def article_page() -> Page:
    """A news article followed by readers' comments and a comment form."""
    story = "".join(f"<p>{text}</p>" for text in ARTICLE)
    comments = "".join(
        f"""<li class="comment"><div class="comment-author"><a href="/u/{i}">reader{i}</a>
        <time>2 hours ago</time></div><div class="comment-body"><p>{text}</p></div>
        <a class="reply" href="#reply">Reply</a></li>"""
        for i, text in enumerate(COMMENTS)
    )
    html = f"""<html><head><title>New trains for the hill line - Valley News</title></head><body>
    {_HEADER.format(site="Valley News")}
    <article class="story"><h1>New trains for the hill line</h1>
    <div class="byline">By Anna Berg, transport reporter</div>{story}</article>
    <section class="comments"><h2>{len(COMMENTS)} Comments</h2><ol class="comment-list">{comments}</ol>
    <form class="comment-form"><label>Leave a comment</label><textarea></textarea>
    <button>Post comment</button></form></section>
    {_FOOTER.format(site="Valley News")}</body></html>"""
    return Page(html, "https://valley-news.example/2024/trains")


ENTRIES = [
    (
        "Bright two-room flat near the park",
        "A quiet flat on the third floor with a balcony facing the park, "
        "a new kitchen and a cellar room. Close to the tram and the schools.",
    ),
    (
        "Family house with a large garden",
        "Four bedrooms, two bathrooms and a garden with fruit trees. "
        "The house was renovated last year and has a new roof and heating.",
    ),
    (
        "Studio in the old town",
        "A compact studio under the roof of a listed building, furnished, "
        "with a view over the market square. Ideal for a student or a weekend home.",
    ),
    (
        "Loft in a former factory",
        "An open loft with high ceilings and large steel windows in a converted "
        "brick factory by the river, with a shared roof terrace and bicycle storage.",
    ),
    (
        "Terraced house close to the station",
        "Three bedrooms over two floors, a small yard and a garage. "
        "Five minutes on foot to the station and the shops of the main street.",
    ),
]
FILTERS = ["Apartment", "Detached", "Pets allowed", "Lift", "Parking space", "Wheelchair access", "Cellar", "Furnished"]


def listing_page() -> Page:
    """Search results of a property site: filters and sort controls beside five entries, then pages."""
    entries = "".join(
        f"""<li class="result"><h3><a href="/homes/{i}">{title}</a></h3><p class="summary">{text}</p>
        <div class="meta"><span class="price">{250 + 40 * i},000</span> <span>{60 + 15 * i} m2</span></div></li>"""
        for i, (title, text) in enumerate(ENTRIES)
    )
    filters = "".join(f'<label><input type="checkbox" name="f{i}">{name}</label>' for i, name in enumerate(FILTERS))
    html = f"""<html><head><title>Homes for sale in Riverton - Home Finder</title></head><body>
    {_HEADER.format(site="Home Finder")}
    <aside class="filters"><h2>Filter results</h2><form class="facets"><fieldset><legend>Type</legend>{filters}
    </fieldset><label>Price up to <select><option>200,000</option><option>400,000</option></select></label>
    <button>Apply filters</button></form></aside>
    <main><h1>Homes for sale in Riverton</h1><div class="sort">Sort by <select><option>Newest</option>
    <option>Price</option></select></div><ul class="results">{entries}</ul>
    <nav class="pagination"><a href="?p=1">1</a> <a href="?p=2">2</a> <a href="?p=3">3</a> <a href="?p=2">Next</a></nav></main>
    {_FOOTER.format(site="Home Finder")}</body></html>"""
    return Page(html, "https://homefinder.example/search/riverton")
