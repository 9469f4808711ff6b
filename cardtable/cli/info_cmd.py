"""``cardtable games``, ``cardtable bots GAME`` and ``cardtable rules GAME [RULE]``:
what the registry knows, printed one line per thing so scripts can read it."""

from __future__ import annotations

from cardtable.bots import LEVELS, bot_entries, bot_names, level_for
from cardtable.bots.ratings import display_rating, published
from cardtable.cli.common import fail
from cardtable.cli.game_options import default_text, file_options, players_range
from cardtable.core.errors import CardtableError
from cardtable.core.extras import extra_installed, install_command
from cardtable.core.manifest import BotEntry
from cardtable.core.registry import broken_plugins, manifest, manifests
from cardtable.core.rulebook import rulebook

#: The bot ``play`` seats when ``--bots`` is not given, where the game has it.
DEFAULT_LEVEL = "medium"


def default_bots(game_name: str) -> str:
    """``medium`` where the game has a search bot, else its strongest level, else ``random``."""
    offered = bot_names(game_name)
    for level in (DEFAULT_LEVEL, *reversed(LEVELS)):
        if level in offered:
            return level
    return "random"


def games_text() -> str:
    """Every game: name, title, players and default, then its options with
    their defaults; then the plugins that are broken, with the reason."""
    lines = []
    for game in manifests().values():
        players = f"{players_range(game)} players (default {game.default_players})"
        summary = f": {game.summary}" if game.summary else ""
        lines.append(f"{game.name}  {game.title}, {players}{summary}")
        flags = {f.name: f.flag for f in file_options() if game.name in f.games}
        for option in game.options:
            how = f"-o {option.name}=…"
            if option.name in flags:
                how += f" or {flags[option.name]} FILE"
            default = default_text(option)
            text = option.help if default is None else f"{option.help} [default: {default}]"
            lines.append(f"    {how:<34} {text}")
    for broken in broken_plugins():
        lines.append(f"broken plugin {broken.entry_point} ({broken.distribution}): {broken.reason}")
    return "\n".join(lines) + "\n"


def bots_text(game_name: str) -> str:
    """One line per bot (what it is, strength, time per move, extra), then the levels."""
    entries = bot_entries(game_name)
    width = max(len(name) for name in (*entries, *LEVELS)) + 2
    default = default_bots(game_name)
    lines = [f"Bots for {manifest(game_name).title} (seat them with --bots NAME):"]
    lines += [
        f"  {name:<{width}}{_describe(name, entry, game_name)}" for name, entry in entries.items()
    ]
    lines.append("Levels:")
    for name in LEVELS:
        seated = level_for(name, game_name)  # the bot it seats here, and how long it thinks
        if seated is None:
            continue
        bot, level = seated
        mark = " (the default)" if name == default else ""
        lines.append(f"  {name:<{width}}{bot}: {level.summary}{_rating(game_name, name)}{mark}")
    return "\n".join(lines) + "\n"


def _rating(game_name: str, level: str) -> str:
    """The level's published rating at two players, as people's ratings show."""
    found = published(game_name, 2, level)
    if found is None:
        return ""
    skill, measured = found
    words = "" if measured else ", borrowed from a level below, not measured yet"
    return f"; rated {display_rating(skill)}{words} (2 players, docs/strength.md)"


def _describe(name: str, entry: BotEntry, game_name: str) -> str:
    parts = [entry.summary]
    if entry.strength:
        parts.append(f"strength: {entry.strength}")
    parts.append(f"time per move: {_time_per_move(name, entry, game_name)}")
    if entry.extra is not None:
        installed = extra_installed(entry.extra)
        if installed is None:
            parts.append(f"needs the {entry.extra} extra ({install_command(entry.extra)})")
        elif installed:
            parts.append(f"needs the {entry.extra} extra (installed)")
        else:
            parts.append(
                f"needs the {entry.extra} extra, NOT installed: {install_command(entry.extra)}"
            )
    return "; ".join(parts)


def _time_per_move(name: str, entry: BotEntry, game_name: str) -> str:
    """The measured figure; for a search bot without one, the budgets of the
    levels that seat it in this game (it thinks as long as it is allowed);
    else instant."""
    if entry.time_per_move:
        return entry.time_per_move
    if not (entry.search or entry.thinks):
        return "instant"
    budgets = []
    for level_name in LEVELS:
        seated = level_for(level_name, game_name)
        if seated is None or seated[0] != name or seated[1].budget is None:
            continue
        seconds = seated[1].budget.seconds
        if seconds is not None:
            budgets.append(f"{seconds:g} s ({level_name})")
    return "as budgeted: " + ", ".join(budgets) if budgets else "as budgeted"


def rules_text(game_name: str, rule: str | None) -> str:
    """The game's whole rules text, or one rule or section by number."""
    try:
        book = rulebook(manifest(game_name))
        return (book.text if rule is None else book.rule(rule)).rstrip("\n") + "\n"
    except CardtableError as exc:
        raise fail(str(exc)) from None
