"""The seed's worked examples (shared/seeds/002_f69ee7fcaf125258.txt, "Przykład"), each as a
test citing its lines and asserting what the rulebook says happens.

The stand-in data are invented; where an example needs a printed value the stand-in lacks
(the Mason's site giving 1 Ink, the Racketeer example's grey Manuscript scoring per Building),
the test changes just that value in a copy of the stand-in and says so. The examples already
tested elsewhere are listed in docs/viscounts-tests.md.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from visc_registered import registered, shipped
from visc_support import settle, started

from engine.games.viscounts import rules, scoring, turn
from engine.games.viscounts.data import parse_doc
from engine.games.viscounts.data_types import ViscountsData
from engine.games.viscounts.moves import Build, Pass, Skip, Trade, Transcribe, Workers
from engine.games.viscounts.state import Castle, Turn, VState
from engine.violations import RuleViolation

DATA = shipped()
SEATS = ("ann", "bob", "cyd", "dee")
SPACES: int = DATA.track.spaces or 0
RAW = Path(__file__).resolve().parents[3] / "engine/games/viscounts/data/stand-in-invented.json"


@pytest.fixture(autouse=True)
def _catalog() -> object:
    with registered() as game:
        yield game


def changed(edit: Any) -> ViscountsData:
    """A copy of the stand-in with one printed value changed by ``edit(raw)``."""
    raw = json.loads(RAW.read_text(encoding="utf-8"))
    edit(raw)
    return parse_doc(raw)


def at_action(
    town: str, board: tuple[str | None, str | None, str | None], n: int = 2,
    data: ViscountsData = DATA, **res: Any,
) -> VState:  # fmt: skip
    """The rulebook's examples are mid-game: round 3, when no Starting icon counts (VW-20)."""
    state = started(n, data).with_player(0, town=town, board=board, **res)
    return replace(state, phase="action", current=Turn(played=board[0]), round=3)


def with_top(state: VState, part: int, card: str) -> VState:
    decks = list(state.decks)
    decks[part] = (card, *decks[part])
    return replace(state, decks=tuple(decks))


def codes(state: VState, seat: str) -> list[str]:
    return [line.code for line in state.ledger if line.seat == seat]


def _blank(state: VState) -> VState:
    n = len(state.players)
    for i in range(n):
        state = state.with_player(i, built=(), manuscripts=(), favours=(), debts=0, paid=0,
                                  deeds=0, granted=0, silver=0, ink=0, stone=0, gold=0)  # fmt: skip
    empty = Castle(tuple((0,) * n for _ in range(5)), tuple((0,) * n for _ in range(3)), (0,) * n)
    return replace(state, castle=empty, lord=None, poverty=False, prosperity=False, phase="over")


def test_traveller_counts_two_merchants_as_a_cleric_L284_293() -> None:
    """Seed L284-293 (§2 card anatomy): the Traveller, while on the board, lets its owner count
    each pair of Merchant symbols as one Cleric. Two Traders (4 Merchants) with the Traveller
    pay a 3-Cleric Manuscript: 2 Clerics from the pairs (its own Merchant is left over) plus
    1 Ink."""
    state = at_action("inner-0", ("traveller", "trader", "trader"), ink=1)
    stacks = [tuple(m for m in s if m != "grey-1") for s in state.stacks]
    stacks[0] = ("grey-1", *stacks[0])
    state = replace(state, stacks=tuple(stacks))
    after = settle(turn.apply(state, Transcribe("ann")))
    assert "grey-1" in after.players[0].manuscripts and after.players[0].ink == 1 + 1 - 1
    # (grey-1's own effect is 1 Ink; the Ink spent was the one bought Cleric)
    without = state.with_player(0, board=("baker", "trader", "trader"))
    with pytest.raises(RuleViolation) as exc:  # four Merchants alone give no Cleric
        turn.apply(without, Transcribe("ann"))
    assert exc.value.violations[0].code == "action/cannot-pay"


def test_woodcutter_dismissal_L424_426() -> None:
    """Seed L424-426 (§4 phase 3): dismissing the Woodcutter costs 2 Silver and gives at once
    1 Virtue and 1 extra Builder for the action."""
    state = at_action("outer-0-right", (None, None, None), silver=2, stone=2)
    state = with_top(state, 0, "woodcutter")
    virtue = state.players[0].virtue
    after = settle(
        turn.apply(state, Build("ann", "workshop", 0, "site-0-3", dismiss=True)), ["ink"]
    )  # fmt: skip  (the site's bonus: 1 resource)
    p = after.players[0]
    assert p.silver == 0 and p.stone == 0  # 2 Stone + the Woodcutter's Builder = 3
    assert p.virtue == virtue - 1
    assert after.decks[0] == state.decks[0][1:] and "woodcutter" not in p.cards()


def test_the_trade_example_L459_465() -> None:
    """Seed L459-465 (§5.1): Red has 4 Merchants on the board, spends 2 Silver to reach 6 and
    takes 3 Gold; then the Trader's persistent ability gives 1 Silver."""
    state = at_action("outer-3-left", ("trader", "baker", "weaver"), silver=2)
    after = settle(turn.apply(state, Trade("ann", 3)))
    p = after.players[0]
    assert p.gold == 3 and p.silver == 0 + 1


def test_trading_post_vp_L492() -> None:
    """Seed L492 (§5.2): 4, 9 or 15 VP for 1, 2 or 3 Trading Posts."""
    state = _blank(started(2))
    for n, vp in ((1, 4), (2, 9), (3, 15)):
        built = tuple(("trading-post", k, f"site-{k}-0") for k in range(n))
        rows = {r.seat: r.total for r in scoring.score(state.with_player(0, built=built))}
        assert rows["ann"] == vp


def _mason_data(raw: dict[str, Any]) -> None:
    """The example's only reachable site gives 1 Ink (the stand-in's gives 1 Virtue)."""
    site = next(s for s in raw["board"]["sites"] if s["id"] == "site-0-2")
    site["bonus"] = "1 ink"


def test_the_build_example_with_the_mason_L506_519() -> None:
    """Seed L506-519 (§5.2): Red builds a Workshop (3 Builders) with none on the board: 2 Stone
    and 1 Silver to dismiss the Mason beside the Viscount; the Mason lets Red reorder first;
    the one site on Red's side of the River gives 1 Ink; the Workshop completes a Connection
    with Blue's Trading Post and both take 2 Silver."""
    data = changed(_mason_data)
    state = at_action("outer-0-right", ("baker", "abbot", None), data=data, stone=2, silver=1,
                      ink=0)  # fmt: skip
    state = with_top(replace(state, sites={"site-0-1": 1, "site-0-3": 1}), 0, "mason")
    state = state.with_player(1, built=(("trading-post", 0, "site-0-1"),
                                        ("trading-post", 1, "site-0-3")))  # fmt: skip
    blue = state.players[1].silver
    legal = {m.site for m in turn.legal_moves(state) if isinstance(m, Build)}
    assert legal == {"site-0-2"}  # the others are taken or across the River
    state = turn.apply(state, Build("ann", "workshop", 0, "site-0-2", dismiss=True))
    # "First the player may reorder (the Mason's dismiss effect). Then ... 1 Ink" (L512-517)
    assert state.ask is not None and state.ask.asks == "reorder"
    assert state.players[0].ink == 0 and state.players[1].silver == blue
    state = settle(state, ["1,0,2"])
    p = state.players[0]
    assert p.board == ("abbot", "baker", None)
    assert p.stone == 0 and p.ink == 1 and p.silver == 1 - 1 + 2
    assert state.players[1].silver == blue + 2
    assert p.built == (("workshop", 0, "site-0-2"),) and "mason" not in p.cards()


def test_a_level_2_section_offers_free_hire_or_destroy_L560_562() -> None:
    """Seed L560-562 (§5.3): the illustrated move into level 2 gives "a free Hire or Destroy a
    card" at once: the seat chooses one."""
    state = at_action("inner-4", ("thief", None, None))
    n = len(state.players)
    state = replace(state, castle=Castle(((0,) * n,) * 4 + ((2, 0),), ((0,) * n,) * 3, (0,) * n))
    state = turn.apply(state, Workers("ann", 1))
    assert state.castle.level2[2][0] == 1  # section 4 leads inward to the third level-2 section
    assert state.ask is not None and state.ask.asks == "alt" and len(state.ask.options) == 2


def test_the_castle_example_ends_with_the_stewards_discard_L610_632() -> None:
    """Seed L610-632 (§5.3): 5 Nobles (Thief 1, Steward 1, Guildhall 1, Benefactor 2) and 3
    Gold make 8: 4 Workers. The cascade gives 1 Ink + 1 Stone, 2 Virtue, 1 Ink + 1 Stone; two
    Workers reach level 3 (+1 resource each) and Red takes the Lord from Blue; Red pushes out 2
    of Blue's Workers (2 Silver each); finally the Steward lets Red discard 1 card from hand."""
    state = at_action("inner-1", ("red-squire", "steward", "benefactor"), gold=3, ink=0,
                      stone=0)  # fmt: skip
    state = state.with_player(0, built=(("guildhall", 0, "site-0-0"),))
    state = replace(state, castle=Castle(((0, 3), (1, 0), (2, 0), (0, 0), (0, 0)),
                                         ((2, 0), (0, 0), (0, 0)), (0, 1)), lord=1)  # fmt: skip
    assert rules.supply(state, 0).plain("noble") == 5
    blue = state.players[1].silver
    virtue = state.players[0].virtue
    hand = state.players[0].hand
    state = turn.apply(state, Workers("ann", 4))
    assert state.players[0].gold == 0
    state = settle(state, ["ink", "stone", "1:0:1", "1:0:1", f"hand:{hand[0]}"])
    p = state.players[0]
    assert (p.ink, p.stone) == (3, 3) and p.virtue == virtue - 2
    assert state.castle.level3 == (2, 1) and state.lord == 0
    assert state.players[1].silver == blue + 4
    assert p.discard[-1] == hand[0] and len(p.hand) == len(hand) - 1


def test_a_set_of_three_ribbons_is_nine_L650() -> None:
    """Seed L650 (§5.4): 3 Manuscripts of different ribbon colours score 9 VP more."""
    state = _blank(started(2)).with_player(0, manuscripts=("ms-3", "ms-10", "ms-4"))
    rows = {line.code: line.amount for line in scoring.lines(state, 0)}
    assert rows == {"score/sets": 9}


def _racketeer_data(raw: dict[str, Any]) -> None:
    """The example's grey Manuscript: 6 Clerics, 1 VP per Building built (ms-9 so changed;
    its immediate effect, 1 Silver, shows when it resolves)."""
    m = next(m for m in raw["manuscripts"] if m["id"] == "ms-9")
    m.update(ribbon="grey", cost=6, effect="1 silver", scoring="1 vp per building")


def test_the_transcribe_example_with_the_racketeer_L656_662() -> None:
    """Seed L656-662 (§5.4): a grey-ribbon Manuscript needs 6 Clerics: the Acolyte 1, the
    Church Favour's ability 1, 3 Ink, and the Racketeer dismissed for 1 Silver (who lets Red
    reorder at once). At the end it gives 1 VP per Building Red built, and counts in a set."""
    data = changed(_racketeer_data)
    state = at_action("inner-0", ("acolyte", "baker", None), data=data, ink=3, silver=1)
    state = replace(state, favour_holders={"favour-grey": 0})
    state = state.with_player(0, favours=("favour-grey",), manuscripts=())
    stacks = [tuple(m for m in s if m != "ms-9") for s in state.stacks]
    stacks[0] = ("ms-9", *stacks[0])
    state = with_top(replace(state, stacks=tuple(stacks)), 0, "racketeer")
    state = turn.apply(state, Transcribe("ann", dismiss=True))
    assert state.ask is not None and state.ask.asks == "reorder"  # "then takes" (L659)
    assert state.players[0].silver == 0  # the Manuscript's effect waits for the reorder
    state = settle(state, ["1,0,2"])
    p = state.players[0]
    assert p.manuscripts == ("ms-9",) and p.ink == 0 and p.silver == 1
    assert p.board == ("baker", "acolyte", None)
    two = (("workshop", 0, "a"), ("guildhall", 0, "b"))
    end = _blank(state).with_player(0, manuscripts=("ms-9", "ms-6", "ms-7"), built=two)
    lines = scoring.lines(end, 0)
    assert [ln.amount for ln in lines if ln.params.get("manuscript") == "ms-9"] == [2]
    assert {ln.code: ln.amount for ln in lines}["score/sets"] == 9  # grey, red, green


def test_the_collision_example_L694_702() -> None:
    """Seed L694-702 (§4 phase 5): Red resolves a Collision. Red built the 2nd Workshop but
    shows a Villain: no Virtue. The Peddler's Collision ability gives Red 1 Ink. The bonus
    above the space: 2 Debts and 3 Silver. Every other player with no Villain on the board
    takes the bonus below (1 Virtue). Then Red's markers go back."""
    state = at_action("outer-0-left", ("peddler", "racketeer", None), n=3, silver=0, ink=0)
    state = state.with_player(0, corruption=0, virtue=0, stacked=True,
                              built=(("workshop", 1, "site-3-0"),))  # fmt: skip
    state = state.with_player(1, board=("baker", None, None))
    state = state.with_player(2, board=("thief", None, None))
    bob, cyd = state.players[1], state.players[2]
    state = turn.apply(turn.apply(state, Skip("ann")), Pass("ann"))
    red = state.players[0]
    assert red.ink == 1 and red.debts == 2 and red.silver == 3
    assert "line/gain-virtue" not in codes(state, "ann")
    assert (red.corruption, red.virtue, red.stacked) == (0, SPACES - 1, False)
    assert state.players[1].virtue == bob.virtue - 1
    assert state.players[2].virtue == cyd.virtue


def test_the_tie_examples_in_a_game_L765_767() -> None:
    """Seed L765-767 (§7): two players tied 1st in granted Deeds take (12+8)/2 = 10 each and
    the next (3rd place) still 4; three tied 2nd take (8+4)/3 = 4 each."""
    state = replace(_blank(started(4)), poverty=True)

    def poverty(granted: tuple[int, ...]) -> dict[str, int]:
        s = state
        for i, g in enumerate(granted):
            s = s.with_player(i, granted=g)
        own = dict(zip(SEATS, granted, strict=True))
        return {r.seat: r.total - 3 * own[r.seat] for r in scoring.score(s)}

    assert poverty((3, 3, 1, 0)) == {"ann": 10, "bob": 10, "cyd": 4, "dee": 0}
    assert poverty((4, 2, 2, 2)) == {"ann": 12, "bob": 4, "cyd": 4, "dee": 4}
