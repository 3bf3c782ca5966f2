"""Who acts, what a move does, and how the game moves from phase to phase (§4.1).

``apply`` runs a move through its phase module (which raises ``Refused`` with every violation)
and then ``advance`` walks the phases forward as far as nobody has to act: an Action Phase with
no pawn left becomes the Quest Phase, a finished Quest Phase the Refresh Phase, and so on, with
Knight-against-Knight duels resolved on the way. ``check`` is ``apply`` with the result thrown
away, so the two can never disagree.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from engine.evolve import evolve
from engine.game import TABLE
from engine.games.glory import actions, duel, quests, refresh, setup_phase, solo, titles_phase
from engine.games.glory import tournament as tour
from engine.games.glory.components import COLUMN, PUBLIC_TITLES, ROUNDS
from engine.games.glory.data_types import DECKS, JoustSection, PasSection
from engine.games.glory.duel_state import actor as duel_actor
from engine.games.glory.effects import box, multiset, remove, set_player
from engine.games.glory.effects import carries_special_ally as _special
from engine.games.glory.refs import Refused, v
from engine.games.glory.state import (
    ChooseCharacter,
    DealHands,
    DrawCards,
    DuelStep,
    FillBracket,
    GloryState,
    KeepCards,
    KeepTitles,
    Move,
    NextTournament,
    Place,
    PlayQuest,
    Refill,
    Register,
    SetupDeal,
    SoloDraw,
    StopQuests,
    TournamentDeal,
    TryTitle,
)
from engine.violations import RuleViolation, Violation

# --- who acts ------------------------------------------------------------------------------


def to_act(state: GloryState) -> tuple[str, ...]:
    """The seats (or ``TABLE``) the game waits for; empty once it is over."""
    ph = state.phase
    if ph == "over":
        return ()
    pending = state.pending
    if pending is not None:
        if pending.kind == "duel":
            assert state.duel is not None
            return _duel_actors(state)
        if pending.kind == "keep-titles":
            return (pending.seat,)
        return (TABLE,)
    if ph in ("setup", "hands", "refresh"):
        return (TABLE,)
    if ph == "characters":
        return tuple(p.seat for p in state.players if not p.character and not p.sir)
    if ph == "keep":
        return setup_phase.keep_pending(state)
    if ph == "action":
        seat = actions.action_actor(state)
        if seat is not None and state.player(seat).sir:
            return (TABLE,)
        return (seat,) if seat else ()
    if ph in ("quest", "final-quest"):
        seat = quests.quest_actor(state)
        return (seat,) if seat else ()
    if ph == "registration":
        if tour.needs_fill(state) and tour.registration_actor(state) is None:
            return (TABLE,)
        seat = tour.registration_actor(state)
        return (seat,) if seat else ()  # SIR's turns are taken in ``advance``
    if ph == "tournament":
        seat = quests.quest_actor(state)
        if seat is not None:
            return (seat,)
        return (TABLE,) if state.round < ROUNDS else ()
    if ph == "titles":
        return titles_phase.actors(state)
    return ()


def _duel_actors(state: GloryState) -> tuple[str, ...]:
    assert state.duel is not None
    out = duel.to_act(state.duel)
    # SIR decides nothing: it fights as a Knight (Appendix A)
    return out


def actor(move: Move) -> str:
    if isinstance(move, DuelStep):
        return duel_actor(move.move)
    if isinstance(move, (SetupDeal, DealHands, DrawCards, Refill, FillBracket,
                         NextTournament, SoloDraw)):  # fmt: skip
        return TABLE
    return move.seat


# --- applying ------------------------------------------------------------------------------


def check(state: GloryState, move: Move) -> list[Violation]:
    try:
        apply(state, move)
    except Refused as exc:
        return exc.violations
    except RuleViolation as exc:
        return exc.violations
    return []


def apply(state: GloryState, move: Move) -> GloryState:
    """The state after ``move``; ``Refused`` when the rules forbid it."""
    if state.phase == "over":
        raise Refused(v("game/over", "winner"))
    waiting = to_act(state)
    who = actor(move)
    if who not in waiting:
        raise Refused(v("game/not-your-turn", "phases", seat=who, waiting=", ".join(waiting)
                        or "-", phase=state.phase))  # fmt: skip
    state = _dispatch(state, move)
    return advance(state)


def attempt(state: GloryState, move: Move) -> GloryState:
    """``apply`` as the game module's ``attempt`` answers it: every problem a ``RuleViolation``,
    and ``move_from`` marking this move's first ledger line (so ``last_lines`` shows only what
    this move gained). Here, not in ``game``, so the option previews can apply a move without
    reaching up to the game module."""
    try:
        after = apply(state, move)
    except Refused as exc:
        raise RuleViolation(exc.violations) from None
    mark = len(state.ledger)
    return after if after.move_from == mark else evolve(after, move_from=mark)


def _dispatch(state: GloryState, move: Move) -> GloryState:
    ph = state.phase
    pending = state.pending
    if isinstance(move, DuelStep):
        return _duel_step(state, move)
    if pending is not None:
        if isinstance(move, DrawCards) and pending.kind in ("draw-titles", "draw-quests"):
            return _draw(state, move)
        if isinstance(move, KeepTitles) and pending.kind == "keep-titles":
            return _keep_titles(state, move)
        raise Refused(v("game/pending", "phases", kind=pending.kind, seat=pending.seat))
    if isinstance(move, SetupDeal) and ph == "setup":
        return setup_phase.apply_deal(state, move)
    if isinstance(move, ChooseCharacter) and ph == "characters":
        return setup_phase.apply_choose(state, move)
    if isinstance(move, DealHands) and ph == "hands":
        return setup_phase.apply_hands(state, move)
    if isinstance(move, KeepCards) and ph == "keep":
        state = setup_phase.apply_keep(state, move)
        if not setup_phase.keep_pending(state):
            state = refresh.start_round(state)
        return state
    if isinstance(move, Place) and ph == "action":
        return actions.apply_place(state, move)
    if isinstance(move, SoloDraw):
        return solo.apply_draw(state, move)
    if isinstance(move, PlayQuest) and ph in ("quest", "final-quest", "tournament"):
        return quests.apply_play(state, move)
    if isinstance(move, StopQuests) and ph in ("quest", "final-quest", "tournament"):
        return quests.apply_stop(state, move)
    if isinstance(move, Refill) and ph == "refresh":
        return refresh.apply_refill(state, move)
    if isinstance(move, Register) and ph == "registration":
        return tour.apply_register(state, move)
    if isinstance(move, FillBracket) and ph == "registration":
        return tour.apply_fill(state, move)
    if isinstance(move, NextTournament) and ph == "tournament":
        state = tour.clear(state)
        state = tour.apply_deal(state, move.deal, state.round + 1)
        return refresh.start_round(state)
    if isinstance(move, TryTitle) and ph == "titles":
        return titles_phase.apply_try(state, move)
    raise Refused(v("game/wrong-phase", "phases", move=type(move).kind, phase=ph))


def _duel_step(state: GloryState, move: DuelStep) -> GloryState:
    d = state.duel
    pending = state.pending
    if d is None or pending is None or pending.kind != "duel":
        raise Refused(v("game/no-duel", "phases"))
    problems = duel.check(d, move.move)
    if problems:
        raise Refused(*problems)
    d = duel.apply_unchecked(d, move.move)
    state = evolve(state, duel=d)
    if not duel.is_over(d):
        return state
    source = pending.source
    state, done = tour.finish_duel(state)
    if source.startswith("tournament:"):
        return tour.record(state, done, source.split(":", 1)[1])
    if source.startswith("challenge:"):
        return quests.finish_challenge(state, done, source)
    if source.startswith("title:"):
        return titles_phase.finish_duel(state, done, source)
    return state


def _draw(state: GloryState, move: DrawCards) -> GloryState:
    pending = state.pending
    assert pending is not None
    if move.seat != pending.seat or len(move.cards) != pending.count:
        raise Refused(v("draw/count", "phases", seat=pending.seat, count=pending.count))
    if pending.kind == "draw-titles":
        left = remove(state.title_deck, move.cards)
        if left is None:
            raise Refused(v("draw/not-in-deck", "new-goal"))
        keep = evolve(pending, kind="keep-titles", cards=tuple(move.cards))
        state = evolve(state, title_deck=left, pending=keep)
        return solo.keep_goal(state) if state.player(pending.seat).sir else state
    decks = dict(state.quest_decks)
    b = box(state)
    want = Counter(pending.decks) if pending.decks else None
    got = Counter(b.quests[c].deck for c in move.cards if c in b.quests)
    if any(c not in b.quests for c in move.cards) or (want is not None and got != want):
        raise Refused(v("draw/wrong-decks", "quest-plans",
                        decks=", ".join(pending.decks) or "any"))  # fmt: skip
    for c in move.cards:
        deck = b.quests[c].deck
        left_deck = remove(decks.get(deck, ()), [c])
        if left_deck is None:
            raise Refused(v("draw/not-in-deck", "quest-plans"))
        decks[deck] = left_deck
    p = state.player(move.seat)
    state = set_player(state, evolve(p, hand=multiset((*p.hand, *move.cards))))
    return evolve(state, quest_decks=decks, pending=None)


def _keep_titles(state: GloryState, move: KeepTitles) -> GloryState:
    pending = state.pending
    assert pending is not None
    rest = remove(pending.cards, move.keep)
    if move.seat != pending.seat or rest is None or len(move.keep) != pending.keep:
        raise Refused(v("titles/keep", "new-goal", count=pending.keep,
                        cards=", ".join(pending.cards)))  # fmt: skip
    p = state.player(move.seat)
    state = set_player(state, evolve(p, goals=(*p.goals, *move.keep)))
    return evolve(state, title_discard=multiset((*state.title_discard, *rest)), pending=None)


# --- phases --------------------------------------------------------------------------------


def advance(state: GloryState) -> GloryState:
    """Walk the phases forward while nobody has to act (§4.1)."""
    for _ in range(1000):
        if state.pending is not None or state.phase in ("setup", "characters", "hands", "keep",
                                                        "refresh", "over"):  # fmt: skip
            return state
        ph = state.phase
        if ph == "action":
            if any(p.pawns > 0 for p in state.players):
                if actions.action_actor(state) is None:
                    state = actions.next_turn(state)
                return state
            state = evolve(quests.reset_plays(state), phase="quest")
        elif ph == "quest":
            if quests.quest_actor(state) is not None:
                return state
            state = refresh.enter_refresh(state)
        elif ph == "registration":
            state = tour.advance_registration(state)
            seat = tour.registration_actor(state)
            if seat is not None and state.player(seat).sir:
                state = solo.register(state, seat)  # nobody decides for SIR (Appendix A)
                continue
            if seat is not None or tour.needs_fill(state):
                return state
            state = evolve(state, phase="tournament", turn=0)
        elif ph == "tournament":
            if state.duel is not None:
                return state
            if not tour.tournament_over(state):
                state = tour.start_next_duel(state)
                continue
            if quests.quest_actor(state) is not None:
                return state
            if state.round < ROUNDS:
                return state
            state = tour.clear(state)
            state = evolve(quests.reset_plays(state), phase="final-quest")
        elif ph == "final-quest":
            if quests.quest_actor(state) is not None:
                return state
            state = evolve(state, phase="titles", turn=0)
        elif ph == "titles":
            if titles_phase.actors(state):
                return state
            state = titles_phase.score_all(state)
            return evolve(state, phase="over")
        else:
            return state
    raise AssertionError("the phases did not settle")


# --- what may be done ----------------------------------------------------------------------


def legal_moves(state: GloryState) -> list[Move]:
    """Every legal non-chance move of the seats in ``to_act``."""
    out: list[Move] = []
    for seat in to_act(state):
        if seat != TABLE:
            out += legal_moves_of(state, seat)
    return out


def legal_moves_of(state: GloryState, seat: str) -> list[Move]:
    """The legal moves of one seat (for its prompt).

    The phase modules generate their candidates under the same rules their ``apply`` checks, so
    only a duel's decisions are filtered (by the duel engine alone). Random play through the
    checked ``apply`` and a property test hold the generators to that.
    """
    candidates = _candidates(state, seat)
    if state.duel is not None and state.pending is not None and state.pending.kind == "duel":
        d = state.duel
        return [m for m in candidates if isinstance(m, DuelStep) and not duel.check(d, m.move)]
    return candidates


def _candidates(state: GloryState, seat: str) -> list[Move]:
    pending = state.pending
    ph = state.phase
    if pending is not None:
        if pending.kind == "duel":
            assert state.duel is not None
            return [DuelStep(m) for m in duel.legal_moves(state.duel) if duel_actor(m) == seat]
        if pending.kind == "keep-titles":
            return [KeepTitles(seat, tuple(c)) for c in
                    sorted(set(combinations(sorted(pending.cards), pending.keep)))]  # fmt: skip
        return []
    if ph == "characters":
        return [ChooseCharacter(seat, c) for c in state.player(seat).offered]
    if ph == "keep":
        return _keep_moves(state, seat)
    if ph == "action":
        return list(actions.legal_places(state, seat))
    if ph in ("quest", "final-quest", "tournament"):
        return list(quests.legal_quests(state, seat))
    if ph == "registration":
        return _register_moves(state, seat)
    if ph == "titles":
        return list(titles_phase.legal(state, seat))
    return []


def _keep_moves(state: GloryState, seat: str) -> list[Move]:
    p = state.player(seat)
    c = box(state).characters[p.character]
    keep_n = min(c.titles_kept or 0, len(p.offered))
    starting = setup_phase.return_limit(state, p)
    goals = sorted(set(combinations(sorted(p.offered), keep_n)))
    returns: list[tuple[str, ...]] = [()]
    for k in range(1, min(starting, len(p.hand)) + 1):
        returns += sorted(set(combinations(sorted(p.hand), k)))
    return [KeepCards(seat, tuple(g), tuple(r)) for g in goals for r in returns]


def _register_moves(state: GloryState, seat: str) -> list[Move]:
    t = state.tournament
    assert t is not None
    out: list[Move] = []
    if t.type == "pas-d-armes":
        if state.options.get("pas_register", "mandatory") != "mandatory":
            out.append(Register(seat))
        return out + [Register(seat, c, s) for c, s in tour.free_knights(t, seat)]
    waiting = tour.joust_unregistered(state)
    if waiting and waiting[-1] != seat:
        out.append(Register(seat))
    return out + [Register(seat, slot=i) for i, e in enumerate(t.bracket[0]) if e is None]


# --- a simulated table ---------------------------------------------------------------------


def sample_chance(state: GloryState, rng: random.Random) -> Move | None:
    """What a shuffled physical table would show next, drawn with ``rng``."""
    if TABLE not in to_act(state):
        return None
    pending = state.pending
    if pending is not None:
        if pending.kind == "duel":
            assert state.duel is not None
            m = duel.sample_chance(state.duel, rng)
            return DuelStep(m) if m is not None else None
        if pending.kind == "draw-titles":
            return DrawCards(pending.seat, tuple(rng.sample(list(state.title_deck), pending.count)))
        if pending.kind == "draw-quests":
            cards: list[str] = []
            decks = {d: list(state.quest_decks.get(d, ())) for d in DECKS}
            chosen = list(pending.decks)
            left = {d: len(decks[d]) for d in DECKS}
            while len(chosen) < pending.count:  # any decks: never more cards than a deck has
                chosen.append(rng.choice([d for d in DECKS if left[d]]))
                left[chosen[-1]] -= 1
            for deck in chosen:
                pick = decks[deck].pop(rng.randrange(len(decks[deck])))
                cards.append(pick)
            return DrawCards(pending.seat, tuple(cards))
        return None
    ph = state.phase
    if ph == "setup":
        return _sample_setup(state, rng)
    if ph == "hands":
        return _sample_hands(state, rng)
    if ph == "refresh":
        return _sample_refill(state, rng)
    if ph == "registration":
        if tour.needs_fill(state):
            return _sample_fill(state, rng)
        return solo.sample(state, rng)
    if ph == "tournament":
        return NextTournament(_sample_tournament(tour.clear(state), rng, state.round + 1))
    if ph == "action":
        return solo.sample(state, rng)
    return None


def _draw_n(pool: list[Any], n: int, rng: random.Random) -> list[Any]:
    picks = []
    for _ in range(min(n, len(pool))):
        picks.append(pool.pop(rng.randrange(len(pool))))
    return picks


def _sample_setup(state: GloryState, rng: random.Random) -> SetupDeal:
    b = box(state)
    titles = _draw_n(list(state.title_deck), PUBLIC_TITLES, rng)
    first = bool(state.options.get("first_game"))
    chars = {lv: [c.id for c in b.data.characters if c.level == lv for _ in range(c.count)]
             for lv in (1, 2, 3)}  # fmt: skip
    offers: dict[str, tuple[str, ...]] = {}
    for p in state.players:
        if p.sir:
            offers[p.seat] = ()
            continue
        levels = (1,) if first else (1, 2, 3)
        offers[p.seat] = tuple(_draw_n(chars[lv], 1, rng)[0] for lv in levels)
    order = [p.seat for p in state.players]
    rng.shuffle(order)
    if state.options.get("solo"):
        human = [p.seat for p in state.players if not p.sir]
        order = human + [s for s in order if s not in human]
    track, stacks = _sample_track(state, dict(state.ally_stacks), rng, setup=True)
    columns = {d: tuple(_draw_n(list(state.quest_decks.get(d, ())), COLUMN, rng))
               for d in DECKS}  # fmt: skip
    events = []
    for r in (1, 2, 3):
        pool = sorted(e.id for e in b.data.events if e.round == r)
        events.append(rng.choice(pool))
    first_event = b.events[events[0]]
    event_ally = None
    if first_event.kind == "action" and _special(first_event) and stacks.get("special"):
        event_ally = _draw_n(list(stacks["special"]), 1, rng)[0]
    deal = _sample_tournament(state, rng, 1)
    return SetupDeal(tuple(titles), offers, tuple(order), tuple(track), columns,
                     tuple(events), deal, event_ally)  # fmt: skip


def _sample_track(
    state: GloryState, stacks: dict[str, tuple[str, ...]], rng: random.Random, setup: bool
) -> tuple[list[Any], dict[str, tuple[str, ...]]]:
    data = box(state).data
    n = len(state.players)
    spaces = setup_phase.open_spaces(data, n)
    pools = {k: list(v_) for k, v_ in stacks.items()}
    track: list[Any] = [None] * len(data.ally_track)
    if setup:
        for i, space in enumerate(data.ally_track):
            if not spaces[i]:
                continue
            name = "special" if space.special else "I"
            got = _draw_n(pools.setdefault(name, []), 1, rng)
            track[i] = got[0] if got else None
    else:
        for i, name in refresh.refill_plan(state):
            track[i] = _draw_n(pools[name], 1, rng)[0]
    return track, {k: multiset(v_) for k, v_ in pools.items()}


def _sample_hands(state: GloryState, rng: random.Random) -> DealHands:
    titles_pool = list(state.title_deck)
    decks = {d: list(state.quest_decks.get(d, ())) for d in DECKS}
    special = list(state.ally_stacks.get("special", ()))
    titles: dict[str, tuple[str, ...]] = {}
    hands: dict[str, tuple[str, ...]] = {}
    allies: dict[str, tuple[Any, ...]] = {}
    for p in state.players:
        n_titles, quests_n, n_allies = setup_phase.hand_counts(state, p.seat)
        titles[p.seat] = tuple(_draw_n(titles_pool, n_titles, rng))
        cards: list[str] = []
        for deck, n in quests_n.items():
            cards += _draw_n(decks[deck], n, rng)  # type: ignore[index]
        hands[p.seat] = tuple(cards)
        allies[p.seat] = tuple(_draw_n(special, n_allies, rng))
    return DealHands(titles, hands, allies)


def _sample_refill(state: GloryState, rng: random.Random) -> Refill:
    track, stacks = _sample_track(state, dict(state.ally_stacks), rng, setup=False)
    columns = {d: tuple(_draw_n(list(state.quest_decks.get(d, ())), COLUMN, rng))
               for d in DECKS}  # fmt: skip
    event_ally = None
    if state.round < len(state.events):
        nxt = box(state).events[state.events[state.round]]
        if nxt.kind == "action" and _special(nxt) and stacks.get("special"):
            event_ally = _draw_n(list(stacks["special"]), 1, rng)[0]
    return Refill(tuple(track), columns, event_ally)


def _sample_tournament(state: GloryState, rng: random.Random, round_no: int) -> TournamentDeal:
    b = box(state)
    kind = state.options.get("tournament", "joust")
    n = len(state.players)
    cards = sorted(c.id for c in b.data.tournaments if c.type == kind and n in c.players
                   and c.id not in state.used_tournaments)  # fmt: skip
    card = b.tournaments[rng.choice(cards)]
    sec = tour.section(card, round_no)
    pool = list(state.knight_pool)
    by_type: dict[str, list[str]] = {}
    for name in pool:
        by_type.setdefault(str(b.data.knights[name].type), []).append(name)

    def take(kind_: str) -> str:
        names = by_type[kind_]
        return names.pop(rng.randrange(len(names)))

    knights: list[str] = []
    if isinstance(sec, PasSection):
        for i, types in enumerate(sec.cities):
            city = [take(t) for t in types]
            city.sort(key=lambda k: -(b.data.knights[k].glory or 0))
            if i:
                knights.append("|")
            knights += city
    else:
        assert isinstance(sec, JoustSection)
        knights = [take(sec.starting[s]) if s in sec.starting else "" for s in range(sec.slots)]
    prize = ""
    if kind == "joust" and not state.options.get("first_game"):
        unused = [p.id for p in b.data.prizes if p.id not in state.used_prizes]
        prize = rng.choice(unused) if unused else ""
    return TournamentDeal(card.id, tuple(knights), prize)


def _sample_fill(state: GloryState, rng: random.Random) -> FillBracket:
    t = state.tournament
    assert t is not None
    b = box(state)
    sec = tour.section(b.tournaments[t.card], state.round)
    assert isinstance(sec, JoustSection)
    empty = [i for i, e in enumerate(t.bracket[0]) if e is None]
    by_type: dict[str, list[str]] = {}
    for name in state.knight_pool:
        by_type.setdefault(str(b.data.knights[name].type), []).append(name)
    out = []
    for kind in sec.after[: len(empty)]:
        names = by_type[kind]
        out.append(names.pop(rng.randrange(len(names))))
    return FillBracket(tuple(out))
