"""Errors of the Tabletop Simulator link, each with a stable code and a catalog sentence.

Every error a user can see is a ``TTSError``: its ``code`` is a key of the message catalog
(``engine/i18n/en/tts.json``) and ``str(error)`` is the catalog sentence, so the CLI, the referee
and the tests all show the same words. Kinds are separate classes so callers can react to "TTS is
not running" differently from "TTS answered with a Lua error".
"""

from __future__ import annotations

from typing import Any

from engine.i18n import message


class TTSError(Exception):
    """Base of every error of the TTS link; ``str()`` is the user-facing sentence."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(message(code, **params))


class TTSNotRunning(TTSError):
    """Nothing listens on the TTS port (connection refused): TTS is closed or has no game."""


class TTSConnectionError(TTSError):
    """The connection to TTS failed for another reason than a refusal."""


class TTSPortInUse(TTSError):
    """Herald's listening port is taken, most likely by another external editor plugin."""


class TTSListenError(TTSError):
    """Herald could not open its listening port for another reason."""


class TTSTimeout(TTSError):
    """TTS did not answer a request in time, or another request held the line too long."""


class TTSLuaError(TTSError):
    """TTS answered a request with an error message (messageID 3)."""

    def __init__(self, error: str, guid: str | None, prefix: str) -> None:
        where = f" ({prefix.strip().rstrip(':')})" if prefix.strip() else ""
        super().__init__("tts/lua-error", error=error, where=where)
        self.error = error
        self.guid = guid
        self.prefix = prefix


class TTSProtocolError(TTSError):
    """TTS sent bytes that are not a message of the External Editor API."""


class TTSReturnError(TTSError):
    """A Lua return value is not the table description Herald asked for."""


class SaveFileError(TTSError):
    """A save file cannot be read or does not follow the TTS save format."""


class ProfileError(TTSError):
    """A game profile is unknown or does not follow the profile format."""
