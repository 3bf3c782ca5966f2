"""Vision benchmark: marker recall/precision, tile and card top-1, per-frame pipeline cost.

Run: ``python bench/vision.py [--json] [--scenes N] [--frames N]`` (the same as
``herald bench vision``). The figures and how they are measured: ``vision/bench.py`` and
docs/vision.md ("Measured figures").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridge.game_files import camera_profile, drawable_games
from bridge.settle_latency import measure
from vision.bench import run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--scenes", type=int, default=30)
    ap.add_argument("--frames", type=int, default=150)
    ap.add_argument("--family-scenes", type=int, default=10)
    ap.add_argument("--negatives", action="store_true")
    ap.add_argument("--moves", type=int, default=10, help="camera moves for the latency (0: none)")
    ap.add_argument("--game", required=True, help="the game whose camera profile is read")
    args = ap.parse_args()

    def log(stage: str, done: int, total: int) -> None:
        if not args.json and (done == total or done % 10 == 0):
            print(f"{stage}: {done}/{total}", file=sys.stderr)

    figures = run(
        camera_profile(args.game), args.scenes, args.frames, log, args.family_scenes, args.negatives
    )
    if args.moves and args.game in drawable_games():
        figures["settle_to_phone"] = measure(args.game, args.moves)
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:28} {v}")


if __name__ == "__main__":
    main()
