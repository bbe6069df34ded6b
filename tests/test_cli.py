"""The command line as a newcomer uses it: options honoured or refused, seeds said, help with
defaults, options before or after the command, the exports' files and words."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import help_text

from companion.cli import main
from companion.engine.naming import noble_words
from companion.engine.simulate import simulate
from companion.journal.store import GameState, Store
from companion.records.record import Record, read, replay, write
from companion.records.timeline import timeline

ROOT = Path(__file__).resolve().parent.parent


def stored(data: Path, record: Record) -> int:
    game = read(write(record))
    with Store(data / "games.sqlite3") as store:
        return store.import_record(game, GameState.of(replay(game).game))


def test_export_one_game_to_a_folder_writes_files_there(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = stored(data, Record.of(simulate(players=2, seed=3)))
    usb = tmp_path / "usb"
    assert main(["export", str(game_id), "--to", str(usb)]) == 0
    out = capsys.readouterr().out
    assert "splendor-game-record" not in out  # nothing printed in place of the files
    names = sorted(p.name for p in usb.iterdir())
    assert sorted(n.split(".", 1)[1] for n in names) == ["bgstats.json", "csv", "json", "txt"]
    assert all(str(usb / n) in out for n in names)
    assert main(["export", str(game_id), "--to", str(tmp_path / "one"), "--format", "txt"]) == 0
    assert [p.suffix for p in (tmp_path / "one").iterdir()] == [".txt"]


def test_export_all_in_one_format_writes_only_that_format(data: Path, tmp_path: Path) -> None:
    for seed in (1, 2):
        stored(data, Record.of(simulate(players=2, seed=seed)))
    assert main(["export", "--all", "--format", "csv", "--to", str(tmp_path / "usb")]) == 0
    assert sorted(p.suffix for p in (tmp_path / "usb").iterdir()) == [".csv", ".csv"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["export", "1", "--all", "--to", "x"], "not both"),
        (["export", "--all", "--out", "x.json"], "--to FOLDER, not --out"),
        (["export", "1", "--out", "x.json", "--to", "x"], "not both"),
        (["export", "--all"], "needs --to"),
    ],
)
def test_export_options_that_do_not_apply_are_refused(
    data: Path,
    tmp_path: Path,
    args: list[str],
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored(data, Record.of(simulate(players=2, seed=3)))
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "x").exists() and not (tmp_path / "x.json").exists()


def test_simulate_without_a_seed_says_the_seed_that_plays_it_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seeds, texts = [], []
    for i in range(2):
        out = tmp_path / f"game{i}.json"
        assert main(["simulate", "--out", str(out)]) == 0
        said = capsys.readouterr().err
        found = re.search(r"Seed (\d+): a 2-player game of \d+ moves written to (\S+)\.", said)
        assert found, said
        assert found.group(2) == str(out)
        seeds.append(found.group(1))
        texts.append(out.read_text(encoding="utf-8"))
    assert seeds[0] != seeds[1] and texts[0] != texts[1]
    assert main(["simulate", "--seed", seeds[0]]) == 0
    again = capsys.readouterr()
    assert again.out == texts[0]
    assert "standard output" in again.err


def test_help_shows_the_defaults() -> None:
    help_text = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "", "SPLENDOR_LANG": "en"},
    ).stdout
    assert re.search(r"--players \{2,3,4\}\s+how many play \(default: 2\)", help_text)


def test_help_and_argparse_errors_in_the_language_asked_after_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    italian = help_text(["simulate", "--help", "--lang", "it"])
    assert italian.startswith("uso: ")
    assert "(predefinito: 2)" in italian
    with pytest.raises(SystemExit) as exit_:
        main(["export", "1", "--format", "xml", "--lang", "fr"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    # French spaces its colons (no break) and quotes with « »: argparse's words too.
    assert "erreur\u00a0: argument --format\u00a0: choix non valide\u00a0: «\u00a0xml\u00a0»" in err


def test_lang_after_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(write(Record.of(simulate(players=2, seed=3))), encoding="utf-8")
    assert main(["replay", str(path), "--lang", "sv"]) == 0
    assert "Spelare: Ada, Ben" in capsys.readouterr().out


def test_data_dir_beats_the_environment(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chosen = tmp_path / "chosen"
    path = tmp_path / "game.json"
    path.write_text(write(Record.of(simulate(players=2, seed=3))), encoding="utf-8")
    assert main(["import", str(path), "--data-dir", str(chosen)]) == 0
    assert (chosen / "games.sqlite3").exists()
    assert not data.exists()
    capsys.readouterr()
    assert main(["--data-dir", str(chosen), "games"]) == 0
    assert "Ada, Ben" in capsys.readouterr().out


def test_csv_file_opens_in_a_spreadsheet_with_its_names(data: Path, tmp_path: Path) -> None:
    game = simulate(players=2, seed=3)
    record = Record.of(game)
    record = Record(record.setup.__class__.of(["Åsa", "Zoë"], *_layout(record)), record.moves)
    game_id = stored(data, record)
    out = tmp_path / "game.csv"
    assert main(["export", str(game_id), "--format", "csv", "--out", str(out)]) == 0
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert "Åsa" in raw.decode("utf-8-sig")


def _layout(record: Record) -> tuple[list[str], list[list[str]]]:
    doc = json.loads(write(record))
    market = doc["setup"]["market"]
    return doc["setup"]["nobles"], [market[k] for k in ("1", "2", "3")]


def test_text_export_is_the_full_log_with_a_nobles_points_on_its_line(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = Record.of(simulate(players=2, seed=3))
    steps = timeline(record)
    visit = next(s for s in steps if s.noble is not None)
    assert main(["export", str(stored(data, record)), "--format", "txt"]) == 0
    text = capsys.readouterr().out
    lines = [line.strip() for line in text.splitlines()]
    prefix = f"Round {visit.round}, move {visit.number}:"
    buy, noble = (line for line in lines if line.startswith(prefix))
    before = visit.points_after - visit.noble.points  # type: ignore[union-attr]
    assert buy.endswith(f"{visit.player} has {before} points.") or buy.endswith(
        f"{visit.player} has {before} point."
    )
    # Nobles and cards in words, as people tell them apart; never their record ids.
    assert visit.noble is not None
    assert f"The noble {noble_words(visit.noble)} visits {visit.player}." in noble
    assert noble.endswith(f"{visit.player} has {visit.points_after} points.")
    ids = re.compile(r"\b([123][A-Z]\d+|N\d+)\b")  # 2W3, N5: the record's
    assert not ids.search(text), ids.search(text)
    assert " reserves a " in text and "Revealed: a " in text and " buys a " in text
    # Every move is told, takes included.
    assert sum(1 for line in lines if re.match(r"Round \d+, move \d+:", line)) == len(steps) + sum(
        1 for s in steps if s.noble
    )
    assert any(" takes " in line for line in lines)
    # A record written elsewhere has no times: none are made up from the import.
    assert "Started" not in text and "Ended" not in text
    assert "Final standings" in text


def test_text_export_of_an_unfinished_game(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Record.of(simulate(players=2, seed=3, max_moves=7))
    record.extra["started_at"] = "2026-11-21T20:15:00Z"
    assert main(["export", str(stored(data, record)), "--format", "txt"]) == 0
    text = capsys.readouterr().out
    assert "Final standings" not in text
    assert text.lower().count("the game is not over") == 1  # said once, not twice
    assert "Started 2026-11-21 " in text  # in local time (tests/test_cli_times.py)


def test_wrong_player_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(write(Record.of(simulate(players=2, seed=3, max_moves=0))))
    doc["moves"] = [{"player": 1, "action": "take", "gems": {"red": 1, "blue": 1, "green": 1}}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "it is Ada's turn, not Ben's" in capsys.readouterr().out


def test_a_broken_json_file_is_explained_in_the_readers_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"players": ["Ada" "Ben"]}', encoding="utf-8")
    assert main(["--lang", "it", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "manca una virgola" in err
    assert "Expecting" not in err


def test_games_header_in_the_language_and_numbers_of_the_reader(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stored(data, Record.of(simulate(players=3, seed=1)))
    assert main(["games", "--lang", "pt"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.split() == ["Partida", "Início", "Jogadores", "Vencedor", "Situação", "Jogadas"]
    assert main(["stats", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"en moyenne \d+,\d point", out), out


def test_a_broken_json_reason_follows_the_language_it_is_read_in() -> None:
    from companion import i18n
    from companion.errors import RecordError

    with pytest.raises(RecordError) as broken:
        read('{"players": ["Ada" "Ben"]}')
    assert "a comma is missing" in broken.value.message
    i18n.set_language("pt")
    assert "falta uma vírgula" in broken.value.message
