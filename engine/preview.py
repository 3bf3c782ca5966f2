"""What a legal option gives the seat that may choose it: the preview a phone shows beside it.

A game offers the optional verb ``preview(state, move, seat, lang) -> dict | None``
(``engine.capabilities.Preview``); the core asks it for every move of a seat's own prompt
(``present.prompt_json``) so a player sees "Mill (1 Farmer): +2 income a round" before
choosing, not "slot 3". A preview is ``{"text": str, "lines": [line JSON...]}``, both optional:
``text`` names the component with its printed data, ``lines`` are signed amounts with their
sentences (``Line.to_json``).

``effect_lines`` is the helper most games build on: it applies the move to the (immutable) state
and returns the itemised lines the game's own ``last_lines`` reports for the seat, so a preview
says exactly what the referee would log, computed by the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.capabilities import LAST_LINES, PREVIEW, PREVIEWS, capability
from engine.game import Game
from engine.i18n import DEFAULT_LANG
from engine.refs import readable

MAX_PREVIEWED = 60
"""A prompt with more legal moves than this is shown without previews when its game previews
one move at a time (``preview``): each preview applies a move. A game whose options come in
large families (every pair of cards of a hand, say) offers ``previews`` instead, which previews
a whole prompt at once and applies one move per family of alike options."""


def option_preview(
    game: Game[Any, Any], state: Any, move: Any, seat: str, lang: str = DEFAULT_LANG
) -> dict[str, Any] | None:
    """``game.preview`` if the game previews its options, else None (nothing to say)."""
    verb = capability(game, PREVIEW)
    if verb is None:
        return None
    return _kept(verb.preview(state, move, seat, lang))


def option_previews(
    game: Game[Any, Any], state: Any, moves: Sequence[Any], seat: str, lang: str = DEFAULT_LANG
) -> list[dict[str, Any] | None]:
    """The previews of a prompt's ``moves``, in order: the game's ``previews`` verb if it has
    one (every option, however many), else ``preview`` per move for a prompt of at most
    ``MAX_PREVIEWED`` moves, else none."""
    many = capability(game, PREVIEWS)
    if many is not None:
        found = list(many.previews(state, list(moves), seat, lang))
        if len(found) != len(moves):
            raise ValueError(f"{game.info.key}: previews gave {len(found)} for {len(moves)} moves")
        return [_kept(f) for f in found]
    if len(moves) > MAX_PREVIEWED:
        return [None] * len(moves)
    return [option_preview(game, state, m, seat, lang) for m in moves]


def _kept(found: dict[str, Any] | None) -> dict[str, Any] | None:
    kept = {k: v for k, v in (found or {}).items() if v not in (None, "", [], {})}
    return kept or None


def effect_lines(
    game: Game[Any, Any], state: Any, move: Any, seat: str, lang: str = DEFAULT_LANG
) -> list[dict[str, Any]]:
    """The itemised lines ``seat`` would get from ``move`` (the game's ``last_lines`` after it),
    with their sentences; lines of other seats are theirs, not this preview's."""
    verb = capability(game, LAST_LINES)
    if verb is None:
        return []
    after = game.apply_unchecked(state, move)
    found = verb.last_lines(after)
    mine = [line for s, line in found if s == seat and line.amount]
    return [line.to_json(game.describe(line, lang)) for line in mine]


def amount_line(amount: int, text: str, ref: str = "", code: str = "preview") -> dict[str, Any]:
    """A preview line that is not one of the game's itemised lines (an income change)."""
    return {"source": "preview", "amount": amount, "code": code, "ref": ref,
            "where": readable(ref), "params": {}, "text": text}  # fmt: skip
