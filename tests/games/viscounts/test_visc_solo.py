"""The solo mode against the AI (digest §8, seed L811-1015) on the stand-in data: setup, the
AI's turn as moves the game computes, the AI Help card, the flip choice, the resource
priority, the AI's Main Goals with their failure, the end scoring and the strict win; the
seed's solo examples cited by line; a whole game against each of the four AIs."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from typing import Any

import pytest
from visc_registered import registered
from visc_support import without_printed

from engine import codec, present, selfplay
from engine import data as gamedata
from engine.games.viscounts import resolve, rules, scoring, solo, turn
from engine.games.viscounts.effects import parse_effect
from engine.games.viscounts.game import GAME
from engine.games.viscounts.labels import label
from engine.games.viscounts.moves import AiStep, Choose, Lay, PickPair, RevealScheme, Travel
from engine.games.viscounts.state import Castle, Todo, VState
from engine.violations import InputError, RuleViolation

AIS = ("cleric", "merchant", "builder", "noble")


@pytest.fixture(autouse=True)
def _catalog() -> object:
    with registered() as game:
        yield game


@functools.cache
def loaded() -> Any:
    with registered() as game:
        return gamedata.load(game, {"data": "stand-in"})


def fresh(ai: str = "cleric", difficulty: int = 0) -> VState:
    state: VState = GAME.setup(
        ("ann",), {"data": "stand-in", "ai": ai, "difficulty": difficulty}, loaded()
    )
    return state


def chance_or_first(state: VState, rng: random.Random) -> VState:
    move = turn.sample_chance(state, rng)
    if move is None:
        move = turn.legal_moves(state)[0]
    return turn.apply(state, move)


def started(ai: str = "cleric", difficulty: int = 0, seed: int = 1, pick: int = 0) -> VState:
    """A solo game after setup: laid out, the player took pair ``pick``, opening hand drawn."""
    rng = random.Random(seed)
    state = fresh(ai, difficulty)
    state = turn.apply(state, turn.sample_lay(state, rng))
    state = turn.apply(state, PickPair("ann", pick))
    while state.phase == "pairs" or state.ask is not None:
        state = chance_or_first(state, rng)
    return state


def to_ai_turn(state: VState, rng: random.Random) -> VState:
    """Play the player's turn (first legal moves) until the table reveals the AI's Scheme."""
    while not (state.ask and state.ask.asks == "scheme" and state.ask.purpose == "deck"):
        state = chance_or_first(state, rng)
    return state


def ai_index(state: VState) -> int:
    assert state.solo is not None
    return state.solo.seat


def run(state: VState, *items: Todo) -> VState:
    return resolve.run(rules.push(state, items))


# --- setup (seed L813-850) ---


def test_one_player_is_legal_against_the_ai_seat() -> None:
    """VW-19, VW-40: one player plays against the AI seat; the player is First Player, so the
    AI takes the last turn (seed L822, L1003-1004)."""
    assert GAME.info.min_players == 1
    state = fresh()
    assert state.seats == ("ann", solo.AI_SEAT)
    assert state.first == 0 and state.order() == (0, 1)
    assert state.solo is not None and state.solo.seat == 1


def test_unknown_ai_difficulty_and_the_ai_seat_name_are_refused() -> None:
    with pytest.raises(RuleViolation) as exc:
        fresh("wizard")
    assert exc.value.violations[0].code == "solo/unknown-ai"
    with pytest.raises(InputError):
        fresh("cleric", 4)
    with pytest.raises(InputError):
        GAME.setup((solo.AI_SEAT,), {"data": "stand-in"}, loaded())


def test_scheme_piles_follow_the_ai_board_and_the_difficulty() -> None:
    """Seed L824-830, L1014-1015: the Starting Schemes the board's first space names go back to
    the box; 0-3 Future Schemes are shuffled into the deck (which ones is chance, VW-41)."""
    for ai in AIS:
        board = solo.board_of(fresh(ai).data, ai)
        for k in (0, 3):
            s = fresh(ai, k).solo
            assert s is not None
            assert not set(board.removes or ()) & set(s.deck)
            assert len(s.deck) == 8 - len(board.removes or ())
            assert s.mixed == k and len(s.future) == 8 and solo.future_left(s) == 8 - k


def test_two_pairs_and_the_ai_viscount_on_the_unpicked_card() -> None:
    """Seed L832-840 (check 4, solo 2 pairs): the player picks; the AI's Viscount goes to the
    town of the other Player card, which goes back to the box; a third pair is refused."""
    rng = random.Random(3)
    state = fresh()
    lay = turn.sample_lay(state, rng)
    assert len(lay.pairs) == 2
    with pytest.raises(RuleViolation):
        turn.apply(state, Lay(lay.decks, lay.stacks, (*lay.pairs, lay.pairs[0])))
    state = turn.apply(state, lay)
    other_number = lay.pairs[1][0]
    state = turn.apply(state, PickPair("ann", 0))
    board = state.data.board
    assert board is not None
    town = next(t for t in board.towns if t.number == other_number)
    assert state.players[1].town == town.id
    assert state.pairs == ()
    assert state.players[1].hand == () and state.players[1].deck == ()


def test_the_cleric_ai_starts_with_its_first_space() -> None:
    """Seed L846-850: the Cleric AI starts with 1 Ink, 1 Stone, 1 Deed, 1 Debt and a Guildhall
    built on a site next to its Viscount, resolving the site's effect."""
    state = started("cleric", seed=2)
    ai = state.players[1]
    assert ai.stone >= 1 and ai.deeds == 1 and ai.debts == 1
    assert [k for k, _, _ in ai.built] == ["guildhall"]
    site = ai.built[0][2]
    board = state.data.board
    assert board is not None
    near = [s.id for s in board.sites if s.part == board.town(ai.town or "").part]  # type: ignore[union-attr]
    assert site in near
    # VW-42: one player's stacks, laid after the setup's Debts were taken (VW-8, L196-199)
    assert state.debts_left == state.data.kingdom.poverty[1]


# --- the AI's turn (seed L957-966) ---


def test_the_ai_turn_is_a_reveal_then_one_move_per_step() -> None:
    """Seed L957-966: push the Schemes right, reveal the top Scheme onto the leftmost space,
    resolve its steps top to bottom. The AI's only legal move is the one the game computes;
    any other is refused (VW-40)."""
    rng = random.Random(5)
    state = to_ai_turn(started(seed=5), rng)
    assert turn.actor(state) == "table"
    s = state.solo
    assert s is not None
    card = s.deck[0]
    state = turn.apply(state, RevealScheme("deck", card))
    assert state.solo is not None and state.solo.board[0] == card
    steps = solo.scheme(state, card).steps or ()
    seen = 0
    while state.phase == "ai" or (state.ask is not None and state.ask.seat == 1):
        if state.ask is not None and state.ask.asks == "scheme":
            state = chance_or_first(state, rng)
            continue
        moves = turn.legal_moves(state)
        assert len(moves) == 1
        if isinstance(moves[0], AiStep):
            assert moves[0].step == seen
            wrong = AiStep(solo.AI_SEAT, card, seen + 1)
            with pytest.raises(RuleViolation) as exc:
                turn.apply(state, wrong)
            assert exc.value.violations[0].code == "solo/not-the-ai-move"
            seen += 1
        state = turn.apply(state, moves[0])
    assert seen == len(steps)
    assert turn.actor(state) == "ann"  # the AI's turn ended


def test_a_scheme_not_in_the_pile_or_from_the_wrong_pile_is_refused() -> None:
    rng = random.Random(6)
    state = to_ai_turn(started(seed=6), rng)
    s = state.solo
    assert s is not None
    removed = next(iter(solo.board_of(state.data, "cleric").removes or ()))
    for bad in (RevealScheme("deck", removed), RevealScheme("future", s.deck[0])):
        with pytest.raises(RuleViolation):
            turn.apply(state, bad)
    with pytest.raises(RuleViolation):  # a Future Scheme is not in the deck at difficulty 0
        turn.apply(state, RevealScheme("deck", s.future[0]))


def test_a_difficulty_future_scheme_may_come_from_the_deck() -> None:
    """Seed L1014-1015: with Future Schemes shuffled in, one may be revealed from the deck."""
    rng = random.Random(7)
    state = to_ai_turn(started(difficulty=2, seed=7), rng)
    s = state.solo
    assert s is not None
    state = turn.apply(state, RevealScheme("deck", s.future[0]))
    assert state.solo is not None and state.solo.mixed == 1 and len(state.solo.future) == 7


def test_the_deck_reshuffles_its_discard_pile_when_empty() -> None:
    """VW-44: an empty Scheme deck takes the discard pile (the Scheme just pushed off included,
    two left on the board, seed L915-917), with the reshuffle's Virtue/Corruption check."""
    state = started(seed=8)
    s = state.solo
    assert s is not None
    on = ("start-2", "start-3", "start-4")
    state = replace(state, solo=replace(s, board=on, deck=(), discard=("start-5",)))
    state = replace(state, turn=1, phase="turn-start")
    before = state.players[1]
    state = turn.advance(state)
    assert state.solo is not None
    assert state.solo.board == (None, "start-2", "start-3")
    assert sorted(state.solo.deck) == ["start-4", "start-5"] and state.solo.discard == ()
    after = state.players[1]
    # start-2 shows a Villain: +1 Corruption (player rules, VW-44)
    assert (after.corruption, after.virtue) != (before.corruption, before.virtue)
    assert state.ask is not None and state.ask.asks == "scheme"


def test_a_villain_scheme_gives_corruption_per_villain_on_the_ai_board() -> None:
    """Seed L984-986 (turn 2): a Scheme with a Villain gives 1 Corruption per Villain symbol on
    the AI's board (VW-43); one without gives none."""
    state = to_ai_turn(started(seed=9), random.Random(9))
    s = state.solo
    assert s is not None
    plain = replace(state, solo=replace(s, deck=("start-3",), board=(None, "start-4", None)))
    after = turn.apply(plain, RevealScheme("deck", "start-3"))
    assert after.players[1].corruption == state.players[1].corruption
    villain = replace(state, solo=replace(s, deck=("start-7",), board=(None, "start-2", None)))
    after = turn.apply(villain, RevealScheme("deck", "start-7"))
    p0, p1 = villain.players[1], after.players[1]
    assert (p1.corruption, p1.virtue, p1.stacked) != (p0.corruption, p0.virtue, p0.stacked)
    assert any(x.code == "line/villain" and x.amount == 2 for x in after.ledger)


# --- general AI rules (seed L857-917) ---


def test_the_ai_moves_clockwise_on_the_outer_path_only() -> None:
    """Seed L860-861: never the inner path, whatever the arrows allow."""
    state = started(seed=10)
    state = state.with_player(1, town="outer-0-left")
    after = solo.move(state, 1)
    assert after.players[1].town == "outer-0-right"
    after = solo.move(state, 3)
    assert after.players[1].town == "outer-1-right"


def test_meetings_in_both_directions() -> None:
    """Seed L862-866: the AI landing on your town lets you reorder your cards; you landing on
    the AI's town gives the AI a resource of its choice (VW-55)."""
    state = started(seed=11)
    state = state.with_player(0, town="outer-0-right", board=("woodcutter", "mason", None))
    state = state.with_player(1, town="outer-0-left")
    after = resolve.run(solo.move(state, 1))
    assert after.ask is not None and after.ask.asks == "reorder" and after.ask.seat == 0
    # you land on the AI: it gains a resource by its priority (Ink first for the Cleric)
    state = state.with_player(1, town="outer-0-right", ink=0)
    after = run(state, Todo(1, "meeting"))
    assert after.ask is None and after.players[1].ink == 1


def test_the_cleric_resource_priority() -> None:
    """Seed L866-870: Ink until it has 6, then Stone until 4, then Gold."""
    state = started(seed=12).with_player(1, ink=5, stone=3, gold=0)
    state = run(state, Todo(1, "gain", "resource", 3))
    p = state.players[1]
    assert (p.ink, p.stone, p.gold) == (6, 4, 1)


def test_help_card_column_one_two_silver_and_reorder_become_a_resource() -> None:
    """Seed L875-877: instead of 2 Silver or a reorder, 1 resource (VW-48)."""
    state = started(seed=13).with_player(1, ink=0, silver=0)
    after = run(state, Todo(1, "gain", "silver", 2))
    assert (after.players[1].silver, after.players[1].ink) == (0, 1)
    after = run(state, Todo(1, "gain", "silver", 3))
    assert (after.players[1].silver, after.players[1].ink) == (1, 1)
    after = run(state, Todo(1, "reorder"))
    assert after.ask is None and after.players[1].ink == 1


def test_help_card_column_two_destroy_and_an_empty_future_pile_flip() -> None:
    """Seed L879-881: a Destroy, or a draw with no Future Scheme left, flips a Debt/Deed."""
    state = started(seed=14).with_player(1, debts=1, deeds=0, paid=0, granted=0, ink=0)
    after = run(state, Todo(1, "destroy"))
    assert after.players[1].paid == 1 and after.players[1].ink == 1  # a flipped Debt pays 1
    s = state.solo
    assert s is not None
    empty = replace(state, solo=replace(s, future=(), mixed=0))
    after = run(empty, Todo(1, "draw", amount=1))
    assert after.ask is None and after.players[1].paid == 1


def test_help_card_column_three_virtue_instead() -> None:
    """Seed L883-885: nothing to flip, a Discard, a free Castle move: 1 Virtue instead."""
    state = started(seed=15).with_player(1, debts=0, deeds=0)
    for item in (Todo(1, "flip", "debt-or-deed"), Todo(1, "discard"), Todo(1, "shift-worker")):
        after = run(state, item)
        assert after.ask is None
        assert any(x.code == "line/ai-virtue" for x in after.ledger)


def test_the_flip_choice() -> None:
    """Seed L887-891: the kind with fewer flipped; a Debt on a tie; the only kind it can."""
    state = started(seed=16)
    tie = state.with_player(1, debts=1, deeds=1, paid=0, granted=0)
    assert solo.flip_kind(tie, "debt-or-deed") == "debt"
    fewer_deeds = state.with_player(1, debts=1, deeds=1, paid=2, granted=1)
    assert solo.flip_kind(fewer_deeds, "debt-or-deed") == "deed"
    only = state.with_player(1, debts=0, deeds=1, paid=0, granted=3)
    assert solo.flip_kind(only, "debt-or-deed") == "deed"
    assert solo.flip_kind(only, "debt") is None


def test_a_draw_icon_reveals_a_future_scheme_onto_the_discard_pile() -> None:
    """Seed L893-896: every card icon takes the top Future Scheme face up to the AI's discard
    pile; which one is chance the table reports (a free Hire too, VW-52)."""
    state = started(seed=17)
    for act in ("draw", "free-hire"):
        after = run(state, Todo(1, act, amount=1))
        assert after.ask is not None and after.ask.asks == "scheme"
        assert turn.actor(after) == "table"
        s = after.solo
        assert s is not None
        done = turn.apply(after, RevealScheme("future", s.future[0]))
        assert done.solo is not None and done.solo.discard[-1] == s.future[0]


def test_the_dismiss_icon_removes_the_card_and_resolves_its_hire_effect() -> None:
    """Seed L900-906: the Townsfolk beside the AI's Viscount leaves the game, the AI resolves
    its top-right effect, for no Silver and without its symbols (VW-49)."""
    state = started(seed=18).with_player(1, town="outer-0-left", silver=0)
    decks = list(state.decks)
    decks[0] = ("woodcutter", *decks[0][1:])
    state = replace(state, decks=tuple(decks))
    before = state.players[1]
    after = run(state, Todo(1, "dismiss"))
    assert after.decks[0] == state.decks[0][1:]
    assert "woodcutter" not in after.players[1].cards()
    assert after.players[1].silver == 0
    p0, p1 = before, after.players[1]
    assert (p1.virtue, p1.corruption) != (p0.virtue, p0.corruption)  # the Woodcutter's 1 Virtue


# --- the AI's main actions (seed L918-954) ---


def ai_with(state: VState, board: tuple[str | None, ...], **kit: Any) -> VState:
    s = state.solo
    assert s is not None
    state = replace(state, solo=replace(s, board=board))  # type: ignore[arg-type]
    return state.with_player(1, **kit)


def test_seed_solo_turn_one_fails_workers_and_takes_the_second_option() -> None:
    """Seed L967-982 (turn 1): 2 Nobles and no Gold cannot pay its minimum of 2 Workers (3
    Nobles); it flips a Debt and gains 1 Virtue instead (VW-47)."""
    state = started("noble", seed=19)
    state = ai_with(state, ("start-1", None, None), gold=0, debts=1, paid=0, built=(),
                    town="outer-0-left")  # fmt: skip
    state = replace(state, turn=1, phase="ai")
    assert solo.main_goal(state) is None
    s = state.solo
    assert s is not None
    state = replace(state, solo=replace(s, step=2))  # the Main Goal step of start-1
    before = state.players[1]
    after = turn.apply(state, AiStep(solo.AI_SEAT, "start-1", 2))
    assert any(x.code == "line/ai-fail" for x in after.ledger)
    assert after.players[1].paid == before.paid + 1
    assert any(x.code == "line/gain-virtue" for x in after.ledger)


def test_seed_solo_turn_one_whole() -> None:
    """Seed L967-982 (turn 1) step by step: the AI dismisses the card at its town (say +1
    Virtue: the Woodcutter), moves 2 spaces clockwise on the outer path, tries to Place Workers
    with 2 Nobles and no Gold, and instead flips a Debt (+1 resource) and gains 1 Virtue."""
    state = started("noble", seed=31)
    state = ai_with(state, ("start-1", None, None), gold=0, ink=0, debts=1, paid=0, built=(),
                    town="outer-0-left")  # fmt: skip
    decks = list(state.decks)
    decks[0] = ("woodcutter", *decks[0][1:])
    state = replace(state, decks=tuple(decks), turn=1, phase="ai")
    card = solo.scheme(state, "start-1")
    state = run(state, *solo.step_items(state, parse_effect("dismiss", "seed", "L967", "scheme"),
                                        "seed|0", 0))  # fmt: skip
    assert state.decks[0] == decks[0][1:]
    state = run(state, *solo.step_items(state, parse_effect("move 2", "seed", "L969", "scheme"),
                                        "seed|1", 0))  # fmt: skip
    assert state.players[1].town == "outer-1-left"
    state = run(state, *solo.step_items(state, (card.steps or ())[2], "start-1|2", 0))
    p = state.players[1]
    assert p.paid == 1 and p.debts == 0
    assert (p.gold, p.ink, p.stone) == (1, 0, 0)  # the flipped Debt's resource: its priority
    virtue = [x.amount for x in state.ledger if x.code == "line/gain-virtue"]
    assert virtue == [1, 1]  # the Woodcutter's and the second option's


def test_workers_the_most_it_can_pay_at_least_its_minimum() -> None:
    """Seed L933-940: into the level-1 section of its Viscount's part, the most it can pay,
    at least 2; with 2 Nobles and 1 Gold it places 2 Workers."""
    state = started("noble", seed=20)
    state = ai_with(state, ("start-1", None, None), gold=1, built=(), town="outer-2-left")
    state = replace(state, castle=Castle(tuple((0, 0) for _ in range(5)),
                                         state.castle.level2, (0, 0)))  # fmt: skip
    after = resolve.run(solo.main_goal(state))  # type: ignore[arg-type]
    assert after.players[1].gold == 0
    placed = [s[1] for s in after.castle.level1]
    assert sum(placed) + sum(s[1] for s in after.castle.level2) == 2
    assert after.castle.level1[2][1] == 2


def test_workers_push_out_your_workers() -> None:
    """Seed L939-940: the AI always pushes out your Workers."""
    state = started("noble", seed=21)
    level1 = tuple((2, 0) if k == 2 else (0, 0) for k in range(5))
    state = replace(state, castle=Castle(level1, state.castle.level2, (0, 0)))
    state = ai_with(state, ("start-1", None, None), gold=1, built=(), town="outer-2-left")
    state = replace(state, turn=1, phase="ai")
    after = resolve.run(solo.main_goal(state))  # type: ignore[arg-type]
    assert after.ask is not None and after.ask.asks == "push-out" and after.ask.seat == 1
    choice = solo.ai_move(after)
    assert isinstance(choice, Choose) and choice.option.endswith(":0")


def test_build_the_leftmost_building_it_can_afford_on_the_first_free_site() -> None:
    """Seed L920-925: the leftmost Building it can afford (Trading Posts and Guildhalls swap
    places on the AI side, VW-51) on the first free site beside its Viscount, River kept."""
    state = started("builder", seed=22)
    state = ai_with(state, ("start-3", None, None), stone=0, built=(), town="outer-1-right")
    state = replace(state, sites={})
    assert solo.strip(state)[:4] == [("workshop", 0), ("workshop", 1), ("workshop", 2),
                                     ("guildhall", 0)]  # fmt: skip
    after = solo.main_goal(state)  # 1 Builder: a Workshop (3) needs 2 Stone
    assert after is None
    state = state.with_player(1, stone=2)
    after = solo.main_goal(state)
    assert after is not None
    assert after.players[1].built[0][:2] == ("workshop", 0)
    assert after.players[1].built[0][2] == "site-1-2"  # the right side's first site
    full = replace(state, sites={"site-1-2": 0, "site-1-3": 0})
    assert solo.main_goal(full) is None  # no free site on its side of the River


def test_a_free_build_crosses_rivers_clockwise() -> None:
    """Seed L926-931: a free Build takes the first free site clockwise, crossing Rivers;
    ignored only when every site is taken."""
    state = started("builder", seed=23).with_player(1, town="outer-1-right", built=())
    taken = {"site-1-2": 0, "site-1-3": 0}
    after = solo.free_build(replace(state, sites=taken), "any")
    assert after.players[1].built[-1][2] == "site-2-0"
    board = state.data.board
    assert board is not None
    every = {s.id: 0 for s in board.sites}
    after = solo.free_build(replace(state, sites=every), "any")
    assert after.players[1].built == ()


def test_transcribe_the_manuscript_on_its_part_and_the_seed_turn_two() -> None:
    """Seed L984-998 (turn 2): a Villain Scheme gives Corruption; the AI draws a Future Scheme,
    moves 1 and transcribes the Manuscript on its part needing 3 Clerics, paid exactly by a
    Cleric symbol, a wild Villain and its Guildhall's Cleric (here position 2's)."""
    state = started("cleric", seed=24)
    state = ai_with(state, ("future-7", None, None), ink=0, built=(("guildhall", 1, "site-0-0"),),
                    town="outer-0-left", manuscripts=())  # fmt: skip
    stacks = list(state.stacks)
    stacks[0] = ("grey-1", *[m for m in stacks[0] if m != "grey-1"])
    state = replace(state, stacks=tuple(stacks))
    s = solo.supply(state)
    from engine.games.viscounts import symbols as sym

    assert sym.count(s, "cleric") == 3  # future-7: Villain + Cleric; Guildhall 2: Cleric
    after = solo.main_goal(state)
    assert after is not None
    assert after.players[1].manuscripts == ("grey-1",)
    assert after.stacks[0] == stacks[0][1:]
    state = replace(state, stacks=tuple(() if k == 0 else st for k, st in enumerate(stacks)))
    printed = solo.main_goal(state)  # the printed Manuscript (3 Clerics): its effect, no tile
    assert printed is not None and printed.players[1].manuscripts == ()
    assert solo.main_goal(without_printed(state)) is None  # nothing to Transcribe: it fails


def test_a_free_manuscript_tries_its_part_then_clockwise() -> None:
    """Seed L949-954."""
    state = started("cleric", seed=25).with_player(1, town="outer-2-left", manuscripts=())
    stacks = [("ms-5",), ("ms-5",), ("ms-3",), ("ms-2",), ("grey-1",)]  # costs 5+, 5+, 5, 4, 3
    state = replace(state, stacks=tuple(tuple(x) for x in stacks))
    costs = [rules.manuscript(state.data, st[0]).cost for st in state.stacks]
    after = solo.free_manuscript(state)
    first = next(k for k in (2, 3, 4, 0, 1) if costs[k] in (3, 4))
    assert after.stacks[first] == ()
    none = without_printed(replace(state, stacks=((), (), (), (), ())))
    assert solo.free_manuscript(none) == none
    # the printed Manuscripts are visible on the board: part 2's costs 3 (stand-in), effect only
    printed = solo.free_manuscript(replace(state, stacks=((), (), (), (), ())))
    assert printed.ledger[-1].code == "line/printed-manuscript"
    assert printed.ledger[-1].params == {"manuscript": "printed-manuscript-3"}


def test_trade_as_many_times_as_it_can_pay() -> None:
    """VW-50 (the stand-in's Merchant AI, an invented board)."""
    state = started("merchant", seed=26)
    state = ai_with(state, ("start-6", None, None), silver=0, built=(), town="outer-2-left")
    before = state.players[1].ink
    after = resolve.run(solo.main_goal(state))  # type: ignore[arg-type]
    assert after.players[1].ink == before + 1  # 2 Merchants, Ink at rate 2


# --- end and scoring (seed L1003-1015) ---


def test_the_ai_scores_one_vp_per_unused_resource() -> None:
    state = started(seed=27).with_player(1, ink=2, stone=1, gold=3, silver=9)
    rows = {r.seat: r for r in scoring.score(state)}
    lines = [x for x in rows["ai"].lines if x.code == "score/ai-resources"]
    assert [x.amount for x in lines] == [6]
    assert not any(x.code == "score/ai-resources" for x in rows["ann"].lines)


def test_you_win_only_with_strictly_more_vp() -> None:
    """Seed L1012: a tie goes to the AI (VW-54); one VP more wins."""
    state = replace(started(seed=28), phase="over")
    state = state.with_player(0, ink=0, stone=0, gold=0, silver=0, debts=0, deeds=0, built=(),
                              manuscripts=(), favours=(), paid=0, granted=0)  # fmt: skip
    state = state.with_player(1, ink=0, stone=0, gold=0, silver=0, debts=0, deeds=0, built=(),
                              manuscripts=(), favours=(), paid=0, granted=0)  # fmt: skip
    empty = Castle(tuple((0, 0) for _ in range(5)), tuple((0, 0) for _ in range(3)), (0, 0))
    state = replace(state, castle=empty, lord=None)
    assert GAME.winners(state) == ("ai",)
    assert GAME.winners(state.with_player(0, deeds=1)) == ("ann",)
    assert GAME.winners(state.with_player(0, deeds=1).with_player(1, ink=1)) == ("ai",)


# --- the table sees it ---


def test_the_table_view_shows_the_ai_scheme_and_labels_read_in_both_languages() -> None:
    rng = random.Random(29)
    state = to_ai_turn(started(seed=29), rng)
    s = state.solo
    assert s is not None
    move = RevealScheme("deck", s.deck[0])
    state = turn.apply(state, move)
    view = present.view(GAME, state, None)
    shown = view["solo"] if "solo" in view else view["game"]["solo"]
    assert shown["scheme"] == move.card and shown["step"] == 0
    assert shown["schemes"][move.card]["steps"]
    for lang in ("en", "pl"):
        text = label(codec.encode(move), lang, True, GAME.names(state))
        assert text and move.card not in text  # the Scheme by its name
        step = turn.legal_moves(state)[0]
        text = label(codec.encode(step), lang, True, GAME.names(state))
        assert text and "#" not in text
    assert present.view(GAME, state, "ann") is not None


def test_travel_onto_the_ai_is_a_meeting_for_the_ai() -> None:
    """The player's own move onto the AI's town (seed L862-866)."""
    state = started(seed=30)
    state = state.with_player(1, town="outer-0-right", ink=0)
    state = state.with_player(0, town="outer-0-left")
    state = replace(state, phase="move")
    options = turn.travel_options(state, 0)
    hit = [o for o in options if o[0] == "outer-0-right"]
    if not hit:
        pytest.skip("the opening hand gives no move there")
    after = turn.apply(state, Travel("ann", hit[0][0], hit[0][1]))
    assert after.players[1].ink == 1


# --- whole games ---


@pytest.mark.parametrize("ai", AIS)
def test_a_whole_game_against_each_ai(ai: str) -> None:
    """Random legal play for the player, uncapped, against each of the four AIs (seed L1012):
    the game ends by Poverty or Prosperity, the AI took its turns, nobody errs."""
    for seed in range(2):
        result = selfplay.play(
            GAME, ("ann",), random.Random(seed), {"ai": ai, "difficulty": seed + 1}
        )
        assert result.errors == []
        state = result.session.state
        assert state.phase == "over" and (state.poverty or state.prosperity)
        kinds = {codec.encode(e.move)["kind"] for e in result.events}
        assert {"ai-step", "reveal-scheme"} <= kinds
        assert GAME.winners(state)


def test_the_referee_plays_the_ai_seat_itself(tmp_path: Any) -> None:
    """VW-40 at a served table: every AI move is played by the referee (``auto_move``, logged
    with the source ``auto``), never left to a phone or the simulated table; the table only
    reveals the Schemes."""
    from bridge import autopass
    from bridge.referee import Referee
    from bridge.simtable import SimConfig, SimTable
    from bridge.store import EventStore

    options = {**GAME.info.option_defaults(), "data": "stand-in", "ai": "noble"}
    referee = Referee.open(EventStore(tmp_path / "solo.db"), GAME, "t1", ("ann",), options)
    sim = SimTable(referee, SimConfig(mode="all", seed=3))

    def moves() -> list[tuple[str, dict[str, Any]]]:
        return [(e.source, e.payload["move"]) for e in referee.store.events(referee.row.id)
                if e.kind == "move"]  # fmt: skip

    for _ in range(300):
        if not sim.step() or sum(m["kind"] == "ai-step" for _, m in moves()) >= 6:
            break
    ai_moves = [(src, m) for src, m in moves() if m.get("seat") == solo.AI_SEAT]
    assert len(ai_moves) >= 6 and all(src == autopass.SOURCE for src, _ in ai_moves)
    assert any(m["kind"] == "reveal-scheme" and src != autopass.SOURCE for src, m in moves())


def test_free_workers_go_to_the_section_of_its_part() -> None:
    """Seed L947-948 (a free Worker placement): into the level-1 section on its Viscount's
    board part, whatever section a player could pick."""
    state = started("noble", seed=32).with_player(1, town="outer-3-left")
    before = [s[1] for s in state.castle.level1]
    after = run(state, Todo(1, "free-workers", amount=1))
    assert after.ask is None
    assert [s[1] for s in after.castle.level1][3] == before[3] + 1


def test_the_ai_answers_by_its_rules() -> None:
    """VW-46: several cascading sections from the one beside its Viscount clockwise (seed
    L943-945); the first option at level 2 (L945-946); a resource paid last in its priority."""
    from engine.games.viscounts.state import Ask

    state = started("cleric", seed=33).with_player(1, town="outer-3-left", ink=2, gold=1)
    cascade = replace(state, ask=Ask(1, "cascade", ("0", "2", "4")))
    assert solo.ai_move(cascade) == Choose(solo.AI_SEAT, "4")
    cascade = replace(state, ask=Ask(1, "cascade", ("0", "2")))
    assert solo.ai_move(cascade) == Choose(solo.AI_SEAT, "0")
    alt = replace(state, ask=Ask(1, "alt", ("alt-0", "alt-1")))
    assert solo.ai_move(alt) == Choose(solo.AI_SEAT, "alt-0")
    pay = replace(state, ask=Ask(1, "pay-resource", ("ink", "gold")))
    assert solo.ai_move(pay) == Choose(solo.AI_SEAT, "gold")  # Cleric: Ink, Stone, then Gold
    theirs = replace(state, ask=Ask(0, "alt", ("alt-0", "alt-1")))
    assert solo.ai_move(theirs) is None  # the player's question is the player's


def test_the_ai_takes_the_lord_of_the_castle() -> None:
    """Seed L941-942: the AI can win the Lord of the Castle (its 5 VP at the end)."""
    state = started("noble", seed=34)
    level2 = tuple((0, 3) if k == 0 else (0, 0) for k in range(len(state.castle.level2)))
    state = replace(state, castle=replace(state.castle, level2=level2), lord=None)
    after = run(state, Todo(1, "castle"))
    assert after.lord == 1
    rows = {r.seat: r for r in scoring.score(after)}
    assert any(x.code == "score/lord" for x in rows["ai"].lines)
