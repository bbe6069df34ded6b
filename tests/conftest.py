"""Shared fixtures: every test starts in English whatever the machine's locale."""

from collections.abc import Iterator

import pytest

from companion import i18n


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")
