"""``herald bench …``: benchmarks shipped with the installed package.

``herald bench vision [--json] [--scenes N] [--frames N] [--moves N]`` runs ``vision.bench.run``: a
seeded simulated stream for the per-frame cost and seeded hard scenes for recall, precision and
top-1 (docs/vision.md, "Measured figures"), then ``bridge.settle_latency.measure``: ``--moves``
moves of the simulated camera to a served table and real Socket.IO clients, for the settle-to-phone
latency (``settle_to_phone``). Progress goes to stderr with rich; ``--json`` prints one line on
stdout, the contract keys first. Small ``--scenes``/``--frames`` make it quick (the figures are
then rough)."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from bridge.game_files import camera_games, camera_profile, drawable_games
from bridge.settle_latency import measure
from engine.i18n import message
from vision.bench import run
from vision.families import FAMILIES
from vision.scenes import TILE_MM

err = Console(stderr=True, highlight=False)
out = Console(highlight=False, soft_wrap=True)


@click.group()
def bench() -> None:
    """Measure Herald on seeded synthetic input (figures, not pass/fail)."""


@bench.command(name="vision")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON line.")
@click.option("--scenes", default=30, show_default=True, type=click.IntRange(1, 1000),
              help="Hard scenes for recall, precision and top-1 (seeds 9000+).")  # fmt: skip
@click.option("--frames", default=150, show_default=True, type=click.IntRange(1, 10000),
              help="Frames of the simulated stream for the per-frame cost.")  # fmt: skip
@click.option("--family-scenes", default=10, show_default=True, type=click.IntRange(0, 1000),
              help="Scenes per scene family (vision.families; 0: none).")  # fmt: skip
@click.option("--negatives", is_flag=True,
              help="Also count false ids on marker-free OpenCV sample photos (slow).")  # fmt: skip
@click.option("--moves", default=10, show_default=True, type=click.IntRange(0, 1000),
              help="Camera moves for the settle-to-phone latency (0: not measured).")  # fmt: skip
@click.option("--game", "game_key", default=None,
              help="Whose board profile the scenes lie on (default: the first game a camera "
              "can read whose board has slots for the scenes' tiles and a card tray).")  # fmt: skip
def vision_cmd(
    as_json: bool,
    scenes: int,
    frames: int,
    family_scenes: int,
    negatives: bool,
    moves: int,
    game_key: str | None,
) -> None:
    """Marker recall and ID precision, tile and card top-1, per-frame pipeline cost."""
    readable = camera_games()
    if not readable or (game_key is not None and game_key not in readable):
        raise click.BadParameter(message("bench/no-camera-game", game=game_key or "-",
                                         choices=", ".join(readable) or "-"),
                                 param_hint="--game")  # fmt: skip
    key = game_key or _default_game(readable)
    profile = camera_profile(key)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=True) as bar:
        tasks = {
            "stream": bar.add_task(message("bench/stream"), total=frames),
            "scenes": bar.add_task(message("bench/scenes"), total=scenes),
            "families": bar.add_task(
                message("bench/families"), total=family_scenes * (len(FAMILIES) + 1)
            ),
        }

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(tasks[stage], completed=done, total=total)

        figures = run(profile, scenes, frames, progress, family_scenes, negatives)
    if moves and key in drawable_games():
        figures["settle_to_phone"] = measure(key, moves)
    if as_json:
        click.echo(json.dumps(figures))
        return
    out.print(message("bench/done", frames=frames, scenes=scenes,
                      resolution=figures["resolution"]))  # fmt: skip
    for key, value in figures.items():
        out.print(f"  {key:28} {value}")


@bench.command(name="questions")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON line.")
@click.option("--moves", default=400, show_default=True, type=click.IntRange(1, 5000),
              help="Moves of each simulated game set-up read back by the rules.")  # fmt: skip
@click.option("--camera", "camera_moves", default=0, show_default=True,
              type=click.IntRange(0, 1000),
              help="Steps of the simulated camera per game through the real pipeline "
              "(0: not measured; about 0.4 s of CPU a step).")  # fmt: skip
@click.option("--game", "game_keys", multiple=True, help="Only these games (default: all).")
def questions_cmd(as_json: bool, moves: int, camera_moves: int, game_keys: tuple[str, ...]) -> None:
    """How often the camera asks: per game, the share of table-visible moves read without a
    question (bridge.question_share)."""
    from bridge.question_share import camera_share, rules_share

    drawable = drawable_games()
    unknown = [k for k in game_keys if k not in drawable]
    if unknown:
        raise click.BadParameter(message("bench/no-camera-game", game=", ".join(unknown),
                                         choices=", ".join(drawable) or "-"),
                                 param_hint="--game")  # fmt: skip
    figures: dict[str, Any] = {}
    for key in game_keys or drawable:
        figures[key] = {"rules": rules_share(key, moves)}
        if camera_moves:
            figures[key]["camera"] = camera_share(key, camera_moves)
    if as_json:
        click.echo(json.dumps(figures))
        return
    for key, per in figures.items():
        for measure_name, value in per.items():
            out.print(f"  {key:12} {measure_name:7} {value}")


def _default_game(readable: tuple[str, ...]) -> str:
    """The first game whose board has what the hard scenes lay out (tiles in ``slot`` regions
    at least a scene tile wide, cards on a ``tray``: vision.scenes), so tile and card top-1 are
    measured; a board without them (a map board of Villages only) would leave both unscored,
    and slots narrower than the scenes' tiles (32 mm card slots) would read none."""
    for key in readable:
        profile = camera_profile(key)
        slots = profile.regions_of_kind("slot")
        wide = slots and all(min(r.rect[2], r.rect[3]) >= TILE_MM for r in slots)
        if wide and profile.regions_of_kind("tray"):
            return key
    return readable[0]
