"""A whole round at the table, for each game that gives its part (served_round.py): the table
display and two phones follow a real ``herald serve`` in Debian's chromium while the round is
replayed move by move, each phone making its own seat's moves with its buttons.

For every game: each page shows each state the round goes through, receives its Socket.IO
frames (the table its ``state``, a phone its ``seat_state``), raises no script error, and no
page shows or holds what only another seat may know (each game's part checks its own secrets:
France 1429's sealed votes, Viscounts' hands). The game's part checks what its pages must show:
France 1429's election and battle (issue 13), Viscounts' board, Castle, player boards and hands
(issue 14). Screenshots go to ``artifacts/pages/`` (git-ignored).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from browser_fixtures import Tabs, browser, playwright  # noqa: F401 (fixtures)
from browser_support import Framed, needs_chromium
from played_support import PlayedStores, played  # noqa: F401 (a fixture)
from round_france1429 import FranceRound
from round_viscounts import ViscountsRound
from served_round import RoundPart
from srv_support import Watcher, serve

PARTS: dict[str, Callable[[], RoundPart]] = {
    "france1429": FranceRound,
    "viscounts": ViscountsRound,
}

pytestmark = [pytest.mark.slow(seconds=50), needs_chromium]


@pytest.mark.parametrize(
    "game", [pytest.param(k, marks=pytest.mark.xdist_group(f"round-{k}")) for k in sorted(PARTS)]
)
def test_a_whole_round_on_the_table_display_and_two_phones(
    browser: Tabs,  # noqa: F811 (the fixture imported above)
    played: PlayedStores,  # noqa: F811
    tmp_path: Path,
    game: str,
) -> None:
    part = PARTS[game]()
    round_ = played.get(part.point)
    steps = round_.steps
    served = serve(round_.copy(tmp_path), "--game", game, "--sim", "off")
    errors: list[str] = []
    try:
        display = Framed(browser, served.host_url, errors, phone=False)
        phones = {
            seat: Framed(browser, served.seat_urls[seat], errors, phone=True)
            for seat in part.phone_seats(round_)
        }
        part.at_start(display, phones, round_)
        host = Watcher(served.base, served.host_token)
        try:
            for step in steps:
                if not part.on_phone(step, phones):
                    reply = host.client.call(
                        "intent", {"state_id": step.state_id, "kind": "move", "move": step.move},
                        timeout=90,
                    )  # fmt: skip
                    assert reply["ok"], reply
                display.at(step.after_id, part.wait_ms)
                part.after(step, display, phones)
            assert steps[-1].after.round == part.round + 1
            part.at_end(display, phones, round_, host)
            assert any(f.startswith('42["state"') for f in display.frames), "no frame recorded"
            for phone in phones.values():
                assert any(f.startswith('42["seat_state"') for f in phone.frames), phone.frames[:3]
        finally:
            host.close()
    finally:
        served.stop()
    assert not errors, errors
