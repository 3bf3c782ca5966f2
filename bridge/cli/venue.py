"""``herald venue``: every table of a store on one page, live through the venue's message queue.

Run it beside the tables' ``herald serve --message-queue URL`` processes with the same store and
queue; it serves the venue page and nothing else (no table, no token, no game code on the live
path). Without ``--message-queue`` the page still lists the store's tables, without live updates.
"""

from __future__ import annotations

import logging
import sys

import click

from bridge.cli.serve import NoDelayHandler, _open_store, _stop_on_sigterm
from bridge.venue import queue_refusal, shown_url
from bridge.web import origins
from bridge.web.app import WebConfig
from bridge.web.venue_app import VenueWeb
from engine.i18n import message


@click.command()
@click.option("--db", "db_path", default="herald.db", show_default=True,
              help="The tables' event store (SQLite file).")  # fmt: skip
@click.option("--message-queue", "message_queue", default=None, metavar="URL",
              help="The Redis of the tables' herald serve, with its password "
                   "(redis://herald:PASSWORD@host:6379/0; rediss:// when remote).")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (0.0.0.0 for the LAN).")  # fmt: skip
@click.option("--port", default=8100, show_default=True, type=click.IntRange(1, 65535))
@click.option("--public-url", default=None, help="Base URL the venue page is reached by.")
@click.option("--allow-origin", multiple=True,
              help="Another origin allowed to open a socket (repeatable; never '*').")  # fmt: skip
def venue(
    db_path: str,
    message_queue: str | None,
    host: str,
    port: int,
    public_url: str | None,
    allow_origin: tuple[str, ...],
) -> None:
    """The venue view: every table in the store, its game, round, turn, phones and devices."""
    if "*" in allow_origin:
        raise click.BadParameter(message("venue/star-origin"), param_hint="--allow-origin")
    if message_queue is not None:
        text = queue_refusal(message_queue)
        if text is not None:
            raise click.BadParameter(text, param_hint="--message-queue")
    store = _open_store(db_path)
    lan = origins.lan_address() if origins.is_wildcard(host) else None
    public = (public_url or origins.base_url(origins.link_host(host, lan), port)).rstrip("/")
    own = origins.own_hosts(host, lan)
    config = WebConfig(public_url=public, allowed_origins=allow_origin, own_hosts=own,
                       message_queue=message_queue)  # fmt: skip
    web = VenueWeb(store, config)
    tables = web.listing()["tables"]
    click.echo(message("venue/heading", db=db_path, tables=len(tables)))
    click.echo(message("venue/url", url=f"{public}/"))
    if message_queue is None:
        click.echo(message("venue/no-queue"))
    else:
        click.echo(message("serve/queue", url=shown_url(message_queue)))
    click.echo(message("venue/stop"))
    sys.stdout.flush()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    _stop_on_sigterm()
    try:
        web.socketio.run(web.app, host=host, port=port, allow_unsafe_werkzeug=True,
                         request_handler=NoDelayHandler)  # fmt: skip
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
