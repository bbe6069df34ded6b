"""Settings files from strangers: whatever ``settings.ini`` holds, and whatever
the kiosk's environment says, the app reads it without a traceback, every setting it uses
is one it can use (a bad one is its default), and each bad value is said in one line.

The app's own reading path runs: Kivy's configuration file read by the app's
``load_config`` (its defaults, its folder), then ``setting`` and the start's check.
"""

from __future__ import annotations

import os
import string
from pathlib import Path
from tempfile import TemporaryDirectory
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kivy.config import ConfigParser

from ui.application import CompanionApp
from ui.settings import DEFAULTS, KIOSK, SETTINGS_SECTION, kiosk_refused, usable

KEYS = sorted(DEFAULTS)

values = st.one_of(
    st.text(max_size=40),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(["nan", "inf", "-0", "1e400", "90", "45", "%", "%(x)s", "5" * 5000, ""]),
    st.text(alphabet=string.digits, min_size=1, max_size=6000),
)
line = st.one_of(
    st.tuples(st.sampled_from(KEYS), values).map(lambda kv: f"{kv[0]} = {kv[1]}"),
    st.text(max_size=60),  # anything at all on a line
)
header = st.sampled_from([f"[{SETTINGS_SECTION}]", "[kivy]", "[", "", "[companion"])
files = st.one_of(
    st.builds(lambda h, ls: "\n".join([h, *ls]), header, st.lists(line, max_size=12)),
    st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
)
KIOSK_NAMES = sorted({name for name, _option in KIOSK.values()} | {"SPLENDOR_ROTATION"})
# An environment variable cannot hold a NUL byte (the system refuses to set one).
environments = st.dictionaries(
    st.sampled_from(KIOSK_NAMES), values.filter(lambda v: "\x00" not in v), max_size=4
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=files, environ=environments)
def test_any_settings_file_is_read_with_defaults_for_what_cannot_be_used(
    text: str, environ: dict[str, str]
) -> None:
    with TemporaryDirectory() as folder, mock.patch.dict(os.environ, environ):
        data = Path(folder)
        (data / "settings.ini").write_text(text, encoding="utf-8", errors="surrogateescape")
        ConfigParser._named_configs.pop("app", None)  # a fresh configuration, as at start
        app = CompanionApp(data_dir=str(data))
        app.load_config()
        app.check_settings()
        for key in KEYS:
            value = app.setting(key)
            assert usable(key, value), (key, value)
        for message in app.notices + kiosk_refused(environ):
            assert "\n" not in message and len(message) < 600, message


def test_the_fuzzed_path_reads_the_file_and_says_a_bad_value(tmp_path: Path) -> None:
    (tmp_path / "settings.ini").write_text(f"[{SETTINGS_SECTION}]\nrotation = 45\nhints = 1\n")
    ConfigParser._named_configs.pop("app", None)
    app = CompanionApp(data_dir=str(tmp_path))
    app.load_config()
    app.check_settings()
    assert app.setting("hints") == "1"  # the file was read
    assert app.setting("rotation") == DEFAULTS["rotation"]
    assert any("45" in m for m in app.notices), app.notices
