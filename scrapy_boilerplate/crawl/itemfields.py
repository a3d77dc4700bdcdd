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

    def is_item(self, item: Any) -> bool:
        """True for any object ItemAdapter can handle."""
        return ItemAdapter.is_item(item)

    def missing_outputs(self, item: Any) -> tuple[str, ...]:
        """Output fields ``item``'s class does not declare (cached per class)."""
        cls = type(item)
        if cls not in self._missing:
            self._missing[cls] = undeclared_fields(cls, self.output_fields)
        return self._missing[cls]

    @staticmethod
    def get(item: Any, name: str) -> Any:
        """The value of field ``name``, or None when unset."""
        return ItemAdapter(item).get(name)

    @staticmethod
    def set_many(item: Any, values: dict[str, Any]) -> None:
        """Write several fields (all declared: see :meth:`missing_outputs`)."""
        adapter = ItemAdapter(item)
        for name, value in values.items():
            adapter[name] = value
