"""The app's words in the language chosen in the settings, switchable at run time.

One set of catalogs serves the whole product (``companion/locale``), so an error from the
engine reads in the same language as the buttons around it.
"""

from __future__ import annotations

from companion import i18n as core

LANGUAGES = core.LANGUAGES
# Each language by its own name, from its catalog: a new catalog is a new choice.
LANGUAGE_NAMES = {code: core.language_name(code) for code in LANGUAGES}


def tr(message: str) -> str:
    """``message`` in the current language."""
    return core.translate(message)


def set_language(language: str) -> None:
    core.set_language(language)
