"""Why a box file is refused: one catalog code (``box/…``) and its parameters, so the same refusal
reads in English on the command line and in Polish on the host page."""

from __future__ import annotations

from typing import Any

from engine.i18n import DEFAULT_LANG, message, violation_text
from engine.violations import InputError, Violation


class BoxError(InputError):
    """A box file that cannot be read, checked or imported, said in one sentence.

    ``code`` is a catalog code under ``box/``; ``params`` fill its sentence. ``detail`` (what an
    ``InputError`` carries) is the English sentence, so callers that know only ``InputError``
    still say what is wrong.
    """

    def __init__(
        self, code: str, path: str = "", faults: tuple[tuple[str, str], ...] = (), **params: Any
    ) -> None:
        self.params = params
        super().__init__(code, _said(code, DEFAULT_LANG, params), path, faults)


def refusal_text(error: BoxError, lang: str = DEFAULT_LANG) -> str:
    """A box refusal in ``lang`` (the page's language, or the command line's)."""
    return _said(error.code, lang, error.params)


def _said(code: str, lang: str, params: dict[str, Any]) -> str:
    """The sentence, with any game's refusal among the parameters said in the same language."""
    words = {
        k: violation_text(v, lang) if isinstance(v, Violation) else v for k, v in params.items()
    }
    return message(code, lang, **words)
