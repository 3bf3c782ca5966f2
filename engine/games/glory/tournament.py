"""Tournaments (§3.3, §4.5, §4.6): the board's setup, Registration, and the duels in order.

Pas d'armes: three cities, Knights by Glory descending, a crest beside a Knight challenges it;
the duels run Florence → Paris → Munich, left to right [L984-986]. Joust à plaisance: a bracket
whose bottom row holds starting Knights, registered players and the Knights who register after
them; stage by stage, left to right, Knights meeting Knights without dice [L975-992].

A duel being fought lives in ``GloryState.duel`` (the duel engine's ``DuelState``); its sides are
named by seat (players, SIR) or by the Knight's name. When it ends, ``finish_duel`` copies each
player's tokens and Glory back from the duel and records the result.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from engine.evolve import evolve
from engine.games.glory import duel
from engine.games.glory.components import KnightData, missing_data
from engine.games.glory.data_types import (
    Box,
    JoustSection,
    PasSection,
    RivalLevel,
    TournamentCard,
)
from engine.games.glory.duel_state import Duellist, DuelState, Knight, Side
from engine.games.glory.effects import (
    add_glory,
    apply_reward,
    box,
    multiset,
    remove,
    set_player,
)
from engine.games.glory.refs import Refused, refuse_if, v
from engine.games.glory.state import (
    DuelResult,
    Entrant,
    FillBracket,
    GloryState,
    KnightSlot,
    Pending,
    Player,
    Register,
    Tournament,
    TournamentDeal,
)
from engine.violations import Violation

CITY_NAMES = ("Florence", "Paris", "Munich")
"""The Pas d'armes cities, top to bottom [L119-123, L984]."""
MAX_CITIES = 3
REGISTRATION_SWEEPS = 2
"""Registration places at most one crest per sweep, two sweeps [L604-614]."""
STAGE_QUESTS = {0: 2, 1: 1}
"""Quest cards a Joust player knocked out in stage 1 (2) or 2 (1) may play [L882-889]."""


# --- the board's setup -------------------------------------------------------------------


def section(card: TournamentCard, round_no: int) -> JoustSection | PasSection:
    sections = card.joust if card.type == "joust" else card.pas
    if sections is None:
        raise missing_data(f"the round sections of Tournament card {card.id}",
                           "set up the Tournament", "the game data file")  # fmt: skip
    return sections[round_no - 1]


def knight_data(b: Box, name: str) -> KnightData:
    return b.data.knights[name]


def apply_deal(state: GloryState, deal: TournamentDeal, round_no: int) -> GloryState:
    """Lay the Tournament of ``round_no`` as the table reports it (§3.3)."""
    b = box(state)
    kind = state.options.get("tournament", "joust")
    card = b.tournaments.get(deal.card)
    n = len(state.players)
    if card is None or card.type != kind or n not in card.players:
        raise Refused(v("tournament/card", "tournament-setup", card=deal.card, type=kind,
                        players=n))  # fmt: skip
    if deal.card in state.used_tournaments:
        raise Refused(v("tournament/card-used", "tournament-setup", card=deal.card))
    sec = section(card, round_no)
    pool = state.knight_pool
    names = [k for k in deal.knights if k and k != "|"]
    left = remove(pool, names)
    problems: list[Violation] = []
    if left is None or len(set(names)) != len(names):
        problems.append(v("tournament/knight-unavailable", "tournament-setup"))
        left = pool
    unknown = [k for k in names if k not in b.data.knights]
    if unknown:
        raise Refused(v("tournament/unknown-knight", "tournament-setup", knight=unknown[0]))
    t: Tournament
    if isinstance(sec, PasSection):
        cities = _split_cities(deal.knights)
        problems += _check_cities(b, sec, cities)
        t = Tournament(type="pas-d-armes", card=card.id,
                       cities=tuple(tuple(KnightSlot(k) for k in c) for c in cities))  # fmt: skip
    else:
        problems += _check_joust(b, sec, deal.knights)
        row = tuple(Entrant(k, False) if k else None for k in deal.knights)
        t = Tournament(type="joust", card=card.id, bracket=(row,))
    first = bool(state.options.get("first_game"))
    if kind == "joust" and not first and b.data.prizes:
        unused = [p.id for p in b.data.prizes if p.id not in state.used_prizes]
        if deal.prize not in unused and unused:
            problems.append(v("tournament/prize", "joust-prize", prize=deal.prize or "-"))
    elif deal.prize:
        problems.append(v("tournament/no-prize", "joust-prize"))
    refuse_if(problems)
    t = evolve(t, prize=deal.prize)
    return evolve(
        state,
        tournament=t,
        knight_pool=left,
        used_tournaments=(*state.used_tournaments, card.id),
        used_prizes=(*state.used_prizes, deal.prize) if deal.prize else state.used_prizes,
    )


def _split_cities(knights: tuple[str, ...]) -> list[list[str]]:
    cities: list[list[str]] = [[]]
    for k in knights:
        if k == "|":
            cities.append([])
        else:
            cities[-1].append(k)
    return cities


def _check_cities(b: Box, sec: PasSection, cities: list[list[str]]) -> list[Violation]:
    if len(cities) != MAX_CITIES:
        return [v("tournament/cities", "tournament-setup")]
    problems = []
    for i, (names, types) in enumerate(zip(cities, sec.cities, strict=True)):
        got = Counter(knight_data(b, k).type for k in names)
        if got != Counter(types):
            problems.append(v("tournament/city-types", "tournament-setup", city=CITY_NAMES[i],
                              types=", ".join(types)))  # fmt: skip
        glories = [knight_data(b, k).glory for k in names]
        if None in glories:
            raise missing_data("the Glory value of a Knight in " + CITY_NAMES[i],
                               "order the city's Knights", "the game data file")  # fmt: skip
        if glories != sorted(glories, reverse=True):  # type: ignore[type-var]
            problems.append(v("tournament/city-order", "tournament-setup", city=CITY_NAMES[i]))
    return problems


def _check_joust(b: Box, sec: JoustSection, knights: tuple[str, ...]) -> list[Violation]:
    if len(knights) != sec.slots:
        return [v("tournament/slots", "tournament-setup", slots=sec.slots)]
    problems = []
    for slot, name in enumerate(knights):
        want = sec.starting.get(slot)
        if want is None and name:
            problems.append(v("tournament/slot-not-starting", "tournament-setup", slot=slot + 1))
        elif want is not None and (not name or knight_data(b, name).type != want):
            problems.append(v("tournament/slot-type", "tournament-setup", slot=slot + 1,
                              type=want))  # fmt: skip
    return problems


def clear(state: GloryState) -> GloryState:
    """After the Tournament the Knights go back to their stacks [L996-1000] (GL decision)."""
    t = state.tournament
    if t is None:
        return state
    names = [s.knight for c in t.cities for s in c]
    names += [e.name for e in t.bracket[0] if e is not None and not e.player] if t.bracket else []
    return evolve(state, tournament=None, knight_pool=multiset((*state.knight_pool, *names)))


# --- Registration --------------------------------------------------------------------------


def crests(t: Tournament, seat: str) -> int:
    if t.type == "pas-d-armes":
        return sum(1 for c in t.cities for s in c if s.crest == seat)
    return sum(1 for e in t.bracket[0] if e is not None and e.name == seat)


def cities_of(t: Tournament, seat: str) -> set[int]:
    return {i for i, c in enumerate(t.cities) for s in c if s.crest == seat}


def free_knights(t: Tournament, seat: str) -> list[tuple[int, int]]:
    """(city, slot) of Knights ``seat`` may still challenge: free, in a city it is not in."""
    mine = cities_of(t, seat)
    return [(i, j) for i, c in enumerate(t.cities) if i not in mine
            for j, s in enumerate(c) if not s.crest]  # fmt: skip


def registrants(state: GloryState) -> tuple[str, ...]:
    """Who registers: every player, and SIR only in the Rival scenario (Appendix A)."""
    return tuple(s for s in state.order if not state.player(s).sir
                 or state.options.get("solo") == "rywal")  # fmt: skip


def pas_can_place(state: GloryState, seat: str) -> bool:
    t = state.tournament
    assert t is not None
    placed = crests(t, seat) - state.player(seat).herald_uses
    return (placed <= t.sweep and len(cities_of(t, seat)) < MAX_CITIES
            and bool(free_knights(t, seat)))  # fmt: skip


def joust_unregistered(state: GloryState) -> tuple[str, ...]:
    t = state.tournament
    assert t is not None
    return tuple(s for s in registrants(state) if crests(t, s) == 0)


def registration_actor(state: GloryState) -> str | None:
    """Whose crest comes next, or None when Registration is over."""
    t = state.tournament
    assert t is not None
    seats = registrants(state)
    if t.type == "pas-d-armes":
        while t.sweep < REGISTRATION_SWEEPS:
            for k in range(state.turn, len(seats)):
                if seats[k] not in t.passed and pas_can_place(state, seats[k]):
                    return seats[k]
            return None
        return None
    waiting = joust_unregistered(state)
    if not waiting or not _empty_slots(t):
        return None
    n = len(seats)
    for k in range(n):
        seat = seats[(state.turn + k) % n]
        if seat in waiting:
            return seat
    return None


def _empty_slots(t: Tournament) -> list[int]:
    return [i for i, e in enumerate(t.bracket[0]) if e is None]


def advance_registration(state: GloryState) -> GloryState:
    """Move the turn past seats that cannot act; end a Pas d'armes sweep when all had theirs."""
    t = state.tournament
    assert t is not None
    if t.type == "pas-d-armes":
        seats = registrants(state)
        while t.sweep < REGISTRATION_SWEEPS:
            actor = None
            for k in range(state.turn, len(seats)):
                if seats[k] not in t.passed and pas_can_place(state, seats[k]):
                    actor = k
                    break
            if actor is not None:
                return evolve(state, turn=actor)
            t = evolve(t, sweep=t.sweep + 1)
            state = evolve(state, tournament=t, turn=0)
        return state
    return state


def apply_register(state: GloryState, move: Register) -> GloryState:
    t = state.tournament
    if t is None or state.phase != "registration":
        raise Refused(v("registration/not-now", "registration"))
    actor = registration_actor(state)
    if move.seat != actor:
        raise Refused(v("registration/not-your-turn", "registration", seat=move.seat,
                        actor=actor or "-"))  # fmt: skip
    seats = registrants(state)
    if t.type == "pas-d-armes":
        if move.slot is None:
            if state.options.get("pas_register", "mandatory") == "mandatory":
                raise Refused(v("registration/must-place", "pas-register", seat=move.seat))
            t = evolve(t, passed=(*t.passed, move.seat))
            state = evolve(state, tournament=t, turn=seats.index(move.seat) + 1)
            return advance_registration(state)
        state = place_pas_crest(state, move.seat, move.city, move.slot, "pas-register")
        state = evolve(state, turn=seats.index(move.seat) + 1)
        return advance_registration(state)
    waiting = joust_unregistered(state)
    if move.slot is None:
        last = [s for s in seats if s in waiting][-1]
        if move.seat == last:
            raise Refused(v("registration/last-cannot-pass", "joust-register", seat=move.seat))
        return evolve(state, turn=(seats.index(move.seat) + 1) % len(seats))
    state = place_joust_crest(state, move.seat, move.slot, "joust-register")
    return evolve(state, turn=(seats.index(move.seat) + 1) % len(seats))


def place_pas_crest(
    state: GloryState, seat: str, city: int | None, slot: int | None, key: str
) -> GloryState:
    """A crest beside a Knight: one Knight per city per player, one player per Knight."""
    t = state.tournament
    assert t is not None
    if city is None or slot is None or not 0 <= city < len(t.cities) \
            or not 0 <= slot < len(t.cities[city]):  # fmt: skip
        raise Refused(v("registration/no-knight", key, city=city, slot=slot))
    if t.cities[city][slot].crest:
        raise Refused(v("registration/knight-taken", key, knight=t.cities[city][slot].knight,
                        seat=t.cities[city][slot].crest))  # fmt: skip
    if city in cities_of(t, seat):
        raise Refused(v("registration/city-twice", key, city=CITY_NAMES[city]))
    row = list(t.cities[city])
    row[slot] = evolve(row[slot], crest=seat)
    cities = (*t.cities[:city], tuple(row), *t.cities[city + 1 :])
    return evolve(state, tournament=evolve(t, cities=cities))


def place_joust_crest(state: GloryState, seat: str, slot: int | None, key: str) -> GloryState:
    t = state.tournament
    assert t is not None
    row = list(t.bracket[0])
    if slot is None or not 0 <= slot < len(row) or row[slot] is not None:
        raise Refused(v("registration/slot-taken", key, slot=(slot or 0) + 1))
    if crests(t, seat):
        raise Refused(v("registration/once", key, seat=seat))
    row[slot] = Entrant(seat, True)
    return evolve(state, tournament=evolve(t, bracket=(tuple(row), *t.bracket[1:])))


def apply_fill(state: GloryState, move: FillBracket) -> GloryState:
    """The "knights who register after the players" fill the empty spaces [L628-629]."""
    t = state.tournament
    if t is None or t.type != "joust" or t.filled:
        raise Refused(v("tournament/fill-not-now", "joust-register"))
    b = box(state)
    card = b.tournaments[t.card]
    sec = section(card, state.round)
    assert isinstance(sec, JoustSection)
    empty = _empty_slots(t)
    want = list(sec.after[: len(empty)])
    problems: list[Violation] = []
    if len(move.knights) != len(empty):
        problems.append(v("tournament/fill-count", "joust-register", count=len(empty)))
    left = remove(state.knight_pool, move.knights)
    if left is None or any(k not in b.data.knights for k in move.knights):
        problems.append(v("tournament/knight-unavailable", "joust-register"))
    elif Counter(knight_data(b, k).type for k in move.knights) != Counter(want):
        problems.append(v("tournament/fill-types", "joust-register", types=", ".join(want)))
    refuse_if(problems)
    assert left is not None
    row = list(t.bracket[0])
    for slot, name in zip(empty, move.knights, strict=True):
        row[slot] = Entrant(name, False)
    t = evolve(t, bracket=(tuple(row),), filled=True)
    return evolve(state, tournament=t, knight_pool=left)


def needs_fill(state: GloryState) -> bool:
    t = state.tournament
    return t is not None and t.type == "joust" and not t.filled and bool(_empty_slots(t))


# --- duels ---------------------------------------------------------------------------------


def duellist(state: GloryState, seat: str) -> Side:
    """A player (or SIR) as the duel engine sees them: tokens beside the board, Initiative."""
    p = state.player(seat)
    initiative = state.order.index(seat) + 1
    if p.sir:
        attack, prestige = sir_stats(state)
        return Knight(seat, "sir", attack, prestige, p.glory, (), initiative)
    return Duellist(seat, p.horse, p.armour, p.strength, p.faith, p.glory, initiative,
                    p.allies, p.relics, p.prestige)  # fmt: skip


def sir_stats(state: GloryState) -> tuple[int | None, int | None]:
    """SIR duels with the chosen Knight's Attack and Prestige (Appendix A, L1182-1187): the
    ``sir_knight`` option's token, else the data's ``rival`` values for the difficulty (a game
    lacking both is refused at its start, ``data.missing_for``)."""
    name = state.options.get("sir_knight")
    if name:
        k = box(state).data.knights[name]
        return k.attack, k.prestige
    level = state.options.get("difficulty") or "easy"
    sir = box(state).data.rival.get(cast(RivalLevel, level))
    if sir is None or sir.attack is None:
        raise missing_data(f"SIR's Attack and Prestige ({level})", "fight SIR",
                           "the solo option sir_knight or the data's rival values")  # fmt: skip
    return sir.attack, sir.prestige


def knight_side(state: GloryState, name: str) -> Knight:
    k = box(state).data.knights[name]
    return Knight(k.name, k.type, k.attack, k.prestige, k.glory, k.removes)


def schedule(t: Tournament) -> list[tuple[str, int, int]]:
    """Pas d'armes duels in order: (where, city, slot) of every Knight with a crest."""
    return [(f"{CITY_NAMES[i]}:{j + 1}", i, j) for i, c in enumerate(t.cities)
            for j, s in enumerate(c) if s.crest]  # fmt: skip


def start_next_duel(state: GloryState) -> GloryState:
    """Start the next duel that needs the players, resolving Knight-vs-Knight ones on the way;
    marks the Tournament done (and awards the Joust prize) when none is left."""
    t = state.tournament
    assert t is not None
    if t.type == "pas-d-armes":
        plan = schedule(t)
        if t.next_duel >= len(plan):
            return evolve(state, tournament=evolve(t, next_duel=t.next_duel))
        where, city, slot = plan[t.next_duel]
        ks = t.cities[city][slot]
        sides = (duellist(state, ks.crest), knight_side(state, ks.knight))
        if state.player(ks.crest).sir:
            return _sir_duel(state, where, sides)
        return _begin(state, "pas-d-armes", sides, where)
    while True:
        stage = t.bracket[-1]
        if len(stage) == 1:
            return _joust_prize(state)
        k = t.next_duel
        if 2 * k >= len(stage):
            winners = tuple(Entrant(r.winner, _is_player(state, r.winner))
                            for r in t.results[-len(stage) // 2 :])  # fmt: skip
            t = evolve(t, bracket=(*t.bracket, winners), next_duel=0)
            state = evolve(state, tournament=t)
            continue
        left, right = stage[2 * k], stage[2 * k + 1]
        assert left is not None and right is not None
        where = f"stage {len(t.bracket)}:{k + 1}"
        if not left.player and not right.player:
            winner, _ = duel.knight_vs_knight(knight_side(state, left.name),
                                              knight_side(state, right.name))  # fmt: skip
            result = DuelResult(where, left.name, right.name, winner)
            t = evolve(t, results=(*t.results, result), next_duel=k + 1)
            state = evolve(state, tournament=t)
            continue
        a = duellist(state, left.name) if left.player else knight_side(state, left.name)
        b_ = duellist(state, right.name) if right.player else knight_side(state, right.name)
        if not any(isinstance(s, Duellist) for s in (a, b_)):
            state = _sir_duel(state, where, (a, b_))
            t = state.tournament
            assert t is not None
            continue
        return _begin(state, "joust", (a, b_), where)


def _is_player(state: GloryState, name: str) -> bool:
    return any(p.seat == name for p in state.players)


def _sir_duel(state: GloryState, where: str, sides: tuple[Side, Side]) -> GloryState:
    """SIR against a Knight (solo Rival): no dice, no decisions (``duel.sir_vs_knight``); SIR
    gains the Knight's Glory value if it wins, as a player would [L1283]."""
    t = state.tournament
    assert t is not None
    sir, knight = sides if isinstance(sides[0], Knight) and sides[0].type == "sir" else sides[::-1]
    assert isinstance(sir, Knight) and isinstance(knight, Knight)
    if state.options.get("sir_duel", "knight") == "knight":
        winner, _ = duel.sir_as_knight(sir, knight, sir_left=sides[0] is sir)
    else:
        winner, _ = duel.sir_vs_knight(sir, knight)
    result = DuelResult(where, sides[0].name, sides[1].name, winner)
    state = evolve(state, tournament=evolve(t, results=(*t.results, result),
                                            next_duel=t.next_duel + 1))  # fmt: skip
    if winner == sir.name:
        if knight.glory is None:
            raise missing_data(f"the Glory value of {knight.name}", "award the duel's Glory",
                               "data/knights.json")  # fmt: skip
        state = add_glory(state, sir.name, knight.glory, "ledger/duel-won", "tournament",
                          opponent=knight.name)  # fmt: skip
    return state


def _begin(state: GloryState, context: str, sides: tuple[Side, Side], where: str) -> GloryState:
    d = duel.start(context, sides, box(state).data.dice)  # type: ignore[arg-type]
    seat = next(s.name for s in sides if isinstance(s, Duellist))
    return evolve(state, duel=d, pending=Pending("duel", seat, source=f"tournament:{where}"))


def tournament_over(state: GloryState) -> bool:
    t = state.tournament
    if t is None:
        return True
    if t.type == "pas-d-armes":
        return t.next_duel >= len(schedule(t)) and state.duel is None
    return t.done


def _joust_prize(state: GloryState) -> GloryState:
    """The final's winner takes the prize: 1 GP + 1 Coin, or the Prize token [L115-118]."""
    t = state.tournament
    assert t is not None
    if t.done:
        return state
    champion = t.bracket[-1][0]
    state = evolve(state, tournament=evolve(t, done=True),
                   champions=(*state.champions, champion.name if champion else ""))  # fmt: skip
    if champion is None or not champion.player:
        return state
    b = box(state)
    reward = b.data.standard_prize
    if t.prize:
        prize = b.prizes[t.prize].reward
        if prize is None:
            raise missing_data(f"what Prize token {t.prize} gives", "award the Joust prize",
                               "the game data file")  # fmt: skip
        reward = prize
    if state.player(champion.name).sir:  # SIR gains the prize's Glory only [L1208, L1283]
        return add_glory(state, champion.name, reward.glory, "ledger/reward", "joust-prize",
                         source="prize")  # fmt: skip
    return apply_reward(state, champion.name, reward, "prize", "joust-prize")


def finish_duel(state: GloryState) -> tuple[GloryState, DuelState]:
    """Copy each player's tokens and Glory back from the finished duel, with ledger lines."""
    d = state.duel
    assert d is not None and d.winner is not None
    for side in d.sides:
        if not _is_player(state, side.name):
            continue
        p = state.player(side.name)
        awarded = 0
        for award in d.awards:
            if award.side == side.name and award.line.amount:
                awarded += award.line.amount
        before = p.glory
        if isinstance(side, Duellist):
            p = evolve(p, strength=side.strength, faith=side.faith, allies=side.allies,
                       relics=side.relics, prestige=side.prestige)  # fmt: skip
        state = set_player(state, p)
        after = side.glory if side.glory is not None else before
        paid = after - before - awarded
        if paid:
            state = add_glory(state, side.name, paid, "ledger/duel-ally-cost", "allies")
        for award in d.awards:
            if award.side == side.name and award.line.amount:
                if award.line.code == "glory/ally-cost":  # Drab, Wiedźma: paid in the duel
                    state = add_glory(state, side.name, award.line.amount,
                                      "ledger/duel-ally-cost", "allies")  # fmt: skip
                    continue
                code = "ledger/duel-half" if award.line.source == "half" else "ledger/duel-won"
                other = d.loser if d.winner == side.name else d.winner
                state = add_glory(state, side.name, award.line.amount, code, "tournament",
                                  opponent=other or "-")  # fmt: skip
    return evolve(state, duel=None, pending=None), d


def record(state: GloryState, d: DuelState, where: str) -> GloryState:
    """A tournament duel's result; a Joust loser is out and gains extra Quest plays."""
    t = state.tournament
    assert t is not None and d.winner is not None
    loser = d.loser or ""
    lost_passes = d.boards[d.index(loser)].wins if loser else 0
    result = DuelResult(where, d.sides[0].name, d.sides[1].name, d.winner, lost_passes)
    t = evolve(t, results=(*t.results, result), next_duel=t.next_duel + 1)
    state = evolve(state, tournament=t)
    if t.type == "joust" and _is_player(state, loser):
        stage = len(t.bracket) - 1
        extra = STAGE_QUESTS.get(stage, 0)
        p = state.player(loser)
        state = set_player(state, evolve(p, quest_extra=extra, quest_plays=0,
                                         done_quests=False))  # fmt: skip
    return state


def player_of(state: GloryState, seat: str) -> Player:
    return state.player(seat)
