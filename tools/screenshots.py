"""Regenerate the README's pictures in docs/screenshots/ (the test suite never writes there).

    .venv/bin/python tools/screenshots.py              # docs/screenshots/
    .venv/bin/python tools/screenshots.py --out /tmp/shots   # a scratch folder

Runs tests/gui/test_screenshots.py (every screen at 800x480, 1024x600, 1280x720 and the
portrait 720x1280, and the states a player meets, ``state-*.png``: a take of one and two
tokens, a refusal, the final round, the card dialog, every player at a glance, the
companion's move, the end and its code enlarged, a past game stepped through, past games,
statistics, settings, new game, at 800x480, 720x1280 and 480x320; in English and French)
with SPLENDOR_SCREENSHOTS pointing at a fresh folder, then, only when every test passed,
replaces the PNGs of docs/screenshots/ with the new set (a picture no test makes any more
goes). The journal's clock is fixed in the tests, so an unchanged screen gives the same
picture: ``git status`` shows only what really changed. With ``--out DIR`` the pictures go
to DIR (made if need be; nothing else there is removed) and
docs/screenshots/ is left as it is: to look before replacing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "screenshots"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/screenshots.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        type=Path,
        help="write the pictures there, leaving docs/screenshots/ as it is",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="splendor-screenshots-") as folder:
        env = {**os.environ, "SPLENDOR_SCREENSHOTS": folder}
        env.pop("SPLENDOR_TEST_WINDOW", None)  # 800x480 here; the test resizes the window itself
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "tests/gui/test_screenshots.py",
                "-m",
                "long",  # the pictures are made by the long run's tests
                "-q",
                "-p",
                "no:cacheprovider",
            ],
            cwd=ROOT,
            env=env,
            check=False,
        )
        target: Path = args.out or TARGET
        if result.returncode != 0:
            print(f"The screenshot tests failed: {target}/ is left as it was.")
            return result.returncode
        made = sorted(Path(folder).glob("*.png"))
        target.mkdir(parents=True, exist_ok=True)
        if args.out is None:  # the README's set: exactly the pictures the tests make
            for old in TARGET.glob("*.png"):
                old.unlink()
        for picture in made:
            shutil.copyfile(picture, target / picture.name)
        print(f"{len(made)} pictures written to {target}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
