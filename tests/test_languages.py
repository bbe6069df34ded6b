"""The languages as their readers write them (docs/languages.md): the Italian "ad" and the
French "d'" before a name, pt_BR named as a locale names it, argparse's headings in the
language's own typography, the Brazilian plural of zero."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import help_text

from companion import i18n
from companion.cli import main
from companion.engine.simulate import simulate
from companion.engine.tokens import Colour
from companion.errors import ErrorCode, IllegalMove
from companion.records.record import Record, write

NBSP = "\u00a0"


def _wrong_player(tmp_path: Path, names: list[str]) -> Path:
    """A record whose first move is played by the second seat, out of turn."""
    doc = json.loads(write(Record.of(simulate(players=2, seed=3, max_moves=0))))
    doc["players"] = names
    doc["moves"] = [{"player": 1, "action": "take", "gems": {"red": 1, "blue": 1, "green": 1}}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_italian_says_ad_before_a_name_that_starts_with_a(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "it", "replay", str(_wrong_player(tmp_path, ["Ben", "Ada"]))]) == 1
    assert "tocca a Ben, non ad Ada" in capsys.readouterr().out
    assert main(["--lang", "it", "replay", str(_wrong_player(tmp_path, ["Ada", "Ben"]))]) == 1
    assert "tocca ad Ada, non a Ben" in capsys.readouterr().out


def test_french_elides_de_before_a_name_that_starts_with_a_vowel() -> None:
    template = "{id} is neither face up nor in {name}'s reserve"
    i18n.set_language("fr")
    assert (
        "cartes réservées d'Ada"
        in IllegalMove(ErrorCode.WRONG_PLAYER, template, id="1W1", name="Ada").message
    )
    assert (
        "cartes réservées de Ben"
        in IllegalMove(ErrorCode.WRONG_PLAYER, template, id="1W1", name="Ben").message
    )


@pytest.mark.parametrize("written", ["pt", "pt_BR", "pt-BR", "pt_BR.UTF-8", "PT_br"])
def test_portuguese_is_accepted_as_a_locale_names_it(
    written: str, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["games", "--lang", written]) == 0
    assert "Nenhuma partida ainda." in capsys.readouterr().out
    assert main([f"--lang={written}", "games"]) == 0
    assert "Nenhuma partida ainda." in capsys.readouterr().out


def test_a_language_without_a_catalog_is_refused_with_the_choices(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["games", "--lang", "de_DE"])
    assert exit_.value.code == 2
    assert "'de_DE'" in capsys.readouterr().err


def test_the_environment_may_name_brazilian_portuguese_by_its_locale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable in ("SPLENDOR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    i18n.set_language(None)
    assert i18n.language() == "pt"
    assert i18n.language_name("pt") == "Português (Brasil)"


def test_brazilian_portuguese_says_zero_in_the_plural_and_french_in_the_singular() -> None:
    i18n.set_language("pt_BR")
    assert i18n.ngettext("{n} point", "{n} points", 0).format(n=0) == "0 pontos de prestígio"
    assert i18n.ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 cartas"
    i18n.set_language("fr")
    assert i18n.ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 carte"


def test_help_headings_follow_the_languages_typography() -> None:
    french = help_text(["simulate", "--help", "--lang", "fr"])
    assert french.startswith(f"utilisation{NBSP}: ")
    assert f"\noptions{NBSP}:\n" in french
    assert "options:" not in french
    assert f"\ncommandes{NBSP}:\n" in help_text(["--help", "--lang", "fr"])  # a group's title
    assert "\nopzioni:\n" in help_text(["simulate", "--help", "--lang", "it"])
    i18n.set_language("en")
    english = help_text(["simulate", "--help"])
    assert "\noptions:\n" in english
    # --data-dir wins over the environment variable: said as precedence, not position.
    assert "(overrides the SPLENDOR_DATA_DIR environment variable)" in " ".join(english.split())


@pytest.mark.parametrize(
    ("language", "english", "params", "said", "not_said"),
    [
        ("fr", "{name} counts as itself again.", {"name": "Zoé"}, "personne à part", "lui-même"),
        ("fr", "tag {tag} is now {card}: saved", {"tag": "AB", "card": "1W1"}, "enregistrée", None),
        (
            "fr",
            "{companion}: {games}, won by the people: {wins} ({rate})",
            {"companion": "C", "games": "1 partie", "wins": 0, "rate": "0 %"},
            "victoires des humains",
            "gagnées",
        ),
        ("fr", "{player} receives a gold token.", {"player": "Ada"}, "jeton or", "joker"),
        ("it", "count NAME as INTO", {}, "GIOCATORE", " IN"),
        (
            "it",
            "level {level}, {colour}, cost {cost}",
            {"level": 1, "colour": "bianco", "cost": ""},
            "bonus bianco",
            None,
        ),
        (
            "sv",
            "a {colour} bonus: cards cost less from now on",
            {"colour": "vit"},
            "färgen vit",
            "i vit:",
        ),
        (
            "sv",
            "it is {name}'s turn, not {given}'s",
            {"name": "Ben", "given": "Ada"},
            "det är Ben som är på tur",
            None,
        ),
        (
            "sv",
            "2 {colour} tokens can be taken only when the bank holds at least 4; it holds {n}",
            {"colour": Colour.RED, "n": 3},
            "nu finns det 3",
            "där finns",
        ),
        # "Gör om", as Swedish programs say it ("Upprepa" is Repeat), held together by a
        # no-break space: the button never wraps.
        ("sv", "Redo", {}, "Gör\u00a0om", " "),
        (
            "sv",
            "Noble {n} of {total}: which noble lies on the table?",
            {"n": 1, "total": 3},
            "adelsman",
            "adelsperson",
        ),
        ("pt", "{name} counts as itself again.", {"name": "Zoé"}, "pessoa à parte", "si mesmo"),
        ("pt", "pays nothing (bonuses)", {}, "bônus", "bónus"),
        (
            "pt",
            "Level {level}, card {n} of {total}: which card is face up? (or scan it)",
            {"level": 1, "n": 2, "total": 4},
            "escaneie",
            "leia",
        ),
        (
            "pt",
            "{players} players reveal {want} nobles, not {n}",
            {"players": 3, "want": 4, "n": 2},
            "4 nobres",
            "cartões",
        ),
    ],
)
def test_the_reviewers_findings_read_as_a_native_writes(
    language: str, english: str, params: dict[str, object], said: str, not_said: str | None
) -> None:
    i18n.set_language(language)
    text = i18n.translate(english).format(**{k: i18n.localise(v) for k, v in params.items()})
    assert said in text, text
    assert not_said is None or not_said not in text, text


def _french() -> list[str]:
    catalog = i18n.load("fr")
    return [
        *catalog.messages.values(),
        *(f for _, forms in catalog.plurals.values() for f in forms),
    ]


def test_french_never_breaks_a_line_before_its_punctuation_and_quotes_with_guillemets() -> None:
    for text in _french():
        # A plain space before : ; ? ! (or inside « ») lets a line break there.
        assert not re.search(r" [:;?!»]|« ", text), text
        # A quote is « », never 'straight' (an apostrophe follows a letter: l'étiquette).
        assert not re.search(r"(^|[\s(])'", text), text
