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


# =============================================================================================
# Portuguese (Brazil) and Swedish: the slips native readers found (issue 35), one table a
# language, so they cannot come back. A slip is a pattern no translation may match (case
# aside), why, and a sentence it catches: a pattern that catches nothing fails its own test.
# `english` narrows a slip to the messages whose English matches it. The decisions of
# docs/languages.md (the companion's name, Undo and Redo) are held by DECIDED below.
# =============================================================================================


@dataclass(frozen=True)
class Slip:
    pattern: str
    why: str
    example: str
    english: str = ""


# An elapsed time ({time}: "50:19" since the game began) is a duration, never a clock time.
ELAPSED = r"\{time\}"

PT_SLIPS = (
    Slip(
        r"\bpor (preencher|contar|fazer|jogar|ler|indicar|declarar)\b",
        "European 'por + infinitive': Brazilian says 'para preencher', 'faltam'",
        "Prepare a mesa: 3 lugares por preencher.",
    ),
    Slip(r"\be porquê\b", "Brazilian writes 'e por quê' at a clause's end", "e porquê"),
    Slip(
        r"\bsem (a|o|as|os) (ver|ler|mostrar|olhar)\b",
        "European pronoun before the infinitive: Brazilian 'sem vê-la'",
        "reserva uma carta do baralho, sem a ver",
    ),
    Slip(
        r"\b(estar|está|estão|estou|estava|estavam) a \w+(ar|er|ir)\b",
        "European 'estar a + infinitive': Brazilian says the gerund ('está pensando')",
        "O companheiro está a pensar",
    ),
    Slip(
        r"\b(ecrãs?|utilizador\w*|ficheiros?|telemóve\w*|registos?|equipas?|partilh\w*|"
        r"premi[ar]\w*|rato)\b",
        "European words: tela, usuário, arquivo, celular, registro, equipe, compartilhar",
        "o ecrã do utilizador",
    ),
    Slip(r"\bnuma?\b", "written Brazilian says 'em um', 'em uma'", "Toque numa jogada"),
    Slip(
        r"\b(tu|te|ti|contigo|teu|tua|teus|tuas|vós|vosso|vossa)\b",
        "one register, você: no tu or vós",
        "é o teu turno",
    ),
    Slip(
        r"\b(às|as|à|em)\s+" + ELAPSED,
        "an elapsed time said as a clock time or read as a move ('Jogada em 50:19')",
        "Jogada em {time}",
        english=ELAPSED,
    ),
    Slip(
        r"^\{preferred\} teria (chegado|dado)",
        "the move alone does not score the points: the player reaches them",
        "{preferred} teria chegado a {n} pontos de prestígio: o bastante para vencer",
        english="enough to win",
    ),
)

SV_SLIPS = (
    Slip(r"\bupprepa(r|t|de|s)?\b", "'Upprepa' is Repeat: Redo is 'Gör om'", "Upprepa"),
    Slip(r"\bduka\w*", "'Duka upp' lays a table for a meal: 'Förbered spelet'", "Duka upp bordet"),
    Slip(
        r"\bparti(et|er|erna)?\b",
        "a game is 'spel' (glossary.tsv)",
        "en BG Stats-länk till ett parti",
    ),
    Slip(
        r"\bgyllene\b(?! (joker)?markör)",
        "'gyllene' needs its noun (the book's 'gyllene jokermarkörer'): a count says '1 guld'",
        "betalar 1 gyllene",
    ),
    Slip(
        r"\b(ni|er|ert|era)\b",
        "one register, du: no ni (nor er, ert, era) to the reader",
        "medan ni räknar dess hög",
    ),
    Slip(
        r"(\bkl\.|\bklockan|\bvid)\s*" + ELAPSED,
        "an elapsed time said as a clock time ('kl. 50:19'): it is 'speltid 50:19'",
        "tur: {turn}\nkl. {time}",
        english=ELAPSED,
    ),
    Slip(
        r"^\{preferred\} hade gett \{n\} prestigepoäng",
        "the move alone does not score 15: the player reaches them",
        "{preferred} hade gett {n} prestigepoäng: nog för att vinna",
        english="enough to win",
    ),
)

SLIPS = {"pt": PT_SLIPS, "sv": SV_SLIPS}

# The words docs/languages.md decided, said exactly (Swedish "Gör om" held together by a
# no-break space: the table's narrow Redo button never wraps it).
DECIDED = {
    "pt": {"Undo": "Desfazer", "Redo": "Refazer", "Companion": "Companheiro"},
    "sv": {"Undo": "Ångra", "Redo": "Gör\u00a0om", "Companion": "Följeslagare"},
}


def _slip_text(text: str) -> str:
    """A translation as read for a slip: what a person types (options, JSON's quoted
    words) left out, placeholders kept (the elapsed time's word is the one before it)."""
    return re.sub(r"--[\w-]+|\"[^\"]*\"", " ", text)


@pytest.mark.parametrize(
    "slip", [s for slips in SLIPS.values() for s in slips], ids=lambda s: s.example[:30]
)
def test_each_slip_catches_its_example(slip: Slip) -> None:
    assert re.search(slip.pattern, _slip_text(slip.example), re.IGNORECASE | re.MULTILINE)


@pytest.mark.parametrize("language", sorted(SLIPS))
def test_no_message_has_a_slip_a_native_reader_found(language: str) -> None:
    found = []
    for english, text in said(language):
        for slip in SLIPS[language]:
            if slip.english and not re.search(slip.english, english):
                continue
            hit = re.search(slip.pattern, _slip_text(text), re.IGNORECASE | re.MULTILINE)
            if hit:
                found.append(f"{hit.group(0)!r} ({slip.why}) in {text!r}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("language", sorted(DECIDED))
def test_the_decided_words_are_said(language: str) -> None:
    catalog = i18n.load(language).messages
    for english, word in DECIDED[language].items():
        assert catalog[english] == word, (english, catalog[english])
