"""The browser's lessons and puzzles: JSON routes over :mod:`cardtable.learn`.

A lesson step and a puzzle are sent as a board's ``state`` message
(:func:`cardtable.server.tables.messages.game_part`), made from the learner's view
only: a step's state is rebuilt from its rounds, a puzzle's by resampling
the cards its view does not show (``determinize``), so its message cannot
carry a hidden card it never had. Moves are judged here, never in the page:
a lesson's expected moves and a puzzle's solution leave the server only as
the answer to a move. A guest's puzzle rating lives in their browser and
comes with each try; the server rates the try (Glicko-2), says the new
rating and gives a receipt for it. A signed-in person's rating and tried
puzzles are the server's (:mod:`cardtable.server.accounts.puzzle_training`): it rates
their tries itself and ignores any rating the browser sends, and the
receipts of their guest tries move into the account once they sign in.
"""

from __future__ import annotations

import datetime
import random
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from msgspec import Meta
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardtable.core.errors import CardtableError
from cardtable.core.game import Game, Move, State
from cardtable.core.manifest import GameManifest
from cardtable.core.registry import game_names, load, manifest
from cardtable.core.rulebook import parse_rules, rulebook
from cardtable.learn.glicko import Rating
from cardtable.learn.lesson import judge
from cardtable.learn.puzzles import Puzzle, PuzzleSet, legal_of, load_puzzles
from cardtable.learn.trainer import daily_puzzle, nearest_puzzle, rate
from cardtable.learn.tutorial import Tutorial, languages, load_tutorial
from cardtable.learn.words import words
from cardtable.server.accounts.accounts import Accounts
from cardtable.server.accounts.puzzle_training import GuestTry, PuzzleRatings, Standing
from cardtable.server.requests import Closed
from cardtable.server.tables.messages import game_part
from cardtable.server.web.pages import rules_source
from cardtable.server.web.session_cookie import need_account, signed_in
from cardtable.server.wire import BadInput, convert, read_json

__all__ = ["routes"]

MAX_TRIED = 2000  # puzzle ids a browser may say it has tried
MAX_CLAIM = 150  # guest tries one sign-in hands in (the request stays under 16 KiB)


class ClaimedTry(Closed):
    """One guest try: the puzzle, the move played (its index) and the server's receipt."""

    id: Annotated[str, Meta(max_length=32)]
    played: Annotated[int, Meta(ge=0, le=1000)]
    receipt: Annotated[str, Meta(max_length=32)]


class PuzzleClaim(Closed):
    """``POST /api/puzzles/GAME/claim``: the guest tries this browser kept."""

    tries: Annotated[list[ClaimedTry], Meta(max_length=MAX_CLAIM)]


def _rule_text(game: GameManifest, number: str | None, lang: str) -> str | None:
    """Rule ``number`` of ``game`` in ``lang`` (English where the rules have no
    translation or it lacks the rule), as words: the rules are Markdown, and a
    page shows the words, not the asterisks."""
    if number is None or not game.has("rules"):
        return None
    _, text = rules_source(game, lang)
    words_of_rule = parse_rules(text).get(number) or rulebook(game).rule(number)
    return words_of_rule.replace("**", "")


@cache
def _tutorial(game: str, lang: str) -> Tutorial:
    return load_tutorial(game, lang)


@cache
def _puzzles(game: str) -> PuzzleSet:
    return load_puzzles(game)


def _game_name(request: Request) -> str:
    name = str(request.path_params["game"])
    if name not in game_names():
        raise BadInput(f"there is no game {name[:40]!r}", 404)
    return name


def _lesson(request: Request) -> Tutorial:
    name = _game_name(request)
    lang = request.query_params.get("lang", "en")
    if not manifest(name).has("tutorial"):
        raise BadInput(f"{name} offers no lesson", 404)
    if lang not in languages(name):
        lang = "en"  # the browser's language, where the lesson has no words in it
    try:
        return _tutorial(name, lang)
    except CardtableError as exc:
        raise BadInput(str(exc), 404) from None


def _message(game: Game, state: State, seat: int, seq: int) -> dict[str, Any]:
    return {"type": "state", "seq": seq, **game_part(game, state, seat)}


def _move(game: Game, seat: int, body: Any) -> Move:
    raw = body.get("move") if isinstance(body, dict) else None
    if not isinstance(raw, dict):
        raise BadInput("request.move must be a move object, as the board sends it")
    try:
        _, move, _ = game.move_from_json({**raw, "seat": seat}, "request.move")
    except CardtableError as exc:
        raise BadInput(str(exc)) from None
    return move


def _step_number(request: Request, tutorial: Tutorial) -> int:
    raw = str(request.path_params["step"])
    if not raw.isdigit() or not 1 <= int(raw) <= len(tutorial.steps):
        raise BadInput(f"step must be 1 to {len(tutorial.steps)}", 404)
    return int(raw)


def _puzzle_message(puzzles: PuzzleSet, puzzle: Puzzle) -> dict[str, Any]:
    game = load(puzzles.game, **puzzles.options)
    view = game.view_from_json(puzzle.view)
    determinize = manifest(puzzles.game).part("determinize")
    state = determinize(game, view, random.Random(puzzle.id))
    return {
        "id": puzzle.id,
        "rating": round(puzzle.rating),
        "seat": puzzle.seat,
        "message": _message(game, state, puzzle.seat, 0),
    }


def _rating(value: Any) -> Rating:
    """A player's rating as the browser keeps it: ``"rating deviation
    volatility"`` (text, since request numbers are whole numbers), or none yet."""
    if value is None:
        return Rating()
    try:
        rating, deviation, volatility = (float(x) for x in str(value).split())
    except ValueError:
        raise BadInput("request.player must be 'rating deviation volatility'") from None
    if not (0 < rating < 5000 and 0 < deviation <= 350 and 0 < volatility < 1):
        raise BadInput("request.player is outside the ratings Glicko-2 gives")
    return Rating(rating, deviation, volatility)


def _rating_text(rating: Rating) -> str:
    return f"{rating.rating:.4f} {rating.deviation:.4f} {rating.volatility:.6f}"


def _standing_json(standing: Standing) -> dict[str, Any]:
    return {
        "signed_in": True,
        "player_rating": round(standing.rating.rating),
        "deviation": round(standing.rating.deviation),
        "tries": standing.tries,
        "solves": standing.solved,
    }


def routes(static: Path, accounts: Accounts, ratings: PuzzleRatings) -> list[BaseRoute]:
    """The pages (the shell draws them) and their JSON."""

    async def shell(request: Request) -> Response:
        _game_name(request)
        return FileResponse(static / "index.html", media_type="text/html")

    async def lesson(request: Request) -> Response:
        tutorial = _lesson(request)
        return JSONResponse(
            {
                "game": tutorial.game.name,
                "language": tutorial.language,
                "title": tutorial.words.title,
                "intro": tutorial.words.intro,
                "finale": tutorial.words.finale,
                "players": tutorial.game.num_players,
                "seat": tutorial.seat,
                "names": list(tutorial.names),
                "steps": [
                    {"title": s.words["title"], "idea": s.words["idea"], "rule": s.rule}
                    for s in tutorial.steps
                ],
            }
        )

    async def step(request: Request) -> Response:
        tutorial = _lesson(request)
        number = _step_number(request, tutorial)
        state = tutorial.steps[number - 1].position(tutorial.game)
        return JSONResponse(_message(tutorial.game, state, tutorial.seat, number))

    async def step_move(request: Request) -> Response:
        tutorial = _lesson(request)
        number = _step_number(request, tutorial)
        the_step = tutorial.steps[number - 1]
        state = the_step.position(tutorial.game)
        move = _move(tutorial.game, tutorial.seat, await read_json(request))
        verdict = judge(the_step, state, tutorial.seat, move)
        say = words(tutorial.language)
        answer: dict[str, Any] = {"verdict": verdict.kind, "rule": verdict.rule}
        if verdict.kind == "right":
            state.apply_as(tutorial.seat, move)
            answer["text"] = the_step.words["right"]
            answer["message"] = _message(tutorial.game, state, tutorial.seat, number)
        else:
            refused = say["illegal"].format(reason=verdict.reason, rule=verdict.rule)
            lead = refused if verdict.kind == "illegal" else say["wrong"]
            answer["text"] = f"{lead} {the_step.words['wrong']}"
            answer["hint"] = the_step.words["wrong"]
            if verdict.kind == "illegal":  # for the page to word in its own language
                answer["refusal"] = {
                    "reason": verdict.reason,
                    "rule": verdict.rule,
                    "key": verdict.key,
                    "params": dict(verdict.params),
                }
        return JSONResponse(answer)

    async def next_puzzle(request: Request) -> Response:
        puzzles = _puzzle_set(request)
        account = await signed_in(accounts, request)
        if account is not None:  # the server's rating and tried puzzles, not the browser's
            standing = await ratings.standing(account, puzzles.game)
            chosen = nearest_puzzle(puzzles, standing.rating.rating, set(standing.tried))
            return JSONResponse(_puzzle_message(puzzles, chosen))
        raw = request.query_params.get("rating", "1500")
        try:
            rating = float(raw)
        except ValueError:
            raise BadInput("rating must be a number, e.g. rating=1500") from None
        tried = [t for t in request.query_params.get("tried", "").split(",") if t][:MAX_TRIED]
        return JSONResponse(_puzzle_message(puzzles, nearest_puzzle(puzzles, rating, set(tried))))

    async def daily(request: Request) -> Response:
        puzzles = _puzzle_set(request)
        today = datetime.datetime.now(datetime.UTC).date()
        return JSONResponse(_puzzle_message(puzzles, daily_puzzle(puzzles, today)))

    async def answer(request: Request) -> Response:
        puzzles = _puzzle_set(request)
        try:
            puzzle = puzzles.by_id(str(request.path_params["puzzle"]))
        except CardtableError as exc:
            raise BadInput(str(exc), 404) from None
        game = load(puzzles.game, **puzzles.options)
        body = await read_json(request)
        move = _move(game, puzzle.seat, body)
        legal = legal_of(game, puzzle)
        if move not in legal:
            raise BadInput(f"{move} is not legal in this puzzle")
        played = legal.index(move)
        solved = played in puzzle.solution
        account = await signed_in(accounts, request)
        rating: dict[str, Any]
        if account is None:
            shipped = Rating(puzzle.rating, puzzle.deviation)
            outcome = rate(_rating(body.get("player")), shipped, solved)
            rating = {
                "signed_in": False,
                "player": _rating_text(outcome.player_after),
                "player_rating": round(outcome.player_after.rating),
                "puzzle_rating": round(outcome.puzzle_after.rating),
                "receipt": ratings.receipt(puzzles.game, puzzle.id, played),
            }
        else:
            counted = await ratings.record(account, puzzles.game, puzzle, played)
            standing = await ratings.standing(account, puzzles.game)
            rating = {
                **_standing_json(standing),
                "counted": counted is not None,  # a puzzle counts once per account
            }
        rules = manifest(puzzles.game)
        return JSONResponse(
            {
                "solved": solved,
                "played": played,
                "solution": list(puzzle.solution),
                "legal": list(puzzle.legal),
                "names": [str(m) for m in legal],
                "theme": puzzle.theme,
                "theme_key": puzzle.theme_key,
                "theme_params": puzzle.theme_params,
                "rule": puzzle.rule,
                "rule_text": _rule_text(rules, puzzle.rule, request.query_params.get("lang", "en")),
                "alternatives": [a.to_json() for a in puzzle.alternatives],
                **rating,
            }
        )

    async def mine(request: Request) -> Response:
        """The signed-in person's standing in this game's puzzles (a guest: none)."""
        puzzles = _puzzle_set(request)
        account = await signed_in(accounts, request)
        if account is None:
            return JSONResponse({"signed_in": False})
        standing = await ratings.standing(account, puzzles.game)
        return JSONResponse(_standing_json(standing))

    async def claim(request: Request) -> Response:
        """Move the guest tries this browser kept into the account: the server
        replays those its receipts prove and rates them itself."""
        puzzles = _puzzle_set(request)
        account = await need_account(accounts, request)
        body = convert(await read_json(request), PuzzleClaim, "request")
        known = {p.id: p for p in puzzles.puzzles}
        tries = [GuestTry(t.id, t.played, t.receipt) for t in body.tries]
        counted = await ratings.claim(account, puzzles.game, tries, known.get)
        standing = await ratings.standing(account, puzzles.game)
        return JSONResponse({"claimed": counted, **_standing_json(standing)})

    def _puzzle_set(request: Request) -> PuzzleSet:
        name = _game_name(request)
        try:
            return _puzzles(name)
        except CardtableError as exc:
            raise BadInput(str(exc), 404) from None

    return [
        Route("/learn/{game}", shell),
        Route("/puzzles/{game}", shell),
        Route("/api/learn/{game}", lesson),
        Route("/api/learn/{game}/{step}", step, methods=["GET"]),
        Route("/api/learn/{game}/{step}", step_move, methods=["POST"]),
        Route("/api/puzzles/{game}/next", next_puzzle),
        Route("/api/puzzles/{game}/daily", daily),
        Route("/api/puzzles/{game}/me", mine),
        Route("/api/puzzles/{game}/claim", claim, methods=["POST"]),
        Route("/api/puzzles/{game}/{puzzle}", answer, methods=["POST"]),
    ]
