#!/usr/bin/env bash
# Set up Splendor Companion in ./.venv on Debian or Raspberry Pi OS, 64-bit (or any machine
# with Python >= 3.11; 32-bit ARM is refused). Idempotent: run it again after a `git pull`.
#   ./setup.sh          the app
#   ./setup.sh --dev    the app and the tools that run the test suite (and tools/pi-check)
#   ./setup.sh --club   the app and what a club's kiosk needs (docs/club.md: psycopg, openskill)
set -euo pipefail
cd "$(dirname "$0")"

say() { printf 'setup: %s\n' "$*"; }

usage() {
    cat <<'EOF'
usage: ./setup.sh [--dev | --club]
  (nothing)  set up the app in ./.venv
  --dev      the app and the tools that run the test suite
  --club     the app and what a kiosk of a club needs (docs/club.md)

On Debian 12 or 64-bit Raspberry Pi OS (Bookworm): installs what is missing with apt
(Python 3.11 or newer, the libraries Kivy's window needs; with --dev the test tools,
Chromium and its driver too), makes .venv, installs the project into it from PyPI and
compiles the rules engine with mypyc (where it cannot, the same engine runs from its
source). It needs the network, and sudo when apt has something to install. Run it again
after `git pull`: it installs only what is missing.

Then run the programs from .venv/bin/ (or `. .venv/bin/activate` once per shell):
  .venv/bin/splendor-companion              the app
  .venv/bin/splendor-companion --demo 4     a 4-player game ten rounds in
  .venv/bin/splendor-companion doctor       is this machine ready for the app?
  .venv/bin/python -m pytest                the tests (after ./setup.sh --dev)
EOF
}

dev=""
club=""
case "${1:-}" in
    "") ;;
    --dev) dev=1 ;;
    --club) club=1 ;;
    -h | --help) usage; exit 0 ;;
    *) printf 'setup: unknown option %s\n' "$1" >&2; usage >&2; exit 2 ;;
esac
[ $# -le 1 ] || { printf 'setup: one option at most\n' >&2; usage >&2; exit 2; }
extras="[native]"

# 32-bit ARM (Raspberry Pi OS 32-bit, armhf, also on a 64-bit kernel): refused before
# anything is installed. PyPI has no 32-bit ARM wheels of Kivy 2.3 nor python-evdev: pip
# would build them from source, which needs headers and hours. Every Pi from the 3 on
# (and the Zero 2 W) runs the 64-bit Raspberry Pi OS. (deploy.sh says the same.)
machine=$(uname -m)
arch=""
! command -v dpkg >/dev/null || arch=$(dpkg --print-architecture 2>/dev/null || true)
case "$machine/$arch" in
    armv6l/* | armv7l/* | armv8l/* | */armhf | */armel)
        printf 'setup: this is a 32-bit ARM system (%s): Splendor Companion needs a 64-bit one.
' "$machine${arch:+, $arch}" >&2
        printf 'setup: PyPI has no 32-bit ARM wheels of Kivy 2.3 (the touchscreen toolkit) nor of python-evdev, and building them on the Pi fails or takes hours.
' >&2
        printf 'setup: install Raspberry Pi OS (64-bit) with Raspberry Pi Imager (every Pi from the 3 on, and the Zero 2 W), then run ./setup.sh again.
' >&2
        exit 1
        ;;
esac
[ -n "$dev" ] && extras="[dev,native]"
[ -n "$club" ] && extras="[club,native]"

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=""
apt_install() {
    # Only what is missing, so that a second run (and CI) does not touch apt at all; the
    # package lists are read once a run, however many calls install something.
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null; then
        say "please install these packages with your system's package manager: ${missing[*]}"
        return 1
    fi
    say "installing ${missing[*]}"
    if [ -z "$apt_updated" ]; then
        as_root apt-get update -qq
        apt_updated=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

find_python() {
    for py in python3.13 python3.12 python3.11 python3; do
        if command -v "$py" >/dev/null &&
            "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$py"
            return 0
        fi
    done
    return 1
}

if ! py=$(find_python); then
    apt_install python3 python3-venv
    py=$(find_python) || { say "Python 3.11 or newer is needed; this system has $(python3 --version 2>&1)"; exit 1; }
fi
if ! "$py" -c 'import ensurepip, venv' 2>/dev/null; then
    apt_install python3-venv
fi

# What Kivy's bundled SDL2 needs to open a window (also headless, through Mesa).
apt_install libgl1 libegl1 libegl-mesa0 libgl1-mesa-dri libmtdev1
# python-evdev (USB keyboard RFID readers) compiles against the kernel's input headers
# where pip finds no wheel; with the system's Python it needs its headers too.
if [ "$(uname -s)" = Linux ]; then
    apt_install gcc linux-libc-dev || say "gcc or linux-libc-dev missing: evdev may not build"
    if ! "$py" -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        apt_install python3-dev || say "python3-dev missing: evdev may not build"
    fi
fi
if [ -n "$dev" ]; then
    # The test suite checks the kiosk's shell script and unit files with these; without
    # them those two checks are skipped, so a machine that refuses them still tests.
    apt_install shellcheck systemd || say "shellcheck or systemd-analyze missing: their checks will be skipped"
    # The web page's browser tests drive Debian's Chromium through its chromedriver.
    apt_install chromium chromium-driver || say "chromium or chromium-driver missing: the browser tests will be skipped"
    # The club's tests start a real PostgreSQL of their own (initdb and pg_ctl in a
    # temporary folder, tests/club/conftest.py): Debian's server, never started as a service.
    apt_install postgresql || say "postgresql missing: the club's tests will be skipped"
    # tools/pi-check: an arm64 Debian in emulation (on an x86-64 Debian or Ubuntu only).
    if [ "$machine" = x86_64 ] && [ "$(uname -s)" = Linux ]; then
        apt_install debootstrap qemu-user-static binfmt-support || say "debootstrap or qemu-user-static missing: tools/pi-check installs them itself"
    fi
fi

if [ ! -x .venv/bin/python ]; then
    say "creating .venv with $("$py" --version)"
    "$py" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".${extras}"
# The engine compiled with mypyc from the same source (README, "Speed and memory"); where
# it cannot be, the same engine runs as pure Python, slower.
if log=$(.venv/bin/python -m companion.engine.build 2>&1); then
    say "${log##*$'\n'}"
else
    printf '%s\n' "$log" | tail -n 15
    say "the engine was not compiled: it runs as pure Python (slower)"
fi
say "ready: .venv/bin/splendor-companion --help"
