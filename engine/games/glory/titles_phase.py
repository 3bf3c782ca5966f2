"""The Titles Phase (§4.8, §7.1): Dzielny duels first, then every player's Titles scored.

A Title whose condition is a duel (Dzielny: beat a Knight of Attack 11, Prestige 1 "right now"
[L1621-1627]) is fought in this phase, one player at a time in Initiative order, each choosing to
fight or give it up. Then ``titles.score`` finds for each player the assignment of holdings to
the public Titles and their Personal Goals that scores the most Glory.
"""

from __future__ import annotations

from engine.evolve import evolve
from engine.games.glory import duel, titles
from engine.games.glory.components import missing_data
from engine.games.glory.data_types import TitleCard
from engine.games.glory.duel_state import DuelState, Knight
from engine.games.glory.effects import add_glory, box
from engine.games.glory.refs import Refused, v
from engine.games.glory.state import GloryState, Pending, TitleDuel, TryTitle
from engine.games.glory.tournament import duellist


def cards_of(state: GloryState, seat: str) -> list[TitleCard]:
    """The 3 public Titles and the seat's Personal Goals."""
    b = box(state)
    p = state.player(seat)
    return [b.titles[t] for t in (*state.public_titles, *p.goals) if t in b.titles]


def open_duels(state: GloryState, seat: str) -> list[TitleCard]:
    tried = {d.title for d in state.title_duels if d.seat == seat}
    seen: set[str] = set()
    out = []
    for card in cards_of(state, seat):
        if card.duel is not None and card.id not in tried and card.id not in seen:
            seen.add(card.id)
            out.append(card)
    return out


def scoring_seats(state: GloryState) -> list[str]:
    return [s for s in state.order if not state.player(s).sir
            or state.options.get("solo") == "rywal"]  # fmt: skip


def actors(state: GloryState) -> tuple[str, ...]:
    for seat in state.order:
        if not state.player(seat).sir and open_duels(state, seat):
            return (seat,)
    return ()


def legal(state: GloryState, seat: str) -> list[TryTitle]:
    return [TryTitle(seat, c.id, fight) for c in open_duels(state, seat) for fight in (True, False)]


def apply_try(state: GloryState, move: TryTitle) -> GloryState:
    card = next((c for c in open_duels(state, move.seat) if c.id == move.title), None)
    if card is None or card.duel is None:
        raise Refused(v("titles/no-duel", "titles", title=move.title))
    record = TitleDuel(move.seat, card.id, move.fight)
    state = evolve(state, title_duels=(*state.title_duels, record))
    if not move.fight:
        return state
    if card.duel.attack is None:
        raise missing_data(f"the Attack of {card.name}'s opponent", "fight for the Title",
                           "the game data file (titles)")  # fmt: skip
    knight = Knight(card.name, "card", card.duel.attack, card.duel.prestige)
    d = duel.start("title", (duellist(state, move.seat), knight), box(state).data.dice)
    return evolve(state, duel=d, pending=Pending("duel", move.seat, source=f"title:{card.id}"))


def finish_duel(state: GloryState, d: DuelState, source: str) -> GloryState:
    title = source.split(":", 1)[1]
    seat = next(s.name for s in d.sides if not isinstance(s, Knight))
    duels = tuple(evolve(x, won=d.winner == seat) if x.seat == seat and x.title == title else x
                  for x in state.title_duels)  # fmt: skip
    return evolve(state, title_duels=duels)


def score_all(state: GloryState) -> GloryState:
    """Every player's best Titles, each as a ledger line [L641-651]."""
    b = box(state)
    scored: dict[str, tuple[str, ...]] = {}
    for seat in scoring_seats(state):
        won = {d.title for d in state.title_duels if d.seat == seat and d.won}
        result = titles.score(
            state.player(seat),
            cards_of(state, seat),
            quests=b.quests,
            drab_rule=state.options.get("drab_rule", "never"),
            duels_won=won,
        )
        for line in result.lines:
            state = add_glory(state, seat, line.amount, "ledger/title", "titles",
                              title=line.params.get("title", line.source))  # fmt: skip
        scored[seat] = result.scored
    return evolve(state, titles_scored=scored)
