"""A readable transcript of a seeded simulated game: one line per event, each coin itemised.

Checked into tests as a golden file (OpenSpiel's practice): any change to the rules' outcome on
the same seed shows up as a diff a person can read.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import codec, get_game, log, present, selfplay


def transcript(game_key: str, players: tuple[str, ...], seed: int) -> str:
    game = get_game(game_key)
    out: list[str] = [f"# {game.info.name}: {', '.join(players)}; seed {seed}"]

    def record(session: log.Session, event: log.Event) -> None:
        move: dict[str, Any] = codec.encode(event.move)
        kind = move.pop("kind")
        seat = move.pop("seat", game.actor(event.move))
        out.append(f"{session.state_id:4d} {seat} {kind} {json.dumps(move, sort_keys=True)}")
        for seat, line in present.last_lines(game, session.state):
            out.append(f"       {seat}: {line.amount:+d} {game.describe(line)}")

    result = selfplay.play(game, players, random.Random(seed), on_event=record)
    out.append("# final")
    for row in game.score(result.session.state):
        lines = "; ".join(game.describe(line) for line in row.lines)
        out.append(f"{row.rank}. {row.seat} {row.total} ({lines}) tie-break {list(row.tiebreak)}")
    out.append(f"winners: {', '.join(game.winners(result.session.state))}")
    out.extend(f"ERROR {e}" for e in result.errors)
    return "\n".join(out) + "\n"
