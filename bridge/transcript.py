"""A readable transcript of a seeded simulated game: one line per event, each coin itemised.

Checked into tests as a golden file (OpenSpiel's practice): any change to the rules' outcome on
the same seed shows up as a diff a person can read.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import codec, get_game, log, present, selfplay


def transcript(
    game_key: str, players: tuple[str, ...], seed: int, options: dict[str, Any] | None = None
) -> str:
    """The transcript of one seeded selfplay game; its first lines say how to play it again
    (``parse_header``)."""
    game = get_game(game_key)
    out: list[str] = [f"# {game.info.name}: {', '.join(players)}; seed {seed}"]
    if options:
        out.append(f"# options: {json.dumps(options, sort_keys=True)}")

    def record(session: log.Session, event: log.Event) -> None:
        move: dict[str, Any] = codec.encode(event.move)
        kind = move.pop("kind")
        seat = move.pop("seat", game.actor(event.move))
        out.append(f"{session.state_id:4d} {seat} {kind} {json.dumps(move, sort_keys=True)}")
        names = present.state_names(game, session.state)  # printed names, as the pages say
        for seat, line in present.last_lines(game, session.state):
            said = game.describe(present.named_line(line, names))
            out.append(f"       {seat}: {line.amount:+d} {said}")

    result = selfplay.play(game, players, random.Random(seed), options, on_event=record)
    out.append("# final")
    names = present.state_names(game, result.session.state)
    for row in game.score(result.session.state):
        lines = "; ".join(game.describe(present.named_line(line, names)) for line in row.lines)
        out.append(f"{row.rank}. {row.seat} {row.total} ({lines}) tie-break {list(row.tiebreak)}")
    out.append(f"winners: {', '.join(game.winners(result.session.state))}")
    out.extend(f"ERROR {e}" for e in result.errors)
    return "\n".join(out) + "\n"


def parse_header(text: str) -> tuple[tuple[str, ...], int, dict[str, Any]]:
    """The seats, seed and options a transcript was made with (its first lines)."""
    lines = text.splitlines()
    first = lines[0] if lines else ""
    try:
        seats_part, seed_part = first.split(": ", 1)[1].rsplit("; seed ", 1)
        seats = tuple(s.strip() for s in seats_part.split(","))
        seed = int(seed_part)
    except (IndexError, ValueError):
        raise ValueError(f"not a transcript header: {first!r}") from None
    options: dict[str, Any] = {}
    if len(lines) > 1 and lines[1].startswith("# options: "):
        options = json.loads(lines[1][len("# options: ") :])
    return seats, seed, options
