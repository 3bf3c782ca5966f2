"""What the table display and each seat see, what the game asks of whom, and the scores.

Quest cards in hand and Personal Goals are secret [L173-177, L1421]: the public view shows how
many a player holds, a seat's view shows its own. During a duel every view carries the duel
panel the seat pages draw: both Attacks itemised, whose decision it is, and the options left to
the side deciding (Strength, Faith, allies, relic).
"""

from __future__ import annotations

from typing import Any

from engine import codec
from engine.game import TABLE, Line, Prompt, ScoreRow
from engine.games.glory import duel, turn
from engine.games.glory.components import GAME_KEY, ROUNDS, score_track
from engine.games.glory.dice_input import wanted_json
from engine.games.glory.duel_state import Duellist, DuelState
from engine.games.glory.duel_state import actor as duel_actor
from engine.games.glory.duel_views import line_text as duel_line_text
from engine.games.glory.effects import box, prestige_total
from engine.games.glory.preview import names, printed
from engine.games.glory.solo import solo_winners
from engine.games.glory.state import GloryState, LedgerLine, Player
from engine.i18n import DEFAULT_LANG, message
from engine.present import named_line


def ledger_line(x: LedgerLine) -> Line:
    return Line(x.code.split("/", 1)[-1], x.amount, x.code, x.ref, dict(x.params))


def line_text(line: Line, lang: str = DEFAULT_LANG) -> str:
    params = {**line.params, "amount": line.amount, "paid": abs(line.amount)}
    return message(f"{GAME_KEY}:{line.code}", lang, **params)


def line_json(line: Line, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    return line.to_json(line_text(line, lang))


def _attack_line_json(line: Line, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """A duel Attack line, worded as the duel report words it (die faces named)."""
    return {"source": line.source, "amount": line.amount, "code": line.code, "ref": line.ref,
            "params": line.params, "text": duel_line_text(line, lang)}  # fmt: skip


def _player_view(state: GloryState, p: Player, own: bool) -> dict[str, Any]:
    tokens, space = score_track(p.glory)
    data: dict[str, Any] = {
        "seat": p.seat,
        "sir": p.sir,
        "character": p.character,
        "coins": p.coins,
        "strength": p.strength,
        "faith": p.faith,
        "glory": p.glory,
        "score_track": {"extra_tokens": tokens, "space": space},
        "horse": p.horse,
        "armour": p.armour,
        "allies": [codec.encode(a) for a in p.allies],
        "relics": [codec.encode(r) for r in p.relics],
        "prestige": [codec.encode(x) for x in p.prestige],
        "pawns": p.pawns,
        "played": list(p.played),
        "challenges_won": p.challenges_won,
        "hand_count": len(p.hand),
        "goals_count": len(p.goals),
        "initiative": state.order.index(p.seat) + 1 if p.seat in state.order else None,
    }
    if own:
        data["hand"] = list(p.hand)
        data["goals"] = list(p.goals)
        data["offered"] = list(p.offered)
    return data


def duel_panel(state: GloryState, lang: str = DEFAULT_LANG) -> dict[str, Any] | None:
    """The duel being fought: each side's Attack (itemised), the step, who decides, options;
    while it waits for dice, ``dice_wanted`` says whose, which, and who may type them in."""
    d = state.duel
    if d is None:
        return None
    waiting = duel.to_act(d)
    sides = []
    for i, side in enumerate(d.sides):
        board = d.boards[i]
        sides.append({
            "name": side.name,
            "player": isinstance(side, Duellist),
            "attack": duel.attack(d, i),
            "lines": [_attack_line_json(x, lang) for x in duel.attack_lines(d, i)],
            "prestige": duel.prestige(d, i),
            "wins": board.wins,
            "committed": board.committed,
            "dice": [codec.encode(x) for x in board.dice],
        })  # fmt: skip
    deciding = waiting[0] if waiting and waiting[0] != TABLE else None
    return {
        "context": d.context,
        "where": state.pending.source if state.pending else "",
        "pass": d.pass_no,
        "step": d.step,
        "sides": sides,
        "deciding": deciding,
        "waiting_for_dice": bool(waiting) and waiting[0] == TABLE,
        "dice_wanted": wanted_json(state),
        "options": _options(d, deciding) if deciding else {},
        "passes": [codec.encode(p) for p in d.passes],
        "winner": d.winner,
    }


def _options(d: DuelState, seat: str) -> dict[str, Any]:
    """What the deciding side may still do in this step, grouped for the seat page."""
    moves = [m for m in duel.legal_moves(d) if duel_actor(m) == seat]
    out: dict[str, Any] = {"strength": [], "faith": [], "allies": [], "relics": [],
                           "recover": [], "decline": False}  # fmt: skip
    for m in moves:
        kind = type(m).kind
        if kind == "strength":
            out["strength"].append(m.tokens)  # type: ignore[union-attr]
        elif kind == "faith":
            out["faith"].append(list(m.dice))  # type: ignore[union-attr]
        elif kind == "ally":
            out["allies"].append(m.ally)  # type: ignore[union-attr]
        elif kind == "relic":
            out["relics"].append(m.relic)  # type: ignore[union-attr]
        elif kind == "recover":
            out["recover"].append(codec.encode(m))
        elif kind == "decline":
            out["decline"] = True
    out["allies"] = sorted(set(out["allies"]))
    out["relics"] = sorted(set(out["relics"]))
    out["faith_dice_max"] = max((len(x) for x in out["faith"]), default=0)
    out["faith"] = bool(out["faith"])
    return out


def _names(state: GloryState, lang: str) -> dict[str, str]:
    """The printed name of every card and token id the pages may show (issue 15: no ids)."""
    found = names(state, lang)
    for player in state.players:
        for token in (*player.allies, *player.relics, *player.prestige):
            kind = getattr(token, "kind", None)
            if isinstance(kind, str) and kind not in found:
                found[kind] = printed(kind, lang)
    for kind in state.ally_track:
        if isinstance(kind, str) and kind not in found:
            found[kind] = printed(kind, lang)
    return found


def view(state: GloryState, seat: str | None, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The table display's view (``seat`` None) or a seat's view with its secrets."""
    b = box(state)
    t = state.tournament
    named = _names(state, lang)
    data: dict[str, Any] = {
        "game": GAME_KEY,
        "data": {
            "name": b.data.name,
            "stand_in": b.data.stand_in,
            "verified": b.data.verified,
        },
        "phase": state.phase,
        "round": state.round,
        "rounds_total": ROUNDS,
        "order": list(state.order),
        "players": [_player_view(state, p, p.seat == seat) for p in state.players],
        "board": {
            "placements": [codec.encode(x) for x in state.placements],
            "initiative_pawns": list(state.initiative_pawns),
            "ally_track": list(state.ally_track),
            "columns": {k: list(v) for k, v in state.columns.items()},
            "decks": {k: len(v) for k, v in state.quest_decks.items()},
            "titles_deck": len(state.title_deck),
        },
        "public_titles": list(state.public_titles),
        "events": {
            "current": state.event,
            "next": state.events[state.round] if 0 < state.round < len(state.events) else None,
            "event_ally": state.event_ally,
        },
        "tournament": codec.encode(t) if t is not None else None,
        "duel": duel_panel(state, lang),
        "pending": codec.encode(state.pending)
        if state.pending and state.pending.kind != "keep-titles"
        else None,
        "ledger": [
            {"seat": x.seat, "round": x.round, **line_json(named_line(ledger_line(x), named), lang)}
            for x in state.ledger[-12:]
        ],
        "titles_scored": {k: list(v) for k, v in state.titles_scored.items()},
        "names": named,
    }
    mine = state.pending is not None and state.pending.kind == "keep-titles"
    if seat is not None and mine and state.pending is not None and state.pending.seat == seat:
        data["pending"] = codec.encode(state.pending)
    return data


def prompts(state: GloryState, with_moves: bool = True) -> list[Prompt]:
    out: list[Prompt] = []
    for seat in turn.to_act(state):
        params = {"phase": state.phase, "round": state.round}
        if seat == TABLE:
            out.append(Prompt(TABLE, _table_code(state), params))
            continue
        moves = tuple(turn.legal_moves_of(state, seat)) if with_moves else ()
        out.append(Prompt(seat, _seat_code(state), params, moves))
    return out


def _table_code(state: GloryState) -> str:
    p = state.pending
    if p is not None:
        return "prompt/roll" if p.kind == "duel" else f"prompt/{p.kind}"
    return {"setup": "prompt/setup-deal", "hands": "prompt/deal-hands", "refresh":
            "prompt/refill", "registration": "prompt/fill-bracket", "tournament":
            "prompt/next-tournament", "action": "prompt/solo-card"}.get(state.phase,
                                                                       "prompt/table")  # fmt: skip


def _seat_code(state: GloryState) -> str:
    p = state.pending
    if p is not None:
        return f"prompt/duel-{state.duel.step}" if p.kind == "duel" and state.duel else \
            f"prompt/{p.kind}"  # fmt: skip
    if state.phase in ("quest", "final-quest", "tournament"):
        return "prompt/play-quest"
    return {"characters": "prompt/choose-character", "keep": "prompt/keep-cards",
            "action": "prompt/place-pawn", "registration": "prompt/register",
            "titles": "prompt/title-duel"}.get(state.phase, "prompt/act")  # fmt: skip


def score(state: GloryState) -> tuple[ScoreRow, ...]:
    """Glory with its ledger; ties broken by Prestige tokens, active or not [L1024-1026]."""
    rows = []
    for p in state.players:
        if p.sir and state.options.get("solo") != "rywal":
            continue
        lines = tuple(ledger_line(x) for x in state.ledger if x.seat == p.seat)
        rows.append((p.seat, p.glory, lines, (p.glory, prestige_total(p))))
    ranked = sorted(rows, key=lambda r: r[3], reverse=True)
    out = []
    for seat, total, lines, key in rows:
        rank = 1 + sum(1 for r in ranked if r[3] > key)
        out.append(ScoreRow(seat, total, lines, key[1:], rank))
    return tuple(out)


def winners(state: GloryState) -> tuple[str, ...]:
    """Most Glory; then most Prestige tokens; still tied: a shared draw [L1024-1026]."""
    if state.phase != "over":
        return ()
    solo = state.options.get("solo")
    if solo:
        return solo_winners(state)
    rows = score(state)
    best = max((r.total, *r.tiebreak) for r in rows)
    return tuple(r.seat for r in rows if (r.total, *r.tiebreak) == best)
