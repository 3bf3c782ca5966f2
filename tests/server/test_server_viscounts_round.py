"""Viscounts of the West Kingdom at the table (issue 14, "At the table" and "Tests"): the table
display and two phones through a whole simulated round in Debian's chromium, and ``herald serve
--game viscounts`` playing a simulated game with phones joining.

The round: the move-level simulated table (seed 2, three seats, stand-in data) plays offline to
the first state of round 2 and on to round 3, recording every move of round 2. A real ``herald
serve`` (``--sim off``) resumes at the start of round 2 and the round is replayed move by move,
so the run is the same every time: each move of the two phone seats is made with the phone's own
buttons (found by the move the referee offers, then confirmed), every other move (the other
seat's, the table's reports of cards drawn) is sent with the host's token.

After every turn the table display shows what the state holds: the circular board (each
Viscount's pawn on its town, every part's deck top and Manuscript stack, the Buildings on their
sites in their owners' colours), the Castle's Workers level by level, and each player's board
(the three card spaces in order, Virtue and Corruption, Debts and Deeds, the Building strip).
Each phone shows its own hand with every card's effect, and offers its options with what they
yield; no page but the owner's shows or holds a hand. Screenshots go to ``artifacts/pages/``.
"""

from __future__ import annotations

import re
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
from engine.games.viscounts import views
from engine.games.viscounts.state import VState

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "pages"
WAIT_MS = 90_000
END_WAIT_MS = 300_000  # a whole simulated game on a loaded machine
TABLE_SIZE = {"width": 1280, "height": 900}
PHONE_SIZE = {"width": 390, "height": 844}
SEATS = ("blue", "green", "pink")
SEED = 2
ROUND = 2  # seed 2's second round: pink has a Building on the board
MAX_MOVES = 1000
PHASE_MOVES = {"play": "play", "travel": "move", "trade": "action", "build": "action",
               "workers": "action", "transcribe": "action", "skip": "action", "hire": "hire",
               "pass": "hire"}  # fmt: skip
"""A seat's own move and the phase of its turn it belongs to (digest §4: phases 1-4; the
Collision is the referee's, the draw is the table's report)."""

LOGGED = {"play": r"\n{seat} plays ", "move": r"\n{seat} moves ",
          "action": r"\n{seat} (makes|builds|places|transcribes|takes no main action)",
          "hire": r"\n{seat} hires "}  # fmt: skip
"""Each phase of a seat's turn as the log says it (the referee passes a phase with no choice)."""

pytestmark = [
    pytest.mark.slow,
    needs_chromium,
]


@dataclass(frozen=True)
class Step:
    """One recorded move: the state it was made in (its id and value), the move's JSON, and the
    state after it."""

    state_id: int
    before: VState
    move: dict[str, Any]
    after: VState
    after_id: int


@dataclass(frozen=True)
class Round:
    served: Served
    start: VState
    steps: list[Step]


def record_round(db: Path, copy: Path) -> tuple[VState, list[Step]]:
    """Play seed ``SEED`` to round ``ROUND`` (``copy`` keeps the store as it was then), then to
    the next round, recording each move."""
    store = open_store(db)
    try:
        referee = Referee.open(store, get_game("viscounts"), "t1", SEATS, {"data": "stand-in"})
        sim = SimTable(referee, SimConfig(mode="all", seed=SEED))
        for _ in range(MAX_MOVES):
            if referee.session.state.round == ROUND:
                break
            assert sim.step(), "the simulated game ended first"
        start: VState = referee.session.state
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
            before = referee.session.state
            outcome = observe(source, move, state_id, frame)
            if outcome.ok:
                assert state_id is not None
                after, after_id = referee.session.state, referee.session.state_id
                steps.append(Step(state_id, before, move, after, after_id))
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
    tmp = tmp_path_factory.mktemp("viscounts-round")
    start, steps = record_round(tmp / "played.db", tmp / "v.db")
    served = serve(tmp / "v.db", "--game", "viscounts", "--sim", "off")
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
    """A chromium page and the Socket.IO frames it received."""

    def __init__(self, browser: Any, url: str, errors: list[str], phone: bool) -> None:
        size = PHONE_SIZE if phone else TABLE_SIZE
        self.page = browser.new_page(viewport=size, is_mobile=phone, locale="en-GB")
        self.frames: list[str] = []
        self.page.on("pageerror", lambda e: errors.append(f"{url}: {e}"))
        self.page.on("websocket", self._socket)
        self.page.goto(url + "?lang=en")

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda f: self.frames.append(f if isinstance(f, str) else ""))

    def at(self, state_id: int) -> None:
        from playwright.sync_api import expect

        expect(self.page.locator("#summary")).to_have_attribute(
            "data-state-id", str(state_id), timeout=WAIT_MS
        )

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(SHOTS / f"viscounts-{name}.png"), full_page=True)


def test_a_whole_round_on_the_table_display_and_two_phones(browser: Any, round_: Round) -> None:
    """Round 2 of seed 2: every seat plays its turn's phases (digest §4: a card, the move, the
    main action, hiring; the Collision; the table reporting the cards drawn); the two phone
    seats play theirs with their own buttons, each option showing what it yields; after every
    turn the table display and the phones show the state's board, Castle and player boards,
    each phone its own hand with the cards' effects and no other seat's hand."""
    from playwright.sync_api import expect

    served, start, steps = round_.served, round_.start, round_.steps
    phone_seats = SEATS[:2]
    errors: list[str] = []
    display = Page(browser, served.host_url, errors, phone=False)
    phones = {s: Page(browser, served.seat_urls[s], errors, phone=True) for s in phone_seats}
    expect(display.page.locator("#vi-ring")).to_be_visible(timeout=WAIT_MS)
    expect(display.page.locator("#vi-round")).to_have_text(f"Round {ROUND}", timeout=WAIT_MS)
    first_id = steps[0].state_id
    for page in (display, *phones.values()):
        page.at(first_id)
    check_table(display.page, start)
    for seat, phone in phones.items():
        check_phone(phone.page, start, seat)
    display.shot("round-1-start")
    phones[phone_seats[0]].shot("round-1-phone")

    host = Watcher(served.base, served.host_token)
    made: dict[str, set[str]] = {s: set() for s in SEATS}
    reported: set[str] = set()  # the seats whose drawn cards the table reported
    clicked: dict[str, set[str]] = {s: set() for s in phone_seats}  # moves made on the phone
    try:
        for step in steps:
            seat = str(step.move.get("seat", ""))
            kind = str(step.move.get("kind"))
            if kind in PHASE_MOVES:
                made[seat].add(PHASE_MOVES[kind])
            if kind == "reveal":
                reported.add(str(step.move["owner"]))
            if seat in phones and kind != "reveal":
                phone = phones[seat]
                phone.at(step.state_id)
                choose_on_phone(phone.page, step)
                clicked[seat].add(kind)
            else:
                reply = host.client.call(
                    "intent", {"state_id": step.state_id, "kind": "move", "move": step.move},
                    timeout=90,
                )  # fmt: skip
                assert reply["ok"], reply
            display.at(step.after_id)
            turn_over = step.after.turn != step.before.turn or step.after.round != ROUND
            if turn_over and step.after.ask is None:
                check_table(display.page, step.after)
                for s, phone in phones.items():
                    phone.at(step.after_id)
                    check_phone(phone.page, step.after, s)
        built = [s for s in steps if s.move.get("kind") == "build"]
        display.shot("round-2-end")
        expect(display.page.locator("#vi-round")).to_have_text(f"Round {ROUND + 1}")
        # every seat played each phase of its turn (those with nothing to choose passed by the
        # referee, said in the log) and the table reported the cards it drew (digest §4)
        said = round_log(display.page, first_id)
        for s in SEATS:
            for phase, pattern in LOGGED.items():
                if phase not in made[s]:
                    assert re.search(pattern.format(seat=s), said), (s, phase, said)
        assert reported == set(SEATS), reported
        assert all({"play", "travel"} <= kinds for kinds in clicked.values()), clicked
        last = steps[-1].after
        for b in built:  # a Building of the round stands on its site in its owner's colour
            site = b.move["site"]
            expect(
                display.page.locator(f"#vi-ring .vi-site[data-site='{site}']")
            ).to_have_attribute("data-owner", b.move["seat"])
        for page in (display, *phones.values()):
            text = page.page.inner_text("body")
            assert "viscounts:" not in text and "ui/" not in text, text[:400]
        assert last.round == ROUND + 1
    finally:
        host.close()
    assert not errors, errors


def round_log(page: Any, since: int) -> str:
    """The table display's log lines after state ``since``, oldest first, one a line."""
    lines = []
    for text in page.locator("#log li").all_inner_texts():
        found = re.match(r"\s*(\d+)\s*(.*)", text, re.S)
        if found and int(found.group(1)) > since:
            lines.append(" ".join(found.group(2).split()))
    return "\n" + "\n".join(reversed(lines)) + "\n"


def choose_on_phone(page: Any, step: Step) -> None:
    """Make the recorded move with the phone's buttons: the option the referee offers for it
    (each showing what it yields), then Confirm."""
    from playwright.sync_api import expect

    buttons = page.locator("#moves button.move")
    expect(buttons.first).to_be_visible(timeout=WAIT_MS)
    offered = page.evaluate("window.heraldSeat.prompt().prompts[0].moves")
    index = next((i for i, m in enumerate(offered) if m["move"] == step.move), None)
    assert index is not None, (step.move, [m["move"] for m in offered])
    expect(buttons).to_have_count(len(offered))
    button = buttons.nth(index)
    kind = step.move["kind"]
    if kind in ("play", "travel", "hire", "build", "transcribe"):  # names what it brings
        expect(button.locator(".preview .pv-text")).not_to_be_empty()
    if kind == "travel":
        assert "Merchant" in button.inner_text()  # the town's exchange (§5.1)
    button.click()
    page.locator("#confirm").click()


def check_table(page: Any, state: VState) -> None:
    """The table display shows the state: pawns on their towns, every part's deck top and
    Manuscript stack, the Castle's Workers by level, and each player's board."""
    from playwright.sync_api import expect

    view = views.view(state, None, "en")
    names = view["names"]
    ring = page.locator("#vi-ring")
    for p in state.players:
        pawn = ring.locator(f".vi-town[data-town='{p.town}'] .vi-pawn[data-seat='{p.seat}']")
        expect(pawn).to_have_count(1)
    expect(page.locator("#vi-parts > li")).to_have_count(len(state.decks))
    for i, deck in enumerate(state.decks):
        line = page.locator(f"#vi-parts .vi-deck[data-part='{i}']")
        expect(line).to_contain_text(names[deck[0]] if deck else "empty")
        expect(line).to_contain_text(f"{len(deck)} left")
        stack = page.locator(f"#vi-parts .vi-stack[data-part='{i}']")
        expect(stack).to_contain_text(f"{len(state.stacks[i])} left")
    for site, owner in view["sites"].items():
        expect(ring.locator(f".vi-site[data-site='{site}']")).to_have_attribute("data-owner", owner)
    castle = page.locator("#vi-castle")
    for level, rows in ((1, state.castle.level1), (2, state.castle.level2)):
        for section, counts in enumerate(rows):
            li = castle.locator(f"[data-level='{level}'] li[data-section='{section}']")
            for k, p in enumerate(state.players):
                workers = li.locator(f".vi-workers[data-seat='{p.seat}']")
                if counts[k]:
                    expect(workers).to_have_text(re.compile(rf"\s{counts[k]}$"))
                else:
                    expect(workers).to_have_count(0)
    for p in state.players:
        board = page.locator(f"#boards article.board[data-seat='{p.seat}']")
        spaces = board.locator(".vi-row > li")
        expect(spaces).to_have_count(3)
        for k, card in enumerate(p.board):  # the three card spaces, left to right
            expect(spaces.nth(k)).to_have_attribute("data-card", card or "")
        expect(board.locator(".vi-track")).to_contain_text(
            f"Virtue marker on {p.virtue}, Corruption marker on {p.corruption}"
        )
        expect(board.locator(".vi-debts")).to_contain_text(f"Debts {p.debts} unpaid")
        expect(board.locator(".vi-strip li.built")).to_have_count(len(p.built))
        expect(board.locator(".vi-strip li.left")).to_have_count(9 - len(p.built))
    flags = page.locator("#vi-status .vi-flag")
    trigger = view["last_round"] or view["end_round"] is not None
    expect(flags).to_have_count(int(state.poverty) + int(state.prosperity) + int(trigger))
    assert page.locator("#vi-hand").count() == 0  # no hand on the table display
    unseen(page, view, list(state.players))


def check_phone(page: Any, state: VState, seat: str) -> None:
    """The phone shows its own hand, each card with its effect, and holds no other hand."""
    from playwright.sync_api import expect

    i = state.seats.index(seat)
    hand = state.players[i].hand
    view = views.view(state, seat, "en")
    items = page.locator("#vi-hand li.vi-card")
    expect(items).to_have_count(len(hand))
    for card in sorted(set(hand)):
        info = view["cards"][card]
        item = page.locator(f"#vi-hand li.vi-card[data-card='{card}']").first
        expect(item).to_contain_text(view["names"][card])
        if info["ability"]:
            expect(item.locator(".vi-effect").first).to_have_text(info["ability"])
    public = page.evaluate("window.heraldSeat.table().view.players")  # the table's view
    assert [p["hand"] for p in public] == [None] * len(state.players)
    unseen(page, view, [p for p in state.players if p.seat != seat])


def unseen(page: Any, view: dict[str, Any], others: list[Any]) -> None:
    """No card name that only the ``others``' hands hold stands in the page's game area (a card
    of the same name face up somewhere, or in this seat's own hand, may)."""
    names = view["names"]
    shown = {names[c] for c in view["cards"]}
    text = page.locator("#game").inner_text()
    for other in others:
        for name in {names[c] for c in other.hand} - shown:
            assert name not in text, (other.seat, name)


def test_serve_viscounts_plays_a_simulated_game_with_phones_joining(
    browser: Any, tmp_path: Path
) -> None:
    """``herald serve --game viscounts``: the simulated table plays every move (two rounds, the
    game's own simulated cap); two phones join once the first round is under way, each shows its
    own hand with the cards' effects and the board, and the game ends with its ranking on the
    table display and on both phones, the Viscounts board still drawn and the scores plotted."""
    from playwright.sync_api import expect

    served = serve(tmp_path / "s.db", "--game", "viscounts", "--sim", "all",
                   "--move-delay", "0.05", "--option", "max_rounds=2")  # fmt: skip
    errors: list[str] = []
    try:
        assert set(served.seat_urls) == set(SEATS), served.output
        display = Page(browser, served.table_url, errors, phone=False)
        expect(display.page.locator("#vi-round")).to_have_text("Round 1", timeout=WAIT_MS)
        phones = {s: Page(browser, served.seat_urls[s], errors, phone=True) for s in SEATS[:2]}
        for seat, phone in phones.items():
            hand = phone.page.locator("#vi-hand li.vi-card")
            expect(hand.first).to_be_visible(timeout=WAIT_MS)
            expect(hand.first.locator(".vi-effect").first).not_to_be_empty()
            expect(phone.page.locator(f"article.board[data-seat='{seat}']")).to_be_visible()
            expect(phone.page.locator("#vi-ring .vi-pawn")).to_have_count(len(SEATS))
        expect(display.page.locator("#final")).to_be_visible(timeout=END_WAIT_MS)
        expect(display.page.locator("#vi-ring .vi-pawn")).to_have_count(len(SEATS))
        expect(display.page.locator("#final .ranking li")).to_have_count(len(SEATS))
        plotted = display.page.evaluate("window.heraldTable.plot()")
        assert plotted["points"] > 0 and plotted["outside"] == 0
        display.shot("serve-end")
        for phone in phones.values():
            expect(phone.page.locator("#final")).to_be_visible(timeout=WAIT_MS)
            assert any(f.startswith('42["seat_state"') for f in phone.frames), phone.frames[:3]
        phones[SEATS[0]].shot("serve-phone-end")
    finally:
        served.stop()
    assert not errors, errors


def test_serve_viscounts_solo_shows_the_ais_scheme_on_the_table_and_the_phone(
    browser: Any, tmp_path: Path
) -> None:
    """Solo (digest §8): ``herald serve --game viscounts --players 1`` seats one player against
    the AI; the AI plays its own turns (the referee computes them) while the simulated table
    plays the player's; the table display and the player's phone show the AI board, its Scheme
    piles and the three Schemes on its board with their steps, and the game ends with the
    player and the AI ranked."""
    from playwright.sync_api import expect

    served = serve(tmp_path / "solo.db", "--game", "viscounts", "--players", "1", "--sim", "all",
                   "--move-delay", "0.05", "--option", "max_rounds=2")  # fmt: skip
    errors: list[str] = []
    try:
        humans = [s for s in served.seat_urls if s != "ai"]
        assert len(humans) == 1, served.output
        display = Page(browser, served.table_url, errors, phone=False)
        phone = Page(browser, served.seat_urls[humans[0]], errors, phone=True)
        for page in (display, phone):
            panel = page.page.locator("#vi-solo")
            expect(panel).to_be_visible(timeout=WAIT_MS)
            expect(panel.locator("h3")).not_to_be_empty()
            expect(panel.locator("ol.vi-row > li.vi-card")).to_have_count(3)
        # once a Scheme lies on the AI board its steps are listed, in words
        steps = display.page.locator("#vi-solo ol.vi-steps li")
        expect(steps.first).to_be_visible(timeout=END_WAIT_MS)
        assert not re.search(r"\{\w+\}", display.page.locator("#vi-solo").inner_text())
        expect(display.page.locator("#final")).to_be_visible(timeout=END_WAIT_MS)
        expect(display.page.locator("#final .ranking li")).to_have_count(2)
        display.shot("solo-end")
        expect(phone.page.locator("#final")).to_be_visible(timeout=WAIT_MS)
    finally:
        served.stop()
    assert not errors, errors
