"""Hidden information stays hidden, checked over whole games of every registered game.

A seat's secrets at a state are the words its own view shows and the public table view does
not (card ids in a hand, Personal Goals...). Every public payload is checked against them: the
public view, the public log line of every move (``present.move_label(..., public=True)``), and
what every other seat's view shows. A word may become public through a move (a card played);
a log line may name it only if the state after that move shows it publicly.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import codec, log, present, registry, selfplay

KEYS = registry.game_keys()


def _words(data: Any) -> set[str]:
    """The distinctive strings of a payload: ids and names, not numbers or tiny words."""
    out: set[str] = set()
    if isinstance(data, dict):
        for v in data.values():
            out |= _words(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= _words(v)
    elif isinstance(data, str):
        # "challenge:<card>" names the card too
        parts = {data, *data.replace("/", ":").split(":")}
        out |= {p for p in parts if len(p) >= 4 and not p.lstrip("-").isdigit()}
    return out


def _seen(game: Any, state: Any, seat: str | None) -> set[str]:
    # a seat's own prompts list its legal moves, which hold public words too (field names,
    # move kinds); what they hold of its secrets is in its hand, goals... as well
    view = present.view(game, state, seat)
    return _words({k: v for k, v in view.items() if k not in ("prompts", "your_prompts")})


def _views(game: Any, state: Any) -> tuple[set[str], dict[str, set[str]]]:
    public = _words(present.view(game, state, None))
    seats = {s: _seen(game, state, s) for s in game.seats(state)}
    return public, seats


def _check_game(game: Any, result: selfplay.GameResult) -> list[str]:
    leaks: list[str] = []
    header = result.session.header
    session = log.start(game, header.players, header.options)
    public, seats = _views(game, session.state)
    for n, event in enumerate(result.events):
        secrets = {s: words - public for s, words in seats.items()}
        for seat, mine in secrets.items():
            for other, theirs in seats.items():
                if other != seat and (mine - _shared(seats, seat, other)) & theirs:
                    leaks.append(f"move {n}: {other} sees {seat}'s {sorted(mine & theirs)[:3]}")
        session = log.accept(session, event)
        after_public, after_seats = _views(game, session.state)
        line = present.move_label(game, codec.encode(event.move), "en", public=True)
        for seat, mine in secrets.items():
            named = [w for w in mine - after_public if w in line]
            if named:
                leaks.append(f"move {n} ({event.move.kind}): the public log names {seat}'s "
                             f"{named[:3]}: {line!r}")  # fmt: skip
        public, seats = after_public, after_seats
        if len(leaks) > 5:
            break
    return leaks


def _shared(seats: dict[str, set[str]], seat: str, other: str) -> set[str]:
    """Words both seats see privately (a card both know of, such as a shared choice): not a
    leak between them."""
    return seats[seat] & seats[other]


@pytest.mark.parametrize("key", KEYS)
def test_no_public_payload_shows_a_seats_secrets(key: str) -> None:
    game = registry.get_game(key)
    setups = [s for s in selfplay.setups(game) if s.players > 1][:3]
    leaks: list[str] = []
    for i, setup in enumerate(setups):
        seats = tuple(f"s{j}" for j in range(setup.players))
        result = selfplay.play(game, seats, random.Random(40 + i), setup.options)
        assert result.errors == []
        leaks += _check_game(game, result)
    assert leaks == []
