"""MyRummy 111's manifest: what the generic layers may know of this game."""

from cardtable.core.manifest import BotEntry, Derived, GameManifest, OptionHelp

_PKG = "cardtable.games.myrummy_111"

MANIFEST = GameManifest(
    name="myrummy-111",
    title="MyRummy 111",
    game=f"{_PKG}.game:MyRummy111",
    players=(2, 3, 4, 5),
    default_players=3,
    summary="sort a hand you may never reorder, one exchange at a time (Steffen Benndorf)",
    options=(
        OptionHelp("players", "2 to 5, or one per entry of hand_sizes", default=3),
        OptionHelp(
            "hand_sizes",
            "cards per seat, one number or a list",
            default=Derived("12 for each player, MR-9"),
        ),
        OptionHelp("target", "points that end the game", default=60, maximum=500),
        OptionHelp(
            "rounds",
            "play exactly this many rounds (null: to the target)",
            default=None,
            maximum=100,
        ),
        OptionHelp(
            "turn_limit",
            "end a round after this many turns (null: never)",
            default=None,
            maximum=5000,
        ),
        OptionHelp(
            "symbols",
            "the joker symbols of each card 2…111, 110 numbers 1–4 (formats: docs/symbols.md)",
            default=Derived("the symbols printed on the cards"),
            from_file=f"{_PKG}.cards:load_symbols",
        ),
        OptionHelp("first_player", "seat that starts the first round", default=0),
    ),
    bots={
        "heuristic": BotEntry(
            f"{_PKG}.bots.heuristic:HeuristicBot",
            "rules of thumb: the exchange that most improves the hand's order",
            strength="wins 100% at 2p against random",
            time_per_move="under 1 ms",
        ),
        "pimc": BotEntry(
            f"{_PKG}.bots.pimc:PIMCBot",
            "one-card lookahead plus flat determinized search (PIMC) over takes and declaring",
            strength="wins 77% at 2p against heuristic",
            search=True,
        ),
        "pimc-deep": BotEntry(
            f"{_PKG}.bots.pimc:DeepPIMCBot",
            "pimc that also searches three placements and every take, with playouts twice as long",
            strength="2p: +14.7 points over pimc at equal simulations (docs/strength.md)",
            time_per_move="as pimc's budget (0.2 s unless given)",
            levels=("hard", "expert"),
            thinks=True,
        ),
    },
    terminal_ui=f"{_PKG}.terminal:MyRummyUI",
    determinize=f"{_PKG}.determinize:determinize",
    evaluator=f"{_PKG}.analysis:MyRummyEvaluator",
    observation_encoder=f"{_PKG}.observations:MyRummyEncoder",
    openspiel=f"{_PKG}.openspiel:LAYOUT",
    rules="rules.md",
    web_client="web/board.js",
    tutorial="learn",
    puzzle_theme=f"{_PKG}.themes:theme",
    package=_PKG,
)
