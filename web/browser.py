"""Debian's Chromium, headless, through Selenium and chromedriver: the browser tests' and
the screenshots'. ``None`` when either is missing (the tests then say so and skip)."""

from __future__ import annotations

import shutil
from typing import Any

CHROMIUM = ("chromium", "chromium-browser")
DRIVER = "chromedriver"


def missing() -> str | None:
    """What is missing to drive a browser, or ``None``."""
    if not any(shutil.which(name) for name in CHROMIUM):
        return "Debian's chromium is not installed (./setup.sh --dev installs it)"
    if shutil.which(DRIVER) is None:
        return "chromium-driver is not installed (./setup.sh --dev installs it)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    return None


def chromium(width: int, height: int, language: str = "en") -> Any:
    """A headless Chromium whose window is ``width`` x ``height`` CSS pixels."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    found = [path for path in map(shutil.which, CHROMIUM) if path]
    options.binary_location = found[0]
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={width},{height}",
        f"--lang={language}",
    ):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    service = Service(executable_path=shutil.which(DRIVER))
    driver = webdriver.Chrome(options=options, service=service)
    # The page's own area at that size (the window's frame does not count headless).
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    return driver
