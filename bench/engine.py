"""Engine throughput: whole random legal games per second, by player count, on one core.

Runs the same checked path as `herald rules GAME selfplay` (legal_moves → rules.apply → log),
chance sampled as a shuffled physical table would show it, over the game's simulated setups
(a game whose default data cannot be played names them, e.g. a stand-in data set). Reports the
median of several repeats, and moves per second, for each player count (1: solo against the
game's automated opponent, its moves counted too); and the time of one ``legal_moves`` call on
mid-game positions (the middle fifth of each game of the first repeat), median and 90th
percentile, which is what a phone or the camera waits for.
Usage: python bench/engine.py [--game KEY] [--games 200] [--repeats 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# Run as `python bench/engine.py`, this file's folder comes first on sys.path and its own name
# would shadow the `engine` package it measures.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

from engine import data as gamedata  # noqa: E402
from engine import game_keys, get_game, selfplay  # noqa: E402
from engine.game import TABLE  # noqa: E402


def bench(game_key: str, players: int, games: int, repeats: int) -> dict[str, float]:
    game = get_game(game_key)
    seats = tuple(f"p{i}" for i in range(players))
    setups = selfplay.setups(game, players)
    data = [gamedata.load(game, s.options) for s in setups]  # loaded once, as a table does
    rates, move_rates = [], []
    positions: list[Any] = []
    for r in range(repeats):
        rng = random.Random(1000 * players + r)
        moves = 0
        start = time.perf_counter()
        for i in range(games):
            options = setups[i % len(setups)].options
            seen: list[Any] = []
            hook = (lambda session, _e, seen=seen: seen.append(session.state)) if r == 0 else None
            result = selfplay.play(
                game, seats, rng, options, data=data[i % len(setups)], on_event=hook
            )
            assert not result.errors, result.errors
            moves += result.session.state_id
            positions.extend(_middle(game, seen))
        elapsed = time.perf_counter() - start
        rates.append(games / elapsed)
        move_rates.append(moves / elapsed)
    legal = _legal_moves_ms(game, positions)
    return {
        "players": players,
        "games_per_s_median": round(statistics.median(rates), 1),
        "games_per_s_min": round(min(rates), 1),
        "moves_per_s_median": round(statistics.median(move_rates)),
        "legal_moves_ms_median": legal[0],
        "legal_moves_ms_p90": legal[1],
    }


def _middle(game: Any, states: list[Any]) -> list[Any]:
    """Every third seat-to-act position of the middle fifth of a game's states."""
    lo, hi = 2 * len(states) // 5, 3 * len(states) // 5
    return [s for s in states[lo:hi:3] if TABLE not in game.to_act(s)]


def _legal_moves_ms(game: Any, positions: list[Any]) -> tuple[float, float]:
    """Median and 90th percentile of one legal_moves call, each position timed best of 3."""
    times = []
    for state in positions[:400]:
        best = min(_timed(game, state) for _ in range(3))
        times.append(best * 1000)
    if not times:
        return (0.0, 0.0)
    times.sort()
    return (round(statistics.median(times), 3), round(times[int(0.9 * (len(times) - 1))], 3))


def _timed(game: Any, state: Any) -> float:
    start = time.perf_counter()
    game.legal_moves(state)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True, choices=game_keys())
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    counts = sorted({s.players for s in selfplay.setups(get_game(args.game))})
    rows = [bench(args.game, n, args.games, args.repeats) for n in counts]
    if args.json:
        print(json.dumps({"game": args.game, "python": platform.python_version(), "rows": rows}))
        return
    print(f"{args.game}: {args.games} games x {args.repeats} repeats, Python "
          f"{platform.python_version()}, one process")  # fmt: skip
    print(f"{'players':>7} {'games/s (median)':>17} {'min':>8} {'moves/s':>9} "
          f"{'legal_moves ms (median / p90)':>30}")  # fmt: skip
    for row in rows:
        legal = f"{row['legal_moves_ms_median']} / {row['legal_moves_ms_p90']}"
        print(f"{row['players']:>7} {row['games_per_s_median']:>17} {row['games_per_s_min']:>8} "
              f"{row['moves_per_s_median']:>9} {legal:>30}")  # fmt: skip


if __name__ == "__main__":
    main()
