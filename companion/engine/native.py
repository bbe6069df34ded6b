"""The engine compiled: the rules engine and the companion's search (:data:`MODULES`) built
with mypyc, and the guard that keeps a stale build from running.

The engine is pure Python and runs as it is. ``python -m companion.engine.build`` (which
``./setup.sh`` runs) compiles the modules of :data:`MODULES` with mypyc, from the same
typed source, into C extensions beside it: the same rules, moves and errors, played about
1.7 times as fast (the README's "Speed and memory"). Building needs what mypyc needs:
mypy, setuptools, a C compiler and Python's headers.

Python imports an extension before a source file of the same name. So a build records
each source's digest (:data:`STAMP`), and at import (:func:`guard`) a compiled module whose
source changed since (or whose build lost a file) is passed over for its source, with the
others of the build, and a warning to build again: an edit is never silently ignored.
``SPLENDOR_PURE_PYTHON=1`` passes over every compiled module: the benchmark's labelled
pure-Python figure, and the tests that compare the two.

``python -m companion.engine.build clean`` removes the build.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
"""The ``companion`` package's folder: the modules are named, and built, from it."""
ROOT = __name__.partition(".")[0]
"""The package's name: ``companion``."""
MODULES = ("engine.game", "engine.tables", "ai.value", "ai.search", "ai.fitted", "ai.expert")
"""The modules compiled, named from :data:`PACKAGE`: the rules engine and its move tables,
where a game spends its time, and the companion's evaluations and searches (hard's and the
expert's), where its thinking does. They are compiled together and run together: compiled
code expects compiled classes."""
STAMP = HERE / "native.json"
"""What was compiled: each module's source digest, and the Python it was built for."""
_PYTHON = sys.implementation.cache_tag
"""The Python a build is for: its implementation and minor version (``cpython-311``), whose
extensions stay compatible across patch releases (a security update keeps the build)."""
PURE = "SPLENDOR_PURE_PYTHON"
"""Set to 1 to run the source even where a build is present."""


def source(module: str) -> Path:
    """The source file of ``module`` (a name of :data:`MODULES`)."""
    return PACKAGE / f"{module.replace('.', '/')}.py"


def _digest(module: str) -> str:
    return hashlib.sha256(source(module).read_bytes()).hexdigest()


def _extensions(module: str) -> list[Path]:
    """The compiled files of ``module`` that this Python would import."""
    stem = source(module).with_suffix("")
    return [
        stem.with_name(stem.name + suffix)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if stem.with_name(stem.name + suffix).exists()
    ]


def _stamp() -> dict[str, str]:
    """The digests the build recorded; empty when there is none, when it is unreadable or
    for another Python, or when a file it wrote is gone (the modules' shared runtime, say:
    they would not import)."""
    try:
        data = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("python") != _PYTHON:
        return {}
    modules, files = data.get("modules"), data.get("files")
    if not isinstance(modules, dict) or not isinstance(files, list):
        return {}
    if not all(isinstance(f, str) and (PACKAGE / f).is_file() for f in files):
        return {}
    return {str(k): str(v) for k, v in modules.items()}


def up_to_date() -> bool:
    """Whether every module of :data:`MODULES` is compiled from its present source."""
    return all(_extensions(m) for m in MODULES) and not stale()


def stale() -> list[str]:
    """The compiled modules whose source changed since the build (or whose build record is
    missing): they must not run, nor the others (see :data:`MODULES`)."""
    built = _stamp()
    return [m for m in MODULES if _extensions(m) and built.get(m) != _digest(m)]


class _Source:
    """Finds the listed modules' source files, ahead of Python's own finders (which would
    take the extension beside them). A finder by its ``find_spec`` alone: subclassing
    ``importlib.abc.MetaPathFinder`` would import ``importlib.resources`` and ``tempfile``
    into every process that imports the package, ``deploy.sh``'s display check included."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = {f"{ROOT}.{m}": source(m) for m in names}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        found = self.names.get(fullname)
        if found is None:
            return None
        return importlib.util.spec_from_file_location(fullname, found)


def guard() -> None:
    """Run the source of any compiled module that must not run compiled (see the module's
    docs). Run when this module is imported, which the package does before the engine."""
    if any(isinstance(f, _Source) for f in sys.meta_path):
        return
    built = [m for m in MODULES if _extensions(m)]
    if os.environ.get(PURE, "") not in ("", "0"):
        names = built
    else:
        old = stale()
        # All or none: a compiled module given another's source would refuse its objects.
        names = built if old else []
        # Not said to the command that builds it again (setup.sh, deploy.sh run it).
        rebuilding = sys.orig_argv[1:3] == ["-m", f"{__package__}.build"]
        if old and not rebuilding:
            warnings.warn(
                f"the compiled engine ({', '.join(old)}) is older than its source, so the "
                "source runs (slower); build it again: python -m companion.engine.build",
                RuntimeWarning,
                stacklevel=2,
            )
    if names:
        sys.meta_path.insert(0, _Source(names))


def compiled(module: str = "engine.game") -> bool:
    """Whether ``companion.<module>`` runs compiled in this process (importing it)."""
    loaded = importlib.import_module(f"{ROOT}.{module}")
    return not str(getattr(loaded, "__file__", "")).endswith(".py")


def build() -> list[Path]:
    """Compile :data:`MODULES` with mypyc and put them in place; return the files written.

    Raises whatever mypyc, mypy or the compiler raise: the caller says the engine stays
    pure Python.
    """
    import shutil
    import tempfile

    from mypyc.build import mypycify  # only here: the app does not need mypy to run
    from setuptools import Distribution  # type: ignore[import-untyped]

    from ..files import write_atomic

    before = Path.cwd()
    digests = {m: _digest(m) for m in MODULES}
    # The old build goes first: a file that a running process has loaded is unlinked, not
    # written over, and a failed build leaves none behind (the source runs).
    clean()
    with tempfile.TemporaryDirectory() as temp:
        # Built from a copy of the package, in a folder of its own: installed (in
        # site-packages) the package's neighbours would be taken for our own code, and
        # nothing of the build is left beside the source.
        tree = Path(temp, "tree")
        shutil.copytree(PACKAGE, tree / PACKAGE.name, ignore=_not_source)
        # Types are checked by the test suite (strict); here only what compiling needs.
        (tree / "mypy.ini").write_text("[mypy]\nignore_missing_imports = True\n")
        os.chdir(tree)  # mypycify names modules by their paths from here
        try:
            extensions = mypycify(
                [str(source(m).relative_to(PACKAGE.parent)) for m in MODULES],
                opt_level="3",
                target_dir=str(Path(temp, "c")),
                # The runtime the modules share, named so that it lands beside this
                # module (companion/engine/native__mypyc...), not as a hash-named module.
                group_name=__name__,
            )
            # A bare Distribution, not setup(): that would look for a project's settings.
            dist = Distribution({"name": "splendor-companion-engine", "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_temp = str(Path(temp, "objects"))
            command.build_lib = str(Path(temp, "lib"))
            dist.run_command("build_ext")
            written = []
            for built in command.get_outputs():
                place = _in_package(Path(built))
                write_atomic(place, Path(built).read_bytes())  # never through a link
                written.append(place)
        finally:
            os.chdir(before)
    # Recorded only once the build succeeded, with the digests it was built from.
    files = sorted(p.relative_to(PACKAGE).as_posix() for p in written)
    write_atomic(
        STAMP, json.dumps({"python": _PYTHON, "modules": digests, "files": files}, indent=1) + "\n"
    )
    return written


def _not_source(folder: str, names: list[str]) -> set[str]:
    """What the copy built from leaves out: anything but Python source and packages."""
    return {n for n in names if not n.endswith(".py") and not Path(folder, n).is_dir()}


def _in_package(built: Path) -> Path:
    """Where a file of the build folder (``.../companion/ai/value...so``) goes."""
    parts = built.parts
    inside = len(parts) - 1 - parts[::-1].index(PACKAGE.name)
    return PACKAGE.joinpath(*parts[inside + 1 :])


def clean() -> list[Path]:
    """Remove the build: the engine runs from source again."""
    gone = [p for m in MODULES for p in _extensions(m)]
    gone += [p for p in HERE.glob("*__mypyc*") if p.suffix in (".so", ".pyd")]
    if STAMP.exists():
        gone.append(STAMP)
    for path in gone:
        path.unlink()
    return gone


guard()
