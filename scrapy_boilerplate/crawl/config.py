"""Every ``BOILERPLATE_*`` setting, read and validated in one place (the crawl's single config)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from scrapy.exceptions import NotConfigured
from scrapy.settings import BaseSettings

from scrapy_boilerplate.crawl.errors import bad_setting
from scrapy_boilerplate.crawl.setting_names import warn_unknown_settings
from scrapy_boilerplate.crawl.site_rules import SiteRulesSetting, check_takes_pinned, read_site_rules
from scrapy_boilerplate.models.spec import ModelSpec

# The site model used when BOILERPLATE_MODEL is not set; the lead switches it to the best measured.
DEFAULT_MODEL = "fusion"
DEFAULT_FALLBACK_MODEL = "fusion"

logger = logging.getLogger(__name__)

# Per-request opt-out: ``Request(url, meta={DONT_CLEAN_META: True})``.
DONT_CLEAN_META = "dont_clean_boilerplate"

# Waiting items pin their responses in Scrapy's scraper slot (at least 1,024 bytes each); above
# SCRAPER_SLOT_MAX_ACTIVE_SIZE the engine stops pulling requests.  The add-on raises that setting
# by the hold's byte cap over Scrapy's default, so the items that do not wait keep this much room.
SCRAPY_SLOT_DEFAULT = 5_000_000
SLOT_ROOM_FOR_OTHER_ITEMS = SCRAPY_SLOT_DEFAULT // 2
MIN_HOLD_BYTES = 1_000_000  # below this, too few real pages could wait to be worth it


@dataclass(frozen=True)
class SettingDoc:
    """One setting's public documentation: default and meaning (the docs test compares these)."""

    default: Any
    meaning: str


SETTINGS: dict[str, SettingDoc] = {
    "BOILERPLATE_ENABLED": SettingDoc(True, "Turn the plugin on or off."),
    "BOILERPLATE_MODEL": SettingDoc(DEFAULT_MODEL, "Site model spec, `NAME[:param=value...]`, fitted per domain."),
    "BOILERPLATE_SAMPLE_SIZE": SettingDoc(3, "HTML pages sampled per domain before its model is fitted."),
    "BOILERPLATE_MIN_SAMPLE_SIZE": SettingDoc(
        2, "When the crawl stops before a domain's sample is full, fit it on the pages it has if at least this many."
    ),
    "BOILERPLATE_FALLBACK_MODEL": SettingDoc(
        DEFAULT_FALLBACK_MODEL, "Single-page model for domains without a fitted model."
    ),
    "BOILERPLATE_SITE_RULES": SettingDoc(
        {},
        "CSS selectors per domain, {DOMAIN: {'content': [...], 'boilerplate': [...]}} or a JSON file of it: the "
        "blocks they reach are decided by them, over what the model learned, from the domain's first page.",
    ),
    "BOILERPLATE_HTML_FIELD": SettingDoc("html", "Item field holding the page HTML."),
    "BOILERPLATE_URL_FIELD": SettingDoc("url", "Item field holding the page URL (gives the domain)."),
    "BOILERPLATE_TEXT_FIELD": SettingDoc("text", "Item field that receives the main text."),
    "BOILERPLATE_CLEANED_HTML_FIELD": SettingDoc(
        None, "Item field that receives the cleaned HTML (unset: not written)."
    ),
    "BOILERPLATE_MARKDOWN_FIELD": SettingDoc(
        None, "Item field that receives the cleaned content as Markdown (unset: not written; needs the markdown extra)."
    ),
    "BOILERPLATE_TITLE_FIELD": SettingDoc(None, "Item field that receives the page's title (unset: not written)."),
    "BOILERPLATE_AUTHOR_FIELD": SettingDoc(None, "Item field that receives the page's author (unset: not written)."),
    "BOILERPLATE_PUBLISHED_FIELD": SettingDoc(
        None, "Item field that receives the page's publication date, YYYY-MM-DD (unset: not written)."
    ),
    "BOILERPLATE_LANGUAGE_FIELD": SettingDoc(
        None, "Item field that receives the page's declared language (unset: not written)."
    ),
    "BOILERPLATE_PAGE_TYPE_FIELD": SettingDoc(
        None, "Item field that receives the page's type, article to no_content (unset: not written)."
    ),
    "BOILERPLATE_MODEL_FIELD": SettingDoc(
        "boilerplate_model", "Item field naming the model that cleaned the item (unset: not written)."
    ),
    "BOILERPLATE_MAX_PAGE_BYTES": SettingDoc(5_000_000, "Larger pages are neither sampled nor cleaned."),
    "BOILERPLATE_MAX_SAMPLING_DOMAINS": SettingDoc(
        1_000, "Most domains with a partial sample at once; the one fed least recently then falls back."
    ),
    "BOILERPLATE_MAX_TEMPLATES": SettingDoc(
        8,
        "Most page templates per domain, each with its own sample and fit; pages like none of them are cleaned "
        "by the single-page model (1: one model per domain).",
    ),
    "BOILERPLATE_MODELS_IN_MEMORY": SettingDoc(
        100,
        "Most fitted models kept in memory; the least recently used others are reloaded from the store when needed.",
    ),
    "BOILERPLATE_HOLD_MAX_ITEMS": SettingDoc(2_000, "Most items waiting at once for their domain's model."),
    "BOILERPLATE_HOLD_MAX_BYTES": SettingDoc(
        100_000_000, "Most response bytes waiting at once; the add-on raises SCRAPER_SLOT_MAX_ACTIVE_SIZE by this."
    ),
    "BOILERPLATE_HOLD_TIMEOUT": SettingDoc(
        60.0,
        "Seconds an item may wait without its domain's model coming closer (a new sample page, a fit done ahead "
        "of its own) before the fallback cleans it.",
    ),
    "BOILERPLATE_QUIET_SECONDS": SettingDoc(
        1.0, "Seconds the crawl must be quiet (only held items left) before they are released."
    ),
    "BOILERPLATE_DROP_HTML": SettingDoc(False, "Remove the HTML field from items once they are cleaned."),
    "BOILERPLATE_CLEAN_IN_THREAD": SettingDoc(
        True, "Clean items in the reactor thread pool instead of the reactor thread."
    ),
    "BOILERPLATE_STORE": SettingDoc(
        None, "Where fitted models persist: a directory, or a redis:// URL, or redis (scrapy-redis's REDIS_* settings)."
    ),
    "BOILERPLATE_STORE_PREFIX": SettingDoc("boilerplate", "Prefix of the store's Redis keys."),
    "BOILERPLATE_STORE_REQUIRED": SettingDoc(
        False,
        "Stop the crawl (exit status 1) when the model store cannot be used at start, instead of going on "
        "with models kept in memory only.",
    ),
    "BOILERPLATE_FIT_LOCK_TTL": SettingDoc(
        120.0, "Seconds a worker may hold a domain's fit lock before another takes over."
    ),
    "BOILERPLATE_STORE_POLL": SettingDoc(
        1.0, "Seconds between checks of a shared (Redis) store for other workers' samples and models."
    ),
    "BOILERPLATE_WORKER_TIMEOUT": SettingDoc(
        10.0, "Seconds without a worker's heartbeat before another worker takes over its waiting items (Redis store)."
    ),
    "BOILERPLATE_DRIFT_ENABLED": SettingDoc(True, "Watch each domain for template changes and re-fit its model."),
    "BOILERPLATE_DRIFT_WINDOW": SettingDoc(20, "Measured pages per domain compared with the fit-time baseline."),
    "BOILERPLATE_DRIFT_TOLERANCE": SettingDoc(
        0.25, "Departure from the baseline (share of page text) that means the template changed."
    ),
    "BOILERPLATE_DRIFT_EVERY": SettingDoc(4, "Measure one cleaned page in this many for drift."),
    "BOILERPLATE_INLINE_CLEAN_MS": SettingDoc(
        10.0, "With cleaning in threads, a model whose cleans average less CPU time than this runs inline."
    ),
}


@dataclass(frozen=True)
class BoilerplateConfig:
    """The validated plugin configuration; built once per crawler by :meth:`from_settings`."""

    model: ModelSpec
    sample_size: int
    min_sample_size: int
    fallback: ModelSpec
    html_field: str
    url_field: str
    text_field: str
    cleaned_html_field: str | None
    model_field: str | None
    max_page_bytes: int
    max_sampling_domains: int
    hold_max_items: int
    hold_max_bytes: int
    hold_timeout: float
    quiet_seconds: float
    clean_in_thread: bool
    drop_html: bool = False
    store: str | None = None
    store_prefix: str = "boilerplate"
    store_required: bool = False
    fit_lock_ttl: float = 120.0
    store_poll: float = 1.0
    worker_timeout: float = 10.0
    drift_enabled: bool = True
    drift_window: int = 20
    drift_tolerance: float = 0.25
    drift_every: int = 4
    inline_clean_ms: float = 10.0
    max_templates: int = 8
    models_in_memory: int = 100
    site_rules: SiteRulesSetting = field(default_factory=dict)
    # markdown, title, author, published, language, page_type -> the item field receiving it
    record_fields: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> BoilerplateConfig:
        """Read every setting; raise ``NotConfigured`` when disabled, :class:`BadSettingError` naming a bad one."""
        if not _get(settings, "BOILERPLATE_ENABLED", settings.getbool, "True or False"):
            raise NotConfigured("BOILERPLATE_ENABLED is False")
        warn_unknown_settings(settings, SETTINGS)
        hold_max_bytes = _hold_max_bytes(settings)
        return cls(
            model=_model_spec(settings, "BOILERPLATE_MODEL"),
            sample_size=_positive_int(settings, "BOILERPLATE_SAMPLE_SIZE"),
            min_sample_size=_positive_int(settings, "BOILERPLATE_MIN_SAMPLE_SIZE"),
            fallback=_fallback_spec(settings),
            html_field=_field(settings, "BOILERPLATE_HTML_FIELD"),
            url_field=_field(settings, "BOILERPLATE_URL_FIELD"),
            text_field=_field(settings, "BOILERPLATE_TEXT_FIELD"),
            cleaned_html_field=_optional_field(settings, "BOILERPLATE_CLEANED_HTML_FIELD"),
            model_field=_optional_field(settings, "BOILERPLATE_MODEL_FIELD"),
            max_page_bytes=_positive_int(settings, "BOILERPLATE_MAX_PAGE_BYTES"),
            max_sampling_domains=_positive_int(settings, "BOILERPLATE_MAX_SAMPLING_DOMAINS"),
            hold_max_items=_positive_int(settings, "BOILERPLATE_HOLD_MAX_ITEMS"),
            hold_max_bytes=hold_max_bytes,
            hold_timeout=_positive_float(settings, "BOILERPLATE_HOLD_TIMEOUT"),
            quiet_seconds=_positive_float(settings, "BOILERPLATE_QUIET_SECONDS"),
            drop_html=_get(settings, "BOILERPLATE_DROP_HTML", settings.getbool, "True or False"),
            clean_in_thread=_get(settings, "BOILERPLATE_CLEAN_IN_THREAD", settings.getbool, "True or False"),
            store=_store(settings),
            store_prefix=_prefix(settings),
            store_required=_get(settings, "BOILERPLATE_STORE_REQUIRED", settings.getbool, "True or False"),
            fit_lock_ttl=_positive_float(settings, "BOILERPLATE_FIT_LOCK_TTL"),
            store_poll=_positive_float(settings, "BOILERPLATE_STORE_POLL"),
            worker_timeout=_positive_float(settings, "BOILERPLATE_WORKER_TIMEOUT"),
            drift_enabled=_get(settings, "BOILERPLATE_DRIFT_ENABLED", settings.getbool, "True or False"),
            drift_window=_positive_int(settings, "BOILERPLATE_DRIFT_WINDOW"),
            drift_tolerance=_share(settings, "BOILERPLATE_DRIFT_TOLERANCE"),
            drift_every=_positive_int(settings, "BOILERPLATE_DRIFT_EVERY"),
            inline_clean_ms=_positive_float(settings, "BOILERPLATE_INLINE_CLEAN_MS"),
            max_templates=_positive_int(settings, "BOILERPLATE_MAX_TEMPLATES"),
            models_in_memory=_positive_int(settings, "BOILERPLATE_MODELS_IN_MEMORY"),
            site_rules=_site_rules(settings),
            record_fields=_record_fields(settings),
        )

    @property
    def record_names(self) -> tuple[str, ...]:
        """The record fields asked for (markdown, title, ...), by their own names."""
        return tuple(name for name, _ in self.record_fields)

    @property
    def output_fields(self) -> tuple[str, ...]:
        """Item fields the pipeline writes (each must be declared on ``scrapy.Item`` classes)."""
        fields = (self.text_field, self.cleaned_html_field, self.model_field, *(f for _, f in self.record_fields))
        return tuple(f for f in fields if f)


RECORD_SETTINGS: dict[str, str] = {
    "markdown": "BOILERPLATE_MARKDOWN_FIELD",
    "title": "BOILERPLATE_TITLE_FIELD",
    "author": "BOILERPLATE_AUTHOR_FIELD",
    "published": "BOILERPLATE_PUBLISHED_FIELD",
    "language": "BOILERPLATE_LANGUAGE_FIELD",
    "page_type": "BOILERPLATE_PAGE_TYPE_FIELD",
}


def _record_fields(settings: BaseSettings) -> tuple[tuple[str, str], ...]:
    """The record fields asked for, each with its item field; Markdown without its extra is a bad setting."""
    fields = tuple(
        (name, field) for name, setting in RECORD_SETTINGS.items() if (field := _optional_field(settings, setting))
    )
    if any(name == "markdown" for name, _ in fields):
        from scrapy_boilerplate.markdown import INSTALL_HINT, markdown_available

        if not markdown_available():
            raise bad_setting("BOILERPLATE_MARKDOWN_FIELD", settings.get("BOILERPLATE_MARKDOWN_FIELD"), INSTALL_HINT)
    return fields


def _get(settings: BaseSettings, name: str, getter: Any, expected: str) -> Any:
    try:
        return getter(name, SETTINGS[name].default)
    except (TypeError, ValueError) as exc:
        raise bad_setting(name, settings.get(name), f"must be {expected}") from exc


def _positive_int(settings: BaseSettings, name: str) -> int:
    value = _get(settings, name, settings.getint, "a positive integer")
    if value < 1:
        raise bad_setting(name, value, "must be a positive integer")
    return value


def _positive_float(settings: BaseSettings, name: str) -> float:
    value = _get(settings, name, settings.getfloat, "a positive number of seconds")
    if not value > 0:
        raise bad_setting(name, value, "must be a positive number of seconds")
    return value


def _hold_max_bytes(settings: BaseSettings) -> int:
    """BOILERPLATE_HOLD_MAX_BYTES, within what SCRAPER_SLOT_MAX_ACTIVE_SIZE leaves (see the constants)."""
    name = "BOILERPLATE_HOLD_MAX_BYTES"
    hold = _positive_int(settings, name)
    slot = settings.getint("SCRAPER_SLOT_MAX_ACTIVE_SIZE", SCRAPY_SLOT_DEFAULT)
    room = slot - SLOT_ROOM_FOR_OTHER_ITEMS
    if hold <= room:
        return hold
    if settings.getpriority(name) is not None or room < MIN_HOLD_BYTES:
        raise bad_setting(
            name,
            hold,
            f"must leave {SLOT_ROOM_FOR_OTHER_ITEMS} bytes of SCRAPER_SLOT_MAX_ACTIVE_SIZE ({slot}) to the items that "
            "do not wait, or waiting items stop the crawl: raise SCRAPER_SLOT_MAX_ACTIVE_SIZE (the add-on does)",
        )
    logger.warning(
        "boilerplate: SCRAPER_SLOT_MAX_ACTIVE_SIZE (%d) leaves %d bytes for items that wait for their site "
        "model, not BOILERPLATE_HOLD_MAX_BYTES (%d); enable the add-on, which raises it, or raise it yourself",
        slot,
        room,
        hold,
    )
    return room


def _share(settings: BaseSettings, name: str) -> float:
    value = _get(settings, name, settings.getfloat, "a share of page text in (0, 1]")
    if not 0 < value <= 1:
        raise bad_setting(name, value, "must be a share of page text in (0, 1]")
    return value


def _prefix(settings: BaseSettings) -> str:
    value = settings.get("BOILERPLATE_STORE_PREFIX", SETTINGS["BOILERPLATE_STORE_PREFIX"].default)
    if not isinstance(value, str) or not value.strip():
        raise bad_setting("BOILERPLATE_STORE_PREFIX", value, "must be a non-empty string")
    return value


def _store(settings: BaseSettings) -> str | None:
    from scrapy_boilerplate.store.factory import check_location

    value = settings.get("BOILERPLATE_STORE")
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise bad_setting("BOILERPLATE_STORE", value, "must be a directory path or a redis:// URL")
    try:
        check_location(value)
    except (ValueError, ImportError) as exc:
        raise bad_setting("BOILERPLATE_STORE", value, str(exc)) from exc
    return value


def _field(settings: BaseSettings, name: str) -> str:
    """A required item field name."""
    value = _field_value(settings, name)
    if not isinstance(value, str) or not value.strip():
        raise bad_setting(name, value, "must be a non-empty item field name")
    return value


def _optional_field(settings: BaseSettings, name: str) -> str | None:
    """An item field name, or None (set to None or empty) for a field the pipeline does not write."""
    if _field_value(settings, name) in (None, ""):
        return None
    return _field(settings, name)


def _field_value(settings: BaseSettings, name: str) -> Any:
    # Settings.get() turns an explicit None into the default; None must switch optional fields off.
    return settings[name] if name in settings else SETTINGS[name].default


def _model_spec(settings: BaseSettings, name: str) -> ModelSpec:
    value = settings.get(name, SETTINGS[name].default)
    if not isinstance(value, str):
        raise bad_setting(name, value, "must be a model spec string such as 'pvalue'")
    try:
        return ModelSpec.parse(value)
    except ValueError as exc:
        raise bad_setting(name, value, str(exc)) from exc


def _fallback_spec(settings: BaseSettings) -> ModelSpec:
    spec = _model_spec(settings, "BOILERPLATE_FALLBACK_MODEL")
    try:
        spec.create().fit([])
    except Exception as exc:  # any model error: the fallback must clean without a sample
        raise bad_setting(
            "BOILERPLATE_FALLBACK_MODEL", spec.label, f"must be a single-page model that fits without a sample ({exc})"
        ) from exc
    return spec


def _site_rules(settings: BaseSettings) -> SiteRulesSetting:
    """BOILERPLATE_SITE_RULES, checked: readable, valid selectors, and models that take them."""
    name = "BOILERPLATE_SITE_RULES"
    value = settings.get(name, SETTINGS[name].default)
    try:
        rules = read_site_rules(value)
    except ValueError as exc:
        raise bad_setting(name, value, str(exc)) from exc
    for setting in ("BOILERPLATE_MODEL", "BOILERPLATE_FALLBACK_MODEL"):
        spec = _model_spec(settings, setting)
        try:
            check_takes_pinned(spec, rules)
        except ValueError as exc:
            raise bad_setting(name, value, f"{setting} {spec.label} takes no pinned selectors ({exc})") from exc
    return rules
