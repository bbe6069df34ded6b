"""pytest, for the whole tree.

Every run (the controller and each xdist worker, all of which load this file before any test
module) first moves into a scratch home of its own (:mod:`companion.scratch`): ``HOME``, the
XDG folders and ``KIVY_HOME`` in a fresh temporary folder, the kiosk's ``SPLENDOR_*`` settings
forgotten. A person who runs the suite on a kiosk, or with
``SPLENDOR_DATA_DIR`` naming their games, finds their games and settings untouched
(tests/test_scratch.py), and the run passes as on a fresh machine.

A module that runs compiled (:mod:`companion.engine.native`) is not
collected for its doctests, which pytest would look for in the compiled file and refuse;
``tests/test_native.py`` runs them from its source instead."""

import os
from pathlib import Path

from companion import scratch

# Hypothesis keeps the examples that failed in the clone, never in the working folder
# (which is the person's: a kiosk's data folder, say). It reads this when first imported.
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY", str(Path(__file__).resolve().parent / ".hypothesis")
)
# The working folder stays: xdist's workers start in the controller's, and read the paths
# given on the command line from there. No test writes a file into it (test_scratch.py).
scratch.enter("splendor-tests-", chdir=False)

from companion.engine import native  # noqa: E402

collect_ignore = [
    str(native.source(m).relative_to(native.PACKAGE.parent))
    for m in native.MODULES
    if native.compiled(m)
]
