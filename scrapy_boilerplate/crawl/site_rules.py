"""BOILERPLATE_SITE_RULES: a user's CSS selectors per domain, which win over what the crawl learns.

The setting maps a domain to ``{"content": [...], "boilerplate": [...]}`` (either list may be left
out), in the settings or in a JSON file it names.  A domain's selectors are a parameter of every
model that cleans its pages (``pinned``): its templates' fits, and the single-page model that cleans
its pages before any fit, so they apply from the first page on, without a sample.  The model
decides the blocks they reach by them, before anything it learned; a model that takes no pinned
selectors is a bad setting.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from scrapy_boilerplate.crawl.domain import domain_of
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.templating import key_domain
from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.models.spec import ModelSpec

PINNED_PARAMETER = "pinned"

SiteRulesSetting = dict[str, dict[str, list[str]]]  # domain -> {"content": [...], "boilerplate": [...]}


def read_site_rules(value: Any) -> SiteRulesSetting:
    """BOILERPLATE_SITE_RULES as domain -> selector lists: from a mapping, or a JSON file's path;
    ``ValueError`` saying what is wrong (a bad selector included)."""
    if value in (None, "", {}):
        return {}
    if isinstance(value, (str, Path)):
        try:
            value = json.loads(Path(value).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"cannot read the site rules file: {exc}") from None
    if not isinstance(value, Mapping):
        raise ValueError("must map each domain to {'content': [...], 'boilerplate': [...]}, or name a JSON file")
    # imported here: fusion's package loads numpy, which a crawl without pinned selectors never needs
    from scrapy_boilerplate.models.fusion.siterules.selectors import PinnedRules

    rules: SiteRulesSetting = {}
    for domain, selectors in value.items():
        if not isinstance(domain, str) or not domain.strip() or not isinstance(selectors, Mapping):
            raise ValueError(f"{domain!r} must be a domain mapped to {{'content': [...], 'boilerplate': [...]}}")
        pinned = PinnedRules.from_mapping(selectors)  # a bad selector raises here, naming it
        rules[domain_of(f"//{domain.strip()}")] = {
            "content": list(pinned.content),
            "boilerplate": list(pinned.boilerplate),
        }
    return rules


def pinned_spec(spec: ModelSpec, selectors: dict[str, list[str]]) -> ModelSpec:
    """``spec`` with a domain's pinned selectors as its ``pinned`` parameter."""
    return replace(spec, params={**spec.params, PINNED_PARAMETER: selectors})


def check_takes_pinned(spec: ModelSpec, rules: SiteRulesSetting) -> None:
    """``ValueError`` when ``spec``'s model takes no pinned selectors (and some domain has them)."""
    if rules:
        pinned_spec(spec, next(iter(rules.values()))).create()


class SiteSpecs:
    """The model spec of each site key (its domain's pinned selectors added), and each domain's
    single-page model (fitted on no sample; one per domain with pinned selectors)."""

    def __init__(self, model: ModelSpec, fallback: ModelSpec, rules: SiteRulesSetting) -> None:
        self.model = model
        self.fallback_spec = fallback
        self.rules = rules
        self._fallback = fallback.create().fit([])
        self._pinned_fallbacks: dict[str, SiteModel] = {}

    def spec(self, key: SiteKey) -> ModelSpec:
        """The spec that fits ``key``'s model."""
        selectors = self.rules.get(key_domain(key))
        return self.model if selectors is None else pinned_spec(self.model, selectors)

    def fallback(self, key: SiteKey) -> SiteModel:
        """The single-page model of ``key``'s domain."""
        domain = key_domain(key)
        selectors = self.rules.get(domain)
        if selectors is None:
            return self._fallback
        model = self._pinned_fallbacks.get(domain)
        if model is None:
            model = self._pinned_fallbacks[domain] = pinned_spec(self.fallback_spec, selectors).create().fit([])
        return model
