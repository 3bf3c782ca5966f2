"""Dice from the table (a dice tower, smart dice, a phone's dice form) as the duel's chance moves.

A duel waits for dice twice: the roll of a pass (``Roll``, each side with a pool) and a declared
reroll (``Reroll`` after Faith or Pierścień). The table reports dice in the device wire format
(docs/devices.md): ``{"sides": 6, "value": 1-6, "type": "strength"|"horse"|"armour",
"color": "red"|"black"|"white"}``. ``type`` (or, without it, ``color``) names the die, and
``value`` is the physical face up, 1-6, read through the die's face table of the game's data
(``data/dice.json``: red ``[special, 1, 2, 3, 4, 5]``, so value 1 is the Special Symbol and
value 3 is a 2). Dice that cannot be the roll the duel waits for (another die size, an unknown
colour, a face the data does not know, the wrong number of dice of a colour) are refused with
every problem listed; nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import TABLE
from engine.games.glory import duel
from engine.games.glory.components import COLOUR, DIE_TYPES, GAME_KEY, REF, DieType
from engine.games.glory.duel_state import Die, Duellist, DuelState, Reroll, Roll
from engine.games.glory.state import DuelStep, GloryState
from engine.violations import RuleViolation, Violation

SIDES = 6
"""Glory's dice are six-sided."""

TYPE_OF_COLOUR: dict[str, DieType] = {colour: die for die, colour in COLOUR.items()}


@dataclass(frozen=True)
class Wanted:
    """The dice the duel waits for: whose, a pass's ``roll`` or a declared ``reroll``, and the
    dice as ``(type, id)`` (a roll's ids are given by the engine once rolled: ``""``)."""

    kind: str
    side: str
    dice: tuple[tuple[DieType, str], ...]


def _v(code: str, **params: object) -> Violation:
    return Violation(code, REF["dice"], dict(params), GAME_KEY)


def _duel(state: GloryState) -> DuelState | None:
    pending = state.pending
    if pending is None or pending.kind != "duel" or state.duel is None:
        return None
    return state.duel


def wanted_all(state: GloryState) -> tuple[Wanted, ...]:
    """Every roll the duel waits for now (both sides may still have to roll a pass)."""
    d = _duel(state)
    if d is None or TABLE not in duel.to_act(d):
        return ()
    if d.pending is not None:
        who = d.pending.side
        old = {x.id: x for x in d.boards[d.index(who)].dice}
        dice = tuple((old[i].type, i) for i in d.pending.dice if i in old)
        return (Wanted("reroll", who, dice),)
    out = []
    for i, side in enumerate(d.sides):
        pool = duel.pool(d, i)
        if not d.boards[i].rolled and pool:
            dice = tuple((t, "") for t in DIE_TYPES for _ in range(pool.get(t, 0)))
            out.append(Wanted("roll", side.name, dice))
    return tuple(out)


def wanted(state: GloryState) -> Wanted | None:
    """The first roll the duel waits for (the one a simulated table rolls next), or None."""
    found = wanted_all(state)
    return found[0] if found else None


def spec(die: DieType) -> dict[str, Any]:
    """A die of the given type in the wire format, without its value."""
    return {"sides": SIDES, "color": COLOUR[die], "type": die}


def dice_pool(state: GloryState) -> list[dict[str, Any]] | None:
    """The dice the table should roll next (wire objects without ``value``), or None."""
    w = wanted(state)
    return [spec(t) for t, _ in w.dice] if w is not None else None


def reporters(state: GloryState, w: Wanted) -> tuple[str, ...]:
    """The seats that may type in ``w``'s dice: the side itself, or a player fighting a Knight
    (a Knight has no phone; the player rolls its die)."""
    d = _duel(state)
    if d is None:
        return ()
    players = [s.name for s in d.sides if isinstance(s, Duellist)]
    return (w.side,) if w.side in players else tuple(players)


def wanted_json(state: GloryState) -> dict[str, Any] | None:
    """What the seat pages need to offer a dice form: whose dice, which, and each die's faces."""
    w = wanted(state)
    d = _duel(state)
    if w is None or d is None:
        return None
    table = d.dice_table
    return {
        "kind": w.kind,
        "side": w.side,
        "dice": [{**spec(t), "id": i} for t, i in w.dice],
        "faces": {t: list(table.of(t).faces) for t in DIE_TYPES},
        "reporters": list(reporters(state, w)),
    }


def _read(raw: Any, n: int, d: DuelState) -> tuple[Die | None, list[Violation]]:
    """One wire die as the duel's ``Die`` (id not yet set), or the reasons it cannot be one."""
    if not isinstance(raw, dict):
        return None, [_v("dice/not-a-die", n=n)]
    sides, value = raw.get("sides"), raw.get("value")
    if type(sides) is not int or sides != SIDES:
        return None, [_v("dice/not-a-d6", n=n, sides=sides)]
    if type(value) is not int or not 1 <= value <= SIDES:
        return None, [_v("dice/bad-value", n=n, value=value)]
    colour, named = raw.get("color"), raw.get("type")
    die: DieType | None = None
    if named is not None:
        if named not in DIE_TYPES:
            return None, [_v("dice/unknown-type", n=n, type=named)]
        die = named
        if colour is not None and TYPE_OF_COLOUR.get(colour) != die:
            return None, [_v("dice/colour-mismatch", n=n, type=die, color=colour,
                             expected=COLOUR[die])]  # fmt: skip
    elif colour in TYPE_OF_COLOUR:
        die = TYPE_OF_COLOUR[colour]
    else:
        return None, [_v("dice/unknown-colour", n=n, color=colour)]
    table = d.dice_table
    face = table.of(die).faces[value - 1] if value <= len(table.of(die).faces) else None
    if face is None:
        problem = Violation(
            "data/missing",
            REF["data"],
            {
                "what": f"face {value} of the {die} die",
                "task": "read this die",
                "where": "the dice data file",
            },
            GAME_KEY,
        )
        return None, [problem]
    return Die(die, face), []


def _counts(dice: list[Die]) -> dict[str, int]:
    return {t: sum(1 for x in dice if x.type == t) for t in DIE_TYPES}


def dice_move(state: GloryState, dice: Any, by: str | None = None) -> DuelStep | None:
    """The duel's ``Roll``/``Reroll`` the reported dice make, or None when no dice are awaited.

    ``by`` is the seat typing the dice in (None: a device, the host, the simulated table): a seat
    reports its own dice, or the die of the Knight it fights. When both sides of a pass still
    have to roll, a device's dice go to the side whose pool they match (the first otherwise).
    Raises ``RuleViolation`` with every problem when the dice cannot be that roll.
    """
    d = _duel(state)
    options = wanted_all(state)
    if d is None or not options:
        return None
    if not isinstance(dice, list) or not 1 <= len(dice) <= 32:
        raise RuleViolation([_v("dice/not-a-list")])
    read: list[Die] = []
    problems: list[Violation] = []
    for n, raw in enumerate(dice, 1):
        die, why = _read(raw, n, d)
        problems += why
        if die is not None:
            read.append(die)
    if problems:
        raise RuleViolation(problems)
    if by is not None:
        options = tuple(w for w in options if by in reporters(state, w))
        if not options:
            raise RuleViolation([_v("dice/not-your-roll", seat=by, side=wanted_all(state)[0].side)])
        mine = tuple(w for w in options if w.side == by)
        options = mine or options
    got = _counts(read)
    w = next((x for x in options if _counts([Die(t, 0) for t, _ in x.dice]) == got), options[0])
    move: Roll | Reroll
    if w.kind == "roll":
        move = Roll(w.side, tuple(read))
    else:
        free: dict[str, list[str]] = {t: [i for t2, i in w.dice if t2 == t] for t in DIE_TYPES}
        move = Reroll(w.side, tuple(Die(x.type, x.face, free[x.type].pop(0) if free[x.type]
                                        else "") for x in read))  # fmt: skip
    problems = duel.check(d, move)
    if problems:
        raise RuleViolation(problems)
    return DuelStep(move)
