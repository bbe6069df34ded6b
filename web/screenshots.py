"""Screenshots of the web page, for the docs, in English and French: every page (the
live table, past games, a game, statistics) on a small phone (360x640) in the dark and
the light scheme, and the live table and a game's page on a larger phone (390x844) and a
laptop (1280x800), dark. A light picture's name ends in ``-light``.

    python -m web.screenshots [--out docs/screenshots/web]

Written only when asked (never by the tests); a sample journal is made in a temporary
folder and served on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import base64
import sys
import tempfile
from pathlib import Path

from companion import scratch

from .browser import chromium, missing
from .running import ServerThread
from .sample import sample_folder

LANGUAGES = ("en", "fr")
# (width, height, colour schemes, pages): a small phone sees every page in both schemes.
SHOTS = (
    (360, 640, ("dark", "light"), ("live", "games", "game", "stats")),
    (390, 844, ("dark",), ("live", "game")),
    (1280, 800, ("dark",), ("live", "game")),
)
OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "web"


def full_page(driver: object, path: Path) -> None:
    """The whole page, as tall as it is (a phone scrolls it)."""
    shot = driver.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
    )
    path.write_bytes(base64.b64decode(shot["data"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT, help="the folder to write into")
    parser.add_argument("--full", action="store_true", help="also the whole page, scrolled")
    args = parser.parse_args(argv)
    args.out = args.out.resolve()  # before the working folder moves to the scratch home
    # Chromium writes its profile and caches under HOME: a scratch one, never a person's.
    scratch.enter("splendor-web-shots-")
    why = missing()
    if why:
        print(f"no screenshots: {why}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store, over, _live = sample_folder(Path(tmp))
        with store, ServerThread(store.path) as server:
            paths = {
                "live": "/",
                "games": "/games",
                "game": f"/games/{over}",
                "stats": "/stats?a=Ada&b=Ben",
            }
            for width, height, schemes, pages in SHOTS:
                for lang in LANGUAGES:
                    driver = chromium(width, height, lang)
                    try:
                        for scheme in schemes:
                            driver.execute_cdp_cmd(
                                "Emulation.setEmulatedMedia",
                                {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
                            )
                            for name in pages:
                                path = paths[name]
                                joiner = "&" if "?" in path else "?"
                                driver.get(f"{server.url}{path}{joiner}lang={lang}")
                                light = "-light" if scheme == "light" else ""
                                stem = f"{name}-{width}x{height}-{lang}{light}"
                                driver.save_screenshot(str(args.out / f"{stem}.png"))
                                if args.full:
                                    full_page(driver, args.out / f"{stem}-full.png")
                                print(args.out / f"{stem}.png")
                    finally:
                        driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
