"""``herald rules france1429 battle BATTLE.json`` and ``election ELECTION.json``: one battle from
given dice, one election from given votes, through the game's own rules.

Why through the game: the verbs set up the smallest table that holds what the file describes (on
the data set ``--data`` names: the map's Villages, the Lord cards' sexes) and then play the same
moves a table would (``Attack``, ``BattleRoll``, ``Losses``, ``Resolve``; the sealed ``Vote``
reveal), so a verb's answer is the referee's answer. Losses are their owner's choice (§9.4): a
roll may name them; a roll that does not takes the first allocation the rules offer (Men at Arms
before Knights) and says so. Exit codes: 0 resolved, 1 a move the rules refuse (the dice count,
a loss), 2 not a battle or election file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine import codec, rules
from engine.adapter import resolve_options
from engine.data import GameData
from engine.flow import Reveal
from engine.games.france1429 import control, hear_ye, setup, war
from engine.games.france1429.data import FranceData
from engine.games.france1429.game import GAME
from engine.games.france1429.moves import (
    Answer,
    Attack,
    BattleRoll,
    Join,
    Losses,
    PlayCard,
    Resolve,
    Vote,
)
from engine.games.france1429.rounds import start_round
from engine.games.france1429.sources import GAME_KEY
from engine.games.france1429.state import SECRET_PASSAGE, Election, FranceState, Lord, Troops
from engine.i18n import message, violation_json, violation_text
from engine.verbs import EXIT_ILLEGAL, BadInput, Verb, VerbArg, VerbResult, json_schema_doc
from engine.violations import InputError, RuleViolation

ATTACKER, DEFENDER, BYSTANDER = "attacker", "defender", "bystander"
ELECTION_ROUND = 2
"""The round an election file is counted in: a Bishop from an earlier one votes (§10.3)."""


Relic = Literal["holy-grail", "holy-spear"]


@dataclass(frozen=True)
class SideSpec:
    """One family in a battle: its Men at Arms, Knights and Lords (ids of the data's Lord
    cards; a Lord's Fief titles make him Titled, §9.2), d'ARC, and the relics its Lords carry
    (relic id → Lord id: the Grail helps its side when defending, the Spear when attacking,
    §12.2)."""

    men_at_arms: int = 0
    knights: int = 0
    lords: tuple[str, ...] = ()
    titled: tuple[str, ...] = ()
    darc: str = ""
    relics: dict[Relic, str] | None = None


@dataclass(frozen=True)
class AllySpec(SideSpec):
    """Another family in the Village that joins a side when the battle is declared (§9.1,
    FR-32): ``name`` is the seat it plays as, ``side`` the side it joins."""

    name: str = ""
    side: Literal["attacker", "defender"] = "attacker"


@dataclass(frozen=True)
class LossSpec:
    men_at_arms: int = 0
    knights: int = 0
    lords: tuple[str, ...] = ()


@dataclass(frozen=True)
class RollSpec:
    """One roll: each die's hits (the faces of the data's Battle Dice), the losses each owner
    chooses (default: the first allocation the rules offer; a side with allies always takes
    the first), whether the attacker then plays a Secret Passage (no fortification penalty
    from the next roll on, §11.4), and what each side does after it."""

    attacker: tuple[int, ...]
    defender: tuple[int, ...]
    attacker_losses: LossSpec | None = None
    defender_losses: LossSpec | None = None
    secret_passage: bool = False
    attacker_then: Literal["go-on", "stop", "surrender", "truce"] = "go-on"
    defender_then: Literal["go-on", "surrender", "truce"] = "go-on"


@dataclass(frozen=True)
class BattleFile:
    """A battle in a Village (default: the map's first), the defender's fortification there
    (it counts against the attacker when the defender controls the Village, §9.2), the
    attacker's Siege Engine dice, both sides, their allies, whether it is a Cavalcade (the
    attacker's first Lord rides in: the defender +1 hit per die, §8.5; two families only), the
    game's options (``edition``, ``holy_spear``, ``captives``), the beaten Lords the winner lets
    go (``released``: under ``captives`` ``optional``, the PL edition; the others are kept), and
    the rolls."""

    attacker: SideSpec
    defender: SideSpec
    rolls: tuple[RollSpec, ...]
    village: str = ""
    fortification: Literal["none", "stronghold", "fortified"] = "none"
    defender_holds: bool = True
    siege_engine: int = 0
    cavalcade: bool = False
    allies: tuple[AllySpec, ...] = ()
    options: dict[str, Any] | None = None
    released: tuple[str, ...] = ()


@dataclass(frozen=True)
class VoterSpec:
    """A family at an election: its Lords (ids of the data's Lord cards) and what the rules read
    of them: Fief titles (``titled``), Bishops by Bishopric (``bishops``; ``new_bishops``: elected
    this round, whose 2 votes wait for the next, §10.3), Cardinals, the Pope, the King, the Queen
    or Queen Regent, the Crown Prince, spouses (another family's Lord), captives and
    excommunicated Lords; the Villages it controls (a Bishop's election counts them); and its
    sealed markers: FOR and DECOY on a candidate's Lord id ("" abstains / no decoy)."""

    seat: str
    lords: tuple[str, ...] = ()
    titled: tuple[str, ...] = ()
    bishops: dict[str, int] | None = None
    new_bishops: tuple[str, ...] = ()
    cardinals: tuple[str, ...] = ()
    pope: str = ""
    king: str = ""
    queen: str = ""
    regent: str = ""
    crown_prince: str = ""
    spouses: dict[str, str] | None = None
    captives: tuple[str, ...] = ()
    excommunicated: tuple[str, ...] = ()
    controls: tuple[str, ...] = ()
    vote_for: str = ""
    decoy: str = ""


@dataclass(frozen=True)
class ElectionFile:
    """An election: ``office`` (bishop, pope, king), the Bishopric's number for a Bishop, the
    candidates (Lord ids, in the order declared), the families, and the game's options the
    count reads (``edition``, ``king_needs_title``, ``pope_majority``)."""

    office: Literal["bishop", "pope", "king"]
    candidates: tuple[str, ...]
    families: tuple[VoterSpec, ...]
    bishopric: int = 0
    options: dict[str, Any] | None = None


def _m(code: str, lang: str, **params: Any) -> str:
    return message(f"{GAME_KEY}:{code}", lang, **params)


def _data(inputs: Mapping[str, Any]) -> FranceData:
    data: GameData | None = inputs.get("data")
    if data is None or not isinstance(data.value, FranceData):
        raise BadInput("data", InputError("input/data", "not France 1429's data"))
    value: FranceData = data.value
    return value


def _table(
    value: FranceData, seats: tuple[str, ...], arg: str = "", options: dict[str, Any] | None = None
) -> FranceState:
    """An empty board on the data, round 1 (no Lords, no troops), with the file's options."""
    try:
        opts = resolve_options(GAME.info, {**(options or {}), "data": "stand-in"})
    except InputError as exc:
        raise BadInput(arg, InputError(exc.code, exc.detail, "$.options")) from exc
    state = setup.initial(seats, opts, setup.rules_from(value.map, value.box))
    return start_round(state)


def _lords(state: FranceState, arg: str, ids: tuple[str, ...]) -> None:
    unknown = [lid for lid in ids if state.rules.lord(lid) is None]
    if unknown:
        known = ", ".join(x.id for x in state.rules.lords)
        raise BadInput(
            arg,
            InputError(
                "input/lord", f"unknown Lord {unknown[0]!r} (the data's Lords: {known})", "$"
            ),
        )
    if len(set(ids)) != len(ids):
        raise BadInput(arg, InputError("input/lord", "a Lord is named twice", "$"))


def _decode(arg: str, tp: Any, doc: Any) -> Any:
    try:
        return codec.decode(tp, doc)
    except InputError as exc:
        raise BadInput(arg, exc) from exc


def _refused(exc: RuleViolation, lang: str, lines: list[str], data: dict[str, Any]) -> VerbResult:
    lines += [f"  • {v.code} {violation_text(v, lang)}" for v in exc.violations]
    data["violations"] = [violation_json(v, lang) for v in exc.violations]
    return VerbResult(data, "\n".join(lines), EXIT_ILLEGAL)


# --- battle --------------------------------------------------------------------------------------


def _side(state: FranceState, seat: str, village: str, spec: SideSpec) -> FranceState:
    for lid in spec.lords:
        fiefs = (village,) if lid in spec.titled else ()
        state = replace(
            state,
            lords=(*state.lords, Lord(lid, seat, village, fiefs=fiefs, darc=lid == spec.darc)),
        )
    for relic, lid in (spec.relics or {}).items():
        if lid not in spec.lords:
            why = f"{relic} is carried by {lid!r}, not one of {seat}'s Lords"
            raise BadInput("battle", InputError("input/relic", why, "$"))
        if relic in state.relics:
            raise BadInput("battle", InputError("input/relic", f"{relic} twice", "$"))
        state = replace(state, relics={**state.relics, relic: f"l:{lid}"})
    t = Troops(seat, village, spec.men_at_arms, spec.knights, spec.men_at_arms, spec.knights)
    return state.with_troops(t)


def _seats(spec: BattleFile) -> tuple[str, ...]:
    """The attacker, the defender and each ally (a bystander makes up a table of 3)."""
    names = [a.name for a in spec.allies]
    if (
        len(names) > 4
        or len(set(names)) != len(names)
        or any(n in ("", ATTACKER, DEFENDER, BYSTANDER) for n in names)
    ):
        why = "up to 4 allies, each with its own name (not attacker, defender or bystander)"
        raise BadInput("battle", InputError("input/allies", why, "$.allies"))
    if spec.cavalcade and names:
        why = "a Cavalcade is fought by its two families only (§8.5)"
        raise BadInput("battle", InputError("input/allies", why, "$.allies"))
    seats = (ATTACKER, DEFENDER, *names)
    return seats if len(seats) >= 3 else (*seats, BYSTANDER)


def hand_card(state: FranceState, seat: str, card: str) -> FranceState:
    """``seat`` holds ``card`` (the file says it played it)."""
    fam = state.family(seat)
    return state.with_family(replace(fam, hand=(*fam.hand, card)))


def _loss(seat: str, spec: LossSpec | None, offered: list[Losses]) -> tuple[Losses, bool]:
    if spec is None:
        return offered[0], True
    return Losses(seat, spec.men_at_arms, spec.knights, spec.lords), False


def resolve_battle(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """One battle from its rolls, each roll's hits and losses itemised (§9.2-9.5)."""
    value = _data(inputs)
    spec: BattleFile = _decode("battle", BattleFile, inputs["battle"])
    state = _table(value, _seats(spec), "battle", spec.options)
    village = spec.village or state.rules.villages[0].id
    if village not in {v.id for v in state.rules.villages}:
        raise BadInput(
            "battle", InputError("input/village", f"no Village {village!r}", "$.village")
        )
    everyone = (spec.attacker, spec.defender, *spec.allies)
    _lords(state, "battle", tuple(lid for side in everyone for lid in side.lords))
    if spec.cavalcade and not spec.attacker.lords:
        why = "a Cavalcade is led by a Lord of the attacker (§8.5)"
        raise BadInput("battle", InputError("input/cavalcade", why, "$.attacker.lords"))
    holder, other = (DEFENDER, ATTACKER) if spec.defender_holds else (ATTACKER, DEFENDER)
    sides = {ATTACKER: spec.attacker, DEFENDER: spec.defender, **{a.name: a for a in spec.allies}}
    # who came first controls the Village (§8.4): the holder's side, the other, then the allies
    for seat in (holder, other, *(a.name for a in spec.allies)):
        state = control.refresh(_side(state, seat, village, sides[seat]), village)
    place = replace(
        state.place(village),
        fort=spec.fortification,
        besieged_by=ATTACKER if spec.siege_engine else None,
        engine=spec.siege_engine,
    )
    state = replace(state.with_place(place), phase="battles", turn=state.order().index(ATTACKER))
    lines = [
        _m(
            "verb/battle-start",
            lang,
            village=village,
            attacker=war.strength(state, ATTACKER, village),
            defender=war.strength(state, DEFENDER, village),
        )
    ]
    report: dict[str, Any] = {"village": village, "rolls": []}
    teams: dict[str, tuple[str, ...]] = {ATTACKER: (ATTACKER,), DEFENDER: (DEFENDER,)}
    try:
        state = _declare(state, spec, village)
        for n, roll in enumerate(spec.rolls, 1):
            battle = state.battle
            if battle is None:
                lines.append(_m("verb/battle-over-early", lang, rolls=n - 1))
                break
            teams = {s: battle.members(s) for s in (ATTACKER, DEFENDER)}
            state = _roll(state, roll, n, lang, lines, report, spec.released)
    except RuleViolation as exc:
        report["resolved"] = False
        return _refused(exc, lang, lines, report)
    if state.battle is not None:
        teams = {s: state.battle.members(s) for s in (ATTACKER, DEFENDER)}
    return _ending(state, teams, lang, lines, report)


def _declare(state: FranceState, spec: BattleFile, village: str) -> FranceState:
    """The attack, each ally's answer (§9.1), a Cavalcade's Lord named (§8.5)."""
    game: Any = GAME
    state = rules.apply(game, state, Attack(ATTACKER, village, DEFENDER))
    joins = {a.name: a.side for a in spec.allies}
    while state.battle is not None and state.battle.stage == "join":
        seat = state.battle.queue[0]
        state = rules.apply(game, state, Join(seat, joins.get(seat, "none")))
    if spec.cavalcade and state.battle is not None:
        state = replace(state, battle=replace(state.battle, cavalcade=spec.attacker.lords[0]))
    return state


def _captives(state: FranceState, released: tuple[str, ...], entry: dict[str, Any]) -> FranceState:
    """The winner's answer for each beaten Lord (PL edition, FR-26): let go if the file says so."""
    game: Any = GAME
    while state.pending and state.pending[-1].kind == "captive":
        top = state.pending[-1]
        keep = top.lord not in released
        state = rules.apply(game, state, Answer(top.seat, keep))
        if not keep:
            entry.setdefault("released", []).append(top.lord)
    return state


def _roll(
    state: FranceState,
    roll: RollSpec,
    n: int,
    lang: str,
    lines: list[str],
    report: dict[str, Any],
    released: tuple[str, ...] = (),
) -> FranceState:
    """One roll: the dice, the hits each side rolled, the losses, what each side does."""
    game: Any = GAME
    battle = state.battle
    assert battle is not None
    dice = {s: war.dice(state, battle, s) for s in (ATTACKER, DEFENDER)}
    state = rules.apply(game, state, BattleRoll(roll.attacker, roll.defender))
    taken = dict(state.battle.hits) if state.battle else {}
    rolled = {ATTACKER: taken.get(DEFENDER, 0), DEFENDER: taken.get(ATTACKER, 0)}
    entry: dict[str, Any] = {
        "dice": dice,
        "faces": {ATTACKER: list(roll.attacker), DEFENDER: list(roll.defender)},
        "hits": rolled,
        "losses": {},
    }
    lines.append(
        _m(
            "verb/battle-roll",
            lang,
            n=n,
            a_dice=dice[ATTACKER],
            a_faces=list(roll.attacker),
            d_dice=dice[DEFENDER],
            d_faces=list(roll.defender),
            a_hits=rolled[ATTACKER],
            d_hits=rolled[DEFENDER],
        )
    )
    while state.battle is not None and state.battle.stage == "losses":
        b = state.battle
        lead = b.owing[0]
        seat = b.decider(lead)
        allied = len(b.members(lead)) > 1
        chosen = (
            None if allied else (roll.attacker_losses if lead == ATTACKER else roll.defender_losses)
        )
        move, default = _loss(seat, chosen, war.options(state, seat))
        state = rules.apply(game, state, move)
        state = _captives(state, released, entry)
        whose = move.of or seat
        blank = {"men_at_arms": 0, "knights": 0, "lords_killed": [], "default": True}
        taken_here = entry["losses"].setdefault(whose, blank)
        taken_here["men_at_arms"] += move.maa
        taken_here["knights"] += move.knights
        taken_here["lords_killed"] += list(move.lords)
        taken_here["default"] = default
        lines.append(
            _m(
                "verb/battle-losses",
                lang,
                side=whose,
                maa=move.maa,
                knights=move.knights,
                lords=", ".join(move.lords) or "-",
                how=_m("verb/by-default" if default else "verb/chosen", lang),
            )
        )
    deciding = state.battle
    if roll.secret_passage and deciding is not None and deciding.stage == ATTACKER:
        state = hand_card(state, ATTACKER, SECRET_PASSAGE)
        state = rules.apply(game, state, PlayCard(ATTACKER, SECRET_PASSAGE, deciding.village))
        entry["secret_passage"] = True
    for seat, then in ((ATTACKER, roll.attacker_then), (DEFENDER, roll.defender_then)):
        now = state.battle
        if now is not None and now.stage == seat:
            state = rules.apply(game, state, Resolve(now.decider(seat), then))
            state = _captives(state, released, entry)
    report["rolls"].append(entry)
    return state


def _ending(
    state: FranceState,
    teams: dict[str, tuple[str, ...]],
    lang: str,
    lines: list[str],
    report: dict[str, Any],
) -> VerbResult:
    """What is left of each family, the side left standing (``winner``; None while the battle
    goes on or when neither or both sides kept troops) and who controls the Village."""
    village = report["village"]
    over = state.battle is None
    left: dict[str, dict[str, Any]] = {
        s: {
            "men_at_arms": state.troops_at(s, village).maa,
            "knights": state.troops_at(s, village).knights,
            "lords": [x.id for x in state.lords_at(village) if x.seat == s and not x.captor],
            "captured": [x.id for x in state.lords if x.seat == s and x.captor],
        }
        for s in state.seats
        if s != BYSTANDER
    }
    standing = [s for s in (ATTACKER, DEFENDER)
                if any(state.troops_at(x, village).count() for x in teams[s])]  # fmt: skip
    winner = standing[0] if over and len(standing) == 1 else None
    report |= {
        "resolved": True,
        "over": over,
        "winner": winner,
        "left": left,
        "controller": control.controller(state, village),
    }
    for s in left:
        lines.append(
            _m(
                "verb/battle-left",
                lang,
                side=s,
                maa=left[s]["men_at_arms"],
                knights=left[s]["knights"],
                lords=", ".join(left[s]["lords"]) or "-",
                captured=", ".join(left[s]["captured"]) or "-",
            )
        )
    lines.append(
        _m(
            "verb/battle-over" if over else "verb/battle-goes-on",
            lang,
            controller=report["controller"] or "-",
        )
    )
    return VerbResult(report, "\n".join(lines))


def battle_schema() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    return json_schema_doc(defs, codec.schema_for(BattleFile, defs))


# --- election ------------------------------------------------------------------------------------


def _voter(state: FranceState, f: VoterSpec, home: str, owner: dict[str, str]) -> FranceState:
    """``f``'s Lords on the table as the file states them (all in one Village: an election
    reads titles and control, not where a Lord stands)."""
    named = {"pope": f.pope, "king": f.king, "queen": f.queen, "regent": f.regent,
             "crown_prince": f.crown_prince}  # fmt: skip
    marked = [*named.values(), *f.titled, *(f.bishops or {}), *f.new_bishops, *f.cardinals,
              *(f.spouses or {}), *f.captives, *f.excommunicated]  # fmt: skip
    stray = [lid for lid in marked if lid and lid not in f.lords]
    if stray:
        why = f"{f.seat} marks {stray[0]!r}, not one of its lords"
        raise BadInput("election", InputError("input/lord", why, "$.families"))
    captor = next(s for s in (*owner.values(), BYSTANDER) if s != f.seat)
    bishops = f.bishops or {}
    for lid in f.lords:
        spouse = (f.spouses or {}).get(lid)
        if spouse is not None and owner.get(spouse, f.seat) == f.seat:
            why = f"{lid}'s spouse {spouse!r} is no other family's Lord"
            raise BadInput("election", InputError("input/lord", why, "$.families"))
        lord = Lord(
            lid, f.seat, home,
            fiefs=(home,) if lid in f.titled else (),
            bishop=bishops.get(lid),
            bishop_round=ELECTION_ROUND if lid in f.new_bishops else 0,
            cardinal=lid in f.cardinals or lid == f.pope,
            pope=lid == f.pope,
            king=lid == f.king,
            queen=lid == f.queen,
            regent=lid == f.regent,
            crown_prince=lid == f.crown_prince,
            spouse=spouse,
            captor=captor if lid in f.captives else None,
            excommunicated=lid in f.excommunicated,
        )  # fmt: skip
        state = replace(state, lords=(*state.lords, lord))
    return state


def resolve_election(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """One election from the families' sealed markers, revealed at once (§10.2-10.6)."""
    value = _data(inputs)
    spec: ElectionFile = _decode("election", ElectionFile, inputs["election"])
    seats = tuple(f.seat for f in spec.families)
    if len(set(seats)) != len(seats) or not 3 <= len(seats) <= 6:
        raise BadInput(
            "election",
            InputError("input/families", "3 to 6 families, each named once", "$.families"),
        )
    state = _table(value, seats, "election", spec.options)
    _lords(state, "election", tuple(lid for f in spec.families for lid in f.lords))
    home = state.rules.villages[0].id
    owner = {lid: f.seat for f in spec.families for lid in f.lords}
    for f in spec.families:
        state = _voter(state, f, home, owner)
    for f in spec.families:
        for vid in f.controls:
            if vid not in {v.id for v in state.rules.villages}:
                raise BadInput("election", InputError("input/village", f"no Village {vid!r}", "$"))
            state = state.with_place(replace(state.place(vid), present=(f.seat,)))
    owner = {lid: f.seat for f in spec.families for lid in f.lords}
    missing = [c for c in spec.candidates if c not in owner]
    if missing:
        raise BadInput(
            "election",
            InputError(
                "input/lord", f"candidate {missing[0]!r} is no family's Lord", "$.candidates"
            ),
        )
    office = spec.office
    barred = {c: hear_ye.ineligible(state, office, state.lord(c)) for c in spec.candidates}
    problems = [c for c, why in barred.items() if why is not None]
    state = replace(
        state,
        round=ELECTION_ROUND,
        election=Election(
            office, spec.bishopric, tuple((owner[c], c) for c in spec.candidates), stage="vote"
        ),
    )
    numbers = {c: i for i, c in enumerate(spec.candidates, 1)}
    lines = [
        _m(
            "verb/election-start",
            lang,
            office=office,
            bishopric=spec.bishopric,
            candidates=", ".join(spec.candidates),
        )
    ]
    if problems:
        lines.append(_m("verb/election-ineligible", lang, lords=", ".join(problems)))
        why = {c: str(barred[c]) for c in problems}
        lines += [f"  • {why[c]} {_m(why[c], lang, lord=c)}" for c in problems]
        data = {"resolved": False, "ineligible": problems, "rules": why}
        return VerbResult(data, "\n".join(lines), EXIT_ILLEGAL)
    votes = []
    for f in spec.families:
        for mark in (f.vote_for, f.decoy):
            if mark and mark not in numbers:
                raise BadInput(
                    "election",
                    InputError(
                        "input/vote", f"{f.seat} marks {mark!r}, not a candidate", "$.families"
                    ),
                )
        if hear_ye.votes(state, f.seat, office, spec.bishopric) > 0:
            votes.append(
                (f.seat, Vote(f.seat, numbers.get(f.vote_for, 0), numbers.get(f.decoy, 0)))
            )
    after = hear_ye.reveal(state, Reveal("vote", tuple(votes)))
    outcome = after.last_election
    assert outcome is not None
    weight = {f.seat: hear_ye.votes(state, f.seat, office, spec.bishopric) for f in spec.families}
    for seat, a, b in outcome.markers:
        lines.append(
            _m(
                "verb/election-markers",
                lang,
                seat=seat,
                votes=weight[seat],
                vote_for=a or "-",
                decoy=b or "-",
            )
        )
    lines.append(
        _m(
            "verb/election-count",
            lang,
            count=", ".join(f"{k} {v}" for k, v in outcome.votes.items()) or "-",
        )
    )
    lines.append(
        _m(
            "verb/election-winner" if outcome.winner else "verb/election-nobody",
            lang,
            lord=outcome.winner,
        )
    )
    data = {
        "resolved": True,
        "office": office,
        "bishopric": spec.bishopric,
        "votes_per_family": weight,
        "markers": [list(m) for m in outcome.markers],
        "count": outcome.votes,
        "winner": outcome.winner or None,
    }
    return VerbResult(data, "\n".join(lines))


def election_schema() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    return json_schema_doc(defs, codec.schema_for(ElectionFile, defs))


_DATA = VerbArg(
    "data",
    "The data set (stand-in, box, or a data file) whose map and Lords the file names.",
    kind="data",
    metavar="SET",
)

VERBS: tuple[Verb, ...] = (
    Verb(
        "battle",
        "Resolve one battle from given dice: each roll's dice, hits and losses "
        "(rules/france1429.md §9).",
        (
            VerbArg(
                "battle", "The battle file.", positional=True, required=True, metavar="BATTLE.json"
            ),
            _DATA,
        ),
        resolve_battle,
        battle_schema,
    ),
    Verb(
        "election",
        "Resolve one election from the families' sealed FOR and DECOY markers "
        "(rules/france1429.md §10).",
        (
            VerbArg(
                "election",
                "The election file.",
                positional=True,
                required=True,
                metavar="ELECTION.json",
            ),
            _DATA,
        ),
        resolve_election,
        election_schema,
    ),
)
