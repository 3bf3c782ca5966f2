"""The box page names each choice of Glory's data file as the component prints it and as the
game shows it elsewhere (issue #24, point 3: cards are entered by choosing from the game's
vocabulary; ``glory:box/enum/*``, read by ``bridge/box/labels.py``)."""

from __future__ import annotations

from engine.i18n import catalog


def _box_names(lang: str) -> dict[str, str]:
    prefix = "glory:box/enum/"
    return {k.removeprefix(prefix): v for k, v in catalog(lang).items() if k.startswith(prefix)}


def test_the_names_are_the_printed_ones() -> None:
    en, pl = _box_names("en"), _box_names("pl")
    assert (pl["dworka"], pl["wiedzma"], pl["pierscien"]) == ("Dwórka", "Wiedźma", "Pierścień")
    assert (en["polish-nobility"], pl["polish-nobility"]) == ("Polish Nobility", "Polska Szlachta")
    assert (en["market"], pl["market"], pl["challenge"]) == ("Market", "Targ", "Wyzwanie")


def test_the_names_agree_with_those_the_game_shows() -> None:
    """The same name, or that name with a gloss in brackets ("Pustelnik (Hermit)" on the
    English form, where the game keeps the printed Polish name)."""
    compared = 0
    for lang in ("en", "pl"):
        names, shown = _box_names(lang), catalog(lang)
        for kind in ("name", "deck"):  # printed components (a field name is no component)
            for code, text in shown.items():
                value = code.removeprefix(f"glory:{kind}/")
                if code.startswith(f"glory:{kind}/") and value in names:
                    named = names[value]
                    assert named == text or named.startswith(f"{text} ("), (lang, code, named)
                    compared += 1
    assert compared > 40  # the allies, relics, Knight kinds… of both languages
