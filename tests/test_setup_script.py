"""``./setup.sh``, the README's first command: it says what it takes and refuses what it
does not know before it installs anything."""

import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / "setup.sh"), *args], capture_output=True, text=True, timeout=30
    )


def test_help_says_what_it_takes_and_installs_nothing() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "usage: ./setup.sh [--dev | --club]" in result.stdout
    assert "installing" not in result.stdout + result.stderr
    # What the README says of it: the network, sudo, where the programs are, doctor.
    for said in ("the network", "sudo", ".venv/bin/splendor-companion", "activate", "doctor"):
        assert said in result.stdout, said
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for said in ("the network", "`sudo`", "`.venv/bin/splendor-companion ...`", "activate"):
        assert said in readme, said


def test_an_unknown_option_is_refused_before_anything_is_installed() -> None:
    result = run("--devv")
    assert result.returncode == 2
    assert "unknown option --devv" in result.stderr
    assert "installing" not in result.stdout + result.stderr
    assert run("--dev", "--extra").returncode == 2


# setup.sh's world faked on PATH: dpkg-query says nothing is installed, apt-get and sudo
# log what they are asked, Python makes its venv and succeeds. Each logs one line a call.
FAKE_LOG = 'printf "%s %s\\n" "$(basename "$0")" "$*" >>"$FAKE_CALLS"'
FAKES = {
    "dpkg-query": f"{FAKE_LOG}\nexit 1",
    "apt-get": f"{FAKE_LOG}\nexit 0",
    "sudo": 'exec "$@"',
    "id": "echo 1000",
    # Python, its venv's copy and its pip: the venv module writes the venv's python.
    "python3.11": f"""{FAKE_LOG}
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi
exit 0""",
}


def run_faked(
    tmp_path: Path, *args: str, machine: str = "x86_64", arch: str = "amd64"
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """setup.sh copied into tmp_path (it works in its own folder) and run with the fakes."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fakes = {
        **FAKES,
        "uname": f'if [ "${{1:-}}" = -m ]; then echo {machine}; else echo Linux; fi',
        "dpkg": f'[ "$1" = --print-architecture ] && echo {arch}',
    }
    for name, body in fakes.items():
        (bin_dir / name).write_text(f"#!/bin/bash\n{body}\n")
        (bin_dir / name).chmod(0o755)
    for name in ("python3.13", "python3.12", "python3"):  # never the machine's own
        (bin_dir / name).symlink_to(bin_dir / "python3.11")
    project = tmp_path / "project"
    project.mkdir()
    (project / "setup.sh").write_text((ROOT / "setup.sh").read_text())
    calls = tmp_path / "calls"
    calls.touch()
    result = subprocess.run(
        ["bash", str(project / "setup.sh"), *args],
        capture_output=True,
        text=True,
        timeout=30,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "FAKE_CALLS": str(calls), "HOME": str(tmp_path)},
    )
    return result, calls.read_text().splitlines()


def apt_calls(calls: list[str]) -> list[str]:
    return [c.removeprefix("apt-get ") for c in calls if c.startswith("apt-get ")]


def test_a_fresh_system_reads_the_package_lists_once_however_many_installs() -> None:
    for args in ((), ("--dev",)):
        with tempfile.TemporaryDirectory() as folder:
            result, calls = run_faked(Path(folder), *args)
        assert result.returncode == 0, result.stderr
        apt = apt_calls(calls)
        installs = [c for c in apt if c.split()[-1] != "update" and " install " in f" {c} "]
        assert len(installs) >= 2, apt
        assert [c for c in apt if c.startswith("update")] == ["update -qq"], apt
        assert apt[0].startswith("update"), "the lists are read before the first install"


def test_the_development_tools_come_with_dev_only() -> None:
    with tempfile.TemporaryDirectory() as folder:
        _, plain = run_faked(Path(folder))
    with tempfile.TemporaryDirectory() as folder:
        _, dev = run_faked(Path(folder), "--dev")
    plain_packages = " ".join(apt_calls(plain)).split()
    dev_packages = " ".join(apt_calls(dev)).split()
    for tool in ("shellcheck", "systemd", "debootstrap", "qemu-user-static", "binfmt-support"):
        assert tool not in plain_packages
        assert tool in dev_packages
    assert any("[dev,native]" in c for c in dev) and not any("[dev," in c for c in plain)


def test_pi_check_tools_are_not_asked_for_on_the_pi_itself(tmp_path: Path) -> None:
    result, calls = run_faked(tmp_path, "--dev", machine="aarch64", arch="arm64")
    assert result.returncode == 0, result.stderr
    packages = " ".join(apt_calls(calls)).split()
    assert "shellcheck" in packages and "qemu-user-static" not in packages


@pytest.mark.parametrize(
    ("machine", "arch"), [("armv7l", "armhf"), ("armv6l", "armhf"), ("aarch64", "armhf")]
)
def test_32_bit_arm_is_refused_at_once_with_what_to_install(
    tmp_path: Path, machine: str, arch: str
) -> None:
    # aarch64 with armhf: the 32-bit Raspberry Pi OS on a Pi 4's 64-bit kernel.
    result, calls = run_faked(tmp_path, machine=machine, arch=arch)
    assert result.returncode == 1
    assert "32-bit ARM" in result.stderr and "Kivy" in result.stderr
    assert "Raspberry Pi OS (64-bit)" in result.stderr
    assert apt_calls(calls) == [] and not (tmp_path / "project" / ".venv").exists()
