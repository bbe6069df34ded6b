"""Translations of the core's messages, switchable at run time.

Catalogs are gettext ``.po`` files shipped beside the code (``locale/<lang>.po``), read
directly so that no compile step or system tool is needed on the Pi. English is the
source language. The language comes from :func:`set_language`, else from
``SPLENDOR_LANG``, ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``.

>>> set_language("it")
>>> translate("red")
'rosso'
>>> set_language("en")
"""

from __future__ import annotations

import ast
import os
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "it", "sv", "pt", "fr")
_current: str | None = None


def parse_po(text: str) -> dict[str, str]:
    """``msgid -> msgstr`` of a ``.po`` file (no plurals, no contexts: we use neither)."""
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    target: list[str] | None = None

    def flush() -> None:
        if msgid is not None and msgstr is not None:
            key, value = "".join(msgid), "".join(msgstr)
            if key and value:
                entries[key] = value

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("msgid "):
            flush()
            msgid, msgstr = [ast.literal_eval(line[6:])], None
            target = msgid
        elif line.startswith("msgstr "):
            msgstr = [ast.literal_eval(line[7:])]
            target = msgstr
        elif line.startswith('"') and target is not None:
            target.append(ast.literal_eval(line))
        elif not line or line.startswith("#"):
            continue
    flush()
    return entries


@cache
def catalog(language: str) -> dict[str, str]:
    """The messages of one language; English (and an unknown language) is empty."""
    if language == "en" or language not in LANGUAGES:
        return {}
    path = resources.files("companion").joinpath("locale", f"{language}.po")
    return parse_po(path.read_text(encoding="utf-8"))


def _from_environment() -> str:
    for var in ("SPLENDOR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
    return "en"


def set_language(language: str | None) -> None:
    """Switch every later message to ``language`` (``None``: back to the environment's)."""
    global _current
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    _current = language


def language() -> str:
    return _current or _from_environment()


def translate(message: str) -> str:
    return catalog(language()).get(message, message)


_ = translate


def localise(value: Any) -> str:
    """A message parameter as text: a colour by its translated name, lists joined."""
    from .tokens import Colour, Tokens  # late: tokens does not depend on translations

    if isinstance(value, Colour):
        return translate(value.key)
    if isinstance(value, Tokens):
        return ", ".join(f"{n} {translate(c.key)}" for c, n in zip(Colour, value, strict=True) if n)
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(localise(v) for v in value)
    return str(value)
