"""Dice from the table (a dice tower, smart dice, a phone) as France 1429's chance moves.

The table rolls two kinds of die: the Battle Dice, whose faces carry 0-3 hit symbols (the data's
``battle_faces``, face by face: the box's 1-1-2-2-3-3, read from the physical value 1-6), and a
plain 1D6 (the Disaster track's placement, a Lord's Plague or Assassination die, the stop die, a
relic's attempt). Dice arrive in the device wire format (docs/devices.md):
``{"sides": 6, "value": 1-6, "type": "battle"|"d6", "color": ...}``.

Which Battle Die belongs to which side is a convention (FR-35): the box holds four black and
four white Battle Dice; the attacker's side rolls the black ones and the defender's side the
white ones (``color``); dice without a colour are taken in
the order attacker, defender. An Uprising rolls its Battle Dice one at a time. Dice that cannot
be the roll the table waits for (another size, a value off the die, the wrong number of dice, a
plain die where Battle Dice are due, a seat reporting a battle it is not in) are refused with
every problem listed; nothing changes.
"""

from __future__ import annotations

from typing import Any

from engine.games.france1429 import war
from engine.games.france1429.moves import BattleRoll, DisasterDie, HitDie, LordDie, RelicDie
from engine.games.france1429.refs import R
from engine.games.france1429.sources import GAME_KEY
from engine.games.france1429.state import FranceState
from engine.violations import RuleViolation, Violation

SIDES = 6
ATTACKER_COLOUR = "black"
DEFENDER_COLOUR = "white"
BATTLE = "battle"
PLAIN = "d6"


def _v(code: str, **params: object) -> Violation:
    return Violation(code, R["battle"], dict(params), GAME_KEY)


def _awaited(state: FranceState) -> tuple[str, int, int] | None:
    """What the table must roll now: (``battle``, attacker dice, defender dice), (``uprising``,
    1, 0) or (``d6``, 1, 0) with the pending step's kind; None when no die is awaited."""
    if state.phase == "over":
        return None
    if state.pending:
        top = state.pending[-1].kind
        if top in ("plague-die", "assassination", "stop-die", "relic-die"):
            return (PLAIN, 1, 0)
        if top == "uprising":
            return ("uprising", 1, 0)
        return None
    b = state.battle
    if b is not None and b.stage == "roll":
        return (BATTLE, war.dice(state, b, b.attacker), war.dice(state, b, b.defender))
    if state.phase == "disasters":
        return (PLAIN, 1, 0)
    return None


def dice_pool(state: FranceState) -> list[dict[str, Any]] | None:
    """The dice the table should roll now, in the wire format without ``value``."""
    found = _awaited(state)
    if found is None:
        return None
    kind, a, d = found
    if kind == PLAIN:
        return [{"sides": SIDES, "type": PLAIN}]
    if kind == "uprising":
        return [{"sides": SIDES, "type": BATTLE}]
    return [{"sides": SIDES, "type": BATTLE, "color": ATTACKER_COLOUR} for _ in range(a)] + [
        {"sides": SIDES, "type": BATTLE, "color": DEFENDER_COLOUR} for _ in range(d)
    ]


def _read(raw: Any, n: int, want: str) -> tuple[int | None, str | None, list[Violation]]:
    """One die's value and colour, or the problems with it."""
    if not isinstance(raw, dict):
        return None, None, [_v("dice/not-a-die", n=n)]
    problems = []
    sides, value, kind = raw.get("sides"), raw.get("value"), raw.get("type")
    if sides != SIDES:
        problems.append(_v("dice/not-a-d6", n=n, sides=str(sides)[:8]))
    if type(value) is not int or not 1 <= value <= SIDES:
        problems.append(_v("dice/bad-value", n=n, value=str(value)[:8]))
    if kind is not None and kind not in (BATTLE, PLAIN):
        problems.append(_v("dice/unknown-type", n=n, type=str(kind)[:20]))
    elif kind is not None and (kind == BATTLE) != (want != PLAIN):
        problems.append(_v("dice/wrong-kind", n=n, type=kind, expected=want))
    colour = raw.get("color")
    if want == BATTLE and colour not in (None, ATTACKER_COLOUR, DEFENDER_COLOUR):
        problems.append(_v("dice/unknown-colour", n=n, color=str(colour)[:20]))
    return (None if problems else value), colour, problems


def dice_move(state: FranceState, dice: Any, by: str | None = None) -> Any:
    """The chance move the dice make, or None when the table waits for no die.

    ``by`` is the seat typing the dice in (None: a device, the host, the simulated table): a
    seat may report a battle's dice only when its family fights in it, and no other die.
    Raises ``RuleViolation`` with every problem when the dice cannot be that roll.
    """
    found = _awaited(state)
    if found is None:
        return None
    kind, a, d = found
    if not isinstance(dice, list) or not 1 <= len(dice) <= 8:
        raise RuleViolation([_v("dice/not-a-list")])
    want = PLAIN if kind == PLAIN else BATTLE
    problems: list[Violation] = []
    read: list[tuple[int, str | None]] = []
    for n, raw in enumerate(dice, 1):
        value, colour, why = _read(raw, n, want)
        problems += why
        if value is not None:
            read.append((value, colour))
    if len(dice) != a + d:
        problems.append(_v("dice/wrong-count", got=len(dice), expected=a + d))
    battle = state.battle
    if by is not None and (kind != BATTLE or battle is None or not _fights(battle, by)):
        problems.append(_v("dice/not-your-roll", seat=by))
    if problems:
        raise RuleViolation(problems)
    if kind == PLAIN:
        return _plain(state, read[0][0])
    faces = state.rules.battle_faces
    if kind == "uprising":
        return HitDie(faces[read[0][0] - 1])
    black = [v for v, c in read if c == ATTACKER_COLOUR]
    white = [v for v, c in read if c == DEFENDER_COLOUR]
    plain = [v for v, c in read if c is None]
    if len(black) > a or len(white) > d:
        raise RuleViolation([_v("dice/wrong-colours", black=len(black), white=len(white),
                                attacker=a, defender=d)])  # fmt: skip
    attacker = black + plain[: a - len(black)]
    defender = white + plain[a - len(black) :]
    return BattleRoll(tuple(faces[v - 1] for v in attacker), tuple(faces[v - 1] for v in defender))


def _fights(battle: Any, seat: str) -> bool:
    sides = (*getattr(battle, "attackers", ()), *getattr(battle, "defenders", ()))
    return seat in (battle.attacker, battle.defender, *sides)


def _plain(state: FranceState, value: int) -> Any:
    """The 1D6's move for the step that waits for it."""
    if not state.pending:
        return DisasterDie(value)
    top = state.pending[-1]
    if top.kind == "relic-die":
        return RelicDie(value)
    if top.kind == "stop-die":
        return LordDie(top.lord, value)
    return LordDie(top.queue[0], value)
