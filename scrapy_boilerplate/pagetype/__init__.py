"""What kind of page it is: article, forum, product, collection, listing, documentation, service,
or a page with no main content.

A gradient-boosted classifier over what the page says of itself (its address, its structured
data, the words of its template) and what its markup shows (repeated cards, code, forms, prices,
headings, how its text is spread), trained on labelled pages and shipped as JSON weights.  This
package's own names are light (no numpy): :func:`tell_page_type` loads the classifier
(:mod:`.classify`) on the first page it is asked about.
"""

from scrapy_boilerplate.models.base import PageType
from scrapy_boilerplate.pagetype.labels import NO_CONTENT, PAGE_TYPES
from scrapy_boilerplate.pagetype.tell import tell_page_type

__all__ = ["NO_CONTENT", "PAGE_TYPES", "PageType", "tell_page_type"]
