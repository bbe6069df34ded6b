"""Regenerate the README's pictures in docs/screenshots/ (the test suite never writes there).

    .venv/bin/python tools/screenshots.py

Runs tests/gui/test_screenshots.py (every screen at 800x480, 1024x600, 1280x720 and the
portrait 720x1280, in English and French) with SPLENDOR_SCREENSHOTS pointing at a fresh
folder, then, only when every test passed, replaces the PNGs of docs/screenshots/ with the
new set (a picture no test makes any more goes). The journal's clock is fixed in the
tests, so an unchanged screen gives the same picture: ``git status`` shows only what
really changed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "screenshots"


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="splendor-screenshots-") as folder:
        env = {**os.environ, "SPLENDOR_SCREENSHOTS": folder}
        env.pop("SPLENDOR_TEST_WINDOW", None)  # 800x480 here; the test resizes the window itself
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "tests/gui/test_screenshots.py",
                "-q",
                "-p",
                "no:cacheprovider",
            ],
            cwd=ROOT,
            env=env,
            check=False,
        )
        if result.returncode != 0:
            print("The screenshot tests failed: docs/screenshots/ is left as it was.")
            return result.returncode
        made = sorted(Path(folder).glob("*.png"))
        TARGET.mkdir(parents=True, exist_ok=True)
        for old in TARGET.glob("*.png"):
            old.unlink()
        for picture in made:
            shutil.copyfile(picture, TARGET / picture.name)
        print(f"{len(made)} pictures written to {TARGET.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
