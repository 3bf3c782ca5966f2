"""The box page's progress line (issue #24 point 1: "playable with 3–4 players; 5–6 need 2 family
colours"): a box that starts some player counts says what the others still need."""

from __future__ import annotations

import json

from bridge.box.workshop import Draft, report

from .box_support import exported


def _without_four_player_tournaments() -> Draft:
    box = exported("glory", "stand-in")
    doc = json.loads(box.members[box.data])
    doc["tournaments"] = [t for t in doc["tournaments"] if t["players"] != [4]]
    return Draft("glory", "ours", "stand-in.json", {"stand-in.json": doc})


def test_a_box_short_of_one_player_counts_cards_says_what_that_count_needs() -> None:
    """Glory's Tournament cards are grouped by player count (rules §3.3): without the 4-player
    ones the box plays 1–3 players, and the line names what 4 players need."""
    checked = report(_without_four_player_tournaments(), "en")
    assert checked["ok"] and checked["playable"] == [1, 2, 3]
    assert (
        "playable with 1–3 players; 4 players need 1 more thing: tournaments"
        in (checked["summary"])
    )


def test_the_same_line_in_polish() -> None:
    checked = report(_without_four_player_tournaments(), "pl")
    assert (
        "można grać dla 1–3 graczy; dla 4 graczy brakuje jeszcze 1 rzeczy" in (checked["summary"])
    )


def test_a_box_that_plays_every_count_says_nothing_more() -> None:
    box = exported("glory", "stand-in")
    doc = json.loads(box.members[box.data])
    checked = report(Draft("glory", "ours", "stand-in.json", {"stand-in.json": doc}), "en")
    assert checked["summary"].endswith("playable with 1–4 players")
