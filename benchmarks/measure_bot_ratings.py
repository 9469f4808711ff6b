"""Measure the bots' published ratings: the fixed ratings the server seats them at.

    PYTHONPATH=. python3 benchmarks/measure_bot_ratings.py GAME \\
        --ladder random,easy,medium,hard --games 40,16,16 [--players 2] [--seed 1] [--write]

Give it a core of its own and no ``nice``: ``medium`` and ``hard`` search
for a wall-clock time each move, so a busy machine weakens them.

Each neighbouring pair of the ladder (``random``–``easy``, …, ``medium``–``hard``)
plays its number of arena games (:func:`cardtable.arena.run_arena`: duplicate
deals, rotated seats); then every game of every pair, taken in turn, goes
through the one rating model (:func:`cardtable.bots.ratings.rate`), each bot
one player starting as a newcomer. So every bot lands on one scale with
people, who start where the bots started. A level of the game left off the
ladder carries the rating of the strongest level below it, marked ``measured:
false``: a lower bound. A level that seats a bot without its own budget
(``easy`` seats ``heuristic``) is written under that bot's name too.

``--write`` stores the result as ``bot_ratings.json`` in the game's package
(:data:`cardtable.bots.ratings.BOT_RATINGS_FILE`), merged with the figures
for other player counts; without it the JSON is printed.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from itertools import zip_longest
from pathlib import Path
from typing import Any

from cardtable.arena import run_arena
from cardtable.bots import LEVELS, level_for
from cardtable.bots.ratings import BOT_RATINGS_FILE, SCHEMA, Skill, finishing_ranks, newcomer, rate
from cardtable.core.registry import manifest


def measure(
    game: str, ladder: list[str], games: list[int], players: int, seed: int
) -> dict[str, Any]:
    """Each bot's rating (mu, sigma, games) from the pairs' games."""
    runs = []
    for i, count in enumerate(games):
        pair = [ladder[i], ladder[i + 1]]
        bots = pair * (players // 2) + pair[: players % 2]
        run = run_arena(game, bots, games=count, seed=seed + i, options={"players": players})
        runs.append(
            [([bots[entry] for entry in task.seating], result) for task, result in run.played]
        )
    skills = {bot: newcomer() for bot in ladder}
    played = dict.fromkeys(ladder, 0)
    # The pairs' games in turn, so no pair is rated with the others' games all done.
    for turn in zip_longest(*runs):
        for game_played in turn:
            if game_played is None:
                continue
            seated, result = game_played
            ranks = finishing_ranks(result.scores, result.winners)
            after = rate([skills[bot] for bot in seated], ranks)
            # A bot seated twice (three or more players) is one player: its seats average.
            for bot in dict.fromkeys(seated):
                mine = [s for s, name in zip(after, seated, strict=True) if name == bot]
                skills[bot] = Skill(
                    sum(s.mu for s in mine) / len(mine), sum(s.sigma for s in mine) / len(mine)
                )
                played[bot] += 1
    return {
        bot: {
            "mu": round(s.mu, 3),
            "sigma": round(s.sigma, 3),
            "games": played[bot],
            "measured": True,
        }
        for bot, s in skills.items()
    }


def _ordinal(rating: dict[str, Any]) -> float:
    return Skill(rating["mu"], rating["sigma"]).ordinal


def complete(game: str, measured: dict[str, Any]) -> dict[str, Any]:
    """Add the game's unmeasured levels (the strongest measured level below)
    and the bots that levels without a budget seat."""
    out = dict(measured)
    below: dict[str, Any] | None = None  # the strongest measured level so far
    for level in LEVELS:
        seated = level_for(level, game)
        if seated is None:
            continue
        if level in out:
            if below is None or _ordinal(out[level]) > _ordinal(below):
                below = out[level]
        elif below is not None:
            out[level] = {**below, "measured": False}
        bot, how = seated
        if level in out and how.budget is None and bot not in out:
            out[bot] = out[level]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--ladder", default="random,easy,medium")
    parser.add_argument("--games", default="40,16", help="games per neighbouring pair")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    ladder = args.ladder.split(",")
    games = [int(n) for n in args.games.split(",")]
    if len(games) != len(ladder) - 1:
        parser.error(f"--games: give one count per neighbouring pair ({len(ladder) - 1})")
    ratings = complete(args.game, measure(args.game, ladder, games, args.players, args.seed))
    package = manifest(args.game).package
    if not args.write or package is None:
        print(json.dumps(ratings, indent=2))
        return
    path = Path(str(resources.files(package).joinpath(BOT_RATINGS_FILE)))
    document = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    document["schema"] = SCHEMA
    document.setdefault("ratings", {})[str(args.players)] = ratings
    document.setdefault("commands", {})[str(args.players)] = (
        f"PYTHONPATH=. python3 benchmarks/measure_bot_ratings.py {args.game}"
        f" --ladder {args.ladder} --games {args.games} --players {args.players}"
        f" --seed {args.seed} --write"
    )
    path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
