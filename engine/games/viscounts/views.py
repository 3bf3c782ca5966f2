"""What a seat and the table display see (hidden information: a hand only to its owner; a
deck's order to nobody, its size to all), and prompts (digest §10)."""

from __future__ import annotations

from typing import Any

from engine.game import Prompt
from engine.games.viscounts import rules, solo, turn
from engine.games.viscounts.describe import ability_text, effect_text
from engine.games.viscounts.labels import names
from engine.games.viscounts.state import VState
from engine.i18n import message


def _player(state: VState, i: int, seat: str | None, lang: str) -> dict[str, Any]:
    p = state.players[i]
    own = seat == p.seat
    return {
        "seat": p.seat,
        "town": p.town,
        "silver": p.silver, "ink": p.ink, "stone": p.stone, "gold": p.gold,
        "pool": p.pool,
        "board": list(p.board),
        "hand": list(p.hand) if own else None,
        "hand_size": len(p.hand),
        "deck_size": len(p.deck),
        "discard": list(p.discard),
        "built": [{"building": k, "position": pos, "site": site} for k, pos, site in p.built],
        "corruption": p.corruption, "virtue": p.virtue, "stacked": p.stacked,
        "debts": p.debts, "paid": p.paid, "deeds": p.deeds, "granted": p.granted,
        "manuscripts": list(p.manuscripts),
        "favours": list(p.favours),
        "player_card": p.player_card,
        "hand_limit": rules.hand_limit(state, i),
        "strip": _strip(state, i, lang),
    }  # fmt: skip


def _strip(state: VState, i: int, lang: str) -> list[dict[str, Any]]:
    """The seat's Building strip, kind by kind and left to right (§5.2): each position built or
    still on the strip, with the ability its emptied space uncovers (in words)."""
    built = {(k, pos): site for k, pos, site in state.players[i].built}
    out: list[dict[str, Any]] = []
    for b in state.data.buildings:
        for pos, ability in enumerate(b.abilities):
            out.append({
                "building": b.kind,
                "position": pos,
                "site": built.get((b.kind, pos)),
                "ability": ability_text(ability, lang) if ability else "",
            })  # fmt: skip
    return out


def _board(state: VState, lang: str) -> list[dict[str, Any]]:
    """The circular board part by part (digest §2): its towns (path, River side, red number,
    exchange) with the Viscounts standing there, its building sites with their bonus and the
    Building on each (owner and kind), the deck and Manuscript stack beside it."""
    board = state.data.board
    if board is None:
        return []
    kinds = {site: (p.seat, k) for p in state.players for k, _pos, site in p.built}
    parts: list[dict[str, Any]] = []
    for part in range(len(state.decks)):
        towns = [{
            "town": t.id, "path": t.path, "side": t.side, "number": t.number,
            "exchange": t.exchange,
            "viscounts": [p.seat for p in state.players if p.town == t.id],
        } for t in board.towns if t.part == part]  # fmt: skip
        sites = [{
            "site": s.id, "side": s.side,
            "bonus": effect_text(s.bonus, lang) if s.bonus else "",
            "owner": kinds.get(s.id, (None, None))[0],
            "building": kinds.get(s.id, (None, None))[1],
        } for s in board.sites if s.part == part]  # fmt: skip
        parts.append({"part": part, "towns": towns, "sites": sites})
    return parts


def _last_round(state: VState) -> bool:
    """Whether the round being played is the game's last (§1: the round after the one in which
    Poverty or Prosperity was uncovered; or a simulated table's round cap)."""
    if state.phase == "over":
        return False
    if state.end_round is not None and state.round >= state.end_round:
        return True
    cap = int(state.options.get("max_rounds", 0) or 0)
    return 0 < cap <= state.round


def _printed(state: VState, pile: tuple[str, ...], part: int, townsfolk: bool) -> str | None:
    """The id of the card or Manuscript printed on the board under an empty ``pile``."""
    if pile:
        return None
    found = rules.top_townsfolk(state, part) if townsfolk else rules.top_manuscript(state, part)
    return found.id if found is not None else None


def _pile(state: VState, pile: tuple[str, ...], part: int, townsfolk: bool) -> dict[str, Any]:
    top = pile[0] if pile else None
    return {"top": top, "size": len(pile), "printed": _printed(state, pile, part, townsfolk)}


def view(state: VState, seat: str | None, lang: str = "en") -> dict[str, Any]:
    """The table as ``seat`` may see it (None: the table display, no hand shown)."""
    ask = state.ask
    asking = None
    if ask is not None:
        asker = state.players[ask.seat].seat
        # the options are public but a hand card offered to Discard or Destroy (its owner's)
        options = [o for o in ask.options if seat == asker or not o.startswith(("hand:", "card:"))]
        asking = {"seat": asker, "asks": ask.asks, "purpose": ask.purpose, "options": options}
    known = names(state, lang)
    visible = {c for d in state.decks for c in d[:1]}
    visible |= {p for k, d in enumerate(state.decks) if (p := _printed(state, d, k, True))}
    visible |= {c for p in state.players for c in p.board if c}
    visible |= {c for p in state.players for c in p.discard[-1:]}
    if seat in state.seats:
        visible |= set(state.players[state.seats.index(seat)].hand)
    return {
        "names": known,
        "cards": {c: card_text(state, c, lang) for c in sorted(visible)},
        "phase": state.phase,
        "round": state.round,
        "active": state.players[state.active()].seat if state.players else None,
        "first": state.players[state.first].seat,
        # under an empty deck or stack the card printed on the board shows (VW-16, VW-17)
        "decks": [_pile(state, d, k, True) for k, d in enumerate(state.decks)],
        "stacks": [_pile(state, s, k, False) for k, s in enumerate(state.stacks)],
        "pairs": [{"player_card": n, "famous": f} for n, f in state.pairs],
        "sites": {site: state.players[i].seat for site, i in state.sites.items()},
        "castle": {
            "level1": [list(s) for s in state.castle.level1],
            "level2": [list(s) for s in state.castle.level2],
            "level3": list(state.castle.level3),
            "inward": list(state.data.castle.inward or ()),
        },
        "lord": state.players[state.lord].seat if state.lord is not None else None,
        "debts_left": state.debts_left, "deeds_left": state.deeds_left,
        "poverty": state.poverty, "prosperity": state.prosperity,
        "end_round": state.end_round,
        "last_round": _last_round(state),
        "board": _board(state, lang),
        "level2": [effect_text(e, lang) if e else "" for e in state.data.castle.level2 or ()],
        "favours": {f: state.players[i].seat for f, i in state.favour_holders.items()},
        "asking": asking,
        "players": [_player(state, i, seat, lang) for i in range(len(state.players))],
        "solo": solo_view(state, lang),
    }  # fmt: skip


def solo_view(state: VState, lang: str) -> dict[str, Any] | None:
    """The AI's side of the table (digest §8), public: its AI board, the Schemes on its three
    spaces (this turn's leftmost, each step in words, the step it is at), its face-up discard
    pile and the sizes of its face-down Scheme deck and Future pile."""
    s = state.solo
    if s is None:
        return None
    board = solo.board_of(state.data, s.ai)
    known = names(state, lang)
    shown = [c for c in (*s.board, *s.discard) if c]
    return {
        "seat": state.players[s.seat].seat,
        "ai": s.ai,
        "ai_name": known.get(f"ai-{s.ai}", s.ai),
        "goal": board.goal,
        "goal_text": message(f"viscounts:ui/goal-{board.goal}", lang) if board.goal else "",
        "difficulty": s.difficulty,
        "board": list(s.board),
        "scheme": s.board[0],
        "step": s.step if state.phase == "ai" else None,
        "discard": list(s.discard),
        "deck_size": len(s.deck) + s.mixed,
        "future_size": solo.future_left(s),
        "schemes": {
            c: {
                "name": known.get(c, c),
                "kind": solo.scheme(state, c).kind,
                "symbols": list(solo.scheme(state, c).symbols or ()),
                "steps": [effect_text(x, lang) for x in solo.scheme(state, c).steps or ()],
            }
            for c in dict.fromkeys(shown)
        },
    }


def card_text(state: VState, cid: str, lang: str) -> dict[str, Any]:
    """A Townsfolk card as a phone shows it: value, symbols, hire effect, ability in words."""
    c = rules.card(state.data, cid)
    return {
        "value": c.value,
        "symbols": list(c.symbols or ()),
        "hire": effect_text(c.hire, lang) if c.hire else "",
        "ability": ability_text(c.ability, lang) if c.ability else "",
    }


def prompts(state: VState) -> list[Prompt]:
    who = turn.actor(state)
    if who is None:
        return []
    step = (
        state.ask.asks
        if state.ask and state.ask.asks in ("reveal", "scheme")
        else (f"choose-{state.ask.asks}" if state.ask else state.phase)
    )
    return [Prompt(who, f"prompt/{step}", {}, tuple(turn.legal_moves(state)))]
