"""A club's address mistyped, a wrong password, a server that takes no TLS: ``club join``
says what is wrong and what to do, in the kiosk's language, never shows the password,
and keeps nothing (a real PostgreSQL: tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clubdb import ClubDb

from companion import i18n

from .kiosks import cli


def _join(url: str) -> tuple[int, str]:
    code, _out, err = cli("club", "join", url, "--name", "Table 1")
    return code, err


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("scheme", "is not a club's address"),
        ("database", "has no database"),
        ("password", "refused the password of table1: ask the club's owner"),
        # PostgreSQL tells no stranger which kiosks exist: an unknown one's password is refused.
        ("role", "refused the password of nobody"),
        ("tls", "does not take TLS connections, which this URL asks (sslmode=verify-full)"),
        ("port", "nothing answers at 127.0.0.1, port 1: is the club's server running"),
    ],
)
def test_a_bad_address_or_password_is_said_with_what_to_do(
    club: ClubDb, data: Path, case: str, said: str
) -> None:
    good = club.url()
    port = club.server.port
    url = {
        "scheme": good.replace("postgresql://", "postgresq://"),
        "database": good.replace(club.name, club.name + "x"),
        "password": good.replace("pw-one", "pw-wrong"),
        "role": good.replace("table1:pw-one", "nobody:pw-one"),
        "tls": good + "?sslmode=verify-full",  # the tests' server takes no TLS
        "port": good.replace(f":{port}/", ":1/"),
    }[case]
    code, err = _join(url)
    assert code == 2
    assert said in err, err
    assert "pw-one" not in err and "pw-wrong" not in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (data / "club.json").exists()  # nothing kept: the kiosk joined no club


def test_the_errors_are_said_in_the_kiosk_s_language(club: ClubDb, data: Path) -> None:
    i18n.set_language("fr")
    try:
        _code, err = _join(club.url().replace("pw-one", "pw-wrong"))
    finally:
        i18n.set_language("en")
    assert "a refusé le mot de passe de table1" in err, err
