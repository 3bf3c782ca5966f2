"""Engine throughput: whole random legal games per second, by player count, on one core.

Runs the same checked path as `herald rules GAME selfplay` (legal_moves → rules.apply → log),
chance sampled as a shuffled physical table would show it, over the game's simulated setups
(a game whose default data cannot be played names them, e.g. a stand-in data set). Reports the
median of several repeats, and moves per second, for each player count from 2.
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

# Run as `python bench/engine.py`, this file's folder comes first on sys.path and its own name
# would shadow the `engine` package it measures.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

from engine import data as gamedata  # noqa: E402
from engine import game_keys, get_game, selfplay  # noqa: E402


def bench(game_key: str, players: int, games: int, repeats: int) -> dict[str, float]:
    game = get_game(game_key)
    seats = tuple(f"p{i}" for i in range(players))
    setups = selfplay.setups(game, players)
    data = [gamedata.load(game, s.options) for s in setups]  # loaded once, as a table does
    rates, move_rates = [], []
    for r in range(repeats):
        rng = random.Random(1000 * players + r)
        moves = 0
        start = time.perf_counter()
        for i in range(games):
            options = setups[i % len(setups)].options
            result = selfplay.play(game, seats, rng, options, data=data[i % len(setups)])
            assert not result.errors, result.errors
            moves += result.session.state_id
        elapsed = time.perf_counter() - start
        rates.append(games / elapsed)
        move_rates.append(moves / elapsed)
    return {
        "players": players,
        "games_per_s_median": round(statistics.median(rates), 1),
        "games_per_s_min": round(min(rates), 1),
        "moves_per_s_median": round(statistics.median(move_rates)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True, choices=game_keys())
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    counts = sorted({s.players for s in selfplay.setups(get_game(args.game))} - {1})
    rows = [bench(args.game, n, args.games, args.repeats) for n in counts]
    if args.json:
        print(json.dumps({"game": args.game, "python": platform.python_version(), "rows": rows}))
        return
    print(f"{args.game}: {args.games} games x {args.repeats} repeats, Python "
          f"{platform.python_version()}, one process")  # fmt: skip
    print(f"{'players':>7} {'games/s (median)':>17} {'min':>8} {'moves/s':>9}")
    for row in rows:
        print(f"{row['players']:>7} {row['games_per_s_median']:>17} {row['games_per_s_min']:>8} "
              f"{row['moves_per_s_median']:>9}")  # fmt: skip


if __name__ == "__main__":
    main()
