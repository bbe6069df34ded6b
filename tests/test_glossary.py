"""Every catalog says each game term with its rulebook's word, one word per thing: the
glossary (companion/locale/glossary.tsv, one line per term per language, taken from the
rulebooks) against every message of companion/locale/*.po."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from companion import i18n

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "companion" / "locale" / "glossary.tsv"
LANGUAGES = i18n.LANGUAGES[1:]
# What is not prose: placeholders, options (--players) and JSON's own "keys", which keep
# their English spelling in every language because a person types them so.
CODE = re.compile(r"\{[^}]*\}|--[\w-]+|\"[^\"]*\"|%\([^)]*\)\w|%\w")

# Messages where an English term's word means something else: the term is not asked for.
NOT_THE_TERM = {
    ("card", "125 kHz EM4100 cards and fobs"): "RFID cards of plastic",
    ("card", "13.56 MHz NTAG213 stickers, MIFARE cards"): "RFID cards of plastic",
    (
        "card",
        "the games folder {folder} is read-only ({reason}): games cannot be saved there, "
        "and nothing was changed. Make it writable (or remount the card read-write), then start "
        "again.",
    ): "the Pi's SD card",
    ("turn", "Turn the picture to match how the screen is mounted"): "the verb: to rotate",
    ("record", "ask for each card in turn and record the tag scanned for it"): "the verb",
    ("turn", "ask for each card in turn and record the tag scanned for it"): "in turn: one by one",
    ("player", "Highlight the cards the player to act can afford"): "said as 'whose turn it is'",
    # A tournament's round (docs/club.md): every table plays a game, not the game's round.
    **{
        ("round", message): "a tournament's round (French: ronde), not a round of the game"
        for message in (
            "a tournament night: players, rounds, tables, standings",
            "start [NAME], add NAME..., drop NAME, pair (the next round), tables, table "
            "(this kiosk's), standings, end",
            "Round {round}, table {table}: {players}",
            "No table is waiting for this kiosk in this round.",
            "a round needs at least two players: register them with 'club tournament add'",
            "round {round} is still being played at table {table}: its game ends first",
            "Seat the next round",
            "Its results stay at the club; no round can be seated after.",
        )
    },
    (
        "turn",
        "a console holds this port ({port} is console={console} in cmdline.txt): turn it "
        "off with sudo raspi-config (Interface Options, Serial Port: login shell No, hardware "
        "Yes), then reboot",
    ): "the verb: to switch off",
}


@dataclass(frozen=True)
class Entry:
    term: str
    words: re.Pattern[str] | None
    forbidden: re.Pattern[str] | None
    rulebook: str


def _form(form: str) -> str:
    """``b*`` is b and every word it starts; ``*b`` every word it ends (a compound)."""
    text = re.escape(form.strip("*"))
    start = r"\w*" if form.startswith("*") else r"(?<!\w)"
    end = r"\w*" if form.endswith("*") else ""
    return start + text + end + r"(?!\w)"


def _pattern(forms: str) -> re.Pattern[str] | None:
    """``a|b*|*c|d e`` as whole words, case aside (see :func:`_form`)."""
    if not forms:
        return None
    return re.compile("|".join(_form(f) for f in forms.split("|")), re.IGNORECASE)


@cache
def glossary() -> dict[str, dict[str, Entry]]:
    """term -> language -> its entry."""
    terms: dict[str, dict[str, Entry]] = {}
    lines = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line[:1] != "#"]
    for row in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
        entry = Entry(
            row["term"], _pattern(row["words"]), _pattern(row["forbidden"]), row["rulebook"]
        )
        terms.setdefault(row["term"], {})[row["language"]] = entry
    return terms


def said(language: str) -> list[tuple[str, str]]:
    """(English, translation) for every message and every plural form of a catalog."""
    catalog = i18n.load(language)
    pairs = list(catalog.messages.items())
    for msgid, (plural, forms) in catalog.plurals.items():
        pairs += [(f"{msgid} / {plural}", form) for form in forms]
    return pairs


def prose(text: str) -> str:
    return CODE.sub(" ", text)


def uses(entry: Entry, text: str) -> bool:
    return entry.words is not None and entry.words.search(prose(text)) is not None


def test_every_term_has_a_line_in_every_language() -> None:
    for term, languages in glossary().items():
        assert set(languages) == {"en", *LANGUAGES}, term
        assert languages["en"].words, term
        for entry in languages.values():
            assert entry.rulebook, (term, entry)


def asking(language: str) -> Iterator[tuple[str, Entry, str, str]]:
    """Each message of ``language`` whose English says a term, with that term and its
    entry in ``language``: (term, entry, English, translation)."""
    for term, languages in glossary().items():
        english, entry = languages["en"], languages[language]
        for msgid, text in said(language):
            if uses(english, msgid):
                yield term, entry, msgid, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_message_with_a_game_term_says_the_rulebook_word(language: str) -> None:
    missing = [
        f"{term}: {msgid!r} -> {text!r}"
        for term, entry, msgid, text in asking(language)
        if entry.words is not None
        and (term, msgid.split(" / ")[0]) not in NOT_THE_TERM
        and not uses(entry, text)
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_says_a_forbidden_variant(language: str) -> None:
    found = []
    for term, entry, _english, text in asking(language):
        hit = entry.forbidden.search(prose(text)) if entry.forbidden is not None else None
        if hit:
            found.append(f"{term}: {hit.group(0)!r} in {text!r}")
    assert not found, "\n".join(found)


def test_the_check_reads_inflected_forms_and_leaves_code_alone() -> None:
    reserve = glossary()["reserve"]
    assert uses(reserve["fr"], "les cartes réservées de {name}")
    assert uses(reserve["it"], "prenotala")
    assert not uses(glossary()["player"]["fr"], 'with "players" and --players')
    assert uses(glossary()["card"]["sv"], "RFID-kort") and uses(glossary()["card"]["sv"], "kortkod")
    # Swedish compounds are words of their own: a prestigepoäng is not a forbidden "bonus".
    assert glossary()["bonus"]["sv"].forbidden is not None
    assert not glossary()["bonus"]["sv"].forbidden.search("favoritbonus, bonuspoäng")
    assert glossary()["bonus"]["sv"].forbidden.search("en bonus")
