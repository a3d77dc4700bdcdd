"""Read and write item fields for every item type Scrapy supports (dict, Item, dataclass, attrs)."""

from __future__ import annotations

import sys
from typing import Any

from itemadapter import ItemAdapter
from scrapy import Item


def undeclared_fields(item_class: type, fields: tuple[str, ...]) -> tuple[str, ...]:
    """The ``fields`` that ``item_class`` cannot hold (none for dicts, which take any key)."""
    declared = ItemAdapter.get_field_names_from_class(item_class)
    if declared is None:
        return ()
    return tuple(name for name in fields if name not in declared)


def item_classes_named_by(spidercls: type) -> list[type]:
    """Item classes a spider names: its class attributes and its module's globals (and its own
    base classes' outside Scrapy), and the default item class of any item loader among them.

    Scrapy has no list of the item classes a spider yields; a spider's module imports them (or a
    loader of them), so the pipeline can check their fields at start-up, before the first item.
    """
    found: list[type] = []
    for klass in spidercls.__mro__:
        module_name = getattr(klass, "__module__", "") or ""
        if module_name == "builtins" or module_name.split(".")[0] == "scrapy":
            continue
        namespace = getattr(sys.modules.get(module_name), "__dict__", None) or {}
        for value in [*vars(klass).values(), *namespace.values()]:
            if not isinstance(value, type):
                continue
            try:  # (any class may sit in a module: one whose attributes raise is not an item class)
                loaded = getattr(value, "default_item_class", None)  # an ItemLoader subclass
                for candidate in (value, loaded):
                    if isinstance(candidate, type) and candidate not in found and ItemAdapter.is_item_class(candidate):
                        found.append(candidate)
            except Exception:  # a check before the crawl must never stop it
                continue
    return found


def unwritable_item_classes(
    classes: list[type], html_field: str, output_fields: tuple[str, ...]
) -> dict[type, tuple[str, ...]]:
    """Of ``classes``, those that declare ``html_field`` (their items are meant to be cleaned) but
    not every output field, with the fields they lack.  A class that others subclass is left out:
    it is most likely a base whose subclasses add the fields (if it is yielded itself, its first
    item is reported)."""
    out: dict[type, tuple[str, ...]] = {}
    for item_class in classes:
        declared = ItemAdapter.get_field_names_from_class(item_class)
        if declared is None or html_field not in declared or type.__subclasses__(item_class):
            continue
        missing = undeclared_fields(item_class, output_fields)
        if missing:
            out[item_class] = missing
    return out


class ItemFields:
    """Field access shared by the pipeline; checks each item class once for the output fields."""

    def __init__(self, output_fields: tuple[str, ...]) -> None:
        self.output_fields = output_fields
        self._missing: dict[type, tuple[str, ...]] = {}

    @staticmethod
    def adapt(item: Any) -> ItemAdapter | None:
        """One adapter for reading and writing ``item``'s fields, or None for an object ItemAdapter cannot handle.

        Build it once per item: finding an item's adapter class is most of the cost of a field access.
        """
        try:
            return ItemAdapter(item)
        except TypeError:
            return None

    def missing_outputs(self, item: Any) -> tuple[str, ...]:
        """Output fields ``item``'s class does not declare (cached per class)."""
        cls = type(item)
        if cls not in self._missing:
            self._missing[cls] = undeclared_fields(cls, self.output_fields)
        return self._missing[cls]

    @staticmethod
    def set_many(adapter: ItemAdapter, values: dict[str, Any]) -> None:
        """Write several fields (all declared: see :meth:`missing_outputs`)."""
        for name, value in values.items():
            adapter[name] = value

    @staticmethod
    def drop(adapter: ItemAdapter, name: str) -> None:
        """Remove field ``name`` (BOILERPLATE_DROP_HTML).  Dicts and ``scrapy.Item`` lose the field;
        a dataclass or attrs item keeps its attribute, set to None (exporters read every field)."""
        if name not in adapter:
            return
        if isinstance(adapter.item, (dict, Item)):
            del adapter[name]
        else:
            adapter[name] = None
