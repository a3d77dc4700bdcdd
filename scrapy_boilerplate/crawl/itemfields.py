"""Read and write item fields for every item type Scrapy supports (dict, Item, dataclass, attrs)."""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter


def undeclared_fields(item_class: type, fields: tuple[str, ...]) -> tuple[str, ...]:
    """The ``fields`` that ``item_class`` cannot hold (none for dicts, which take any key)."""
    declared = ItemAdapter.get_field_names_from_class(item_class)
    if declared is None:
        return ()
    return tuple(name for name in fields if name not in declared)


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
