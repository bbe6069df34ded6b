"""Translations of the core's messages, switchable at run time.

Catalogs are gettext ``.po`` files shipped beside the code (``locale/<lang>.po``), read
directly so that no compile step or system tool is needed on the Pi. English is the
source language. The language comes from :func:`set_language`, else from
``SPLENDOR_LANG``, ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``.

>>> set_language("it")
>>> translate("red")
'rosso'
>>> set_language("en")

A message with a count goes through :func:`ngettext` with its English singular and plural;
the catalog's ``Plural-Forms`` header picks the form for ``n`` (French puts 0 and 1 in the
singular, the others only 1). The result is a template; format it yourself:

>>> ngettext("{n} game", "{n} games", 1).format(n=1)
'1 game'
>>> ngettext("{n} game", "{n} games", 0).format(n=0)
'0 games'

In a catalog a plural message is written the gettext way::

    msgid "{n} game"
    msgid_plural "{n} games"
    msgstr[0] "{n} partita"
    msgstr[1] "{n} partite"

``tools/messages.py`` collects ``ngettext("...", "...", n)`` calls as plural entries.
"""

from __future__ import annotations

import ast
import gettext
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

_LOCALE = resources.files("companion").joinpath("locale")
# English is the source language; every other one is the catalog shipped for it.
LANGUAGES = ("en", *sorted(p.name[:-3] for p in _LOCALE.iterdir() if p.name.endswith(".po")))
# English's rule, used for English and for a message a catalog does not translate.
ENGLISH_PLURALS = "nplurals=2; plural=(n != 1);"
_current: str | None = None


@dataclass(frozen=True)
class Catalog:
    """One ``.po`` file: its plain messages, its plural messages and its plural rule."""

    messages: dict[str, str] = field(default_factory=dict)
    # msgid (the English singular) -> (msgid_plural, (msgstr[0], msgstr[1], ...))
    plurals: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    plural_forms: str = ENGLISH_PLURALS

    @property
    def nplurals(self) -> int:
        """How many forms a plural message has in this language.

        >>> Catalog(plural_forms="nplurals=3; plural=(n==1 ? 0 : n<5 ? 1 : 2);").nplurals
        3
        """
        for part in self.plural_forms.split(";"):
            key, _, value = part.partition("=")
            if key.strip() == "nplurals":
                return int(value.strip())
        return 2

    @property
    def plural_index(self) -> Callable[[int], int]:
        """The index of the form for a count, from the ``plural=`` C expression.

        >>> rule = Catalog(plural_forms="nplurals=2; plural=(n > 1);").plural_index
        >>> rule(0), rule(1), rule(2)
        (0, 0, 1)
        """
        return _rule(self.plural_forms)


@cache
def _rule(plural_forms: str) -> Callable[[int], int]:
    for part in plural_forms.split(";"):
        key, _, value = part.partition("=")
        if key.strip() == "plural":
            # gettext's own parser: it accepts only the C subset of plural expressions.
            return gettext.c2py(value.strip())
    return gettext.c2py("n != 1")


def _header_field(header: str, name: str) -> str | None:
    for line in header.split("\n"):
        key, _, value = line.partition(":")
        if key.strip().lower() == name.lower():
            return value.strip()
    return None


def read_po(text: str) -> Catalog:
    """Every entry of a ``.po`` file (no contexts: we use none).

    >>> po = '''msgid ""
    ... msgstr "Plural-Forms: nplurals=2; plural=(n > 1);\\\\n"
    ...
    ... msgid "red"
    ... msgstr "rouge"
    ...
    ... msgid "{n} point"
    ... msgid_plural "{n} points"
    ... msgstr[0] "{n} point"
    ... msgstr[1] "{n} points"
    ... '''
    >>> cat = read_po(po)
    >>> cat.messages, cat.plurals["{n} point"], cat.nplurals
    ({'red': 'rouge'}, ('{n} points', ('{n} point', '{n} points')), 2)
    """
    messages: dict[str, str] = {}
    plurals: dict[str, tuple[str, tuple[str, ...]]] = {}
    header = ""
    msgid: list[str] | None = None
    msgid_plural: list[str] | None = None
    msgstr: dict[int, list[str]] = {}
    target: list[str] | None = None

    def flush() -> None:
        nonlocal header
        if msgid is None:
            return
        key = "".join(msgid)
        forms = {i: "".join(parts) for i, parts in msgstr.items()}
        if not key:
            header = forms.get(0, "")
        elif msgid_plural is not None:
            values = tuple(forms.get(i, "") for i in range(max(forms, default=-1) + 1))
            plurals[key] = ("".join(msgid_plural), values)
        elif forms.get(0):
            messages[key] = forms[0]

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("msgid "):
            flush()
            msgid, msgid_plural, msgstr = [ast.literal_eval(line[6:])], None, {}
            target = msgid
        elif line.startswith("msgid_plural "):
            msgid_plural = [ast.literal_eval(line[13:])]
            target = msgid_plural
        elif line.startswith("msgstr["):
            index, _, rest = line[7:].partition("]")
            target = msgstr[int(index)] = [ast.literal_eval(rest.strip())]
        elif line.startswith("msgstr "):
            target = msgstr[0] = [ast.literal_eval(line[7:])]
        elif line.startswith('"') and target is not None:
            target.append(ast.literal_eval(line))
    flush()
    forms = _header_field(header, "Plural-Forms") or ENGLISH_PLURALS
    return Catalog(messages, plurals, forms)


def parse_po(text: str) -> dict[str, str]:
    """``msgid -> msgstr`` of the plain (not plural) messages of a ``.po`` file."""
    return read_po(text).messages


@cache
def load(language: str) -> Catalog:
    """The catalog of one language; English (and an unknown language) is empty."""
    if language == "en" or language not in LANGUAGES:
        return Catalog()
    path = _LOCALE.joinpath(f"{language}.po")
    return read_po(path.read_text(encoding="utf-8"))


def catalog(language: str) -> dict[str, str]:
    """The plain messages of one language; English (and an unknown language) is empty."""
    return load(language).messages


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


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the current language (not formatted).

    >>> set_language("fr")
    >>> load("fr").plural_index(0), load("fr").plural_index(2)
    (0, 1)
    >>> set_language("en")
    >>> ngettext("{n} token", "{n} tokens", 2)
    '{n} tokens'
    """
    entry = load(language())
    found = entry.plurals.get(singular)
    if found is not None:
        index = entry.plural_index(n)
        forms = found[1]
        if 0 <= index < len(forms) and forms[index]:
            return forms[index]
    return singular if n == 1 else plural


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
