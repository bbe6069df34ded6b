"""The page in a real browser (Debian's Chromium, headless, through Selenium): it follows
the game the app journals, says when it loses the kiosk, and its BG Stats link holds the
play. Skipped, saying why, where Chromium or its driver is not installed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from webtools import SETTLE, play

from companion.journal.store import Store
from companion.reports import bgstats
from web.browser import missing
from web.running import ServerThread

reason = missing()
pytestmark = pytest.mark.skipif(reason is not None, reason=reason or "")

FOLLOWS = 1.0  # seconds: the page shows a journaled move within this (the goal)


def wait(driver: Any, seconds: float, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.02).until(condition)


def moves_shown(driver: Any) -> int:
    return len(driver.find_elements("css selector", "#live .log li"))


def test_the_live_page_shows_a_move_within_a_second(browser: Any, journal: Store) -> None:
    session = play(journal, players=3, moves=5)
    with ServerThread(journal.path, poll=0.1) as server:
        browser.get(server.url + "/")
        assert moves_shown(browser) == 5  # the table without any script
        # The live feed is open (the script swaps the table in once at connection).
        wait(browser, SETTLE, lambda d: d.find_element("id", "live").get_attribute("data-updated"))
        move = session.play(next(session.game.legal_moves()))
        wait(browser, FOLLOWS, lambda d: moves_shown(d) == 6)
        newest = browser.find_element("css selector", "#live .log li .words").text
        assert newest.startswith(session.game.names[move.player])
        assert not browser.find_element("id", "lost").is_displayed()


def test_the_page_says_when_it_lost_the_kiosk(browser: Any, journal: Store) -> None:
    play(journal, moves=3)
    with ServerThread(journal.path, poll=0.1) as server:
        browser.get(server.url + "/")
        wait(browser, SETTLE, lambda d: d.find_element("id", "live").get_attribute("data-updated"))
    # The server is gone: the page says so (and keeps the last table it had).
    wait(browser, SETTLE, lambda d: d.find_element("id", "lost").is_displayed())
    assert "lost" in browser.find_element("id", "lost").text
    assert moves_shown(browser) == 3


def test_a_hostile_name_shows_as_text_and_the_bg_stats_link_holds_the_play(
    browser: Any, journal: Store
) -> None:
    from companion.engine.simulate import simulate
    from companion.journal.session import Session

    game = simulate(players=2, seed=2)
    names = ['<img src=x onerror="document.title=1">', "<script>document.title=2</script>"]
    setup = type(game.setup)(tuple(names), game.setup.nobles, game.setup.market)
    session = Session.start(journal, setup)
    for move in game.moves:
        session.play(move)
    assert session.game.over
    with ServerThread(journal.path) as server:
        browser.get(f"{server.url}/games/{session.game_id}")
        heading = browser.find_element("css selector", "h1").text
        assert names[0] in heading and names[1] in heading  # the text itself, shown
        assert browser.find_elements("css selector", "h1 img, h1 script") == []
        assert browser.title not in ("1", "2")
        link = browser.find_element("id", "bgstats").get_attribute("href")
    assert bgstats.read_link(link) == bgstats.stored_play(journal, session.game_id)


def test_the_game_pages_downloads_are_the_export_files(
    browser: Any, journal: Store, tmp_path: Path
) -> None:
    """Each download link of a finished game's page, clicked in the browser, saves the
    file `export` writes, byte for byte."""
    from companion.journal.store import resolve
    from companion.reports.export import FORMAT, export_file

    session = play(journal, players=2, seed=4)
    assert session.game.over
    saved = tmp_path / "downloads"
    saved.mkdir()
    browser.execute_cdp_cmd(
        "Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(saved)}
    )
    with ServerThread(journal.path, poll=0.1) as server:
        browser.get(f"{server.url}/games/{session.game_id}?lang=en")
        links = browser.find_elements("css selector", ".downloads a[download]")
        assert len(links) == len(FORMAT)
        for link in links:
            link.click()
        wait(
            browser,
            SETTLE,
            lambda d: (
                len([p for p in saved.iterdir() if not p.name.endswith(".crdownload")])
                == len(FORMAT)
            ),
        )
    record = journal.record(session.game_id, with_journal=True)
    aliases = journal.aliases()
    files = {p.name: p for p in saved.iterdir()}
    for fmt, spec in sorted(FORMAT.items(), key=lambda f: -len(f[1].suffix)):
        # the longest suffix first: "x.bgstats.json" also ends in ".json"
        (name,) = [n for n in files if n.endswith(f".{spec.suffix}")]
        got = files.pop(name)
        expected = tmp_path / f"expected.{spec.suffix}"
        export_file(record, fmt, expected, lambda n: resolve(aliases, n))
        assert got.read_bytes() == expected.read_bytes(), fmt
