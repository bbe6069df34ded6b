"""Collect the translatable messages of the code and keep the catalogs in step.

    python tools/messages.py          # rewrite companion/locale/*.po: new messages added
                                      # with an empty translation, vanished ones dropped
    python tools/messages.py --check  # exit 1 listing what a catalog misses

A message is a string literal passed to ``_()`` or ``translate()``, or the template of an
error (the argument after the code or the path of ``IllegalMove``, ``_illegal``,
``RecordError``, ``_fail``), or a name in ``EXTRA`` (colour names).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "companion", ROOT / "ui", ROOT / "hardware"]
LOCALE = ROOT / "companion" / "locale"
LANGUAGES = ("it", "sv", "pt", "fr")
CALLS_FIRST = {"_", "tr", "translate", "StoreError", "_transaction"}
CALLS_SECOND = {
    *("IllegalMove", "_illegal", "RecordError", "_fail", "Refused"),
    *("HardwareError", "SerialPortError", "PinError", "TagMapError", "TagConflict"),
}
EXTRA = ["white", "blue", "green", "red", "black", "gold", "playing", "over", "stalled"]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def messages() -> list[str]:
    found: dict[str, None] = dict.fromkeys(EXTRA)
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = _name(node.func)
                index = 0 if name in CALLS_FIRST else 1 if name in CALLS_SECOND else None
                if index is None or len(node.args) <= index:
                    continue
                arg = node.args[index]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
                    found[arg.value] = None
    return list(found)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_po(language: str, wanted: list[str]) -> None:
    sys.path.insert(0, str(ROOT))
    from companion.i18n import parse_po

    path = LOCALE / f"{language}.po"
    known = parse_po(path.read_text(encoding="utf-8")) if path.exists() else {}
    lines = [
        f"# Splendor Companion: messages in {language}. Words from the rulebook of this language.",
        'msgid ""',
        'msgstr "Content-Type: text/plain; charset=UTF-8\\n"',
        "",
    ]
    for msgid in wanted:
        lines += [f"msgid {_quote(msgid)}", f"msgstr {_quote(known.get(msgid, ''))}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def missing(language: str, wanted: list[str]) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from companion.i18n import parse_po

    path = LOCALE / f"{language}.po"
    known = parse_po(path.read_text(encoding="utf-8")) if path.exists() else {}
    return [m for m in wanted if not known.get(m)]


def main(argv: list[str]) -> int:
    wanted = messages()
    if "--check" in argv:
        bad = 0
        for language in LANGUAGES:
            for msgid in missing(language, wanted):
                print(f"{language}: {msgid!r}")
                bad += 1
        return 1 if bad else 0
    LOCALE.mkdir(exist_ok=True)
    for language in LANGUAGES:
        write_po(language, wanted)
    print(f"{len(wanted)} messages in {len(LANGUAGES)} catalogs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
