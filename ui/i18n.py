"""The app's words in the language chosen in the settings, switchable at run time.

One set of catalogs serves the whole product (``companion/locale``), so an error from the
engine reads in the same language as the buttons around it.
"""

from __future__ import annotations

from companion import i18n as core

LANGUAGES = core.LANGUAGES
LANGUAGE_NAMES = {
    "en": "English",
    "it": "Italiano",
    "sv": "Svenska",
    "pt": "Português",
    "fr": "Français",
}


def tr(message: str) -> str:
    """``message`` in the current language."""
    return core.translate(message)


def set_language(language: str) -> None:
    core.set_language(language)
