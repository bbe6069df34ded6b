"""The developer benchmarks speak the reader's language (``SPLENDOR_LANG``, else the
locale's), numbers written its way, like ``splendor-companion bench``: the app's start-up
figures (``python -m ui.bench``), the RFID path's (``python -m hardware.bench``, run here
for real over a pseudo-terminal, a few frames) and the companion's (``python -m
companion.coach.bench``, one game a match) and the web page's (``python -m web.bench``, its
report of figures given here, and its help). Figures are never asserted, only words."""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Callable

import pytest

from companion import bench as engine_bench
from companion import i18n, native
from companion.coach import bench as ai_bench
from companion.coach import fit, review_bench
from hardware import bench as hardware_bench
from ui import bench as ui_bench
from ui import frames as ui_frames
from web import bench as web_bench


@pytest.fixture
def french(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPLENDOR_LANG", "fr")
    i18n.set_language(None)  # the environment's, as a developer's shell gives it


def test_the_app_benchmark_reports_in_the_environments_language(french: None) -> None:
    text = ui_bench.report([0.704, 0.851, 0.71], 143.6)
    assert "Mesure de l'application Splendor Companion" in text
    assert "3 lancements\u00a0: médiane 0,71 s, max 0,85 s" in text
    assert "144 Mo" in text
    assert "median" not in text and "peak" not in text
    assert "1 lancement\u00a0:" in ui_bench.report([0.7], 143.6)  # the singular form


def test_the_app_benchmark_reports_in_english_too() -> None:
    text = ui_bench.report([0.704, 0.851, 0.71], 1143.6)
    assert "3 starts: median 0.71 s, max 0.85 s" in text
    assert "1,144 MB" in text


# A loaded machine may take 1,000 ms or more: French writes it with a thousands space.
_FIGURE = r"[\d\u202f]+,\d\d"
RFID_FIGURES = re.compile(rf"médiane {_FIGURE} ms, p99 {_FIGURE} ms, max {_FIGURE} ms$")


def test_the_rfid_benchmarks_slow_figures_are_written_the_readers_way(french: None) -> None:
    """A frame that took over a second (a loaded machine) is still read as a figure."""
    text = hardware_bench.report(2, [0.31, 1234.5], [1.5, 2045.25])
    lines = [line for line in text.splitlines() if "médiane" in line]
    assert "max 1\u202f234,50 ms" in lines[0] and "max 2\u202f045,25 ms" in lines[1]
    assert all(RFID_FIGURES.search(line) for line in lines), lines


def test_the_rfid_benchmark_runs_and_reports_in_the_environments_language(
    french: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert hardware_bench.main(["--frames", "3"]) == 0
    text = capsys.readouterr().out
    assert "3 trames RDM6300 sur un pseudo-terminal" in text
    lines = [line for line in text.splitlines() if "médiane" in line]
    assert len(lines) == 2
    for line in lines:  # decimal commas, the figures aligned whatever the labels' lengths
        assert RFID_FIGURES.search(line), line
    assert len({line.index("médiane") for line in lines}) == 1
    assert "objectif\u00a0: moins de 50 ms au p99" in text
    assert "Anti-rebond compris" in text and "14,6 ms" in text
    assert "median" not in text and "goal" not in text


def _web_run(moves: int, frames: int) -> dict[str, object]:
    """One run's figures as ``web.bench`` gathers them (seconds, except the delays' ms)."""
    return {
        "fps": 60.0,
        "journaled": [float(n) for n in range(moves)],
        "events": [112.0] * moves,
        "shown": [231.0, 1515.0][:moves],
        "memory": (51.2, 57.6, 58.4),
        "weights": {"style.css": 4300, "live table": 30720},
        "server_cpu": 0.5,
        "clients_cpu": 2.25,
        "intervals": [0.016] * (frames - 1) + [1.2],
        "busy": [0.004] * frames,
        "cpu": [0.002] * frames,
        "drawn": [True] + [False] * (frames - 1),
    }


def test_the_web_benchmark_reports_in_the_environments_language(french: None) -> None:
    """Its report on figures given here: the words, the plural forms and French's numbers
    (a thousands space from 1,000 ms, a decimal comma, the percent sign spaced)."""
    text = web_bench.report([(_web_run(2, 60), _web_run(1, 1))], clients=20)
    assert text.startswith("20 clients en direct, 2 coups inscrits au journal par l'application\n")
    assert "médiane 112 ms, p99 112 ms (2 événements)" in text
    assert "table récupérée à nouveau\u00a0: médiane 873 ms, p99 1\u202f515 ms" in text
    assert "au repos\u00a0: 51 Mo\u00a0; avec les clients\u00a0: 58 Mo" in text
    assert "poids de style.css\u00a0: 4,2 Ko" in text and "poids de table en direct" in text
    assert "  1. avec le serveur et les clients\u00a0: 60 images, d'une image à la suivante" in text
    assert "la 1 dessinée" not in text and "1 dessinée p50 4,0 ms" in text
    assert "les 59 autres p50 4,0 ms" in text
    assert "le serveur 0,5 s en 2 s (23\u00a0% d'un cœur)" in text
    assert "  1. sans eux (pas de serveur)\u00a0: 1 image," in text and "0 autre -" in text
    assert "median" not in text and "frames" not in text and "clients are phones" not in text


def test_the_web_benchmark_explains_itself_in_the_readers_language(
    french: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        web_bench.main(["--help"])
    assert stop.value.code == 0
    said = capsys.readouterr().out
    assert said.startswith("utilisation\u00a0: python -m web.bench")
    assert "Les mesures de la page web (sans jugement)" in said
    assert "secondes entre deux coups (par défaut\u00a0: 0.5)" in said
    assert "seconds" not in said and "default" not in said


def test_the_companions_benchmark_reports_in_the_environments_language(
    french: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """One game a match, a tiny budget: the words and their plural forms, not the figures."""
    args = ["--games", "1", "--workers", "1", "--timing-games", "0", "--think", "0.01"]
    assert ai_bench.main(args) == 0
    text = capsys.readouterr().out
    assert "1 partie à deux joueurs par match, 1 processus" in text
    assert "difficile contre facile\u00a0:" in text and "difficile contre glouton\u00a0:" in text
    assert re.search(r"sur 1 partie\u00a0; par décision, médiane \d+,\d ms", text), text
    assert "processes" not in text and "wins" not in text


@pytest.mark.parametrize(
    ("main", "args", "said"),
    [
        (
            web_bench.main,
            ["--clients", "0"],
            "argument --clients\u00a0: donnez un nombre entier de 1 à 100, pas '0'",
        ),
        (ui_frames.main, ["games", "--players", "5"], "donnez un nombre entier de 2 à 4, pas '5'"),
        (hardware_bench.main, ["--frames", "0"], "erreur\u00a0: --frames doit valoir 1 ou plus"),
        (
            ai_bench.main,
            ["--games", "0"],
            "erreur\u00a0: --games et --workers doivent valoir au moins 1, --timing-games et "
            "--first au moins 0, --think plus de 0",
        ),
        (
            review_bench.main,
            ["--playouts", "0"],
            "erreur\u00a0: --games et --playouts doivent valoir 1 ou plus",
        ),
        (
            fit.main,
            ["--games", "5"],
            "donnez un nombre entier de 100 à 1\u202f000\u202f000, pas '5'",
        ),
    ],
)
def test_a_benchmark_refuses_a_count_out_of_range_in_one_line_in_the_readers_language(
    french: None,
    capsys: pytest.CaptureFixture[str],
    main: Callable[[list[str]], int],
    args: list[str],
    said: str,
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith(said), err
    assert "99" not in err[-1]  # a range, never the list of every allowed value


@pytest.mark.parametrize(
    ("rate", "english", "french"),
    [
        (1200.0, "met", "atteint"),
        (780.0, "the floor met, the goal not", "le plancher atteint, pas l'objectif"),
        (450.0, "NOT met", "NON atteint"),
    ],
)
def test_the_engine_benchmark_says_where_it_stands_against_the_goal(
    rate: float, english: str, french: str
) -> None:
    """``splendor-companion bench`` prints its honest figure against its goal
    (1,000 two-player games a second) and floor (600), and says which is met."""
    try:
        i18n.set_language("en")
        assert engine_bench.verdict(rate) == (
            f"goal: 1,000 two-player games/s, 600 at least: {english}"
        )
        i18n.set_language("fr")
        said = engine_bench.verdict(rate)
        assert said.startswith("objectif\u00a0: 1\u202f000 parties") and said.endswith(french), said
    finally:
        i18n.set_language("en")


def test_the_engine_benchmark_names_the_engine_it_runs(french: None) -> None:
    """Its figures are of the engine as installed: compiled with mypyc by ``./setup.sh``,
    or the source where the build is missing (:mod:`companion.engine.native`). It says which,
    in the reader's language."""
    said = engine_bench.engine_words()
    if native.compiled():
        assert said == "le moteur compilé avec mypyc (python -m companion.engine.build)"
    else:
        assert said.startswith("le moteur depuis sa source, non compilé")


def test_the_review_benchmark_reports_in_the_environments_language(
    french: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.engine.simulate import simulate
    from companion.records.record import Record

    # A short game and a set speed: the words are tested, not the machine.
    monkeypatch.setattr(
        review_bench,
        "game",
        lambda n, players: Record.of(simulate(players=players, seed=n, max_moves=4)),
    )
    monkeypatch.setattr(review_bench, "playout_rate", lambda record: 1600.0)
    assert review_bench.main(["--games", "1", "--playouts", "6"]) == 0
    out = capsys.readouterr().out
    assert "4 coups analysés en" in out and "1\u202f600 simulations/s" in out
    assert "sur un Raspberry Pi 4" in out and "objectif\u00a0: moins de 30 s" in out
    # At a table of four, the goal is the four-player game's.
    assert review_bench.main(["--games", "1", "--playouts", "6", "--players", "4"]) == 0
    assert "objectif\u00a0: moins de 60 s" in capsys.readouterr().out


def _in_git() -> bool:
    found = subprocess.run(
        ["git", "-C", str(native.PACKAGE.parent), "rev-parse", "HEAD"], capture_output=True
    )
    return found.returncode == 0


@pytest.mark.skipif(not _in_git(), reason="the engine is not in a git repository here")
def test_the_engine_benchmark_measures_another_commits_engine_beside_its_own(
    french: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--baseline REF`` unpacks the engine of a commit into a temporary folder and plays
    both in turn (here from their source only: compiling it takes a minute)."""
    with engine_bench.baseline("HEAD", build=False) as (tree, built):
        assert (tree / "companion" / "engine" / "game.py").is_file() and not built
        assert engine_bench.cold(2, 2, pure=True, tree=tree)[2] > 0
    assert not tree.exists()  # nothing left behind
    engine_bench.against("HEAD", 2, 1, build=False)
    said = capsys.readouterr().out
    assert "ce moteur contre celui de HEAD" in said
    assert re.search(r"depuis la source, 2 joueurs\u00a0: [\d\u202f]+ parties/s", said), said


def test_the_engine_benchmark_refuses_a_baseline_it_cannot_find(
    french: None, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion import cli

    assert cli.main(["bench", "--baseline", "no-such-commit"]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("--baseline no-such-commit\u00a0: "), said


def test_the_rfid_benchmark_never_reports_a_latency_below_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reader's thread may report a tag before the writing thread runs again (a busy
    machine gives it the GIL right after the write): the figures still start at the write."""
    write = os.write

    def write_then_yield(fd: int, data: bytes | memoryview) -> int:
        written = write(fd, data)
        if bytes(data[:1]) == b"\x02":  # an RDM6300 frame: let the reader run first
            time.sleep(0.05)
        return written

    monkeypatch.setattr(os, "write", write_then_yield)
    to_reader, to_store = hardware_bench.measure(frames=2, away=0.1)
    assert len(to_reader) == len(to_store) == 2
    assert min(to_reader) >= 0 and min(to_store) >= min(to_reader), (to_reader, to_store)
