"""The server's own names and addresses: the links it prints and the browser origins it accepts.

A browser page may open a socket to the table only from an origin the server itself is reached
by. Comparing the ``Origin`` header with the ``Host`` header is not enough: a DNS-rebinding page
(``http://evil.example:8000``, its name re-pointed at the table's address) sends matching
headers. So the host part must be one of the server's own: the localhost names, the address it
listens on, the LAN address it prints in the join links, the ``--public-url`` and each
``--allow-origin``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from urllib.parse import urlsplit

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
"""Names and addresses of this machine every browser on it may use."""

WILDCARDS = ("0.0.0.0", "::", "")
"""``--host`` values that listen on every interface."""

ROUTE_PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")
"""Addresses the routing table is asked about to find the interface a phone on the LAN would
reach: the documentation network (usually through the default route) and one address in each
private range (the interface of that LAN when there is no default route). Nothing is sent."""

DEFAULT_PORTS = {"http": 80, "https": 443}


def lan_address() -> str | None:
    """The IPv4 address of the interface the machine's traffic leaves by, or None.

    ``connect()`` on a UDP socket sends no packet: it only asks the kernel to choose the route
    and hence the source address, which is what a phone on the same network reaches.
    """
    for probe in ROUTE_PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp, contextlib.suppress(OSError):
            udp.connect((probe, 9))
            address = str(udp.getsockname()[0])
            if not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
                return address
    return None


def is_wildcard(host: str) -> bool:
    return host in WILDCARDS


def link_host(host: str, lan: str | None) -> str:
    """The host part of the printed links for a server listening on ``host``."""
    if is_wildcard(host):
        return lan or "127.0.0.1"
    return host


def base_url(host: str, port: int, scheme: str = "http") -> str:
    """``http://host:port`` (or ``https``), with an IPv6 address in brackets."""
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def own_hosts(host: str, lan: str | None) -> tuple[str, ...]:
    """The host names and addresses the server is reached by: localhost, the listening address
    (unless it is every interface) and, listening on every interface, the LAN address."""
    names = list(LOCAL_HOSTS)
    if not is_wildcard(host):
        names.append(host)
    elif lan:
        names.append(lan)
    return tuple(dict.fromkeys(n.lower() for n in names))


def normalize(origin: str) -> str:
    """An origin as browsers compare it: lower-case scheme and host, no default port, no path.

    Returns "" for text that is not an http(s) origin.
    """
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return ""
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host:
        return ""
    shown = f"[{host}]" if ":" in host else host
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{shown}"
    return f"{scheme}://{shown}:{port}"


def host_of(origin: str) -> str:
    """The host part of a normalized origin (an IPv6 address without brackets)."""
    return (urlsplit(origin).hostname or "").lower()
