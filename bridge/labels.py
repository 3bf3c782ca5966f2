"""Catalog sentences for moves and prompts, for the phone buttons and the table display's log.

Every sentence comes from the message catalog (engine/i18n, codes of the server in
``engine/i18n/en/server.json``). A move's label is ``<game>:label/<kind>`` filled from the move's
own JSON fields, so a new game gets labels by adding catalog entries, not code; a kind with no
entry falls back to the generic ``label/move``.
"""

from __future__ import annotations

from typing import Any

from engine import present
from engine.game import Game, Prompt
from engine.i18n import DEFAULT_LANG, catalog
from engine.registry import get_game


def move_label(
    game_key: str,
    move: dict[str, Any],
    lang: str = DEFAULT_LANG,
    public: bool = True,
    state: Any = None,
) -> str:
    """A short sentence for a move given as JSON (see ``engine.present.move_label``); given the
    ``state``, components are named as printed (the game's ``names``)."""
    game = get_game(game_key)
    return present.move_label(game, move, lang, public, present.state_names(game, state, lang))


def prompt_json(
    game: Game[Any, Any], prompt: Prompt, lang: str = DEFAULT_LANG, state: Any = None
) -> dict[str, Any]:
    """A prompt with its sentence and every legal move labelled (and previewed, given the
    ``state``), as a phone shows it."""
    return present.prompt_json(game, prompt, lang, own=True, state=state)


def is_page_label(code: str) -> bool:
    """A label the pages read: a core ``ui/...`` code, or a game's own ``<game>:ui/...`` one."""
    return code.startswith("ui/") or code.partition(":")[2].startswith("ui/")


def ui_messages(lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """Every page label (headings, buttons) as raw catalog templates: the core's ``ui/`` codes
    and each registered game's ``<game>:ui/`` codes, which its page module (``ui/*.js`` in the
    game's package) reads.

    The pages fill ``{name}`` placeholders themselves; a missing translation falls back to
    English code by code, as ``message`` does.
    """
    english, local = catalog(DEFAULT_LANG), catalog(lang)
    return {c: local.get(c, text) for c, text in english.items() if is_page_label(c)}
