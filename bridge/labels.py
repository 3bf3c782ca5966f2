"""Catalog sentences for moves and prompts, for the phone buttons and the table display's log.

Every sentence comes from the message catalog (engine/i18n, codes of the server in
``engine/i18n/en/server.json``). A move's label is ``<game>:label/<kind>`` filled from the move's
own JSON fields, so a new game gets labels by adding catalog entries, not code; a kind with no
entry falls back to the generic ``label/move``.
"""

from __future__ import annotations

from typing import Any

from engine import codec
from engine.game import Game, Prompt
from engine.game import move_label as game_move_label
from engine.i18n import DEFAULT_LANG, catalog, has_message, message
from engine.registry import get_game


def _param(game_key: str, key: str, value: Any, lang: str) -> Any:
    """A move field as a sentence fragment: estate names translated, lists joined."""
    if isinstance(value, str) and key in ("estate", "symbol"):
        code = f"{game_key}:estate/{value}"
        return message(code, lang) if has_message(code) else value
    if isinstance(value, dict) and "estate" in value:
        return _param(game_key, "estate", value["estate"], lang)
    if isinstance(value, list):
        return ", ".join(str(_param(game_key, key, v, lang)) for v in value)
    return value


def move_label(
    game_key: str, move: dict[str, Any], lang: str = DEFAULT_LANG, public: bool = True
) -> str:
    """A short sentence for a move given as JSON (``{"kind": "lord", "seat": "blue", ...}``).

    A game that labels its own moves (the optional verb ``label``, engine/game.py) is asked
    first; ``public`` labels (the log) must not name hidden information, a seat's prompt
    buttons (``public=False``) may.
    """
    try:
        own = game_move_label(get_game(game_key), move, lang, public)
    except KeyError:
        own = None
    if own is not None:
        return own
    kind = str(move.get("kind", "?"))
    params = {k: _param(game_key, k, v, lang) for k, v in move.items()}
    params.setdefault("seat", "")
    for suffix in ("-none",):
        if any(v is None for k, v in move.items() if k != "kind"):
            code = f"{game_key}:label/{kind}{suffix}"
            if has_message(code):
                return message(code, lang, **params)
    code = f"{game_key}:label/{kind}"
    if has_message(code):
        return message(code, lang, **params)
    return message("label/move", lang, kind=kind, seat=params["seat"])


def prompt_json(game: Game[Any, Any], prompt: Prompt, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """A prompt with its sentence and every legal move labelled, as a phone shows it."""
    key = game.info.key
    code = f"{key}:{prompt.code}"
    params = {"seat": prompt.seat, **prompt.params}
    text = message(code if has_message(code) else "label/prompt", lang, code=prompt.code, **params)
    moves = [codec.encode(m) for m in prompt.moves]
    return {
        "seat": prompt.seat,
        "code": prompt.code,
        "params": prompt.params,
        "text": text,
        "moves": [{"move": m, "label": move_label(key, m, lang, public=False)} for m in moves],
    }


def ui_messages(lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """Every ``ui/`` label of the pages (headings, buttons) as raw catalog templates.

    The pages fill ``{name}`` placeholders themselves; a missing translation falls back to
    English code by code, as ``message`` does.
    """
    english, local = catalog(DEFAULT_LANG), catalog(lang)
    return {c: local.get(c, text) for c, text in english.items() if c.startswith("ui/")}
