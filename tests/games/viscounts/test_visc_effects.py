"""The effect grammar (engine/games/viscounts/effects.py, docs/viscounts-effects.md).

Every form of the grammar is read from an example the digest or the seed gives (cited in each
test), and malformed effects are refused with an ``EffectError`` naming the card and the part,
in English and Polish.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from visc_registered import registered

from engine.games.viscounts.effects import (
    Ability,
    Action,
    Condition,
    Conversion,
    Effect,
    EffectError,
    Flip,
    Gain,
    Modifier,
    Symbols,
    parse_ability,
    parse_effect,
    symbols_of,
)
from engine.violations import InputError


@pytest.fixture(scope="module", autouse=True)
def game() -> Iterator[Any]:
    with registered() as g:
        yield g


def _effect(body: Effect | Conversion) -> Effect:
    assert isinstance(body, Effect)
    return body


def test_gains_of_the_glossary() -> None:
    """Digest §6 effect glossary [seed L1026-1063]: Ink, Stone, Gold, Silver, any resource,
    an unpaid Debt, an acquired Deed, Corruption, Virtue; a leading + is allowed."""
    e = parse_effect("1 ink, 1 stone, 1 gold, +1 silver, 1 resource", "T", "hire")
    assert e.reward == (
        (Gain("ink", 1), Gain("stone", 1), Gain("gold", 1), Gain("silver", 1), Gain("resource", 1)),
    )
    e = parse_effect("1 debt, 1 deed, 2 corruption, 1 virtue", "T", "hire")
    assert e.reward[0] == (
        Gain("debt", 1),
        Gain("deed", 1),
        Gain("corruption", 2),
        Gain("virtue", 1),
    )
    assert e.event is None and e.conditions == () and e.cost == () and not e.choice


def test_flips() -> None:
    """Digest §6 glossary, flip icons [seed L221, L1038-1042]: an unpaid Debt, an acquired
    Deed, or either; a count is optional."""
    e = parse_effect("flip debt, flip 2 deed, flip debt-or-deed", "T", "hire")
    assert e.reward[0] == (Flip("debt", 1), Flip("deed", 2), Flip("debt-or-deed", 1))


def test_the_glossary_actions_and_which_are_optional() -> None:
    """Digest §6 glossary [seed L1044-1096]: free Manuscript, free Hire, free Build of a named
    Building, free Workers, shift a Worker, reorder, Discard, Destroy, shuffle the discard pile
    in. Reorder, Discard, Destroy and the shift are always optional [L1065-1089]; the rest are
    mandatory [L1024-1025]."""
    e = parse_effect(
        "free-manuscript, free-hire, free-build guildhall, free-workers 2, shift-worker, "
        "reorder, discard 1, destroy, shuffle-in",
        "T",
        "hire",
    )
    atoms = e.reward[0]
    assert atoms == (
        Action("free-manuscript"),
        Action("free-hire"),
        Action("free-build", 1, "guildhall"),
        Action("free-workers", 2),
        Action("shift-worker"),
        Action("reorder"),
        Action("discard", 1),
        Action("destroy", 1),
        Action("shuffle-in"),
    )
    optional = {a.kind for a in atoms if isinstance(a, Action) and a.optional}
    assert optional == {"shift-worker", "reorder", "discard", "destroy"}
    assert parse_effect("free-build any", "T", "hire").reward[0] == (
        Action("free-build", 1, "any"),
    )


def test_a_choice_of_alternatives() -> None:
    """Digest §5.3: a level-2 Castle section gives "free Hire or Destroy a card" [seed L562];
    "," binds tighter than "or"."""
    e = parse_effect("free-hire or destroy 1", "Castle", "level2[2]")
    assert e.choice and e.reward == ((Action("free-hire"),), (Action("destroy", 1),))
    e = parse_effect("1 ink, 1 stone or 2 virtue", "Castle", "level2[0]")
    assert e.reward == ((Gain("ink", 1), Gain("stone", 1)), (Gain("virtue", 2),))


def test_immediate_ability() -> None:
    """Digest §4 phase 1: the Antagonist's immediate ability gives 1 Debt [seed L341-343]."""
    a = parse_ability("immediate: 1 debt", "Antagonist")
    assert a == Ability("immediate", Effect(((Gain("debt", 1),),)))


def test_push_off_ability() -> None:
    """Digest §4 phase 1: the Apprentice gives a free Hire and 1 Virtue when pushed off
    [seed L333-334]."""
    a = parse_ability("push-off: free-hire, 1 virtue", "Apprentice")
    assert a.timing == "push-off"
    assert _effect(a.body).reward == ((Action("free-hire"), Gain("virtue", 1)),)


def test_timed_ability_after_a_main_action() -> None:
    """Digest §5.1 example: the Trader's persistent ability gives +1 Silver after the Trade
    action [seed L461-465]."""
    body = _effect(parse_ability("persistent: after trade -> 1 silver", "Trader").body)
    assert body.event == "after trade" and body.reward == ((Gain("silver", 1),),)


def test_collision_ability() -> None:
    """Digest §4 phase 5 step 2: the Peddler gives 1 Ink during any Collision
    [seed L684-686, the Collision icon L1054-1055]."""
    body = _effect(parse_ability("persistent: on collision -> 1 ink", "Peddler").body)
    assert body.event == "on collision" and body.reward == ((Gain("ink", 1),),)


def test_event_and_condition_together() -> None:
    """Digest §5.2: Workshop 2 gives 1 Virtue in any Collision to an owner without Villain
    symbols [seed L528-529, L683]."""
    body = _effect(parse_ability("persistent: on collision, no villain -> 1 virtue", "W2").body)
    assert body.event == "on collision"
    assert body.conditions == (Condition("villain", None),)
    assert body.reward == ((Gain("virtue", 1),),)


def test_a_condition_alone_and_an_at_least_condition() -> None:
    """Digest §4 phase 5 step 4: the bonus below the track gives 1 Virtue only to players
    with no Villain symbol [seed L688-695]; ``N+ SYMBOL`` asks for at least N."""
    e = parse_effect("no villain -> 1 virtue", "track", "below[0]")
    assert e.conditions == (Condition("villain", None),) and e.cost == ()
    e = parse_ability("persistent: 3+ merchant -> 1 gold", "X").body
    assert isinstance(e, Effect) and e.conditions == (Condition("merchant", 3),)


def test_a_cost_left_of_the_arrow() -> None:
    """Digest §2 card anatomy: left of the arrow a cost [seed L280-283]; paying Silver,
    taking Corruption, discarding a card are costs."""
    e = parse_effect("2 silver -> 1 deed, 1 virtue", "T", "hire")
    assert e.cost == (Gain("silver", 2),)
    assert e.reward == ((Gain("deed", 1), Gain("virtue", 1)),)
    e = parse_ability("immediate: 1 corruption, discard 1 -> 3 silver", "T").body
    assert isinstance(e, Effect) and e.cost == (Gain("corruption", 1), Action("discard", 1))


def test_the_travellers_symbol_conversion() -> None:
    """Digest §2 card anatomy: the Traveller, while on the board, counts every pair of
    Merchant symbols as one Cleric symbol [seed L284-293]."""
    a = parse_ability("persistent: 2 merchant -> 1 cleric", "Traveller")
    assert a == Ability("persistent", Conversion("merchant", 2, "cleric", 1))


def test_persistent_symbols_and_rule_modifiers() -> None:
    """Digest §5.3 example: the Benefactor's ability supplies 2 Nobles [seed L611]; §5.2:
    Trading Post 1 a free space of movement [L524-525], Trading Post 2 dismissing for 1 Silver
    [L525-526], Workshop 3 hand limit +1 [L530-531]."""
    assert _effect(parse_ability("persistent: 2 noble", "Benefactor").body).reward == (
        (Symbols("noble", 2),),
    )
    for text, mod in (
        ("persistent: free-move 1", Modifier("free-move", 1)),
        ("persistent: dismiss-cost 1", Modifier("dismiss-cost", 1)),
        ("persistent: hand-limit 1", Modifier("hand-limit", 1)),
    ):
        assert _effect(parse_ability(text, "Building").body).reward == ((mod,),)


def test_scheme_steps() -> None:
    """Digest §8 worked example [seed L967-982]: the AI dismisses, moves 2, attempts its Main
    Goal, and on failure flips a Debt and gains 1 Virtue; draw icons take Future Schemes."""
    steps = [
        parse_effect(t, "Scheme 1", "steps", "scheme") for t in ("dismiss", "move 2", "draw 1")
    ]
    assert [s.reward[0][0] for s in steps] == [
        Action("dismiss"),
        Action("move", 2),
        Action("draw", 1),
    ]
    goal = parse_effect("main-goal or flip debt, 1 virtue", "Scheme 1", "steps", "scheme")
    assert goal.reward == ((Action("main-goal"),), (Flip("debt"), Gain("virtue", 1)))


def test_scoring_conditions() -> None:
    """Digest §7 scoring example [seed L791-794]: VP per Building built, per Noble symbol,
    per Villain symbol, per paid Debt."""
    for counter in ("building", "noble", "villain", "paid-debt"):
        e = parse_effect(f"1 vp per {counter}", "ms-1", "scoring", "scoring")
        assert e.reward == ((Gain("vp", 1, counter),),)
    assert parse_effect("4 vp", "ms-1", "scoring", "scoring").reward == ((Gain("vp", 4),),)


def test_card_symbols() -> None:
    """Digest §2 card anatomy: the left-side symbols [seed L270-279]."""
    assert symbols_of(["merchant", "villain"], "Thief") == ("merchant", "villain")


BAD: list[tuple[str, str, str, str | None]] = [
    ("ability", "", "effect/no-timing", None),
    ("ability", "whenever: 1 ink", "effect/unknown-timing", "whenever"),
    ("ability", "immediate:   ", "effect/empty", None),
    ("ability", "immediate: 1 ink -> 1 gold -> 1 stone", "effect/arrows", None),
    ("ability", "immediate: -> 1 ink", "effect/arrow-side", None),
    ("ability", "immediate: 1 pig", "effect/unknown-word", "pig"),
    ("ability", "immediate: gain ink", "effect/unknown-word", "gain"),
    ("ability", "immediate: 0 ink", "effect/bad-amount", "0"),
    ("ability", "immediate: free-workers two", "effect/bad-amount", "two"),
    ("ability", "immediate: 1 ink,, 1 gold", "effect/empty-item", None),
    ("ability", "immediate: 2 merchant -> 1 cleric", "effect/conversion-persistent", None),
    ("ability", "persistent: 2 merchant -> 1 merchant", "effect/conversion-same", "merchant"),
    ("ability", "persistent: on hire, after trade -> 1 ink", "effect/two-events", "after trade"),
    ("ability", "immediate: on collision -> 1 ink", "effect/event-persistent", "on collision"),
    ("ability", "persistent: 1 merchant -> 1 ink", "effect/left-side", "1 merchant"),
    ("ability", "immediate: free-build castle", "effect/free-build", "free-build castle"),
    ("ability", "immediate: 1 cleric", "effect/symbols-persistent", "1 cleric"),
    ("ability", "immediate: hand-limit 1", "effect/not-here", "hand-limit"),
    ("ability", "immediate: move 2", "effect/not-here", "move"),
    ("ability", "immediate: 2 vp", "effect/not-here", "vp"),
    ("scoring", "1 ink", "effect/scoring-vp", "1 ink"),
    ("ability", "immediate: 1 vp per dragon", "effect/unknown-word", "dragon"),
]


@pytest.mark.parametrize(("place", "text", "code", "word"), BAD)
def test_a_malformed_effect_is_refused_naming_card_and_part(
    place: str, text: str, code: str, word: str | None
) -> None:
    """Issue 14: the engine refuses a card whose effect it cannot read, naming it."""
    with pytest.raises(EffectError) as caught:
        if place == "scoring":
            parse_effect(text, "Scribe of Doom", "scoring", "scoring")
        else:
            parse_ability(text, "Scribe of Doom", "ability")
    err = caught.value
    assert isinstance(err, InputError) and err.code == "input/effect"
    assert err.message_code == f"viscounts:{code}"
    assert err.params["card"] == "Scribe of Doom"
    if word is not None:
        assert err.params["word"] == word
    for lang in ("en", "pl"):
        sentence = err.text(lang)
        assert "Scribe of Doom" in sentence and err.params["part"] in sentence
    assert "Scribe of Doom" in str(err)


def test_an_unknown_symbol_is_refused() -> None:
    with pytest.raises(EffectError) as caught:
        symbols_of(["merchant", "wizard"], "Mage")
    assert caught.value.params["word"] == "wizard"
    assert "Mage" in caught.value.text("en") and "wizard" in caught.value.text("pl")
