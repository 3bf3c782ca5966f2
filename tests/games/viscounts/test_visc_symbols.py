"""Paying a main action with symbols (engine/games/viscounts/symbols.py), from the seed's
worked examples (digest §5.1, §5.3, §5.4, §8)."""

from __future__ import annotations

from engine.games.viscounts.effects import parse_ability
from engine.games.viscounts.symbols import count, exchanges, shortfall, supply, workers_for


def test_the_worker_example() -> None:
    """Digest §5.3 example [seed L610-614]: Red has 5 Nobles (Thief 1, Steward 1, a
    Guildhall 1, the Benefactor's ability 2) and pays 3 Gold to reach 8 Nobles: 4 Workers."""
    s = supply(
        [["noble"], ["noble"]],  # the Thief and the Steward
        [
            parse_ability("persistent: 1 noble", "Guildhall"),
            parse_ability("persistent: 2 noble", "B"),
        ],
    )
    assert count(s, "noble") == 5
    assert shortfall(s, "noble", 8) == 3
    assert workers_for(8) == 4 and workers_for(5) == 3 and workers_for(3) == 2
    assert workers_for(2) == 1 and workers_for(1) == 1 and workers_for(0) == 0


def test_the_trade_example() -> None:
    """Digest §5.1 example [seed L459-465]: 4 Merchants on the board and 2 Silver spent make
    6 Merchants: 3 Gold at a resource town; a single left-over Merchant earns nothing."""
    s = supply([["merchant", "merchant"], ["merchant"], ["merchant", "builder"]])
    assert count(s, "merchant") == 4
    assert exchanges(4 + 2, "gold") == 3
    assert exchanges(7, "resource") == 3 and exchanges(7, "silver") == 7
    assert exchanges(7, "destroy") == 2 and exchanges(7, "flip") == 1


def test_the_transcribe_example() -> None:
    """Digest §5.4 example [seed L656-662]: 6 Clerics from the Acolyte 1, the Church Favour
    card's ability 1, the dismissed Racketeer 1 and 3 Ink."""
    favour = parse_ability("persistent: 1 cleric", "Church Favour")
    s = supply([["cleric"], ["cleric"]], [favour])  # the Acolyte, the dismissed Racketeer
    assert count(s, "cleric") == 3 and shortfall(s, "cleric", 6) == 3


def test_villains_are_wild_only_in_a_main_action() -> None:
    """Digest §4 phase 3 [seed L259-265]: a Villain counts as any symbol in a main action,
    never in final scoring. The solo example's 3 Clerics include a wild Villain and a
    Guildhall's symbol [seed L994-995]."""
    s = supply([["cleric"], ["villain"]], [parse_ability("persistent: 1 cleric", "Guildhall")])
    assert count(s, "cleric") == 3
    assert count(s, "cleric", main_action=False) == 2
    assert count(s, "villain") == 1


def test_the_travellers_conversion() -> None:
    """Digest §2 [seed L284-293]: each pair of Merchants counts as one Cleric while the
    Traveller lies on the board; an odd Merchant converts to nothing."""
    traveller = parse_ability("persistent: 2 merchant -> 1 cleric", "Traveller")
    s = supply([["merchant", "merchant"], ["merchant"], ["cleric"]], [traveller])
    assert count(s, "cleric") == 2
    assert count(s, "merchant") == 3  # the Merchants still pay a Trade
    pushed_off = supply([["merchant", "merchant"], ["cleric"]], [None])
    assert count(pushed_off, "cleric") == 1


def test_only_persistent_unconditional_abilities_give_symbols() -> None:
    timed = parse_ability("persistent: after trade -> 1 silver", "Trader")
    immediate = parse_ability("immediate: 1 debt", "Antagonist")
    s = supply([["builder"]], [timed, immediate])
    assert count(s, "builder") == 1 and s.granted == {}
