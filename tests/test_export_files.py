"""Files the companion writes never follow a link, and export names always fit.

A link named like an export file and pointing at the journal (or at settings.ini) must be
refused, not written through; so must a folder, a pipe or a device at the name. Every
other file is written all the same, and ``export --all`` says each refusal on a line and
ends with exit 2. Names from strangers are cut to fit in 255 bytes. All on real files,
links and pipes in a temporary folder.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

import pytest
from helpers import alarm, run
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from journal import raw_game, store_games

from companion.cli import main
from companion.engine.simulate import simulate
from companion.errors import StoreError
from companion.files import MAX_NAME_BYTES, NotAFile, write_atomic
from companion.journal.store import Store
from companion.records.record import Record, write
from companion.reports.export import FORMAT, FORMATS, file_stem
from hardware.exc import TagMapError
from hardware.tagmap import TagMap
from ui import stick
from ui.settings import write_settings

SUFFIXES = [FORMAT[f].suffix for f in FORMATS]


def names_of(data: Path) -> dict[int, str]:
    """Each finished game's file stem, as the export names it."""
    with Store(data / "games.sqlite3", reader=True) as store:
        return {g.id: file_stem(g) for g in store.games() if g.finished}


@pytest.fixture
def usb(tmp_path: Path) -> Path:
    """An empty folder to export to: the USB stick's."""
    folder = tmp_path / "usb"
    folder.mkdir()
    return folder


def one_game(data: Path) -> tuple[int, str]:
    """One finished game in the journal: its id and its files' stem."""
    (game,) = store_games(data, [3])
    return game, names_of(data)[game]


def refusal(path: Path, what: str = "a link") -> str:
    return (
        f"cannot write {path}: it is {what}, not a file: "
        + ("move it away" if what == "a folder" else "remove it")
        + " or export to another folder. Nothing was written there."
    )


# ------------------------------------------------------------ a link where an export goes


def test_export_all_leaves_a_link_to_the_journal_alone_and_goes_on(
    data: Path, usb: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, third = store_games(data, [1, 2, 5])
    journal = data / "games.sqlite3"
    settings_ini = data / "settings.ini"
    settings_ini.write_text("[companion]\nlanguage = fr\n")
    before = journal.read_bytes()
    stems = names_of(data)
    (usb / f"{stems[first]}.csv").symlink_to(journal)
    (usb / f"{stems[second]}.txt").symlink_to(settings_ini)

    assert main(["export", "--all", "--to", str(usb)]) == 2
    out, err = capsys.readouterr()
    assert "1 finished game exported: 10 files" in out
    assert sorted(err.splitlines()) == sorted(
        [refusal(usb / f"{stems[first]}.csv"), refusal(usb / f"{stems[second]}.txt")]
    )
    assert journal.read_bytes() == before
    assert settings_ini.read_text() == "[companion]\nlanguage = fr\n"
    # Every other file of every game is there; the links are left as they were.
    regular = sorted(p.name for p in usb.iterdir() if not p.is_symlink())
    assert len(regular) == 10 and all(p.startswith(tuple(stems.values())) for p in regular)
    assert (usb / f"{stems[first]}.csv").readlink() == journal
    assert main(["games"]) == 0
    listed = capsys.readouterr().out
    assert "No games yet" not in listed and len(listed.strip().splitlines()) == 4
    assert third in stems


def test_a_folder_a_pipe_or_a_link_to_a_folder_at_a_name_is_refused_never_opened(
    data: Path, usb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _game, stem = one_game(data)
    (usb / f"{stem}.json").mkdir()
    os.mkfifo(usb / f"{stem}.csv")  # no reader: a write through it would wait for ever
    (tmp_path / "elsewhere").mkdir()
    (usb / f"{stem}.txt").symlink_to(tmp_path / "elsewhere")
    with alarm(30):
        assert main(["export", "--all", "--to", str(usb)]) == 2
    out, err = capsys.readouterr()
    assert "0 finished games exported: 1 file" in out
    assert sorted(err.splitlines()) == sorted(
        [
            refusal(usb / f"{stem}.json", "a folder"),
            refusal(usb / f"{stem}.csv", "a device, a pipe or a socket"),
            refusal(usb / f"{stem}.txt"),
        ]
    )
    assert stat.S_ISFIFO(os.lstat(usb / f"{stem}.csv").st_mode)
    assert list((tmp_path / "elsewhere").iterdir()) == []
    assert (usb / f"{stem}.bgstats.json").is_file()


def test_one_game_to_a_folder_writes_its_other_formats_and_says_the_refused_one(
    data: Path, usb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, stem = one_game(data)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (usb / f"{stem}.txt").symlink_to(victim)
    assert main(["export", str(game), "--to", str(usb)]) == 2
    out, err = capsys.readouterr()
    assert out.count("Written: ") == 3
    assert err == refusal(usb / f"{stem}.txt") + "\n"
    assert victim.read_text() == "mine"


def test_simulate_out_refuses_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    victim = tmp_path / "games.sqlite3"
    victim.write_bytes(b"journal")
    link = tmp_path / "game.json"
    link.symlink_to(victim)
    assert main(["simulate", "--seed", "3", "--out", str(link)]) == 2
    assert capsys.readouterr().err == (
        f"Cannot write {link}: it is a link, not a file: remove it or give another file\n"
    )
    assert victim.read_bytes() == b"journal"


# ------------------------------------------------------- names longer than a file name


def long_names_game(tmp_path: Path, first: int) -> Path:
    """A 4-player record whose names are 40 letters of 4 bytes each (CJK extension B): the
    name check takes them, and together they are longer than a file name may be."""
    doc = json.loads(write(Record.of(simulate(players=4, seed=3))))
    doc["players"] = ["".join(chr(first + 40 * seat + i) for i in range(40)) for seat in range(4)]
    doc["started_at"] = "2026-11-21T20:15:00Z"
    path = tmp_path / f"long-{first:x}.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def test_names_longer_than_a_file_name_are_cut_and_every_game_exported(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for first in (0x20000, 0x20400):
        assert main(["import", str(long_names_game(tmp_path, first))]) == 0
    store_games(data, [1])
    capsys.readouterr()
    usb = tmp_path / "usb"
    assert main(["export", "--all", "--to", str(usb)]) == 0
    assert "3 finished games exported: 12 files" in capsys.readouterr().out
    names = sorted(p.name for p in usb.iterdir())
    assert len(names) == 12
    long = [n for n in names if n.startswith("2026-11-21_2015_")]
    assert len(long) == 8
    for name in long:
        assert len(name.encode()) <= MAX_NAME_BYTES
        found = re.fullmatch(r"2026-11-21_2015_([\w-]+)_g([12])\.(.+)", name)
        assert found and found.group(3) in SUFFIXES, name
        assert found.group(1).startswith(chr(0x20000 if found.group(2) == "1" else 0x20400))
    # The same stem for a game's four files; the cut names longer than any that fits.
    stems = {n.split(".", 1)[0] for n in long}
    assert len(stems) == 2
    assert all(len(s.encode()) > 200 for s in stems)


def test_a_stem_keeps_the_date_and_number_whole_and_fits_with_any_ending() -> None:
    from companion.journal.store import GameInfo

    for players in (["😀" * 40] * 4, [chr(0x20000) * 40] * 4, ["é" * 40] * 4, ["x" * 500] * 2):
        info = GameInfo(10**12, "2026-11-21T20:15:00Z", "", None, tuple(players), "over", (), 0)
        stem = file_stem(info)
        assert stem.startswith("2026-11-21_2015_") and stem.endswith(f"_g{10**12}")
        for suffix in [*SUFFIXES, "png"]:
            assert len(f"{stem}.{suffix}".encode()) <= MAX_NAME_BYTES
    # A name that fits is not cut: the names of earlier exports stay what they were.
    info = GameInfo(7, "2026-11-21T20:15:00Z", "", None, ("Ada", "Ben"), "over", (), 0)
    assert file_stem(info) == "2026-11-21_2015_Ada-Ben_g7"


# ------------------------------------------------------------------ other files written


def test_the_rfid_tags_file_refuses_a_link(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite3"
    journal.write_bytes(b"journal")
    path = tmp_path / "rfid-tags.json"
    path.symlink_to(journal)
    with pytest.raises(TagMapError) as refused:
        TagMap(path).assign("04A32B1C", "1W1")
    assert str(refused.value) == (
        f"cannot write {path}: it is a link, not a file: remove it or choose another data folder"
    )
    assert journal.read_bytes() == b"journal"


def test_settings_are_written_atomically_and_never_through_a_link(tmp_path: Path) -> None:
    config: Any = configparser.RawConfigParser()
    config.add_section("companion")
    config.set("companion", "language", "it")
    config.filename = str(tmp_path / "settings.ini")
    write_settings(config)
    assert (tmp_path / "settings.ini").read_text() == "[companion]\nlanguage = it\n\n"
    journal = tmp_path / "games.sqlite3"
    journal.write_bytes(b"journal")
    (tmp_path / "settings.ini").unlink()
    (tmp_path / "settings.ini").symlink_to(journal)
    with pytest.raises(NotAFile):
        write_settings(config)
    assert journal.read_bytes() == b"journal"


def test_the_request_to_the_kiosks_helper_refuses_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "settings.ini"
    victim.write_text("[companion]\n")
    (tmp_path / stick.REQUEST).symlink_to(victim)
    with pytest.raises(NotAFile):
        stick.ask(tmp_path)
    assert victim.read_text() == "[companion]\n"


@pytest.mark.parametrize("name", ["games.sqlite3", "games.sqlite3-wal", "games.sqlite3.lock"])
def test_the_journal_and_its_files_are_never_opened_through_a_link(
    tmp_path: Path, name: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    victim = tmp_path / "settings.ini"
    victim.write_text("[companion]\n")
    (data / name).symlink_to(victim)
    (data / "games.sqlite3-shm").symlink_to(tmp_path / "created-through-a-link")
    with pytest.raises(StoreError) as refused:
        Store(data / "games.sqlite3")
    assert "it is a link, not a file: remove it or choose another data folder" in str(refused.value)
    assert victim.read_text() == "[companion]\n"
    assert not (tmp_path / "created-through-a-link").exists()


def test_the_lock_file_is_never_opened_through_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "settings.ini"
    victim.write_text("[companion]\n")
    (tmp_path / "games.sqlite3.lock").symlink_to(victim)
    with pytest.raises(StoreError):
        Store(tmp_path / "games.sqlite3")
    assert victim.read_text() == "[companion]\n"


def test_write_atomic_keeps_no_temporary_file_and_fits_its_name(tmp_path: Path) -> None:
    name = "é" * 127 + ".x"  # 256 bytes: too long
    with pytest.raises(OSError):
        write_atomic(tmp_path / name, "x")
    longest = "é" * 125 + "x.txt"  # 255 bytes: its temporary name must fit too
    write_atomic(tmp_path / longest, "x")
    assert [p.name for p in tmp_path.iterdir()] == [longest]


# ------------------------------------------------------------------ generated


# About 50 examples in a run of the suite; HYPOTHESIS_PROFILE=long (tests/conftest.py) for
# the long profile's many more.
EXAMPLES = settings().max_examples if os.environ.get("HYPOTHESIS_PROFILE") else 50

# Names as no name check would let in: separators, "..", NUL, controls, lone surrogates,
# letters of 4 bytes, and long.
NAMES = st.lists(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(["/", "..", "../", "\x00", "\x1b", "\n", "\ud800", "😀", chr(0x20000)]),
        st.sampled_from(["Ada", "Zoë", chr(0x20000) * 40, "x" * 300]),
    ),
    max_size=60,
).map("".join)
OBSTACLES = st.sampled_from(["journal", "sibling", "dangling", "folder", "fifo", "to-folder"])


def plant(path: Path, what: str, journal: Path, sibling: Path) -> None:
    if what == "journal":
        path.symlink_to(journal)
    elif what == "sibling":
        path.symlink_to(sibling / "keep.txt")
    elif what == "dangling":
        path.symlink_to(sibling / "made-through-a-link")
    elif what == "folder":
        path.mkdir()
    elif what == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(sibling)


def snapshot(folder: Path) -> dict[str, object]:
    """Every node under ``folder``: its kind and its bytes or where it points."""
    found: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            found[str(path)] = ("link", os.readlink(path))
        elif stat.S_ISREG(mode):
            found[str(path)] = ("file", path.read_bytes())
        else:
            found[str(path)] = ("other", stat.S_IFMT(mode))
    return found


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.lists(NAMES, min_size=2, max_size=4),
    started_at=st.sampled_from(["2026-11-21T20:15:00Z", "../../x", ""]) | st.text(max_size=30),
    obstacles=st.dictionaries(st.sampled_from(SUFFIXES), OBSTACLES, max_size=4),
)
@example(players=[chr(0x20000) * 40] * 4, started_at="2026-11-21T20:15:00Z", obstacles={})
@example(players=["../../Ada", "B/en"], started_at="../../../x", obstacles={"csv": "journal"})
@example(players=["Ada\x00", "\ud800"], started_at="", obstacles={"txt": "fifo"})
def test_export_all_never_writes_outside_its_folder(
    monkeypatch: pytest.MonkeyPatch,
    players: list[str],
    started_at: str,
    obstacles: dict[str, str],
) -> None:
    with tempfile.TemporaryDirectory() as name:
        root = Path(name)
        data, sibling, usb = root / "data", root / "sibling", root / "usb"
        monkeypatch.setenv("SPLENDOR_DATA_DIR", str(data))
        for folder in (data, sibling, usb):
            folder.mkdir()
        (sibling / "keep.txt").write_text("keep")
        journal = data / "games.sqlite3"
        with Store(journal) as store:
            game = raw_game(store, players, started_at)
            try:
                stem: str | None = file_stem(store.info(game))
            except StoreError:
                stem = None  # a game the journal cannot give back: no name to take
        planted = {}
        if stem is not None:
            for suffix, what in obstacles.items():
                planted[usb / f"{stem}.{suffix}"] = what
                plant(usb / f"{stem}.{suffix}", what, journal, sibling)
        before = (journal.read_bytes(), snapshot(sibling), snapshot(usb))

        code, err = run(["export", "--all", "--to", str(usb)])  # a hang: an alarm, failing

        assert (journal.read_bytes(), snapshot(sibling)) == before[:2]
        assert sorted(p.name for p in root.iterdir()) == ["data", "sibling", "usb"]
        lines = err.splitlines()
        assert code == (2 if lines else 0), err
        refused = [line for line in lines if line.startswith("cannot write ")]
        skipped = [line for line in lines if "in the journal cannot be read" in line]
        assert len(refused) + len(skipped) == len(lines), err
        for line in refused:
            assert line.startswith(f"cannot write {usb}/") and line.endswith("written there.")
        # A game the journal cannot give back is said once, and none of its files tried.
        assert len(refused) == (0 if skipped else len(planted)), err
        for path in usb.iterdir():
            assert len(path.name.encode()) <= MAX_NAME_BYTES
            assert not path.name.startswith("."), f"temporary file left: {path.name}"
            if path in planted:
                assert before[2][str(path)] == snapshot(usb).get(str(path)), path
            else:
                assert path.is_file() and not path.is_symlink()
                assert re.fullmatch(r"(\d{4}-\d\d-\d\d_\d{4}|undated)_[\w-]*_g\d+\..+", path.name)
