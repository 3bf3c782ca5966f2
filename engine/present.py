"""What a seat or the table display is shown: the game's own data plus what the core adds.

A game's ``view(state, seat, lang)`` returns its game data only (board, hands, tracks), redacted
for ``seat``. The core adds the same things for every game, so they look and behave alike:
whose move it is, the prompts (with labelled moves for the seat's own prompts only), the scores
with their itemised lines, and the itemised lines of the most recent move. Sealed moves
(``engine.flow``) are stripped from every view and shown only to the seat that sealed them.
boardgame.io's ``filter-player-view`` is the model: the first payload is filtered like any other.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from engine import codec, flow, rules
from engine.capabilities import LABELS, LAST_LINES, NAMES, WINDOW_MOVES, capability
from engine.game import Game, Line, Prompt
from engine.i18n import DEFAULT_LANG, has_message, message
from engine.preview import option_previews

CORE_KEYS = ("game", "to_act", "prompts", "scores", "last_lines", "you", "your_prompts", "sealed")
"""Keys the core owns in a presented view; a game's own view must not use them."""


def named_line(line: Line, names: Mapping[str, str] | None) -> Line:
    """``line`` with each parameter that is a component id (a key of the game's ``names``) given
    as its printed name, so its sentence says "Kasztelan" or "Manuscript (grey ribbon)", never
    ``kasztelan`` or ``ms-9``: lines are made where no language is known, and keep ids."""
    if not names:
        return line
    params = {k: names.get(v, v) if isinstance(v, str) else v for k, v in line.params.items()}
    return line if params == line.params else replace(line, params=params)


def line_json(
    game: Game[Any, Any],
    line: Line,
    lang: str = DEFAULT_LANG,
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """One itemised line with its sentence in ``lang`` (its ids named by ``names``); the JSON
    keeps the ids in ``params``, for pages that look a component up."""
    return line.to_json(game.describe(named_line(line, names), lang))


def last_lines(game: Game[Any, Any], state: Any) -> tuple[tuple[str, Line], ...]:
    """The itemised (seat, line) pairs the most recent move produced: the optional game verb
    ``last_lines(state)``; a game without it itemises nothing per move."""
    verb = capability(game, LAST_LINES)
    return tuple(verb.last_lines(state)) if verb is not None else ()


def _param(
    game_key: str, key: str, value: Any, lang: str, names: dict[str, str] | None = None
) -> Any:
    """A move field as a sentence fragment: a value the game's catalog names
    (``<game>:<field>/<value>``) in words, else the name the game's data give it (``names``),
    lists joined."""
    if isinstance(value, str):
        code = f"{game_key}:{key}/{value}"
        if has_message(code):
            return message(code, lang)
        return names.get(value, value) if names else value
    if isinstance(value, list):
        return ", ".join(str(_param(game_key, key, v, lang, names)) for v in value)
    if isinstance(value, dict):
        # a component given by its fields (a tile): named by the first field the catalog names
        for field_name, inner in value.items():
            if isinstance(inner, str) and has_message(f"{game_key}:{field_name}/{inner}"):
                return message(f"{game_key}:{field_name}/{inner}", lang)
    return value


def move_label(
    game: Game[Any, Any],
    move: dict[str, Any],
    lang: str = DEFAULT_LANG,
    public: bool = True,
    names: dict[str, str] | None = None,
) -> str:
    """A short sentence for a move given as JSON.

    A game that labels its own moves (the optional verb ``label``) is asked first; ``public``
    labels go to every display (the log), so they must not name hidden information, while a
    seat's own prompt buttons (``public=False``) may. Otherwise the game's catalog entry
    ``<game>:label/<kind>`` is filled from the move's own fields; a kind with no entry gets the
    generic ``label/move``. ``names``: the game's ``names(state)`` (component ids with their
    printed names), handed to a label verb that names components so no id reaches a player.
    """
    if public and str(move.get("kind")) in flow.sealed_kinds(game):
        seat = move.get("seat", move.get("by", ""))
        return message("flow/sealed-commit", lang, seat=seat)
    verb = capability(game, LABELS)
    own: str | None = None
    if verb is not None:
        # ``names`` only from a game that offers them (``state_names``): its label takes them
        own = (
            verb.label(move, lang, public, names)
            if names is not None
            else verb.label(move, lang, public)
        )
    if own is not None:
        return own
    key = game.info.key
    kind = str(move.get("kind", "?"))
    params = {k: _param(key, k, v, lang, names) for k, v in move.items() if k != "seat"}
    params["seat"] = move.get("seat", "")
    if any(v is None for k, v in move.items() if k != "kind"):
        code = f"{key}:label/{kind}-none"
        if has_message(code):
            return message(code, lang, **params)
    code = f"{key}:label/{kind}"
    if has_message(code):
        return message(code, lang, **params)
    return message("label/move", lang, kind=kind, seat=params["seat"])


def state_names(
    game: Game[Any, Any], state: Any, lang: str = DEFAULT_LANG
) -> dict[str, str] | None:
    """The optional game verb ``names(state, lang)`` (``engine.capabilities.Names``): component
    ids with their printed names (None: the game has none, or no state to read them from)."""
    verb = capability(game, NAMES)
    if state is None or verb is None:
        return None
    return verb.names(state, lang)


def prompt_json(
    game: Game[Any, Any],
    prompt: Prompt,
    lang: str = DEFAULT_LANG,
    own: bool = True,
    state: Any = None,
) -> dict[str, Any]:
    """A prompt with its sentence; for the seat it is addressed to (``own``) every legal move
    with its label, as a phone shows it, and, given the ``state``, its ``preview`` (what the
    seat gets: engine/preview.py). Another seat's moves never leave the engine."""
    key = game.info.key
    code = f"{key}:{prompt.code}"
    params = {"seat": prompt.seat, **prompt.params}
    text = message(code if has_message(code) else "label/prompt", lang, code=prompt.code, **params)
    moves: list[dict[str, Any]] = []
    if own:
        found_all: list[dict[str, Any] | None] = (
            option_previews(game, state, prompt.moves, prompt.seat, lang)
            if state is not None
            else [None] * len(prompt.moves)
        )
        names = state_names(game, state, lang)
        for m, found in zip(prompt.moves, found_all, strict=True):
            encoded = codec.encode(m)
            item = {"move": encoded, "label": move_label(game, encoded, lang, False, names)}
            if found is not None:
                item["preview"] = found
            moves.append(item)
    return {
        "seat": prompt.seat,
        "code": prompt.code,
        "params": prompt.params,
        "text": text,
        "moves": moves,
    }


def window_json(
    game: Game[Any, Any], state: Any, seat: str, lang: str = DEFAULT_LANG
) -> list[dict[str, Any]]:
    """The moves ``seat`` may make out of turn now, through an open window (the optional game
    verb ``window_moves(state, seat)``: an Opportunity card played on another's turn), each with
    its label, for that seat's phone only (they name cards in its hand)."""
    verb = capability(game, WINDOW_MOVES)
    if verb is None or game.is_over(state):
        return []
    names = state_names(game, state)
    out = []
    for m in verb.window_moves(state, seat):
        encoded = codec.encode(m)
        out.append({"move": encoded, "label": move_label(game, encoded, lang, False, names)})
    return out


def scores_json(game: Game[Any, Any], state: Any, lang: str = DEFAULT_LANG) -> list[Any]:
    """Every seat's score with its itemised lines and tie-break, standing until the game ends,
    best rank first (seats sharing a rank in table order): a list read top down is a ranking,
    and seat order put "3., 1., 2." on the pages (issue 25, point 5)."""
    final = game.is_over(state)
    names = state_names(game, state, lang)
    return [
        {
            "seat": r.seat,
            "total": r.total,
            "rank": r.rank,
            "final": final,
            "tiebreak": list(r.tiebreak),
            "lines": [line_json(game, line, lang, names) for line in r.lines],
        }
        for r in sorted(game.score(state), key=lambda r: r.rank)
    ]


def sealed_json(state: Any, seat: str | None) -> dict[str, Any] | None:
    """The sealed step under way: who has sealed, and to ``seat`` its own sealed move."""
    held = flow.sealed_of(state)
    if not held.commits:
        return None
    out: dict[str, Any] = {"step": held.step, "committed": list(held.seats())}
    mine = [text for s, text in held.commits if s == seat]
    if mine:
        out["yours"] = json.loads(mine[0])
    return out


def view(
    game: Game[Any, Any], state: Any, seat: str | None, lang: str = DEFAULT_LANG
) -> dict[str, Any]:
    """The whole payload for ``seat`` (None: the public table display)."""
    return views(game, state, (seat,), lang)[seat]


def views(
    game: Game[Any, Any], state: Any, seats: Iterable[str | None], lang: str = DEFAULT_LANG
) -> dict[str | None, dict[str, Any]]:
    """The payloads of several seats (None: the public display) of one state, as ``view``
    gives each: the parts every seat shares (whose move, the scores, the last move's lines)
    are computed once, since the referee builds them all after every move."""
    prompts = game.prompts(state)
    to_act = list(rules.to_act(game, state))
    scores = scores_json(game, state, lang)
    names = state_names(game, state, lang)
    lines = [
        {"seat": s, **line_json(game, line, lang, names)} for s, line in last_lines(game, state)
    ]
    others = [prompt_json(game, p, lang, own=False) for p in prompts]
    out: dict[str | None, dict[str, Any]] = {}
    for seat in seats:
        own = game.view(state, seat, lang)
        data = {k: v for k, v in own.items() if k not in CORE_KEYS}
        data["game"] = game.info.key
        data["to_act"] = list(to_act)
        data["prompts"] = [
            prompt_json(game, p, lang, state=state) if p.seat == seat else other
            for p, other in zip(prompts, others, strict=True)
        ]
        data["scores"] = scores
        data["last_lines"] = lines
        sealed = sealed_json(state, seat)
        if sealed is not None:
            data["sealed"] = sealed
        if seat is not None:
            data["you"] = seat
            data["your_prompts"] = [p for p in data["prompts"] if p["seat"] == seat]
        out[seat] = data
    return out
