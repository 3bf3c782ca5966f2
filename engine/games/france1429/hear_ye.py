"""Phase 1 "Hear Ye, Hear Ye" after the marriages: the Bishop elections (lowest Bishopric first),
the Pope's and the King's (digest §5 Phase 1, §10.2-10.6), as a sub-game of two steps: the
families in turn declare one eligible Lord each (or pass), then every family entitled to vote
seals its FOR and DECOY markers at once; the reveal is one event.

What is the game's here: when an election is held, who may stand, how many votes each family
casts, the title given. The count itself (``result``) is the small common procedure of §10.2-10.6;
the battle and election helper's module (``election.py``) is meant to take it over once it lands.

- Bishop (§10.3): held when every Village of the Bishopric is controlled and it has no Bishop;
  candidates: male, unmarried, not a Bishop, not the King, not captive or excommunicated; votes:
  2 for its Principal Village, 1 per other Village controlled there, 2 per uncaptured Bishop in
  play since before this round, 3 per uncaptured Cardinal or Pope (the highest title only);
  more votes than every other candidate wins, at least 1 (§15 item 21); a tie elects nobody.
- Pope (§10.5): held when the title is free and at least 2 uncaptured Cardinals are in play;
  candidates: uncaptured Bishops and Cardinals; 1 vote per uncaptured Cardinal; more than half
  of the FOR votes cast (option ``pope_majority``: ``all`` counts every Cardinal's vote).
- King (§10.6): held when the title is free; candidates: male, no ecclesiastical title, Titled
  (option ``king_needs_title``: ``pl`` drops this), not captive; 1 vote per uncaptured Titled
  Lord; the winner needs 3 votes, more than any other candidate, and among them those of 2
  Bishops, or a Cardinal, or the Pope (a Cardinal's vote is not a Bishop's: §15 item 22, FR-25).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.flow import Position, Reveal
from engine.games.france1429 import control
from engine.games.france1429.moves import Candidate, Done, Vote, actor
from engine.games.france1429.refs import refuse
from engine.games.france1429.state import Election, FranceState, Lord, Outcome

OFFICES = ("bishop:1", "bishop:2", "bishop:3", "bishop:4", "bishop:5", "pope", "king")


def _free(lord: Lord) -> bool:
    return lord.captor is None and not lord.excommunicated


def ineligible(state: FranceState, office: str, lord: Lord) -> str | None:
    """Why ``lord`` may not stand for ``office``, as the code of the rule he breaks (a refusal
    names it, issue 27), or None: he may (§10.3, §10.5, §10.6)."""
    if lord.captor is not None:
        return "election/captive"
    if lord.excommunicated:
        return "election/excommunicated"
    male = state.sex(lord.id) == "male"
    checks: tuple[tuple[bool, str], ...]
    if office == "bishop":
        checks = (
            (not male, "election/not-male"),
            (lord.spouse is not None, "election/married"),
            (lord.bishop is not None, "election/a-bishop"),
            (lord.king, "election/the-king"),
        )
    elif office == "pope":
        checks = ((lord.bishop is None and not lord.cardinal, "election/not-clergy"),)
    else:
        clergy = lord.bishop is not None or lord.cardinal or lord.pope
        untitled = not lord.titled() and state.option("king_needs_title") != "pl"
        checks = (
            (not male, "election/not-male"),
            (clergy, "election/clergy"),
            (untitled, "election/untitled"),
            (lord.crown_prince, "election/crown-prince"),
        )
    return next((code for broken, code in checks if broken), None)


def eligible(state: FranceState, office: str, lord: Lord) -> bool:
    """May ``lord`` stand for ``office`` (§10.3, §10.5, §10.6)?"""
    return ineligible(state, office, lord) is None


def votes(state: FranceState, seat: str, office: str, bishopric: int = 0) -> int:
    """The votes ``seat`` casts in the election (§10.3, §10.5, §10.6)."""
    lords = [x for x in state.lords_of(seat) if _free(x)]
    if office == "pope":
        return sum(x.cardinal for x in lords)
    if office == "king":
        return sum(x.titled() for x in lords)
    total = 0
    for vid in state.rules.in_bishopric(bishopric):
        if control.controller(state, vid) == seat:
            total += 2 if state.rules.village(vid).principal else 1
    for x in lords:
        if x.cardinal or x.pope:
            total += 3
        elif x.bishop is not None and x.bishop_round < state.round:
            total += 2
    return total


def _held(state: FranceState, office: str) -> Election | None:
    """The election ``office`` names, if it is held now."""
    if office.startswith("bishop:"):
        number = int(office.split(":")[1])
        villages = state.rules.in_bishopric(number)
        if not villages or any(x.bishop == number for x in state.lords):
            return None
        if any(control.controller(state, v) is None for v in villages):
            return None
        return Election("bishop", number)
    if office == "pope":
        cardinals = [x for x in state.lords if x.cardinal and x.captor is None]
        if any(x.pope for x in state.lords) or len(cardinals) < 2:
            return None
        return Election("pope")
    if any(x.king for x in state.lords):
        return None
    return Election("king")


def next_election(state: FranceState) -> FranceState:
    """The next election held this Phase 1, or none (``done``) when no office is left: the round
    driver then goes on to the Draw step, which this sequence need not know."""
    queue = state.offices
    while queue:
        office, queue = queue[0], queue[1:]
        found = _held(state, office)
        if found is None:
            continue
        if not any(eligible(state, found.office, x) for x in state.lords):
            continue
        return replace(state, election=found, offices=queue)
    return replace(state, election=None, offices=())


def start(state: FranceState) -> FranceState:
    """The elections of Phase 1, lowest Bishopric first (§10.2): the first one held."""
    return next_election(replace(state, offices=OFFICES))


def done(state: FranceState) -> bool:
    """No election is under way: Phase 1's elections are over (or none is held)."""
    return state.election is None


def voters(state: FranceState) -> tuple[str, ...]:
    el = state.election
    assert el is not None
    return tuple(s for s in state.order() if votes(state, s, el.office, el.bishopric) > 0)


def candidate_problem(state: FranceState, c: Candidate) -> str | None:
    el = state.election
    if el is None or el.stage != "candidates":
        return "election/not-now"
    lord = state.find_lord(c.lord)
    if lord is None or lord.seat != c.seat:
        return "election/not-your-lord"
    if any(seat == c.seat for seat, _ in el.candidates):
        return "election/one-candidate"
    return ineligible(state, el.office, lord)


def _after_candidacy(state: FranceState) -> FranceState:
    el = state.election
    assert el is not None
    if el.turn + 1 < len(state.seats):
        return replace(state, election=replace(el, turn=el.turn + 1))
    if not el.candidates:
        return next_election(replace(state, election=None))
    state = replace(state, election=replace(el, stage="vote", turn=0))
    if not voters(state):
        return _decided(state, {}, (), "")
    return state


def declare(state: FranceState, c: Candidate) -> FranceState:
    why = candidate_problem(state, c)
    if why is not None:
        raise refuse(why, "election", lord=c.lord)
    el = state.election
    assert el is not None
    state = replace(state, election=replace(el, candidates=(*el.candidates, (c.seat, c.lord))))
    return _after_candidacy(state)


def pass_candidacy(state: FranceState) -> FranceState:
    return _after_candidacy(state)


def vote_problem(state: FranceState, v: Vote) -> str | None:
    el = state.election
    if el is None or el.stage != "vote":
        return "election/not-now"
    if v.seat not in voters(state):
        return "election/no-votes"
    if not (0 <= v.vote_for <= len(el.candidates) and 0 <= v.decoy <= len(el.candidates)):
        return "election/not-a-candidate"
    return None


def check_vote(state: FranceState, v: Vote) -> FranceState:
    why = vote_problem(state, v)
    if why is not None:
        raise refuse(why, "election", lord=str(v.vote_for or v.decoy))
    return state


def result(state: FranceState, backing: dict[str, list[str]]) -> str:
    """The winner (empty: nobody) given each candidate's backing families (§10.3-10.6). A
    candidate who died or may no longer stand since he was declared (an Opportunity card played
    during the election, FR-10) wins nothing: the votes on him are lost."""
    el = state.election
    assert el is not None
    alive = {lid: state.find_lord(lid) for lid in backing}
    standing = {lid for lid, x in alive.items() if x is not None and eligible(state, el.office, x)}
    count = {lid: sum(votes(state, s, el.office, el.bishopric) for s in seats)
             for lid, seats in backing.items() if lid in standing}  # fmt: skip
    if not count:
        return ""
    top = max(count.values())
    leaders = [lid for lid, n in count.items() if n == top]
    if len(leaders) != 1 or top < 1:
        return ""
    winner = leaders[0]
    if el.office == "pope":
        if state.option("pope_majority") == "all":
            cast = sum(x.cardinal for x in state.lords if x.captor is None)
        else:
            cast = sum(count.values())
        return winner if 2 * top > cast else ""
    if el.office == "king":
        lords = [x for s in backing[winner] for x in state.lords_of(s) if _free(x) and x.titled()]
        bishops = sum(x.bishop is not None and not x.cardinal and not x.pope for x in lords)
        church = bishops >= 2 or any(x.cardinal for x in lords) or any(x.pope for x in lords)
        return winner if top >= 3 and church else ""
    return winner


def reveal(state: FranceState, sealed: Reveal) -> FranceState:
    """Every family's markers turned at once (§10.2 step 3)."""
    el = state.election
    assert el is not None
    backing: dict[str, list[str]] = {lid: [] for _, lid in el.candidates}
    markers = []
    names = ["", *(lid for _, lid in el.candidates)]
    for seat, move in sealed.moves:
        assert isinstance(move, Vote)
        markers.append((seat, names[move.vote_for], names[move.decoy]))
        if move.vote_for:
            backing[names[move.vote_for]].append(seat)
    return _decided(state, backing, tuple(markers), result(state, backing))


def _decided(
    state: FranceState,
    backing: dict[str, list[str]],
    markers: tuple[tuple[str, str, str], ...],
    winner: str,
) -> FranceState:
    el = state.election
    assert el is not None
    count = {lid: sum(votes(state, s, el.office, el.bishopric) for s in seats)
             for lid, seats in backing.items()}  # fmt: skip
    outcome = Outcome(el.office, el.bishopric, count, markers, winner)
    state = replace(state, last_election=outcome, election=None)
    if winner:
        lord = state.lord(winner)
        if el.office == "bishop":
            lord = replace(lord, bishop=el.bishopric, bishop_round=state.round,
                           crown_prince=False)  # fmt: skip
        elif el.office == "pope":
            lord = replace(lord, pope=True)
        else:
            lord = replace(lord, king=True)
            for x in state.lords:
                if x.regent:
                    state = state.with_lord(replace(x, regent=False))
            if lord.spouse is not None and state.find_lord(lord.spouse) is not None:
                state = state.with_lord(replace(state.lord(lord.spouse), queen=True))
        state = state.with_lord(lord)
    return next_election(state)


def candidate_moves(state: FranceState, seat: str) -> list[Candidate]:
    el = state.election
    if el is None or el.stage != "candidates":
        return []
    out = [Candidate(seat, x.id) for x in state.lords_of(seat)]
    return [c for c in out if candidate_problem(state, c) is None]


def vote_moves(state: FranceState, seat: str) -> list[Vote]:
    el = state.election
    if el is None or el.stage != "vote" or seat not in voters(state):
        return []
    numbers = range(len(el.candidates) + 1)
    return [Vote(seat, f, d) for f in numbers for d in numbers]


class ElectionSequence:
    """Phase 1's elections as one sub-game (``sequence.Sequence``): for each office held, the
    candidacies in turn, then the sealed vote (its reveal is the game's ``reveal``); done when
    no office is left (``done``)."""

    name = "election"
    windowed = True
    """Opportunity cards may be played while the candidates are declared (EN §2.4 "any time",
    PL FAQ L2478-2480: between the candidacies and the vote), not during the sealed vote."""

    def running(self, state: FranceState) -> bool:
        return not done(state)

    def position(self, state: FranceState) -> Position:
        el = state.election
        assert el is not None
        if el.stage == "candidates":
            return Position("candidates", (state.order()[el.turn],), stack=(self.name,))
        return Position("vote", voters(state), stack=(self.name,))

    def legal_moves(self, state: FranceState) -> list[Any]:
        el = state.election
        assert el is not None
        if el.stage == "candidates":
            seat = state.order()[el.turn]
            return [*candidate_moves(state, seat), Done(seat)]
        sealed = set(state.sealed.seats())
        return [v for s in voters(state) if s not in sealed
                for v in vote_moves(state, s)]  # fmt: skip

    def report(self, state: FranceState, rng: random.Random) -> Any:
        """Nothing: families act in every step (the reveal is the core's, not the table's)."""
        return None

    def apply(self, state: FranceState, move: Any) -> FranceState:
        """A candidacy (or a pass) in turn, or a sealed vote checked (sealed by the core)."""
        el = state.election
        assert el is not None
        if el.stage == "candidates":
            if actor(move) != state.order()[el.turn]:
                raise refuse("round/not-now", "round", kind=type(move).kind)
            if isinstance(move, Candidate):
                return declare(state, move)
            if isinstance(move, Done):
                return pass_candidacy(state)
        if isinstance(move, Vote):
            return check_vote(state, move)
        raise refuse("round/not-now", "round", kind=type(move).kind)


ELECTIONS = ElectionSequence()
