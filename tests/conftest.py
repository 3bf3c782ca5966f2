"""How the suite is spread over pytest-xdist's workers (``make test`` runs ``--dist loadgroup``).

A test file stays on one worker by default, so its module fixtures (a served table, a browser, a
played game) start once: every test without an ``xdist_group`` mark gets its file's. A module
whose parts are independent (one served table per game, say) marks them with groups of their own,
so they spread over the workers.

Groups that hold a ``slow`` test are handed out first, the longest first: a long group started
last leaves the other workers idle while it finishes. ``pytest.mark.slow(seconds=N)`` says about
how long the group takes alone on a quiet machine (a bare ``slow`` counts as
``DEFAULT_SLOW_SECONDS``); only the order of the groups follows from it, nothing is timed. The
Makefile passes ``--no-loadscope-reorder``: by default pytest-xdist hands the groups out by their
number of tests, most first, which put every one-test group (the longest browser tests are
such) at the end of the run.

pytest-xdist 3.8 tells the controller a test's group by appending ``@group`` to its node id, and
pytest 9.2's node ids no longer take that change (pytest-xdist issue 1386): every test went to
whichever worker was free, so a module's served table, browser pages and played stores started
again on each worker that got one of its tests. ``pytest_collection_finish`` appends the group
where pytest-xdist's change did not take.
"""

from __future__ import annotations

import pytest

DEFAULT_SLOW_SECONDS = 30.0
"""What a ``slow`` mark without ``seconds`` weighs when the slow groups are ordered."""


def _group(item: pytest.Item) -> str:
    marks = [m for m in item.iter_markers("xdist_group")]
    if marks:
        return "_".join(sorted(str(m.args[0] if m.args else m.kwargs["name"]) for m in marks))
    return item.nodeid.split("::", 1)[0]


def _slow_seconds(item: pytest.Item) -> float | None:
    """How long ``item``'s ``slow`` mark says its group takes, or None if it is not slow."""
    mark = item.get_closest_marker("slow")
    if mark is None:
        return None
    return float(mark.kwargs.get("seconds", DEFAULT_SLOW_SECONDS))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    weight: dict[str, float] = {}
    for item in items:
        if not any(True for _ in item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
        seconds = _slow_seconds(item)
        if seconds is not None:
            group = _group(item)
            weight[group] = max(weight.get(group, 0.0), seconds)
    # a stable sort: the order within each group, and among groups of one weight, is unchanged
    items.sort(key=lambda item: -weight.get(_group(item), -1.0))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Before pytest-xdist's worker sends the node ids to the controller: the ``@group`` suffix
    its collection hook meant to add, where it did not take."""
    if session.config.getoption("loadgroup", default=False):
        for item in session.items:
            group = _group(item)
            if not item.nodeid.endswith(f"@{group}"):
                # pytest 9.2's structured id (pytest.Item has no public way to set it)
                ids = type(item._id)  # type: ignore[attr-defined]
                item._id = ids.parse(f"{item.nodeid}@{group}")  # type: ignore[attr-defined]
