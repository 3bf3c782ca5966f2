"""The referee checks of digest §13, audited: every item 1-62 has a test citing it ("§13 item N"
in a docstring of tests/games/france1429), with a legal and an illegal case. This file holds the
audit itself and the checks no other test file covered: Bishop votes beyond the Sigy example
(item 7), King candidates and votes (items 10-11), strength points and dice (46), loss
allocation (47), the end of a battle (48) and the hand limit after a card changes hands (61).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from frcore_builders import at_phase, fort, hand, lord, table, troops

from engine.games.france1429 import hear_ye, war
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import (
    Answer,
    Attack,
    BattleRoll,
    Candidate,
    Losses,
    PlayCard,
    Resolve,
)
from engine.games.france1429.state import DARC, SECRET_PASSAGE, Battle, Election, FranceState
from engine.violations import RuleViolation

HERE = Path(__file__).parent
ITEMS = range(1, 63)  # digest §13 numbers its checks 1-62


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def _cited() -> set[int]:
    """Every §13 item a test of this folder cites: "§13 item 7", "§13 items 18, 58", "items
    26-35" (the numbers after "§13 item(s)" up to the next word)."""
    found: set[int] = set()
    for path in HERE.glob("test_*.py"):
        for m in re.finditer(r"§13 items? ([0-9][0-9,\s\-–]*)", path.read_text()):
            for part in re.split(r",\s*", m.group(1).strip(" ,")):
                bounds = [int(x) for x in re.split(r"[-–]", part) if x.strip().isdigit()]
                if bounds:
                    found.update(range(bounds[0], bounds[-1] + 1))
    return found


def test_every_referee_check_of_section_13_has_a_test() -> None:
    """Digest §13: each of the 62 checks is cited by at least one test."""
    missing = sorted(set(ITEMS) - _cited())
    assert missing == []


def test_the_audit_reads_single_items_lists_and_ranges() -> None:
    """The citation reader itself: a range and a list count every number in them."""
    text = '"""x (§13 items 18, 58) y (§13 items 26-29) z (§13 item 3)"""'
    found: set[int] = set()
    for m in re.finditer(r"§13 items? ([0-9][0-9,\s\-–]*)", text):
        for part in re.split(r",\s*", m.group(1).strip(" ,")):
            bounds = [int(x) for x in re.split(r"[-–]", part) if x.strip().isdigit()]
            found.update(range(bounds[0], bounds[-1] + 1))
    assert found == {3, 18, 26, 27, 28, 29, 58}


# --- Phase 1 -----------------------------------------------------------------------------------


def test_bishop_votes_count_only_free_churchmen_from_before_this_round() -> None:
    """§10.3 (§13 item 7): an uncaptured Bishop of an earlier round gives 2, one elected this
    round nothing, a captive nothing; a Cardinal who is also a Bishop 3, not 5."""
    state = replace(table(), round=2)
    state = lord(state, "arthur", "kirsten", "bourg", bishop=4, bishop_round=1)
    assert hear_ye.votes(state, "kirsten", "bishop", 5) == 2
    fresh = state.with_lord(replace(state.lord("arthur"), bishop_round=2))
    assert hear_ye.votes(fresh, "kirsten", "bishop", 5) == 0
    captive = state.with_lord(replace(state.lord("arthur"), captor="grady"))
    assert hear_ye.votes(captive, "kirsten", "bishop", 5) == 0
    cardinal = state.with_lord(replace(state.lord("arthur"), cardinal=True))
    assert hear_ye.votes(cardinal, "kirsten", "bishop", 5) == 3


def _king_election(state: FranceState) -> FranceState:
    return replace(state, election=Election("king"), offices=())


def test_king_candidates_are_titled_laymen_free_and_in_communion() -> None:
    """§10.6 (§13 item 10): a titled male Lord may stand; a Bishop, a captive, an
    excommunicated Lord and a Lady may not."""
    state = lord(table(), "charles", "grady", "bourg", fiefs=("bourg",))
    state = lord(state, "gauvain", "grady", "bourg", fiefs=("sigy",), bishop=5)
    state = lord(state, "jeanne", "grady", "bourg", fiefs=("green",))
    state = _king_election(state)
    assert Candidate("grady", "charles") in legal_moves(state)
    # each refusal names the rule (issue 27)
    for lid, code in (("gauvain", "election/clergy"), ("jeanne", "election/not-male")):
        assert _refused(state, Candidate("grady", lid)) == code
    for mark, code in (({"captor": "david"}, "election/captive"),
                       ({"excommunicated": True}, "election/excommunicated")):  # fmt: skip
        barred = state.with_lord(replace(state.lord("charles"), **mark))  # type: ignore[arg-type]
        assert _refused(barred, Candidate("grady", "charles")) == code


def test_king_votes_are_one_per_free_titled_lord() -> None:
    """§10.6 (§13 item 11): 1 vote per uncaptured, non-excommunicated Titled Lord; an untitled
    Lord, a captive, an excommunicated Lord and d'ARC (no Title, FR-7) give none."""
    state = lord(table(), "charles", "david", "blaye", fiefs=("blaye",))
    state = lord(state, "francois", "david", "blaye", bishop=1)
    state = lord(state, "thierry", "david", "blaye")
    state = lord(state, "mireille", "david", "blaye", darc=True)
    assert hear_ye.votes(state, "david", "king") == 2
    state = state.with_lord(replace(state.lord("charles"), captor="grady"))
    state = state.with_lord(replace(state.lord("francois"), excommunicated=True))
    assert hear_ye.votes(state, "david", "king") == 0


# --- Phase 6 -----------------------------------------------------------------------------------


def _fortress(kind: str = "fortified") -> FranceState:
    """David holds L'Épervier (a fortification) with his Lord and 2 Knights; Grady is there with
    his Lord and 4 Knights (13 SP: 3 dice before the penalty)."""
    state = troops(lord(table(), "thierry", "david", "l-epervier"), "david", "l-epervier",
                   knights=2)  # fmt: skip
    state = fort(state, "l-epervier", kind)
    state = troops(lord(state, "beaudoin", "grady", "l-epervier"), "grady", "l-epervier",
                   knights=4)  # fmt: skip
    return at_phase(state, "battles", "grady")


def test_dice_count_darc_fortified_city_engines_and_sallies() -> None:
    """§9.2, §9.6 (§13 item 46): 13 SP → 3 dice, -2 against a Fortified City; a 1-die Siege
    Engine cancels one; d'ARC +1; a Secret Passage cancels all; the army inside attacking out
    has no penalty. A roll with another number of dice is refused."""
    state = _fortress()
    b = Battle("grady", "david", "l-epervier")
    assert war.strength(state, "grady", "l-epervier") == 13
    assert war.dice(state, b, "grady") == 1
    sieged = state.with_place(replace(state.place("l-epervier"), besieged_by="grady", engine=1))
    assert war.dice(sieged, b, "grady") == 2
    joan = lord(state, "mireille", "grady", "l-epervier", darc=True)
    assert war.dice(joan, b, "grady") == 1 + 1
    assert war.dice(state, replace(b, tunnels=True), "grady") == 3
    assert war.dice(state, Battle("david", "grady", "l-epervier"), "david") == 2  # 7 SP, no -2
    started = apply(state, Attack("grady", "l-epervier", "david"))
    assert _refused(started, BattleRoll((1, 1, 1), (1,))) == "battle/dice-count"
    assert apply(started, BattleRoll((1,), (1, 1))).battle is not None


def test_losses_take_the_most_strength_knights_need_three_lords_last() -> None:
    """§9.4 (§13 item 47): 4 hits on 2 Knights and a Lord: one Knight dies; losing nothing,
    or the Lord while a Knight stands, is refused."""
    state = _fortress("none")
    b = Battle("grady", "david", "l-epervier", "losses", {"david": 4}, ("david",))
    state = replace(state, battle=b)
    assert legal_moves(state) == [Losses("david", 0, 1)]
    assert _refused(state, Losses("david", 0, 0)) == "battle/losses"
    assert _refused(state, Losses("david", 0, 1, ("thierry",))) == "battle/losses"
    after = apply(state, Losses("david", 0, 1))
    assert after.troops_at("david", "l-epervier").knights == 1
    assert after.lord("thierry").captor is None


def test_only_the_attacker_stops_and_only_against_a_fortification() -> None:
    """§9.5 (§13 item 48): after a roll the attacker may stop against a Stronghold (the siege
    goes on); the defender may not stop, nor may an attacker in the open; a truce needs the
    attacker's offer."""
    state = replace(_fortress("stronghold"), battle=Battle("grady", "david", "l-epervier",
                                                           "attacker"))  # fmt: skip
    assert _refused(state, Resolve("david", "stop")) == "battle/not-your-decision"
    stopped = apply(state, Resolve("grady", "stop"))
    assert stopped.battle is None and stopped.lord("thierry").captor is None
    defending = apply(state, Resolve("grady", "go-on"))
    assert _refused(defending, Resolve("david", "stop")) == "battle/no-stop"
    assert _refused(defending, Resolve("david", "truce")) == "battle/no-truce"
    open_field = replace(_fortress("none"), battle=Battle("grady", "david", "l-epervier",
                                                          "attacker"))  # fmt: skip
    assert _refused(open_field, Resolve("grady", "stop")) == "battle/no-stop"


# --- any time ----------------------------------------------------------------------------------


def test_card_play_leaves_no_hand_above_three() -> None:
    """§12.4 (§13 item 61): the hand limit is 3 (a card changing hands must respect it); a
    Secret Passage can be played from a hand of 3 and the hand shrinks."""
    state = lord(table(), "mireille", "grady", "blaye")
    state = hand(at_phase(state, "play", "david"), "david", DARC, SECRET_PASSAGE, SECRET_PASSAGE)
    after = apply(state, PlayCard("david", DARC, "mireille"))
    assert len(after.family("david").hand) == 2
    assert Answer("david", True) not in legal_moves(after)
