"""Buttons, LEDs and a buzzer on the Pi's GPIO pins (gpiozero), every one of them optional.

- an *undo* button and a *confirm* button, each between a GPIO pin and ground (the pin's
  pull-up keeps it high; pressed pulls it low). Undo acts when the button is *held* for
  ``hold`` seconds (1 by default, a setting), so that a bump does not undo a move;
- a green LED flashed on an accepted move; a red LED lit and a short buzz (an active
  buzzer) on a refused one.

Pins come from the settings (:class:`GpioPins`: a BCM number like ``17``, or any name
gpiozero knows, like ``"GPIO17"`` or ``"BOARD11"``); an unset pin means no such device.
GPIO 14 and 15 are refused while the RFID reader uses the Pi's UART (``reserved``).

**Threads.** gpiozero calls the button handlers on its own thread. ``on_undo`` and
``on_confirm`` reach the app's thread through ``dispatch``, a function that schedules a
function there; the Kivy app passes ``dispatch=lambda f: Clock.schedule_once(lambda dt: f())``.
Without ``dispatch`` they are called on gpiozero's thread. :meth:`Panel.accepted` and
:meth:`Panel.refused` may be called from any thread.

**Off a Pi** (a desktop, CI) :func:`open_panel` returns a :class:`Signals` that does
nothing and says why (:attr:`Signals.reason`). Tests use gpiozero's mock pins::

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    Device.pin_factory = MockFactory()
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from gpiozero import LED, Button, Buzzer
from gpiozero.exc import BadPinFactory, GPIOZeroError

from companion.i18n import _

from .exc import DeviceCode, HardwareError, PinError, pin_error

log = logging.getLogger(__name__)

PinName = int | str | None
Dispatch = Callable[[Callable[[], None]], object]
Action = Callable[[], object]


@dataclass(frozen=True, slots=True)
class GpioPins:
    """The pin of each device; ``None`` for a device that is not fitted.

    >>> GpioPins.from_settings({"undo": "17", "red": "GPIO22", "buzzer": ""})
    GpioPins(undo=17, confirm=None, green=None, red='GPIO22', buzzer=None)
    """

    undo: PinName = None
    confirm: PinName = None
    green: PinName = None
    red: PinName = None
    buzzer: PinName = None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> GpioPins:
        """From a mapping with the keys ``undo``, ``confirm``, ``green``, ``red``,
        ``buzzer`` (missing, empty or ``None``: not fitted; digits: a BCM number)."""
        values: dict[str, PinName] = {}
        for f in fields(cls):
            raw = settings.get(f.name)
            if raw is None or (isinstance(raw, str) and not raw.strip()):
                values[f.name] = None
            elif isinstance(raw, str) and raw.strip().isdigit():
                values[f.name] = int(raw)
            elif isinstance(raw, int | str):
                values[f.name] = raw.strip() if isinstance(raw, str) else raw
            else:
                raise PinError(
                    DeviceCode.PIN_INVALID,
                    _("{pin} is not a pin: give a GPIO number like 17").format(pin=raw),
                )
        return cls(**values)

    @property
    def fitted(self) -> bool:
        return any(getattr(self, f.name) is not None for f in fields(self))

    def check(self, reserved: Mapping[int, str]) -> None:
        """Refuse (:class:`PinError`) a pin that ``reserved`` gives to something else: BCM
        number to what uses it (the RFID reader's UART on 14 and 15)."""
        for f in fields(self):
            number = bcm(getattr(self, f.name))
            if number is not None and number in reserved:
                raise PinError(
                    DeviceCode.PIN_RESERVED,
                    _(
                        "pin {pin} ({role}) is the serial port's {line}, which the RFID "
                        "reader uses: choose another pin, like 17, 27 or 22"
                    ).format(
                        pin=getattr(self, f.name), role=ROLES[f.name](), line=reserved[number]
                    ),
                )


ROLES: dict[str, Callable[[], str]] = {
    "undo": lambda: _("undo button"),
    "confirm": lambda: _("confirm button"),
    "green": lambda: _("green LED"),
    "red": lambda: _("red LED"),
    "buzzer": lambda: _("buzzer"),
}
BOARD_TO_BCM = {8: 14, 10: 15}
"""The header's pins 8 and 10 are GPIO 14 and 15 (the only ones :meth:`GpioPins.check`
needs to know)."""


def bcm(pin: PinName) -> int | None:
    """The BCM number of a pin name, when it is one of those forms: ``14``, ``"GPIO14"``,
    ``"BCM14"``, ``"BOARD8"``.

    >>> bcm(14), bcm("GPIO15"), bcm("BOARD8"), bcm("J8:10"), bcm(None)
    (14, 15, 14, 15, None)
    """
    if pin is None:
        return None
    if isinstance(pin, int):
        return pin
    text = pin.strip().upper()
    for prefix in ("GPIO", "BCM"):
        if text.startswith(prefix) and text[len(prefix) :].isdigit():
            return int(text[len(prefix) :])
    for prefix in ("BOARD", "J8:"):
        if text.startswith(prefix) and text[len(prefix) :].isdigit():
            return BOARD_TO_BCM.get(int(text[len(prefix) :]), -1)
    return int(text) if text.isdigit() else None


class Signals:
    """The buttons and lights when there are none: every call does nothing.

    :attr:`reason` says why there are none (for the settings screen).
    """

    available = False

    def __init__(self, reason: str = "") -> None:
        self.reason = reason

    def accepted(self) -> None:
        """A move was accepted: flash the green LED."""

    def refused(self) -> None:
        """A move was refused: light the red LED and buzz."""

    def close(self) -> None:
        """Release the pins."""

    def __enter__(self) -> Signals:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Panel(Signals):
    """The fitted buttons, LEDs and buzzer. Raises :class:`PinError` when a pin is unusable
    (in use, not a GPIO of this board), with every pin it had taken released again."""

    available = True

    def __init__(
        self,
        pins: GpioPins,
        *,
        on_undo: Action | None = None,
        on_confirm: Action | None = None,
        dispatch: Dispatch | None = None,
        pin_factory: Any = None,
        flash: float = 0.3,
        alarm: float = 1.0,
        beep: float = 0.15,
        bounce: float | None = 0.05,
        hold: float = 1.0,
    ) -> None:
        super().__init__("")
        self.pins = pins
        self.on_undo = on_undo
        self.on_confirm = on_confirm
        self.dispatch = dispatch
        self.flash, self.alarm, self.beep = flash, alarm, beep
        self.undo_button: Button | None = None
        self.confirm_button: Button | None = None
        self.green: LED | None = None
        self.red: LED | None = None
        self.buzzer: Buzzer | None = None
        self._devices: list[Any] = []
        kw: dict[str, Any] = {"pin_factory": pin_factory}
        try:
            if pins.undo is not None:
                role = _("undo button")
                self.undo_button = self._add(
                    pins.undo,
                    role,
                    lambda: Button(pins.undo, bounce_time=bounce, hold_time=hold, **kw),
                )
                # Held, not pressed: a bump against the button must not undo a move.
                self.undo_button.when_held = lambda: self._pressed("undo")
            if pins.confirm is not None:
                role = _("confirm button")
                self.confirm_button = self._add(
                    pins.confirm, role, lambda: Button(pins.confirm, bounce_time=bounce, **kw)
                )
                self.confirm_button.when_pressed = lambda: self._pressed("confirm")
            if pins.green is not None:
                self.green = self._add(pins.green, _("green LED"), lambda: LED(pins.green, **kw))
            if pins.red is not None:
                self.red = self._add(pins.red, _("red LED"), lambda: LED(pins.red, **kw))
            if pins.buzzer is not None:
                self.buzzer = self._add(pins.buzzer, _("buzzer"), lambda: Buzzer(pins.buzzer, **kw))
        except BaseException:
            self.close()
            raise

    def _add(self, pin: PinName, role: str, make: Callable[[], Any]) -> Any:
        try:
            device = make()
        except BadPinFactory:
            raise
        except (GPIOZeroError, ValueError) as err:
            raise pin_error(pin, role, err) from err
        self._devices.append(device)
        return device

    # ------------------------------------------------------------------ buttons

    def _pressed(self, which: str) -> None:
        """On gpiozero's thread: hand the button's action to the app's thread."""
        action = self.on_undo if which == "undo" else self.on_confirm
        if action is None:
            return

        def run() -> None:
            try:
                action()
            except Exception:
                log.exception("the %s button's action failed", which)

        if self.dispatch is None:
            run()
        else:
            self.dispatch(run)

    # ------------------------------------------------------------------- lights

    def accepted(self) -> None:
        if self.red is not None:
            self.red.off()
        if self.green is not None:
            self.green.on()  # lit now, not when the blink thread gets to it
            self.green.blink(on_time=self.flash, off_time=0, n=1, background=True)

    def refused(self) -> None:
        if self.green is not None:
            self.green.off()
        if self.red is not None:
            self.red.on()
            self.red.blink(on_time=self.alarm, off_time=0, n=1, background=True)
        if self.buzzer is not None:
            self.buzzer.on()
            self.buzzer.beep(on_time=self.beep, off_time=0, n=1, background=True)

    def close(self) -> None:
        """Turn everything off and release the pins (the blink threads end too)."""
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:
                log.exception("closing %r failed", device)
        self._devices.clear()


def open_panel(
    pins: GpioPins,
    *,
    on_undo: Action | None = None,
    on_confirm: Action | None = None,
    dispatch: Dispatch | None = None,
    pin_factory: Any = None,
    reserved: Mapping[int, str] | None = None,
    **timing: float,
) -> Signals:
    """The :class:`Panel` of ``pins``, or a :class:`Signals` that does nothing (and says
    why in :attr:`Signals.reason`) when no pin is set, the machine has no GPIO, or a pin
    cannot be used (``reserved``: see :meth:`GpioPins.check`). Never raises: the game goes
    on without buttons and lights."""
    if not pins.fitted:
        return Signals(_("no GPIO pin is set"))
    try:
        pins.check(reserved or {})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero's fallbacks from one library to the next
            return Panel(
                pins,
                on_undo=on_undo,
                on_confirm=on_confirm,
                dispatch=dispatch,
                pin_factory=pin_factory,
                **timing,
            )
    except BadPinFactory as err:
        return Signals(
            _("this machine has no GPIO ({reason}): buttons and lights are off").format(reason=err)
        )
    except HardwareError as err:
        log.warning("GPIO: %s", err.message)
        return Signals(err.message)
