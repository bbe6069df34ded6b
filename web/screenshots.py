"""Screenshots of the web page, for the docs: the live table and a game's page at
390x844 (a phone) and 1280x800 (a laptop), in English and French.

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

SIZES = ((390, 844), (1280, 800))
LANGUAGES = ("en", "fr")
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
            for width, height in SIZES:
                for lang in LANGUAGES:
                    driver = chromium(width, height, lang)
                    try:
                        for name, path in (
                            ("live", f"/?lang={lang}"),
                            ("game", f"/games/{over}?lang={lang}"),
                        ):
                            driver.get(server.url + path)
                            stem = f"{name}-{width}x{height}-{lang}"
                            driver.save_screenshot(str(args.out / f"{stem}.png"))
                            if args.full:
                                full_page(driver, args.out / f"{stem}-full.png")
                            print(args.out / f"{stem}.png")
                    finally:
                        driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
