"""A page request refused with a catalog sentence: the calibration and phone-camera routes
answer their JSON the same way, so a page shows the sentence in its own language."""

from __future__ import annotations

from typing import Any

from engine.i18n import DEFAULT_LANG, message


class Refused(Exception):
    """A refused request: a catalog code, its HTTP status and the sentence's parameters."""

    def __init__(self, code: str, status: int, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.status = status
        self.params = params

    def to_json(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "ok": False,
            "code": self.code,
            "message": message(self.code, lang, **self.params),
            "params": self.params,
        }
