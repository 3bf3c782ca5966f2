"""A venue: every table of one event store at a glance, kept live through the message queue.

Each ``herald serve`` of the venue announces its table (``table_summary``) to the ``venue`` room
whenever its state changes, a phone comes or goes, and every few seconds as a sign of life. With
``--message-queue`` those emits travel through Redis, so the clients of ``herald venue`` (another
process, possibly on another machine) receive every table's announcements without any code of
ours in between. The venue's own first answer comes from the store (``stored_tables``): what is
known before any table has spoken, i.e. game, round and who is to act, but not phones or devices.

Summaries carry no secret: the table display's URL is public, tokens never leave the store.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from engine.i18n import message
from engine.registry import game_keys, get_game

if TYPE_CHECKING:
    from bridge.referee import Referee, Update
    from bridge.store import Store

_LOG = logging.getLogger(__name__)

QUEUE_CHANNEL = "herald"
"""The Redis channel every Herald process of a venue publishes its Socket.IO emits on."""

VENUE_EVENT = "venue_table"
"""The event carrying one table's summary to the venue room (and in the venue's snapshot)."""


LOCAL_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
"""Hosts a queue may be reached on without TLS: the traffic never leaves the machine."""


def queue_url_problem(url: str) -> str | None:
    """Why Herald will not use the queue at ``url`` (None: it will): no password, or plain
    ``redis://`` to another machine (the password and every emit would cross the LAN in clear).

    Whoever can publish on the queue can send to every client of the venue, so a queue takes a
    Redis user and password (issue 26, finding 4; docs/deployment.md has the ACL). A
    ``unix://`` socket is guarded by its file's mode and may go without one.
    """
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return message("queue/not-redis")
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return None
    if not parts.password:
        return message("queue/no-password")
    if parts.scheme == "redis" and (parts.hostname or "").lower() not in LOCAL_HOSTS:
        return message("queue/needs-tls", host=parts.hostname or "")
    return None


def queue_problem(url: str) -> str | None:
    """Why the message queue at ``url`` cannot be used (None: Redis answered a PING).

    Checked before serving so a wrong ``--message-queue`` is one clear sentence at start, not a
    log line per emit while phones silently miss every update sent by the other processes.
    """
    refused = queue_url_problem(url)
    if refused is not None:
        return refused
    import redis  # only a venue needs it: ``make run`` never imports it

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except (redis.RedisError, OSError, ValueError) as exc:
        return str(exc) or type(exc).__name__
    return None


def queue_refusal(url: str) -> str | None:
    """The sentence ``herald serve``/``herald venue`` refuse ``--message-queue URL`` with, or
    None when the queue is fit to use (a password, TLS off this machine, Redis answers)."""
    insecure = queue_url_problem(url)
    if insecure is not None:
        return message("queue/insecure", url=shown_url(url), reason=insecure)
    problem = queue_problem(url)
    if problem is not None:
        return message("queue/unreachable", url=shown_url(url), reason=problem)
    return None


def summary_of(
    table_id: str, session: int, game_key: str, update: dict[str, Any], status: str
) -> dict[str, Any]:
    """The fields every summary has, from a table payload (``Update.table``)."""
    view = update.get("view") or {}
    rnd = view.get("round")
    phase = view.get("phase")
    name = get_game(game_key).info.name if game_key in game_keys() else game_key
    return {
        "table_id": table_id,
        "session": session,
        "game": game_key,
        "game_name": name,
        "state_id": update.get("state_id", 0),
        "round": rnd if isinstance(rnd, int) else None,
        "phase": phase if isinstance(phase, str | int) else None,
        "to_act": list(update.get("to_act") or []),
        "over": bool(update.get("over")),
        "status": status,
    }


def table_summary(
    referee: Referee,
    update: Update,
    *,
    phones: int,
    displays: int,
    devices: int,
    devices_online: int,
    table_url: str,
) -> dict[str, Any]:
    """What a serving process announces about its table: the stored facts plus the live ones
    only it knows (connected phones and displays, devices, where its display is)."""
    status = "over" if referee.is_over() else "open"
    data = summary_of(referee.table_id, referee.row.id, referee.game.info.key, update.table, status)
    data.update(
        live=True,
        phones=phones,
        displays=displays,
        devices=devices,
        devices_online=devices_online,
        table_url=table_url,
        seen=time.time(),
    )
    return data


def stored_tables(store: Store) -> list[dict[str, Any]]:
    """Each table's latest session in the store, replayed read-only for its round and turn.

    A session of a game this installation does not have is listed by its key with what the
    row says; ``live`` is False until the table's own process announces itself.
    """
    from bridge.referee import Referee  # the venue imports the referee only to read

    latest: dict[str, Any] = {}
    for row in store.sessions():
        if row.table_id not in latest or row.id > latest[row.table_id].id:
            latest[row.table_id] = row
    found = []
    for table_id in sorted(latest):
        row = latest[table_id]
        payload: dict[str, Any] = {"state_id": row.events}
        if row.header.game in game_keys():
            try:
                payload = Referee(get_game(row.header.game), store, row).current().table
            except Exception:  # a session that no longer replays is still listed
                _LOG.exception("could not replay table %s (session %d)", table_id, row.id)
        entry = summary_of(table_id, row.id, row.header.game, payload, row.status)
        entry.update(live=False, phones=None, displays=None, devices=None, devices_online=None,
                     table_url=None, seen=None)  # fmt: skip
        found.append(entry)
    return found


def shown_url(url: str) -> str:
    """``url`` without its password, for printing."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}" if user else f"***@{netloc}"))
