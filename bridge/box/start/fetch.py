"""Where a Tabletop Simulator save's pictures are found: a save names each picture by a URL, and
TTS keeps what it downloaded in its mod cache (``Mods/Images``), each file named by the URL with
every character but letters and digits taken out, with the picture's own suffix. A save packed
with its pictures (TTS Mod Backup's ``.ttsmod``, or a zip of the save and its ``Mods`` folder)
holds them under those names too.

The network is read only when the host asks (``--fetch``, the page's box), only over http(s) to
public addresses (never this machine or its network: a save is untrusted and names any URL),
each picture at most ``MAX_FETCH_BYTES`` and ``FETCH_TIMEOUT`` seconds, all of them within
``FETCH_BUDGET`` seconds. A local file path is read only from the command line, where the save
and the files are the user's own.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.box.errors import BoxError

from .common import Why

MAX_FETCH_BYTES = 32 * 1024 * 1024
FETCH_TIMEOUT = 15.0
FETCH_BUDGET = 180.0
MAX_READ_BYTES = 256 * 1024 * 1024
"""All the pictures of one save, read from anywhere: a save naming a thousand large pictures is
refused rather than held in memory."""
SUFFIXES = (".png", ".jpg", ".jpeg", ".PNG", ".JPG", ".webp", ".bmp", ".gif", "")
NOT_NAME = re.compile(r"[\W_]")


TAG = re.compile(r"^\{[A-Za-z_]+\}")
"""A save may mark a URL for TTS (``{verifycache}https://…``); the picture is cached without it."""
STEAM = ("http://cloud-3.steamusercontent.com/", "https://steamusercontent-a.akamaihd.net/")
"""The old and the new address of Steam's cloud: a save may name either, and a picture cached
under one is the picture of the other."""


def spellings(url: str) -> list[str]:
    """``url`` and the same picture's other address on Steam's cloud, if it is there."""
    for old, new in (STEAM, STEAM[::-1]):
        if url.startswith(old):
            return [url, new + url[len(old) :]]
    return [url]


def cache_name(url: str) -> str:
    """The file name (without suffix) under which TTS caches ``url``: letters and digits only."""
    return NOT_NAME.sub("", url.strip())


class NotAllowed(Exception):
    """A URL the fetcher will not open (not http(s), or a private address)."""


def _check_host(url: str, allow_private: bool) -> None:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NotAllowed(url)
    if allow_private:
        return
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as exc:
        raise NotAllowed(url) from exc
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if not address.is_global:
            raise NotAllowed(url)


class _Redirects(urllib.request.HTTPRedirectHandler):
    """A redirect is followed only to where the first URL could have gone."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> Any:  # fmt: skip
        _check_host(newurl, self.allow_private)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


@dataclass
class Fetcher:
    """Reads pictures from the network, within its limits; ``allow_private`` only for tests that
    serve pictures from this machine."""

    allow_private: bool = False
    timeout: float = FETCH_TIMEOUT
    budget: float = FETCH_BUDGET
    max_bytes: int = MAX_FETCH_BYTES
    started: float | None = None

    def __call__(self, url: str) -> bytes | Why:
        """The picture's bytes, or why it was not read (kept in the start's list of pictures
        not found)."""
        now = time.monotonic()
        if self.started is None:
            self.started = now
        if now - self.started > self.budget:
            return Why("time-up")
        try:
            _check_host(url, self.allow_private)
            opener = urllib.request.build_opener(_Redirects(self.allow_private))
            request = urllib.request.Request(url, headers={"User-Agent": "Herald box start"})
            with opener.open(request, timeout=self.timeout) as response:
                raw = bytes(response.read(self.max_bytes + 1))
        except NotAllowed:
            return Why("not-public")
        except (urllib.error.URLError, OSError, ValueError) as exc:
            return Why("network", str(getattr(exc, "reason", exc))[:120])
        if len(raw) > self.max_bytes:
            return Why("too-large")
        return raw


@dataclass
class Pictures:
    """Where a save's pictures are looked for, in order: the pictures packed with it, the TTS
    mod cache folder, a local file (command line only), the network (when asked)."""

    packed: Mapping[str, bytes] = field(default_factory=dict)
    mods: Path | None = None
    local: bool = False
    fetch: Callable[[str], bytes | Why] | None = None
    found: dict[str, bytes | Why] = field(default_factory=dict)
    total: int = 0

    def __post_init__(self) -> None:
        self._by_name: dict[str, bytes] = {}
        for member, raw in self.packed.items():
            stem = member.rsplit("/", 1)[-1]
            self._by_name.setdefault(stem.rsplit(".", 1)[0] if "." in stem else stem, raw)

    def get(self, url: str) -> bytes | Why:
        """The picture ``url`` names, or why it was not found; ``BoxError`` once the pictures
        read for one save pass ``MAX_READ_BYTES``."""
        if url not in self.found:
            got = self._find(url)
            if not isinstance(got, Why):
                self.total += len(got)
                if self.total > MAX_READ_BYTES:
                    raise BoxError("box/start-too-large", size=self.total, limit=MAX_READ_BYTES)
            self.found[url] = got
        return self.found[url]

    def _find(self, url: str) -> bytes | Why:
        url = TAG.sub("", url.strip(), count=1)
        if not url:
            return Why("no-address")
        names = [cache_name(u) for u in spellings(url)]
        for name in names:
            if name in self._by_name:
                return self._by_name[name]
        if self.mods is not None:
            for name in names:
                for folder in (self.mods / "Images", self.mods):
                    for suffix in SUFFIXES:
                        path = folder / f"{name}{suffix}"
                        if suffix and path.is_file():
                            return _read(path)
        if self.local:
            path = Path(url.removeprefix("file:///").removeprefix("file://"))
            if url.startswith("file:"):
                path = Path("/" + str(path)) if not path.is_absolute() else path
            if not url.startswith(("http://", "https://")) and path.is_file():
                return _read(path)
        if self.fetch is not None and url.startswith(("http://", "https://")):
            got: bytes | Why = Why("not-found")
            for spelling in spellings(url)[::-1]:  # Steam's new address first
                got = self.fetch(spelling)
                if not isinstance(got, Why):
                    break
            return got
        return Why("not-found")


def _read(path: Path) -> bytes | Why:
    try:
        if path.stat().st_size > MAX_FETCH_BYTES:
            return Why("too-large")
        return path.read_bytes()
    except OSError as exc:
        return Why("unreadable", exc.strerror or str(exc))
