"""Each language says counts with the right plural and its colours agreeing with the tokens,
writes numbers its own way, and uses its rulebook's words."""

from __future__ import annotations

import re

import pytest

from companion import i18n
from companion.engine.tokens import Colour, Tokens
from companion.errors import ErrorCode, IllegalMove
from companion.i18n import localise, ngettext, number
from companion.reports.export import cards_text, points_text

TAKE_TWO = "2 {colour} tokens can be taken only when the bank holds at least 4; it holds {n}"
GOLD_FOR = "gold for 1 {colour}"

# For each language: 1 and 2 points, 1 and 2 cards, tokens (1 white; 2 white and 1 red),
# the take-two refusal for red, "gold for 1 white", and 15.4 as it writes it.
EXPECTED = {
    "en": (
        ("1 point", "2 points"),
        ("1 card", "2 cards"),
        ("1 white", "2 white, 1 red"),
        "2 red tokens",
        "gold for 1 white",
        "15.4",
    ),
    "it": (
        ("1 punto prestigio", "2 punti prestigio"),
        ("1 carta", "2 carte"),
        ("1 bianco", "2 bianchi, 1 rosso"),
        "2 gettoni rossi",
        "oro al posto di 1 bianco",
        "15,4",
    ),
    "sv": (
        ("1 prestigepoäng", "2 prestigepoäng"),
        ("1 kort", "2 kort"),
        ("1 vit", "2 vita, 1 röd"),
        "2 röda markörer",
        "guldmarkör i stället för 1 vit",
        "15,4",
    ),
    "pt": (
        ("1 ponto de prestígio", "2 pontos de prestígio"),
        ("1 carta", "2 cartas"),
        ("1 branca", "2 brancas, 1 vermelha"),
        "2 fichas vermelhas",
        "ouro no lugar de 1 branca",
        "15,4",
    ),
    "fr": (
        ("1 point de prestige", "2 points de prestige"),
        ("1 carte", "2 cartes"),
        ("1 blanc", "2 blancs, 1 rouge"),
        "2 jetons rouges",
        "or pour 1 blanc",
        "15,4",
    ),
}


@pytest.mark.parametrize("language", list(EXPECTED))
def test_counts_and_colours_agree(language: str) -> None:
    points, cards, tokens, take_two, gold_for, decimal = EXPECTED[language]
    i18n.set_language(language)
    assert (points_text(1), points_text(2)) == points
    assert (cards_text(1), cards_text(2)) == cards
    assert (localise(Tokens(white=1)), localise(Tokens(white=2, red=1))) == tokens
    refusal = IllegalMove(ErrorCode.TAKE_TWO_NEEDS_FOUR, TAKE_TWO, colour=Colour.RED, n=3)
    assert take_two in refusal.message
    assert i18n.translate(GOLD_FOR).format(colour=localise(Colour.WHITE)) == gold_for
    assert number(15.4, 1) == decimal


def test_french_says_zero_in_the_singular_and_brazilian_portuguese_in_the_plural() -> None:
    # docs/languages.md: a Brazilian reader writes "0 pontos", "0 partidas".
    i18n.set_language("fr")
    assert ngettext("{n} game", "{n} games", 0).format(n=0) == "0 partie"
    i18n.set_language("pt")
    assert ngettext("{n} game", "{n} games", 0).format(n=0) == "0 partidas"
    assert ngettext("{n} point", "{n} points", 0).format(n=0) == "0 pontos de prestígio"
    assert ngettext("{n} point", "{n} points", 1).format(n=1) == "1 ponto de prestígio"
    i18n.set_language("it")
    assert ngettext("{n} game", "{n} games", 0).format(n=0) == "0 partite"


PLACEHOLDER = re.compile(r"\{([^}:!]*)[^}]*\}")


@pytest.mark.parametrize("language", i18n.LANGUAGES[1:])
def test_plural_forms_keep_their_placeholders(language: str) -> None:
    catalog = i18n.load(language)
    for msgid, (plural, forms) in catalog.plurals.items():
        allowed = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural))
        assert len(forms) == catalog.nplurals, msgid
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) <= allowed, (msgid, form)
        # The plural form names every value (a singular may say "one" in words instead).
        assert set(PLACEHOLDER.findall(forms[-1])) == set(PLACEHOLDER.findall(plural)), msgid


@pytest.mark.parametrize(
    ("language", "english", "words"),
    [
        ("fr", "{name}'s turn", "À Ada de jouer"),
        ("fr", "Reserve the top card of the level {n} deck, unseen?", "pile de niveau 2"),
        ("it", "Settings", "Impostazioni"),
        ("it", "Redo", "Ripristina"),
        ("sv", "{name}'s turn", "Ada på tur"),
        ("sv", "Export to USB", "Exportera till USB-minne"),
        ("pt", "Undo", "Desfazer"),
        ("pt", "Settings", "Configurações"),
        ("pt", "Done", "Concluir"),
        ("pt", "The game is not over (round {n}).", "A partida não terminou"),
    ],
)
def test_rulebook_words(language: str, english: str, words: str) -> None:
    i18n.set_language(language)
    assert words in i18n.translate(english).format(name="Ada", n=2)


def test_languages_are_the_catalogs_with_their_own_names() -> None:
    assert set(i18n.LANGUAGES) == {"en", "it", "sv", "pt", "fr"}
    assert i18n.language_name("sv") == "Svenska"


def test_a_colour_that_agrees_is_passed_through_localise() -> None:
    """A translation may ask ``{colour:one}``: the code must give the core's colour word
    (``localise``), which knows its forms, not a plain translated name."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    agreeing = {
        msgid
        for language in i18n.LANGUAGES[1:]
        for msgid, text in i18n.catalog(language).items()
        if re.search(r"\{colour:(one|many)\}", text)
    }
    assert agreeing
    sources = [
        *root.glob("companion/**/*.py"),
        *root.glob("ui/**/*.py"),
        *root.glob("tests/**/*.py"),
    ]
    for path in sources:
        code = path.read_text(encoding="utf-8")
        for msgid in agreeing:
            for found in re.finditer(re.escape(f'"{msgid}").format(colour='), code):
                rest = code[found.end() : found.end() + 9]
                assert rest == "localise(", f"{path}: {msgid!r} formatted with {rest}..."


@pytest.mark.parametrize("language", list(EXPECTED))
@pytest.mark.parametrize(
    "template",
    [
        TAKE_TWO,
        "the payment uses {colour} tokens the player does not hold",
        "returns {colour} tokens the player does not hold",
        "the bank has no {colour} token left",
    ],
)
def test_colour_refusals_read_with_one_colour_or_several(language: str, template: str) -> None:
    i18n.set_language(language)
    for colour in (Colour.RED, [Colour.RED, Colour.WHITE]):
        message = IllegalMove(ErrorCode.RETURN_INVALID, template, colour=colour, n=3).message
        assert "{" not in message and message
