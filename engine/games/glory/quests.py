"""Playing Quest cards (§4.3, §4.7): the Quest Phase, the Final Quest Phase and the plays a
Joust player knocked out early makes while the others finish the Tournament.

Players play one card at a time in Initiative order, up to 3 each (+1 per Posłaniec) [L539-541];
a Market card is paid first [L550-551]; a Challenge card is a duel against its printed opponent,
won → reward and discard, lost → the card stays in hand but the attempt counts [L552-555].
"""

from __future__ import annotations

from engine.evolve import evolve
from engine.games.glory import duel
from engine.games.glory.components import missing_data
from engine.games.glory.data_types import QuestCard
from engine.games.glory.duel_state import DuelState, Knight
from engine.games.glory.effects import ally_count, apply_reward, box, set_player
from engine.games.glory.refs import Refused, v
from engine.games.glory.state import GloryState, Pending, Player, PlayQuest, StopQuests
from engine.games.glory.tournament import duellist

QUEST_LIMIT = 3
"""Up to 3 Quest cards per player in a Quest Phase [L539-541]."""


def limit(state: GloryState, p: Player) -> int:
    if state.phase == "tournament":
        return p.quest_extra
    return QUEST_LIMIT + ally_count(p, "poslaniec")


def playable(state: GloryState, p: Player, card_id: str) -> bool:
    card = box(state).quests.get(card_id)
    if card is None or card_id not in p.hand:
        return False
    return not (card.deck == "market" and p.coins < card.cost)


def eligible(state: GloryState, seat: str) -> bool:
    p = state.player(seat)
    if p.sir or p.done_quests or p.quest_plays >= limit(state, p):
        return False
    return any(playable(state, p, c) for c in set(p.hand))


def quest_actor(state: GloryState) -> str | None:
    """The next seat in Initiative order, from the turn pointer, that may still play."""
    n = len(state.order)
    for k in range(n):
        seat = state.order[(state.turn + k) % n]
        if eligible(state, seat):
            return seat
    return None


def _after(state: GloryState, seat: str) -> GloryState:
    return evolve(state, turn=(state.order.index(seat) + 1) % len(state.order))


def _card(state: GloryState, card_id: str) -> QuestCard:
    return box(state).quests[card_id]


def apply_stop(state: GloryState, move: StopQuests) -> GloryState:
    if quest_actor(state) != move.seat:
        raise Refused(v("quest/not-your-turn", "quest", seat=move.seat,
                        actor=quest_actor(state) or "-"))  # fmt: skip
    p = state.player(move.seat)
    return _after(set_player(state, evolve(p, done_quests=True)), move.seat)


def apply_play(state: GloryState, move: PlayQuest) -> GloryState:
    actor = quest_actor(state)
    if state.pending is not None or move.seat != actor:
        raise Refused(v("quest/not-your-turn", "quest", seat=move.seat, actor=actor or "-"))
    p = state.player(move.seat)
    card = box(state).quests.get(move.card)
    if card is None or move.card not in p.hand:
        raise Refused(v("quest/not-in-hand", "quest", card=move.card))
    if card.rewards is None:
        raise missing_data(f"the reward of Quest card {card.name}", "play it",
                           "the game data file (quests)")  # fmt: skip
    if not 0 <= move.choice < len(card.rewards):
        raise Refused(v("quest/reward-choice", "quest", card=card.name, count=len(card.rewards)))
    if card.deck == "market" and p.coins < card.cost:
        raise Refused(v("quest/cannot-pay", "quest", card=card.name, cost=card.cost,
                        have=p.coins))  # fmt: skip
    p = evolve(p, quest_plays=p.quest_plays + 1)
    if card.deck == "challenge":
        state = set_player(state, p)
        return _after(start_challenge(state, move.seat, card, move.choice), move.seat)
    hand = list(p.hand)
    hand.remove(move.card)
    p = evolve(p, coins=p.coins - card.cost, hand=tuple(hand), played=(*p.played, move.card))
    state = set_player(state, p)
    state = apply_reward(state, move.seat, card.rewards[move.choice], card.id, "quest")
    return _after(state, move.seat)


def start_challenge(state: GloryState, seat: str, card: QuestCard, choice: int) -> GloryState:
    """A Challenge card's duel against its printed opponent (player-vs-Knight rules)."""
    opp = card.opponent
    if opp is None or opp.attack is None:
        raise missing_data(f"the Attack of {card.name}'s opponent", "fight the Challenge",
                           "the game data file (quests)")  # fmt: skip
    knight = Knight(card.name, "card", opp.attack, opp.prestige)
    d = duel.start("challenge", (duellist(state, seat), knight), box(state).data.dice)
    pending = Pending("duel", seat, source=f"challenge:{card.id}:{choice}")
    return evolve(state, duel=d, pending=pending)


def finish_challenge(state: GloryState, d: DuelState, source: str) -> GloryState:
    """Won: the reward, and the card to the discard pile; lost: the card stays in hand."""
    _, card_id, choice = source.split(":")
    seat = next(s.name for s in d.sides if not isinstance(s, Knight))
    if d.winner != seat:
        return state
    card = _card(state, card_id)
    p = state.player(seat)
    hand = list(p.hand)
    hand.remove(card_id)
    p = evolve(p, hand=tuple(hand), played=(*p.played, card_id),
               challenges_won=p.challenges_won + 1)  # fmt: skip
    state = set_player(state, p)
    assert card.rewards is not None
    return apply_reward(state, seat, card.rewards[int(choice)], card.id, "quest")


def legal_quests(state: GloryState, seat: str) -> list[PlayQuest | StopQuests]:
    p = state.player(seat)
    out: list[PlayQuest | StopQuests] = []
    for card_id in sorted(set(p.hand)):
        if not playable(state, p, card_id):
            continue
        card = _card(state, card_id)
        for choice in range(len(card.rewards or ())):
            out.append(PlayQuest(seat, card_id, choice))
    out.append(StopQuests(seat))
    return out


def reset_plays(state: GloryState) -> GloryState:
    """A new Quest Phase: nobody has played yet."""
    return evolve(state, turn=0, players=tuple(evolve(p, quest_plays=0, done_quests=False)
                                               for p in state.players))  # fmt: skip
