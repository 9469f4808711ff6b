"""Marshmallow Test's manifest: what the generic layers may know of this game."""

from cardtable.core.manifest import BotEntry, GameManifest, OptionHelp

_PKG = "cardtable.games.marshmallow_test"

MANIFEST = GameManifest(
    name="marshmallow-test",
    title="Marshmallow Test",
    game=f"{_PKG}:MarshmallowTest",
    players=(2, 3, 4, 5),
    default_players=4,
    summary="trick taking where you want to go out late, but not last (Reiner Knizia)",
    options=(
        OptionHelp("players", "2 to 5", default=4),
        OptionHelp("target", "points that end the game", default=20, maximum=500),
        OptionHelp(
            "trump_after_ruff",
            "may or must trump in after a ruff",
            default="may",
            choices=("may", "must"),
        ),
        OptionHelp("first_dealer", "seat of the first dealer", default=0),
    ),
    bots={
        "heuristic": BotEntry(
            f"{_PKG}.bots.heuristic:HeuristicBot",
            "rules of thumb: keep strength for late tricks, go out second to last",
            strength="wins 52% at 4p against 3 random (fair share 25%)",
            time_per_move="under 1 ms",
        ),
        "pimc": BotEntry(
            f"{_PKG}.bots.pimc:PIMCBot",
            "determinized flat Monte Carlo (PIMC): samples unseen cards, plays each choice out",
            strength="wins 59% at 4p against 3 heuristic",
            search=True,
        ),
        "pimc-endgame": BotEntry(
            f"{_PKG}.bots.endgame:EndgameBot",
            "pimc, with a round's last tricks solved exactly on sampled hidden cards",
            strength="measured against pimc in docs/strength.md",
            time_per_move="as pimc's budget (0.2 s unless given); more in a round's last tricks",
            thinks=True,
        ),
        "learned": BotEntry(
            f"{_PKG}.bots.learned:LearnedBot",
            "a small network trained on pimc's choices in self-play; plays without searching",
            strength="measured against heuristic in docs/strength.md",
            time_per_move="under 1 ms",
        ),
        "pimc-learned": BotEntry(
            f"{_PKG}.bots.learned:FilteredPIMCBot",
            "pimc searching only the learned policy's three best moves",
            strength="measured against pimc in docs/strength.md",
            time_per_move="as pimc's budget (0.2 s unless given)",
            thinks=True,
        ),
        "pimc-lp": BotEntry(
            f"{_PKG}.bots.learned_playout:LearnedPlayoutBot",
            "pimc whose playouts follow the learned policy at every seat",
            strength="measured against pimc in docs/strength.md",
            time_per_move="as pimc's budget (0.2 s unless given)",
            thinks=True,
        ),
        "pimc-lp-opp": BotEntry(
            f"{_PKG}.bots.learned_playout:OpponentModelBot",
            "pimc whose playouts follow the learned policy at the opponents' seats",
            strength="measured against pimc in docs/strength.md",
            time_per_move="as pimc's budget (0.2 s unless given)",
            thinks=True,
        ),
        "pimc-lp-small": BotEntry(
            f"{_PKG}.bots.learned_playout:SmallPlayoutBot",
            "pimc whose playouts follow a small network distilled from the learned policy",
            strength="2p: +6.9 points over pimc at equal CPU time; 4p: +7.0 over medium"
            " at the levels' ratio of playouts; 4p: wins 52% against 3 OpenSpiel ISMCTS"
            " at 20 ms a move each (docs/strength.md)",
            time_per_move="as pimc's budget (0.2 s unless given)",
            levels=("hard",),
            thinks=True,
        ),
        "pimc-lp-endgame": BotEntry(
            f"{_PKG}.bots.learned_playout:SmallPlayoutEndgameBot",
            "pimc-lp-small, with a round's last tricks solved exactly on sampled hidden cards",
            strength="not above hard at four times its playouts: 2p -0.3, 4p -2.2 points;"
            " 4p: wins 49% against 3 OpenSpiel ISMCTS at 20 ms a move each (docs/strength.md)",
            time_per_move="as pimc's budget (0.2 s unless given); more in a round's last tricks",
            levels=("expert",),
            thinks=True,
        ),
    },
    terminal_ui=f"{_PKG}.terminal:MarshmallowTestUI",
    determinize=f"{_PKG}.determinize:determinize",
    observation_encoder=f"{_PKG}.observations:MarshmallowEncoder",
    openspiel=f"{_PKG}.openspiel:LAYOUT",
    rules="rules.md",
    web_client="web/board.js",
    tutorial="learn",
    puzzle_theme=f"{_PKG}.themes:theme",
    package=_PKG,
)
