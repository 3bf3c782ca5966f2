"""Credentials and an ACL for the private mosquitto Herald starts (and a template for yours).

Anything on the machine (or, on a LAN broker, the LAN) can connect to an anonymous broker and
publish under any device's topic. So the broker Herald starts for its virtual devices refuses
anonymous clients and gives each device its own user (the device id) with a random password,
and an ACL lets a device publish only under ``herald/<table>/devices/<its id>/`` (``event``,
``status``, ``info``, ``pair``) and read only its own ``cmd``. Herald's own user reads and writes
the table's topics. The password file holds mosquitto's PBKDF2-SHA512 hashes (written by Debian's
``mosquitto_passwd -U``, or by :func:`mosquitto_hash` when that tool is missing), mode 0600;
each virtual device gets its password in a 0600 JSON file it reads at start.

docs/devices.md ("Securing the broker") shows the same set-up for a broker of your own.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .mqtt import TOPIC_ROOT

HERALD_USER = "herald"
"""Herald's own user on its private broker (no virtual device has this id)."""

DEVICE_LEAVES_OUT = ("event", "status", "info", "pair")
"""What a device may publish, each under its own id's topic."""

PBKDF2_ITERATIONS = 101
"""mosquitto_passwd's default for ``sha512-pbkdf2`` (``$7$``) hashes."""


def mosquitto_hash(password: str, salt: bytes | None = None) -> str:
    """A password hash in mosquitto 2's ``$7$`` format (PBKDF2-SHA512, 12-byte salt)."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, PBKDF2_ITERATIONS)
    b64 = base64.b64encode
    return f"$7${PBKDF2_ITERATIONS}${b64(salt).decode()}${b64(digest).decode()}"


def find_mosquitto_passwd() -> str | None:
    for candidate in (shutil.which("mosquitto_passwd"), "/usr/bin/mosquitto_passwd"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _private_file(path: Path, text: str) -> None:
    """Write ``text`` to a new file that only its owner can read (0600 from the start)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text)


def write_password_file(path: Path, users: dict[str, str]) -> None:
    """mosquitto's password file for ``users`` (name → password), mode 0600, hashed.

    The clear passwords go into the file first and ``mosquitto_passwd -U`` hashes them in place,
    so no password is ever on a command line; without that tool the hashes are computed here.
    """
    tool = find_mosquitto_passwd()
    if tool is not None:
        _private_file(path, "".join(f"{u}:{p}\n" for u, p in users.items()))
        done = subprocess.run([tool, "-U", str(path)], capture_output=True, timeout=30)
        if done.returncode == 0:
            return
    _private_file(path, "".join(f"{u}:{mosquitto_hash(p)}\n" for u, p in users.items()))


def acl_text(table: str, herald_user: str = HERALD_USER) -> str:
    """The ACL: each user publishes only under its own device topic and reads its own ``cmd``;
    Herald's user reads and writes everything of the table."""
    base = f"{TOPIC_ROOT}/{table}/devices/%u"
    lines = [f"pattern write {base}/{leaf}" for leaf in DEVICE_LEAVES_OUT]
    lines.append(f"pattern read {base}/cmd")
    lines += ["", f"user {herald_user}", f"topic readwrite {TOPIC_ROOT}/{table}/#"]
    return "\n".join(lines) + "\n"


@dataclass
class BrokerAuth:
    """Random credentials for Herald and each device of a table, and where they are written."""

    table: str
    herald_password: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    devices: dict[str, str] = field(default_factory=dict)

    @classmethod
    def generate(cls, table: str, device_ids: Iterable[str]) -> BrokerAuth:
        auth = cls(table)
        for device in device_ids:
            auth.devices[device] = secrets.token_urlsafe(24)
        return auth

    def users(self) -> dict[str, str]:
        return {HERALD_USER: self.herald_password, **self.devices}

    def write(self, folder: Path) -> tuple[Path, Path]:
        """The password file and the ACL in ``folder`` (0600 each); returns their paths."""
        passwd, acl = folder / "passwd", folder / "acl"
        write_password_file(passwd, self.users())
        _private_file(acl, acl_text(self.table))
        return passwd, acl

    def device_file(self, folder: Path, device: str) -> Path:
        """A 0600 JSON file with one device's user and password (``--credentials``)."""
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = folder / f"{device}.json"
        _private_file(path, json.dumps({"user": device, "password": self.devices[device]}))
        return path
