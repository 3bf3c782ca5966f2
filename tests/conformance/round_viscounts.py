"""Viscounts of the West Kingdom's part of the served round (issue 14, "At the table" and
"Tests"): round 2 of seed 2 (three seats, stand-in data), a round in which pink has a Building
on the board.

Every seat plays its turn's phases (digest §4: a card, the move, the main action, hiring; the
Collision; the table reporting the cards drawn); the two phone seats (blue, green) play theirs
with their own buttons (found by the move the referee offers, then confirmed), each option
showing what it yields. After every turn the table display shows what the state holds: the
circular board (each Viscount's pawn on its town, every part's deck top and Manuscript stack,
the Buildings on their sites in their owners' colours), the Castle's Workers level by level,
and each player's board (the three card spaces in order, Virtue and Corruption, Debts and
Deeds, the Building strip). Each phone shows its own hand with every card's effect; no page but
the owner's shows or holds a hand.
"""

from __future__ import annotations

import re
from typing import Any

from browser_support import Framed
from played_support import Played, Point, Step

from engine.games.viscounts import views
from engine.games.viscounts.state import VState

SEATS = ("blue", "green", "pink")
ROUND = 2  # seed 2's second round: pink has a Building on the board
WAIT_MS = 90_000
PHASE_MOVES = {"play": "play", "travel": "move", "trade": "action", "build": "action",
               "workers": "action", "transcribe": "action", "skip": "action", "hire": "hire",
               "pass": "hire"}  # fmt: skip
"""A seat's own move and the phase of its turn it belongs to (digest §4: phases 1-4; the
Collision is the referee's, the draw is the table's report)."""

LOGGED = {"play": r"\n{seat} plays ", "move": r"\n{seat} moves ",
          "action": r"\n{seat} (makes|builds|places|transcribes|takes no main action)",
          "hire": r"\n{seat} hires "}  # fmt: skip
"""Each phase of a seat's turn as the log says it (the referee passes a phase with no choice)."""


class ViscountsRound:
    """Round 2 of seed 2 on the table display and the phones of blue and green."""

    point = Point(
        "viscounts", SEATS, seed=2, name=f"round {ROUND}",
        stop=lambda game, state: state.round == ROUND,
        until=lambda game, state: state.round != ROUND, max_moves=1000,
    )  # fmt: skip
    round = ROUND
    wait_ms = WAIT_MS

    def __init__(self) -> None:
        self.made: dict[str, set[str]] = {s: set() for s in SEATS}
        self.reported: set[str] = set()  # the seats whose drawn cards the table reported
        self.clicked: dict[str, set[str]] = {}  # moves made on each phone

    def phone_seats(self, played: Played) -> list[str]:
        self.clicked = {s: set() for s in SEATS[:2]}
        return list(SEATS[:2])

    def at_start(self, display: Framed, phones: dict[str, Framed], played: Played) -> None:
        from playwright.sync_api import expect

        start: VState = played.state
        expect(display.page.locator("#vi-ring")).to_be_visible(timeout=WAIT_MS)
        expect(display.page.locator("#vi-round")).to_have_text(f"Round {ROUND}", timeout=WAIT_MS)
        first_id = played.steps[0].state_id
        for page in (display, *phones.values()):
            page.at(first_id, WAIT_MS)
        check_table(display.page, start)
        for seat, phone in phones.items():
            check_phone(phone.page, start, seat)
        display.shot("viscounts-round-1-start.png")
        phones[SEATS[0]].shot("viscounts-round-1-phone.png")

    def on_phone(self, step: Step, phones: dict[str, Framed]) -> bool:
        seat = str(step.move.get("seat", ""))
        kind = str(step.move.get("kind"))
        if kind in PHASE_MOVES:
            self.made[seat].add(PHASE_MOVES[kind])
        if kind == "reveal":
            self.reported.add(str(step.move["owner"]))
        if seat not in phones or kind == "reveal":
            return False
        phone = phones[seat]
        phone.at(step.state_id, WAIT_MS)
        choose_on_phone(phone.page, step)
        self.clicked[seat].add(kind)
        return True

    def after(self, step: Step, display: Framed, phones: dict[str, Framed]) -> None:
        turn_over = step.after.turn != step.before.turn or step.after.round != ROUND
        if turn_over and step.after.ask is None:
            check_table(display.page, step.after)
            for s, phone in phones.items():
                phone.at(step.after_id, WAIT_MS)
                check_phone(phone.page, step.after, s)

    def at_end(self, display: Framed, phones: dict[str, Framed], played: Played, host: Any) -> None:
        from playwright.sync_api import expect

        steps = played.steps
        built = [s for s in steps if s.move.get("kind") == "build"]
        display.shot("viscounts-round-2-end.png")
        expect(display.page.locator("#vi-round")).to_have_text(f"Round {ROUND + 1}")
        # every seat played each phase of its turn (those with nothing to choose passed by the
        # referee, said in the log) and the table reported the cards it drew (digest §4)
        said = round_log(display.page, steps[0].state_id)
        for s in SEATS:
            for phase, pattern in LOGGED.items():
                if phase not in self.made[s]:
                    assert re.search(pattern.format(seat=s), said), (s, phase, said)
        assert self.reported == set(SEATS), self.reported
        assert all({"play", "travel"} <= kinds for kinds in self.clicked.values()), self.clicked
        for b in built:  # a Building of the round stands on its site in its owner's colour
            site = b.move["site"]
            expect(
                display.page.locator(f"#vi-ring .vi-site[data-site='{site}']")
            ).to_have_attribute("data-owner", b.move["seat"])
        for page in (display, *phones.values()):
            text = page.page.inner_text("body")
            assert "viscounts:" not in text and "ui/" not in text, text[:400]


def round_log(page: Any, since: int) -> str:
    """The table display's log lines after state ``since``, oldest first, one a line; a line
    folding a run of moves the referee made itself ("2 moves made by themselves: blue places 1
    Worker in the Castle, blue hires nobody", issue 25 point 6) gives each of its moves a line."""
    items = page.evaluate(
        """() => [...document.querySelectorAll('#log li')].map((li) => ({
          seq: Number(li.getAttribute('data-seq')), run: Number(li.getAttribute('data-run') || 1),
          folded: li.classList.contains('auto-run'),
          what: (li.querySelector('.what') || li).innerText }))"""
    )
    seat = "|".join(map(re.escape, SEATS))
    lines = []
    for item in items:
        if item["seq"] + item["run"] - 1 <= since:
            continue
        what = " ".join(str(item["what"]).split())
        if not item["folded"]:
            lines.append(what)
            continue
        moves = what.split(": ", 1)[1]  # after "N moves made by themselves: "
        for move in reversed(re.split(rf", (?=(?:{seat}) )", moves)):  # the list is newest first
            lines.append(re.sub(r" ×\d+$", "", move))
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
