"""The compiled engine (:mod:`companion.engine.native`): ``./setup.sh`` builds it with mypyc, it
plays exactly as its source, a build older than its source never runs, and a build that
fails leaves the pure-Python engine working."""

from __future__ import annotations

import doctest
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine import native

# A fingerprint of how the engine plays: seeded random games of 2 to 4 players (every
# action listed, every completion count, every move dealt and pushed, undo included), the
# error code of illegal moves tried on the way, and each game's last position.
PLAY = """
import hashlib, random
from companion.engine import native
from companion.engine.game import Game
from companion.engine.moves import Buy, Reserve, Take
from companion.engine.simulate import DEFAULT_NAMES, Dealer, random_setup
from companion.engine.tokens import Tokens
h = hashlib.sha256()
for seed in range(40):
    rng = random.Random(seed)
    game = Game(random_setup(rng, DEFAULT_NAMES[: 2 + seed % 3]))
    dealer = Dealer(game, rng)
    while not game.over and not game.stalled:
        seat = game.to_act
        for wrong in (Take(Tokens(white=2, blue=1), player=seat), Buy("3K4", player=seat),
                      Reserve(deck=1, player=1 - seat)):
            err = game.explain(wrong)
            h.update(str(err.code if err else None).encode())
        acts = game.actions()
        h.update(" ".join(map(str, acts)).encode())
        done = game.completions(rng.choice(acts))
        move = dealer.deal(rng.choice(done))
        h.update(f"{len(done)} {move} {game.reveal_due(move)}".encode())
        game.push(move)
        if len(game.moves) % 11 == 0:
            game.undo()
            game.push(move)
    h.update(game.text().encode())
print(native.compiled(), h.hexdigest())
"""


def _play(pure: bool) -> tuple[str, str]:
    env = dict(os.environ)
    env.pop(native.PURE, None)
    if pure:
        env[native.PURE] = "1"
    out = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    return out[0], out[1]


built = pytest.mark.skipif(
    not native.compiled(), reason="the engine is not compiled here (./setup.sh builds it)"
)


def test_the_engine_runs_compiled_where_setup_built_it() -> None:
    if os.environ.get(native.PURE, "") not in ("", "0"):
        pytest.skip(f"{native.PURE} asks for the source")
    assert native.compiled(), (
        "the engine runs from source: ./setup.sh builds it (python -m companion.engine.build), "
        "which needs mypy, setuptools, a C compiler and Python's headers"
    )
    assert not native.stale()


@built
def test_the_compiled_engine_plays_exactly_as_its_source() -> None:
    compiled, played = _play(pure=False)
    source, expected = _play(pure=True)
    assert (compiled, source) == ("True", "False")  # really one of each
    assert played == expected


def _copy_and_run(tmp_path: Path, change: str) -> subprocess.CompletedProcess[str]:
    """Play a game from a copy of the package (build included), after ``change``: ``none``,
    ``edit`` (the engine's source edited since the build), ``edit-one`` (another compiled
    module's), ``runtime`` (the modules' shared runtime deleted) or ``stamp`` (the build's
    record garbled). It prints True when any
    compiled module ran."""
    copy = tmp_path / change / "companion"
    shutil.copytree(native.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    if change in ("edit", "edit-one"):
        # "edit-one": the move tables only: the engine compiled beside their source would
        # refuse their objects, so none of the build may run.
        source = copy / "engine" / ("tables.py" if change == "edit-one" else "game.py")
        source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    elif change == "runtime":
        for lib in copy.glob("engine/*__mypyc*"):
            lib.unlink()
    elif change == "stamp":
        (copy / native.STAMP.relative_to(native.PACKAGE)).write_text("{not json", encoding="utf-8")
    code = (
        "import companion.engine.native as n; from companion.engine.simulate import simulate;"
        "simulate(players=3, seed=1);"
        "print(all(n.compiled(m) for m in n.MODULES) or any(n.compiled(m) for m in n.MODULES))"
    )
    env = {k: v for k, v in os.environ.items() if k != native.PURE}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=copy.parent, env=env, capture_output=True, text=True
    )


@built
def test_a_build_older_than_its_source_never_runs(tmp_path: Path) -> None:
    fresh = _copy_and_run(tmp_path, "none")
    assert fresh.stdout.strip() == "True", fresh.stderr  # the copy's build runs as it is
    edited = _copy_and_run(tmp_path, "edit")
    assert edited.stdout.strip() == "False"  # the edited source runs, not the old build
    assert "older than its source" in edited.stderr
    assert "python -m companion.engine.build" in edited.stderr
    one = _copy_and_run(tmp_path, "edit-one")
    assert one.returncode == 0, one.stderr  # a game is played through, from the source
    assert one.stdout.strip() == "False"  # none of the build runs, the game's neither


@built
def test_a_build_missing_a_file_or_its_record_is_passed_over_not_a_crash(tmp_path: Path) -> None:
    """Without the compiled modules' shared runtime they would not import at all."""
    for change in ("runtime", "stamp"):  # the shared runtime gone; the build's record garbled
        broken = _copy_and_run(tmp_path, change)
        assert broken.returncode == 0, broken.stderr
        assert broken.stdout.strip() == "False"
        assert "python -m companion.engine.build" in broken.stderr


@pytest.mark.long
def test_a_failed_build_leaves_the_pure_engine_running(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(
        native.PACKAGE,
        tree / "companion",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "native.json"),
    )
    shutil.copy(native.PACKAGE.parent / "pyproject.toml", tree)
    source = tree / "companion" / "engine" / "game.py"
    # A type error: mypyc refuses to compile what mypy does not accept.
    source.write_text(
        source.read_text(encoding="utf-8") + "\n\ndef _broken() -> int:\n    return 'x'\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != native.PURE}
    env["MYPY_CACHE_DIR"] = str(tmp_path / "cache")
    build = subprocess.run(
        [sys.executable, "-m", "companion.engine.build"],
        cwd=tree, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert build.returncode == 1
    assert "the engine was not compiled" in build.stderr
    assert "it runs as pure Python" in build.stderr
    assert not [p for p in (tree / "companion").rglob("*") if p.suffix in (".so", ".pyd")]
    assert not (tree / "companion" / "engine" / "native.json").exists()
    play = subprocess.run(
        [sys.executable, "-c", "import companion.engine.native as n; print(n.compiled())"],
        cwd=tree, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert play.stdout.strip() == "False", play.stderr


@pytest.mark.long
def test_the_engine_builds_where_it_is_installed(tmp_path: Path) -> None:
    """As deploy.sh does on the Pi: the package sits in site-packages among other
    packages' files (mypy's own ``mypy_extensions.py``, once taken for ours and refused)."""
    site = tmp_path / "site-packages"
    shutil.copytree(
        native.PACKAGE,
        site / "companion",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "native.json"),
    )
    import mypy_extensions  # a neighbour there, as pip installs it with mypy

    shutil.copy(mypy_extensions.__file__, site)
    env = {k: v for k, v in os.environ.items() if k != native.PURE}
    env["PYTHONPATH"] = str(site)
    env["MYPY_CACHE_DIR"] = str(tmp_path / "cache")
    build = subprocess.run(
        [sys.executable, "-m", "companion.engine.build"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert build.returncode == 0, build.stdout + build.stderr
    assert "compiled the engine" in build.stdout
    assert not (site / "build").exists() and not list(site.glob("*.so"))  # nothing beside
    play = subprocess.run(
        [sys.executable, "-c",
         "import companion.engine.native as n; print(n.compiled('ai.search'))"],
        cwd=tmp_path, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert play.stdout.strip() == "True", play.stderr


def test_the_compiled_modules_doctests_pass_from_their_source() -> None:
    """pytest does not collect them from a compiled module (see the root conftest.py)."""
    attempted = 0
    for module in native.MODULES:
        package, _, leaf = f"companion.{module}".rpartition(".")
        name = f"{package}._source_{leaf}"  # in its package: its relative imports work
        spec = importlib.util.spec_from_file_location(name, native.source(module))
        assert spec is not None and spec.loader is not None
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[name] = loaded  # its dataclasses look their module up
        try:
            spec.loader.exec_module(loaded)
            result = doctest.testmod(loaded, optionflags=doctest.ELLIPSIS)
        finally:
            del sys.modules[name]
        assert result.failed == 0, module
        attempted += result.attempted
    assert attempted > 0  # the engine's own examples at least


def test_the_build_command_speaks_the_readers_language() -> None:
    """A word it does not know gets its usage, in the reader's language, and exit 2."""
    env = {**os.environ, "SPLENDOR_LANG": "fr"}
    run = subprocess.run(
        [sys.executable, "-m", "companion.engine.build", "cleen"],
        cwd=native.PACKAGE.parent, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 2
    said = "utilisation\u00a0: python -m companion.engine.build [--force | clean]"
    assert run.stderr.strip() == said
