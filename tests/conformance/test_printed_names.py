"""Printed names, never ids, in what every game says to players (issue 25 point 3).

Two checks that need no browser, over every registered game:

- the host page's new-game form words every option and every choice from the game's catalog,
  in English and Polish (the form falls back to the option's name, ``skip_action``, and to the
  raw value, ``true``, when the catalog has none);
- a seeded random game, looked at every few moves as the presenter renders it (score lines,
  the last move's lines, income, the prompts' move labels), in both languages, shows no id the
  game's data or options define (``tests/visible_ids.py`` says which ids and how ordinary words
  are told apart). "starting Glory of Character rycerz-zakonny" or "Manuscript ms-9" fails it.

The browser test (tests/server/test_server_visible_names.py) scans the served pages' text too.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from visible_ids import ids_shown, page_catalog_texts, scanned_ids

from bridge.presenter import income_lines
from bridge.table_setup import choices
from engine import log, present, selfplay
from engine.i18n import LANGUAGES, catalog
from engine.registry import get_game, installed_keys

GAMES = list(installed_keys())
MOVES = 3_000
"""The longest game played (the games' simulated setups end well before)."""
EVERY = 60
"""Moves between two looks (and the last state, with its final scores, is looked at)."""


def _said(code: str, lang: str) -> str | None:
    """The catalog's own sentence in ``lang`` (no English stand-in for Polish)."""
    text = catalog(lang).get(code)
    return None if text is None else str(text)


def _word(value: Any) -> str:
    """A choice as the form's script spells it in a code (``String(v)``: true, null, 2)."""
    return json.dumps(value) if value is None or isinstance(value, bool) else str(value)


@pytest.mark.parametrize("key", GAMES)
def test_the_setup_form_words_every_option_and_choice_in_both_languages(key: str) -> None:
    game = next(g for g in choices()["games"] if g["key"] == key)
    missing = []
    for option in game["options"]:
        values = game["data_sets"] if option["name"] == game["data_option"] else option["choices"]
        if not values:  # a free-form option is not on the form
            continue
        for lang in LANGUAGES:
            if _said(f"{key}:ui/option-{option['name']}", lang) is None:
                missing.append(f"{lang}: option {option['name']}")
            for v in values:
                word = _word(v)
                if _said(f"{key}:ui/choice-{option['name']}-{word}", lang) is None:
                    missing.append(f"{lang}: choice {option['name']}={word}")
    assert missing == []


def _texts(game: Any, state: Any, lang: str) -> list[str]:
    """Every sentence the pages would show of ``state`` in ``lang``: score lines, the last
    move's lines, each seat's income, and the move labels of each seat's own prompt."""
    seats = tuple(game.seats(state))
    views = present.views(game, state, (None, *seats), lang)
    out: list[str] = []
    for view in views.values():
        out += [x["text"] for row in view["scores"] for x in row["lines"]]
        out += [x["text"] for x in view["last_lines"]]
        out += [m["label"] for p in view.get("your_prompts", []) for m in p.get("moves", [])]
    for lines in income_lines(game, state, seats, lang).values():
        out += [x["text"] for x in lines]
    return out


@pytest.mark.parametrize("key", GAMES)
def test_scores_income_and_move_labels_name_no_id(key: str) -> None:
    game = get_game(key)
    setup = selfplay.setups(game)[0]
    options = {**game.info.option_defaults(), **setup.options}
    seats = ("blue", "green", "pink", "yellow", "purple", "red")[: setup.players]
    ids = scanned_ids(key, page_catalog_texts())
    assert ids, "the game's data define ids to look for"
    session = log.start(game, seats, options)
    rng = random.Random(5)
    found: set[str] = set()
    for step in range(MOVES):
        state = session.state
        if step % EVERY == 0 or game.is_over(state):
            for lang in LANGUAGES:
                for text in _texts(game, state, lang):
                    found.update(f"{lang}: {hit}" for hit in ids_shown(text, ids))
        if game.is_over(state):
            break
        move = game.sample_chance(state, rng)
        if move is None:
            moves = game.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        session = log.accept(session, log.Event("move", move))
    assert sorted(found) == []
