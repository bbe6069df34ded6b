"""The mistakes a newcomer makes on the command line, each met with a line that says what is
wrong and what to type instead (issue 35): a mistyped command or data folder, a folder for
--out, the project's own exports given to replay, names merged as ``names`` shows them."""

from __future__ import annotations

import contextlib
import errno
import io
from pathlib import Path

import pytest
from helpers import alarm, run
from journal import store_games

from companion import i18n
from companion.cli import main
from companion.engine.simulate import simulate
from companion.journal.store import GameState, Store
from companion.records.record import Record, read, replay, write
from splendor_companion import program
from web.cli import serve_reason


def test_a_mistyped_command_is_told_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["gmaes"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.endswith(
        "error: there is no command gmaes: did you mean games?\n"
    )
    with pytest.raises(SystemExit):
        main(["--lang", "fr", "reveiw", "1"])
    assert "vouliez-vous dire review\u00a0?" in capsys.readouterr().err
    i18n.set_language("en")
    assert main(["help", "exprot"]) == 2
    assert capsys.readouterr().err == "there is no command exprot: did you mean export?\n"
    with pytest.raises(SystemExit):  # nothing near: the list
        main(["zzz"])
    assert "there is no command zzz; the commands: replay, simulate" in capsys.readouterr().err


def test_a_mistyped_action_choice_or_option_is_told_the_nearest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Inside a command too: its actions (club stauts, rfid enrol), an option's choices
    (--format jsn) and its options (--mrege), each with the nearest of that command's."""
    said = {
        ("club", "stauts"): "club: error: there is no command stauts: did you mean status?\n",
        ("rfid", "enrol"): "rfid: error: there is no command enrol: did you mean enroll?\n",
        ("export", "--format", "jsn", "1"): (
            "export: error: argument --format: jsn is not one of the choices: did you mean json?\n"
        ),
        ("names", "--mrege", "Ada", "Ben"): (
            "names: error: there is no option --mrege: did you mean --merge?\n"
        ),
        # an option of another command is not offered: games takes none of its own
        ("games", "--merge", "Ada"): "games: error: unrecognized arguments: --merge Ada\n",
    }
    for argv, end in said.items():
        with pytest.raises(SystemExit) as stop:
            program.main(list(argv))  # the whole program: rfid is the hardware's command
        assert stop.value.code == 2, argv
        assert capsys.readouterr().err.endswith(end), argv
    with pytest.raises(SystemExit):
        main(["--lang", "it", "names", "--unmrege", "Ada"])
    assert "non esiste l'opzione --unmrege: intendevi --unmerge?" in capsys.readouterr().err
    i18n.set_language("en")


def test_a_data_dir_that_does_not_exist_is_refused_unless_the_command_stores(
    tmp_path: Path,
) -> None:
    typo = tmp_path / "dtaa"
    for argv in (["games"], ["stats"], ["names"], ["export", "1"], ["review", "1"]):
        code, err = run(["--data-dir", str(typo), *argv])
        assert code == 2, argv
        assert err == (
            f"there is no folder {typo}: check --data-dir for a typo (a command that stores a "
            "game or a name, like import, makes a new one)\n"
        ), argv
        assert not typo.exists()  # not a new, empty store
    record = tmp_path / "game.json"
    record.write_text(write(Record.of(simulate(players=2, seed=4))), encoding="utf-8")
    code, err = run(["import", str(record), "--data-dir", str(typo / "games")])
    assert code == 0 and err == f"Made the data folder {typo / 'games'}.\n"
    assert (typo / "games" / "games.sqlite3").is_file()
    assert run(["games", "--data-dir", str(typo / "games")])[0] == 0  # there now: no word


def test_a_data_dir_that_is_a_file_is_told_so_with_the_folder_to_give(tmp_path: Path) -> None:
    journal = tmp_path / "data" / "games.sqlite3"
    store_games(tmp_path / "data", [3])
    code, err = run(["games", "--data-dir", str(journal)])
    assert code == 2
    assert err == (
        f"--data-dir {journal} is a file, not a folder: give the folder that holds it: "
        f"--data-dir {journal.parent}\n"
    )
    other = tmp_path / "notes.txt"
    other.write_text("x")
    record = tmp_path / "game.json"
    record.write_text(write(Record.of(simulate(players=2, seed=4))), encoding="utf-8")
    code, err = run(["import", str(record), "--data-dir", str(other)])
    assert code == 2
    assert err == (
        f"{record} was not imported: --data-dir {other} is a file, not a folder: give the "
        "folder that holds the games (games.sqlite3)\n"
    )


def test_export_out_given_a_folder_is_told_to_use_to(data: Path, tmp_path: Path) -> None:
    (game,) = store_games(data, [3])
    folder = tmp_path / "stick"
    folder.mkdir()
    code, err = run(["export", str(game), "--out", str(folder)])
    assert code == 2
    assert err == (
        f"--out takes a file, and {folder} is a folder: give --to {folder} to write the game "
        "into it (one file per format)\n"
    )
    assert list(folder.iterdir()) == []
    assert run(["export", str(game), "--to", str(folder)])[0] == 0


def test_replay_names_each_of_the_projects_own_exports(data: Path, tmp_path: Path) -> None:
    (game,) = store_games(data, [3])
    out = tmp_path / "out"
    assert run(["export", str(game), "--to", str(out)])[0] == 0
    said = {}
    for path in sorted(out.iterdir()):
        code, err = run(["replay", str(path)])
        said[path.name.split(".", 1)[1]] = (code, err)
    assert said["json"][0] == 0  # the record itself
    expected = {
        "csv": "it is the CSV export of a game (a table for spreadsheets)",
        "txt": "it is the text export of a game (for people to read)",
        "bgstats.json": "it is the BG Stats export of a game (a play for the BG Stats app)",
    }
    for kind, what in expected.items():
        code, err = said[kind]
        assert code == 2 and what in err, (kind, err)
        assert "the export's .json file" in err
    assert "without .bgstats" in said["bgstats.json"][1]
    # The same in the reader's language, and import says the same.
    code, err = run(["import", str(next(out.glob("*.txt"))), "--lang", "fr"])
    assert code == 2 and "c'est l'export texte d'une partie" in err


def test_names_unmerge_either_name_as_names_shows_it_and_merge_only_who_played(
    data: Path,
) -> None:
    store_games(data, [3])  # Ada and Ben
    # "ada" as a phone typed it, in a game with Cleo.
    text = write(Record.of(simulate(players=2, seed=9)))
    record = read(text.replace('"players": ["Ada", "Ben"]', '"players": ["ada", "Cleo"]'))
    with Store(data / "games.sqlite3") as store:
        store.import_record(record, GameState.of(replay(record).game))
    assert run(["names", "--merge", "ada", "Ada"]) == (0, "")
    assert run(["names"])[0] == 0
    # `names` lists "ada counts as Ada": unmerging Ada undoes it, as unmerging ada would.
    code, err = run(["names", "--unmerge", "Ada"])
    assert (code, err) == (0, "")
    with Store(data / "games.sqlite3") as store:
        assert store.aliases() == {}
    assert run(["names", "--unmerge", "Ada"]) == (
        2,
        "Ada is not merged with another name: nothing to undo\n",
    )
    # A name that never played: a typo, most likely; nothing merged.
    assert run(["names", "--merge", "Bne", "Ada"]) == (
        2,
        "Bne never played a stored game: did you mean Ben?\n",
    )
    assert run(["names", "--merge", "Zed", "Ada"]) == (
        2,
        "Zed never played a stored game: nothing to merge\n",
    )
    with Store(data / "games.sqlite3") as store:
        assert store.aliases() == {}


def test_serve_says_why_it_cannot_bind_in_the_readers_words() -> None:
    i18n.set_language("fr")
    said = serve_reason(OSError(errno.EADDRNOTAVAIL, "error while attempting to bind"))
    assert said.startswith("ce n'est pas une adresse de cette machine")
    assert "attempting" not in serve_reason(OSError(errno.EACCES, "error while attempting to bind"))


def test_a_data_folder_variable_naming_a_file_is_refused_by_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPLENDOR_DATA_DIR at a file (the journal itself, say): every command, serve too,
    says so in one line instead of reading it as a journal with no games."""
    journal = tmp_path / "games.sqlite3"
    journal.write_bytes(b"not a folder")
    monkeypatch.setenv("SPLENDOR_DATA_DIR", str(journal))
    for argv in (["games"], ["stats"], ["names"], ["serve", "--port", "8999"]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), alarm(30):  # the whole program: serve too
            code = program.main(argv)
        assert (code, err.getvalue()) == (
            2,
            f"SPLENDOR_DATA_DIR names {journal}, a file, not a folder: set it to the folder "
            "that holds the games (games.sqlite3)\n",
        ), argv
    assert journal.read_bytes() == b"not a folder"
