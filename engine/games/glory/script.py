"""A whole duel from a file (DUEL.json, docs/glory.md): the sides, the dice and each choice.

``run`` plays the script through the checked duel engine: it asks the engine who acts next
and takes that side's choice for the current step from the script (nothing written: the side
passes). The engine keeps the decision order, so the file only says *what* each side did in
each step, not in which order. Anything illegal raises ``RuleViolation`` with every violation
of the first refused move; a file that lacks dice the duel needs, or describes dice the duel
never reached, is refused with a ``script/…`` violation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.evolve import evolve
from engine.game import TABLE
from engine.games.glory import duel
from engine.games.glory.components import (
    GAME_KEY,
    REF,
    AllyKind,
    Context,
    DiceTable,
    KnightData,
    PrestigeKind,
    RelicKind,
)
from engine.games.glory.duel_state import (
    CommitStrength,
    Decline,
    Die,
    Duellist,
    DuelMove,
    DuelState,
    Knight,
    Recover,
    Reroll,
    Roll,
    Side,
    UseAlly,
    UseFaith,
    UseRelic,
)
from engine.violations import RuleViolation, Violation


@dataclass(frozen=True)
class AllyChoice:
    """An ally used in the tent or a lance step (``die``/``target`` as in ``UseAlly``)."""

    ally: AllyKind
    die: str = ""
    target: str = ""


@dataclass(frozen=True)
class RelicChoice:
    """A relic used in the relic step; Pierścień lists the new faces of the dice it rerolls."""

    relic: RelicKind
    die: str = ""
    reroll: tuple[Die, ...] = ()


@dataclass(frozen=True)
class PassScript:
    """One pass: Strength added, the dice rolled, Faith rerolls, allies and relic, by side."""

    strength: dict[str, int] = field(default_factory=dict)
    roll: dict[str, tuple[Die, ...]] = field(default_factory=dict)
    faith: dict[str, tuple[Die, ...]] = field(default_factory=dict)
    lance1: dict[str, AllyChoice] = field(default_factory=dict)
    lance2: dict[str, AllyChoice] = field(default_factory=dict)
    relic: dict[str, RelicChoice] = field(default_factory=dict)


@dataclass(frozen=True)
class RecoverChoice:
    """What the loser turns back (needed only when they used two kinds of one category)."""

    ally: AllyKind | None = None
    prestige: PrestigeKind | None = None
    relic: RelicKind | None = None


@dataclass(frozen=True)
class DuelScript:
    """The DUEL.json file: context, the two sides, the tent step, the passes, the recovery."""

    context: Context
    sides: tuple[Side, Side]
    tent: dict[str, AllyChoice] = field(default_factory=dict)
    passes: tuple[PassScript, ...] = ()
    recover: RecoverChoice | None = None


def _v(code: str, **params: object) -> Violation:
    return Violation(code, REF["steps"], dict(params), GAME_KEY)


def fill_knight(knight: Knight, known: dict[str, KnightData]) -> Knight:
    """``knight`` with every value it leaves ``null`` taken from the Knights data, by name."""
    data = known.get(knight.name)
    if data is None:
        return knight
    return evolve(
        knight,
        type=knight.type if knight.type is not None else data.type,
        attack=knight.attack if knight.attack is not None else data.attack,
        prestige=knight.prestige if knight.prestige is not None else data.prestige,
        glory=knight.glory if knight.glory is not None else data.glory,
        removes=knight.removes if knight.removes is not None else data.removes,
    )


def sides_of(script: DuelScript, knights: dict[str, KnightData]) -> tuple[Side, Side]:
    """Both sides, a Knight's values it leaves ``null`` taken from ``knights`` (by name)."""
    a, b = (fill_knight(s, knights) if isinstance(s, Knight) else s for s in script.sides)
    return a, b


def _check_names(script: DuelScript) -> list[Violation]:
    names = {s.name for s in script.sides}
    players = {s.name for s in script.sides if isinstance(s, Duellist)}
    out = []
    entries: list[tuple[str, str, dict[str, object]]] = [("tent", "tent", dict(script.tent))]
    for n, p in enumerate(script.passes, start=1):
        for step in ("strength", "roll", "faith", "lance1", "lance2", "relic"):
            entries.append((f"pass {n}", step, dict(getattr(p, step))))
    for where, step, entry in entries:
        for side in entry:
            if side not in names:
                out.append(
                    _v(
                        "script/unknown-side",
                        side=side,
                        where=f"{where} {step}",
                        sides=" / ".join(sorted(names)),
                    )
                )
            elif side not in players and step != "roll":
                out.append(_v("script/knight-choice", side=side, where=f"{where} {step}"))
    return out


def run(script: DuelScript, dice_table: DiceTable, knights: dict[str, KnightData]) -> DuelState:
    """The finished duel of ``script`` (``RuleViolation`` for the first move refused), with
    the dice faces and the Knights of the game's data (as the caller loaded them)."""
    problems = _check_names(script)
    if problems:
        raise RuleViolation(problems)
    state = duel.start(script.context, sides_of(script, knights), dice_table)
    while not duel.is_over(state):
        state = duel.apply(state, _next_move(script, state))
    described = len(script.passes)
    if described > len(state.passes):
        raise RuleViolation(_v("script/extra-pass", passes=len(state.passes), described=described))
    return state


def _pass_script(script: DuelScript, state: DuelState) -> PassScript | None:
    n = state.pass_no - 1
    return script.passes[n] if 0 <= n < len(script.passes) else None


def _next_move(script: DuelScript, state: DuelState) -> DuelMove:
    waiting = duel.to_act(state)
    here = _pass_script(script, state)
    if waiting == (TABLE,):
        return _table_move(state, here)
    side = waiting[0]
    if state.step == "recover":
        return _recover(script, state, side)
    if state.step == "tent":
        choice = script.tent.get(side)
        return UseAlly(side, choice.ally, choice.die, choice.target) if choice else Decline(side)
    if here is None:
        return Decline(side)
    if state.step == "strength":
        tokens = here.strength.get(side, 0)
        return CommitStrength(side, tokens) if tokens else Decline(side)
    if state.step == "faith":
        dice = here.faith.get(side)
        return UseFaith(side, tuple(d.id for d in dice)) if dice is not None else Decline(side)
    if state.step in ("lance1", "lance2"):
        ally = (here.lance1 if state.step == "lance1" else here.lance2).get(side)
        return UseAlly(side, ally.ally, ally.die, ally.target) if ally else Decline(side)
    relic = here.relic.get(side)
    if relic is None:
        return Decline(side)
    return UseRelic(side, relic.relic, relic.die, tuple(d.id for d in relic.reroll))


def _table_move(state: DuelState, here: PassScript | None) -> DuelMove:
    pending = state.pending
    if pending is not None:
        faces: tuple[Die, ...] | None = None
        if here is not None and pending.source == "faith":
            faces = here.faith.get(pending.side)
        elif here is not None and pending.side in here.relic:
            faces = here.relic[pending.side].reroll
        if faces is None:
            raise RuleViolation(
                _v("script/missing-reroll", side=pending.side, pass_no=state.pass_no)
            )
        return Reroll(pending.side, faces)
    for i, side in enumerate(state.sides):
        if not state.boards[i].rolled and duel.pool(state, i):
            dice = here.roll.get(side.name) if here is not None else None
            if dice is None:
                raise RuleViolation(
                    _v("script/missing-roll", side=side.name, pass_no=state.pass_no)
                )
            return Roll(side.name, dice)
    raise AssertionError("the duel waits for the table only to roll or reroll")


def _recover(script: DuelScript, state: DuelState, side: str) -> Recover:
    if script.recover is not None:
        r = script.recover
        return Recover(side, r.ally, r.prestige, r.relic)
    choices = duel.recovery_choices(state)
    open_ = {k: v for k, v in choices.items() if len(v) > 1}
    if open_:
        options = "; ".join(f"{k}: {' or '.join(v)}" for k, v in open_.items())
        raise RuleViolation(_v("script/recover-choice", side=side, options=options))
    ally, prestige, relic = (
        choices[k][0] if choices[k] else None for k in ("ally", "prestige", "relic")
    )
    return Recover(side, ally, prestige, relic)  # type: ignore[arg-type]
