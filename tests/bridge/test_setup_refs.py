"""Rulebook references in the reader's language (issue #24, the box page's polish): the setup
form's option references read "§4 krok 14 (EN s.8 §2.3)" on a Polish page, not "step" and "p."."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bridge.table_setup import choices
from bridge.web.app import WebConfig, WebTable
from engine.i18n import REF_WORD, catalog, ref_text
from engine.refs import readable
from tests.server.srv_support import open_referee

NEUTRAL = {"EN", "PL", "FAQ", "KOMPONENTY"}
"""Words a Polish reference keeps: the editions' names, the rulebooks' own headings."""


@pytest.mark.parametrize(
    ("ref", "polish"),
    [
        ("§4 step 14 (EN p.8 §2.3; PL §2.3)", "§4 krok 14 (EN s.8 §2.3; PL §2.3)"),
        ("§15 items 5-16", "§15 pkt 5-16"),
        ("Appendix A (L1163-1287)", "Dodatek A (L1163-1287)"),
        ("§6 effect glossary (seed L1024-1025)", "§6 słowniczek efektów (instrukcja L1024-1025)"),
        ("rules/glory.md §3.1 [001_35e9a710b093a69c.txt:L111-123]", "§3.1 (L111-123)"),
        ("§4 stepping (EN p.8)", "§4 stepping (EN s.8)"),  # a word, not a part of one
    ],
)
def test_a_reference_reads_in_polish(ref: str, polish: str) -> None:
    assert ref_text(ref, "pl") == polish
    assert ref_text(ref, "en") == readable(ref)


def test_every_reference_word_has_its_polish_word() -> None:
    words = [c for c in catalog("en") if c.startswith(REF_WORD)]
    assert words and all(c in catalog("pl") for c in words)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_setup_forms_references_use_no_word_of_the_other_language(lang: str) -> None:
    """A new option whose reference brings a new English word fails here on the Polish page
    until the catalog words it (``ref/word/<word>``)."""
    english = {c[len(REF_WORD) :] for c in catalog("en") if c.startswith(REF_WORD)}
    polish = {str(catalog("pl")[REF_WORD + w]) for w in english}
    for game in choices(lang=lang)["games"]:
        for option in game["options"]:
            words = set(re.findall(r"[^\W\d_]{2,}", option["ref"]))
            if lang == "pl":
                assert words <= NEUTRAL | {w for p in polish for w in p.split()}, option
            else:
                assert not words & {w for p in polish for w in p.split()} - english, option


def test_the_setup_route_gives_the_references_in_the_pages_language(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "t.db")
    try:
        client = WebTable(referee, WebConfig()).app.test_client()
        refs = {}
        for lang in ("en", "pl", "xx"):
            games = client.get(f"/api/setup?lang={lang}").get_json()["games"]
            refs[lang] = {(g["key"], o["name"]): o["ref"] for g in games for o in g["options"]}
        assert refs["xx"] == refs["en"]  # an unknown language: English
        assert refs["pl"] != refs["en"]
        assert any("krok" in r for r in refs["pl"].values())
    finally:
        referee.store.close()
