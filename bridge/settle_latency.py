"""Settle-to-phone latency: from the frame on which the camera saw a move settle to every phone
holding the new state (issue 17, part 2; ``herald bench vision --json``, ``settle_to_phone``).

Measured for real, in-process except the phones:

- a referee on a fresh event store (SQLite in a temporary directory) and a real Herald page
  server (``WebTable``: Flask-SocketIO, threading, simple-websocket) on a loopback port;
- the simulated camera of ``herald serve`` (``bridge.camera``: ``StateCamera`` renders the table,
  the real tracker and pipeline read it, ``interpret`` names the move, the referee takes it),
  driven frame by frame at its configured rate (8 fps) in this thread;
- real python-socketio clients in a child process: every seat's phone (seat token), the host
  and the table display. Each records when its ``state`` (and, for a phone, its ``seat_state``)
  of each ``state_id`` arrived.

For each move the camera read, the start is ``CameraStats.settled_at``: the wall-clock time the
frame that made the tracker commit arrived (``time.time()``, the frame's capture time on a live
camera). The end is the moment the *last* client held the move's final state (a phone counts
once it has both its table state and its own seat state). Both clocks are this machine's.
``accepted`` is the referee's ``accepted_at`` (stamped after the commit), so each figure splits
into reading (frame → accepted: region re-read, interpret, rules, store) and fan-out (accepted →
every phone). Frames already waited for by the tracker's debounce (``stable_frames`` still
frames) come before the settled frame and are not in the figure.

A benchmark reports, it never asserts.
"""

from __future__ import annotations

import multiprocessing
import socket
import statistics
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

STATE_EVENTS = ("state", "seat_state")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _QuietHandler:
    """A request handler class that logs nothing (a websocket's close frame after the upgrade
    is logged by Werkzeug as a bad HTTP request)."""

    @staticmethod
    def of(base: type[Any]) -> type[Any]:
        def log(self: Any, *args: Any) -> None:
            """Nothing to log in a benchmark."""

        return type("QuietHandler", (base,), {"log": log, "log_request": log, "log_error": log})


def _clients(url: str, auths: list[dict[str, Any]], pipe: Connection) -> None:
    """Child process: one python-socketio client per ``auths`` entry.

    Sends ``("connected", n)`` once all are connected, then on ``"stop"`` answers
    ``("results", rows)`` with rows ``(client, event, state_id, accepted_at, received_at)``.
    """
    import socketio  # the client side of python-socketio (a dev/bench dependency)

    rows: list[tuple[int, str, int, float, float]] = []
    lock = threading.Lock()
    clients = []

    def recorder(k: int, event: str) -> Any:
        def on(payload: Any = None, *_: Any) -> None:
            now = time.time()
            if isinstance(payload, dict) and isinstance(payload.get("state_id"), int):
                accepted = payload.get("accepted_at")
                with lock:
                    rows.append((k, event, payload["state_id"],
                                 float(accepted) if accepted else 0.0, now))  # fmt: skip

        return on

    for k, auth in enumerate(auths):
        client = socketio.Client(reconnection=False)
        for event in STATE_EVENTS:
            client.on(event, recorder(k, event))
        client.connect(url, auth=auth, transports=["websocket"], wait_timeout=30)
        clients.append(client)
    pipe.send(("connected", len(clients)))
    pipe.recv()  # "stop"
    for client in clients:
        client.disconnect()
    with lock:
        pipe.send(("results", list(rows)))


def measure(game_key: str, moves: int = 10, fps: float = 8.0, seed: int = 3) -> dict[str, Any]:
    """Play ``moves`` simulated camera moves to a served table of ``game_key`` (a game the
    simulated camera can draw); the latency figures.

    Returns ``settle_to_phone_ms_median`` (the aim's figure), its mean, p95 and max,
    ``settle_to_accepted_ms_median``, ``accepted_to_phone_ms_median``, the moves measured
    (``camera_moves``) and tried, the clients and the frame rate.
    """
    from werkzeug.serving import make_server

    from bridge.camera import CameraConfig, open_camera_table, profile_seats
    from bridge.cli.serve import NoDelayHandler
    from bridge.game_files import camera_profile
    from bridge.referee import Referee
    from bridge.store import EventStore
    from bridge.table_setup import start_options
    from bridge.web.app import WebConfig, WebTable
    from engine.registry import get_game

    game = get_game(game_key)
    seats = profile_seats(camera_profile(game_key))[: max(game.info.min_players, 3)]
    with tempfile.TemporaryDirectory(prefix="herald-latency-") as tmp:
        store = EventStore(Path(tmp) / "t.db")
        # the data set that plays: a game whose box data are incomplete starts from its
        # simulated setup's options, as ``herald serve`` and the host page do
        referee = Referee.open(store, game, "latency", seats, start_options(game))
        port = _free_port()
        web = WebTable(referee, WebConfig(public_url=f"http://127.0.0.1:{port}"))
        # as ``herald serve`` runs it: Nagle off (``NoDelayHandler``), errors only in the log
        server = make_server("127.0.0.1", port, web.app, threaded=True,
                             request_handler=_QuietHandler.of(NoDelayHandler))  # fmt: skip
        serving = threading.Thread(target=server.serve_forever, daemon=True)
        serving.start()
        camera = open_camera_table(
            referee, "camera-sim", CameraConfig(fps=fps, confirm_s=0, seed=seed, pass_share=0)
        )
        tokens = referee.row.tokens
        auths = [{"token": tokens.seats[s], "lang": "en"} for s in seats]
        auths += [{"token": tokens.host, "lang": "en"}, {"lang": "en"}]
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(target=_clients, args=(f"http://127.0.0.1:{port}", auths, theirs),
                           daemon=True)  # fmt: skip
        proc.start()
        measured: list[tuple[int, float]] = []  # (final state_id, settled_at)
        tried = 0
        try:
            if not ours.poll(120):
                raise RuntimeError("the socket.io clients did not connect")
            ours.recv()
            camera.settle()
            while tried < moves * 3 and len(measured) < moves:
                tried += 1
                before = referee.state_id
                if camera.step("move") == "camera" and referee.state_id > before:
                    measured.append((referee.state_id, camera.stats.settled_at))
            time.sleep(0.5)  # let the last deliveries land before the clients stop
            ours.send("stop")
            rows: list[tuple[int, str, int, float, float]] = ours.recv()[1]
        finally:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
            server.shutdown()
            store.close()
    return _figures(rows, measured, len(auths), len(seats), moves, tried, fps)


def _figures(
    rows: list[tuple[int, str, int, float, float]],
    measured: list[tuple[int, float]],
    clients: int,
    phones: int,
    moves: int,
    tried: int,
    fps: float,
) -> dict[str, Any]:
    """Per move: the last client's holding time minus the settled frame's time."""
    total: list[float] = []
    reading: list[float] = []
    fanout: list[float] = []
    for state_id, settled in measured:
        held: dict[int, float] = {}
        accepted = 0.0
        for k, event, sid, acc, at in rows:
            if sid != state_id:
                continue
            # a phone (the first ``phones`` clients) holds the state with both of its events
            held[k] = max(held.get(k, 0.0), at)
            accepted = acc or accepted
            if (
                k < phones
                and event == "state"
                and not any(r[0] == k and r[1] == "seat_state" and r[2] == sid for r in rows)
            ):
                held[k] = float("inf")
        if len(held) < clients or float("inf") in held.values():
            continue  # some client never got it: not a delivery to measure
        last = max(held.values())
        total.append((last - settled) * 1000)
        if accepted:
            reading.append((accepted - settled) * 1000)
            fanout.append((last - accepted) * 1000)

    def med(values: list[float]) -> float | None:
        return round(statistics.median(values), 1) if values else None

    ordered = sorted(total)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else None
    return {
        "settle_to_phone_ms_median": med(total),
        "settle_to_phone_ms_mean": round(statistics.fmean(total), 1) if total else None,
        "settle_to_phone_ms_p95": round(p95, 1) if p95 is not None else None,
        "settle_to_phone_ms_max": round(ordered[-1], 1) if ordered else None,
        "settle_to_accepted_ms_median": med(reading),
        "accepted_to_phone_ms_median": med(fanout),
        "camera_moves": len(total),
        "moves_tried": tried,
        "moves_asked": moves,
        "clients": clients,
        "fps": fps,
    }
