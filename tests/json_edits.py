"""Edits of one field of a JSON object, for the tests that corrupt views and records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Change = Callable[[dict[str, Any]], None]


def put(*path: str | int, value: Any) -> Change:
    """Set the field at ``path`` to ``value``."""

    def change(obj: dict[str, Any]) -> None:
        node: Any = obj
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change
