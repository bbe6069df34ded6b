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
import datetime
import errno
import gettext
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Protocol, runtime_checkable

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
    header: str = ""  # the header entry's text: Content-Type, Plural-Forms, Language-Name

    def field(self, name: str) -> str | None:
        """A field of the header (``Plural-Forms``, ``X-Language-Name``...)."""
        return _header_field(self.header, name)

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
    return Catalog(messages, plurals, forms, header)


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


@cache
def _header(language: str) -> str:
    """The header entry of a language's catalog, its first: read without the thousands of
    messages after it (the settings name every language; the table loads one catalog)."""
    text = _LOCALE.joinpath(f"{language}.po").read_text(encoding="utf-8")
    return read_po(text.split("\n\n", 1)[0]).header


def language_name(code: str) -> str:
    """A language's own name (``Italiano``), from its catalog's ``X-Language-Name``.

    >>> language_name("it"), language_name("en")
    ('Italiano', 'English')
    """
    if code == "en":
        return "English"
    if code not in LANGUAGES:
        return code
    return _header_field(_header(code), "X-Language-Name") or code


def language_code(text: str) -> str:
    """The catalog of a language as people and systems write it: ``pt_BR``, ``pt-BR``,
    ``pt_BR.UTF-8`` and ``pt`` are all the Portuguese (Brazil) catalog. A language without
    a catalog comes back as it was given, for the caller to refuse.

    >>> language_code("pt_BR.UTF-8"), language_code("pt-br"), language_code("de_DE")
    ('pt', 'pt', 'de_DE')
    """
    code = re.split(r"[_.@-]", text.strip(), maxsplit=1)[0].lower()
    return code if code in LANGUAGES else text


def environment_language() -> str:
    """The language the environment asks for (``SPLENDOR_LANG``, then the locale's
    variables, as gettext reads them), else English: the app's default setting too, so
    that the app and the command line speak alike on one machine."""
    for var in ("SPLENDOR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        for part in value.split(":"):
            code = language_code(part)
            if code in LANGUAGES:
                return code
    return "en"


def unknown_environment_language() -> str | None:
    """``SPLENDOR_LANG``'s value where it names none of :data:`LANGUAGES` (a slip to say
    once: the locale's variables or English are used instead), else ``None``. The
    locale's own variables are not ours: one the companion does not speak (``de_DE``) is
    passed over quietly, as gettext does."""
    value = os.environ.get("SPLENDOR_LANG", "").strip()
    if not value or any(language_code(part) in LANGUAGES for part in value.split(":")):
        return None
    return value


def set_language(language: str | None) -> None:
    """Switch every later message to ``language`` (``None``: back to the environment's).
    A region or encoding is understood (``pt_BR`` is ``pt``)."""
    global _current
    if language is not None:
        language = language_code(language)
        if language not in LANGUAGES:
            choices = ", ".join(LANGUAGES)
            raise ValueError(f"unknown language {language!r}; choose one of {choices}")
    _current = language


def language() -> str:
    return _current or environment_language()


# Each language's euphony: what its grammar changes where two words meet, most often
# where a name or a word from elsewhere is put into a sentence ("tocca a {name}" with
# Ada is "tocca ad Ada"; "de {name}" with Ada is "d'Ada"). Applied to a filled template.
_VOWELS = "AEIOUYÀÂÉÈÊÎÔ"
_EUPHONY: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    # Italian: "a" and "e" take a d before a word that starts with the same vowel.
    "it": (
        (re.compile(r"\b([Aa]) (?=[AaÀà])"), r"\1d "),
        (re.compile(r"\b([Ee]) (?=[EeÈèÉé])"), r"\1d "),
    ),
    # French: "de" and "que" elide before a name (a capital vowel): d'Ada, qu'Ines.
    "fr": (
        (re.compile(rf"\b([Dd])e (?=[{_VOWELS}])"), r"\1'"),
        (re.compile(rf"\b([Qq]u)e (?=[{_VOWELS}])"), r"\1'"),
    ),
}


def euphony(text: str, lang: str | None = None) -> str:
    """``text`` with the small changes its language's grammar makes where words meet.

    >>> euphony("tocca a Ada, non a Ben", "it"), euphony("Ben e Elena", "it")
    ('tocca ad Ada, non a Ben', 'Ben ed Elena')
    >>> euphony("les cartes de Ada", "fr"), euphony("Ada ahead", "en")
    ("les cartes d'Ada", 'Ada ahead')
    """
    for pattern, replacement in _EUPHONY.get(lang or language(), ()):
        text = pattern.sub(replacement, text)
    return text


class Template(str):
    """A translated message whose ``format`` follows its language's euphony, so that a
    name put into it reads as the language says it (:func:`euphony`).

    >>> set_language("it")
    >>> translate("it is {name}'s turn, not {given}'s").format(name="Ben", given="Ada")
    'tocca a Ben, non ad Ada'
    >>> set_language("en")
    """

    def format(self, *args: object, **kwargs: object) -> str:
        return euphony(super().format(*args, **kwargs))


def _template(text: str) -> str:
    return Template(text) if language() in _EUPHONY else text


def translate(message: str) -> str:
    return _template(catalog(language()).get(message, message))


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
            return _template(forms[index])
    return singular if n == 1 else plural


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it (it is translated later)."""
    return message


_ = translate


def number(value: float, digits: int = 0) -> str:
    """``value`` with ``digits`` decimals as the reader writes numbers: 15.4, 15,4...

    >>> set_language("fr")
    >>> number(15.44, 1), number(1234)
    ('15,4', '1\u202f234')
    >>> set_language("en")
    >>> number(15.44, 1)
    '15.4'
    """
    from babel.numbers import format_decimal  # late: only messages with a number need it

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(round(value, digits), format=pattern, locale=language())


def percent(value: float) -> str:
    """A share (0.5) as the reader writes a percentage: ``50%``, ``50 %``."""
    from babel.numbers import format_percent

    return format_percent(value, locale=language())


def day(when: datetime.date) -> str:
    """A date as the reader writes it, the month in words: ``Nov 29, 2026``, ``29 nov. 2026``.

    >>> day(datetime.date(2026, 11, 29))
    'Nov 29, 2026'
    """
    from babel.dates import format_date

    return format_date(when, format="medium", locale=language())


# The operating system's reasons a person meets with files and ports, in their words.
_OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the device is read-only"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EEXIST: N_("it exists already"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EIO: N_("input/output error (is the device still plugged in?)"),
    errno.ENOTTY: N_("it is not a terminal or serial device"),
    errno.EBUSY: N_("the device is busy"),
}


def os_reason(err: BaseException) -> str:
    """Why an operation of the system failed, in the reader's words where we know them.

    >>> os_reason(PermissionError(errno.EACCES, "Permission denied"))
    'permission denied'
    """
    code = getattr(err, "errno", None)
    if code in _OS_REASONS:
        return translate(_OS_REASONS[code])
    strerror = getattr(err, "strerror", None)
    return strerror or str(err) or type(err).__name__


class ColourName(str):
    """A colour's translated name that can also agree with a count of tokens.

    In a template ``{colour}`` is the name; ``{colour:one}`` and ``{colour:many}`` are the
    form a colour takes after 1 and after 2 tokens in this language (from the plural entry
    ``"{n} red"`` of the catalog, without its number): Italian ``2 gettoni {colour:many}``
    reads "2 gettoni rossi".

    >>> from companion.engine.tokens import Colour
    >>> set_language("it")
    >>> "{c}, 2 gettoni {c:many}, 1 gettone {c:one}".format(c=localise(Colour.RED))
    'rosso, 2 gettoni rossi, 1 gettone rosso'
    >>> set_language("en")
    """

    key: str

    def __new__(cls, key: str) -> ColourName:
        made = super().__new__(cls, translate(key))
        made.key = key
        return made

    def __format__(self, spec: str) -> str:
        if spec in ("one", "many"):
            form = counted_colour(self.key, 1 if spec == "one" else 2)
            return " ".join(w for w in form.split() if w != "{n}")
        return format(str(self), spec)


class Later:
    """A message translated when it is read, not when it is made: a parameter of an error
    that may be shown after the language changed.

    >>> reason = Later("red")
    >>> set_language("it")
    >>> str(reason)
    'rosso'
    >>> set_language("en")
    """

    def __init__(self, message: str) -> None:
        self.message = message

    def __str__(self) -> str:
        return translate(self.message)


class Counted:
    """A count with its noun, said in the language of the moment it is read: a parameter of
    an error translated later (``{cards}`` -> "1 carta", "2 carte").

    >>> localise(Counted("{n} card", "{n} cards", 2))
    '2 cards'
    """

    def __init__(self, singular: str, plural: str, n: int) -> None:
        self.singular, self.plural, self.n = singular, plural, n

    def __str__(self) -> str:
        return ngettext(self.singular, self.plural, self.n).format(n=number(self.n))


class Listed(str):
    """Words joined by commas; a form asked in a template (``{colour:many}``) is asked of
    each word, so a list of colours agrees as one colour does.

    >>> from companion.engine.tokens import Colour
    >>> set_language("it")
    >>> "gettoni {c:many}".format(c=localise([Colour.RED, Colour.WHITE]))
    'gettoni rossi, bianchi'
    >>> set_language("en")
    """

    items: list[str]

    def __new__(cls, items: list[str]) -> Listed:
        made = super().__new__(cls, ", ".join(items))
        made.items = items
        return made

    def __format__(self, spec: str) -> str:
        if spec in ("one", "many"):
            return ", ".join(format(item, spec) for item in self.items)
        return format(str(self), spec)


def counted_colour(key: str, n: int) -> str:
    """``"{n} rossi"``: a count of tokens of one colour, the colour agreeing with it."""
    message = "{n} " + key
    return ngettext(message, message, n)


LONGEST_NUMBER = 30
"""The most digits a message shows of a whole number; a longer one is cut (see
:func:`short_number`)."""


def short_number(n: int) -> str:
    """A whole number as a message may show it: whole up to :data:`LONGEST_NUMBER` digits,
    else its first digits and an ellipsis. A record may hold a number of 4,300 digits
    (Python refuses to write one longer) and the engine may add one to it: no message
    writes it whole, nor fails on it.

    >>> short_number(-1234), short_number(7 * 10**5000)
    ('-1234', '700000000000000000000000000000…')
    """
    size = abs(n)
    if size < 10**LONGEST_NUMBER:
        return str(n)
    # The number of digits from the bits (at most one too many), then the first
    # LONGEST_NUMBER of them: no conversion of the whole number to text.
    digits = int(size.bit_length() * 0.30103) + 1
    if size < 10 ** (digits - 1):
        digits -= 1
    head = size // 10 ** (digits - LONGEST_NUMBER)
    return ("-" if n < 0 else "") + str(head) + "…"


@runtime_checkable
class Localisable(Protocol):
    """A value that says itself in the current language: the engine's colours and token
    counts (:mod:`companion.engine.tokens`), which this module, below the engine, does not
    import."""

    def localised(self) -> str: ...


def localise(value: Any) -> str:
    """A message parameter as text: a colour by its translated name, token counts with
    their colours agreeing (each :class:`Localisable` as it says itself), numbers as the
    reader writes them, lists joined."""
    if isinstance(value, Localisable):
        return value.localised()
    if isinstance(value, int) and not isinstance(value, bool):
        return short_number(value)
    if isinstance(value, list | tuple | set | frozenset):
        return Listed([localise(v) for v in value])
    if isinstance(value, float):
        return number(value, 1)
    if isinstance(value, Counted):
        return str(value)
    return str(value)
