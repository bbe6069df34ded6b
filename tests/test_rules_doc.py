"""docs/rules.md defines every rule clause; the tests are named after them, none is left out."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLAUSE = re.compile(r"^- \*\*([A-Z][0-9]+)\*\* ", re.MULTILINE)
TEST_NAME = re.compile(r"def (test_([A-Z][0-9]+)_\w+)")


def clauses() -> list[str]:
    return CLAUSE.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))


def named_tests() -> dict[str, list[str]]:
    named: dict[str, list[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        for name, clause in TEST_NAME.findall(path.read_text(encoding="utf-8")):
            named.setdefault(clause, []).append(f"{path.name}::{name}")
    return named


def test_every_clause_is_defined_once() -> None:
    ids = clauses()
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    # The families of the rulebook: components, setup, actions, turn end, nobles, end, hidden.
    assert {i[0] for i in ids} == set("CSATNEH")


def test_every_clause_has_a_test_named_after_it() -> None:
    named = named_tests()
    untested = [c for c in clauses() if c not in named]
    assert not untested, f"clauses of docs/rules.md with no test_<id>_...: {untested}"


def test_every_test_named_after_a_clause_names_a_defined_one() -> None:
    unknown = {c: tests for c, tests in named_tests().items() if c not in clauses()}
    assert not unknown, f"tests named after clauses docs/rules.md does not define: {unknown}"


def test_every_error_code_is_documented_once() -> None:
    """Programs rely on the codes: each member of ErrorCode and DeviceCode is a row of
    docs/game-record.md's tables, and no row names a code that does not exist."""
    from companion.errors import ErrorCode
    from hardware.exc import DeviceCode

    text = (ROOT / "docs" / "game-record.md").read_text(encoding="utf-8")
    text = text[text.index("## Error codes") :]
    rows = re.findall(r"^\| `([a-z-]+)` \|", text, re.MULTILINE)
    codes = [c.value for c in ErrorCode] + [c.value for c in DeviceCode]
    assert sorted(rows) == sorted(codes)
