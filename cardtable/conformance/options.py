"""Promises about the manifest: its options, their defaults and maxima, its files."""

from __future__ import annotations

from importlib import resources

from cardtable.bots.learned import policy_for
from cardtable.bots.policy_net import PolicyFileError
from cardtable.conformance.probe import Probe
from cardtable.core.errors import OptionError
from cardtable.core.manifest import Derived
from cardtable.core.registry import load, manifest
from cardtable.core.rulebook import rulebook

#: A value no option of a small, finite game takes: an integer option that
#: accepts it has no working maximum.
HUGE = 10**9


def options_listed(name: str, probe: Probe) -> None:
    game_manifest = manifest(name)
    taken = list(load(name).options_json)
    listed = [o.name for o in game_manifest.options]
    probe.require(listed == taken, f"the manifest lists {listed}, the game takes {taken}")
    for option in game_manifest.options:
        stated = option.has_default or isinstance(option.default, Derived)
        probe.require(stated, f"option {option.name!r} states no default")


def option_defaults(name: str, probe: Probe) -> None:
    game_manifest = manifest(name)
    taken = load(name).options_json
    for option in game_manifest.options:
        if option.has_default:
            value = taken.get(option.name)
            why = f"option {option.name!r}: stated default {option.default!r}, taken {value!r}"
            probe.require(value == option.default, why)
    players = taken.get("players")
    why = f"players defaults to {players!r}, default_players is {game_manifest.default_players}"
    probe.require(players == game_manifest.default_players, why)


def option_maxima(name: str, probe: Probe) -> None:
    """Every integer option is bounded: a stated ``maximum`` is taken and one
    more is refused; without one, the game's own check must refuse
    :data:`HUGE` (players and seats are bounded by the table's size)."""
    for option in manifest(name).options:
        if option.choices:
            continue  # a list of values: nothing numeric to bound
        probe.at(option=option.name)
        if option.maximum is None:
            if _takes(name, option.name, HUGE):
                probe.fail(f"takes {HUGE} and states no maximum")
            continue
        taken = load(name, **{option.name: option.maximum}).options_json[option.name]
        probe.require(taken == option.maximum, f"maximum {option.maximum} is taken as {taken!r}")
        one_more = option.maximum + 1
        probe.require(not _takes(name, option.name, one_more), f"takes {one_more} > its maximum")
    probe.at(option=None)


def _takes(name: str, option: str, value: int) -> bool:
    try:
        load(name, **{option: value})
    except OptionError:
        return False
    return True


def package_files(name: str, probe: Probe) -> None:
    game_manifest = manifest(name)
    if game_manifest.rules is not None:
        probe.require(rulebook(game_manifest).parts, "the rules hold no numbered rule")
    if game_manifest.web_client is not None:
        if game_manifest.package is None:
            probe.fail("web_client without package")
        drawing = resources.files(game_manifest.package).joinpath(game_manifest.web_client)
        found = drawing.is_file() and drawing.read_text(encoding="utf-8").strip()
        probe.require(found, f"{game_manifest.web_client} is no file of {game_manifest.package}")
    if game_manifest.playout_policy is not None:
        _policies(name, game_manifest.playout_policy, game_manifest.players, probe)


def _policies(name: str, pattern: str, counts: tuple[int, ...], probe: Probe) -> None:
    """Each shipped policy loads for its player count; at least one ships."""
    shipped = 0
    for players in counts:
        probe.at(players=players)
        try:
            shipped += policy_for(load(name, players=players)) is not None
        except PolicyFileError as exc:
            probe.fail(str(exc))
    probe.at(players=None)
    probe.require(shipped, f"no file named by playout_policy {pattern!r} is in the package")
