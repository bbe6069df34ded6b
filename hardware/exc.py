"""Friendly errors of the optional devices: what went wrong and what to do about it.

:class:`HardwareError` is a :class:`companion.errors.CompanionError`: a template and its
parameters, translated when :attr:`~HardwareError.message` is read (a message already
translated, with no parameters, is shown as it is). ``code`` (a :class:`DeviceCode`) is a
short stable word for the app to choose an icon or a help page by.

>>> err = serial_error("/dev/ttyUSB9", FileNotFoundError(2, "No such file or directory"))
>>> err.code is DeviceCode.NOT_FOUND, err.code.value
(True, 'not-found')
>>> "raspi-config" in err.message
True
"""

from __future__ import annotations

import errno
from enum import StrEnum
from typing import Any

from companion.errors import CompanionError
from companion.i18n import N_, _, os_reason


class DeviceCode(StrEnum):
    """The codes of the devices' errors, each a stable word (docs/game-record.md); the core's
    are :class:`companion.errors.ErrorCode`. Compare a code with its member."""

    # A serial port or an input device (SerialPortError).
    NOT_FOUND = "not-found"
    PERMISSION = "permission"
    BUSY = "busy"
    NOT_SERIAL = "not-serial"
    IO = "io"
    LOST = "lost"
    AMBIGUOUS = "ambiguous"
    # A GPIO pin (PinError).
    PIN_IN_USE = "pin-in-use"
    PIN_INVALID = "pin-invalid"
    PIN_RESERVED = "pin-reserved"
    PIN_ERROR = "pin-error"
    # The tag map (TagMapError, TagConflict).
    UNREADABLE = "unreadable"
    UNWRITABLE = "unwritable"
    INVALID = "invalid"
    UNKNOWN_CARD = "unknown-card"
    EMPTY_TAG = "empty-tag"
    TAG_TAKEN = "tag-taken"


class HardwareError(CompanionError):
    """A device that cannot be used. The app shows :attr:`message` and plays on without it."""

    code: DeviceCode

    def __init__(self, code: DeviceCode, template: str, **params: Any) -> None:
        super().__init__(code, template, params)


class SerialPortError(HardwareError):
    """The reader's serial port cannot be opened or was lost."""


class PinError(HardwareError):
    """A GPIO pin of the buttons, LEDs or buzzer cannot be used."""


class TagMapError(HardwareError):
    """The tag map file cannot be read or written."""


class TagConflict(HardwareError):
    """Enrollment refused: the tag is mapped to another card already (``card`` names it)."""

    def __init__(
        self, code: DeviceCode, template: str, *, tag: str, card: str, **params: Any
    ) -> None:
        self.tag = tag
        self.card = card
        super().__init__(code, template, **params)


def _reason(err: BaseException) -> str:
    return os_reason(err)


# The ways opening a port fails that a person can mend, and what to tell them: each known
# by its errno or, where pyserial keeps none, by the words of its message.
_OPEN_FAILURES: tuple[tuple[frozenset[int], str, DeviceCode, str], ...] = (
    (
        frozenset({errno.ENOENT}),
        "No such file or directory",
        DeviceCode.NOT_FOUND,
        N_(
            "{port} does not exist: is the reader plugged in? (for the Pi's own serial "
            "port, enable it with raspi-config)"
        ),
    ),
    (
        frozenset({errno.EACCES, errno.EPERM}),
        "Permission denied",
        DeviceCode.PERMISSION,
        N_(
            "permission denied on {port}: add the user to the dialout group "
            "(sudo usermod -aG dialout $USER), then log out and in again"
        ),
    ),
    (
        frozenset({errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK}),
        "exclusively lock",
        DeviceCode.BUSY,
        N_(
            "{port} is in use by another program (the serial console, or another "
            "splendor-companion)"
        ),
    ),
    (
        frozenset({errno.ENOTTY}),
        "Inappropriate ioctl",
        DeviceCode.NOT_SERIAL,
        N_(
            "{port} is not a serial port (a file or another kind of device): give the "
            "reader's port, like /dev/serial0 or /dev/ttyUSB0"
        ),
    ),
)


def serial_error(port: str, err: BaseException) -> SerialPortError:
    """The error of opening ``port``, said for the person at the Pi."""
    number = getattr(err, "errno", None)
    text = str(err)
    for numbers, words, code, template in _OPEN_FAILURES:
        if number in numbers or words in text:
            return SerialPortError(code, template, port=port)
    return SerialPortError(
        DeviceCode.IO, "cannot open {port}: {reason}", port=port, reason=_reason(err)
    )


def lost_error(port: str, err: BaseException | None) -> SerialPortError:
    """The reader went away while it was being read (unplugged, most likely)."""
    reason = _reason(err) if err is not None else _("the port was closed")
    return SerialPortError(
        DeviceCode.LOST,
        "the reader on {port} was disconnected ({reason}); waiting for it to come back",
        port=port,
        reason=reason,
    )


def pin_error(pin: object, role: str, err: BaseException) -> PinError:
    """A gpiozero error on ``pin`` (used for ``role``, a translated device name)."""
    from gpiozero.exc import GPIOPinInUse, PinInvalidPin, PinUnknownPi

    # One error whatever went wrong; the kind of error chooses its code and its words.
    if isinstance(err, GPIOPinInUse):
        code = DeviceCode.PIN_IN_USE
        template = N_(
            "pin {pin} ({role}) is already in use: another device in the settings or "
            "another program has it"
        )
    elif isinstance(err, PinInvalidPin | PinUnknownPi | ValueError):
        code = DeviceCode.PIN_INVALID
        template = N_("{pin} is not a GPIO pin of this board ({role}): {reason}")
    else:
        code = DeviceCode.PIN_ERROR
        template = N_("cannot use pin {pin} for the {role}: {reason}")
    return PinError(code, template, pin=pin, role=role, reason=_reason(err))
