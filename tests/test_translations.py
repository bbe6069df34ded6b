"""Every message of the core is translated into the four other languages of the rulebooks."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion import i18n
from companion.engine.tokens import Colour
from companion.errors import ErrorCode, IllegalMove

ROOT = Path(__file__).resolve().parent.parent
# A placeholder's name; a translation may add a form (``{colour:many}``).
PLACEHOLDER = re.compile(r"\{([^}:!]*)[^}]*\}")
# Templates exactly as the engine raises them (a change there must change them here).
TOKEN_LIMIT = "{name} would end the turn with {n} tokens: return {excess} to get down to {limit}"
NOBLE_CHOICE = "several nobles can visit ({ids}): choose one"
TAKE_TWO = "2 {colour} tokens can be taken only when the bank holds at least 4; it holds {n}"


def test_no_catalog_misses_a_message() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "messages.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, "untranslated:\n" + result.stdout


@pytest.mark.parametrize("language", ["it", "sv", "pt", "fr"])
def test_translations_keep_their_placeholders(language: str) -> None:
    for msgid, msgstr in i18n.catalog(language).items():
        assert sorted(PLACEHOLDER.findall(msgid)) == sorted(PLACEHOLDER.findall(msgstr)), msgid


@pytest.mark.parametrize(
    ("language", "tokens", "noble"),
    [
        ("it", "gettoni", "nobil"),
        ("sv", "markör", "adels"),
        ("pt", "fichas", "nobre"),
        ("fr", "jetons", "noble"),
    ],
)
def test_messages_use_the_rulebook_words(language: str, tokens: str, noble: str) -> None:
    i18n.set_language(language)
    err = IllegalMove(ErrorCode.TOKEN_LIMIT, TOKEN_LIMIT, name="Ada", n=12, excess=2, limit=10)
    assert tokens in err.message.lower()
    choice = IllegalMove(ErrorCode.NOBLE_CHOICE_REQUIRED, NOBLE_CHOICE, ids=["N1", "N2"])
    assert noble in choice.message.lower()


def test_an_error_is_shown_in_the_language_chosen_after_it_was_raised() -> None:
    err = IllegalMove(ErrorCode.TAKE_TWO_NEEDS_FOUR, TAKE_TWO, colour=Colour.RED, n=3)
    english = err.message
    i18n.set_language("it")
    assert err.message != english
    assert "rosso" in err.message or "rossi" in err.message
    assert "3" in err.message


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="choose one of"):
        i18n.set_language("de")
