"""The complete worked duel of the Glory rulebook, digest §5.9 (seed 001, L1031-1160), pass by pass.

The seed's dice pictures are lost to the OCR, so the faces are chosen to fit every number the
text does give (White 10 on the dice and 9 with Drab, Red 9 thanks to his active red Special
Symbol [L1057-1064]; pass 2 White 9, Red 5, then 9-9 [L1105-1118]). Equipment is the usual
Level II/II [L1743-1745]: White rerolls "both his black dice" [L1072-1073]. The relic White
plays in pass 2 is not named [L1139]; Medalion fits the surviving "12" of the figure [L1143].
Expected values come from the rulebook text, never from the engine.
"""

from __future__ import annotations

from glory_box import DICE
from glory_builders import D, player

from engine.games.glory import duel
from engine.games.glory.components import score_track
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

# L1031-1037: Red is 1st on the Initiative Track; White has one more active Prestige; this is
# their 2nd duel, so Red's Prestige token is already spent (L1154-1155).
WHITE = player(
    "white",
    strength=4,
    faith=2,
    glory=24,
    initiative=2,
    allies=(Ally("giermek"), Ally("giermek")),
    relics=(Relic("medalion"),),
    prestige=(Prestige("pani-serca"),),
)
RED = player(
    "red",
    strength=4,
    faith=2,
    glory=25,  # 24 after paying for Drab [L1150-1151]
    initiative=1,
    allies=(Ally("drab"), Ally("fechmistrz"), Ally("biskup")),
    prestige=(Prestige("urzad", active=False),),
)


def play(state: DuelState, *moves: object) -> DuelState:
    for move in moves:
        state = duel.apply(state, move)  # type: ignore[arg-type]
    return state


def attacks(state: DuelState) -> tuple[int, int]:
    return duel.attack(state, 0), duel.attack(state, 1)


def test_worked_example_pass_by_pass() -> None:
    state = duel.start("joust", (WHITE, RED), DICE)

    # Before the first pass: at 0-0 Red loses on Prestige, so Red decides first [L1033-1035].
    assert duel.to_act(state) == ("red",)
    state = play(state, UseAlly("red", "drab"))  # White -1, Red pays 1 Glory [L1049-1050]
    assert RED.glory is not None
    assert state.sides[1].glory == RED.glory - 1
    assert duel.to_act(state) == ("white",)
    state = play(state, Decline("white"))  # no tent ally [L1052]

    # Pass 1, Strength: White, weakened by Drab, decides first [L1054].
    assert state.pass_no == 1 and state.step == "strength"
    assert attacks(state) == (-1, 0)
    assert duel.to_act(state) == ("white",)
    state = play(state, CommitStrength("white", 2), CommitStrength("red", 4))  # [L1054-1055]
    assert duel.pool(state, 0) == {"strength": 2, "horse": 2, "armour": 2}
    assert duel.pool(state, 1) == {"strength": 3, "horse": 2, "armour": 2}
    assert duel.special_active(state, 1, "strength")  # 4 tokens [L1055]

    # Roll: White 10 on the dice, 9 with Drab; Red 9 with his active red symbol [L1057-1064].
    state = play(
        state,
        Roll(
            "white",
            (
                D("strength", 4),
                D("strength", 2),
                D("horse", 3),
                D("horse", 1),
                D("armour", 3),
                D("armour", 0),
            ),
        ),
        Roll(
            "red",
            (
                D("strength", "special"),
                D("strength", 2),
                D("strength", 1),
                D("horse", 2),
                D("horse", 0),
                D("armour", 2),
                D("armour", 1),
            ),
        ),
    )
    assert attacks(state) == (9, 9)

    # Faith: at 9-9 Red loses the tie on Prestige and decides first; Biskup lets him reroll 4
    # dice, and his black die improves [L1066-1068].
    assert duel.to_act(state) == ("red",)
    state = play(state, UseFaith("red", ("strength2", "strength3", "horse1", "horse2")))
    assert duel.to_act(state) == ("table",)
    state = play(
        state,
        Reroll(
            "red",
            (
                Die("strength", 3, "strength2"),
                Die("strength", 1, "strength3"),
                Die("horse", 3, "horse1"),
                Die("horse", 1, "horse2"),
            ),
        ),
    )
    assert attacks(state) == (9, 10)
    # White, now behind, answers with Faith on both his black dice [L1072-1073].
    assert duel.to_act(state) == ("white",)
    state = play(
        state,
        UseFaith("white", ("horse1", "horse2")),
        Reroll("white", (Die("horse", 2, "horse1"), Die("horse", 0, "horse2"))),
    )
    assert attacks(state) == (8, 10)

    # Lance #1: White, still behind, goes first: Giermek sets a black die to 4 and levels the
    # Attack [L1079]; Red's Fechmistrz is not needed, he already has a 5 [L1081].
    assert duel.to_act(state) == ("white",)
    state = play(state, UseAlly("white", "giermek", die="horse1"))
    assert attacks(state) == (10, 10)
    state = play(state, Decline("red"))

    # Lance #2: Red, losing the tie on Prestige, passes first, then White [L1087].
    assert duel.to_act(state) == ("red",)
    state = play(state, Decline("red"), Decline("white"))
    # Relic: Red has none; White passes, he wins the pass anyway [L1093-1094].
    assert duel.to_act(state) == ("red",)
    state = play(state, Decline("red"), Decline("white"))

    # Equal Attack: White wins on Prestige, flips his token and takes the Advantage; the Drab
    # modifier is discarded [L1096-1098].
    first = state.passes[0]
    assert first.winner == "white" and first.reason == "prestige"
    assert [a.total for a in first.attacks] == [10, 10]
    assert first.flipped == "pani-serca"
    assert state.boards[0].wins == 1
    assert state.pass_no == 2 and state.step == "strength"
    assert attacks(state) == (0, 0)  # the Drab modifier is gone

    # Pass 2: level on Prestige, White is worse on Initiative and decides first; 2 more
    # Strength give him a 3rd red die and the active symbol; Red already has the maximum
    # [L1101-1103].
    assert duel.to_act(state) == ("white",)
    state = play(state, CommitStrength("white", 2), Decline("red"))
    assert duel.pool(state, 0)["strength"] == 3 and duel.special_active(state, 0, "strength")

    # Roll: White 9, Red only 5 [L1105-1111].
    state = play(
        state,
        Roll(
            "white",
            (
                D("strength", 4),
                D("strength", 2),
                D("strength", 1),
                D("horse", 2),
                D("horse", 1),
                D("armour", 3),
                D("armour", 0),
            ),
        ),
        Roll(
            "red",
            (
                D("strength", 3),
                D("strength", 1),
                D("strength", 1),
                D("horse", 1),
                D("horse", 0),
                D("armour", 1),
                D("armour", 0),
            ),
        ),
    )
    assert attacks(state) == (9, 5)

    # Faith: Red, behind, spends another Faith; Biskup is permanent, so 4 dice again; his
    # rerolled weaker red die does not beat the old one; 9-9 [L1113-1118].
    assert duel.to_act(state) == ("red",)
    state = play(
        state,
        UseFaith("red", ("strength2", "horse1", "horse2", "armour2")),
        Reroll(
            "red",
            (
                Die("strength", 2, "strength2"),
                Die("horse", 4, "horse1"),
                Die("horse", 0, "horse2"),
                Die("armour", 2, "armour2"),
            ),
        ),
    )
    assert attacks(state) == (9, 9)
    state = play(state, Decline("white"))  # no more Faith [L1119]

    # Lance #1: a 9-9 tie would go to Red on Initiative, so White goes first with his second
    # Giermek; Red answers with Fechmistrz and levels again [L1120-1131].
    assert duel.to_act(state) == ("white",)
    state = play(state, UseAlly("white", "giermek", die="horse1"))
    assert attacks(state) == (11, 9)
    state = play(state, UseAlly("red", "fechmistrz", die="strength1"))
    assert attacks(state) == (11, 11)

    # Lance #2: White passes, then Red [L1135].
    assert duel.to_act(state) == ("white",)
    state = play(state, Decline("white"), Decline("red"))

    # Relic: a tie would lose White the pass on Initiative, so he plays his relic; Red has
    # none [L1139-1141]. White wins on higher Attack, and the duel 2-0 [L1148].
    assert duel.to_act(state) == ("white",)
    state = play(state, UseRelic("white", "medalion"), Decline("red"))
    second = state.passes[1]
    assert second.winner == "white" and second.reason == "attack"
    assert [a.total for a in second.attacks] == [12, 11]
    assert len(state.passes) == 2 and state.winner == "white"

    # After the duel: both at 24, so Red is worth 7, not 9; White reaches 31, takes the 30
    # token and moves his marker to 1 [L1150-1152].
    won = [a.line for a in state.awards if a.side == "white"]
    assert [(ln.code, ln.amount) for ln in won] == [("glory/won-player", 7)]
    assert state.sides[0].glory == 31
    assert score_track(31) == (1, 1)
    # Red did not win a pass: no half Glory [L1157].
    assert not [a for a in state.awards if a.line.code == "glory/half"]

    # Red recovers 1 Strength, 1 Faith, and flips back Drab or Fechmistrz; his Prestige token
    # was not spent in this duel, so it stays inactive [L1154-1155].
    assert state.step == "recover" and duel.to_act(state) == ("red",)
    assert duel.recovery_choices(state) == {
        "ally": ("drab", "fechmistrz"),
        "prestige": (),
        "relic": (),
    }
    refused = duel.check(state, Recover("red", prestige="urzad"))
    assert [v.code for v in refused] == ["recover/not-used"]
    state = play(state, Recover("red", ally="fechmistrz"))
    red = state.sides[1]
    assert duel.is_over(state)
    assert red.strength == 1 and red.faith == 1  # 4 and 2 spent, 1 of each back
    assert [(a.kind, a.active) for a in red.allies] == [
        ("drab", False),
        ("fechmistrz", True),
        ("biskup", True),
    ]
    assert [(p.kind, p.active) for p in red.prestige] == [("urzad", False)]
    # The winner's tokens stay flipped [L926-927].
    white = state.sides[0]
    assert [a.active for a in white.allies] == [False, False]
    assert [r.active for r in white.relics] == [False]
    assert [p.active for p in white.prestige] == [False]
    assert white.strength == 0 and white.faith == 1


def test_half_glory_of_the_example_had_red_won_a_pass() -> None:
    """L1157-1160: both at 24 at the end of the duel, so Red would take floor(7 / 2) = 3."""
    state = duel.start("joust", (WHITE, RED), DICE)
    state = play(state, UseAlly("red", "drab"))
    assert duel.worth(state, 0) == 7  # White seen from Red, both at 24
    assert duel.worth(state, 0) // 2 == 3
