"""The entry point's target: Rigged Table, known to cardtable only as a plugin."""

from cardtable.core.manifest import BotEntry, GameManifest, OptionHelp

_PKG = __name__.rpartition(".")[0]

MANIFEST = GameManifest(
    name="rigged-table",
    title="Rigged Table",
    game=f"{_PKG}.game:RiggedGame",
    players=(2, 3, 4),
    default_players=2,
    summary="a game whose balance is known: the balance lab's test fixture",
    options=(
        OptionHelp("players", "2 to 4 (default 2)"),
        OptionHelp("mode", "seat0, coin, skill, endless, stuck or crash (default coin)"),
        OptionHelp("rounds", "rounds to play (default 1)"),
        OptionHelp("first", "seat that decides first (default 0)"),
    ),
    bots={"first": BotEntry(f"{_PKG}.game:FirstBot", "always chooses move a")},
    package=_PKG,
)
