"""Effects as sentences (engine/games/viscounts/describe.py): every word of every atom is in the
English and the Polish catalog, with real plural forms, so a phone can show any card's effect.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from visc_registered import registered, shipped

from engine.games.viscounts.describe import ability_text, atom_text, effect_text
from engine.games.viscounts.effects import (
    ACTIONS,
    AI_ACTIONS,
    BUILDINGS,
    COUNTERS,
    EVENTS,
    FLIPS,
    GAINS,
    MODIFIERS,
    SYMBOLS,
    TIMINGS,
    Ability,
    Action,
    Atom,
    Condition,
    Effect,
    Flip,
    Gain,
    Modifier,
    Symbols,
    parse_ability,
    parse_effect,
)

LANGS = ("en", "pl")


@pytest.fixture(scope="module", autouse=True)
def game() -> Iterator[Any]:
    with registered() as g:
        yield g


def _every_atom() -> list[Atom]:
    atoms: list[Atom] = []
    for n in (1, 2, 5):
        atoms += [Gain(w, n) for w in GAINS] + [Gain("vp", n, c) for c in COUNTERS]
        atoms += [Symbols(s, n) for s in SYMBOLS] + [Flip(f, n) for f in FLIPS]
        atoms += [Action(k, n) for k in (*ACTIONS, *AI_ACTIONS) if k != "free-build"]
        atoms += [Modifier(k, n) for k in MODIFIERS]
    atoms += [Action("free-build", 1, b) for b in (*BUILDINGS, "any")]
    return atoms


@pytest.mark.parametrize("lang", LANGS)
def test_every_atom_event_condition_and_timing_has_words(lang: str) -> None:
    for atom in _every_atom():
        assert atom_text(atom, lang).strip(), atom
    for event in EVENTS:
        e = Effect(((Gain("silver", 1),),), event, (Condition("villain", None),))
        for timing in TIMINGS:
            assert ability_text(Ability(timing, e), lang)
    for symbol in SYMBOLS:
        assert effect_text(Effect(((Gain("ink", 1),),), None, (Condition(symbol, 3),)), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_every_shipped_effect_reads_as_a_sentence(lang: str) -> None:
    """The phones show each card's effect (issue 14 "At the table")."""
    for name in ("stand-in", "box"):
        d = shipped(name)
        for card in d.townsfolk:
            if card.hire is not None:
                assert effect_text(card.hire, lang)
            if card.ability is not None:
                assert ability_text(card.ability, lang)
        for b in d.buildings:
            assert all(ability_text(a, lang) for a in b.abilities if a is not None)
        for s in d.schemes:
            assert all(effect_text(x, lang) for x in s.steps or ())
        for m in d.manuscripts:
            assert all(effect_text(x, lang) for x in (m.effect, m.scoring) if x is not None)


def test_sentences_from_the_seeds_examples() -> None:
    """The Apprentice [seed L333-334], the Traveller [L284-293], a scoring condition
    [L656-662], Workshop 2 [L528-529]."""
    apprentice = parse_ability("push-off: free-hire, 1 virtue", "Apprentice")
    assert ability_text(apprentice, "en") == (
        "When pushed off: hire 1 Townsfolk visible on the main board for free, +1 Virtue"
    )
    traveller = parse_ability("persistent: 2 merchant -> 1 cleric", "Traveller")
    assert ability_text(traveller, "en").endswith(
        "every 2 Merchant symbols count as 1 Cleric symbol"
    )
    assert "każde 2 Symbole Kupca liczą się jako 1 Symbol Kapłana" in ability_text(traveller, "pl")
    scoring = parse_effect("1 vp per building", "ms", "scoring", "scoring")
    assert effect_text(scoring, "pl") == "+1 PZ za każdy zbudowany Budynek"
    w2 = parse_ability("persistent: on collision, no villain -> 1 virtue", "Workshop 2")
    assert ability_text(w2, "en") == (
        "While on your board: In any player's Collision, no Villain symbol on your board: +1 Virtue"
    )
    cost = parse_effect("2 silver, 1 corruption, discard 1 -> 1 deed or 2 virtue", "T", "hire")
    text = effect_text(cost, "en")
    assert text.startswith("pay 2 Silver, take 1 Corruption, give up: you may discard 1 card")
    assert text.endswith(": +1 Deed or +2 Virtue")


def test_polish_counts_take_their_plural_forms() -> None:
    assert [atom_text(Gain("silver", n), "pl") for n in (1, 3, 5, 22)] == [
        "+1 Srebrnik",
        "+3 Srebrniki",
        "+5 Srebrników",
        "+22 Srebrniki",
    ]
    assert atom_text(Gain("debt", 2), "en") == "+2 Debts"
    assert atom_text(Flip("deed", 5), "pl") == "odwróć 5 zdobytych Lenn"
