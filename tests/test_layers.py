"""The parts stand in layers (docs/architecture.md): the core imports nothing above it. Its
command line runs without the app, the devices, Kivy, pyserial or evdev ever imported; the
program puts the parts together (``splendor_companion``). Inside the core, each module
imports only its own package and the layers below it: read from the source with ``ast``,
every import counts, those inside a function (a late import) and those for the type
checker alike."""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ai import players
from companion.journal import seats

ABOVE = (
    *("ui", "hardware", "web", "splendor_companion"),
    *("kivy", "serial", "gpiozero", "evdev", "aiohttp", "jinja2"),
)
# A kiosk without a club never imports the club's client libraries (companion/club/link.py
# imports them when a club is used).
CLUB_PARTS = ("psycopg", "openskill")

SHOW = """
import json, sys
from companion.cli import main
code = main(sys.argv[1:])
above = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(%r)))
print(json.dumps({"code": code, "above": above}), file=sys.stderr)
"""


def imported_above(*args: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", SHOW % json.dumps(ABOVE + CLUB_PARTS), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    last = result.stderr.strip().splitlines()[-1]
    return dict(json.loads(last))


def test_the_core_command_line_imports_nothing_above_the_core() -> None:
    ran = imported_above("simulate", "--seed", "3", "--out", "/dev/null")
    assert ran == {"code": 0, "above": []}


def test_the_core_alone_has_no_app_and_says_what_it_can_do() -> None:
    ran = imported_above()
    assert ran["code"] == 2 and ran["above"] == []


def test_the_program_has_the_app_and_the_rfid_commands() -> None:
    from splendor_companion.program import build_parser

    parser = build_parser()
    assert parser.parse_args(["--demo", "4"]).demo == 4
    assert parser.parse_args(["rfid", "monitor"]).rfid_command == "monitor"


def test_the_program_has_the_web_page_and_it_needs_no_kivy() -> None:
    from splendor_companion.program import build_parser

    args = build_parser().parse_args(["serve", "--port", "8081"])
    assert (args.host, args.port) == ("0.0.0.0", 8081)
    shown = subprocess.run(
        [sys.executable, "-c", "import sys, web.server, web.address; print('kivy' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert shown.stdout.strip() == "False"


ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"

# Lowest first. A module belongs to the longest prefix that names it; modules of one layer
# but another package (the search and the records) do not import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "companion.errors",
        "companion.i18n",
        "companion.text",
        "companion.paths",
        "companion.files",
        "companion.arguments",
        "companion.version",
        "companion.figures",
        "companion.interrupt",
        "companion.scratch",
    ),
    ("companion.engine",),
    ("companion.ai", "companion.records"),
    ("companion.journal",),
    ("companion.coach",),
    ("companion.reports",),
    ("companion.club",),
    (
        "companion",  # the package itself: its public API, gathered from below
        "companion.__main__",
        "companion.cli",
        "companion.bench",
        "companion.demo",
        "companion.doctor",
    ),
)


def unit(module: str) -> tuple[int, str]:
    """The layer of ``module`` and the package it counts as (the bottom modules are one)."""
    best: tuple[int, str] | None = None
    for layer, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and (
                best is None or len(name) > len(best[1])
            ):
                best = (layer, name)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS and the docs")
    layer, name = best
    # The bottom modules are one package, and so are the top's (the commands).
    return layer, "bottom" if layer == 0 else "top" if layer == len(LAYERS) - 1 else name


def module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def _imports(source: str) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """The import statements of a module's text: parsed once for all the tests (each
    mutation test copies the package, and all but one file are the same)."""
    return tuple(
        n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import | ast.ImportFrom)
    )


def imported(path: Path, package: Path) -> list[tuple[int, str]]:
    """Each module ``path`` imports (line, absolute name); ``from X import y`` names
    ``X.y`` when that is a module, else ``X``."""
    name = module_name(path, package)
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in _imports(path.read_text(encoding="utf-8")):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                base = ".".join([*parts, *([base] if base else [])])
            for alias in node.names:
                sub = package.parent / Path(*f"{base}.{alias.name}".split("."))
                whole = sub.with_suffix(".py").is_file() or (sub / "__init__.py").is_file()
                found.append((node.lineno, f"{base}.{alias.name}" if whole else base))
    return list(dict.fromkeys(found))  # a name imported twice on a line is said once


def violations(package: Path) -> list[str]:
    """Every import of ``package`` (a ``companion`` folder) that goes up or sideways."""
    wrong = []
    for path in sorted(package.rglob("*.py")):
        name = module_name(path, package)
        layer, own = unit(name)
        where = path.relative_to(package.parent)
        for line, target in imported(path, package):
            top = target.partition(".")[0]
            if top in ABOVE:
                wrong.append(f"{where}:{line}: imports {target}, which the core never does")
            elif top == package.name:
                their_layer, theirs = unit(target)
                if theirs != own and their_layer >= layer:
                    wrong.append(f"{where}:{line}: {name} imports {target}, not below it")
    return wrong


def test_each_module_of_the_core_imports_only_the_layers_below_it() -> None:
    assert violations(PACKAGE) == []


@pytest.mark.parametrize(
    ("module", "line", "said"),
    [
        ("journal/store.py", "from ..coach.review import VERSION", "not below it"),
        ("ai/words.py", "from ..records.movelog import tell", "not below it"),
        ("records/record.py", "from ..ai.players import LEVELS", "not below it"),
        ("engine/game.py", "    import companion.journal.store", "not below it"),
        ("errors.py", "from .engine.tokens import Colour", "not below it"),
        ("engine/moves.py", "from companion import Game", "not below it"),
        ("reports/stats.py", "import kivy.app", "never does"),
        ("cli.py", "from hardware import cli", "never does"),
    ],
)
def test_an_import_that_goes_up_is_found(tmp_path: Path, module: str, line: str, said: str) -> None:
    """The check itself: a copy of the package with one import added that breaks a layer."""
    copy = tmp_path / "companion"
    copy.mkdir()
    for path in PACKAGE.rglob("*.py"):
        (copy / path.relative_to(PACKAGE)).parent.mkdir(parents=True, exist_ok=True)
        (copy / path.relative_to(PACKAGE)).write_bytes(path.read_bytes())
    target = copy / module
    indented = line.startswith(" ")
    extra = f"\n\ndef _late() -> None:\n{line}\n" if indented else f"\n{line}\n"
    target.write_text(target.read_text(encoding="utf-8") + extra, encoding="utf-8")
    found = violations(copy)
    assert len(found) == 1 and found[0].startswith(f"companion/{module}:"), found
    assert said in found[0]


def test_the_search_plays_every_level_a_seat_can_be_given() -> None:
    """The level names are kept low (the journal reads them without the search), the
    players beside the search: the two lists are the same, in the same order."""
    assert tuple(players.LEVELS) == seats.LEVELS
    for level, kind in players.LEVELS.items():
        assert players.make(level).level == level
        assert isinstance(players.make(level), kind)


def test_no_test_module_imports_another(tests: Path = Path(__file__).parent) -> None:
    """No test module imports another (a shared helper lives in a module not named
    ``test_*``, or in a conftest fixture): a test file can be moved, renamed or deleted
    without breaking a neighbour's collection."""
    ours = {path.stem for path in tests.rglob("test_*.py")}
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names if not node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if any(n.split(".")[-1] in ours for n in names):
                found.append(f"{path.relative_to(tests)}:{node.lineno}")
    assert found == []
