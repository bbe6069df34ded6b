"""Collect the translatable messages of the code and keep the catalogs in step.

    python tools/messages.py          # rewrite companion/locale/*.po: new messages added
                                      # with an empty translation, vanished ones dropped
    python tools/messages.py --check  # exit 1 listing what a catalog misses

A message is a string literal passed to ``_()`` or ``translate()``, or the template of an
error (the argument after the code or the path of ``IllegalMove``, ``_illegal``,
``RecordError``, ``_fail``), or a name in ``EXTRA`` (colour names). A message with a count
is the two literals of ``ngettext("{n} game", "{n} games", n)`` (or of ``Counted``): it
becomes a plural entry (``msgid``/``msgid_plural``/``msgstr[N]``) with as many forms as the
catalog's
``Plural-Forms`` header says, which this tool keeps as it finds it.

The languages are the catalogs in ``companion/locale``: a new language is a new
``<code>.po`` file whose header names its ``Plural-Forms``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# A plain message, or a plural one as (English singular, English plural).
Message = str | tuple[str, str]

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "companion", ROOT / "ui", ROOT / "hardware", ROOT / "web"]
LOCALE = ROOT / "companion" / "locale"
CALLS_FIRST = {"_", "N_", "tr", "translate", "StoreError", "ClubError", "_transaction"}
CALLS_SECOND = {
    *("IllegalMove", "_illegal", "RecordError", "FileUnread", "_fail", "Refused", "TextError"),
    *("HardwareError", "SerialPortError", "PinError", "TagMapError", "TagConflict"),
}
CALLS_PLURAL = {"ngettext", "Counted"}
# Game states, shown by their name (the colours are added from the core's list).
EXTRA: list[Message] = ["playing", "over", "stalled"]


def reader_tags() -> list[Message]:
    """What each kind of RFID reader reads, shown in ``rfid --help`` (the kinds' list is
    pure standard library: it cannot mark its texts itself)."""
    sys.path.insert(0, str(ROOT))
    from hardware.readers import READERS

    return [r.tags for r in READERS.values()]


def colours() -> list[Message]:
    """Each colour's name, and its plural entry for a count of its tokens (``"{n} red"``)."""
    sys.path.insert(0, str(ROOT))
    from companion.engine.tokens import Colour

    names: list[Message] = [c.key for c in Colour]
    return names + [("{n} " + c.key, "{n} " + c.key) for c in Colour]


GENERATED: list[Callable[[], list[Message]]] = [colours, reader_tags]
"""Messages made from the code's own lists (not literals in a call), collected first."""


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _i18n() -> Any:
    sys.path.insert(0, str(ROOT))
    from companion import i18n

    return i18n


def languages() -> list[str]:
    """Every catalog's language (English, the source, has none)."""
    return sorted(path.stem for path in LOCALE.glob("*.po"))


def _literal(arg: ast.expr) -> str | None:
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
        return arg.value
    return None


def messages() -> list[Message]:
    """Every message in code order: a plain one is its text, a plural one a pair."""
    found: dict[Message, None] = dict.fromkeys([m for made in GENERATED for m in made()] + EXTRA)
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = _name(node.func)
                if name in CALLS_PLURAL and len(node.args) >= 2:
                    one, many = _literal(node.args[0]), _literal(node.args[1])
                    if one and many:
                        found[(one, many)] = None
                    continue
                index = 0 if name in CALLS_FIRST else 1 if name in CALLS_SECOND else None
                if index is None or len(node.args) <= index:
                    continue
                text = _literal(node.args[index])
                if text:
                    found[text] = None
    # The web page's Jinja2 templates (a ``templates`` folder of a source): their
    # ``_("...")`` and ``ngettext("...", "...", n)``.
    templates = [path for folder in SOURCES for path in sorted(folder.rglob("templates/*.html"))]
    for path in templates:
        text = path.read_text(encoding="utf-8")
        for match in _TEMPLATE_CALL.finditer(text):
            one, many = (ast.literal_eval(m) if m else None for m in match.group(2, 3))
            if match.group(1) == "ngettext" and one and many:
                found[(one, many)] = None
            elif match.group(1) == "_" and one:
                found[one] = None
    return list(found)


# ``_("...")`` or ``ngettext("...", "...", n)`` in a template, double-quoted literals.
_STRING = r'"(?:[^"\\]|\\.)*"'
_TEMPLATE_CALL = re.compile(rf"\b(_|ngettext)\(\s*({_STRING})(?:\s*,\s*({_STRING}))?", re.DOTALL)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _read(language: str) -> Any:
    path = LOCALE / f"{language}.po"
    return _i18n().read_po(path.read_text(encoding="utf-8") if path.exists() else "")


def write_po(language: str, wanted: list[Message]) -> None:
    known = _read(language)
    # The header as the catalog has it (its plural rule, its language's own name).
    fields = {"Content-Type": "text/plain; charset=UTF-8", "Plural-Forms": known.plural_forms}
    for line in known.header.split("\n"):
        key, _, value = line.partition(":")
        if key.strip() and value.strip():
            fields.setdefault(key.strip(), value.strip())
    header = "".join(f"{key}: {value}\n" for key, value in fields.items())
    lines = [
        f"# Splendor Companion: messages in {language}. Words from the rulebook of this language.",
        'msgid ""',
        f"msgstr {_quote(header)}",
        "",
    ]
    for message in wanted:
        if isinstance(message, str):
            translated = known.messages.get(message, "")
            lines += [f"msgid {_quote(message)}", f"msgstr {_quote(translated)}", ""]
            continue
        one, many = message
        forms = known.plurals.get(one, ("", ()))[1]
        lines += [f"msgid {_quote(one)}", f"msgid_plural {_quote(many)}"]
        for i in range(known.nplurals):
            lines.append(f"msgstr[{i}] {_quote(forms[i] if i < len(forms) else '')}")
        lines.append("")
    (LOCALE / f"{language}.po").write_text("\n".join(lines), encoding="utf-8")


def missing(language: str, wanted: list[Message]) -> list[str]:
    """The messages ``language``'s catalog does not translate (a plural: every form)."""
    known = _read(language)
    out: list[str] = []
    for message in wanted:
        if isinstance(message, str):
            if not known.messages.get(message):
                out.append(message)
        else:
            forms = known.plurals.get(message[0], ("", ()))[1]
            if len(forms) < known.nplurals or not all(forms[: known.nplurals]):
                out.append(message[0])
    return out


def main(argv: list[str]) -> int:
    wanted = messages()
    if "--check" in argv:
        bad = 0
        for language in languages():
            for msgid in missing(language, wanted):
                print(f"{language}: {msgid!r}")
                bad += 1
        return 1 if bad else 0
    LOCALE.mkdir(exist_ok=True)
    for language in languages():
        write_po(language, wanted)
    print(f"{len(wanted)} messages in {len(languages())} catalogs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
