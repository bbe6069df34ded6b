"""The app's own words, in the language chosen in the settings, switchable at run time.

The app's catalogs (``ui/locale/<lang>.po``) come first, then the core's, so an error from
the engine reads in the same language as the buttons around it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from companion import i18n as core

LANGUAGES = core.LANGUAGES
LANGUAGE_NAMES = {
    "en": "English",
    "it": "Italiano",
    "sv": "Svenska",
    "pt": "Português",
    "fr": "Français",
}


@cache
def catalog(language: str) -> dict[str, str]:
    if language == "en" or language not in LANGUAGES:
        return {}
    path = resources.files("ui").joinpath("locale", f"{language}.po")
    return core.parse_po(path.read_text(encoding="utf-8"))


def tr(message: str) -> str:
    """``message`` in the current language (the app's catalog, else the core's)."""
    language = core.language()
    return catalog(language).get(message) or core.translate(message)


_ = tr


def set_language(language: str) -> None:
    core.set_language(language)
