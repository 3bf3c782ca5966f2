"""The option ``edition`` (issue 27): where the English rulebook (seed 004, cited by page and
section) and the Polish one (seed 000, cited by line) print different rules, each reading
follows the table's edition unless set on its own; both values are played here."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, hand, lord, table, troops

from engine.games.france1429 import hear_ye, war
from engine.games.france1429.deaths import kill
from engine.games.france1429.editions import FOLLOW, PRINTED
from engine.games.france1429.game import GAME, apply, legal_moves
from engine.games.france1429.moves import (
    Answer,
    DisasterDie,
    Done,
    Losses,
    PlayCard,
)
from engine.games.france1429.state import ASSASSINATION, FAMINE, Battle, FranceState
from engine.violations import InputError, RuleViolation


def test_every_disagreement_follows_the_edition_by_default_and_is_shown_in_the_setup_form() -> None:
    """Digest §15 items 5-16: each reading the editions print differently is an option whose
    default is ``edition`` and whose choices name both readings; ``edition`` itself is en|pl."""
    specs = {o.name: o for o in GAME.info.options}
    assert specs["edition"].default == "en" and specs["edition"].choices == ("en", "pl")
    for name, values in PRINTED.items():
        assert specs[name].default == FOLLOW
        assert set(specs[name].choices) == {FOLLOW, values["en"], values["pl"]}
        assert values["en"] != values["pl"]


@pytest.mark.parametrize("edition", ["en", "pl"])
def test_the_edition_sets_each_reading_and_an_option_of_its_own_overrides_it(edition: str) -> None:
    state = table(edition=edition)
    for name, values in PRINTED.items():
        assert state.option(name) == values[edition]
    other = "pl" if edition == "en" else "en"
    mixed = table(edition=edition, assassination=other)
    assert mixed.option("assassination") == other
    assert mixed.option("duplicate_disaster") == PRINTED["duplicate_disaster"][edition]


def test_an_edition_the_game_does_not_know_is_refused_naming_the_choices() -> None:
    from engine.adapter import resolve_options

    with pytest.raises(InputError) as info:
        resolve_options(GAME.info, {"edition": "fr"})
    assert "edition is one of en, pl" in str(info.value)


def test_a_hand_written_position_without_options_reads_the_english_edition() -> None:
    """A state file that names no options (the calculator) gets the default edition's readings."""
    state = replace(table(), options={})
    assert state.option("duplicate_disaster") == "reroll"
    assert replace(table(), options={"edition": "pl"}).option("captives") == "optional"


# --- FR-8: the Crown Prince (EN p.6 §1.8.1 "gains the King's Titles"; PL L750-751) -------------


def _king_dies(edition: str) -> FranceState:
    state = lord(table(edition=edition), "charles", "david", "vaux", king=True, fiefs=("medard",))
    state = lord(state, "thierry", "david", "vaux")
    state = lord(state, "alienor", "grady", "blaye", queen=True)
    state = lord(state, "quentin", "grady", "blaye", crown_prince=True)
    return kill(state, "charles")


def test_en_the_crown_prince_becomes_king_with_the_kings_fief_titles() -> None:
    """EN §1.8.1: "the Crown Prince immediately becomes the new King and gains the King's
    Titles. The former King's Queen loses her Queen's Title"."""
    state = _king_dies("en")
    assert state.lord("quentin").king and state.lord("quentin").fiefs == ("medard",)
    assert not state.lord("thierry").fiefs and not state.lord("alienor").queen


def test_pl_the_crown_prince_takes_only_the_crown() -> None:
    """PL L750-751: "od razu zostaje królem, ale nie otrzymuje tytułów lennych zmarłego króla"."""
    state = _king_dies("pl")
    assert state.lord("quentin").king and not state.lord("quentin").fiefs
    assert state.lord("thierry").fiefs == ("medard",)


# --- FR-16: the same Disaster twice (EN p.8 §2.3 roll again; PL L891-892 discard) ------------


@pytest.mark.parametrize(("edition", "rerolled"), [("en", True), ("pl", False)])
def test_a_second_disaster_of_a_type_on_a_bishopric(edition: str, rerolled: bool) -> None:
    """EN §2.3: a Bishopric already hit by this Disaster type: roll again. PL L891-892: "Jedno
    biskupstwo nie może być dotknięte więcej niż 1 kartą plagi tego samego typu jednocześnie.
    Jeśli tak się stanie, kartę należy odrzucić"."""
    state = at_phase(table(edition=edition), "draw", "gunter")
    state = replace(state, track=(FAMINE, FAMINE))
    state = apply(apply(state, Done("gunter")), DisasterDie(2))
    after = apply(state, DisasterDie(2))
    if rerolled:
        assert after == state and after.phase == "disasters"
    else:
        assert after.phase == "play" and after.fortune_discard == {FAMINE: 1}
        assert [(c.bishopric, c.card) for c in after.mitres] == [(2, FAMINE)]


# --- FR-17: Assassination (EN p.17 §10.3 1D6, dies on 1-3; PL L2223-2226 "Sukces gwarantowany")


@pytest.mark.parametrize(("edition", "rolls"), [("en", True), ("pl", False)])
def test_assassination_rolls_in_english_and_always_kills_in_polish(
    edition: str, rolls: bool
) -> None:
    state = lord(lord(table(edition=edition), "thierry", "david", "vaux"), "quentin", "grady",
                 "blaye")  # fmt: skip
    state = hand(at_phase(state, "play", "david"), "david", ASSASSINATION)
    state = apply(state, PlayCard("david", ASSASSINATION, "quentin", "thierry"))
    state = apply(state, Answer("grady", False))  # no Secret Passage
    if rolls:
        assert state.pending[-1].kind == "assassination" and state.find_lord("quentin")
    else:
        assert state.find_lord("quentin") is None and not state.pending


# --- FR-18: King candidates (EN p.6 §1.8 a Titled Lord; PL L716-717 any man without a church
# title) ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "may_stand"), [("en", False), ("pl", True)])
def test_an_untitled_lord_stands_for_king_only_in_polish(edition: str, may_stand: bool) -> None:
    state = lord(table(edition=edition), "quentin", "grady", "blaye")
    assert hear_ye.eligible(state, "king", state.lord("quentin")) is may_stand


# --- FR-26: taking captives (EN p.13 §6.2.2 "the Lords are taken Captive"; PL L1635-1637) ----


def _beaten(edition: str) -> FranceState:
    """Digest §9.4 example: 4 hits on Gauvain, Blanche, 1 MaA and 1 Knight kill both troops."""
    state = lord(table(edition=edition), "gauvain", "david", "vaux", fiefs=("medard",))
    state = troops(lord(state, "blanche", "david", "vaux"), "david", "vaux", maa=1, knights=1)
    state = troops(lord(state, "beaudoin", "grady", "vaux"), "grady", "vaux", maa=9)
    battle = Battle("grady", "david", "vaux", "losses", {"david": 4}, ("david",))
    state = replace(at_phase(state, "battles", "grady"), battle=battle)
    return apply(state, Losses("david", 1, 1))


def test_en_beaten_lords_are_always_taken_captive() -> None:
    state = _beaten("en")
    assert {x.id: x.captor for x in state.lords if x.seat == "david"} == {
        "gauvain": "grady",
        "blanche": "grady",
    }
    assert not state.pending and state.battle is None


def test_pl_the_winner_may_let_each_beaten_lord_go_free_in_the_village() -> None:
    """PL L1635-1637: "uwięzienie Seniora nie jest obowiązkowe. Gracz może puścić Seniora
    przeciwnego gracza wolno. Pozostaje on w wiosce, w której był"."""
    state = _beaten("pl")
    asked = [(p.kind, p.seat, p.lord) for p in state.pending]
    assert asked == [("captive", "grady", "gauvain"), ("captive", "grady", "blanche")]
    assert legal_moves(state) == [Answer("grady", True), Answer("grady", False)]
    with pytest.raises(RuleViolation) as info:
        apply(state, Answer("david", False))
    assert info.value.code == "answer/not-asked"
    state = apply(state, Answer("grady", False))  # Blanche goes free
    state = apply(state, Answer("grady", True))  # Gauvain is kept
    assert state.lord("blanche").captor is None and state.lord("blanche").village == "vaux"
    assert state.lord("gauvain").captor == "grady"
    assert not state.pending and war.fighters(state, "david", "vaux") == (state.lord("blanche"),)


def test_a_captive_stands_for_king_in_neither_edition() -> None:
    """EN p.6 §1.8 and PL L716-717 (\"nieuwięziony\") agree: a captive is no candidate."""
    for edition in ("en", "pl"):
        state = troops(table(edition=edition), "david", "blaye", maa=1)
        state = lord(state, "quentin", "grady", "blaye", captor="david")
        assert state.lord("quentin").captor == "david"
        assert not hear_ye.eligible(state, "king", state.lord("quentin"))


def test_the_setup_form_offers_the_edition_and_each_reading_with_labels_in_both_languages() -> None:
    """The host's setup form is built from the option declarations (bridge/table_setup.py):
    ``edition`` and every reading it sets are offered, each choice labelled in English and
    Polish (france1429_options.json)."""
    from bridge.table_setup import choices
    from engine.i18n import has_message, message

    france = next(g for g in choices()["games"] if g["key"] == "france1429")
    offered = {o["name"]: o for o in france["options"]}
    assert offered["edition"]["choices"] == ["en", "pl"] and offered["edition"]["default"] == "en"
    for name in ("edition", *PRINTED):
        assert has_message(f"france1429:ui/option-{name}")
        for value in offered[name]["choices"]:
            code = f"france1429:ui/choice-{name}-{value}"
            assert has_message(code) and message(code, "pl") != message(code, "en")
