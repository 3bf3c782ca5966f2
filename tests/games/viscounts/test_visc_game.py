"""The Viscounts rules engine on the stand-in data: setup (digest §3), the turn (§4), the main
actions (§5), the Castle cascade, the Collision, the end and the final scoring (§7), with the
referee checks of digest §9 and the seed's worked examples cited by line."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from visc_registered import registered, shipped

from engine import data as gamedata
from engine import selfplay
from engine.games.viscounts import resolve, rules, scoring, turn
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
from engine.violations import RuleViolation

DATA = shipped()
SEATS = ("ann", "bob", "cyd", "dee")


@pytest.fixture(autouse=True)
def _catalog() -> object:
    """The game's catalog is found by its key: a stand-in registration for the duration."""
    with registered() as game:
        yield game


def fresh(n: int = 3) -> VState:
    return turn.initial(SEATS[:n], {"skip_action": True}, DATA)


def started(n: int = 3, seed: int = 1) -> VState:
    """A game after setup: the table laid out and every pair picked (first pair each time)."""
    rng = random.Random(seed)
    state = turn.apply(fresh(n), turn.sample_lay(fresh(n), rng))
    while state.phase == "pairs" or state.ask is not None:
        chance = turn.sample_chance(state, rng)
        move = chance if chance is not None else turn.legal_moves(state)[0]
        state = turn.apply(state, move)
    return state


def settle(state: VState, answers: list[str] | None = None) -> VState:
    """Answer what the queue asks with the given options in order (then the first option)."""
    answers = list(answers or [])
    while state.ask is not None and state.ask.asks != "reveal":
        seat = state.players[state.ask.seat].seat
        option = answers.pop(0) if answers else state.ask.options[0]
        state = turn.apply(state, Choose(seat, option))
    return state


# --- setup (§3, checks 1-6) ---


def test_setup_kit_and_opening_hand() -> None:
    """Check 3 [seed L143-157, L191-194]: 20 Workers, 9 Buildings on the strip, Corruption on
    the leftmost space and Virtue on the rightmost, 8 Starting + 1 Famous card, 3 in hand."""
    state = started(3)
    assert state.phase == "play" and state.round == 1
    for i, p in enumerate(state.players):
        assert p.pool == 20 - rules.castle_workers(state, i)
        assert len(rules.strip_left(state, i)) + len(p.built) == 9
        assert len(p.hand) == 3
        starting = [c for c in p.cards() if DATA.card(c).deck == "starting"]  # type: ignore[union-attr]
        famous = [c for c in p.cards() if DATA.card(c).deck == "famous"]  # type: ignore[union-attr]
        assert len(starting) + (p.player_card == 9 and len(p.cards()) < 9) >= 7
        assert len(famous) == 1


def test_markers_start_at_opposite_ends() -> None:
    """§3 step 6 [seed L243-245]: Corruption on space 0, Virtue on the last space."""
    state = fresh(2)
    assert all(p.corruption == 0 and p.virtue == DATA.track.spaces - 1 for p in state.players)  # type: ignore[operator]


def test_pairs_are_players_plus_one_and_chosen_in_reverse_order() -> None:
    """Check 4 [seed L167-194]: players+1 pairs; the player right of the First Player picks
    first; the Viscount stands on the town of the Player card's red number."""
    rng = random.Random(3)
    state = turn.apply(fresh(3), turn.sample_lay(fresh(3), rng))
    assert len(state.pairs) == 4
    assert turn.actor(state) == "cyd"
    with pytest.raises(RuleViolation):
        turn.apply(state, PickPair("ann", 0))
    number = state.pairs[1][0]
    state = turn.apply(state, PickPair("cyd", 1))
    town = DATA.board.town(state.players[2].town or "")  # type: ignore[union-attr]
    assert town is not None and town.number == number
    assert len(state.pairs) == 3


def test_lay_refuses_a_stack_without_a_grey_manuscript_on_top() -> None:
    """Check 2 [seed L121-135]: every stack has its grey-backed Manuscript on top."""
    good = turn.sample_lay(fresh(2), random.Random(1))
    stacks = list(good.stacks)
    stacks[0] = (*stacks[0][1:], stacks[0][0])
    with pytest.raises(RuleViolation) as exc:
        turn.apply(fresh(2), replace(good, stacks=tuple(stacks)))
    assert exc.value.violations[0].code == "setup/stacks"
    assert turn.apply(fresh(2), good).phase == "pairs"


def test_lay_refuses_the_wrong_number_of_pairs() -> None:
    good = turn.sample_lay(fresh(2), random.Random(1))
    with pytest.raises(RuleViolation):
        turn.apply(fresh(2), Lay(good.decks, good.stacks, good.pairs[:2]))


def test_debt_and_deed_stacks_follow_the_player_count() -> None:
    """Check 6 [seed L196-203]: the stacks hold the stand-in's sizes for the count once laid
    (step 10, after the pairs of step 9: VW-8)."""
    for n in (2, 3, 4):
        state = started(n)
        assert state.debts_left == DATA.kingdom.poverty[n]
        assert state.deeds_left == DATA.kingdom.prosperity[n]


# --- hidden information ---


def test_a_hand_is_seen_only_by_its_owner() -> None:
    state = started(3)
    mine = GAME.view(state, "ann")
    assert mine["players"][0]["hand"] == list(state.players[0].hand)
    assert mine["players"][1]["hand"] is None and mine["players"][1]["hand_size"] == 3
    table = GAME.view(state, None)
    assert all(p["hand"] is None for p in table["players"])
    assert all("deck" not in p for p in table["players"])


# --- phase 1 (checks 9-11) ---


def _with_board(state: VState, i: int, board: tuple[str | None, str | None, str | None]) -> VState:
    return state.with_player(i, board=board)


def test_push_moves_every_card_right_and_discards_the_last() -> None:
    """Check 9 [seed L318-334]: the card pushed off goes to the discard pile; the Apprentice's
    push-off ability gives a free Hire and 1 Virtue."""
    state = started(2)
    state = _with_board(state, 0, ("abbot", "baker", "apprentice"))
    state = replace(state, phase="turn-start")
    before = state.players[0]
    state = turn.advance(state)
    p = state.players[0]
    assert p.board == (None, "abbot", "baker") and p.discard[-1] == "apprentice"
    assert state.ask is not None and state.ask.asks == "free-hire"
    state = settle(state)
    p = state.players[0]
    assert p.virtue == before.virtue - 1
    assert len(p.discard) == len(before.discard) + 2  # the Apprentice and the hired card


def test_villain_corruption_counts_every_villain_on_the_board() -> None:
    """Check 11, the Antagonist example [seed L341-343]: 2 Corruption for its own two Villains
    plus 1 for each other Villain on the board; its ability gives 1 Debt."""
    state = started(2)
    state = _with_board(state, 0, (None, "racketeer", "abbot"))
    state = state.with_player(0, hand=("antagonist",))
    state = turn.apply(state, Play("ann", "antagonist"))
    p = state.players[0]
    assert p.corruption == 3 and p.debts == 1


def test_exactly_one_card_from_the_hand() -> None:
    """Check 10: a card not in the hand is refused and nothing changes."""
    state = started(2)
    with pytest.raises(RuleViolation):
        turn.apply(state, Play("ann", "countess"))
    with pytest.raises(RuleViolation):
        turn.apply(state, Play("bob", state.players[1].hand[0]))


def test_an_empty_hand_plays_the_deck_top_blind() -> None:
    """§4 phase 1 [seed L345-346]: the table reports the top card and it is played."""
    state = started(2)
    state = state.with_player(0, hand=())
    state = replace(state, phase="turn-start")
    state = turn.advance(state)
    state = settle(state)
    assert state.ask is not None and state.ask.asks == "reveal" and state.ask.purpose == "play"
    card = state.players[0].deck[0]
    state = turn.apply(state, Reveal("ann", card))
    assert state.players[0].board[0] == card


# --- phase 2 (checks 13-16) ---


def _at_move(card: str = "abbot", silver: int = 0) -> VState:
    state = started(2)
    state = state.with_player(0, town="outer-0-left", silver=silver, board=(card, None, None))
    return replace(state, phase="move", current=Turn(played=card))


def test_the_movement_example_with_the_abbot() -> None:
    """Digest §4 phase 2 example [seed L377-392]: value 2 from the start town ends on 3, 4,
    or 1 by way of 2; fewer spaces are refused (check 13)."""
    state = _at_move("abbot")
    ends = {t for t, s, _ in turn.travel_options(state, 0) if s == 2}
    assert ends == {"outer-1-left", "inner-1", "outer-0-right"}
    with pytest.raises(RuleViolation):
        turn.apply(state, Travel("ann", "outer-0-right", 1))


def test_extra_spaces_cost_one_silver_each() -> None:
    """Check 14: Silver paid = spaces − value (− 1 with Trading Post 1)."""
    state = _at_move("abbot", silver=1)
    after = turn.apply(state, Travel("ann", "outer-1-right", 3))
    assert after.players[0].silver == 0
    with pytest.raises(RuleViolation):
        turn.apply(state, Travel("ann", "outer-2-left", 4))
    tp1 = state.with_player(0, built=(("trading-post", 0, "site-0-0"),))
    assert turn.apply(tp1, Travel("ann", "outer-2-left", 4)).players[0].silver == 0


def test_meeting_offers_the_met_player_a_reorder() -> None:
    """Check 16 [seed L365-368]."""
    state = _at_move("abbot")
    state = state.with_player(1, town="inner-1", board=("baker", "abbot", None))
    state = turn.apply(state, Travel("ann", "inner-1", 2))
    assert state.ask is not None and state.ask.asks == "reorder" and state.ask.seat == 1
    state = turn.apply(state, Choose("bob", "1,0,2"))
    assert state.players[1].board == ("abbot", "baker", None)


# --- phase 3 (checks 17-31) ---


def _at_action(town: str, board: tuple[str | None, str | None, str | None], **res: int) -> VState:
    state = started(2)
    state = state.with_player(0, town=town, board=board, **res)
    return replace(state, phase="action", current=Turn(played=board[0]))


def test_action_follows_the_path() -> None:
    """Check 17 [seed L399-402]: Trade and Build on the outer path, Workers and Transcribe on
    the inner path."""
    inner = _at_action("inner-0", ("trader", "trader", None), silver=5, gold=5, ink=5)
    with pytest.raises(RuleViolation) as exc:
        turn.apply(inner, Trade("ann", 1))
    assert exc.value.violations[0].code == "action/wrong-path"
    outer = _at_action("outer-0-left", ("thief", None, None), gold=9, ink=9)
    with pytest.raises(RuleViolation):
        turn.apply(outer, Workers("ann", 1))
    with pytest.raises(RuleViolation):
        turn.apply(outer, Transcribe("ann"))


def test_the_trade_example() -> None:
    """§5.1 example [seed L459-465]: 4 Merchants on the board plus 2 Silver make 6 Merchants:
    3 Gold at a Gold town; then the Trader's ability gives 1 Silver."""
    state = _at_action("outer-3-left", ("trader", "trader", None), silver=2)
    state = settle(turn.apply(state, Trade("ann", 3)))
    p = state.players[0]
    assert p.gold == 3 and p.silver == 0 + 2  # two Traders on the board: +1 Silver each
    assert state.phase == "hire"


def test_trade_beyond_what_can_be_paid_is_refused() -> None:
    """Check 21: at most floor(Merchants ÷ rate) exchanges; nothing changes on refusal."""
    state = _at_action("outer-3-left", ("trader", "trader", None), silver=2)
    with pytest.raises(RuleViolation):
        turn.apply(state, Trade("ann", 4))
    assert Trade("ann", 4) not in turn.legal_moves(state)
    assert Trade("ann", 3) in turn.legal_moves(state)


def test_the_build_example_with_the_mason() -> None:
    """§5.2 example [seed L506-519]: a Workshop (3 Builders) with no Builders on the board:
    2 Stone and the dismissed Mason (1 Silver) supply them; the Mason lets Red reorder; the
    site's bonus gives 1 Ink; the Workshop completes a Connection with Blue's Trading Post and
    both take 2 Silver."""
    state = _at_action("outer-0-right", ("baker", "abbot", None), stone=2, silver=1)
    decks = list(state.decks)
    decks[0] = ("mason", *decks[0])
    state = replace(state, decks=tuple(decks), sites={"site-0-1": 1})
    state = state.with_player(1, built=(("trading-post", 0, "site-0-1"),))
    blue = state.players[1].silver
    virtue = state.players[0].virtue
    state = turn.apply(state, Build("ann", "workshop", 0, "site-0-2", dismiss=True))
    state = settle(state, ["1,0,2"])
    p = state.players[0]
    assert p.stone == 0 and p.built == (("workshop", 0, "site-0-2"),)
    assert state.decks[0][0] != "mason" or state.decks[0].count("mason") < 3
    assert p.virtue == virtue - 1  # the stand-in site's bonus: 1 Virtue
    assert p.silver == 2 and state.players[1].silver == blue + 2
    assert p.board == ("abbot", "baker", None)


def test_build_needs_a_site_on_the_viscounts_side_of_the_river() -> None:
    """Check 24 [seed L478-481]."""
    state = _at_action("outer-0-right", ("brewer", "brewer", "brewer"), stone=9)
    with pytest.raises(RuleViolation) as exc:
        turn.apply(state, Build("ann", "workshop", 0, "site-0-0"))
    assert exc.value.violations[0].code == "build/site"


def _castle(
    state: VState, level1: list[list[int]], level2: list[list[int]], level3: list[int]
) -> VState:
    return replace(
        state, castle=Castle(tuple(map(tuple, level1)), tuple(map(tuple, level2)), tuple(level3))
    )


def test_the_castle_cascade_example() -> None:
    """§5.3 example [seed L610-632]: 4 Workers make 5 in a section: one in (1 Ink, 1 Stone),
    one each way; the neighbour then holds 3: one in (2 Virtue) and one each way; the first
    holds 3 again: in (1 Ink, 1 Stone). Level 2 then holds 4 of Red's: two go to level 3
    (+1 resource each) and Red, with more than Blue there, takes the Lord of the Castle; a
    section of 5 Workers loses 2 of Blue's, who takes 2 Silver each."""
    state = _at_action("inner-1", ("thief", "steward", None), gold=8)
    state = state.with_player(0, built=(("guildhall", 0, "site-0-0"),))
    state = state.with_player(0, board=("red-squire", "steward", "benefactor"))
    state = _castle(
        state, [[0, 3], [1, 0], [2, 0], [0, 0], [0, 0]], [[2, 0], [0, 0], [0, 0]], [0, 1]
    )
    state = replace(state, lord=1)
    blue = state.players[1].silver
    before = state.players[0]
    state = turn.apply(state, Workers("ann", 4))
    assert state.players[0].gold == before.gold - 3
    state = settle(state, ["ink", "stone", "1:0:1", "1:0:1", "decline"])
    c = state.castle
    assert [s[0] for s in c.level1] == [2, 0, 1, 1, 0]
    assert c.level3 == (2, 1) and state.lord == 0
    assert [s[0] for s in c.level2] == [2, 1, 0]
    assert c.level1[0] == (2, 1) and state.players[1].silver == blue + 4
    p = state.players[0]
    assert p.ink == before.ink + 2 + 1 and p.stone == before.stone + 2 + 1
    assert p.virtue == before.virtue - 2


def test_transcribe_takes_the_top_manuscript_and_church_favour() -> None:
    """Check 30-31 [seed L633-662]: Clerics ≥ the cost; the third Manuscript of a ribbon takes
    that ribbon's Church Favour card."""
    state = _at_action("inner-0", ("abbot", "abbot", None), ink=1)
    stacks = list(state.stacks)
    stacks[0] = ("grey-1", *[s for s in stacks[0] if s != "grey-1"])
    state = replace(state, stacks=tuple(stacks))
    state = state.with_player(0, manuscripts=("ms-1", "ms-5"))
    state = settle(turn.apply(state, Transcribe("ann")))
    p = state.players[0]
    assert "grey-1" in p.manuscripts and p.favours == ("favour-grey",)
    assert state.current.transcribed


# --- phases 4-6 (checks 32-37) ---


def test_hire_pays_the_value_and_goes_to_the_discard_pile() -> None:
    """Check 32 [seed L665-674]."""
    state = _at_action("outer-0-left", ("baker", None, None), silver=9)
    state = turn.apply(state, Skip("ann"))
    top = state.decks[0][0]
    value = DATA.card(top).value  # type: ignore[union-attr]
    state = settle(turn.apply(state, Hire("ann")))
    assert top in state.players[0].discard
    assert state.players[0].silver >= 9 - value  # type: ignore[operator]


def test_the_collision_example() -> None:
    """Phase 5 [seed L676-702]: the active player takes the bonus above (2 Debts, 3 Silver),
    others the one below if they show no Villain (1 Virtue); a Peddler on a board gives 1 Ink
    whoever collides; then the markers go back."""
    state = _at_action("outer-0-left", ("baker", None, None), silver=0)
    state = state.with_player(0, corruption=0, virtue=0, stacked=True)
    state = state.with_player(1, board=("peddler", None, None))
    bob = state.players[1]
    state = turn.apply(state, Skip("ann"))
    state = settle(turn.apply(state, Pass("ann")))
    a, b = state.players
    assert a.debts == 2 and a.silver == 3
    assert a.corruption == 0 and a.virtue == DATA.track.spaces - 1 and not a.stacked  # type: ignore[operator]
    assert b.ink == bob.ink + 1 and b.virtue == bob.virtue - 1


def test_draw_refills_to_the_hand_limit_with_a_reshuffle_check() -> None:
    """Checks 36-37 [seed L703-724]: draw to 3; an empty deck is reshuffled: +1 Virtue with
    no Villain on the board."""
    state = _at_action("outer-0-left", ("baker", None, None))
    p = state.players[0]
    state = state.with_player(0, hand=(), deck=(), discard=tuple(sorted((*p.deck, *p.hand))))
    state = turn.apply(turn.apply(state, Skip("ann")), Pass("ann"))
    assert state.ask is not None and state.ask.purpose == "hand"
    assert state.players[0].virtue == p.virtue - 1
    rng = random.Random(2)
    for _ in range(3):
        state = turn.apply(state, turn.sample_chance(state, rng))
    assert turn.actor(state) == "bob" and len(state.players[0].hand) == 3


# --- end and scoring (checks 39-43) ---


def test_uncovering_poverty_ends_the_game_after_one_more_round() -> None:
    """Checks 39-40 [seed L726-734]: the round is finished, one more is played, and the seat
    right of the First Player takes the last turn."""
    state = started(3)
    state = replace(state, debts_left=1)
    state = rules.take_debts(state, 0, 1)
    assert state.poverty and state.end_round == 2
    rng = random.Random(4)
    last = None
    while state.phase != "over":
        move = turn.sample_chance(state, rng) or turn.legal_moves(state)[0]
        if not isinstance(move, Lay | Reveal):
            last = move.seat
        state = turn.apply(state, move)
    assert state.round == 2 and last == "cyd"


def test_the_109_vp_scoring_example() -> None:
    """§7 full scoring example [seed L785-808]: 26 Buildings (4+13+9) + 19 Castle + 44
    Manuscripts (26 for 3 sets, 6 for Buildings, 5 for Nobles, 4 for Villains, 3 for paid
    Debts) + 5 Lord + 3 Church Favour − 2 (1 unpaid Debt) + 4 acquired + 6 granted Deeds + 4
    Poverty (3rd place in granted Deeds) = 109."""
    state = started(4)
    cards = (
        "red-farmer",
        "red-pedlar",
        "red-squire",
        "red-novice",
        "red-cutpurse",
        "red-labourer",
        "red-clerk",
        "red-messenger",
        "thief",
        "antagonist",
        "steward",
    )
    built = (
        ("trading-post", 0, "s1"),
        ("workshop", 0, "s2"),
        ("workshop", 1, "s3"),
        ("workshop", 2, "s4"),
        ("guildhall", 0, "s5"),
        ("guildhall", 1, "s6"),
    )
    state = state.with_player(
        0,
        board=(None, None, None),
        hand=(),
        deck=cards,
        discard=(),
        built=built,
        manuscripts=("grey-1", "grey-2", "grey-3", "grey-4", "ms-3", "ms-10", "ms-17", "ms-25"),
        favours=("favour-grey",),
        debts=1,
        paid=3,
        deeds=4,
        granted=2,
    )
    for i, granted in ((1, 5), (2, 4), (3, 0)):
        state = state.with_player(
            i, granted=granted, paid=0, debts=0, deeds=0, built=(), manuscripts=(), favours=()
        )
    state = _castle(
        state, [[4, 0, 0, 0]] + [[0] * 4] * 4, [[3, 0, 0, 0]] + [[0] * 4] * 2, [3, 0, 0, 0]
    )
    state = replace(state, lord=0, poverty=True, prosperity=False, phase="over")
    rows = {r.seat: r for r in scoring.score(state)}
    red = rows["ann"]
    by = {}
    for line in red.lines:
        by[line.code] = by.get(line.code, 0) + line.amount
    assert by["score/buildings"] == 26 and by["score/castle"] == 19
    assert by["score/sets"] == 26 and by["score/manuscript"] == 6 + 5 + 4 + 3
    assert by["score/lord"] == 5 and by["score/favour"] == 3 and by["score/debts"] == -2
    assert by["score/deeds"] == 4 and by["score/granted"] == 6 and by["score/poverty"] == 4
    assert red.total == 109
    for line in red.lines:
        assert GAME.describe(line, "en") and GAME.describe(line, "pl")


def test_tie_break_is_silver_plus_resources() -> None:
    """Check 43 [seed L776-778]."""
    state = replace(started(2), phase="over", lord=None, poverty=False, prosperity=False)
    state = _castle(state, [[0, 0]] * 5, [[0, 0]] * 3, [0, 0])
    for i in (0, 1):
        state = state.with_player(i, built=(), manuscripts=(), favours=(), debts=0, paid=0,
                                  deeds=0, granted=0)  # fmt: skip
    state = state.with_player(0, silver=3, ink=0, stone=0, gold=0)
    state = state.with_player(1, silver=1, ink=1, stone=0, gold=0)
    rows = {r.seat: r for r in scoring.score(state)}
    assert rows["ann"].total == rows["bob"].total  # the tie the test is about
    assert rows["ann"].rank == 1 and rows["bob"].rank == 2


# --- whole games ---


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_play_to_the_final_scoring(players: int) -> None:
    """The conformance run (engine.selfplay) on a few seeds: no legal move refused, no stall,
    every game ends with a final scoring."""
    with registered() as game:
        loaded = gamedata.load(game, {"data": "stand-in"})
    for seed in range(3):
        result = selfplay.play(
            GAME, SEATS[:players], random.Random(seed), {"data": "stand-in"}, data=loaded
        )
        assert result.errors == []
        state = result.session.state
        assert GAME.is_over(state) and (state.poverty or state.prosperity)
        assert len(GAME.score(state)) == players and GAME.winners(state)


# --- more referee checks of digest §9 ------------------------------------------------------------


def test_destroy_never_leaves_fewer_than_three_cards() -> None:
    """Check 12 [seed L348-353]: a Destroy that would leave fewer than 3 cards is not offered."""
    state = started(2)
    state = state.with_player(0, board=("baker", "abbot", None), hand=("weaver",), deck=(),
                              discard=())  # fmt: skip
    assert rules.card_choices(state, 0, destroy=True) == ()
    state = state.with_player(0, hand=("weaver", "baker"))
    assert "hand:weaver" in rules.card_choices(state, 0, destroy=True)


def test_dismiss_needs_a_fitting_symbol_and_its_price() -> None:
    """Check 20 [seed L413-426]: the card beside the Viscount must show the action's symbol or
    a Villain, and its value (1 with Trading Post 2) is paid; the Woodcutter example: 2 Silver
    for 1 Virtue and 1 Builder."""
    state = _at_action("outer-0-right", ("baker", None, None), silver=2, stone=2)
    decks = list(state.decks)
    decks[0] = ("woodcutter", *decks[0])
    state = replace(state, decks=tuple(decks), round=3)  # no Starting icons count (VW-20)
    assert turn.dismissable(state, 0, "build") == "woodcutter"
    assert turn.dismissable(state, 0, "trade") is None  # no Merchant, no Villain
    assert turn.dismissable(state.with_player(0, silver=1), 0, "build") is None
    tp2 = state.with_player(0, silver=1, built=(("trading-post", 1, "site-4-0"),))
    assert turn.dismissable(tp2, 0, "build") == "woodcutter"
    virtue = state.players[0].virtue
    state = settle(turn.apply(state, Build("ann", "workshop", 0, "site-0-2", dismiss=True)))
    p = state.players[0]
    assert p.silver == 0 and p.stone == 0 and p.virtue <= virtue - 1
    assert state.current.dismissed


def test_workers_beyond_the_pool_are_refused() -> None:
    """Check 26: no more Workers than the pool holds."""
    state = _at_action("inner-0", ("thief", None, None), gold=9)
    state = state.with_player(0, pool=1)
    with pytest.raises(RuleViolation):
        turn.apply(state, Workers("ann", 2))
    assert Workers("ann", 2) not in turn.legal_moves(state)


def test_the_lord_changes_hands_only_for_strictly_more() -> None:
    """Check 29 [seed L595-603]."""
    state = _castle(started(2), [[0, 0]] * 5, [[0, 0]] * 3, [1, 1])
    state = replace(state, lord=1)
    assert rules.lord_check(state, 0).lord == 1
    state = _castle(state, [[0, 0]] * 5, [[0, 0]] * 3, [2, 1])
    assert rules.lord_check(state, 0).lord == 0


def test_church_favour_goes_to_the_first_only() -> None:
    """Check 31 [seed L642-643]."""
    state = started(2)
    state = replace(state, favour_holders={"favour-grey": 1})
    stacks = list(state.stacks)
    stacks[0] = ("grey-1", *[s for s in stacks[0] if s != "grey-1"])
    state = replace(state, stacks=tuple(stacks)).with_player(0, manuscripts=("ms-1", "ms-5"))
    state = resolve.run(rules.take_manuscript(state, 0, 0))
    assert state.players[0].favours == ()


def test_a_connection_pays_one_owner_once() -> None:
    """Check 25 [seed L494-498]: both Buildings one player's: the Connection pays once."""
    state = started(2)
    state = replace(state, sites={"site-0-1": 0}).with_player(
        0, built=(("workshop", 0, "site-0-1"),), silver=0
    )
    state = settle(resolve.run(rules.place_building(state, 0, "workshop", 1, "site-0-2")))
    assert state.players[0].silver == 2  # the stand-in Connection gives 2 Silver


def test_a_free_hire_takes_any_visible_card_for_nothing() -> None:
    """Check 33 [seed L1051-1052]."""
    state = started(2).with_player(0, silver=0)
    state = resolve.run(rules.push(state, (rules.Todo(0, "free-hire"),)))
    assert state.ask is not None and state.ask.options == tuple(str(d) for d in range(5))
    top = state.decks[4][0]
    state = settle(turn.apply(state, Choose("ann", "4")))
    assert top in state.players[0].discard and state.players[0].silver >= 0


def test_paying_a_debt_gives_one_resource() -> None:
    """Check 38 [seed L221]."""
    state = started(2).with_player(0, debts=1, paid=0, deeds=0, ink=0, stone=0, gold=0)
    state = resolve.run(rules.push(state, (rules.Todo(0, "flip", "debt-or-deed"),)))
    assert state.ask is not None and state.ask.asks == "resource"
    state = turn.apply(state, Choose("ann", "gold"))
    p = state.players[0]
    assert p.debts == 0 and p.paid == 1 and p.gold == 1


def test_a_simulated_table_may_cap_the_rounds() -> None:
    """Option ``max_rounds`` (simulated tables, like France 1429's): the game stops after that
    round with the final scoring."""
    state = replace(started(2), options={"skip_action": True, "max_rounds": 1})
    rng = random.Random(6)
    while state.phase != "over":
        state = turn.apply(state, turn.sample_chance(state, rng) or turn.legal_moves(state)[0])
    assert state.round == 1 and len(scoring.score(state)) == 2


def test_without_skipping_a_main_action_is_owed_when_one_can_be_paid() -> None:
    """VW-7, option ``skip_action`` false: Skip only when no main action can be paid."""
    state = _at_action("outer-3-left", ("trader", None, None), silver=0)
    strict = replace(state, options={"skip_action": False})
    with pytest.raises(RuleViolation) as exc:
        turn.apply(strict, Skip("ann"))
    assert exc.value.violations[0].code == "action/no-skip"
    assert Skip("ann") not in turn.legal_moves(strict)
    broke = replace(
        _at_action("outer-3-left", ("abbot", None, None), silver=0), options=strict.options
    )
    broke = replace(broke, decks=tuple(() for _ in broke.decks))
    assert turn.legal_moves(broke) == [Skip("ann")]
    assert turn.apply(broke, Skip("ann")).phase != "action"
