"""The commands listed in README.md and docs/commands.md are the parser's: written by
tools/commands_doc.py, and this test fails when the docs drift from the parser."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from helpers import tool

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_and_the_commands_page_list_what_the_parser_has() -> None:
    docs = tool("commands_doc")
    assert docs.stale() == [], "run .venv/bin/python tools/commands_doc.py"
    parser = docs.parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for file in docs.FILES:
        text = (ROOT / file).read_text(encoding="utf-8")
        listed = text[text.index(docs.BEGIN) : text.index(docs.END)]
        for name in sub.choices:
            assert f"splendor-companion {name}" in listed, (file, name)
    reference = (ROOT / "docs/commands.md").read_text(encoding="utf-8")
    assert (
        "splendor-companion doctor" in reference
        and "[--format {json,csv,txt,bgstats}]" in reference
    )


def test_a_command_the_docs_miss_or_an_option_renamed_is_found(tmp_path: Path) -> None:
    docs = tool("commands_doc")
    for file in docs.FILES:
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / file, tmp_path / file)
    assert docs.stale(tmp_path) == []
    readme = tmp_path / "README.md"
    readme.write_text(readme.read_text().replace("splendor-companion doctor ", "x "))
    page = tmp_path / "docs/commands.md"
    page.write_text(page.read_text().replace("[--playouts PLAYOUTS]", "[--budget N]"))
    assert docs.stale(tmp_path) == ["README.md", "docs/commands.md"]
