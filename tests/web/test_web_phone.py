"""The page on phones, in Debian's Chromium (headless, Selenium) against a real server on
127.0.0.1: every page in every language at 360x640 and 390x844, in the light and the dark
scheme (Chrome's emulation of ``prefers-color-scheme``), is no wider than the screen, its
every visible text at least 14 px (the chart's labels 12 px, as drawn) and at 4.5:1
against what is behind it, its sticky header at most 12% of the screen's height.

The default run takes the longest language (the one with the most words in its catalog)
at 360x640 in both schemes; the whole product runs with ``-m long``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from pagecheck import Fault, faults
from webtools import PHONE, as_phone

from companion import i18n
from companion.coach.plan import Plan
from companion.engine.simulate import simulate
from companion.journal.session import Session
from companion.journal.store import Store
from companion.text import MAX_NAME_LENGTH
from web.browser import missing
from web.running import ServerThread

reason = missing()
pytestmark = pytest.mark.skipif(reason is not None, reason=reason or "")

SIZES = ((360, 640), (390, 844))
SCHEMES = ("light", "dark")
# A stranger's name as long as the kiosk takes, one word: it must wrap, never widen a page.
LONG_NAME = "Wolfeschlegelsteinhausenbergerdorff-Annalena"[:MAX_NAME_LENGTH]
NAMES = ("Ada", LONG_NAME, "Cleo", "Dev")


def longest_language() -> str:
    """The language whose catalog has the most characters: the longest words on a page."""
    return max(
        (code for code in i18n.LANGUAGES if code != "en"),
        key=lambda code: sum(map(len, i18n.catalog(code).values())),
    )


def named(players: int, seed: int) -> Any:
    game = simulate(players=players, seed=seed)
    setup = type(game.setup)(NAMES[:players], game.setup.nobles, game.setup.market)
    return game, setup


def finished(store: Store, players: int, seed: int, app: dict[str, Any] | None = None) -> int:
    game, setup = named(players, seed)
    session = Session.start(store, setup, app) if app else Session.start(store, setup)
    for move in game.moves:
        session.play(move)
    assert session.game.over
    return session.game_id


def unfinished(store: Store, players: int, seed: int, left: int) -> int:
    """A game stopped ``left`` moves before its end: reserved cards, nobles, points."""
    game, setup = named(players, seed)
    session = Session.start(store, setup)
    for move in game.moves[:-left]:
        session.play(move)
    return session.game_id


@dataclass
class Site:
    """A kiosk's page to visit: its server and the paths of its pages."""

    server: ServerThread
    pages: dict[str, str]


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Site]]:
    """Three kiosks: one playing (its app running, the journal open) with finished games,
    one against the companion; one whose app is stopped with no game being played; one
    whose app stopped in the middle of a game (paused)."""
    folder = tmp_path_factory.mktemp("phones")
    playing = Store(folder / "playing" / "games.sqlite3")
    over = finished(playing, 4, 11)
    finished(playing, 2, 3, {"app": Plan.new([None, "hard"]).app()})
    unfinished(playing, 4, 11, left=3)  # its final round: three reserved, nobles won
    (folder / "stopped").mkdir()
    with Store(folder / "stopped" / "games.sqlite3") as stopped:
        finished(stopped, 2, 5)
    (folder / "paused").mkdir()
    with Store(folder / "paused" / "games.sqlite3") as paused:
        unfinished(paused, 3, 7, left=20)
    with (
        ServerThread(playing.path) as live,
        ServerThread(folder / "stopped" / "games.sqlite3") as idle,
        ServerThread(folder / "paused" / "games.sqlite3") as halted,
    ):
        yield [
            Site(
                live,
                {
                    "the live table": "/",
                    "past games": "/games",
                    "a game, move 40": f"/games/{over}?move=40",
                    "a game, at its end": f"/games/{over}",
                    "statistics, head to head": f"/stats?a=Ada&b={LONG_NAME}",
                    "no such page": "/no/such/page",
                },
            ),
            Site(idle, {"no game in play": "/"}),
            Site(halted, {"a paused game": "/"}),
        ]
    playing.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield browser
    as_phone(browser, *PHONE)


def visit(driver: Any, site: Site, path: str, lang: str) -> None:
    joiner = "&" if "?" in path else "?"
    driver.get(f"{site.server.url}{path}{joiner}lang={lang}")


def walk(
    driver: Any, sites: list[Site], lang: str, sizes: tuple[tuple[int, int], ...]
) -> list[str]:
    """Every page of every site at each size in each scheme: what a reader would notice."""
    found: list[str] = []
    for width, height in sizes:
        for scheme in SCHEMES:
            as_phone(driver, width, height, scheme)
            for site in sites:
                for page, path in site.pages.items():
                    visit(driver, site, path, lang)
                    found += [
                        f"{page} ({lang}, {width}x{height}, {scheme}): {fault}"
                        for fault in faults(driver, width, height)
                    ]
    return found


def test_every_page_fits_a_phone_in_the_longest_language(phone: Any, sites: list[Site]) -> None:
    found = walk(phone, sites, longest_language(), SIZES[:1])
    assert found == [], "\n".join(found)


@pytest.mark.long
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_page_fits_every_phone_in_every_language(
    phone: Any, sites: list[Site], lang: str
) -> None:
    found = walk(phone, sites, lang, SIZES)
    assert found == [], "\n".join(found)


def background(driver: Any) -> tuple[int, ...]:
    colour: str = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    return tuple(int(part) for part in colour[colour.index("(") + 1 : -1].split(",")[:3])


def test_the_page_follows_the_phones_light_or_dark_preference(
    phone: Any, sites: list[Site]
) -> None:
    seen = {}
    for scheme in SCHEMES:
        as_phone(phone, 360, 640, scheme)
        visit(phone, sites[0], "/", "en")
        seen[scheme] = background(phone)
    assert min(seen["light"]) > 200 and max(seen["dark"]) < 60, seen


def test_the_measure_sees_small_faint_and_wide_text(phone: Any, sites: list[Site]) -> None:
    """The check itself: a page spoiled on purpose (a tiny word, a word the colour of its
    panel, a row wider than the screen) is found faulty on each count."""
    as_phone(phone, 360, 640, "dark")
    visit(phone, sites[0], "/", "en")
    assert faults(phone, 360, 640) == []
    phone.execute_script(
        """
        const turn = document.querySelector(".turn");
        turn.style.fontSize = "11px";
        const game = document.querySelector(".gameline a");
        game.style.color = getComputedStyle(document.body).backgroundColor;
        document.querySelector(".bank .gems").style.width = "500px";
        document.querySelector("header.top").style.paddingBottom = "40px";
        """
    )
    kinds = {fault.kind for fault in faults(phone, 360, 640)}
    assert kinds == {
        "text too small",
        "text too faint",
        "wider than the screen",
        "text beyond the screen",
        "header too tall",
    }


def test_the_languages_fold_into_one_button_that_opens_without_a_script(
    phone: Any, sites: list[Site]
) -> None:
    as_phone(phone, 360, 640, "light")
    visit(phone, sites[0], "/games", "fr")
    links = phone.find_elements("css selector", ".langs nav a")
    assert not any(link.is_displayed() for link in links)  # folded: the header is one line
    phone.find_element("css selector", ".langs summary").click()
    shown = [link.text for link in links if link.is_displayed()]
    assert shown == [i18n.language_name(code) for code in i18n.LANGUAGES]
    open_faults: list[Fault] = faults(phone, 360, 640)
    assert [f for f in open_faults if f.kind != "header too tall"] == []
    links[i18n.LANGUAGES.index("it")].click()
    assert phone.find_element("tag name", "html").get_attribute("lang") == "it"
    assert phone.current_url.endswith("/games?lang=it")
