"""The referee checks of digest §9, one test per check, each with a LEGAL case (the rules allow
it and the engine applies it) and an ILLEGAL case (the engine refuses it with a coded sentence
in English and Polish and leaves the state as it was, or, where the check is not a move, the
rule does not fire). Each test names its check and the digest section with the seed lines.

The table in docs/viscounts-tests.md maps every check to its tests here and in
test_visc_game.py. The solo AI's exceptions (§8) belong to the solo tests.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from visc_registered import registered, shipped
from visc_support import settle, started, without_printed

from engine import codec
from engine.games.viscounts import resolve, rules, scoring, turn
from engine.games.viscounts.data import parse_doc, refusals
from engine.games.viscounts.game import GAME
from engine.games.viscounts.moves import (
    Build,
    Choose,
    Hire,
    Lay,
    Pass,
    PickPair,
    Play,
    Reveal,
    Skip,
    Trade,
    Transcribe,
    Travel,
    Workers,
)
from engine.games.viscounts.state import Castle, Turn, VState
from engine.i18n import violation_text
from engine.violations import InputError, RuleViolation

DATA = shipped()
SEATS = ("ann", "bob", "cyd", "dee")
SPACES: int = DATA.track.spaces or 0
RAW = Path(__file__).resolve().parents[3] / "engine/games/viscounts/data/stand-in-invented.json"


@pytest.fixture(autouse=True)
def _catalog() -> object:
    with registered() as game:
        yield game


# --- helpers -------------------------------------------------------------------------------------


def fresh(n: int = 2) -> VState:
    return turn.initial(SEATS[:n], {"skip_action": True}, DATA)


def at_action(town: str, board: tuple[str | None, str | None, str | None], **res: Any) -> VState:
    state = started(2).with_player(0, town=town, board=board, **res)
    return replace(state, phase="action", current=Turn(played=board[0]))


def with_top(state: VState, part: int, card: str) -> VState:
    decks = list(state.decks)
    decks[part] = (card, *decks[part])
    return replace(state, decks=tuple(decks))


def castle(state: VState, l1: list[list[int]], l2: list[list[int]], l3: list[int]) -> VState:
    return replace(state, castle=Castle(tuple(map(tuple, l1)), tuple(map(tuple, l2)), tuple(l3)))


def refused(state: VState, move: Any, code: str) -> None:
    """The move is refused with ``code``, a sentence in both languages; nothing changed; and
    the move is not among the legal ones."""
    before = codec.encode(state)
    with pytest.raises(RuleViolation) as exc:
        turn.apply(state, move)
    v = exc.value.violations[0]
    assert v.code == code, v.code
    en, pl = violation_text(v, "en"), violation_text(v, "pl")
    assert en and pl and en != pl and "{" not in en + pl
    assert codec.encode(state) == before
    assert move not in turn.legal_moves(state)


def finish_turn(state: VState, rng: random.Random) -> VState:
    """Play the active seat's turn with the first legal moves until another seat acts."""
    seat = turn.actor(state)
    while turn.actor(state) in (seat, "table") and state.phase != "over":
        state = turn.apply(state, turn.sample_chance(state, rng) or turn.legal_moves(state)[0])
    return state


# --- setup (§3) ----------------------------------------------------------------------------------


def test_check_01_board_sides() -> None:
    """Check 1, §3 step 1 [seed L106-111]: the board's side must fit the player count. Legal:
    the stand-in's side fits 2-4. Illegal: a side for 3-4 players refused for 2."""
    assert DATA.board is not None
    assert all(refusals(DATA, n) == [] for n in (2, 3, 4))
    narrow = replace(DATA, board=replace(DATA.board, sides=(3, 4)))
    problems = refusals(narrow, 2)
    assert [v.code for v in problems] == ["data/board-side"]
    assert violation_text(problems[0], "en") != violation_text(problems[0], "pl")


def test_check_02_manuscript_stacks() -> None:
    """Check 2, §3 step 4 [seed L121-135]: five stacks, a grey-backed tile on each top.
    Legal: the simulated lay-out. Illegal: a stack with its grey tile at the bottom."""
    good = turn.sample_lay(fresh(), random.Random(1))
    grey = {m.id for m in DATA.manuscripts if m.back == "grey"}
    assert len(good.stacks) == 5 and all(s[0] in grey for s in good.stacks)
    assert turn.apply(fresh(), good).phase == "pairs"
    bad = list(good.stacks)
    bad[2] = (*bad[2][1:], bad[2][0])
    refused(fresh(), replace(good, stacks=tuple(bad)), "setup/stacks")


def test_check_03_player_kit() -> None:
    """Check 3, §3 step 6 [seed L143-157, L191-194]: 20 Workers, 9 Buildings, Corruption on
    the leftmost space and Virtue on the rightmost, 8 Starting + 1 Famous card (± the Player
    card's), 3 in hand. Illegal: a data set with a ninth Starting card of a colour is refused."""
    state = started(3)
    for i, p in enumerate(state.players):
        assert p.pool + rules.castle_workers(state, i) == 20
        assert len(rules.strip_left(state, i)) + len(p.built) == 9
        assert len(p.hand) == 3
        decks = [DATA.card(c).deck for c in p.cards()]  # type: ignore[union-attr]
        assert decks.count("famous") == 1
        assert decks.count("starting") == 8 - (p.player_card == 9 and len(p.cards()) < 9)
    for p in fresh(4).players:
        assert (p.corruption, p.virtue, p.pool) == (0, SPACES - 1, 20)
    raw = json.loads(RAW.read_text(encoding="utf-8"))
    nine = copy.deepcopy(raw)
    first = next(c for c in nine["townsfolk"] if c["deck"] == "starting")
    first["count"] = 2
    with pytest.raises(InputError) as exc:
        parse_doc(nine)
    assert exc.value.code == "input/data"


def _lay(pairs: tuple[tuple[int, str], ...], n: int = 2) -> Lay:
    good = turn.sample_lay(fresh(n), random.Random(1))
    return Lay(good.decks, good.stacks, pairs)


def test_check_04_pairs() -> None:
    """Check 4, §3 steps 8-9 [seed L167-194]: players+1 pairs; the player right of the First
    Player picks first; the Viscount stands on the Player card's red number. Illegal: the
    First Player picking first, a pair that is not there, and too few pairs laid out."""
    state = turn.apply(fresh(3), _lay(((1, "bishop"), (4, "countess"), (7, "herald"),
                                       (10, "marshal")), 3))  # fmt: skip
    assert len(state.pairs) == 4 and turn.actor(state) == "cyd"
    refused(state, PickPair("ann", 0), "turn/not-your-turn")
    refused(state, PickPair("cyd", 7), "setup/no-pair")
    after = turn.apply(state, PickPair("cyd", 1))
    town = DATA.board.town(after.players[2].town or "")  # type: ignore[union-attr]
    assert town is not None and town.number == 4 and after.players[2].player_card == 4
    assert len(after.pairs) == 3
    refused(fresh(3), _lay(((1, "bishop"), (4, "countess"), (7, "herald")), 3), "setup/pairs")


def test_check_05_player_card_gains() -> None:
    """Check 5, §3 step 9 [seed L176-187]: the seat takes what its Player card shows; card 8's
    effect acts only at the Viscount's town (VW-10: its free Hire takes only the card beside
    it); card 3's acts anywhere (its free Worker into any section). Illegal: card 8's free
    Hire of a card elsewhere."""
    state = turn.apply(fresh(2), _lay(((8, "bishop"), (3, "countess"), (1, "herald"))))
    assert turn.actor(state) == "bob"
    state = turn.apply(state, PickPair("bob", 0))
    bob = state.players[1]
    assert (bob.silver, bob.ink, bob.stone) == (1, 1, 1) and bob.town == "inner-3"
    assert state.ask is not None and state.ask.asks == "free-hire"
    assert state.ask.options == ("3",)
    refused(state, Choose("bob", "0"), "choose/not-an-option")
    top = state.decks[3][0]
    state = turn.apply(state, Choose("bob", "3"))
    assert top in state.players[1].cards() and state.players[1].silver == 1
    rng = random.Random(5)
    while state.ask is not None and state.ask.asks == "reveal":
        state = turn.apply(state, turn.sample_chance(state, rng))
    assert turn.actor(state) == "ann"
    state = turn.apply(state, PickPair("ann", 0))  # card 3: 1 Silver, 1 Stone, 1 Debt
    assert state.ask is not None and state.ask.asks == "free-workers"
    assert state.ask.options == tuple(str(k) for k in range(5))  # anywhere
    ann = state.players[0]
    assert (ann.silver, ann.stone, ann.debts) == (1, 1, 1)


def test_check_05_player_card_9_destroys_before_shuffling() -> None:
    """Check 5, §3 step 9 [seed L186-187]: Player card 9 lets the seat Destroy one card of
    its deck before shuffling (VW-10), for its Silver value. Illegal: a card not in it."""
    state = turn.apply(fresh(2), _lay(((9, "bishop"), (3, "countess"), (1, "herald"))))
    state = turn.apply(state, PickPair("bob", 0))
    assert state.ask is not None and state.ask.asks == "destroy"
    assert "card:bishop" in state.ask.options
    refused(state, Choose("bob", "card:countess"), "choose/not-an-option")
    silver = state.players[1].silver
    state = turn.apply(state, Choose("bob", "card:bishop"))
    assert "bishop" not in state.players[1].cards()
    assert state.players[1].silver == silver + 2 and len(state.players[1].cards()) == 8


def test_check_06_debt_and_deed_stacks() -> None:
    """Check 6, §3 step 10 [seed L196-203]: the stacks hold the printed sizes for the count,
    laid after step 9's pairs (L174-182, VW-8), so a Player card's Debts do not thin them.
    Illegal: the box, whose Poverty sizes the seed does not give, is refused naming them."""
    for n in (2, 3, 4):
        assert (fresh(n).debts_left, fresh(n).deeds_left) == (0, 0)  # not laid before step 9
        state = started(n)
        assert (state.debts_left, state.deeds_left) == (
            DATA.kingdom.poverty[n],
            DATA.kingdom.prosperity[n],
        )
    what = {v.params.get("what") for v in refusals(shipped("box"), 3)}
    assert "kingdom.poverty[3]" in what


# --- the turn (§4) -------------------------------------------------------------------------------


def test_check_07_turn_order_and_a_fixed_first_player() -> None:
    """Check 7, §1 [seed L159-160, L297-299]: turns go clockwise from the First Player, who
    never changes. Illegal: the next seat acting before its turn."""
    state = started(3)
    assert turn.actor(state) == "ann" and state.first == 0
    refused(state, Play("bob", state.players[1].hand[0]), "turn/not-your-turn")
    rng = random.Random(2)
    seen = []
    for _ in range(6):
        seen.append(turn.actor(state))
        state = finish_turn(state, rng)
    assert seen == ["ann", "bob", "cyd", "ann", "bob", "cyd"] and state.first == 0


def test_check_08_phase_order() -> None:
    """Check 8, §4 [seed L301-313]: phases 1→6 in order. Legal: play, move, act, hire.
    Illegal: a main action or a Hire before the card is played, a Hire before the action."""
    state = started(2)
    assert state.phase == "play"
    refused(state, Trade("ann", 1), "turn/not-now")
    refused(state, Hire("ann"), "turn/not-now")
    refused(state, Travel("ann", "inner-0", 1), "turn/not-now")
    state = settle(turn.apply(state, Play("ann", state.players[0].hand[0])))
    assert state.phase == "move"
    state = settle(turn.apply(state, turn.legal_moves(state)[0]))
    assert state.phase == "action"
    refused(state, Pass("ann"), "turn/not-now")
    state = settle(turn.apply(state, Skip("ann")))
    assert state.phase == "hire"


def test_check_09_push_step() -> None:
    """Check 9, §4 phase 1 step 1 [seed L328-334]: every card moves right; the one pushed off
    tops the discard pile and its push-off ability resolves (the Apprentice: a free Hire and
    1 Virtue). Illegal: a card without a push-off ability gives nothing when pushed off."""
    base = replace(started(2), phase="turn-start")
    state = turn.advance(base.with_player(0, board=("abbot", "baker", "apprentice")))
    assert state.players[0].board == (None, "abbot", "baker")
    assert state.players[0].discard[-1] == "apprentice"
    assert state.ask is not None and state.ask.asks == "free-hire"
    plain = turn.advance(base.with_player(0, board=("abbot", "apprentice", "baker")))
    p = plain.players[0]
    assert p.board == (None, "abbot", "apprentice") and p.discard[-1] == "baker"
    assert plain.ask is None and p.virtue == base.players[0].virtue and plain.phase == "play"


def test_check_10_exactly_one_card_played() -> None:
    """Check 10, §4 phase 1 step 2 [seed L336-346]: one card from the hand on the leftmost
    space. Illegal: a card not in the hand, and a second card once one is played."""
    state = started(2)
    card = state.players[0].hand[0]
    other = next(c for c in ("countess", "herald") if c not in state.players[0].hand)
    refused(state, Play("ann", other), "play/not-in-hand")
    after = turn.apply(state, Play("ann", card))
    assert after.players[0].board[0] == card and len(after.players[0].hand) == 2
    after = settle(after)
    refused(after, Play("ann", after.players[0].hand[0]), "turn/not-now")


def test_check_11_villain_corruption_on_play() -> None:
    """Check 11, §4 phase 1 [seed L336-343]: a played Villain card gives 1 Corruption per
    Villain on the board, its own included (the Antagonist: 2 + 1 for the Racketeer), and no
    further than the track's end. A card without a Villain gives none."""
    hand = ("antagonist", "baker")
    state = started(2).with_player(0, board=(None, "racketeer", "abbot"), hand=hand)
    assert turn.apply(state, Play("ann", "antagonist")).players[0].corruption == 3
    assert turn.apply(state, Play("ann", "baker")).players[0].corruption == 0
    near = state.with_player(0, corruption=SPACES - 3)
    p = turn.apply(near, Play("ann", "antagonist")).players[0]
    assert p.corruption == SPACES - 1  # 3 gained, only 2 spaces left: the rest is lost


def test_check_12_never_fewer_than_three_cards() -> None:
    """Check 12, §4 phase 1 [seed L348-353]: a Destroy that would leave fewer than 3 cards is
    not offered; with 4 cards it is."""
    state = started(2).with_player(0, board=("baker", "abbot", None), hand=("weaver",),
                                   deck=(), discard=())  # fmt: skip
    assert rules.card_choices(state, 0, destroy=True) == ()
    asked = resolve.run(rules.push(state, (rules.Todo(0, "destroy"),)))
    assert asked.ask is None and asked.players[0].cards() == state.players[0].cards()
    four = state.with_player(0, hand=("weaver", "baker"))
    assert "hand:weaver" in rules.card_choices(four, 0, destroy=True)


def test_check_12_three_cards_push_the_last_and_play_it() -> None:
    """Check 12 [seed L351-353]: a seat with exactly its 3 board cards pushes the rightmost
    off, which alone becomes the deck and is played onto the leftmost space."""
    state = replace(started(2), phase="turn-start")
    state = state.with_player(0, board=("baker", "abbot", "weaver"), hand=(), deck=(),
                              discard=())  # fmt: skip
    virtue = state.players[0].virtue
    state = turn.advance(state)
    assert state.ask is not None and state.ask.purpose == "play"
    assert state.players[0].virtue == virtue - 1  # VW-11: this reshuffle checks too
    refused(state, Reveal("ann", "baker"), "reveal/not-in-deck")
    state = turn.apply(state, Reveal("ann", "weaver"))
    assert state.players[0].board == ("weaver", "baker", "abbot")
    assert len(state.players[0].cards()) == 3


def _at_move(card: str = "abbot", silver: int = 0, town: str = "outer-0-left") -> VState:
    state = started(2).with_player(0, town=town, silver=silver, board=(card, None, None))
    return replace(state, phase="move", current=Turn(played=card))


def test_check_13_movement_minimum() -> None:
    """Check 13, §4 phase 2 [seed L360-363]: at least the played card's value (the Abbot: 2).
    Illegal: 1 space."""
    state = _at_move("abbot")
    assert turn.apply(state, Travel("ann", "outer-1-left", 2)).players[0].town == "outer-1-left"
    refused(state, Travel("ann", "outer-0-right", 1), "move/illegal")


def test_check_14_movement_payment() -> None:
    """Check 14, §4 phase 2 [seed L362-363, L524-525]: 1 Silver per extra space, minus 1 with
    Trading Post 1. Illegal: more spaces than the Silver pays for."""
    state = _at_move("abbot", silver=1)
    assert turn.apply(state, Travel("ann", "outer-1-right", 3)).players[0].silver == 0
    refused(state, Travel("ann", "outer-2-left", 4), "move/illegal")
    tp1 = state.with_player(0, built=(("trading-post", 0, "site-0-0"),))
    assert turn.apply(tp1, Travel("ann", "outer-2-left", 4)).players[0].silver == 0


def test_check_15_movement_follows_the_arrows() -> None:
    """Check 15, §4 phase 2 [seed L370-375]: along the arrows only, never backwards. Legal:
    the example's 1 by way of 2. Illegal: the town behind the start."""
    state = _at_move("abbot", silver=5)
    assert turn.apply(state, Travel("ann", "outer-0-right", 2)).players[0].silver == 5
    refused(state, Travel("ann", "outer-4-right", 2), "move/illegal")
    refused(state, Travel("ann", "inner-4", 3), "move/illegal")


def test_check_16_meeting_reorder_window() -> None:
    """Check 16, §4 phase 2 [seed L365-368]: landing on another Viscount's town lets THAT
    player reorder. Illegal: the mover answering for them, an order not offered."""
    state = _at_move("abbot").with_player(1, town="inner-1", board=("baker", "abbot", None))
    state = turn.apply(state, Travel("ann", "inner-1", 2))
    assert state.ask is not None and state.ask.asks == "reorder" and state.ask.seat == 1
    refused(state, Choose("ann", "1,0,2"), "turn/not-your-turn")
    refused(state, Choose("bob", "9,9,9"), "choose/not-an-option")
    state = turn.apply(state, Choose("bob", "1,0,2"))
    assert state.players[1].board == ("abbot", "baker", None)
    alone = turn.apply(_at_move("abbot"), Travel("ann", "outer-1-left", 2))
    assert alone.ask is None and alone.phase == "action"


# --- main actions (§4 phase 3, §5) ---------------------------------------------------------------


def test_check_17_action_follows_the_path() -> None:
    """Check 17, §4 phase 3 [seed L399-402]: Trade and Build from the outer path, Workers and
    Transcribe from the inner. (The solo AI's exception is tested with the AI.)"""
    outer = at_action("outer-0-left", ("thief", "baker", None), gold=9, ink=9, silver=2)
    assert turn.apply(outer, Trade("ann", 1)).phase != "action"
    refused(outer, Workers("ann", 1), "action/wrong-path")
    refused(outer, Transcribe("ann"), "action/wrong-path")
    inner = at_action("inner-0", ("thief", "baker", None), gold=9, ink=9, silver=2, stone=9)
    assert settle(turn.apply(inner, Workers("ann", 1))).phase != "action"
    refused(inner, Trade("ann", 1), "action/wrong-path")
    refused(inner, Build("ann", "workshop", 0, "site-0-0"), "action/wrong-path")


def test_check_18_one_main_action() -> None:
    """Check 18, §4 phase 3 [seed L399]: exactly one main action. Illegal: a second one."""
    state = at_action("outer-0-left", ("baker", "baker", None), silver=2)
    state = settle(turn.apply(state, Trade("ann", 1)))
    assert state.phase == "hire" and state.current.action == "trade"
    refused(state, Trade("ann", 1), "turn/not-now")
    refused(state, Skip("ann"), "turn/not-now")


def test_check_19_symbol_payment() -> None:
    """Check 19, §4 phase 3 [seed L403-411]: board symbols + Villains (wild) + bought symbols
    (Stone for Builders) + the dismissed card. Legal: a Workshop from 1 Builder, 1 Villain and
    1 Stone. Illegal: one symbol short."""
    state = at_action("outer-0-right", ("woodcutter", "racketeer", None), stone=1)
    after = settle(turn.apply(state, Build("ann", "workshop", 0, "site-0-2")))
    assert after.players[0].stone == 0 and len(after.players[0].built) == 1
    short = state.with_player(0, stone=0)
    refused(short, Build("ann", "workshop", 0, "site-0-2"), "action/cannot-pay")


def test_check_20_dismiss_legality() -> None:
    """Check 20, §4 phase 3 [seed L413-426, L525-526, L672-674]: the card beside the Viscount,
    showing the action's symbol or a Villain, for its value (1 with Trading Post 2); it leaves
    the game. Illegal: a card without a fitting symbol, one the seat cannot pay for, and a
    dismissal under an empty deck (VW-17)."""
    state = with_top(at_action("outer-0-right", (None, None, None), silver=2, stone=2), 0,
                     "woodcutter")  # fmt: skip
    after = settle(turn.apply(state, Build("ann", "workshop", 0, "site-0-2", dismiss=True)))
    assert after.players[0].silver == 0 and after.current.dismissed
    assert after.decks[0] == state.decks[0][1:]
    assert "woodcutter" not in after.players[0].cards()
    unfit = with_top(at_action("outer-0-left", (None, None, None), silver=9), 0, "woodcutter")
    refused(unfit, Trade("ann", 1, dismiss=True), "dismiss/cannot")
    poor = state.with_player(0, silver=1)
    refused(poor, Build("ann", "workshop", 0, "site-0-2", dismiss=True), "dismiss/cannot")
    tp2 = poor.with_player(0, built=(("trading-post", 1, "site-4-0"),))
    assert turn.dismissable(tp2, 0, "build") == "woodcutter"
    empty = replace(state, decks=((), *state.decks[1:]))
    # the printed card under the empty deck (a Builder, value 1) is dismissed; it stays printed
    assert turn.dismissable(empty, 0, "build") == "printed-townsfolk-1"
    printed = settle(turn.apply(empty, Build("ann", "workshop", 0, "site-0-2", dismiss=True)))
    assert printed.current.dismissed and printed.decks[0] == ()
    refused(without_printed(empty), Build("ann", "workshop", 0, "site-0-2", dismiss=True),
            "dismiss/cannot")  # fmt: skip


def test_check_20_a_dismissed_cards_effect_comes_first() -> None:
    """Check 20, §4 phase 3 [seed L420-421, L512-517, L658-659]: the dismissed card's effect
    resolves at once, before the action's own results (the Mason's and the Racketeer's
    reorder come before the Build and the Manuscript): here before the Castle cascade."""
    state = at_action("inner-0", ("thief", None, None), silver=1)
    state = castle(with_top(state, 0, "racketeer"), [[2, 0]] + [[0, 0]] * 4, [[0, 0]] * 3,
                   [0, 0])  # fmt: skip
    state = turn.apply(state, Workers("ann", 2, dismiss=True))
    assert state.ask is not None and state.ask.asks == "reorder"
    assert state.castle.level1[0][0] == 4  # the cascade waits for the reorder
    state = settle(state, ["keep"])
    assert state.castle.level1[0][0] == 1 and state.castle.level2[0][0] == 1


def test_check_21_trade_maths() -> None:
    """Check 21, §5.1 [seed L435-458]: at most floor(Merchants ÷ rate) exchanges, as many as
    the player picks. At a Silver town bought Merchants give net 0; a single Merchant at a
    resource town gives nothing."""
    silver_town = at_action("outer-0-left", ("baker", None, None), silver=2)
    assert turn.apply(silver_town, Trade("ann", 3)).players[0].silver == 3  # 2 - 2 + 3
    assert turn.apply(silver_town, Trade("ann", 1)).players[0].silver == 3  # 2 + 1
    refused(silver_town, Trade("ann", 4), "action/cannot-pay")
    resource_town = at_action("outer-0-right", ("baker", None, None), silver=0)
    refused(resource_town, Trade("ann", 1), "action/cannot-pay")
    refused(resource_town, Trade("ann", 0), "trade/times")
    two = resource_town.with_player(0, board=("trader", None, None))
    after = turn.apply(two, Trade("ann", 1))
    assert after.ask is not None and after.ask.asks == "resource"
    # 4 Merchants per flip, several flips in any mix of Debts and Deeds (seed L455-458)
    flip_town = at_action("outer-1-right", ("trader", "trader", None), silver=4)
    flip_town = flip_town.with_player(0, debts=1, deeds=1, paid=0, granted=0)
    mixed = turn.apply(flip_town, Trade("ann", 2))
    assert mixed.ask is not None and set(mixed.ask.options) == {"debt", "deed"}
    mixed = settle(mixed, ["debt", "ink"])
    p = mixed.players[0]
    assert (p.debts, p.paid, p.deeds, p.granted, p.silver) == (0, 1, 0, 1, 0 + 2)
    refused(flip_town, Trade("ann", 3), "action/cannot-pay")


def test_check_22_destroy_payout() -> None:
    """Check 22, §5.1 [seed L448-453]: 3 Merchants destroy a card from the hand (or the deck's
    top) for its Silver value; it leaves the game. Illegal: a card the hand does not hold."""
    state = at_action("outer-1-left", ("baker", "weaver", "lamplighter"), silver=0)
    state = state.with_player(0, hand=("cooper", "baker"))
    state = turn.apply(state, Trade("ann", 1))
    assert state.ask is not None and state.ask.asks == "destroy"
    assert "decline" in state.ask.options  # always optional
    refused(state, Choose("ann", "hand:herald"), "choose/not-an-option")
    count = len(state.players[0].cards())
    state = turn.apply(state, Choose("ann", "hand:cooper"))
    p = state.players[0]
    assert p.silver == 4 and "cooper" not in p.cards() and len(p.cards()) == count - 1


def test_check_23_build_cost() -> None:
    """Check 23, §5.2 [seed L487-488]: Workshop 3, Trading Post 5, Guildhall 7 Builders.
    Legal: a Trading Post from 5. Illegal: a Guildhall from 5."""
    state = at_action("outer-0-right", ("brewer", "brewer", "woodcutter"), stone=0)
    assert rules.supply(state, 0).plain("builder") == 5
    after = settle(turn.apply(state, Build("ann", "trading-post", 0, "site-0-2")))
    assert after.players[0].built == (("trading-post", 0, "site-0-2"),)
    refused(state, Build("ann", "guildhall", 0, "site-0-2"), "action/cannot-pay")
    assert turn.apply(state.with_player(0, stone=2), Build("ann", "guildhall", 0, "site-0-2"))


def test_check_24_build_site() -> None:
    """Check 24, §5.2 [seed L476-485]: an empty site of the Viscount's part on its side of the
    River, a Building still on the strip. Illegal: a taken site, the far bank, another part,
    a Building already built."""
    state = at_action("outer-0-right", ("brewer", "brewer", "brewer"), stone=9)
    assert settle(turn.apply(state, Build("ann", "workshop", 0, "site-0-3"))).sites
    refused(replace(state, sites={"site-0-3": 1}), Build("ann", "workshop", 0, "site-0-3"),
            "build/site")  # fmt: skip
    refused(state, Build("ann", "workshop", 0, "site-0-0"), "build/site")
    refused(state, Build("ann", "workshop", 0, "site-1-2"), "build/site")
    built = state.with_player(0, built=(("workshop", 0, "site-3-0"),))
    refused(built, Build("ann", "workshop", 0, "site-0-3"), "build/taken")


def test_check_25_build_bonuses() -> None:
    """Check 25, §5.2 [seed L494-498]: the site's bonus to the builder; a completed Connection
    pays both owners (once if one owns both). Nothing is paid for a Connection whose other
    site is empty."""
    state = at_action("outer-0-right", ("brewer", "brewer", "brewer"), stone=9, silver=0)
    virtue = state.players[0].virtue
    alone = settle(turn.apply(state, Build("ann", "workshop", 0, "site-0-2")))
    assert alone.players[0].virtue == virtue - 1 and alone.players[0].silver == 0
    linked = replace(state, sites={"site-0-1": 1}).with_player(
        1, built=(("trading-post", 0, "site-0-1"),), silver=0
    )
    both = settle(turn.apply(linked, Build("ann", "workshop", 0, "site-0-2")))
    assert both.players[0].silver == 2 and both.players[1].silver == 2


def test_check_26_worker_table_and_pool() -> None:
    """Check 26, §5.3 [seed L537-543]: 1/3/5/8 Nobles place 1/2/3/4 Workers, no more than the
    pool holds, in the section beside the Viscount. Illegal: 2 Workers for 2 Nobles, 5
    Workers, 2 Workers from a pool of 1."""
    state = at_action("inner-2", ("steward", "lamplighter", None), gold=1)
    after = turn.apply(state, Workers("ann", 2))
    assert after.castle.level1[2][0] == 2 and after.players[0].gold == 0
    assert after.players[0].pool == state.players[0].pool - 2
    refused(state.with_player(0, gold=0), Workers("ann", 2), "action/cannot-pay")
    refused(state, Workers("ann", 5), "workers/count")
    refused(state.with_player(0, pool=1), Workers("ann", 2), "workers/count")


def test_check_27_castle_cascade() -> None:
    """Check 27, §5.3 [seed L545-573]: 3 of the seat's Workers in a level-1 section send one
    in (its level-2 effect), one clockwise and one counter-clockwise; several such sections in
    the order the seat picks. Illegal: picking a section without 3."""
    state = at_action("inner-0", ("thief", None, None))
    state = castle(state, [[2, 0], [2, 0], [0, 0], [0, 0], [2, 0]], [[0, 0]] * 3, [0, 0])
    state = turn.apply(state, Workers("ann", 1))
    assert [s[0] for s in state.castle.level1] == [0, 3, 0, 0, 3]
    assert state.castle.level2[0][0] == 1
    assert state.ask is not None and state.ask.asks == "cascade"
    assert state.ask.options == ("1", "4")
    refused(state, Choose("ann", "2"), "choose/not-an-option")
    state = turn.apply(state, Choose("ann", "4"))
    assert state.castle.level1[4][0] == 0 and state.castle.level2[2][0] == 1


def test_check_28_push_out() -> None:
    """Check 28, §5.3 [seed L582-593]: after the seat's moves no level-1 or level-2 section
    keeps more than 3 Workers; the active seat picks; 2 Silver per level-1 Worker, 1 Virtue
    and 1 resource per level-2 Worker; level 3 never. Illegal: a Worker not there, level 3."""
    state = at_action("inner-0", ("thief", None, None))
    state = castle(state, [[0, 3], [0, 0], [0, 0], [0, 0], [0, 0]],
                   [[0, 4], [0, 0], [0, 0]], [0, 5])  # fmt: skip
    bob = state.players[1]
    state = turn.apply(state, Workers("ann", 1))
    assert state.ask is not None and state.ask.asks == "push-out" and state.ask.seat == 0
    assert set(state.ask.options) == {"1:0:0", "1:0:1"}
    refused(state, Choose("ann", "3:0:1"), "choose/not-an-option")
    refused(state, Choose("ann", "1:1:1"), "choose/not-an-option")
    state = turn.apply(state, Choose("ann", "1:0:1"))
    assert state.players[1].silver == bob.silver + 2 and state.players[1].pool == bob.pool + 1
    assert state.ask is not None and state.ask.options == ("2:0:1",)
    state = turn.apply(state, Choose("ann", "2:0:1"))
    assert state.ask is not None and state.ask.asks == "resource" and state.ask.seat == 1
    state = settle(state, ["ink"])
    b = state.players[1]
    assert b.virtue == bob.virtue - 1 and b.ink == bob.ink + 1 and b.pool == bob.pool + 2
    assert state.castle.level3 == (0, 5) and state.castle.level2[0] == (0, 3)


def test_check_29_lord_of_the_castle() -> None:
    """Check 29, §5.3 [seed L595-603]: the first to level 3 takes the card; later only
    strictly more level-3 Workers take it over."""
    state = castle(started(2), [[0, 0]] * 5, [[0, 0]] * 3, [1, 0])
    assert rules.lord_check(state, 0).lord == 0
    state = castle(replace(state, lord=1), [[0, 0]] * 5, [[0, 0]] * 3, [1, 1])
    assert rules.lord_check(state, 0).lord == 1
    state = castle(state, [[0, 0]] * 5, [[0, 0]] * 3, [2, 1])
    assert rules.lord_check(state, 0).lord == 0


def _grey_on(state: VState, part: int, mid: str) -> VState:
    stacks = list(state.stacks)
    stacks = [tuple(m for m in s if m != mid) for s in stacks]
    stacks[part] = (mid, *stacks[part])
    return replace(state, stacks=tuple(stacks))


def test_check_30_transcribe() -> None:
    """Check 30, §5.4 [seed L637-640, L652-654]: Clerics ≥ the cost of the Manuscript beside
    the Viscount; one per turn. Under an empty stack the printed Manuscript is Transcribed for
    its effect, never taken (L652-654, VW-16). Illegal: too few Clerics, a second Transcription,
    an empty stack over data without a printed Manuscript."""
    state = _grey_on(at_action("inner-0", ("abbot", "acolyte", None), ink=0), 0, "grey-1")
    after = settle(turn.apply(state, Transcribe("ann")))
    assert "grey-1" in after.players[0].manuscripts and after.current.transcribed
    refused(after, Transcribe("ann"), "turn/not-now")
    refused(_grey_on(state.with_player(0, board=("abbot", None, None)), 0, "ms-13"),
            Transcribe("ann"), "action/cannot-pay")  # fmt: skip
    empty = replace(state, stacks=((), *state.stacks[1:]))
    printed = settle(turn.apply(empty, Transcribe("ann")))  # printed-manuscript-1: 2 Silver
    assert printed.current.transcribed and printed.players[0].manuscripts == ()
    assert printed.stacks[0] == () and printed.players[0].silver == empty.players[0].silver + 2
    refused(without_printed(empty), Transcribe("ann"), "transcribe/empty")


def test_check_31_church_favour() -> None:
    """Check 31, §5.4 [seed L642-643]: the first seat with 3 Manuscripts of a ribbon takes
    that ribbon's Church Favour; a later one does not."""
    state = _grey_on(started(2), 0, "grey-1").with_player(0, manuscripts=("ms-1", "ms-5"))
    first = resolve.run(rules.take_manuscript(state, 0, 0))
    assert first.players[0].favours == ("favour-grey",)
    taken = replace(state, favour_holders={"favour-grey": 1})
    assert resolve.run(rules.take_manuscript(taken, 0, 0)).players[0].favours == ()


# --- phases 4-6 ----------------------------------------------------------------------------------


def test_check_32_hire() -> None:
    """Check 32, §4 phase 4 [seed L665-674, L527-528]: optional, one, the card beside the
    Viscount, for its value, to the discard pile, its hire effect; Workshop 1 offers a
    Discard. Illegal: a card the seat cannot pay for, a second Hire."""
    state = settle(turn.apply(at_action("outer-0-left", ("baker", None, None), silver=9),
                              Skip("ann")))  # fmt: skip
    state = with_top(state, 0, "woodcutter")
    assert Pass("ann") in turn.legal_moves(state)
    virtue = state.players[0].virtue
    hired = turn.apply(state, Hire("ann"))
    p = hired.players[0]
    assert p.discard[-1] == "woodcutter" and p.silver == 7 and p.virtue == virtue - 1
    refused(state.with_player(0, silver=1), Hire("ann"), "hire/cannot")
    ws1 = state.with_player(0, built=(("workshop", 0, "site-3-0"),))
    asked = turn.apply(ws1, Hire("ann"))
    assert asked.ask is not None and asked.ask.asks == "discard"
    refused(asked, Hire("ann"), "turn/not-now")


def test_check_33_free_hire() -> None:
    """Check 33, glossary [seed L1051-1052, L527-528]: any Townsfolk visible on the board, for
    nothing; Workshop 1 offers its Discard here too. Illegal: an empty deck."""
    state = started(2).with_player(0, silver=0)
    state = replace(state, decks=(*state.decks[:2], (), *state.decks[3:]))
    state = resolve.run(rules.push(state, (rules.Todo(0, "free-hire"),)))
    assert state.ask is not None and state.ask.options == ("0", "1", "3", "4")
    refused(state, Choose("ann", "2"), "choose/not-an-option")
    top = state.decks[4][0]
    ws1 = state.with_player(0, built=(("workshop", 0, "site-3-0"),))
    asked = turn.apply(ws1, Choose("ann", "4"))  # Workshop 1: however the hire happens
    assert asked.ask is not None and asked.ask.asks == "discard"
    state = settle(turn.apply(state, Choose("ann", "4")))
    assert top in state.players[0].discard and state.players[0].silver == 0


def _to_draw(state: VState) -> VState:
    return turn.apply(turn.apply(state, Skip("ann")), Pass("ann"))


def test_check_34_collision_only_in_the_active_players_phase_5() -> None:
    """Check 34, §4 phase 5 [seed L676-702]: only the active seat's stacked markers collide,
    in its phase 5: Workshop 2, Collision abilities, the bonus above, the bonus below, then
    the markers go back. Another seat's stacked markers wait for its own phase 5."""
    state = at_action("outer-0-left", ("baker", None, None), silver=0)
    state = state.with_player(0, corruption=0, virtue=0, stacked=True)
    state = state.with_player(1, corruption=3, virtue=3, stacked=True)
    state = settle(turn.apply(turn.apply(state, Skip("ann")), Pass("ann")))
    a, b = state.players
    assert a.debts == 2 and a.silver == 3 and not a.stacked
    assert (a.corruption, a.virtue) == (0, SPACES - 1)
    assert b.stacked and b.corruption == b.virtue and b.silver == state.players[1].silver
    assert b.debts == 0


def test_check_34_collision_steps_in_order() -> None:
    """Check 34 step 1 [seed L680-683]: Workshop 2 gives 1 Virtue only to a seat with no
    Villain on its board (the Collision example's Red has one and gains nothing)."""
    state = at_action("outer-0-left", ("racketeer", None, None), silver=0)
    state = state.with_player(0, corruption=2, virtue=2, stacked=True,
                              built=(("workshop", 1, "site-3-0"),))  # fmt: skip
    state = state.with_player(1, board=("baker", None, None), built=(("workshop", 1, "s"),))
    bob = state.players[1]
    state = settle(turn.apply(turn.apply(state, Skip("ann")), Pass("ann")))
    a, b = state.players
    assert (a.corruption, a.virtue, a.stacked) == (0, SPACES - 1, False)
    # Bob: 1 Virtue for Workshop 2 and 1 for the bonus below space 2 (no Villain).
    assert b.virtue == bob.virtue - 2


def test_check_34_a_collision_from_the_draw_waits_for_the_next_phase_5() -> None:
    """Check 34, §4 phase 6 [seed L718-721]: a Collision made by a reshuffle in phase 6 is not
    resolved then; it waits for that player's next phase 5."""
    state = at_action("outer-0-left", ("baker", None, None))
    p = state.players[0]
    state = state.with_player(0, hand=(), deck=(), discard=tuple(sorted((*p.deck, *p.hand))),
                              corruption=2, virtue=3)  # fmt: skip
    state = _to_draw(state)
    assert state.players[0].stacked and "line/collision" not in [x.code for x in state.ledger]
    rng = random.Random(3)
    while turn.actor(state) == "table":
        state = turn.apply(state, turn.sample_chance(state, rng))
    assert turn.actor(state) == "bob" and state.players[0].stacked
    assert (state.players[0].corruption, state.players[0].virtue) == (2, 2)


def test_check_35_stacked_markers_move_together() -> None:
    """Check 35, §6 [seed L243-252]: once stacked the markers move as one until the Collision
    is resolved; Corruption moves before Virtue; a move past the end is lost."""
    state = started(2).with_player(0, corruption=3, virtue=3, stacked=True)
    p = rules.move_track(state, 0, corruption=1).players[0]
    assert (p.corruption, p.virtue, p.stacked) == (4, 4, True)
    p = rules.move_track(state, 0, virtue=2).players[0]
    assert (p.corruption, p.virtue, p.stacked) == (1, 1, True)
    p = rules.move_track(state, 0, corruption=9).players[0]
    assert (p.corruption, p.virtue) == (SPACES - 1, SPACES - 1)
    apart = started(2).with_player(0, corruption=2, virtue=4, stacked=False)
    p = rules.move_track(apart, 0, corruption=1, virtue=1).players[0]
    assert (p.corruption, p.virtue, p.stacked) == (3, 3, True)


def test_check_36_draw_to_the_hand_limit() -> None:
    """Check 36, §4 phase 6 [seed L703-711, L530-531, L600-603]: draw up to 3, +1 for
    Workshop 3, +1 for the Lord; at or over the limit, nothing. Illegal: a card the deck does
    not hold."""
    state = at_action("outer-0-left", ("baker", None, None))
    p = state.players[0]
    deck = tuple(sorted((*p.deck, *p.hand)))
    state = state.with_player(0, hand=(), deck=deck, built=(("workshop", 2, "site-3-0"),))
    state = replace(state, lord=0)
    drawing = _to_draw(state)
    assert drawing.ask is not None and drawing.ask.purpose == "hand"
    refused(drawing, Reveal("ann", "countess"), "reveal/not-in-deck")
    rng = random.Random(1)
    while turn.actor(drawing) == "table":
        drawing = turn.apply(drawing, turn.sample_chance(drawing, rng))
    assert len(drawing.players[0].hand) == 5 and turn.actor(drawing) == "bob"
    full = _to_draw(state.with_player(0, hand=deck[:5], deck=deck[5:]))
    assert turn.actor(full) == "bob" and len(full.players[0].hand) == 5


def test_check_37_reshuffle_gives_exactly_one() -> None:
    """Check 37, §4 phase 6 [seed L712-721]: a forced reshuffle gives exactly 1 Corruption
    with any Villain on the board (however many), else exactly 1 Virtue."""
    state = at_action("outer-0-left", ("antagonist", "racketeer", None))
    p = state.players[0]
    state = state.with_player(0, hand=(), deck=(), discard=tuple(sorted((*p.deck, *p.hand))))
    villain = _to_draw(state).players[0]
    assert villain.corruption == p.corruption + 1 and villain.virtue == p.virtue
    clean = _to_draw(state.with_player(0, board=("baker", "abbot", None))).players[0]
    assert clean.virtue == p.virtue - 1 and clean.corruption == p.corruption


def test_check_38_debt_flip_gives_one_resource() -> None:
    """Check 38, §6 [seed L221-225]: flipping an unpaid Debt gives 1 resource of choice, not
    Silver."""
    state = started(2).with_player(0, debts=1, paid=0, deeds=0, ink=0, stone=0, gold=0)
    state = resolve.run(rules.push(state, (rules.Todo(0, "flip", "debt-or-deed"),)))
    assert state.ask is not None and state.ask.asks == "resource"
    refused(state, Choose("ann", "silver"), "choose/not-an-option")
    p = turn.apply(state, Choose("ann", "gold")).players[0]
    assert (p.debts, p.paid, p.gold, p.ink + p.stone) == (0, 1, 1, 0)


def test_check_39_debt_and_deed_draws_trigger_the_end() -> None:
    """Check 39, §1 [seed L207-216]: Debts and Deeds come off the Poverty/Prosperity stacks;
    uncovering a card triggers the end; the spare stack keeps giving. A draw that leaves cards
    on the stack triggers nothing."""
    state = replace(started(2), debts_left=3, deeds_left=1)
    some = rules.take_debts(state, 0, 2)
    assert some.debts_left == 1 and not some.poverty and some.end_round is None
    out = rules.take_debts(state, 0, 5)
    assert out.poverty and out.players[0].debts == 5 and out.end_round == 2
    both = rules.take_deeds(out, 1, 2)
    assert both.prosperity and both.players[1].deeds == 2 and both.end_round == 2


def test_check_40_end_timing() -> None:
    """Check 40, §1 [seed L726-731]: finish the round, play one more; the seat right of the
    First Player takes the last turn. Illegal: any move once the game is over."""
    state = rules.take_debts(replace(started(3), debts_left=1), 0, 1)
    rng = random.Random(4)
    last = None
    while state.phase != "over":
        move = turn.sample_chance(state, rng) or turn.legal_moves(state)[0]
        if not isinstance(move, Lay | Reveal):
            last = move.seat
        state = turn.apply(state, move)
    assert state.round == 2 and last == "cyd"
    with pytest.raises(RuleViolation) as exc:
        turn.apply(state, Pass("ann"))
    assert exc.value.violations[0].code == "turn/over"


def _blank(state: VState) -> VState:
    for i in range(len(state.players)):
        state = state.with_player(i, built=(), manuscripts=(), favours=(), debts=0, paid=0,
                                  deeds=0, granted=0, silver=0, ink=0, stone=0, gold=0)  # fmt: skip
    n = len(state.players)
    state = castle(state, [[0] * n] * 5, [[0] * n] * 3, [0] * n)
    return replace(state, lord=None, poverty=False, prosperity=False, phase="over")


def test_check_41_final_scoring_majorities() -> None:
    """Check 41, §7 [seed L759-774]: an uncovered Poverty card pays 12/8/4 for granted Deeds
    to seats with at least one; with fewer than 3 players 12/4. A covered card pays nothing."""
    state = _blank(started(3))
    for i, g in enumerate((3, 1, 0)):
        state = state.with_player(i, granted=g)
    covered = {r.seat: r.total for r in scoring.score(state)}
    assert covered == {"ann": 9, "bob": 3, "cyd": 0}
    rows = {r.seat: r for r in scoring.score(replace(state, poverty=True))}
    assert rows["ann"].total == 9 + 12 and rows["bob"].total == 3 + 8 and rows["cyd"].total == 0
    two = _blank(started(2)).with_player(0, granted=2).with_player(1, granted=1)
    rows = {r.seat: r for r in scoring.score(replace(two, poverty=True))}
    assert rows["ann"].total == 6 + 12 and rows["bob"].total == 3 + 4


def test_check_42_persistent_abilities_and_villains_off_in_scoring() -> None:
    """Check 42, §7 [seed L736, L264-265]: a Manuscript counting Nobles counts printed Noble
    symbols and uncovered Buildings, not a Townsfolk's persistent ability (the Benefactor's 2
    Nobles) nor a wild Villain."""
    state = _blank(started(2)).with_player(0, board=("benefactor", "thief", None), hand=(),
                                           deck=("antagonist",), discard=(),
                                           manuscripts=("grey-2",))  # fmt: skip
    lines = {line.code: line.amount for line in scoring.lines(state, 0)}
    assert lines.get("score/manuscript") == 1  # the Thief's printed Noble only
    hall = state.with_player(0, built=(("guildhall", 0, "site-3-0"),))
    lines = {line.code: line.amount for line in scoring.lines(hall, 0) if line.amount}
    assert lines.get("score/manuscript") == 2


def test_check_43_tie_break() -> None:
    """Check 43, §1 [seed L776-778]: tied VP go to the larger Silver + Ink + Stone + Gold;
    still tied, the victory is shared."""
    state = _blank(started(2))
    state = state.with_player(0, silver=1, ink=1).with_player(1, silver=3)
    rows = {r.seat: r for r in scoring.score(state)}
    assert rows["ann"].total == rows["bob"].total
    assert rows["bob"].rank == 1 and rows["ann"].rank == 2
    assert GAME.winners(state) == ("bob",)
    level = state.with_player(0, silver=2, ink=1)
    assert set(GAME.winners(level)) == {"ann", "bob"}
