"""Each duel rule of the Glory digest §5.1-5.8 (rules/glory.md, seed 001), legal and illegal.

Expected values are worked out by hand from the rule cited in each test.
"""

from __future__ import annotations

import pytest
from glory_box import DICE, KNIGHTS
from glory_builders import D, codes, knight, play, player

from engine.games.glory import duel
from engine.games.glory.components import parse_dice
from engine.games.glory.duel_state import (
    Ally,
    CommitStrength,
    Decline,
    Die,
    DuelState,
    Prestige,
    Recover,
    Relic,
    Reroll,
    Roll,
    UseAlly,
    UseFaith,
    UseRelic,
)
from engine.games.glory.script import DuelScript, PassScript, run
from engine.i18n import violation_text
from engine.violations import InputError, RuleViolation

P = player("p", strength=4, faith=3, glory=10)
K = knight("k", attack=8, prestige=1, glory=6)
BASIC = (D("horse", 2), D("horse", 1), D("armour", 1), D("armour", 0))


def at_roll(
    p: object = P, k: object = K, tokens: int = 0, context: str = "pas-d-armes"
) -> DuelState:
    state = duel.start(context, (p, k), DICE)  # type: ignore[arg-type]
    state = play(state, Decline("p"))  # tent
    return play(state, CommitStrength("p", tokens) if tokens else Decline("p"))


def to_faith(state: DuelState, dice: tuple[Die, ...]) -> DuelState:
    return play(state, Roll("p", dice))


def finish_pass(state: DuelState) -> DuelState:
    while state.step in ("faith", "lance1", "lance2", "relic"):
        state = play(state, Decline("p"))
    return state


# --- §5.1 structure -------------------------------------------------------------------------------


def test_51_duel_of_three_passes() -> None:
    state = at_roll()
    low = (D("horse", 0), D("horse", 0), D("armour", 0), D("armour", 0))
    high = (D("horse", 4), D("horse", 0), D("armour", 3), D("armour", 0))
    state = finish_pass(to_faith(state, low))  # 0 < 8: Knight
    state = play(state, CommitStrength("p", 3))
    state = finish_pass(
        to_faith(state, (D("strength", 5), D("strength", 1), D("strength", 1), *high))
    )
    assert [r.winner for r in state.passes] == ["k", "p"]  # 5 + 4 + 3 = 12 > 8
    state = play(state, Decline("p"))
    state = finish_pass(
        to_faith(state, (D("strength", 1), D("strength", 1), D("strength", 1), *low))
    )
    assert [r.winner for r in state.passes] == ["k", "p", "k"]
    assert state.winner == "k" and len(state.passes) == 3
    assert state.step == "over"  # the loser used no token: nothing to choose
    assert state.sides[0].strength == 4 - 3 + 1  # one Strength token recovered [L938-939]
    assert codes(state, Decline("p")) == ["duel/over"]


# --- §5.2 pools -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("horse", "armour", "tokens", "expected"),
    [
        (2, 2, 0, {"horse": 2, "armour": 2}),
        (1, 3, 2, {"strength": 2, "horse": 1, "armour": 3}),
        (4, 4, 4, {"strength": 3, "horse": 3, "armour": 3}),  # Level IV and 4 Strength add no die
    ],
)
def test_52_pool_from_equipment_and_strength(
    horse: int, armour: int, tokens: int, expected: dict[str, int]
) -> None:
    p = player("p", horse=horse, armour=armour, strength=4, faith=0, glory=0)
    assert duel.pool(at_roll(p, tokens=tokens), 0) == expected


def test_52_wrong_number_of_dice_is_refused() -> None:
    state = at_roll(tokens=2)
    assert codes(state, Roll("p", BASIC)) == ["roll/wrong-count"]
    assert codes(state, Roll("p", (D("strength", 3), D("strength", 3), *BASIC))) == []


def test_52_strength_at_most_four_per_duel_and_only_owned_tokens() -> None:
    state = play(duel.start("pas-d-armes", (P, K), DICE), Decline("p"))
    assert codes(state, CommitStrength("p", 5)) == ["strength/over-four", "strength/not-enough"]
    state = play(state, CommitStrength("p", 3))
    state = finish_pass(to_faith(state, (D("strength", 1),) * 3 + BASIC))
    assert codes(state, CommitStrength("p", 2)) == ["strength/over-four", "strength/not-enough"]
    assert codes(state, CommitStrength("p", 1)) == []  # the 4th token: committed Strength stays
    poor = player("p", strength=1, faith=0, glory=0)
    state = play(duel.start("pas-d-armes", (poor, K), DICE), Decline("p"))
    assert codes(state, CommitStrength("p", 2)) == ["strength/not-enough"]


def test_52_veteran_removes_dice() -> None:
    vet = knight("k", type="veteran", removes=("armour", "armour"))
    state = at_roll(k=vet)
    assert duel.pool(state, 0) == {"horse": 2}
    unknown = knight("k", type="veteran", removes=None)
    with pytest.raises(RuleViolation) as exc:
        duel.start("pas-d-armes", (P, unknown), DICE)
    assert exc.value.code == "data/missing"


# --- §5.3 Attack, faces and the Special Symbol ----------------------------------------------------


def test_53_only_the_highest_die_of_each_colour_counts() -> None:
    state = to_faith(at_roll(tokens=2), (D("strength", 2), D("strength", 5), *BASIC))
    assert duel.attack(state, 0) == 5 + 2 + 1


def test_53_special_symbol_inactive_and_active() -> None:
    inactive = (D("strength", "special"), D("horse", "special"), D("armour", "special"))
    p = player("p", horse=1, armour=1, strength=4, faith=0, glory=0)
    state = to_faith(at_roll(p, tokens=1), inactive)
    assert duel.attack(state, 0) == 1 + 0 + 0  # [L761-762]
    p4 = player("p", horse=4, armour=4, strength=4, faith=0, glory=0)
    full = (
        D("strength", "special"),
        D("strength", 1),
        D("strength", 1),
        D("horse", "special"),
        D("horse", 0),
        D("horse", 0),
        D("armour", "special"),
        D("armour", 0),
        D("armour", 0),
    )
    state = to_faith(at_roll(p4, tokens=4), full)
    assert duel.attack(state, 0) == 5 + 4 + 3  # [L758-761, L1761]


def test_53_faces_outside_the_range_are_refused() -> None:
    state = at_roll(tokens=1)
    bad = (D("strength", 0), D("horse", 5), D("horse", 1), D("armour", 1), D("armour", 4))
    assert codes(state, Roll("p", bad)) == ["die/out-of-range"] * 3


def test_53_shipped_dice_table_marks_the_unknown_white_face() -> None:
    table = DICE
    assert not table.verified
    assert table.armour.faces.count(None) == 1 and not table.armour.complete
    assert table.strength.complete and table.horse.complete


# --- §5.4 steps: tent, Faith, lance allies, relic -------------------------------------------------


def test_54_one_tent_ally_before_the_first_pass() -> None:
    p = player(
        "p",
        strength=0,
        faith=0,
        glory=5,
        allies=(Ally("kuchmistrz"), Ally("drab"), Ally("weteran")),
    )
    state = duel.start("pas-d-armes", (p, K), DICE)
    assert codes(state, UseAlly("p", "weteran")) == ["ally/wrong-moment"]  # a lance ally
    state = play(state, UseAlly("p", "kuchmistrz"))
    assert state.step == "strength"
    assert codes(state, UseAlly("p", "drab")) == ["step/wrong-step"]
    state = play(state, Decline("p"), Roll("p", BASIC))
    assert duel.attack(state, 0) == 2 + 1 + 1  # Kuchmistrz +1 in the first pass


def test_54_faith_one_token_a_pass_limited_dice_each_once() -> None:
    state = to_faith(at_roll(), BASIC)
    assert codes(state, UseFaith("p", ("horse1", "horse2", "armour1"))) == ["reroll/too-many-dice"]
    assert codes(state, UseFaith("p", ("horse1", "horse1"))) == ["reroll/repeated-die"]
    assert codes(state, UseFaith("p", ("strength1",))) == ["die/unknown"]
    state = play(state, UseFaith("p", ("horse2", "armour2")))
    assert codes(state, Reroll("p", (Die("horse", 3, "horse2"),))) == ["reroll/wrong-dice"]
    assert codes(state, Reroll("p", (Die("horse", 3, "horse2"), Die("horse", 3, "armour2")))) == [
        "reroll/type-changed"
    ]
    state = play(state, Reroll("p", (Die("horse", 4, "horse2"), Die("armour", 3, "armour2"))))
    assert duel.attack(state, 0) == 4 + 3  # the new results replace the old
    assert codes(state, UseFaith("p", ("horse1",))) == ["step/wrong-step"]  # now the lance step
    no_faith = player("p", strength=0, faith=0, glory=0)
    assert codes(to_faith(at_roll(no_faith), BASIC), UseFaith("p", ("horse1",))) == [
        "faith/no-token"
    ]


def test_54_mniszka_and_biskup_add_dice_to_a_faith_reroll() -> None:
    p = player("p", strength=0, faith=1, glory=0, allies=(Ally("mniszka"), Ally("biskup")))
    assert duel.faith_limit(p) == 2 + 1 + 2
    state = to_faith(at_roll(p), BASIC)
    assert codes(state, UseFaith("p", ("horse1", "horse2", "armour1", "armour2"))) == []


def test_54_two_lance_steps_and_set_die_allies() -> None:
    allies = (Ally("giermek"), Ally("weteran"), Ally("fechmistrz"), Ally("platnerz"))
    p = player("p", strength=0, faith=0, glory=0, allies=allies)
    state = play(to_faith(at_roll(p), BASIC), Decline("p"))  # Faith
    assert codes(state, UseAlly("p", "fechmistrz")) == ["die/none-of-type"]  # no red die
    assert codes(state, UseAlly("p", "giermek", die="armour1")) == ["die/wrong-type"]
    state = play(state, UseAlly("p", "giermek", die="horse2"))
    assert codes(state, UseAlly("p", "weteran")) == []  # the second lance step
    state = play(state, UseAlly("p", "platnerz"))
    assert duel.attack(state, 0) == 4 + 3
    assert codes(state, UseAlly("p", "weteran")) == ["step/wrong-step"]  # relic step now


def test_54_a_used_ally_is_flipped_and_cannot_be_used_again() -> None:
    p = player("p", strength=0, faith=0, glory=0, allies=(Ally("weteran"),))
    state = play(to_faith(at_roll(p), (D("horse", 0),) * 2 + (D("armour", 0),) * 2), Decline("p"))
    state = finish_pass(play(state, UseAlly("p", "weteran")))
    state = play(state, Decline("p"), Roll("p", BASIC), Decline("p"))
    assert codes(state, UseAlly("p", "weteran")) == ["ally/used"]
    assert codes(state, UseAlly("p", "giermek")) == ["ally/not-owned"]


def test_54_one_relic_a_pass() -> None:
    p = player(
        "p",
        strength=0,
        faith=0,
        glory=0,
        relics=(Relic("amulet"), Relic("paternoster"), Relic("pierscien")),
    )
    state = to_faith(at_roll(p), BASIC)
    state = play(state, Decline("p"), Decline("p"), Decline("p"))
    assert state.step == "relic"
    assert codes(state, UseRelic("p", "pierscien", dice=("horse1",) * 5)) == [
        "reroll/repeated-die",
        "reroll/too-many-dice",
    ]
    state = play(state, UseRelic("p", "amulet"))
    assert state.passes[-1].attacks[0].total == 2 + 1 + 2
    assert state.passes[-1].attacks[0].lines[-1].code == "attack/amulet"


def test_54_glory_costing_ally_needs_glory() -> None:
    broke = player("p", strength=0, faith=0, glory=0, allies=(Ally("drab"),))
    assert codes(duel.start("pas-d-armes", (broke, K), DICE), UseAlly("p", "drab")) == [
        "glory/cannot-pay"
    ]


# --- §5.5 pass winner and tie-breaks --------------------------------------------------------------


def _tie(p_prestige: tuple[Prestige, ...], k_prestige: int) -> DuelState:
    p = player("p", strength=0, faith=0, glory=0, prestige=p_prestige)
    k = knight("k", attack=5, prestige=k_prestige)
    state = at_roll(p, k)
    return finish_pass(
        to_faith(state, (D("horse", 3), D("horse", 0), D("armour", 2), D("armour", 0)))
    )


def test_55_tie_against_a_knight_goes_to_the_player_with_enough_prestige() -> None:
    won = _tie((Prestige("urzad"),), 1)
    assert won.passes[0].winner == "p" and won.passes[0].reason == "prestige"
    assert won.passes[0].flipped == "urzad"
    assert won.sides[0].prestige == (Prestige("urzad", active=False),)
    assert _tie((), 0).passes[0].winner == "p"  # even at 0 against 0 [L917]
    lost = _tie((Prestige("urzad", active=False),), 1)  # an inactive token does not count
    assert lost.passes[0].winner == "k"


def test_55_missing_knight_prestige_is_asked_for_only_on_a_tie() -> None:
    k = knight("k", attack=5, prestige=None)
    state = at_roll(k=k)
    state = finish_pass(
        to_faith(state, (D("horse", 4), D("horse", 0), D("armour", 2), D("armour", 0)))
    )
    assert state.passes[0].winner == "p"  # 6 > 5: no Prestige needed
    state = play(
        state,
        Decline("p"),
        Roll("p", (D("horse", 3), D("horse", 0), D("armour", 2), D("armour", 0))),
    )
    state = play(state, Decline("p"), Decline("p"), Decline("p"))
    with pytest.raises(RuleViolation) as exc:
        play(state, Decline("p"))
    assert exc.value.code == "data/missing"
    assert "Prestige of k" in violation_text(exc.value.violations[0])


def test_55_player_tie_prestige_then_initiative_and_winner_flips() -> None:
    for wp, rp, winner, reason in ((1, 0, "white", "prestige"), (1, 1, "red", "initiative")):
        white = player(
            "white", strength=0, faith=0, glory=5, initiative=2, prestige=(Prestige("urzad"),)[:wp]
        )
        red = player(
            "red", strength=0, faith=0, glory=5, initiative=1, prestige=(Prestige("swita"),)[:rp]
        )
        script = DuelScript(
            "joust", (white, red), passes=(PassScript(roll={"white": BASIC, "red": BASIC}),) * 3
        )
        state = run(script, DICE, KNIGHTS)
        assert state.passes[0].reason == reason
        assert state.passes[0].winner == winner
        assert state.passes[0].flipped is not None  # the tie winner pays a Prestige token


# --- §5.6 decision order --------------------------------------------------------------------------


def test_56_the_side_losing_now_decides_first_and_the_other_waits() -> None:
    white = player("white", strength=2, faith=1, glory=5, initiative=2)
    red = player("red", strength=2, faith=1, glory=5, initiative=1)
    state = duel.start("joust", (white, red), DICE)
    assert duel.to_act(state) == ("white",)  # 0-0, Prestige 0-0, White worse on Initiative
    assert codes(state, Decline("red")) == ["order/decides-first"]
    state = play(state, Decline("white"), Decline("red"), Decline("white"), Decline("red"))
    state = play(
        state,
        Roll("white", (D("horse", 4), D("horse", 0), D("armour", 0), D("armour", 0))),
        Roll("red", BASIC),
    )
    assert duel.to_act(state) == ("red",)  # 3 < 4
    state = play(state, Decline("red"))
    assert codes(state, UseFaith("red", ("horse1",))) == ["faith/once-per-pass"]


# --- §5.7 Knight against Knight -------------------------------------------------------------------


def test_57_knight_against_knight() -> None:
    a = knight("a", glory=6, prestige=1)
    b = knight("b", glory=5, prestige=3)
    assert duel.knight_vs_knight(a, b) == ("a", "glory")
    assert duel.knight_vs_knight(knight("a", glory=5, prestige=1), b) == ("b", "prestige")
    assert duel.knight_vs_knight(knight("a", glory=5, prestige=3), b) == ("a", "left")
    named = KNIGHTS["Zawisza Czarny"]
    assert named.glory is None
    with pytest.raises(RuleViolation) as exc:
        duel.knight_vs_knight(knight("Zawisza Czarny", glory=None), b)
    assert exc.value.code == "data/missing"
    with pytest.raises(InputError):
        duel.start("joust", (a, b), DICE)


# --- §5.8 end of the duel -------------------------------------------------------------------------


def _knight_duel(
    wins: tuple[bool, ...], glory: int | None = 6, context: str = "pas-d-armes"
) -> DuelState:
    p = player(
        "p",
        strength=4,
        faith=2,
        glory=10,
        allies=(Ally("weteran"), Ally("weteran")),
        relics=(Relic("medalion"),),
    )
    state = duel.start(
        context,
        (
            p,
            knight(
                "k",
                attack=7,
                prestige=9,
                glory=glory,
                type="card" if context == "challenge" else "nobility",
            ),
        ),
        DICE,
    )  # type: ignore[arg-type]
    state = play(state, Decline("p"))
    for n, win in enumerate(wins):
        state = play(state, CommitStrength("p", 1) if n == 0 else Decline("p"))
        faces = (D("horse", 4), D("horse", 4), D("armour", 3), D("armour", 3)) if win else BASIC
        state = play(state, Roll("p", (D("strength", 1), *faces)), Decline("p"))
        state = play(state, UseAlly("p", "weteran") if n == 0 else Decline("p"), Decline("p"))
        state = play(state, UseRelic("p", "medalion") if n == 0 else Decline("p"))
    return state


def test_58_winner_gains_the_knights_glory_value() -> None:
    state = _knight_duel((True, True))
    assert state.winner == "p" and state.sides[0].glory == 16 and state.step == "over"


def test_58_loser_with_one_pass_gains_half_in_a_tournament_only() -> None:
    state = _knight_duel((True, False, False), glory=7)
    assert [(a.line.code, a.line.amount) for a in state.awards] == [("glory/half", 3)]
    assert state.step == "recover"
    state = play(state, Recover("p", ally="weteran", relic="medalion"))
    p = state.sides[0]
    assert p.strength == 4 and p.faith == 2  # 1 committed, 1 back; Faith never spent
    assert [a.active for a in p.allies] == [True, True] and p.relics[0].active
    challenge = _knight_duel((True, False, False), glory=None, context="challenge")
    assert [(a.line.code, a.line.amount) for a in challenge.awards] == [
        ("reward/challenge-lost", 0)
    ]


def test_58_missing_glory_value_is_asked_for_only_when_awarded() -> None:
    lost = _knight_duel((False, False), glory=None)
    assert lost.winner == "k" and lost.awards == ()
    with pytest.raises(RuleViolation) as exc:
        _knight_duel((True, True), glory=None)
    assert exc.value.code == "data/missing"
    assert "Glory value of k" in violation_text(exc.value.violations[0])


def test_58_recovery_only_of_what_this_duel_used() -> None:
    state = _knight_duel((False, False))
    assert codes(state, Recover("p", prestige="urzad")) == ["recover/not-used"]
    assert codes(state, Recover("p", ally="weteran")) == []


def test_58_player_worth_seven_or_nine() -> None:
    white = player("white", strength=0, faith=0, glory=12, initiative=1)
    red = player("red", strength=0, faith=0, glory=20, initiative=2)
    strong = (D("horse", 4), D("horse", 4), D("armour", 3), D("armour", 3))
    script = DuelScript(
        "joust",
        (white, red),
        passes=(
            PassScript(roll={"white": strong, "red": BASIC}),
            PassScript(roll={"white": BASIC, "red": strong}),
            PassScript(roll={"white": strong, "red": BASIC}),
        ),
    )
    state = run(script, DICE, KNIGHTS)
    lines = {(a.side, a.line.code): a.line.amount for a in state.awards}
    assert lines[("white", "glory/won-player")] == 9  # Red had more Glory
    assert lines[("red", "glory/half")] == 3  # White worth 7 to Red: floor(7 / 2)


def test_dice_file_validation_names_the_entry() -> None:
    with pytest.raises(InputError) as exc:
        parse_dice(
            {
                "dice": {
                    "strength": {"faces": [6]},
                    "horse": {"faces": [0]},
                    "armour": {"faces": [0]},
                }
            }
        )
    assert exc.value.path == "$.dice.strength.faces[0]"


def test_polish_noble_rolls_one_white_die_added_to_its_attack() -> None:
    """[L774-777], sidebar L721-723: Attack 9 + a white roll of 3 = 12 in that pass."""
    noble = knight("k", type="polish-nobility", attack=9)
    state = at_roll(k=noble)
    assert codes(state, Roll("k", (D("armour", 3), D("armour", 1)))) == ["roll/wrong-count"]
    state = play(state, Roll("p", BASIC), Roll("k", (D("armour", 3),)))
    assert duel.attack(state, 1) == 12
    assert codes(state, Decline("k")) == ["duel/knight-decides-nothing"]


def test_blazen_lowers_the_opponents_prestige_in_pass_1_and_herold_refreshes() -> None:
    """Błazen [L1392-1397]: the Knight's 1 star counts -1, so a player with 0 wins the tie."""
    p = player(
        "p",
        strength=0,
        faith=0,
        glory=0,
        allies=(Ally("blazen"), Ally("herold")),
        prestige=(Prestige("urzad", active=False),),
    )
    k = knight("k", attack=5, prestige=1)
    state = duel.start("pas-d-armes", (p, k), DICE)
    assert codes(state, UseAlly("p", "herold", target="swita")) == ["refresh/no-target"]
    state = play(state, UseAlly("p", "blazen"), Decline("p"))
    state = finish_pass(
        to_faith(state, (D("horse", 3), D("horse", 0), D("armour", 2), D("armour", 0)))
    )
    assert state.passes[0].winner == "p"
    assert state.passes[0].attacks[1].prestige == -1
    herald = duel.start("pas-d-armes", (p, k), DICE)
    herald = play(herald, UseAlly("p", "herold", target="urzad"))
    assert herald.sides[0].prestige == (Prestige("urzad"),)


def test_sir_full_tie_goes_to_the_better_initiative_and_sir_is_worth_7_or_9() -> None:
    """Appendix A [L1278-1281]: SIR fights with a Knight's values but is worth 7/9."""
    p = player("p", strength=0, faith=0, glory=20, initiative=2)
    sir = knight("SIR", type="sir", attack=5, prestige=0, glory=30, initiative=1)
    tie = (D("horse", 3), D("horse", 0), D("armour", 2), D("armour", 0))
    state = finish_pass(to_faith(at_roll(p, sir, context="joust"), tie))
    assert (state.passes[0].winner, state.passes[0].reason) == ("SIR", "initiative")
    state = play(state, Decline("p"))
    state = finish_pass(to_faith(state, tie))
    assert state.winner == "SIR"
    assert [(a.side, a.line.amount) for a in state.awards] == [("SIR", 7)]
