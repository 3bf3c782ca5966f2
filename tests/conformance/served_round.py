"""What a game gives the served-round conformance test (test_round_served.py): where its round
starts, which seats play on phones and how a phone makes a move, and what its pages must show
after each move and at the end of the round.

The test itself is the same for every game: a seeded simulated game played offline to the
first state of a round and on to the next (once per session: played_support.py), a real
``herald serve --sim off`` resuming a copy of the store at the start of that round, the table
display and two phones in chromium, and the round replayed move by move (the phone seats'
moves on their phones, every other move with the host's token), so the run is the same every
time.
"""

from __future__ import annotations

from typing import Any, Protocol

from browser_support import Framed
from played_support import Played, Point, Step


class RoundPart(Protocol):
    """One game's part of the served round. A new instance serves one test run (it may keep
    what it saw between moves)."""

    point: Point
    """The seeded game, played to the round's first state and recorded to the next round's."""
    round: int
    """The round that is replayed."""
    wait_ms: int
    """The longest wait for a page (a bound for a loaded machine, not a timing assertion)."""

    def phone_seats(self, played: Played) -> list[str]:
        """The two seats whose phones are opened (and play their moves on them)."""
        ...

    def at_start(self, display: Framed, phones: dict[str, Framed], played: Played) -> None:
        """Check the pages at the start of the round, before any move."""
        ...

    def on_phone(self, step: Step, phones: dict[str, Framed]) -> bool:
        """Make ``step``'s move with a phone's own buttons, if a phone makes it (True)."""
        ...

    def after(self, step: Step, display: Framed, phones: dict[str, Framed]) -> None:
        """Check the pages after ``step`` (the display already shows its state)."""
        ...

    def at_end(self, display: Framed, phones: dict[str, Framed], played: Played, host: Any) -> None:
        """Check the pages once the round is over (the next round has begun)."""
        ...
