"""Messages with a count: gettext plural entries read, collected and merged."""

from pathlib import Path

import pytest
from helpers import tool

from companion import i18n

ROOT = Path(__file__).resolve().parent.parent
FR = """msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "{n} game"
msgid_plural "{n} games"
msgstr[0] "{n} partie"
msgstr[1] "{n} parties"
"""


def test_french_zero_takes_the_singular_and_english_the_plural() -> None:
    cat = i18n.read_po(FR)
    forms = cat.plurals["{n} game"][1]
    assert [forms[cat.plural_index(n)].format(n=n) for n in (0, 1, 2)] == [
        "0 partie",
        "1 partie",
        "2 parties",
    ]
    assert i18n.ngettext("{n} game", "{n} games", 0) == "{n} games"


def test_every_catalog_names_its_plural_rule() -> None:
    for language in i18n.LANGUAGES[1:]:
        path = ROOT / "companion" / "locale" / f"{language}.po"
        assert "Plural-Forms:" in path.read_text(encoding="utf-8"), language


def test_the_tool_collects_ngettext_and_writes_every_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages = tool("messages")
    source = tmp_path / "src"
    source.mkdir()
    (source / "m.py").write_text('ngettext("{n} noble", "{n} nobles", n)\n_("red")\n')
    locale = tmp_path / "locale"
    locale.mkdir()
    (locale / "fr.po").write_text(FR, encoding="utf-8")
    monkeypatch.setattr(messages, "SOURCES", [source])
    monkeypatch.setattr(messages, "LOCALE", locale)
    monkeypatch.setattr(messages, "EXTRA", [])
    monkeypatch.setattr(messages, "GENERATED", [])
    assert messages.messages() == [("{n} noble", "{n} nobles"), "red"]
    assert messages.main([]) == 0
    written = (locale / "fr.po").read_text(encoding="utf-8")
    assert 'msgid_plural "{n} nobles"\nmsgstr[0] ""\nmsgstr[1] ""' in written
    assert "plural=(n > 1)" in written
    assert messages.missing("fr", messages.messages()) == ["{n} noble", "red"]


def test_branches_adding_plural_messages_merge() -> None:
    po_merge = tool("po_merge")
    ours = FR + '\nmsgid "{n} point"\nmsgid_plural "{n} points"\nmsgstr[0] "{n} point"\n'
    theirs = FR.replace('"{n} parties"', '"{n} parties !"')
    merged, conflict = po_merge.merge(FR, ours, theirs)
    assert not conflict
    cat = i18n.read_po(merged)
    assert cat.plurals["{n} game"][1] == ("{n} partie", "{n} parties !")
    assert "{n} point" in cat.plurals
