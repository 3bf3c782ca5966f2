"""France 1429 at the table (issue 13, "Tests"): the table display and two phones through a whole
round with a battle and an election, in Debian's chromium.

The move-level simulated table (seed 1, four seats) plays offline to the first state of round 7,
a round that holds a Bishop election (digest §10.2) and a battle (§9); it plays on to round 8,
and every move of round 7 is recorded. A real ``herald serve`` (``--sim off``) resumes the
session at the start of round 7, and the test replays the round move by move, so the run is
the same every time: a Socket.IO client with the host's token sends each move (the host may
make any move), except the sealed votes of the two voters, whose phones cast them with their own
buttons.

The table display and both phones follow the round. Every Socket.IO frame that reaches a page is
kept: none that reaches the table or the other phone carries a vote's move (the reveal shows the
markers, never the move), and before the reveal neither page shows or holds the seat's own
markers. Screenshots of each stage go to ``artifacts/pages/`` (git-ignored).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser_support import launch, needs_chromium
from srv_support import Served, Watcher, serve

from bridge.referee import Outcome, Referee
from bridge.simtable import SimConfig, SimTable
from bridge.store import open_store
from engine import get_game
from engine.games.france1429 import war
from engine.games.france1429.state import FranceState

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "pages"
WAIT_MS = 60_000
TABLE_SIZE = {"width": 1280, "height": 900}
PHONE_SIZE = {"width": 390, "height": 844}
SEATS = ("blue", "green", "pink", "yellow")
ROUND = 7  # seed 1's first round with both an election and a battle
MAX_MOVES = 1000

pytestmark = [
    pytest.mark.slow,
    needs_chromium,
]


@dataclass(frozen=True)
class Step:
    """One recorded move: the state it was made in, the move's JSON, and the state after it (and
    after any turn the referee passed on its own: ``auto_pass``)."""

    state_id: int
    move: dict[str, Any]
    after: FranceState
    after_id: int


@dataclass(frozen=True)
class Round:
    served: Served
    start: FranceState
    steps: list[Step]


def record_round(db: Path, copy: Path) -> tuple[FranceState, list[Step]]:
    """Play seed 1 to round ``ROUND`` (``copy`` keeps the store as it was then), then on to the
    next round, recording each move."""
    store = open_store(db)
    try:
        game = get_game("france1429")
        referee = Referee.open(store, game, "t1", SEATS, {"data": "stand-in"})
        sim = SimTable(referee, SimConfig(mode="all", seed=1))
        for _ in range(MAX_MOVES):
            if referee.session.state.round == ROUND:
                break
            assert sim.step(), "the simulated game ended first"
        start: FranceState = referee.session.state
        assert start.round == ROUND, f"round {ROUND} not reached in {MAX_MOVES} moves"
        with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)  # a consistent snapshot, with the referee's store still open
        steps: list[Step] = []
        observe = referee.observe

        def recording(
            source: str,
            move: Any,
            state_id: int | None = None,
            frame: tuple[bytes, dict[str, Any]] | None = None,
        ) -> Outcome:
            outcome = observe(source, move, state_id, frame)
            if outcome.ok:
                assert state_id is not None
                steps.append(Step(state_id, move, referee.session.state, referee.session.state_id))
            return outcome

        referee.observe = recording  # type: ignore[method-assign]
        for _ in range(MAX_MOVES):
            if referee.session.state.round != ROUND:
                return start, steps
            assert sim.step(), "the simulated game ended first"
        raise AssertionError(f"round {ROUND} did not end in {MAX_MOVES} moves")
    finally:
        store.close()


@pytest.fixture(scope="module")
def round_(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Round]:
    tmp = tmp_path_factory.mktemp("france-round")
    start, steps = record_round(tmp / "played.db", tmp / "f.db")
    served = serve(tmp / "f.db", "--game", "france1429", "--sim", "off")
    yield Round(served, start, steps)
    served.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


class Page:
    """A chromium page and every Socket.IO frame it received, in order."""

    def __init__(self, browser: Any, url: str, errors: list[str], phone: bool) -> None:
        size = PHONE_SIZE if phone else TABLE_SIZE
        self.page = browser.new_page(viewport=size, is_mobile=phone, locale="en-GB")
        self.frames: list[str] = []
        self.page.on("pageerror", lambda e: errors.append(f"{url}: {e}"))
        self.page.on("websocket", self._socket)
        self.page.goto(url + "?lang=en")

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda f: self.frames.append(f if isinstance(f, str) else ""))

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(SHOTS / f"france1429-round-{name}.png"), full_page=True)


def test_a_whole_round_with_a_battle_and_an_election(browser: Any, round_: Round) -> None:
    """Round 7 of seed 1 on the table display and two phones: the Bishop election shows how
    many sealed votes are in and never what they hold until the reveal (digest §10.2), then
    the markers and the result with its rule; the battle panel shows both sides' strength
    points and Battle Dice (§9.2), the roll's hits and who owes losses (§9.4); the round ends
    and the display says round 8."""
    from playwright.sync_api import expect

    served, start, steps = round_.served, round_.start, round_.steps
    votes = [s for s in steps if s.move.get("kind") == "vote"]
    battles = [s for s in steps if s.after.battle is not None and s.after.battle.hits]
    assert len(votes) >= 2 and battles, "round 7 of seed 1 no longer has an election and a battle"
    phones_of = [v.move["seat"] for v in votes[:2]]  # the first two families to seal
    errors: list[str] = []
    display = Page(browser, served.host_url, errors, phone=False)
    phones = {seat: Page(browser, served.seat_urls[seat], errors, phone=True) for seat in phones_of}
    expect(display.page.locator("#fr-map")).to_be_visible(timeout=WAIT_MS)
    expect(display.page.locator("#fr-phase")).to_contain_text(f"Round {ROUND} ", timeout=WAIT_MS)
    for phone in phones.values():
        expect(phone.page.locator("#fr-map .fr-village").first).to_be_visible(timeout=WAIT_MS)
    display.shot("1-start")

    host = Watcher(served.base, served.host_token)
    sealed: dict[str, str] = {}  # each phone seat's own "You sealed" line, until the reveal
    cast: list[str] = []  # the phones that sealed a vote
    revealed = False
    shot_battle = False
    try:
        for step in steps:
            seat = str(step.move.get("seat", ""))
            if step.move.get("kind") == "vote" and seat in phones:
                cast.append(seat)
                said = cast_on_phone(phones[seat].page, step)
                if said is not None:
                    sealed[seat] = said
            else:
                reply = host.client.call(
                    "intent", {"state_id": step.state_id, "kind": "move", "move": step.move},
                    timeout=90,
                )  # fmt: skip
                assert reply["ok"], reply
            expect(display.page.locator("#summary")).to_have_attribute(
                "data-state-id", str(step.after_id), timeout=WAIT_MS
            )
            state = step.after
            election = state.election is not None or state.last_election != start.last_election
            if election or state.battle is not None:  # the phones too, before looking at them
                for phone in phones.values():
                    expect(phone.page.locator("#summary")).to_have_attribute(
                        "data-state-id", str(step.after_id), timeout=WAIT_MS
                    )
            if state.election is not None and state.election.stage == "vote":
                check_sealed_count(display.page, state)
                check_unseen(display, phones, sealed)
                if len(state.sealed.commits) == 1:
                    display.shot("2-election-one-sealed")
                    for s, p in phones.items():
                        p.shot(f"2-phone-{s}")
            if state.last_election is not None and not revealed and cast:
                revealed = True
                for s, p in phones.items():
                    p.shot(f"3-phone-{s}-revealed")
                check_unseen_frames(display, phones, cast)
                check_reveal(display.page, state)
                display.shot("3-election-revealed")
            b = state.battle
            if b is not None and b.hits and not shot_battle:
                shot_battle = True
                check_battle(display.page, state)
                named = display.page.locator("#fr-battle h2").inner_text()
                for phone in phones.values():  # the Village by its name, as on the table
                    expect(phone.page.locator("#fr-battle h2")).to_have_text(named)
                display.shot("4-battle")
                phones[phones_of[0]].shot("4-phone-battle")
        assert revealed, "no reveal in the round"
        assert shot_battle, "no battle roll in the round"
        assert cast == phones_of, cast
        expect(display.page.locator("#fr-phase")).to_contain_text(
            f"Round {ROUND + 1} ", timeout=WAIT_MS
        )
        for phone in phones.values():
            expect(phone.page.get_by_role("banner")).to_contain_text(f"Round {ROUND + 1} ")
        display.shot("5-next-round")
        # the whole round's frames: the table and the other phone never got a vote's move
        check_unseen_frames(display, phones, cast)
        assert any(f.startswith('42["state"') for f in display.frames), "no frame was recorded"
        for phone in phones.values():
            assert any(f.startswith('42["seat_state"') for f in phone.frames), phone.frames[:3]
        for page in (display, *phones.values()):
            assert "france1429:ui/" not in page.page.inner_text("body")
    finally:
        host.close()
    assert not errors, errors


def cast_on_phone(page: Any, step: Step) -> str | None:
    """The recorded sealed vote, cast with the phone's buttons; the phone's own line about it
    (None when it was the last vote, which the reveal follows at once)."""
    from playwright.sync_api import expect

    form = page.locator("#fr-vote")
    expect(form).to_be_visible(timeout=WAIT_MS)
    form.locator(f"[data-marker='for'] button[data-choice='{step.move['vote_for']}']").click()
    form.locator(f"[data-marker='decoy'] button[data-choice='{step.move['decoy']}']").click()
    page.locator("#fr-seal").click()
    election = step.after.election
    if election is None or election.stage != "vote":  # the last vote: all are revealed at once
        expect(page.locator("#fr-last-election")).to_be_visible(timeout=WAIT_MS)
        return None
    mine = page.locator("#fr-your-vote")
    expect(mine).to_be_visible(timeout=WAIT_MS)
    said = str(mine.inner_text())
    assert said.startswith("You sealed: ")
    return said


def check_sealed_count(page: Any, state: FranceState) -> None:
    from playwright.sync_api import expect

    from engine.games.france1429 import hear_ye

    voters = hear_ye.voters(state)
    count = page.locator("#fr-election .fr-sealed-count")
    expect(count).to_have_text(f"Sealed votes in: {len(state.sealed.commits)} of {len(voters)}")
    for seat in voters:
        done = "yes" if any(s == seat for s, _ in state.sealed.commits) else "no"
        expect(page.locator(f".fr-voters li[data-voter='{seat}']")).to_have_attribute(
            "data-sealed", done
        )


def check_unseen(display: Page, phones: dict[str, Page], sealed: dict[str, str]) -> None:
    """Before the reveal: no page but the sealing seat's shows or holds what it sealed."""
    assert display.page.locator("#fr-your-vote").count() == 0
    for seat, said in sealed.items():
        assert said not in display.page.inner_text("body")
        for other, page in phones.items():
            if other != seat:  # the other phone shows only its own sealed vote, if any
                mine = page.page.locator("#fr-your-vote")
                if other in sealed:
                    assert mine.inner_text() == sealed[other]
                else:
                    assert mine.count() == 0
    check_unseen_frames(display, phones, list(sealed))


def check_unseen_frames(display: Page, phones: dict[str, Page], sealed: list[str]) -> None:
    """No frame that reached the table or another phone carries a seat's sealed vote: neither
    the move (``{"kind": "vote", "seat": ..., "vote_for": n, "decoy": n}``, also its choices in
    the seat's own prompt) nor a seat view's own markers (``yours``) on the table."""
    for frame in display.frames:
        assert '"yours"' not in frame, frame[:300]
        assert '"kind":"vote","seat"' not in frame, frame[:300]
    for seat in sealed:
        secret = f'"kind":"vote","seat":"{seat}"'
        for other, page in phones.items():
            if other != seat:
                for frame in page.frames:
                    at = frame.find(secret)
                    assert at < 0, frame[max(0, at - 400) : at + 200]


def check_reveal(page: Any, state: FranceState) -> None:
    from playwright.sync_api import expect

    last = state.last_election
    assert last is not None
    panel = page.locator("#fr-last-election")
    expect(panel).to_be_visible(timeout=WAIT_MS)
    for seat, *_ in last.markers:
        expect(panel.locator(f".fr-markers li[data-seat='{seat}']")).to_be_visible()
    expect(panel.locator(".fr-rule")).not_to_be_empty()
    held = json.loads(page.evaluate("JSON.stringify(window.heraldTable.latest().view)"))
    assert held["last_election"]["markers"] == [list(m) for m in last.markers]
    assert held["last_election"]["winner"] == last.winner


def check_battle(page: Any, state: FranceState) -> None:
    from playwright.sync_api import expect

    b = state.battle
    assert b is not None
    panel = page.locator("#fr-battle")
    expect(panel).to_be_visible(timeout=WAIT_MS)
    assert panel.get_attribute("data-village") == b.village
    for role, seat in (("attacker", b.attacker), ("defender", b.defender)):
        side = panel.locator(f".fr-side[data-side='{role}']")
        expect(side).to_have_attribute("data-seat", seat)
        expect(side.locator(".fr-sp")).to_have_text(str(war.strength(state, seat, b.village)))
        expect(side.locator(".fr-dice")).to_have_text(str(war.dice(state, b, seat)))
        expect(side.locator(".fr-hits")).to_have_text(str(b.hits.get(seat, "—")))
        assert ("owing" in (side.get_attribute("class") or "")) == (seat in b.owing)
