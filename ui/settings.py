"""The app's settings, kept with Kivy's own configuration (``settings.ini``)."""

SETTINGS_SECTION = "companion"
DEFAULTS = {
    "language": "en",
    "hints": "0",
    "data_dir": "",
    "rfid_port": "",
    "rfid_reader": "rdm6300",
    "pin_undo": "",
    "pin_confirm": "",
    "pin_led_green": "",
    "pin_led_red": "",
    "pin_buzzer": "",
    "rotation": "0",
}
