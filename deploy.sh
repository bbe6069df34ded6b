#!/usr/bin/env bash
# deploy.sh: install Splendor Companion as a kiosk on Raspberry Pi OS (Bookworm, 64-bit;
# 32-bit is refused, see check_64bit) or any 64-bit Debian-like system: the app starts full screen on the touchscreen at boot
# and restarts by itself. Safe to run again (after `git pull`, to update; with options, to
# change a setting): what is already right is left alone. `./deploy.sh --help` for options.
set -euo pipefail

# Bash's own string operations rather than dirname, basename, sed, awk, cut or cat wherever
# they give the same bytes: on a Pi each of those commands is a process started, and a run
# asks hundreds of small questions.
script=${BASH_SOURCE[0]}
case $script in
    */*) script_dir=${script%/*} ;;
    *) script_dir=. ;;
esac
SCRIPT_DIR=$(cd "${script_dir:-/}" && pwd)
SCRIPT_PATH="$SCRIPT_DIR/${script##*/}"
ORIG_ARGS=("$@")

UNIT=splendor-companion.service
EXPORT_UNIT=splendor-companion-export@.service
# The table's web page for the phones around it (read-only; docs/web.md).
WEB_UNIT=splendor-companion-web.service
WEB_PORT=8080
UNIT_DIR=/etc/systemd/system
WANTS_LINK=$UNIT_DIR/multi-user.target.wants/$UNIT
ENV_FILE=/etc/default/splendor-companion
UDEV_RULE=/etc/udev/rules.d/99-splendor-companion-usb.rules
BACKLIGHT_RULE=/etc/udev/rules.d/99-splendor-companion-backlight.rules
REQUEST_PATH_UNIT=splendor-companion-export-request.path
REQUEST_UNIT=splendor-companion-export-request.service
COMMAND_LINK=/usr/local/bin/splendor-companion
DATA_DIR=/var/lib/splendor-companion
CACHE_DIR=/var/cache/splendor-companion
KIVY_HOME=$DATA_DIR/kivy
KIVY_CONFIG=$KIVY_HOME/config.ini
DEFAULT_USER=splendor
DEFAULT_PREFIX=/opt/splendor-companion
# The groups the app may need, in this order: display, GPU, touchscreen, serial port
# (RFID reader), GPIO (buttons, LEDs). Those missing on the system are left out.
WANTED_GROUPS=(video render input dialout gpio)
# Kivy's wheel brings its own SDL2 on 64-bit; the 32-bit wheel (piwheels) uses Debian's.
# gcc, python3-dev and linux-libc-dev: python-evdev (USB keyboard readers) builds from
# source where no wheel is at hand.
APT_PACKAGES=(
    python3 python3-venv
    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
    libgl1 libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri libgbm1 libdrm2
    libmtdev1
    gcc python3-dev linux-libc-dev
)
# The reader kinds, from the project's one list (hardware/readers.py): read, not run, so
# that no Python is needed before the packages are in.
READER_KINDS=()
reader_kind='^ *ReaderKind\("([a-z0-9]*)"'
while IFS= read -r reader_line || [ -n "$reader_line" ]; do
    [[ ! $reader_line =~ $reader_kind ]] || READER_KINDS+=("${BASH_REMATCH[1]}")
done <"$SCRIPT_DIR/hardware/readers.py" || true # as sed did: said, not fatal
printf -v READER_LIST '%s, ' "${READER_KINDS[@]}"
READER_LIST=${READER_LIST%, }

# heredoc: the here-document on stdin, printed as it is (cat without starting cat).
heredoc() {
    local text
    IFS= read -r -d '' text || true # read -d '' ends at the end of the text: status 1
    printf '%s' "$text"
}

usage() {
    local text
    text=$(heredoc <<'EOF'
Usage: ./deploy.sh [OPTIONS]

Installs Splendor Companion as a kiosk: apt packages (SDL2 with KMS/DRM, Mesa, mtdev),
a virtual environment with the project in PREFIX/venv, the service user and its groups
(video, render, input, dialout, gpio), Kivy's touchscreen configuration, the systemd
unit (enabled and started), the table's web page for phones (its own unit, read-only,
on port 8080) and the USB-stick export hook. Run as root (it uses sudo
when it is not). Settings not given keep the value of the previous run.

  --user NAME          the user the app runs as (default: splendor, a system user
                       created if missing, whose home is /var/lib/splendor-companion)
  --prefix DIR         where the virtual environment goes (default: /opt/splendor-companion)
  --display NAME       the screen, which sets the three options below for it:
                       7inch (the official 7-inch, 800x480, landscape), 7inch-portrait
                       (the same stood up: 480x800), touch2 (Touch Display 2, 5- or
                       7-inch, 720x1280, portrait), touch2-landscape (the same laid
                       down: 1280x720), hdmi (a monitor, TV or HDMI panel, as it comes),
                       spi35 (a 3.5-inch SPI screen on the GPIO pins, 480x320, its
                       resistive touch read as a single-touch ADS7846)
  --rotation TURN      0 (default: the panel's own orientation, read from its mode at
                       each start), 90, 180 or 270 (a turn of it), or landscape or
                       portrait (a quarter turn when the panel's own shape is the
                       other); Kivy turns the picture and the touches together
  --touch-rotation DEG 0, 90, 180 or 270: the touchscreen's axes are turned from the
                       panel's picture (taps land turned while the picture is right),
                       default 0
  --touch-invert AXES  none, x, y or xy: mirror the touchscreen's axes (a panel whose
                       touches land mirrored), default none
  --rfid-port DEVICE   the RFID reader's port: uart (the GPIO 14/15 serial port of this
                       board: /dev/ttyAMA0 on a Pi 5, /dev/serial0 before), a device
                       under /dev (/dev/ttyUSB0, /dev/input/by-id/...-event-kbd), or
                       none; the app reads it as SPLENDOR_RFID_PORT
  --rfid-reader KIND   READER_LIST (the app's --reader), or none for
                       the app's default; the app reads it as SPLENDOR_RFID_READER
  --rfid-baud N        the reader's speed, or default (the reader's own); the app reads
                       it as SPLENDOR_RFID_BAUD
  --no-usb-export      do not install the hook that exports games to a USB stick
  --no-web             do not serve the table's web page to the phones around it
                       (--web serves it again; the app's setting "The table on
                       phones" turns it off too)
  --club               also install what a club's kiosk needs (psycopg, openskill:
                       docs/club.md), kept by the next runs; --no-club installs the
                       project without them again (they stay, unused)
  --no-start           install and enable, but start nothing and reload neither systemd
                       nor udev (an image being prepared, a chroot: the kiosk starts at
                       the next boot); the default where systemd is not running
  --dry-run            print every action, do none of them
  --uninstall          remove what deploy.sh installed; keeps the games
                       (/var/lib/splendor-companion) and the apt packages
  --purge-data         with --uninstall: also delete the games, Kivy's configuration
                       and the service user if deploy.sh created it
  --source DIR         the project to install (default: this script's folder)
  --python PATH        the Python (>= 3.11) for the virtual environment (default:
                       /usr/bin/python3, else the newest python3.X on PATH)
  --min-free-mb N      free space needed at the prefix (default: 600)
  --root DIR           act on a copy of the system under DIR (tests): every path is
                       prefixed by DIR, files are written there, system commands
                       (apt-get, useradd, usermod, pip, systemctl, ...) are only printed
  -h, --help           this text

Output: one line per action, starting with
  PLAN       an action --dry-run would do (or, with --root, a system command not run)
  DO         an action being done
  UNCHANGED  something already right
  CHECK      a check passed; NOTE: something to know
Exit status: 0 done, 1 an action failed, 2 a wrong option, 3 a check failed (nothing
was changed).
EOF
    )
    say "${text/READER_LIST/"$READER_LIST"}"
}

say() { printf '%s\n' "$*"; }
note() { say "NOTE $*"; }
die() {
    printf 'deploy.sh: %s\n' "$1" >&2
    exit "${2:-1}"
}
usage_error() { die "$1 (see ./deploy.sh --help)" 2; }
check_failed() { die "$1" 3; }

# ---------------------------------------------------------------- options

OPT_USER="" OPT_PREFIX="" OPT_ROTATION="" OPT_TOUCH_INVERT="" OPT_RFID_PORT="" OPT_RFID_READER=""
OPT_PANEL="" OPT_TOUCH_ROTATION=""
OPT_RFID_BAUD=""
OPT_USB=""
OPT_WEB=""
OPT_CLUB=""
NO_START=0 NO_START_WHY=--no-start
DRY_RUN=0 UNINSTALL=0 PURGE=0 ROOT="" SOURCE="$SCRIPT_DIR" PYTHON="" MIN_FREE_MB=600

need_value() {
    [ "$2" -ge 2 ] || usage_error "$1 needs a value"
}

while [ $# -gt 0 ]; do
    case $1 in
        --user) need_value "$1" $#; OPT_USER=$2; shift 2 ;;
        --prefix) need_value "$1" $#; OPT_PREFIX=$2; shift 2 ;;
        --display) need_value "$1" $#; OPT_PANEL=$2; shift 2 ;;
        --rotation) need_value "$1" $#; OPT_ROTATION=$2; shift 2 ;;
        --touch-rotation) need_value "$1" $#; OPT_TOUCH_ROTATION=$2; shift 2 ;;
        --touch-invert) need_value "$1" $#; OPT_TOUCH_INVERT=$2; shift 2 ;;
        --rfid-port) need_value "$1" $#; OPT_RFID_PORT=$2; shift 2 ;;
        --rfid-reader) need_value "$1" $#; OPT_RFID_READER=$2; shift 2 ;;
        --rfid-baud) need_value "$1" $#; OPT_RFID_BAUD=$2; shift 2 ;;
        --no-usb-export) OPT_USB=no; shift ;;
        --no-web) OPT_WEB=no; shift ;;
        --web) OPT_WEB=yes; shift ;;
        --club) OPT_CLUB=yes; shift ;;
        --no-club) OPT_CLUB=no; shift ;;
        --no-start) NO_START=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --uninstall) UNINSTALL=1; shift ;;
        --purge-data) PURGE=1; shift ;;
        --source) need_value "$1" $#; SOURCE=$2; shift 2 ;;
        --python) need_value "$1" $#; PYTHON=$2; shift 2 ;;
        --min-free-mb) need_value "$1" $#; MIN_FREE_MB=$2; shift 2 ;;
        --root) need_value "$1" $#; ROOT=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) usage_error "unknown option: $1" ;;
    esac
done

[ "$PURGE" -eq 0 ] || [ "$UNINSTALL" -eq 1 ] || usage_error "--purge-data goes with --uninstall"
[[ $MIN_FREE_MB =~ ^[0-9]+$ ]] || usage_error "--min-free-mb: a number of megabytes"
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || usage_error "--root: $ROOT is not a folder"
    ROOT=$(cd "$ROOT" && pwd)
    [ "$ROOT" != / ] || ROOT=""
fi

# Relative paths from the options, then work from / (commands run as the service user
# may not enter the caller's folder).
[ ! -d "$SOURCE" ] || SOURCE=$(cd "$SOURCE" && pwd)
case $PYTHON in
    */*)
        if [ -e "$PYTHON" ]; then
            # Its folder made absolute (what dirname and basename would give).
            while [[ $PYTHON == ?*/ ]]; do PYTHON=${PYTHON%/}; done
            python_dir=${PYTHON%/*} python_name=${PYTHON##*/}
            PYTHON="$(cd "${python_dir:-/}" && pwd)/${python_name:-/}"
        fi
        ;;
esac
cd /

# real: act on this system; root: files under --root, commands printed; dry: nothing.
if [ "$DRY_RUN" -eq 1 ]; then
    MODE=dry
elif [ -n "$ROOT" ]; then
    MODE=root
else
    MODE=real
fi
# No systemd running (a chroot, a container): nothing to start or reload, the units are
# read at the next boot. sd_booted(3)'s test.
if [ "$MODE" = real ] && [ "$NO_START" -eq 0 ] && [ ! -d /run/systemd/system ]; then
    NO_START=1 NO_START_WHY="systemd is not running here"
fi

# read_values FILE ARRAY: the KEY=value lines of FILE into the associative ARRAY, the last
# one of a key winning, as a shell reading it would (FILE is never sourced).
# shellcheck disable=SC2034,SC2004 # values is the caller's associative array, by name
read_values() {
    local -n values=$2
    local line key
    while IFS= read -r line || [ -n "$line" ]; do
        key=${line%%=*}
        [[ $line != *=* || -z $key ]] || values[$key]=${line#*=}
    done <"$1"
}

# The previous run's settings, from the environment file it wrote.
declare -A PREVIOUS=()
[ ! -f "$ROOT$ENV_FILE" ] || read_values "$ROOT$ENV_FILE" PREVIOUS
PREV_USER=${PREVIOUS[SPLENDOR_USER]-}
PREV_USER_CREATED=${PREVIOUS[SPLENDOR_USER_CREATED]-}
PREV_PREFIX=${PREVIOUS[SPLENDOR_PREFIX]-}
PREV_PANEL=${PREVIOUS[SPLENDOR_DISPLAY]-}
PREV_ROTATION=${PREVIOUS[SPLENDOR_ROTATION]-}
PREV_TOUCH_ROTATION=${PREVIOUS[SPLENDOR_TOUCH_ROTATION]-}
PREV_TOUCH_INVERT=${PREVIOUS[SPLENDOR_TOUCH_INVERT]-}
PREV_RFID_PORT=${PREVIOUS[SPLENDOR_RFID_PORT]-}
PREV_RFID_READER=${PREVIOUS[SPLENDOR_RFID_READER]-}
PREV_RFID_BAUD=${PREVIOUS[SPLENDOR_RFID_BAUD]-}
PREV_USB=${PREVIOUS[SPLENDOR_USB_EXPORT]-}
PREV_WEB=${PREVIOUS[SPLENDOR_WEB]-}
PREV_CLUB=${PREVIOUS[SPLENDOR_CLUB]-}
PREV_GROUPS_ADDED=${PREVIOUS[SPLENDOR_GROUPS_ADDED]-}

# Each setting: the option if given, else the previous run's value, else the default.
SERVICE_USER=${OPT_USER:-${PREV_USER:-$DEFAULT_USER}}
PREFIX=${OPT_PREFIX:-${PREV_PREFIX:-$DEFAULT_PREFIX}}

# The screens --display knows: NAME -> "rotation touch-rotation touch-invert touch-input".
# The touch input is mtdev (a multitouch panel: the DSI ones, USB touch of HDMI panels),
# or ads7846: the resistive single-touch controller of the 3.5-inch SPI screens, which
# has no multitouch axes for mtdev or probesysfs' default to find.
DISPLAYS="7inch, 7inch-portrait, touch2, touch2-landscape, hdmi or spi35"
display_preset() {
    case $1 in
        7inch | touch2 | hdmi) say "0 0 none mtdev" ;;
        7inch-portrait | touch2-landscape) say "90 0 none mtdev" ;;
        spi35) say "0 0 none ads7846" ;;
        *) return 1 ;;
    esac
}
PANEL=${OPT_PANEL:-$PREV_PANEL}
PRESET_ROTATION="" PRESET_TOUCH_ROTATION="" PRESET_TOUCH_INVERT="" TOUCH_INPUT=mtdev
if [ -n "$PANEL" ]; then
    preset=$(display_preset "$PANEL") || usage_error "--display: $DISPLAYS"
    read -r PRESET_ROTATION PRESET_TOUCH_ROTATION PRESET_TOUCH_INVERT TOUCH_INPUT <<<"$preset"
fi
if [ -n "$OPT_PANEL" ]; then
    # A display named now: its settings, but for the options given with it.
    PREV_ROTATION=$PRESET_ROTATION PREV_TOUCH_ROTATION=$PRESET_TOUCH_ROTATION
    PREV_TOUCH_INVERT=$PRESET_TOUCH_INVERT
fi
ROTATION=${OPT_ROTATION:-${PREV_ROTATION:-0}}
TOUCH_ROTATION=${OPT_TOUCH_ROTATION:-${PREV_TOUCH_ROTATION:-0}}
TOUCH_INVERT=${OPT_TOUCH_INVERT:-${PREV_TOUCH_INVERT:-none}}
RFID_PORT=${OPT_RFID_PORT:-${PREV_RFID_PORT:-none}}
RFID_READER=${OPT_RFID_READER:-${PREV_RFID_READER:-none}}
RFID_BAUD=${OPT_RFID_BAUD:-${PREV_RFID_BAUD:-default}}
USB_EXPORT=${OPT_USB:-${PREV_USB:-yes}}
WEB=${OPT_WEB:-${PREV_WEB:-yes}}
CLUB=${OPT_CLUB:-${PREV_CLUB:-no}}

# normalise PATH: the absolute PATH without ".", ".." and repeated slashes, worked out on
# the letters alone (no symlink followed, nothing needs to exist), so that the guards
# below see the folder it names: /./etc, /etc// and /opt/../etc are /etc, /// is /.
normalise() {
    local part out=()
    local IFS=/
    for part in $1; do
        case $part in
            "" | .) ;;
            ..) [ ${#out[@]} -eq 0 ] || unset 'out[${#out[@]}-1]' ;;
            *) out+=("$part") ;;
        esac
    done
    printf '/%s\n' "${out[*]}"
}

# The GPIO 14/15 serial port of this board: a Pi 5's /dev/serial0 is its debug connector.
pi_model() { { tr -d '\0' <"$ROOT/proc/device-tree/model"; } 2>/dev/null || true; }
gpio_uart() {
    case $(pi_model) in
        "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) say /dev/ttyAMA0 ;;
        *) say /dev/serial0 ;;
    esac
}

[[ $SERVICE_USER =~ ^[a-z_][a-z0-9_-]{0,31}$ ]] ||
    usage_error "--user: '$SERVICE_USER' is not a valid user name"
[ "$SERVICE_USER" != root ] || usage_error "--user: the app must not run as root"
[[ $PREFIX =~ ^/[A-Za-z0-9._/-]*$ && $PREFIX != *..* ]] ||
    usage_error "--prefix: '$PREFIX' must be an absolute path of letters, digits, . _ - /"
PREFIX=$(normalise "$PREFIX")
system_folder() {
    case $1 in
        / | /bin | /boot | /boot/* | /dev | /dev/* | /etc | /etc/* | /home | /lib | /lib64 | /opt | /proc | /proc/* | /root | /run | /sbin | /srv | /sys | /sys/* | /tmp | /usr | /usr/* | /var | /var/lib | /var/lib/splendor-companion | /var/lib/splendor-companion/*) return 0 ;;
    esac
    return 1
}
! system_folder "$PREFIX" || usage_error "--prefix: '$PREFIX' is a system folder; use a folder of its own"
# ... and the folder it really is, through symlinks (/opt/app -> /etc).
REAL_PREFIX=$(realpath -m -- "$ROOT$PREFIX")
REAL_PREFIX=$(normalise "${REAL_PREFIX#"$ROOT"}")
! system_folder "$REAL_PREFIX" ||
    usage_error "--prefix: '$PREFIX' leads to $REAL_PREFIX, a system folder; use a folder of its own"
case $ROTATION in
    0 | 90 | 180 | 270 | landscape | portrait) ;;
    *) usage_error "--rotation: 0, 90, 180, 270, landscape or portrait" ;;
esac
case $TOUCH_ROTATION in 0 | 90 | 180 | 270) ;; *) usage_error "--touch-rotation: 0, 90, 180 or 270" ;; esac
case $TOUCH_INVERT in none | x | y | xy) ;; *) usage_error "--touch-invert: none, x, y or xy" ;; esac
[ "$RFID_PORT" != uart ] || RFID_PORT=$(gpio_uart)
if [ "$RFID_PORT" != none ]; then
    [[ $RFID_PORT =~ ^/[A-Za-z0-9._/:-]+$ ]] || usage_error "--rfid-port: a device like /dev/ttyUSB0, uart, or none"
    RFID_PORT=$(normalise "$RFID_PORT")
    [[ $RFID_PORT == /dev/?* ]] ||
        usage_error "--rfid-port: $RFID_PORT is not under /dev: a device like /dev/ttyUSB0, uart, or none"
fi
case " none ${READER_KINDS[*]} " in
    *" $RFID_READER "*) ;;
    *) usage_error "--rfid-reader: $READER_LIST or none" ;;
esac
[ "$RFID_BAUD" = default ] || [[ $RFID_BAUD =~ ^[1-9][0-9]{2,6}$ ]] ||
    usage_error "--rfid-baud: a speed like 9600 or 115200, or default"
VENV=$PREFIX/venv
APP=$VENV/bin/splendor-companion
STAMP=$PREFIX/.installed-source
EXPORT_HELPER=$PREFIX/bin/splendor-companion-usb-export

# ---------------------------------------------------------------- actions

CHANGED=0 # something the running app depends on changed: restart it
WEB_CHANGED=0 # the web page's unit changed: restart it

# quoted ARGS...: the command as one could type it.
quoted() {
    local arg out=()
    for arg in "$@"; do
        if [[ $arg =~ ^[A-Za-z0-9_./=:,@%+-]+$ ]]; then out+=("$arg"); else out+=("'$arg'"); fi
    done
    say "${out[*]}"
}

# run CMD...: a system command; printed, and run only on the real system.
# live COMMAND...: an action on the running system (start a service, reload systemd or
# udev): left out with --no-start, said in a NOTE; what is installed is read at boot.
live() {
    if [ "$NO_START" -eq 1 ]; then
        note "not run ($NO_START_WHY): $(quoted "$@")"
        return 0
    fi
    run "$@"
}

# now_or_at_boot enable|disable UNIT: systemctl enable --now (disable --now), or only
# enable (disable) with --no-start.
now_or_at_boot() {
    if [ "$NO_START" -eq 1 ]; then run systemctl "$1" "$2"; else run systemctl "$1" --now "$2"; fi
}

run() {
    if [ "$MODE" = real ]; then
        say "DO $(quoted "$@")"
        "$@" || die "failed: $(quoted "$@")"
    else
        say "PLAN $(quoted "$@")"
    fi
}

# as_user CMD...: run a command as the service user.
as_user() {
    run runuser -u "$SERVICE_USER" -- "$@"
}

owner_of() { stat -c %U:%G "$1"; }

# file_is FILE TEXT: FILE holds exactly TEXT, byte for byte (what cmp would say). read -d ''
# stops at a NUL byte, which TEXT (a shell string) cannot hold: a NUL found means another
# content; the end of the file reached (status 1) means all of it was read.
file_is() {
    local found
    ! IFS= read -r -d '' found <"$1" && [ "$found" = "$2" ]
}

# write_file PATH MODE OWNER CONTENT [blank]: write PATH (under --root) when its content,
# mode or owner differs. OWNER is user:group or "-" for root:root. "blank" ends the file
# with an empty line, as Python's configparser does. Sets WROTE=1 when it acts.
write_file() {
    local path=$1 mode=$2 owner=$3 content=$4 target="$ROOT$1" tmp mode_owner
    [ "$owner" != - ] || owner=root:root
    [ "${5:-}" != blank ] || content+=$'\n'
    WROTE=0
    # Never through a link (the kiosk's config.ini is in a folder its user owns): root
    # would write, chmod or chown whatever it points at.
    if [ -L "$target" ] || { [ -e "$target" ] && [ ! -f "$target" ]; }; then
        check_failed "$path is a link or not a file: remove it (nothing was written), then run deploy.sh again"
    fi
    if [ -f "$target" ] && file_is "$target" "$content"$'\n'; then
        mode_owner=$(stat -c '%a %U:%G' "$target") # "644 root:root": one stat for both
        if [ "${mode_owner%% *}" != "$mode" ]; then
            WROTE=1
            if [ "$MODE" = dry ]; then say "PLAN chmod $mode $path"; else
                say "DO chmod $mode $path"
                chmod "$mode" "$target"
            fi
        fi
        if [ "$MODE" != root ] && [ "${mode_owner#* }" != "$owner" ]; then
            WROTE=1
            run chown "$owner" "$path"
        fi
        [ "$WROTE" -eq 1 ] || say "UNCHANGED $path"
        return 0
    fi
    WROTE=1
    if [ "$MODE" = dry ]; then
        say "PLAN write $path"
        return 0
    fi
    say "DO write $path"
    [ -d "${target%/*}" ] || mkdir -p "${target%/*}"
    tmp=$(mktemp "$target.XXXXXX")
    printf '%s\n' "$content" >"$tmp"
    chmod "$mode" "$tmp"
    [ "$MODE" = root ] || chown "$owner" "$tmp"
    mv -fT "$tmp" "$target"
}

# make_dir PATH MODE OWNER: create a folder (and set its owner) when needed.
make_dir() {
    local path=$1 mode=$2 owner=$3 target="$ROOT$1"
    [ "$owner" != - ] || owner=root:root
    if [ ! -d "$target" ]; then
        if [ "$MODE" = dry ]; then say "PLAN mkdir $path"; return 0; fi
        say "DO mkdir $path"
        mkdir -p "$target"
        chmod "$mode" "$target"
        [ "$MODE" = root ] || chown "$owner" "$target"
        return 0
    fi
    if [ "$MODE" != root ] && [ "$(owner_of "$target")" != "$owner" ]; then
        run chown "$owner" "$path"
    else
        say "UNCHANGED $path"
    fi
}

# remove PATH: remove a file or a folder (under --root) when it is there.
remove() {
    local path=$1 target="$ROOT$1"
    case $path in /?*/?*) ;; *) die "refusing to remove '$path'" ;; esac
    if [ ! -e "$target" ] && [ ! -L "$target" ]; then
        say "UNCHANGED $path (not there)"
        return 0
    fi
    if [ "$MODE" = dry ]; then say "PLAN remove $path"; return 0; fi
    say "DO remove $path"
    rm -rf -- "$target"
}

remove_if_empty() {
    local path=$1 target="$ROOT$1"
    [ -d "$target" ] || return 0
    if [ -n "$(ls -A "$target")" ]; then
        # In a dry run it may be about to be emptied.
        [ "$MODE" != dry ] || say "PLAN remove $path (when empty)"
        [ "$MODE" = dry ] || note "$path is not empty: kept"
        return 0
    fi
    if [ "$MODE" = dry ]; then say "PLAN remove $path"; return 0; fi
    say "DO remove $path"
    rmdir -- "$target"
}

# ---------------------------------------------------------------- the system's state
# Read from files, so that --root works on a copy: /var/lib/dpkg/status, /etc/passwd,
# /etc/group (getent on the real system, for users from elsewhere), the enable symlink.

db_line() { # db key: DB_LINE is the line of /etc/db for key (status 1: none)
    DB_LINE=""
    if [ "$MODE" = real ] || { [ "$MODE" = dry ] && [ -z "$ROOT" ]; }; then
        DB_LINE=$(getent "$1" "$2")
        return
    fi
    [ -f "$ROOT/etc/$1" ] || return 1
    local line
    # The first line whose first field (up to a ":", or the whole line) is key.
    while IFS= read -r line || [ -n "$line" ]; do
        if [[ $line == "$2" || $line == "$2":* ]]; then
            DB_LINE=$line
            return 0
        fi
    done <"$ROOT/etc/$1"
    return 1
}
user_exists() { db_line passwd "$1"; }
group_exists() { db_line group "$1"; }
user_in_group() { # user group
    local gid members primary
    db_line group "$2" || return 1
    IFS=: read -r _ _ gid members _ <<<"$DB_LINE"
    [[ ,$members, == *,"$1",* ]] && return 0
    db_line passwd "$1" || return 1
    IFS=: read -r _ _ _ primary _ <<<"$DB_LINE"
    [ "$primary" = "$gid" ]
}

installed_packages() { # the names of the installed packages, one a line
    local status="$ROOT/var/lib/dpkg/status"
    [ -f "$status" ] || return 0
    awk 'BEGIN { RS = ""; FS = "\n" }
        { name = ""; st = ""
          for (i = 1; i <= NF; i++) {
              if ($i ~ /^Package: /) name = substr($i, 10)
              if ($i ~ /^Status: /) st = substr($i, 9)
          }
          if (st ~ / installed$/) print name }' "$status"
}

unit_enabled() { [ -L "$ROOT$WANTS_LINK" ] || [ -e "$ROOT$WANTS_LINK" ]; }

# ---------------------------------------------------------------- checks

check_system() {
    [ -f "$ROOT/etc/os-release" ] ||
        check_failed "cannot tell which system this is: $ROOT/etc/os-release is missing. deploy.sh is for Raspberry Pi OS or another Debian-like system."
    local id id_like name
    local -A os_release=()
    read_values "$ROOT/etc/os-release" os_release
    # The values without their quotes (every ' and " in them).
    id=${os_release[ID]-} id=${id//[\"\']/}
    id_like=${os_release[ID_LIKE]-} id_like=${id_like//[\"\']/}
    name=${os_release[PRETTY_NAME]-} name=${name//[\"\']/}
    if [[ " $id $id_like " != *" debian "* ]]; then
        check_failed "this is ${name:-$id}, not a Debian-like system (ID=$id, ID_LIKE=$id_like in /etc/os-release). deploy.sh installs with apt: use Raspberry Pi OS (Bookworm) or Debian 12 or newer."
    fi
    say "CHECK system: ${name:-$id} (Debian-like)"
}

# 32-bit ARM (Raspberry Pi OS 32-bit, armhf, also on a 64-bit kernel): refused before
# anything is done. PyPI has no 32-bit ARM wheels of Kivy 2.3 nor python-evdev: pip would
# build them from source, which needs headers and hours. Every Pi from the 3 on (and the
# Zero 2 W) runs the 64-bit Raspberry Pi OS.
check_64bit() {
    local machine arch=""
    machine=$(uname -m)
    ! command -v dpkg >/dev/null || arch=$(dpkg --print-architecture 2>/dev/null)
    case "$machine/$arch" in
        armv6l/* | armv7l/* | armv8l/* | */armhf | */armel)
            check_failed "this is a 32-bit ARM system ($machine${arch:+, $arch}): Splendor Companion needs a 64-bit one. PyPI has no 32-bit ARM wheels of Kivy 2.3 (the touchscreen toolkit) nor of python-evdev, and building them on the Pi fails or takes hours. Install Raspberry Pi OS Lite (64-bit) with Raspberry Pi Imager (every Pi from the 3 on, and the Zero 2 W), then run deploy.sh again."
            ;;
    esac
}

python_version() { # PATH: "3.11" or nothing
    # -S: without the site module, whose imports are most of the time a bare start takes.
    "$1" -S -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true
}

version_ok() { # "3.11" >= 3.11?
    local major=${1%%.*} minor=${1#*.}
    [[ $major =~ ^[0-9]+$ && $minor =~ ^[0-9]+$ ]] || return 1
    [ "$major" -gt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -ge 11 ]; }
}

check_python() {
    local candidate version
    if [ -z "$PYTHON" ]; then
        # The system's Python first: the kiosk should not depend on a user's own Python.
        for candidate in /usr/bin/python3 python3.13 python3.12 python3.11 python3; do
            command -v "$candidate" >/dev/null || continue
            version=$(python_version "$candidate") # asked once: it starts a Python
            if version_ok "$version"; then
                PYTHON=$(command -v "$candidate")
                break
            fi
        done
        [ -n "$PYTHON" ] || check_failed "Python 3.11 or newer is needed; this system has $(python3 --version 2>&1 || echo 'no python3'). Raspberry Pi OS Bookworm (or Debian 12) has it."
    else
        version=$(python_version "$PYTHON")
    fi
    version_ok "$version" ||
        check_failed "Python 3.11 or newer is needed; $PYTHON is ${version:-not a working Python}. Raspberry Pi OS Bookworm (or Debian 12) has it."
    say "CHECK python: $PYTHON ($version)"
}

check_disk() {
    local dir="$ROOT$PREFIX" df_out free_kb=""
    while [ ! -d "$dir" ]; do
        dir=${dir%/*} dir=${dir:-/} # dirname's answer for these absolute paths
    done
    df_out=$(df -Pk "$dir")
    # The 4th field of the 2nd line (the first is the header).
    { read -r _ && read -r _ _ _ free_kb _; } <<<"$df_out" || true
    [[ $free_kb =~ ^[0-9]+$ ]] || check_failed "cannot tell the free space at $PREFIX (df $dir)"
    if [ $((free_kb / 1024)) -lt "$MIN_FREE_MB" ]; then
        check_failed "not enough free disk at $PREFIX: $((free_kb / 1024)) MB free, $MIN_FREE_MB MB needed. Free some space (sudo apt-get clean) or use a bigger card."
    fi
    say "CHECK disk: $((free_kb / 1024)) MB free at $PREFIX (>= $MIN_FREE_MB MB)"
}

check_source() {
    [ -f "$SOURCE/pyproject.toml" ] ||
        check_failed "--source: $SOURCE has no pyproject.toml: it is not the Splendor Companion project"
    SOURCE=$(cd "$SOURCE" && pwd)
    local template
    for template in splendor-companion.service "$EXPORT_UNIT" splendor-companion-usb-export \
        99-splendor-companion-usb.rules 99-splendor-companion-backlight.rules \
        splendor-companion-command "$REQUEST_UNIT" "$REQUEST_PATH_UNIT" "$WEB_UNIT"; do
        [ -f "$SCRIPT_DIR/systemd/$template" ] ||
            check_failed "$SCRIPT_DIR/systemd/$template is missing: is this a complete checkout?"
    done
    say "CHECK source: $SOURCE"
}

check_tools() {
    [ "$MODE" = real ] || return 0
    local tool
    for tool in apt-get systemctl useradd usermod runuser; do
        command -v "$tool" >/dev/null || check_failed "$tool is missing: deploy.sh needs a systemd-based Debian-like system"
    done
}

# first_match REGEX FILE [ALSO]: FOUND is the first text on a line of FILE that the
# extended REGEX matches and, if given, ALSO matches too: grep -Eo REGEX | grep -E ALSO |
# head -n 1, without starting them. Status 1 when there is none.
first_match() {
    local line
    FOUND=""
    while IFS= read -r line || [ -n "$line" ]; do
        [[ $line =~ $1 ]] || continue
        line=${BASH_REMATCH[0]}
        if [ $# -lt 3 ] || [[ $line =~ $3 ]]; then
            FOUND=$line
            return 0
        fi
    done <"$2"
    return 1
}

# Not errors: things that give a black screen, said before they do.
display_notes() {
    local config
    for config in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        [ -f "$config" ] || continue
        if ! first_match '^[[:space:]]*dtoverlay=vc4-(f)?kms-v3d' "$config"; then
            note "${config#"$ROOT"} has no dtoverlay=vc4-kms-v3d: the app needs the KMS display driver (add the line, reboot)"
        fi
        break
    done
    if [ -e "$ROOT/etc/systemd/system/display-manager.service" ]; then
        note "a desktop starts at boot and holds the display: choose the console (sudo raspi-config: System Options, Boot / Auto Login, Console) and reboot"
    fi
    screen_notes
    turning_notes
}

# The screen connected now and how the app will lay out on it, said by the app's own
# reading of it (ui/display.py, the standard library only); nothing when none is.
screen_notes() {
    local said=""
    # Without the folder (no KMS driver) the app's reading finds no screen: no Python
    # started to say nothing.
    if [ -d "$ROOT/sys/class/drm" ]; then
        said=$(PYTHONPATH="$SCRIPT_DIR" "$PYTHON" -P -m ui.display --rotation "$ROTATION" \
            "$ROOT/sys/class/drm" 2>/dev/null) || said=""
    fi
    [ -z "$said" ] || note "the screen: $said"
    # SDL draws through DRM: a screen with only an fbtft driver (a /dev/fb1) stays black.
    if [ "$PANEL" = spi35 ] && [ -e "$ROOT/sys/class/graphics/fb1" ] &&
        ! compgen -G "$ROOT/sys/class/drm/card*-SPI-*" >/dev/null; then
        note "the SPI screen has a framebuffer driver only (/dev/fb1), which the app cannot draw on: use its DRM driver (see docs/install-pi.md, 3.5-inch SPI screens)"
    fi
}

# Turns made by the kernel or the firmware, which the app does not see: they turn the
# console or the touches alone, and with the app's own turn the taps land elsewhere.
turning_notes() {
    local config="" file found
    for file in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        [ -f "$file" ] && config=$file && break
    done
    if [ -n "$config" ]; then
        first_match '^[[:space:]]*(display_rotate|display_lcd_rotate|lcd_rotate|display_hdmi_rotate)=[1-9][0-9]*' "$config" || true
        found=${FOUND//[[:space:]]/}
        [ -z "$found" ] ||
            note "${config#"$ROOT"} has $found: the KMS display driver does not use it; remove it and turn the app with ./deploy.sh --rotation"
        first_match '^[[:space:]]*dtoverlay=vc4-kms-dsi-[^#[:space:]]*' "$config" \
            ',(swapxy|invx|invy)(=1)?(,|$)' || true
        found=${FOUND//[[:space:]]/}
        [ -z "$found" ] ||
            note "${config#"$ROOT"} turns or mirrors the touches in the kernel ($found): the app turns them with the picture, so taps land elsewhere; remove swapxy, invx and invy (./deploy.sh --touch-rotation and --touch-invert do it in the app)"
    fi
    file="$ROOT/boot/firmware/cmdline.txt"
    [ -f "$file" ] || file="$ROOT/boot/cmdline.txt"
    if [ -f "$file" ]; then
        first_match 'video=[^[:space:]]*(rotate=[0-9]+|panel_orientation=[a-z_]+)[^[:space:]]*' "$file" || true
        found=$FOUND
        [ -z "$found" ] ||
            note "${file#"$ROOT"} turns the screen ($found): that turns the console; the app turns itself (./deploy.sh --rotation) and the two together can turn the picture without its touches: remove it if taps land wrong"
    fi
}

uart0_console() {
    local config
    for config in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        [ -f "$config" ] || continue
        first_match '^[[:space:]]*dtparam=uart0_console(=on)?[[:space:]]*$' "$config"
        return
    done
    return 1
}

# The reader's serial port: the board's own, and no console on it.
serial_notes() {
    [ "$RFID_PORT" != none ] || return 0
    local model cmdline console device uart
    model=$(pi_model)
    uart=$(gpio_uart)
    case $model in
        "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*)
            if [ "$RFID_PORT" = /dev/serial0 ]; then
                note "on a Pi 5, /dev/serial0 is the 3-pin debug connector, not GPIO 14/15: a reader on the GPIO pins is /dev/ttyAMA0 (./deploy.sh --rfid-port uart)"
            fi ;;
    esac
    for cmdline in "$ROOT/boot/firmware/cmdline.txt" "$ROOT/boot/cmdline.txt"; do
        [ -f "$cmdline" ] || continue
        for console in $(tr ' ' '\n' <"$cmdline" | sed -n 's/^console=\([^,]*\).*/\1/p'); do
            device=/dev/$console
            if [ "$console" = serial0 ]; then
                # serial0 is the GPIO UART, except on a Pi 5 where it is the debug connector
                # unless config.txt moves it (dtparam=uart0_console).
                device=$uart
                if [ "$uart" = /dev/ttyAMA0 ] && ! uart0_console; then device=/dev/ttyAMA10; fi
            fi
            if [ "$device" = "$RFID_PORT" ] || [ "/dev/$console" = "$RFID_PORT" ]; then
                note "a serial console is on the reader's port $RFID_PORT (console=$console in ${cmdline#"$ROOT"}): it takes the reader's bytes and changes its speed. Turn it off: sudo raspi-config nonint do_serial_cons 1 (or raspi-config: Interface Options, Serial Port, login shell No, hardware Yes), then reboot"
            fi
        done
        break
    done
}

become_root() {
    [ "$MODE" = real ] || return 0
    [ "$EUID" -ne 0 ] || return 0
    command -v sudo >/dev/null || die "deploy.sh changes the system: run it as root (sudo is not installed)" 3
    say "deploy.sh needs root: running it again with sudo"
    exec sudo -- bash "$SCRIPT_PATH" "${ORIG_ARGS[@]}"
}

# ---------------------------------------------------------------- install steps

step_packages() {
    local installed missing=() pkg
    # One name a line, between newlines: a package is in when "\nNAME\n" is.
    installed=$'\n'$(installed_packages)$'\n'
    for pkg in "${APT_PACKAGES[@]}"; do
        [[ $installed == *$'\n'"$pkg"$'\n'* ]] || missing+=("$pkg")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "UNCHANGED apt packages: ${APT_PACKAGES[*]}"
        return 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    run apt-get update
    run apt-get install -y "${missing[@]}"
}

step_user() {
    USER_CREATED=$PREV_USER_CREATED
    [ "$SERVICE_USER" = "$PREV_USER" ] || USER_CREATED=""
    if user_exists "$SERVICE_USER"; then
        say "UNCHANGED user $SERVICE_USER"
        return 0
    fi
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Splendor Companion kiosk" "$SERVICE_USER"
    USER_CREATED=yes
}

step_groups() {
    local group add=() missing_groups=()
    UNIT_GROUPS=()
    for group in "${WANTED_GROUPS[@]}"; do
        if ! group_exists "$group"; then
            missing_groups+=("$group")
            continue
        fi
        UNIT_GROUPS+=("$group")
        user_in_group "$SERVICE_USER" "$group" || add+=("$group")
    done
    [ ${#missing_groups[@]} -eq 0 ] ||
        note "no group ${missing_groups[*]} on this system: left out (gpio exists on Raspberry Pi OS only)"
    GROUPS_ADDED=$PREV_GROUPS_ADDED
    [ "$SERVICE_USER" = "$PREV_USER" ] || GROUPS_ADDED=""
    if [ ${#add[@]} -eq 0 ]; then
        say "UNCHANGED groups of $SERVICE_USER: ${UNIT_GROUPS[*]:-none}"
        return 0
    fi
    local joined all=()
    printf -v joined '%s,' "${add[@]}"
    joined=${joined%,}
    run usermod -aG "$joined" "$SERVICE_USER"
    # The groups added by every run, each once, in the order added; none blank.
    IFS=, read -r -a all <<<"${GROUPS_ADDED:+$GROUPS_ADDED,}$joined"
    GROUPS_ADDED=""
    for group in "${all[@]}"; do
        [[ $group == *[!$' \t']* && ,$GROUPS_ADDED, != *,"$group",* ]] || continue
        GROUPS_ADDED+=${GROUPS_ADDED:+,}$group
    done
    CHANGED=1
}

step_dirs() {
    make_dir "$PREFIX" 755 -
    make_dir "$DATA_DIR" 750 "$SERVICE_USER:$SERVICE_USER"
    make_dir "$KIVY_HOME" 755 "$SERVICE_USER:$SERVICE_USER"
}

# The project's files, those pip needs: no .git, .venv, caches or build leftovers.
source_files() {
    (cd "$SOURCE" && find . -mindepth 1 \( -name '.*' -o -name __pycache__ -o -name '*.egg-info' \
        -o -name build -o -name dist \) -prune -o -type f -print0 | LC_ALL=C sort -z)
}

source_fingerprint() {
    local sum
    sum=$(cd "$SOURCE" && source_files | xargs -0 -r sha256sum | sha256sum) || return
    say "${sum%% *}"
}

step_venv() {
    if [ -x "$ROOT$VENV/bin/python" ]; then
        say "UNCHANGED virtual environment $VENV"
        return 0
    fi
    run "$PYTHON" -m venv "$VENV"
    CHANGED=1
}

pip_install_source() { # a copy without .git or .venv, so that pip leaves no files in $SOURCE
    local stage
    stage=$(mktemp -d)
    source_files | tar -C "$SOURCE" --null -T - -cf - | tar -C "$stage" -xf -
    # [native]: what compiling the engine needs (companion.engine.build, below); [club]:
    # a club's kiosk's PostgreSQL client and ratings (docs/club.md).
    "$VENV/bin/python" -m pip install --upgrade "${stage}[$(extras)]" || {
        rm -rf "$stage"
        return 1
    }
    rm -rf "$stage"
}

# The project's extras: the engine's build, and a club's parts where --club asked them.
extras() {
    if [ "$CLUB" = yes ]; then say native,club; else say native; fi
}

# What pip is said to install: the source, and [club] with the club's parts.
project_words() {
    if [ "$CLUB" = yes ]; then say "${SOURCE}[club]"; else say "$SOURCE"; fi
}

has_kivy() {
    "$VENV/bin/python" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("kivy") is None)'
}

step_project() {
    local fingerprint
    fingerprint=$(source_fingerprint)
    # The club's parts asked or no longer asked: the project is installed again.
    [ "$CLUB" != yes ] || fingerprint+=" club"
    if [ -x "$ROOT$APP" ] && [ -f "$ROOT$STAMP" ] && [ "$(<"$ROOT$STAMP")" = "$fingerprint" ]; then
        say "UNCHANGED project in $VENV (same source)"
        return 0
    fi
    if [ "$MODE" = real ]; then
        say "DO $VENV/bin/python -m pip install --upgrade $(project_words)"
        pip_install_source || die "pip could not install $(project_words) into $VENV"
        if ! has_kivy; then
            say "DO $VENV/bin/python -m pip install 'kivy>=2.3.1' (the project did not bring it)"
            "$VENV/bin/python" -m pip install 'kivy>=2.3.1' || die "pip could not install Kivy"
        fi
        # The engine compiled with mypyc: the companion thinks faster on the Pi. Where it
        # cannot be, the same engine runs from its source, slower.
        say "DO $VENV/bin/python -m companion.engine.build"
        "$VENV/bin/python" -m companion.engine.build >/dev/null ||
            note "the engine was not compiled: it runs as pure Python (slower)"
    else
        say "PLAN $VENV/bin/python -m pip install --upgrade $(project_words)"
        say "PLAN $VENV/bin/python -m pip install 'kivy>=2.3.1' (only if the project does not bring it)"
        say "PLAN $VENV/bin/python -m companion.engine.build (the engine compiled; pure Python if it cannot be)"
    fi
    write_file "$STAMP" 644 - "$fingerprint"
    CHANGED=1
}

# Kivy's [input] section: the touchscreen through one provider only. Kivy's defaults add
# "mouse = mouse" (SDL turns each touch into a mouse click too) and, on a Pi,
# "probesysfs,provider=hidinput": with mtdev, each would deliver every tap twice. The
# ADS7846 of the SPI screens is single-touch: probesysfs passes over such devices unless
# told select_all, so it is matched by name (keyboards, RFID readers among them, stay
# out) and read by hidinput. The touch's own turn and mirror are the provider's params:
# they bring its axes to the panel's, and Kivy's rotation then turns both together.
kivy_input_line() {
    local line="%(name)s = probesysfs,provider=mtdev"
    [ "$TOUCH_INPUT" != ads7846 ] ||
        line="%(name)s = probesysfs,provider=hidinput,select_all=1,match=ADS7846"
    case $TOUCH_INVERT in
        x) line+=",param=invert_x=1" ;;
        y) line+=",param=invert_y=1" ;;
        xy) line+=",param=invert_x=1,param=invert_y=1" ;;
    esac
    [ "$TOUCH_ROTATION" = 0 ] || line+=",param=rotation=$TOUCH_ROTATION"
    say "$line"
}

# Kivy's [graphics] rotation: the degrees; landscape and portrait depend on the panel's
# own shape, which the app reads at each start (ui/display.py): Kivy starts unturned.
kivy_rotation() {
    case $ROTATION in
        landscape | portrait) say 0 ;;
        *) say "$ROTATION" ;;
    esac
}

# kivy_config_text FILE: FILE with [input] replaced and [graphics] rotation set, every
# other section and key as they were (the app keeps its own settings there).
kivy_config_text() {
    local current="" input_line
    [ ! -f "$1" ] || current=$(<"$1")
    input_line=$(kivy_input_line)
    awk -v input_line="$input_line" -v rotation="$(kivy_rotation)" '
        function emit(line) {
            if (line == "" && (count == 0 || last_blank)) return
            print line; count++; last_blank = (line == "")
        }
        function end_section() {
            if (section == "graphics" && !rotation_done) { emit("rotation = " rotation); rotation_done = 1 }
            if (count) emit("")
        }
        /^[[:space:]]*\[.*\][[:space:]]*$/ {
            end_section()
            section = $0; gsub(/^[[:space:]]*\[|\][[:space:]]*$/, "", section)
            emit("[" section "]")
            if (section == "input") { emit(input_line); input_done = 1 }
            if (section == "graphics") graphics_seen = 1
            next
        }
        /^[[:space:]]*$/ || section == "input" { next }
        section == "graphics" && /^rotation[[:space:]]*[=:]/ {
            if (!rotation_done) emit("rotation = " rotation)
            rotation_done = 1
            next
        }
        { emit($0) }
        END {
            end_section()
            if (!graphics_seen) { emit("[graphics]"); emit("rotation = " rotation); emit("") }
            if (!input_done) { emit("[input]"); emit(input_line) }
        }' <<<"$current"
}

step_kivy_config() {
    local file="$ROOT$KIVY_CONFIG"
    # Kivy fills a config.ini without config_version with its defaults, "mouse = mouse"
    # among them: let Kivy write its full default file first, then change our keys.
    if ! { [ -f "$file" ] && first_match '^config_version[[:space:]]*=' "$file"; }; then
        as_user env KIVY_HOME="$KIVY_HOME" KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_NO_CONSOLELOG=1 \
            "$VENV/bin/python" -c 'import kivy.config'
    fi
    write_file "$KIVY_CONFIG" 644 "$SERVICE_USER:$SERVICE_USER" "$(kivy_config_text "$file")" blank
    [ "$WROTE" -eq 0 ] || CHANGED=1
}

env_file_text() {
    heredoc <<EOF
# Splendor Companion kiosk: written by deploy.sh and read by its systemd units. Run
# deploy.sh again with options to change a value (the next run keeps these); put your own
# variables in /etc/default/splendor-companion.local, read after this file.
SPLENDOR_USER=$SERVICE_USER
SPLENDOR_USER_CREATED=$USER_CREATED
SPLENDOR_GROUPS_ADDED=$GROUPS_ADDED
SPLENDOR_PREFIX=$PREFIX
SPLENDOR_ROTATION=$ROTATION
SPLENDOR_TOUCH_ROTATION=$TOUCH_ROTATION
SPLENDOR_TOUCH_INVERT=$TOUCH_INVERT
SPLENDOR_USB_EXPORT=$USB_EXPORT
SPLENDOR_WEB=$WEB
SPLENDOR_WEB_PORT=$WEB_PORT
SPLENDOR_CLUB=$CLUB
SPLENDOR_DATA_DIR=$DATA_DIR
EOF
    [ -z "$PANEL" ] || say "SPLENDOR_DISPLAY=$PANEL"
    [ "$RFID_PORT" = none ] || say "SPLENDOR_RFID_PORT=$RFID_PORT"
    [ "$RFID_READER" = none ] || say "SPLENDOR_RFID_READER=$RFID_READER"
    [ "$RFID_BAUD" = default ] || say "SPLENDOR_RFID_BAUD=$RFID_BAUD"
    heredoc <<EOF
KIVY_HOME=$KIVY_HOME
KIVY_NO_ARGS=1
KIVY_NO_FILELOG=1
# Kivy's warnings and errors, and Python's tracebacks, on stderr: in the journal.
KIVY_LOG_MODE=PYTHON
KIVY_WINDOW=sdl2
SDL_VIDEODRIVER=kmsdrm
PYTHONUNBUFFERED=1
EOF
}

render() { # TEMPLATE: the file from systemd/ with the placeholders filled in
    local text
    IFS= read -r -d '' text <"$SCRIPT_DIR/systemd/$1" || true
    # The replacements quoted: with bash 5.2's patsub_replacement, a bare & in them would
    # stand for the placeholder.
    text=${text//@USER@/"$SERVICE_USER"}
    text=${text//@PREFIX@/"$PREFIX"}
    text=${text//@GROUPS@/"${UNIT_GROUPS[*]:-}"}
    text=${text//@DATA_DIR@/"$DATA_DIR"}
    # The app's network: a club's kiosk pushes its games to the club's PostgreSQL.
    if [ "$CLUB" = yes ]; then
        text=${text//@ADDRESS_FAMILIES@/"AF_UNIX AF_NETLINK AF_INET AF_INET6"}
        text=${text//@IP_DENY@/}
    else
        text=${text//@ADDRESS_FAMILIES@/"AF_UNIX AF_NETLINK"}
        text=${text//@IP_DENY@/any}
    fi
    printf '%s' "$text"
}

step_files() {
    local units_changed=0 rule_changed=0
    write_file "$ENV_FILE" 644 - "$(env_file_text)"
    [ "$WROTE" -eq 0 ] || CHANGED=1
    write_file "$UNIT_DIR/$UNIT" 644 - "$(render splendor-companion.service)"
    [ "$WROTE" -eq 0 ] || units_changed=1
    # splendor-companion on PATH: the kiosk's user, on the kiosk's games and tags.
    write_file "$COMMAND_LINK" 755 - "$(render splendor-companion-command)"
    write_file "$BACKLIGHT_RULE" 644 - "$(render 99-splendor-companion-backlight.rules)"
    [ "$WROTE" -eq 0 ] || rule_changed=1
    if [ "$USB_EXPORT" = yes ]; then
        make_dir "$PREFIX/bin" 755 -
        write_file "$EXPORT_HELPER" 755 - "$(render splendor-companion-usb-export)"
        write_file "$UNIT_DIR/$EXPORT_UNIT" 644 - "$(render "$EXPORT_UNIT")"
        [ "$WROTE" -eq 0 ] || units_changed=1
        write_file "$UNIT_DIR/$REQUEST_UNIT" 644 - "$(render "$REQUEST_UNIT")"
        [ "$WROTE" -eq 0 ] || units_changed=1
        write_file "$UNIT_DIR/$REQUEST_PATH_UNIT" 644 - "$(render "$REQUEST_PATH_UNIT")"
        [ "$WROTE" -eq 0 ] || units_changed=1
        write_file "$UDEV_RULE" 644 - "$(render 99-splendor-companion-usb.rules)"
        [ "$WROTE" -eq 0 ] || rule_changed=1
    else
        [ ! -e "$ROOT$UNIT_DIR/$EXPORT_UNIT" ] || units_changed=1
        [ ! -e "$ROOT$UDEV_RULE" ] || rule_changed=1
        if [ -e "$ROOT$UNIT_DIR/$REQUEST_PATH_UNIT" ]; then
            now_or_at_boot disable "$REQUEST_PATH_UNIT"
            units_changed=1
        fi
        remove "$UDEV_RULE"
        remove "$UNIT_DIR/$EXPORT_UNIT"
        remove "$UNIT_DIR/$REQUEST_UNIT"
        remove "$UNIT_DIR/$REQUEST_PATH_UNIT"
        remove "$EXPORT_HELPER"
    fi
    if [ "$WEB" = yes ]; then
        write_file "$UNIT_DIR/$WEB_UNIT" 644 - "$(render "$WEB_UNIT")"
        [ "$WROTE" -eq 0 ] || { units_changed=1; WEB_CHANGED=1; }
    elif [ -e "$ROOT$UNIT_DIR/$WEB_UNIT" ]; then
        now_or_at_boot disable "$WEB_UNIT"
        remove "$UNIT_DIR/$WEB_UNIT"
        units_changed=1
    fi
    if [ "$units_changed" -eq 1 ]; then
        live systemctl daemon-reload
        CHANGED=1
    fi
    [ "$rule_changed" -eq 0 ] || live udevadm control --reload
}

step_service() {
    if unit_enabled; then
        say "UNCHANGED $UNIT enabled"
    else
        run systemctl enable "$UNIT"
    fi
    if [ "$USB_EXPORT" = yes ]; then
        if [ -L "$ROOT$UNIT_DIR/multi-user.target.wants/$REQUEST_PATH_UNIT" ]; then
            say "UNCHANGED $REQUEST_PATH_UNIT enabled"
        else
            now_or_at_boot enable "$REQUEST_PATH_UNIT"
        fi
    fi
    if [ "$WEB" = yes ]; then
        # Its own service: the page restarts without the app, the app without the page.
        if [ -L "$ROOT$UNIT_DIR/multi-user.target.wants/$WEB_UNIT" ]; then
            say "UNCHANGED $WEB_UNIT enabled"
        else
            now_or_at_boot enable "$WEB_UNIT"
        fi
        if [ "$CHANGED" -eq 1 ] || [ "$WEB_CHANGED" -eq 1 ]; then
            live systemctl restart "$WEB_UNIT"
        fi
    fi
    if [ "$CHANGED" -eq 1 ]; then
        live systemctl restart "$UNIT"
    elif [ -n "$ROOT" ]; then
        say "UNCHANGED $UNIT (running or not: not checked with --root)"
    elif systemctl is-active --quiet "$UNIT" 2>/dev/null; then
        say "UNCHANGED $UNIT running"
    else
        live systemctl start "$UNIT"
    fi
}

install() {
    local dry=""
    [ "$MODE" != dry ] || dry=', dry run'
    say "deploy.sh: install Splendor Companion for user $SERVICE_USER in $PREFIX (display ${PANEL:-not named}, rotation $ROTATION, touch-rotation $TOUCH_ROTATION, touch-invert $TOUCH_INVERT, RFID port $RFID_PORT, reader $RFID_READER, baud $RFID_BAUD, USB export $USB_EXPORT, web page $WEB, club $CLUB)${ROOT:+, root $ROOT}$dry"
    check_64bit
    check_system
    check_source
    check_python
    check_disk
    check_tools
    become_root
    display_notes
    serial_notes
    if [ -n "$PREV_PREFIX" ] && [ "$PREV_PREFIX" != "$PREFIX" ]; then
        note "the previous install in $PREV_PREFIX stays: remove $PREV_PREFIX/venv by hand"
    fi
    step_packages
    step_user
    step_groups
    step_dirs
    step_venv
    step_project
    step_kivy_config
    step_files
    step_service
    if [ "$MODE" = real ] && [ "$NO_START" -eq 1 ]; then
        say "done: installed and enabled; the app starts on the touchscreen at the next boot"
    elif [ "$MODE" = real ]; then
        say "done: the app runs on the touchscreen; its log: journalctl -u splendor-companion -f"
    fi
}

# ---------------------------------------------------------------- uninstall

uninstall() {
    local dry="" purge=""
    [ "$MODE" != dry ] || dry=', dry run'
    [ "$PURGE" -eq 0 ] || purge=', games deleted too'
    say "deploy.sh: uninstall Splendor Companion (user $SERVICE_USER, prefix $PREFIX)$purge${ROOT:+, root $ROOT}$dry"
    check_system
    check_tools
    become_root
    if unit_enabled || [ -e "$ROOT$UNIT_DIR/$UNIT" ]; then
        now_or_at_boot disable "$UNIT"
    else
        say "UNCHANGED $UNIT (not installed)"
    fi
    if [ -e "$ROOT$UNIT_DIR/$REQUEST_PATH_UNIT" ]; then
        now_or_at_boot disable "$REQUEST_PATH_UNIT"
    fi
    if [ -e "$ROOT$UNIT_DIR/$WEB_UNIT" ]; then
        now_or_at_boot disable "$WEB_UNIT"
    fi
    local units_there=0 rule_there=0 group
    [ ! -e "$ROOT$UNIT_DIR/$UNIT" ] && [ ! -e "$ROOT$UNIT_DIR/$EXPORT_UNIT" ] &&
        [ ! -e "$ROOT$UNIT_DIR/$WEB_UNIT" ] || units_there=1
    [ ! -e "$ROOT$UDEV_RULE" ] && [ ! -e "$ROOT$BACKLIGHT_RULE" ] || rule_there=1
    remove "$UNIT_DIR/$UNIT"
    remove "$UNIT_DIR/$EXPORT_UNIT"
    remove "$UNIT_DIR/$REQUEST_UNIT"
    remove "$UNIT_DIR/$REQUEST_PATH_UNIT"
    remove "$UNIT_DIR/$WEB_UNIT"
    remove "$UDEV_RULE"
    remove "$BACKLIGHT_RULE"
    remove "$COMMAND_LINK"
    [ "$units_there" -eq 0 ] || live systemctl daemon-reload
    [ "$rule_there" -eq 0 ] || live udevadm control --reload
    # Only what deploy.sh put in the prefix, which may hold other things.
    remove "$VENV"
    remove "$EXPORT_HELPER"
    remove "$STAMP"
    remove_if_empty "$PREFIX/bin"
    remove_if_empty "$PREFIX"
    remove "$CACHE_DIR"
    local user_deleted=0 home
    if [ "$PURGE" -eq 1 ]; then
        remove "$DATA_DIR"
        # The user goes too if deploy.sh made it: said so by the environment file or, after
        # an --uninstall that removed that file, by its home (the data folder).
        if user_exists "$SERVICE_USER" && {
            { [ "$PREV_USER_CREATED" = yes ] && [ "$SERVICE_USER" = "$PREV_USER" ]; } ||
                { db_line passwd "$SERVICE_USER" && IFS=: read -r _ _ _ _ _ home _ <<<"$DB_LINE" &&
                    [ "$home" = "$DATA_DIR" ]; }
        }; then
            run userdel "$SERVICE_USER"
            user_deleted=1
        fi
    else
        remove "$KIVY_HOME"
        say "UNCHANGED $DATA_DIR kept: the games (--uninstall --purge-data deletes them)"
    fi
    # A user of yours (--user pi) leaves the groups deploy.sh put it in.
    if [ "$user_deleted" -eq 0 ] && [ -n "$PREV_GROUPS_ADDED" ] && [ "$PREV_USER_CREATED" != yes ] &&
        [ "$SERVICE_USER" = "$PREV_USER" ] && user_exists "$SERVICE_USER"; then
        for group in ${PREV_GROUPS_ADDED//,/ }; do
            ! user_in_group "$SERVICE_USER" "$group" || run gpasswd -d "$SERVICE_USER" "$group"
        done
    fi
    remove "$ENV_FILE"
    note "apt packages kept (shared libraries other programs may use): ${APT_PACKAGES[*]}"
}

if [ "$UNINSTALL" -eq 1 ]; then
    uninstall
else
    install
fi
