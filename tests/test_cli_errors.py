"""Errors that pointed the wrong way: each now names what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.simulate import simulate
from companion.records.record import Record, write
from splendor_companion.program import main
from tests.journal import stored

ROOT = Path(__file__).resolve().parent.parent
Capture = pytest.CaptureFixture[str]


@pytest.mark.parametrize("command", ["import", "replay"])
def test_a_missing_file_is_said_missing(
    data: Path, tmp_path: Path, command: str, capsys: Capture
) -> None:
    missing = tmp_path / "nope.json"
    assert main([command, str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"{missing} does not exist" in err
    assert "not a valid game record" not in err


def test_a_card_id_of_the_right_shape_says_how_far_its_colour_goes(
    tmp_path: Path, capsys: Capture
) -> None:
    text = write(Record.of(simulate(players=2, seed=1))).replace('"1W8"', '"1U9"', 1)
    assert '"1U9"' in text
    path = tmp_path / "g.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "level 1 has 8 cards of its colour, 1U1 to 1U8" in capsys.readouterr().err


def test_the_csv_export_given_to_import_is_named_for_what_it_is(
    data: Path, tmp_path: Path, capsys: Capture
) -> None:
    game = stored(data, Record.of(simulate(players=2, seed=1)))
    csv = tmp_path / "g.csv"
    assert main(["export", str(game), "--format", "csv", "--out", str(csv)]) == 0
    capsys.readouterr()
    assert main(["import", str(csv)]) == 2
    err = capsys.readouterr().err
    assert "CSV export" in err and ".json" in err
    assert "byte-order mark" not in err


def test_a_json_record_saved_with_a_byte_order_mark_is_imported(
    data: Path, tmp_path: Path, capsys: Capture
) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(b"\xef\xbb\xbf" + write(Record.of(simulate(players=2, seed=1))).encode())
    assert main(["import", str(path)]) == 0
    assert "Imported as game" in capsys.readouterr().out


@pytest.mark.parametrize("exists", [True, False])
def test_export_to_a_file_name_says_to_takes_a_folder(
    data: Path, tmp_path: Path, exists: bool, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    game = stored(data, Record.of(simulate(players=2, seed=1)))
    monkeypatch.chdir(tmp_path)
    if exists:
        (tmp_path / "g3.csv").write_text("mine", encoding="utf-8")
    assert main(["export", str(game), "--to", "g3.csv"]) == 2
    err = capsys.readouterr().err
    assert "--to takes a folder" in err and "--out g3.csv" in err
    assert "exists already" not in err
    if exists:
        assert (tmp_path / "g3.csv").read_text(encoding="utf-8") == "mine"
    else:
        assert not (tmp_path / "g3.csv").exists()
