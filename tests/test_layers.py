"""The parts stand in layers: the core imports nothing above it. Its command line runs
without the app, the devices, Kivy, pyserial or evdev ever imported; the program puts the
parts together (``splendor_companion``)."""

from __future__ import annotations

import json
import subprocess
import sys

ABOVE = (
    *("ui", "hardware", "web", "splendor_companion"),
    *("kivy", "serial", "gpiozero", "evdev", "aiohttp", "jinja2"),
)

SHOW = """
import json, sys
from companion.cli import main
code = main(sys.argv[1:])
above = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(%r)))
print(json.dumps({"code": code, "above": above}), file=sys.stderr)
"""


def imported_above(*args: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", SHOW % json.dumps(ABOVE), *args],
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
