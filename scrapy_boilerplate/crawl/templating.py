"""Which template of its domain a crawled page belongs to: the site key its sample, fit and model go by.

A domain's pages are grouped by the skeleton of their markup (:mod:`scrapy_boilerplate.templates`):
each template has a key of its own (``domain#` and a digest of its first page's structure
signature), so a shop's product pages get a fit of their own, apart from its home and category
pages.  A domain takes at most ``BOILERPLATE_MAX_TEMPLATES`` templates; a page like none of them
once the cap is reached has no template: its key is the domain's :func:`unmatched_key`, which never
samples, and the single-page model cleans it.
With a cap of 1, a domain is one template keyed by the domain itself, and no page is parsed here.

The templates a store holds for a domain come back when the crawl first sees the domain, in the
order of their keys, so a page of a stored template takes its stored model.  A page's key is found
once (by the sampling middleware, or the pipeline) and remembered by URL for the other.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from scrapy_boilerplate.crawl.domain import domain_of
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.templates import Signature, TemplateGroups, structure_signature

TEMPLATE_MARK = "#"  # between a domain and its template's digest in a site key
UNMATCHED = "other"  # after the mark: a page whose domain has its cap of templates and which matches none
KEYS_REMEMBERED = 4096  # pages whose key is remembered by URL (the middleware finds it, the pipeline reads it)

# The templates stored for a domain: (site key, the template's structure signature).
StoredTemplates = Callable[[str], Sequence[tuple[SiteKey, Signature]]]


def template_key(domain: str, signature: Signature) -> SiteKey:
    """The site key of ``domain``'s template whose first page has ``signature``."""
    digest = zlib.crc32(b",".join(str(n).encode() for n in sorted(signature)))
    return f"{domain}{TEMPLATE_MARK}{digest:08x}"


def unmatched_key(domain: str) -> SiteKey:
    """The key of ``domain``'s pages that match none of its templates once it has its cap of them."""
    return f"{domain}{TEMPLATE_MARK}{UNMATCHED}"


def is_unmatched(key: SiteKey) -> bool:
    """True for the key of pages that belong to no template (see :func:`unmatched_key`)."""
    return key.endswith(TEMPLATE_MARK + UNMATCHED)


def key_domain(key: SiteKey) -> str:
    """The domain of a site key (the key itself when it is a domain's only template)."""
    return key.partition(TEMPLATE_MARK)[0]


def page_signature(page: Page) -> Signature:
    """``page``'s structure signature (parses it, unless it was)."""
    return structure_signature(page.body)


@dataclass
class _DomainTemplates:
    groups: TemplateGroups
    keys: list[SiteKey] = field(default_factory=list)


class PageTemplates:
    """Each page's site key: its domain's template (see the module docstring)."""

    def __init__(
        self,
        max_templates: int,
        stored: StoredTemplates | None = None,
        found: Callable[[SiteKey, str, int], None] | None = None,
    ) -> None:
        """``stored(domain)``: the domain's templates in the store (called once per domain);
        ``found(key, url, count)``: a new template ``key`` was found on the page at ``url``, its
        domain's ``count``-th (this crawl's and the stored ones)."""
        self.max_templates = max_templates
        self.stored = stored or (lambda domain: ())
        self.found = found or (lambda key, url, count: None)
        self._domains: dict[str, _DomainTemplates] = {}
        self._by_url: OrderedDict[str, SiteKey] = OrderedDict()

    @property
    def grouping(self) -> bool:
        """True when a domain may have several templates (a page is then parsed to tell which)."""
        return self.max_templates > 1

    def known(self, url: str) -> SiteKey | None:
        """The key found for the page at ``url`` (None: not found yet)."""
        if not self.grouping:
            return domain_of(url)
        return self._by_url.get(url)

    def key(self, page: Page) -> SiteKey:
        """The key of ``page``: its domain's template, or its :func:`unmatched_key` (found once per URL)."""
        found = self.known(page.url)
        if found is not None:
            return found
        domain = domain_of(page.url)
        templates = self._domain(domain)
        signature = page_signature(page)
        index = templates.groups.assign(signature)
        if index is None:
            key = unmatched_key(domain)
        else:
            if index == len(templates.keys):  # a new template
                templates.keys.append(template_key(domain, signature))
                self.found(templates.keys[index], page.url, len(templates.keys))
            key = templates.keys[index]
        self._remember(page.url, key)
        return key

    def templates(self, domain: str) -> list[SiteKey]:
        """The keys of ``domain``'s templates found so far (stored ones included)."""
        found = self._domains.get(domain)
        return list(found.keys) if found is not None else []

    def _domain(self, domain: str) -> _DomainTemplates:
        templates = self._domains.get(domain)
        if templates is None:
            stored = sorted(self.stored(domain))[: self.max_templates]
            groups = TemplateGroups([signature for _, signature in stored], cap=self.max_templates)
            templates = self._domains[domain] = _DomainTemplates(groups, [key for key, _ in stored])
        return templates

    def _remember(self, url: str, key: SiteKey) -> None:
        self._by_url[url] = key
        if len(self._by_url) > KEYS_REMEMBERED:
            self._by_url.popitem(last=False)
