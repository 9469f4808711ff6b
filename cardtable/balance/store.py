"""``--save DIR``: a run's plan, its finished chunks, and the records of its rule holes.

::

    DIR/plan.json                    what was asked for (a resumed run must ask the same)
    DIR/chunks/c000-00000.json       the measurements of one finished chunk
    DIR/holes/c000-game-00001.json   the record of a game that showed a rule hole
    DIR/balance.json, DIR/report.html  written at the end (:mod:`cardtable.balance.report`)

A chunk file is written whole (to a temporary name, then renamed), so an
interrupted run leaves only complete chunks, and running the same command
again plays only the chunks that are missing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardtable.balance.measure import GameMeasure
from cardtable.balance.plan import BalanceError
from cardtable.core import records
from cardtable.core.game import JSON


class RunStore:
    """The files of one saved run."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def open(self, plan: dict[str, JSON]) -> dict[tuple[int, int], list[GameMeasure]]:
        """Start or resume the run of ``plan``: the chunks already finished.

        Raises :class:`BalanceError` when the directory holds a different run."""
        try:
            (self.directory / "chunks").mkdir(parents=True, exist_ok=True)
            (self.directory / "holes").mkdir(exist_ok=True)
        except OSError as exc:
            raise BalanceError(f"--save {self.directory}: {exc.strerror}") from None
        plan_path = self.directory / "plan.json"
        wanted = json.loads(json.dumps(plan))
        if plan_path.exists():
            try:
                saved = json.loads(plan_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise BalanceError(
                    f"--save {self.directory}: plan.json is unreadable: {exc}"
                ) from None
            if saved != wanted:
                differ = sorted(k for k in {*saved, *wanted} if saved.get(k) != wanted.get(k))
                raise BalanceError(
                    f"--save {self.directory} holds another run"
                    f" (it differs in {', '.join(differ)});"
                    " run the same command to resume it, or choose a new DIR"
                )
        else:
            self._write(plan_path, json.dumps(wanted, indent=2) + "\n")
        return self._finished_chunks()

    def _finished_chunks(self) -> dict[tuple[int, int], list[GameMeasure]]:
        found = {}
        for path in sorted((self.directory / "chunks").glob("c*-*.json")):
            config, _, chunk = path.stem[1:].partition("-")
            try:
                data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
                found[int(config), int(chunk)] = [GameMeasure.from_json(m) for m in data]
            except (OSError, ValueError, TypeError) as exc:
                raise BalanceError(
                    f"--save: {path} is unreadable ({exc}); delete it to play it again"
                ) from None
        return found

    def save_chunk(self, key: tuple[int, int], measures: Iterable[GameMeasure]) -> None:
        config, chunk = key
        text = json.dumps([m.to_json() for m in measures]) + "\n"
        self._write(self.directory / "chunks" / f"c{config:03d}-{chunk:05d}.json", text)

    def save_hole(self, config: int, index: int, record: dict[str, JSON]) -> str:
        """Write a hole's record; its path relative to DIR."""
        relative = f"holes/c{config:03d}-game-{index + 1:05d}.json"
        with (self.directory / relative).open("w", encoding="utf-8") as fp:
            records.dump(record, fp)
        return relative

    def hole_paths(self) -> dict[tuple[int, int], str]:
        """(configuration, game index) → saved record, for the holes on disk."""
        found = {}
        for path in (self.directory / "holes").glob("c*-game-*.json"):
            config, _, rest = path.stem[1:].partition("-game-")
            found[int(config), int(rest) - 1] = f"holes/{path.name}"
        return found

    def _write(self, path: Path, text: str) -> None:
        temporary = path.with_suffix(".tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
