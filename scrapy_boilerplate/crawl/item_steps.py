"""What the item pipeline works with, built by the learner: each item's page and record, and its three steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scrapy_boilerplate.crawl.config import BoilerplateConfig
from scrapy_boilerplate.crawl.item_cleaning import ItemCleaning
from scrapy_boilerplate.crawl.itempages import ItemPages
from scrapy_boilerplate.crawl.recovery import HeldItemRecovery
from scrapy_boilerplate.crawl.templating import PageTemplates
from scrapy_boilerplate.crawl.waiting import ModelWait
from scrapy_boilerplate.crawl.writing import ItemWriter


@dataclass(frozen=True)
class ItemSteps:
    """The pipeline's parts: the responses linked to items, the pages' templates, the items' records
    (recovery), and the steps an item goes through: wait for its site's model, clean, write."""

    config: BoilerplateConfig
    stats: Any
    pages: ItemPages
    templates: PageTemplates
    recovery: HeldItemRecovery
    wait: ModelWait
    clean: ItemCleaning
    write: ItemWriter
