"""The duel engine of Glory, digest §5.1-5.8: pure functions over ``DuelState``.

A duel runs the steps printed on every Player Board [L786-846]: one tent ally before the first
pass, then in each pass Strength, the roll, Faith, two lance-ally steps and one relic, and the
resolution. In each decision step the side that would currently lose the pass decides first
[L964-967, L1786]; a Knight makes no decisions. ``check`` lists every rule a move breaks
(including whose turn it is), ``apply`` is the checked entry point and ``apply_unchecked`` the
fast path whose callers have checked. Dice are observed (``Roll``, ``Reroll`` by ``TABLE``);
``sample_chance`` draws them only for a simulated table, with the rng it is handed.

A value the seed lost (a Knight's Prestige or Glory, a die face) is asked for only at the moment
it decides something; ``apply`` then raises ``RuleViolation`` with code ``data/missing``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from typing import TypeVar

from engine.evolve import evolve
from engine.game import TABLE, Line
from engine.games.glory.components import (
    ATTACK_BONUS,
    BLAZEN_PRESTIGE,
    DIE_MAX,
    DIE_MIN,
    DIE_TYPES,
    FAITH_DICE,
    GAME_KEY,
    GLORY_COST,
    LANCE_ALLIES,
    MAX_DICE,
    MAX_STRENGTH,
    OPPONENT_ATTACK,
    PLAYER_WORTH,
    PLAYER_WORTH_MORE,
    REF,
    REFRESH,
    RING_DICE,
    SET_DIE,
    SPECIAL,
    SPECIAL_INACTIVE,
    TENT_ALLIES,
    TOURNAMENT,
    WINS_NEEDED,
    Context,
    DiceTable,
    DieType,
    missing_data,
)
from engine.games.glory.duel_state import (
    DECISION_STEPS,
    Ally,
    Award,
    CommitStrength,
    Decline,
    Die,
    Duellist,
    DuelMove,
    DuelState,
    Knight,
    Mod,
    Note,
    PassRecord,
    Prestige,
    Reason,
    Recover,
    Relic,
    Reroll,
    RerollPending,
    Roll,
    Side,
    SideAttack,
    Step,
    UseAlly,
    UseFaith,
    UseRelic,
    actor,
)
from engine.violations import InputError, RuleViolation, Violation

T = TypeVar("T", Ally, Relic, Prestige)


def _v(code: str, reference: str, **params: object) -> Violation:
    return Violation(code, reference, dict(params), GAME_KEY)


# --- starting a duel -------------------------------------------------------------------------


def start(
    context: Context,
    sides: tuple[Side, Side],
    dice_table: DiceTable,
) -> DuelState:
    """A duel before its tent step. ``InputError`` for sides that cannot meet in ``context``.

    Two Knights never need a ``DuelState``: see ``knight_vs_knight``. A Knight's Attack is
    needed in every pass, so a Knight without one is refused here (``data/missing``).
    """
    a, b = sides
    if a.name == b.name or TABLE in (a.name, b.name) or not a.name or not b.name:
        raise InputError("duel/sides", f"the two sides need distinct names other than {TABLE!r}")
    players = [s for s in sides if isinstance(s, Duellist)]
    if not players:
        raise InputError(
            "duel/sides", "two Knights do not roll: resolve them with knight_vs_knight"
        )
    if len(players) == 2:
        if context not in ("joust",):
            raise InputError(
                "duel/sides",
                f"players meet each other only in a Joust à plaisance, not in {context!r}",
            )
        if a.initiative == b.initiative:
            raise InputError("duel/sides", "two players cannot share an Initiative Track position")
    for side in sides:
        if isinstance(side, Knight):
            if context in ("challenge", "title") and side.type not in ("card",):
                raise InputError(
                    "duel/sides", f"a {context} duel is fought against its card's opponent"
                )
            if side.type is None:
                raise missing_data(
                    f"the type of {side.name}",
                    "set up the duel",
                    "the duel file or data/knights.json",
                )
            if side.type == "veteran" and side.removes is None:
                raise missing_data(
                    f"the dice {side.name} removes",
                    "count its opponent's dice",
                    "the duel file or data/knights.json",
                )
            if side.attack is None:
                raise missing_data(
                    f"the Attack value of {side.name}",
                    "resolve any pass",
                    "the duel file or data/knights.json",
                )
        else:
            _check_tokens(side)
    return DuelState(context=context, sides=sides, dice_table=dice_table)


def _check_tokens(player: Duellist) -> None:
    kinds = [p.kind for p in player.prestige]
    if len(set(kinds)) != len(kinds):
        raise InputError(
            "duel/sides", f"{player.name} holds two Prestige tokens of one kind [L1008-1010]"
        )


# --- pools, dice values and Attack -----------------------------------------------------------


def pool(state: DuelState, i: int) -> dict[DieType, int]:
    """How many dice of each type side ``i`` rolls this pass (§5.2)."""
    side = state.sides[i]
    if isinstance(side, Knight):
        return {"armour": 1} if side.type == "polish-nobility" else {}
    board = state.boards[i]
    out: dict[DieType, int] = {
        "strength": min(board.committed, MAX_DICE),
        "horse": min(side.horse, MAX_DICE),
        "armour": min(side.armour, MAX_DICE),
    }
    other = state.sides[1 - i]
    if isinstance(other, Knight):
        for die in other.removes or ():
            out[die] = max(0, out[die] - 1)
    return {t: n for t, n in out.items() if n > 0}


def special_active(state: DuelState, i: int, die: DieType) -> bool:
    """Is the Special Symbol active on side ``i``'s dice of this type (§2.4)?"""
    side = state.sides[i]
    if isinstance(side, Knight):
        return False  # a Polish Noble's white Special Symbol counts 0 (GL-9)
    if die == "strength":
        return state.boards[i].committed >= MAX_STRENGTH
    return (side.horse if die == "horse" else side.armour) == 4


def die_value(state: DuelState, i: int, die: Die) -> int:
    if die.face == SPECIAL:
        return (
            DIE_MAX[die.type] if special_active(state, i, die.type) else SPECIAL_INACTIVE[die.type]
        )
    assert isinstance(die.face, int)
    return die.face


def _mods(state: DuelState, name: str, what: str) -> list[Mod]:
    return [
        m for m in state.mods if m.target == name and m.what == what and m.pass_no == state.pass_no
    ]


def attack_lines(state: DuelState, i: int) -> tuple[Line, ...]:
    """Side ``i``'s current Attack, itemised: highest die of each colour, modifiers (§5.3)."""
    side = state.sides[i]
    lines: list[Line] = []
    if isinstance(side, Knight):
        assert side.attack is not None
        lines.append(
            Line("knight", side.attack, "attack/knight", REF["knight-glory"], {"name": side.name})
        )
        for die in state.boards[i].dice:
            lines.append(
                Line(
                    "roll",
                    die_value(state, i, die),
                    "attack/polish-roll",
                    REF["polish"],
                    {"name": side.name, "face": die.face},
                )
            )
    else:
        for t in DIE_TYPES:
            dice = [d for d in state.boards[i].dice if d.type == t]
            if not dice:
                continue
            best = max(dice, key=lambda d: die_value(state, i, d))
            active = best.face == SPECIAL and special_active(state, i, t)
            params = {
                "type": t,
                "face": best.face,
                "id": best.id,
                "active": active,
                "count": len(dice),
            }
            lines.append(Line(t, die_value(state, i, best), "attack/die", REF["attack"], params))
    for m in _mods(state, side.name, "attack"):
        lines.append(Line(m.source, m.amount, f"attack/{m.source}", REF["modifiers"], {"by": m.by}))
    return tuple(lines)


def attack(state: DuelState, i: int) -> int:
    return sum(line.amount for line in attack_lines(state, i))


def prestige(state: DuelState, i: int) -> int | None:
    """Side ``i``'s Prestige in this pass: active tokens (or a Knight's stars) plus Błazen."""
    side = state.sides[i]
    base = side.active_prestige() if isinstance(side, Duellist) else side.prestige
    if base is None:
        return None
    return base + sum(m.amount for m in _mods(state, side.name, "prestige"))


def initiative(side: Side) -> int | None:
    return side.initiative


def decision_order(state: DuelState) -> tuple[int, ...]:
    """The deciding sides, the one that would lose the pass now first (§5.6).

    Lower Attack decides first; on equal Attack lower Prestige; on equal Prestige the worse
    Initiative. Comparing Prestige for this never spends it [L967]. Knights never decide.
    """
    deciders = [i for i, s in enumerate(state.sides) if isinstance(s, Duellist)]
    if len(deciders) < 2:
        return tuple(deciders)

    def key(i: int) -> tuple[int, int, int]:
        side = state.sides[i]
        assert isinstance(side, Duellist)
        return attack(state, i), prestige(state, i) or 0, -side.initiative

    return tuple(sorted(deciders, key=key))


# --- whose move ------------------------------------------------------------------------------


def _needs_roll(state: DuelState, i: int) -> bool:
    return not state.boards[i].rolled and bool(pool(state, i))


def to_act(state: DuelState) -> tuple[str, ...]:
    """Who the duel waits for: a side's name, ``TABLE`` for dice, or nobody once it is over."""
    if state.step == "over":
        return ()
    if state.pending is not None or state.step == "roll":
        return (TABLE,)
    if state.step == "recover":
        loser = state.loser
        return (loser,) if loser else ()
    for i in decision_order(state):
        if state.sides[i].name not in state.decided:
            return (state.sides[i].name,)
    return ()


def is_over(state: DuelState) -> bool:
    return state.step == "over"


# --- checks ----------------------------------------------------------------------------------

_STEPS_OF: dict[str, tuple[Step, ...]] = {
    "ally": ("tent", "lance1", "lance2"),
    "strength": ("strength",),
    "roll": ("roll",),
    "faith": ("faith",),
    "relic": ("relic",),
    "decline": DECISION_STEPS,
    "recover": ("recover",),
}
_ALREADY: dict[str, tuple[str, str]] = {
    "tent": ("ally/one-tent-ally", "tent"),
    "strength": ("strength/once-per-pass", "strength"),
    "faith": ("faith/once-per-pass", "faith"),
    "lance1": ("ally/one-per-step", "lance"),
    "lance2": ("ally/one-per-step", "lance"),
    "relic": ("relic/once-per-pass", "relic"),
}


def check(state: DuelState, move: DuelMove) -> list[Violation]:
    """Every rule ``move`` breaks now (empty when legal), turn order included."""
    if state.step == "over":
        return [_v("duel/over", REF["end"], winner=state.winner or "-")]
    kind = type(move).kind
    if state.pending is not None and not isinstance(move, Reroll):
        return [_v("step/awaiting-reroll", REF["faith"], side=state.pending.side)]
    if isinstance(move, Reroll):
        if state.pending is None:
            return [
                _v(
                    "step/wrong-step",
                    REF["steps"],
                    move=kind,
                    step=state.step,
                    pass_no=state.pass_no,
                )
            ]
    elif state.step not in _STEPS_OF[kind]:
        return [
            _v("step/wrong-step", REF["steps"], move=kind, step=state.step, pass_no=state.pass_no)
        ]
    if move.side not in state.names:
        return [
            _v("duel/unknown-side", REF["steps"], side=move.side, sides=" / ".join(state.names))
        ]
    who = actor(move)
    if who != TABLE and isinstance(state.sides[state.index(who)], Knight):
        return [_v("duel/knight-decides-nothing", REF["steps"], side=who)]
    waiting = to_act(state)
    if who not in waiting:
        if who in state.decided and state.step in _ALREADY:
            code, key = _ALREADY[state.step]
            return [_v(code, REF[key], side=who, pass_no=state.pass_no)]
        if state.step == "recover":
            return [_v("recover/not-the-loser", REF["recover"], side=who, loser=state.loser or "-")]
        first = waiting[0] if waiting else "-"
        a, b = attack(state, 0), attack(state, 1)
        return [_v("order/decides-first", REF["order"], side=who, first=first, attack=f"{a}-{b}")]
    i = state.index(move.side)
    if isinstance(move, UseAlly):
        return _check_ally(state, i, move)
    if isinstance(move, CommitStrength):
        return _check_strength(state, i, move)
    if isinstance(move, Roll):
        return _check_roll(state, i, move)
    if isinstance(move, UseFaith):
        return _check_faith(state, i, move)
    if isinstance(move, Reroll):
        return _check_reroll(state, i, move)
    if isinstance(move, UseRelic):
        return _check_relic(state, i, move)
    if isinstance(move, Recover):
        return _check_recover(state, i, move)
    return []


def _player(state: DuelState, i: int) -> Duellist:
    side = state.sides[i]
    assert isinstance(side, Duellist)
    return side


def _check_die(
    state: DuelState, i: int, die_id: str, die_type: DieType, who: str
) -> list[Violation]:
    """A set effect's die must be one of the side's dice of the right type [§9 check 31]."""
    dice = state.boards[i].dice
    if not die_id:
        if not any(d.type == die_type for d in dice):
            return [_v("die/none-of-type", REF["lance"], source=who, type=die_type)]
        return []
    found = [d for d in dice if d.id == die_id]
    if not found:
        return [_v("die/unknown", REF["steps"], die=die_id, dice=_ids(dice))]
    if found[0].type != die_type:
        return [_v("die/wrong-type", REF["lance"], source=who, die=die_id, type=die_type)]
    return []


def _ids(dice: Iterable[Die]) -> str:
    return ", ".join(d.id for d in dice) or "-"


def _check_ally(state: DuelState, i: int, move: UseAlly) -> list[Violation]:
    player = _player(state, i)
    out: list[Violation] = []
    tent = state.step == "tent"
    if (tent and move.ally not in TENT_ALLIES) or (not tent and move.ally not in LANCE_ALLIES):
        moment = (
            "tent" if move.ally in TENT_ALLIES else "lance" if move.ally in LANCE_ALLIES else "none"
        )
        out.append(
            _v(
                "ally/wrong-moment",
                REF["tent" if tent else "lance"],
                ally=move.ally,
                moment=moment,
                step="tent" if tent else "lance",
            )
        )
    owned = [a for a in player.allies if a.kind == move.ally]
    if not owned:
        out.append(_v("ally/not-owned", REF["allies"], side=player.name, ally=move.ally))
    elif not any(a.active for a in owned):
        out.append(_v("ally/used", REF["allies"], side=player.name, ally=move.ally))
    if move.ally in SET_DIE:
        out.extend(_check_die(state, i, move.die, SET_DIE[move.ally][0], move.ally))
    elif move.die:
        out.append(_v("ally/no-die-effect", REF["allies"], ally=move.ally))
    if move.ally in REFRESH:
        out.extend(_check_refresh(player, move))
    elif move.target:
        out.append(_v("ally/no-target-effect", REF["allies"], ally=move.ally))
    cost = GLORY_COST.get(move.ally, 0)
    if cost and player.glory is not None and player.glory < cost:
        out.append(
            _v(
                "glory/cannot-pay",
                REF["glory-cost"],
                side=player.name,
                ally=move.ally,
                cost=cost,
                glory=player.glory,
            )
        )
    return out


def _tokens(player: Duellist, what: str) -> list[tuple[str, bool]]:
    """(kind, active) of a player's allies, Prestige tokens or relics."""
    if what == "ally":
        return [(a.kind, a.active) for a in player.allies]
    if what == "prestige":
        return [(p.kind, p.active) for p in player.prestige]
    return [(r.kind, r.active) for r in player.relics]


def _check_refresh(player: Duellist, move: UseAlly) -> list[Violation]:
    what = REFRESH[move.ally]
    if not move.target:
        return []
    if not any(kind == move.target and not active for kind, active in _tokens(player, what)):
        return [
            _v("refresh/no-target", REF["allies"], ally=move.ally, target=move.target, what=what)
        ]
    return []


def _check_strength(state: DuelState, i: int, move: CommitStrength) -> list[Violation]:
    player = _player(state, i)
    committed = state.boards[i].committed
    out = []
    if move.tokens < 1:
        out.append(_v("strength/none", REF["strength"], tokens=move.tokens))
    if committed + move.tokens > MAX_STRENGTH:
        out.append(
            _v(
                "strength/over-four",
                REF["strength"],
                side=player.name,
                committed=committed,
                tokens=move.tokens,
            )
        )
    if move.tokens > player.strength:
        out.append(
            _v(
                "strength/not-enough",
                REF["strength"],
                side=player.name,
                tokens=move.tokens,
                have=player.strength,
            )
        )
    return out


def _face_problems(state: DuelState, dice: Iterable[Die]) -> list[Violation]:
    table = state.dice_table
    out: list[Violation] = []
    for die in dice:
        if die.face == SPECIAL:
            known = table.of(die.type).known()
            if SPECIAL in known:
                continue
        elif isinstance(die.face, int):
            if not DIE_MIN[die.type] <= die.face <= DIE_MAX[die.type]:
                out.append(
                    _v(
                        "die/out-of-range",
                        REF["dice"],
                        type=die.type,
                        face=die.face,
                        low=DIE_MIN[die.type],
                        high=DIE_MAX[die.type],
                    )
                )
                continue
            if die.face in table.of(die.type).known():
                continue
        faces = table.of(die.type)
        if faces.complete:
            out.append(_v("die/not-a-face", REF["dice"], type=die.type, face=die.face))
        else:
            out.append(
                _v(
                    "data/missing",
                    REF["data"],
                    what=f"the faces of the {die.type} die",
                    task=f"check the reported face {die.face!r}",
                    where="the dice data file",
                )
            )
    return out


def normalise(dice: tuple[Die, ...]) -> tuple[Die, ...]:
    """Dice with their ids filled in: a die without one is ``<type><n>`` (``"horse2"``)."""
    counts: dict[str, int] = {}
    out = []
    for die in dice:
        counts[die.type] = counts.get(die.type, 0) + 1
        out.append(die if die.id else Die(die.type, die.face, f"{die.type}{counts[die.type]}"))
    return tuple(out)


def _check_roll(state: DuelState, i: int, move: Roll) -> list[Violation]:
    name = state.sides[i].name
    if not _needs_roll(state, i):
        return [_v("roll/not-expected", REF["pool"], side=name)]
    out: list[Violation] = []
    expected = pool(state, i)
    for t in DIE_TYPES:
        got = sum(1 for d in move.dice if d.type == t)
        if got != expected.get(t, 0):
            out.append(
                _v(
                    "roll/wrong-count",
                    REF["pool"],
                    side=name,
                    type=t,
                    expected=expected.get(t, 0),
                    got=got,
                )
            )
    dice = normalise(move.dice)
    ids = [d.id for d in dice]
    if len(set(ids)) != len(ids):
        out.append(_v("die/duplicate-id", REF["steps"], dice=", ".join(ids)))
    out.extend(_face_problems(state, dice))
    return out


def faith_limit(player: Duellist) -> int:
    """Dice one Faith token rerolls: 2, +1 per Mniszka, +2 per Biskup (permanent allies)."""
    kinds = [a.kind for a in player.allies]
    return FAITH_DICE + kinds.count("mniszka") + 2 * kinds.count("biskup")


def _check_chosen(
    state: DuelState, i: int, ids: tuple[str, ...], limit: int, ref_key: str
) -> list[Violation]:
    out = []
    if not ids:
        out.append(_v("reroll/empty", REF[ref_key]))
    if len(set(ids)) != len(ids):
        out.append(_v("reroll/repeated-die", REF["faith"], dice=", ".join(ids)))
    have = {d.id for d in state.boards[i].dice}
    unknown = [d for d in ids if d not in have]
    if unknown:
        out.append(
            _v("die/unknown", REF["steps"], die=", ".join(unknown), dice=_ids(state.boards[i].dice))
        )
    if len(ids) > limit:
        out.append(_v("reroll/too-many-dice", REF[ref_key], count=len(ids), limit=limit))
    return out


def _check_faith(state: DuelState, i: int, move: UseFaith) -> list[Violation]:
    player = _player(state, i)
    out = []
    if player.faith < 1:
        out.append(_v("faith/no-token", REF["faith"], side=player.name))
    if state.boards[i].faith_pass:
        out.append(_v("faith/once-per-pass", REF["faith"], side=player.name, pass_no=state.pass_no))
    return out + _check_chosen(state, i, move.dice, faith_limit(player), "faith")


def _check_reroll(state: DuelState, i: int, move: Reroll) -> list[Violation]:
    pending = state.pending
    assert pending is not None
    if move.side != pending.side:
        return [_v("reroll/not-expected", REF["faith"], side=move.side, expected=pending.side)]
    out = []
    ids = [d.id for d in move.dice]
    if sorted(ids) != sorted(pending.dice):
        out.append(
            _v(
                "reroll/wrong-dice",
                REF["faith"],
                dice=", ".join(ids) or "-",
                declared=", ".join(pending.dice),
            )
        )
    old = {d.id: d for d in state.boards[i].dice}
    for die in move.dice:
        if die.id in old and old[die.id].type != die.type:
            out.append(
                _v(
                    "reroll/type-changed",
                    REF["faith"],
                    die=die.id,
                    was=old[die.id].type,
                    now=die.type,
                )
            )
    return out + _face_problems(state, move.dice)


def _check_relic(state: DuelState, i: int, move: UseRelic) -> list[Violation]:
    player = _player(state, i)
    out = []
    owned = [r for r in player.relics if r.kind == move.relic]
    if not owned:
        out.append(_v("relic/not-owned", REF["relics"], side=player.name, relic=move.relic))
    elif not any(r.active for r in owned):
        out.append(_v("relic/used", REF["relics"], side=player.name, relic=move.relic))
    if move.relic == "paternoster":
        out.extend(_check_die(state, i, move.die, "armour", move.relic))
    elif move.die:
        out.append(_v("ally/no-die-effect", REF["relics"], ally=move.relic))
    if move.relic == "pierscien":
        out.extend(_check_chosen(state, i, move.dice, RING_DICE, "relic"))
    elif move.dice:
        out.append(_v("relic/no-reroll", REF["relics"], relic=move.relic))
    return out


def _check_recover(state: DuelState, i: int, move: Recover) -> list[Violation]:
    board = state.boards[i]
    out = []
    for what, kind, used in (
        ("ally", move.ally, board.allies_used),
        ("prestige", move.prestige, board.prestige_used),
        ("relic", move.relic, board.relics_used),
    ):
        if kind is not None and kind not in used:
            out.append(
                _v(
                    "recover/not-used",
                    REF["recover"],
                    what=what,
                    kind=kind,
                    used=", ".join(used) or "-",
                )
            )
    return out


# --- legal moves -----------------------------------------------------------------------------


def legal_moves(state: DuelState) -> list[DuelMove]:
    """Every legal decision of the side to act (dice are chance: see ``sample_chance``)."""
    waiting = to_act(state)
    if not waiting or waiting[0] == TABLE:
        return []
    name = waiting[0]
    i = state.index(name)
    player = _player(state, i)
    board = state.boards[i]
    if state.step == "recover":
        options = [
            (None, *sorted(set(board.allies_used))),
            (None, *sorted(set(board.prestige_used))),
            (None, *sorted(set(board.relics_used))),
        ]
        return [Recover(name, a, p, r) for a, p, r in itertools.product(*options)]  # type: ignore[arg-type]
    moves: list[DuelMove] = [Decline(name)]
    dice_ids = [d.id for d in board.dice]
    if state.step == "strength":
        room = min(MAX_STRENGTH - board.committed, player.strength)
        moves.extend(CommitStrength(name, k) for k in range(1, room + 1))
    elif state.step == "faith" and player.faith > 0:
        moves.extend(UseFaith(name, ids) for ids in _subsets(dice_ids, faith_limit(player)))
    elif state.step in ("tent", "lance1", "lance2"):
        allowed = TENT_ALLIES if state.step == "tent" else LANCE_ALLIES
        kinds = sorted({a.kind for a in player.allies if a.active and a.kind in allowed})
        for kind in kinds:
            if (
                GLORY_COST.get(kind, 0)
                and player.glory is not None
                and player.glory < GLORY_COST[kind]
            ):
                continue
            if kind in SET_DIE:
                moves.extend(
                    UseAlly(name, kind, die=d.id) for d in board.dice if d.type == SET_DIE[kind][0]
                )
            elif kind in REFRESH:
                tokens = _tokens(player, REFRESH[kind])
                targets = sorted({k for k, active in tokens if not active})
                moves.append(UseAlly(name, kind))
                moves.extend(UseAlly(name, kind, target=t) for t in targets)
            else:
                moves.append(UseAlly(name, kind))
    elif state.step == "relic":
        for relic in sorted({r.kind for r in player.relics if r.active}):
            if relic == "paternoster":
                moves.extend(
                    UseRelic(name, relic, die=d.id) for d in board.dice if d.type == "armour"
                )
            elif relic == "pierscien":
                moves.extend(
                    UseRelic(name, relic, dice=ids) for ids in _subsets(dice_ids, RING_DICE)
                )
            else:
                moves.append(UseRelic(name, relic))
    return moves


def _subsets(ids: list[str], limit: int) -> Iterable[tuple[str, ...]]:
    for n in range(1, min(limit, len(ids)) + 1):
        yield from itertools.combinations(ids, n)


def sample_chance(state: DuelState, rng: random.Random) -> Roll | Reroll | None:
    """Dice a simulated table would show next. Needs a complete face table (``data/missing``)."""
    if state.pending is None and state.step != "roll":
        return None
    table = state.dice_table

    def face(t: DieType) -> Die:
        faces = table.of(t)
        if not faces.complete:
            raise missing_data(
                f"every face of the {t} die", "simulate a roll", "the dice data file"
            )
        return Die(t, rng.choice(faces.known()))

    if state.pending is not None:
        old = {d.id: d for d in state.boards[state.index(state.pending.side)].dice}
        return Reroll(
            state.pending.side,
            tuple(Die(old[d].type, face(old[d].type).face, d) for d in state.pending.dice),
        )
    for i, side in enumerate(state.sides):
        if _needs_roll(state, i):
            dice = [face(t) for t, n in pool(state, i).items() for _ in range(n)]
            return Roll(side.name, tuple(dice))
    return None


# --- applying moves --------------------------------------------------------------------------


def apply(state: DuelState, move: DuelMove) -> DuelState:
    """The state after ``move``; ``RuleViolation`` (state untouched) when it breaks a rule."""
    violations = check(state, move)
    if violations:
        raise RuleViolation(violations)
    return apply_unchecked(state, move)


def apply_unchecked(state: DuelState, move: DuelMove) -> DuelState:
    """The next state. Unchecked fast path: callers must have checked ``move``.

    May still raise ``RuleViolation`` (``data/missing``) when resolving a pass or the end of
    the duel needs a value the data lacks.
    """
    step = state.step
    pass_no = state.pass_no
    i = state.index(move.side)
    code = "note/decline"
    params: dict[str, object] = {}
    if isinstance(move, Recover):
        return _recover(state, i, move)
    if isinstance(move, Roll):
        dice = normalise(move.dice)
        state = _board(state, i, dice=dice, rolled=True)
        code, params = "note/roll", {"dice": _dice_json(state, i, dice)}
    elif isinstance(move, Reroll):
        replaced = {d.id: d for d in move.dice}
        board = state.boards[i]
        new = tuple(replaced.get(d.id, d) for d in board.dice)
        source = state.pending.source if state.pending else "faith"
        state = evolve(_board(state, i, dice=new), pending=None)
        code, params = "note/reroll", {"source": source, "dice": _dice_json(state, i, move.dice)}
    elif isinstance(move, CommitStrength):
        player = _player(state, i)
        committed = state.boards[i].committed + move.tokens
        state = _side(
            _board(state, i, committed=committed), i, strength=player.strength - move.tokens
        )
        code, params = "note/strength", {"tokens": move.tokens, "committed": committed}
    elif isinstance(move, UseFaith):
        player = _player(state, i)
        board = state.boards[i]
        state = _side(
            _board(state, i, faith_spent=board.faith_spent + 1, faith_pass=True),
            i,
            faith=player.faith - 1,
        )
        state = evolve(state, pending=RerollPending(move.side, "faith", move.dice))
        code, params = "note/faith", {"dice": ", ".join(move.dice), "limit": faith_limit(player)}
    elif isinstance(move, UseAlly):
        state, params = _use_ally(state, i, move)
        code = "note/ally"
    elif isinstance(move, UseRelic):
        state, params = _use_relic(state, i, move)
        code = "note/relic"
    # a decision is complete once its reroll (if any) has been reported
    if isinstance(move, Reroll) or not (isinstance(move, Roll) or state.pending):
        state = evolve(state, decided=(*state.decided, move.side))
    note = Note(pass_no, step, move.side, code, params, (attack(state, 0), attack(state, 1)))
    state = evolve(state, notes=(*state.notes, note))
    return _advance(state)


def _dice_json(state: DuelState, i: int, dice: Iterable[Die]) -> list[dict[str, object]]:
    return [
        {"id": d.id, "type": d.type, "face": d.face, "value": die_value(state, i, d)} for d in dice
    ]


def _board(state: DuelState, i: int, **changes: object) -> DuelState:
    boards = list(state.boards)
    boards[i] = evolve(boards[i], **changes)
    return evolve(state, boards=(boards[0], boards[1]))


def _side(state: DuelState, i: int, **changes: object) -> DuelState:
    sides = list(state.sides)
    sides[i] = evolve(sides[i], **changes)
    return evolve(state, sides=(sides[0], sides[1]))


def _flip(tokens: tuple[T, ...], kind: str, active: bool) -> tuple[T, ...]:
    """``tokens`` with the first one of ``kind`` on the other side turned to ``active``."""
    out = list(tokens)
    for n, t in enumerate(out):
        if t.kind == kind and t.active != active:
            out[n] = evolve(t, active=active)
            break
    return tuple(out)


def _set_die(
    state: DuelState, i: int, die_id: str, die_type: DieType, value: int
) -> tuple[DuelState, str]:
    dice = list(state.boards[i].dice)
    for n, d in enumerate(dice):
        if (d.id == die_id) if die_id else d.type == die_type:
            dice[n] = Die(d.type, value, d.id)
            return _board(state, i, dice=tuple(dice)), d.id
    raise AssertionError("checked: the die exists")


def _use_ally(state: DuelState, i: int, move: UseAlly) -> tuple[DuelState, dict[str, object]]:
    player = _player(state, i)
    opponent = state.sides[1 - i].name
    board = state.boards[i]
    state = _side(state, i, allies=_flip(player.allies, move.ally, False))
    state = _board(state, i, allies_used=(*board.allies_used, move.ally))
    params: dict[str, object] = {"ally": move.ally}
    this_pass = max(state.pass_no, 1)
    mods: list[Mod] = []
    if move.ally in OPPONENT_ATTACK:
        mods.append(
            Mod(opponent, "attack", OPPONENT_ATTACK[move.ally], this_pass, move.ally, player.name)
        )
    if move.ally in ATTACK_BONUS:
        mods.append(
            Mod(player.name, "attack", ATTACK_BONUS[move.ally], this_pass, move.ally, player.name)
        )
    if move.ally == "blazen":
        mods.append(Mod(opponent, "prestige", BLAZEN_PRESTIGE, 1, move.ally, player.name))
    if mods:
        state = evolve(state, mods=(*state.mods, *mods))
    cost = GLORY_COST.get(move.ally, 0)
    if cost:
        glory = _player(state, i).glory
        state = _side(state, i, glory=None if glory is None else glory - cost)
        line = Line(move.ally, -cost, "glory/ally-cost", REF["glory-cost"], {"ally": move.ally})
        state = evolve(state, awards=(*state.awards, Award(player.name, line)))
        params["cost"] = cost
    if move.ally in SET_DIE:
        die_type, value = SET_DIE[move.ally]
        state, die_id = _set_die(state, i, move.die, die_type, value)
        params.update(die=die_id, value=value)
    if move.ally in REFRESH and move.target:
        field = {"ally": "allies", "prestige": "prestige", "relic": "relics"}[REFRESH[move.ally]]
        current = _player(state, i)
        state = _side(state, i, **{field: _flip(getattr(current, field), move.target, True)})
        params["target"] = move.target
    return state, params


def _use_relic(state: DuelState, i: int, move: UseRelic) -> tuple[DuelState, dict[str, object]]:
    player = _player(state, i)
    board = state.boards[i]
    state = _side(state, i, relics=_flip(player.relics, move.relic, False))
    state = _board(state, i, relics_used=(*board.relics_used, move.relic), relic_pass=True)
    params: dict[str, object] = {"relic": move.relic}
    if move.relic in ATTACK_BONUS:
        mod = Mod(
            player.name, "attack", ATTACK_BONUS[move.relic], state.pass_no, move.relic, player.name
        )
        state = evolve(state, mods=(*state.mods, mod))
    elif move.relic == "paternoster":
        state, die_id = _set_die(state, i, move.die, "armour", SET_DIE["paternoster"][1])
        params.update(die=die_id, value=SET_DIE["paternoster"][1])
    else:
        state = evolve(state, pending=RerollPending(player.name, "pierscien", move.dice))
        params["dice"] = ", ".join(move.dice)
    return state, params


# --- steps, passes and the end of the duel ---------------------------------------------------

_NEXT: dict[Step, Step] = {
    "strength": "roll",
    "roll": "faith",
    "faith": "lance1",
    "lance1": "lance2",
    "lance2": "relic",
}


def _advance(state: DuelState) -> DuelState:
    """Move on while nobody is left to act in the current step."""
    while state.step not in ("over", "recover") and state.pending is None:
        if state.step == "roll":
            if any(_needs_roll(state, i) for i in range(2)):
                return state
        elif to_act(state):
            return state
        if state.step == "tent":
            state = _start_pass(state)
        elif state.step == "relic":
            state = _resolve_pass(state)
        else:
            state = evolve(state, step=_NEXT[state.step], decided=())
    return state


def _start_pass(state: DuelState) -> DuelState:
    boards = tuple(
        evolve(b, dice=(), rolled=False, faith_pass=False, relic_pass=False) for b in state.boards
    )
    return evolve(
        state, step="strength", pass_no=state.pass_no + 1, decided=(), boards=(boards[0], boards[1])
    )


def pass_winner(state: DuelState) -> tuple[int, Reason]:
    """(index of the winner, reason) of the pass as it stands (§5.5). May need missing data."""
    a, b = attack(state, 0), attack(state, 1)
    if a != b:
        return (0 if a > b else 1), "attack"
    kinds = [isinstance(s, Duellist) for s in state.sides]
    if all(kinds):
        pa, pb = prestige(state, 0), prestige(state, 1)
        assert pa is not None and pb is not None
        if pa != pb:
            return (0 if pa > pb else 1), "prestige"
        return _better_initiative(state), "initiative"
    p = kinds.index(True)
    k = 1 - p
    knight = state.sides[k]
    assert isinstance(knight, Knight)
    pk = prestige(state, k)
    if pk is None:
        raise missing_data(
            f"the Prestige of {knight.name}",
            f"break the Attack tie of pass {state.pass_no}",
            "the duel file or data/knights.json",
        )
    pp = prestige(state, p)
    assert pp is not None
    if knight.type != "sir":
        return (p if pp >= pk else k), "prestige"  # a player wins a full tie [L914-917]
    if pp != pk:
        return (p if pp > pk else k), "prestige"
    if knight.initiative is None:
        raise missing_data(
            f"the Initiative position of {knight.name}",
            "break a full tie against SIR",
            "the duel file",
        )
    return _better_initiative(state), "initiative"


def _better_initiative(state: DuelState) -> int:
    a, b = initiative(state.sides[0]), initiative(state.sides[1])
    assert a is not None and b is not None
    return 0 if a < b else 1


def _resolve_pass(state: DuelState) -> DuelState:
    w, reason = pass_winner(state)
    attacks = [
        SideAttack(
            s.name,
            attack_lines(state, n),
            attack(state, n),
            prestige(state, n) if reason != "attack" else None,
        )
        for n, s in enumerate(state.sides)
    ]
    winner = state.sides[w]
    flipped = None
    if reason != "attack" and isinstance(winner, Duellist):
        active = [p.kind for p in winner.prestige if p.active]
        if active:
            flipped = active[0]
            state = _side(state, w, prestige=_flip(winner.prestige, flipped, False))
            board = state.boards[w]
            state = _board(state, w, prestige_used=(*board.prestige_used, flipped))
    record = PassRecord(state.pass_no, (attacks[0], attacks[1]), winner.name, reason, flipped)
    wins = state.boards[w].wins + 1
    state = _board(state, w, wins=wins)
    state = evolve(state, passes=(*state.passes, record))
    if wins >= WINS_NEEDED:
        return _end(state, w)
    return _start_pass(state)


def worth(state: DuelState, x: int) -> int:
    """The Glory side ``x`` is worth to its opponent (a Knight's value; 7 or 9 for a player)."""
    side, other = state.sides[x], state.sides[1 - x]
    if isinstance(side, Knight) and side.type != "sir":
        if side.glory is None:
            raise missing_data(
                f"the Glory value of {side.name}",
                "award the duel's Glory",
                "the duel file or data/knights.json",
            )
        return side.glory
    if side.glory is None or other.glory is None:
        unknown = side.name if side.glory is None else other.name
        raise missing_data(
            f"the Glory total of {unknown}",
            f"tell whether {side.name} is worth 7 or 9",
            "the duel file",
        )
    return PLAYER_WORTH_MORE if side.glory > other.glory else PLAYER_WORTH


def _gains(side: Side) -> bool:
    return isinstance(side, Duellist) or side.type == "sir"


def _end(state: DuelState, w: int) -> DuelState:
    """The end of the duel (§5.8): Glory by context, then the loser's recovery."""
    lo = 1 - w
    winner, loser = state.sides[w], state.sides[lo]
    lines: list[tuple[int, Line]] = []
    if state.context in TOURNAMENT:
        # both values are taken at the same moment, before either award [L899-904, L1158]
        if _gains(winner):
            value = worth(state, lo)
            code = (
                "glory/won-knight"
                if isinstance(loser, Knight) and loser.type != "sir"
                else "glory/won-player"
            )
            ref_key = "knight-glory" if code == "glory/won-knight" else "worth"
            lines.append((w, Line("duel", value, code, REF[ref_key], {"opponent": loser.name})))
        if _gains(loser) and state.boards[lo].wins == 1:
            value = worth(state, w)
            lines.append(
                (
                    lo,
                    Line(
                        "half",
                        value // 2,
                        "glory/half",
                        REF["half"],
                        {"opponent": winner.name, "worth": value},
                    ),
                )
            )
    else:
        if isinstance(winner, Duellist):
            lines.append(
                (
                    w,
                    Line(
                        "card",
                        0,
                        f"reward/{state.context}-won",
                        REF["card"],
                        {"opponent": loser.name},
                    ),
                )
            )
        if isinstance(loser, Duellist):
            lines.append(
                (
                    lo,
                    Line(
                        "card",
                        0,
                        f"reward/{state.context}-lost",
                        REF["card"],
                        {"opponent": winner.name},
                    ),
                )
            )
    for n, line in lines:
        side = state.sides[n]
        if line.amount and side.glory is not None:
            state = _side(state, n, glory=side.glory + line.amount)
    state = evolve(
        state,
        winner=winner.name,
        awards=(*state.awards, *(Award(state.sides[n].name, ln) for n, ln in lines)),
    )
    # the winner's Strength and Faith go to the bank; the rest stays flipped [L924-927]
    if isinstance(loser, Duellist):
        board = state.boards[lo]
        back = {"strength": min(1, board.committed), "faith": min(1, board.faith_spent)}
        state = _side(
            state, lo, strength=loser.strength + back["strength"], faith=loser.faith + back["faith"]
        )
        note = Note(
            state.pass_no,
            "recover",
            loser.name,
            "note/recover-tokens",
            back,
            (attack(state, 0), attack(state, 1)),
        )
        state = evolve(state, notes=(*state.notes, note))
        if board.allies_used or board.prestige_used or board.relics_used:
            return evolve(state, step="recover", decided=())
    return evolve(state, step="over", decided=())


def _recover(state: DuelState, i: int, move: Recover) -> DuelState:
    player = _player(state, i)
    changes: dict[str, object] = {}
    if move.ally:
        changes["allies"] = _flip(player.allies, move.ally, True)
    if move.prestige:
        changes["prestige"] = _flip(player.prestige, move.prestige, True)
    if move.relic:
        changes["relics"] = _flip(player.relics, move.relic, True)
    state = _side(state, i, **changes)
    params = {
        "ally": move.ally or "-",
        "prestige": move.prestige or "-",
        "relic": move.relic or "-",
    }
    note = Note(
        state.pass_no,
        "recover",
        player.name,
        "note/recover",
        params,
        (attack(state, 0), attack(state, 1)),
    )
    return evolve(state, step="over", notes=(*state.notes, note))


def recovery_choices(state: DuelState) -> dict[str, tuple[str, ...]]:
    """What the loser may turn back, by category (distinct kinds used in this duel)."""
    loser = state.loser
    if loser is None:
        return {}
    board = state.boards[state.index(loser)]
    return {
        "ally": tuple(sorted(set(board.allies_used))),
        "prestige": tuple(sorted(set(board.prestige_used))),
        "relic": tuple(sorted(set(board.relics_used))),
    }


# --- Knight against Knight -------------------------------------------------------------------


def _compare(
    first: Knight, second: Knight, steps: tuple[tuple[str, str, str], ...]
) -> tuple[str, str] | None:
    """The first of ``steps`` (attribute, what, why) that tells the two apart, higher winning;
    None when all are equal. A value is asked for only when the comparison reaches it."""
    for attr, what, why in steps:
        values = []
        for side in (first, second):
            value = getattr(side, attr)
            if value is None:
                raise missing_data(what.format(side.name), why, "data/knights.json")
            values.append(value)
        if values[0] != values[1]:
            return (first.name if values[0] > values[1] else second.name), attr
    return None


def knight_vs_knight(left: Knight, right: Knight) -> tuple[str, str]:
    """(winner's name, reason) of a duel of two Knights: no dice (§5.7, L975-981).

    Higher Glory value wins; then higher Prestige; then the left-hand Knight.
    """
    steps = (
        ("glory", "the Glory value of {}", "decide a Knight-against-Knight duel"),
        ("prestige", "the Prestige of {}", "break a Glory tie between two Knights"),
    )
    return _compare(left, right, steps) or (left.name, "left")


def sir_as_knight(sir: Knight, knight: Knight, sir_left: bool = False) -> tuple[str, str]:
    """(winner's name, reason) of SIR against a Knight read as L1278 words it (GL-50, option
    ``sir_duel`` 'knight'): SIR "rozstrzyga Pojedynki jak Rycerz", so as two Knights do
    (L975-978): higher Glory value, then higher Prestige, then the left-hand side; SIR's Glory
    value is a player's, "7 lub 9": 9 with more Glory than the Knight's value, else 7
    (L969-972). ``sir_left``: SIR holds the left-hand place (a Joust bracket's upper space)."""
    if knight.glory is None:
        raise missing_data(f"the Glory value of {knight.name}", "decide SIR's duel",
                           "data/knights.json")  # fmt: skip
    worth = 9 if (sir.glory or 0) > knight.glory else 7
    me = evolve(sir, glory=worth)
    return knight_vs_knight(me, knight) if sir_left else knight_vs_knight(knight, me)


def sir_vs_knight(sir: Knight, knight: Knight) -> tuple[str, str]:
    """(winner's name, reason) of SIR (solo Rival) against a Knight: no dice, no decisions.

    SIR fights as a Knight with the chosen Knight's Attack and Prestige [L1258, L1278]: higher
    Attack wins, then higher Prestige; a full tie goes to the Knight, since only a player wins a
    full tie against a Knight [L914-917] and SIR's Initiative rule is for a player [L1280-1281]
    (GL decision). A Polish Noble rolls no die here, as between two Knights (§5.7).
    """
    steps = (
        ("attack", "the Attack value of {}", "decide SIR's duel against a Knight"),
        ("prestige", "the Prestige of {}", "break an Attack tie between SIR and a Knight"),
    )
    return _compare(sir, knight, steps) or (knight.name, "knight")
