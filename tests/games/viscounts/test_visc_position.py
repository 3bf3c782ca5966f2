"""Whole-position checks (``GAME.check_position``, issue 27): a position written by hand that no
play produces is found, every fault at once, each with a sentence in English and Polish; the
positions play produces pass (the random-play run with ``--check-positions`` over every seat
count is the wider test: docs/viscounts-tests.md).

Conservation of the components: digest §2 and seed L20-99 (20 Workers a colour, the cards and
tiles the box holds), §9 check 29 and seed L600-607 (the Lord of the Castle), §9 check 44.
"""

from __future__ import annotations

import random
from dataclasses import replace

from visc_support import started

from engine import codec, rules, selfplay
from engine.games.viscounts.game import GAME
from engine.games.viscounts.state import Castle, VState
from engine.i18n import violation_text


def _codes(state: VState) -> list[str]:
    return [v.code for v in GAME.check_position(state)]


def _castle_with(state: VState, level3: tuple[int, ...]) -> Castle:
    return replace(state.castle, level3=level3)


def test_a_position_from_play_has_no_fault() -> None:
    state = started(3)
    assert GAME.check_position(state) == []
    late = selfplay.play(GAME, ("a", "b", "c"), random.Random(5), {"max_rounds": 4}).session.state
    assert GAME.check_position(late) == []


def test_25_workers_of_one_colour_are_a_fault() -> None:
    """L20-99: 20 Workers of each colour; the pool and the Castle hold them all."""
    state = started(2)
    state = state.with_player(0, pool=25)
    faults = GAME.check_position(state)
    assert [v.code for v in faults] == ["position/workers"]
    assert faults[0].params["count"] == 25 and faults[0].params["seat"] == "ann"
    assert "25" in violation_text(faults[0], "en") and "20" in violation_text(faults[0], "en")
    assert "25" in violation_text(faults[0], "pl")


def test_a_worker_moved_into_the_castle_from_nowhere_is_a_fault() -> None:
    state = started(2)
    level1 = list(state.castle.level1)
    level1[0] = (1, 0)
    state = replace(state, castle=replace(state.castle, level1=tuple(level1)))
    assert _codes(state) == ["position/workers"]
    # the same Worker taken from the pool: a position play can reach
    assert _codes(state.with_player(0, pool=19)) == []


def test_a_card_held_twice_is_a_fault() -> None:
    """A Famous Townsfolk card exists once (L20-99): in a deck and a hand at once it is twice."""
    state = started(2)
    famous = next(c for c in state.players[0].cards() if _deck_of(state, c) == "famous")
    state = state.with_player(1, discard=(*state.players[1].discard, famous))
    faults = GAME.check_position(state)
    assert [v.code for v in faults] == ["position/card-copies"]
    assert faults[0].params == {"card": famous, "count": 2, "n": 1}
    assert "egzemplarz" in violation_text(faults[0], "pl")


def test_a_manuscript_twice_and_an_unknown_card_are_both_reported() -> None:
    state = started(2)
    top = state.stacks[0][0]
    state = state.with_player(0, manuscripts=(top,), hand=(*state.players[0].hand, "no-such"))
    assert sorted(_codes(state)) == ["position/manuscript-copies", "position/unknown-card"]


def test_a_lord_of_the_castle_without_a_level_3_worker_is_a_fault() -> None:
    """L600-607 (§9 check 29): the Lord is the first to reach level 3."""
    state = replace(started(2), lord=0)
    assert _codes(state) == ["position/lord-without-worker"]
    # with a level-3 Worker (taken from the pool) the Lord is sound
    sound = replace(state, castle=_castle_with(state, (1, 0))).with_player(0, pool=19)
    assert _codes(sound) == []
    # outnumbered: another seat with strictly more level-3 Workers would have replaced them
    outnumbered = replace(sound, castle=_castle_with(sound, (1, 2))).with_player(1, pool=18)
    assert _codes(outnumbered) == ["position/lord-outnumbered"]
    # nobody Lord while a seat has reached level 3
    assert _codes(replace(sound, lord=None)) == ["position/no-lord"]


def test_negative_counts_buildings_and_markers_are_faults() -> None:
    state = started(2).with_player(0, silver=-1)
    assert _codes(state) == ["position/negative"]
    state = started(2).with_player(1, virtue=99)
    assert _codes(state) == ["position/track"]
    state = started(2).with_player(0, built=(("workshop", 0, "nowhere"),))
    assert _codes(state) == ["position/site"]


def test_a_player_card_out_twice_is_a_fault() -> None:
    state = started(2)
    number = state.players[0].player_card
    assert number is not None
    state = state.with_player(1, player_card=number)
    assert _codes(state) == ["position/player-card"]


def _deck_of(state: VState, card: str) -> str | None:
    found = state.data.card(card)
    return found.deck if found is not None else None


def _late() -> VState:
    """A position from play with Buildings and Castle Workers, a Church Favour given to the
    first seat (random play seldom reaches three Manuscripts of one ribbon)."""
    for seed in range(20):
        state = selfplay.play(GAME, ("a", "b", "c"), random.Random(seed), {"max_rounds": 8})
        late = state.session.state
        c = late.castle
        if late.sites and sum(map(sum, (*c.level1, *c.level2, c.level3))):
            favour = late.data.church_favour[0].id
            return replace(late, favour_holders={favour: 0}).with_player(0, favours=(favour,))
    raise AssertionError("no seed gave a rich position")  # pragma: no cover


def test_derived_fields_a_hand_written_position_leaves_out_are_derived() -> None:
    """Issue 27, "derived fields are derived": ``sites`` (from ``players[].built``),
    ``favour_holders`` (from ``players[].favours``) and each ``pool`` (20 less the Castle's,
    seed L20-99) may be left out of a state file; a fresh table's ``castle`` too."""
    late = _late()
    written = codec.encode(late)
    for field in ("sites", "favour_holders"):
        del written[field]
    for p in written["players"]:
        del p["pool"]
    assert rules.decode_state(GAME, written) == late
    fresh = codec.encode(started(3))
    del fresh["castle"]
    for p in fresh["players"]:
        del p["pool"]
    assert rules.decode_state(GAME, fresh) == started(3)


def test_a_derived_field_written_wrong_is_kept_for_check_to_find() -> None:
    late = _late()
    written = codec.encode(late)
    written["players"][0]["pool"] = 25
    state = rules.decode_state(GAME, written)
    assert "position/workers" in [v.code for v in GAME.check_position(state)]
