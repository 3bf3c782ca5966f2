"""The referee on Viscounts boxes unlike the shipped sets (issue #24, Tests: "selfplay of each game
over a second, very different data set that the tests generate ... other card mixes, 0 errors"):
generated sets (``generated_viscounts``: other Townsfolk, Manuscript, Scheme and Building mixes and
costs, effects drawn from the whole effect grammar, another board) packed as box files, read back,
checked as ``herald box check`` checks them, and played to the end by random legal moves with every
position checked, solo (against an AI) and with 2, 3 and 4 players."""

from __future__ import annotations

import random

import pytest

from bridge.box.file import box_data, read_box
from bridge.box.report import checked
from bridge.box.workshop import Draft
from bridge.seats import seat_names
from engine import registry, selfplay

from .generated_viscounts import viscounts_doc, viscounts_files

SEEDS = (1, 2, 3, 4, 5, 6)


def test_generated_sets_differ_from_the_stand_in_and_from_each_other() -> None:
    shipped = registry.package_files("viscounts").joinpath("data")
    stand_in = shipped.joinpath("stand-in-invented.json").read_text(encoding="utf-8")
    docs = [viscounts_doc(seed) for seed in SEEDS]
    mixes = {tuple(c["count"] for c in d["townsfolk"] if c["deck"] == "common") for d in docs}
    sites = {len(d["board"]["sites"]) for d in docs}
    assert len(mixes) == len(SEEDS) and len(sites) > 1
    assert all(d["board"]["sites"] != [] and d["name"] not in stand_in for d in docs)
    assert viscounts_doc(SEEDS[0]) == docs[0]  # the same seed, the same set


@pytest.mark.parametrize("seed", SEEDS)
def test_viscounts_plays_whole_games_on_a_generated_box(seed: int) -> None:
    game = registry.get_game("viscounts")
    draft = Draft("viscounts", f"generated {seed}", "data.json", viscounts_files(seed))
    box = read_box(draft.box().to_bytes())
    _, plays = checked(game, box, "generated")
    assert plays.playable == (1, 2, 3, 4)
    data = box_data(game, box, "generated")
    assert data.value.name == f"generated Viscounts box {seed}"
    rng = random.Random(seed)
    for players in (1, 2, 3, 4):
        options = selfplay.setups(game, players, {"data": "generated"})[0].options
        result = selfplay.play(game, seat_names(players), rng, options, check_positions=True,
                               data=data)  # fmt: skip
        assert result.errors == [], result.errors
        assert game.is_over(result.session.state)
