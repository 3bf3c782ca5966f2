"""Property tests over random legal games of Glory (stand-in data, 2-4 players, both tournament
types), hypothesis picking the seed and the setup.

Each property is a rule of rules/glory.md: every duel ends after 2 or 3 passes with one winner
(§5.1, L735-737); every Glory change is on the ledger and the scores rank by Glory, then
Prestige (§8, L1024-1026); the log replays to the live state (engine.md); no view shows another
seat's Quest cards or Personal Goals (L173-177, L1421).
"""

from __future__ import annotations

import dataclasses
import json
import random
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec, get_game, log, present, rules, selfplay
from engine import data as gamedata
from engine.games.glory import duel
from engine.games.glory.duel_state import Duellist
from engine.games.glory.state import DuelStep, GloryState

GAME = get_game("glory")
SETUPS = selfplay.setups(GAME)
games = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
setup_index = st.integers(0, len(SETUPS) - 1)
seeds = st.integers(0, 2**32 - 1)


def _play(seed: int, k: int, **kw: Any) -> selfplay.GameResult:
    setup = SETUPS[k]
    seats = tuple(f"p{i}" for i in range(setup.players))
    return selfplay.play(GAME, seats, random.Random(seed), setup.options, **kw)


def test_the_simulated_setups_cover_1_to_4_players_and_both_tournaments():
    assert {(s.players, s.options["tournament"]) for s in SETUPS} == {
        (n, t) for n in (1, 2, 3, 4) for t in ("joust", "pas-d-armes")
    }
    assert {s.options["solo"] for s in SETUPS if s.players == 1} == {
        "wojownik",
        "samotnik",
        "rywal",
    }
    assert all(s.options["data"] == "stand-in" for s in SETUPS)


def test_ten_selfplay_games_have_no_errors():
    """The conformance run: legal moves always accepted, no stall, final positions sound."""
    rng = random.Random(11)
    for i in range(10):
        setup = SETUPS[i % len(SETUPS)]
        seats = tuple(f"p{k + 1}" for k in range(setup.players))
        result = selfplay.play(GAME, seats, rng, setup.options, check_positions=i < 2)
        assert result.errors == []
        assert GAME.is_over(result.session.state)


@games
@given(seed=seeds, k=setup_index)
def test_every_duel_of_a_game_ends_after_two_or_three_passes_with_one_winner(seed, k):
    """§5.1 [L735-737]: the first side to 2 won passes wins; a pass always has a winner."""
    finished: list[duel.DuelState] = []
    before: list[GloryState] = []

    def seen(session: log.Session, event: log.Event) -> None:
        move = event.move
        if before and isinstance(move, DuelStep) and before[0].duel is not None:
            after = duel.apply_unchecked(before[0].duel, move.move)
            if duel.is_over(after):
                finished.append(after)
        before[:] = [session.state]

    before.append(
        gamedata.setup(GAME, tuple(f"p{i}" for i in range(SETUPS[k].players)), SETUPS[k].options)
    )
    result = _play(seed, k, on_event=seen)
    assert result.errors == [] and finished
    for d in finished:
        wins = sorted(b.wins for b in d.boards)
        assert len(d.passes) in (2, 3) and wins in ([0, 2], [1, 2])
        assert sum(wins) == len(d.passes)
        assert [p.winner for p in d.passes].count(d.winner) == 2


@games
@given(seed=seeds, k=setup_index)
def test_scores_are_the_ledger_ranked_by_glory_then_prestige(seed, k):
    """§8, §1 [L1024-1026]: Glory = the sum of its ledger lines; ranks follow (Glory, Prestige
    tokens); the winners have the most Glory, then the most Prestige."""
    state = _play(seed, k).session.state
    rows = GAME.score(state)
    solo = state.options["solo"]
    # solo: SIR has a score only in the Rival scenario, and the scenario decides who wins
    # (Appendix A; tests/games/glory/test_glory_solo.py)
    scored = {p.seat for p in state.players if not p.sir or solo == "rywal"}
    assert {r.seat for r in rows} == scored
    for r in rows:
        p = state.player(r.seat)
        assert r.total == p.glory == sum(line.amount for line in r.lines)
        assert r.tiebreak == (len(p.prestige),)
    keys = {r.seat: (r.total, *r.tiebreak) for r in rows}
    for r in rows:
        assert r.rank == 1 + sum(1 for other in keys.values() if other > keys[r.seat])
    if solo:
        return
    best = max(keys.values())
    assert set(GAME.winners(state)) == {s for s, key in keys.items() if key == best}
    assert all(r.rank == 1 for r in rows if r.seat in GAME.winners(state))


@games
@given(seed=seeds, k=setup_index)
def test_every_glory_change_shows_under_the_move_that_made_it(seed, k):
    """§8 (the referee keeps a ledger of every Glory change): the lines the table shows under
    each move (``last_lines``) add up, seat by seat, to every player's Glory at the end, and
    none shows twice or under a move that changed nothing."""
    shown: dict[str, int] = {}
    count = [0]

    def record(session: log.Session, event: log.Event) -> None:
        before = count[0]
        for seat, line in present.last_lines(GAME, session.state):
            shown[seat] = shown.get(seat, 0) + line.amount
            count[0] += 1
        assert count[0] - before == len(session.state.ledger) - session.state.move_from

    state = _play(seed, k, on_event=record).session.state
    assert count[0] == len(state.ledger)
    for p in state.players:
        assert shown.get(p.seat, 0) == p.glory


@games
@given(seed=seeds, k=setup_index, cut=st.floats(0, 1))
def test_replay_of_the_log_equals_the_live_state(seed, k, cut):
    """engine.md: state = replay(log); any prefix of the log rebuilds the state it led to."""
    sessions: list[log.Session] = []
    result = _play(seed, k, on_event=lambda s, e: sessions.append(s))
    n = int(cut * (len(result.events) - 1))
    lines = [json.dumps(e.to_json()) for e in result.events[: n + 1]]  # the log file's lines
    events = [log.decode_event(GAME, json.loads(x)) for x in lines]
    replayed = log.replay(GAME, result.session.header, events)
    assert replayed.state == sessions[n].state and replayed.state_id == sessions[n].state_id


SECRET = ("hand", "goals", "offered")


@games
@given(seed=seeds, k=setup_index)
def test_no_view_shows_another_seats_hand_or_personal_goals(seed, k):
    """L173-177, L1421: Quest cards in hand and Personal Goals are secret; the table display
    shows how many, a seat's phone shows its own."""
    states: list[GloryState] = []
    result = _play(seed, k, on_event=lambda s, e: states.append(s.state))
    rng = random.Random(seed)
    picks = [states[i] for i in sorted(rng.sample(range(len(states)), 12))]
    seats = GAME.seats(result.session.state)
    for state in picks:
        public = present.view(GAME, state, None)
        for p in public["players"]:
            assert not set(SECRET) & set(p)
            assert p["hand_count"] == len(state.player(p["seat"]).hand)
        assert all(x["moves"] == [] for x in public["prompts"])
        for seat in seats:
            mine = present.view(GAME, state, seat)
            for p in mine["players"]:
                own = p["seat"] == seat
                assert bool(set(SECRET) & set(p)) == own
                if own:
                    assert p["hand"] == list(state.player(seat).hand)
                    assert p["goals"] == list(state.player(seat).goals)
            assert all(x["moves"] == [] for x in mine["prompts"] if x["seat"] != seat)
            pending = mine.get("pending")
            if pending and pending.get("kind") == "keep-titles":
                assert pending["seat"] == seat


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, k=setup_index)
def test_every_state_round_trips_through_validated_json(seed, k):
    """A state written by `herald rules glory new` and read back by `check` is the same state
    (the schema accepts every state a game reaches)."""
    states: list[GloryState] = []
    _play(seed, k, on_event=lambda s, e: states.append(s.state))
    for state in states[::23]:
        data = json.loads(json.dumps(codec.encode(state)))
        assert rules.decode_state(GAME, data) == state


def test_shipped_schema_is_the_schema_the_engine_generates():
    """engine/games/glory/schema.json ships with the game (docs/engine.md); regenerate it with
    `herald rules glory schema > engine/games/glory/schema.json`."""
    shipped = resources.files("engine.games.glory").joinpath("schema.json").read_text()
    assert json.loads(shipped) == rules.schema(GAME)


def test_schema_names_no_two_classes_alike():
    """engine.codec refuses two dataclasses of one name in a schema (the duel's reroll and the
    game's pending choice once shared the name ``Pending`` and so one schema entry)."""
    other = dataclasses.make_dataclass("Duellist", [("other", int)], frozen=True)
    defs: dict[str, Any] = {}
    codec.schema_for(GAME.state_type, defs)
    assert "Duellist" in defs
    with pytest.raises(TypeError, match="two dataclasses named 'Duellist'"):
        codec.schema_for(other, defs)
    assert codec.schema_for(Duellist, defs) == {"$ref": "#/$defs/Duellist"}
