"""What each seat and the table display see, and what the game asks of whom.

Middle Ages has no private information: every tile, pawn, token and coin is on the table, and the
stack order is unknown to everyone, the engine included. So a seat's view is the public view plus
its own prompts and standing (``you``); the redaction path is still the one every game uses.
"""

from __future__ import annotations

from typing import Any

from engine import codec
from engine.game import TABLE, Line, Prompt
from engine.games.middle_ages.components import ESTATES, GAME_KEY, ROUNDS
from engine.games.middle_ages.income import income_line
from engine.games.middle_ages.play import actor, destination_row, legal_moves, lords_row
from engine.games.middle_ages.state import State
from engine.i18n import DEFAULT_LANG, message


def line_text(line: Line, lang: str = DEFAULT_LANG) -> str:
    """The sentence for an itemised line, with estate names from the catalog."""
    params = dict(line.params)
    for key in ("estate", "tile"):
        if params.get(key) in ESTATES:
            params[key] = estate_name(params[key], lang)
    if "counts" in params:
        params["terms"] = " + ".join(
            f"{estate_name(e, lang)} {n}" for e, n in params["counts"].items()
        )
    if "estates" in params:
        params["estates"] = ", ".join(estate_name(e, lang) for e in params["estates"]) or "-"
    if "tiles" in params:
        params["tiles"] = ", ".join(estate_name(e, lang) for e in params["tiles"])
    if "card" in params:
        params["card_name"] = message(f"{GAME_KEY}:event/{params['card']}", lang)
    params.setdefault("amount", line.amount)
    params.setdefault("paid", abs(line.amount))
    return message(f"{GAME_KEY}:{line.code}", lang, **params)


def estate_name(estate: str, lang: str = DEFAULT_LANG) -> str:
    return message(f"{GAME_KEY}:estate/{estate}", lang)


def line_json(line: Line, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    return line.to_json(line_text(line, lang))


def prompts(state: State) -> list[Prompt]:
    seat = actor(state)
    if seat is None:
        return []
    if seat == TABLE:
        if state.phase == "setup-rows":
            return [Prompt(TABLE, "prompt/lay-row",
                           {"row": state.rows_laid + 1, "count": state.row_length})]  # fmt: skip
        if state.phase == "refill":
            return [Prompt(TABLE, "prompt/refill-row",
                           {"row": lords_row(state.round), "count": state.row_length})]  # fmt: skip
        if state.phase == "setup-events":
            return [Prompt(TABLE, "prompt/lay-events", {"count": 4})]
        return [Prompt(TABLE, "prompt/draw-order", {})]
    moves = tuple(legal_moves(state))
    if state.phase == "placement":
        return [Prompt(seat, "prompt/place-lord", {}, moves)]
    if state.phase == "turn":
        dest = destination_row(state.round)
        if dest is None:
            return [Prompt(seat, "prompt/take-tile", {"round": state.round}, moves)]
        return [Prompt(seat, "prompt/move-lord",
                       {"from_row": lords_row(state.round), "to_row": dest}, moves)]  # fmt: skip
    assert state.pending is not None
    return [Prompt(seat, f"prompt/{state.pending.kind}", {}, moves)]


_HIDDEN = frozenset({"box", "last_move"})
"""State fields no view shows: the tile box (the draw pile's order is nobody's to see) and the
last move's ledger (the core sends it as ``last_lines``, with its sentences)."""


def view(state: State, seat: str | None, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The game data of the table display's view (``seat`` None) or a seat's; nothing here is
    private. The core (``engine.present``) adds whose move, prompts, scores and itemised lines."""
    data: dict[str, Any] = codec.encode(state, skip=_HIDDEN)
    for player in data["players"]:
        player.pop("last_turn", None)  # the itemised income, sent with its sentences apart
    data["game"] = GAME_KEY
    data["rounds_total"] = ROUNDS
    data["event_cards"] = [
        {
            "number": n,
            "name": message(f"{GAME_KEY}:event/{n}", lang),
            "face_up": i >= state.events_done,
        }
        for i, n in enumerate(state.events)
    ]
    data["estate_income"] = {
        p.seat: {e: income_line(p, e).amount for e in ESTATES} for p in state.players
    }
    return data
