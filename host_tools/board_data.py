"""The board's wiring as facts, from firmware/board_config.py: the Pico's header, what each GPIO
does, the power budget. Shared by the generators: the wiring docs (hwdocs.py) and the PCBs (pcb/)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    import board_config  # noqa: F401  (the generators take it from here)
except ImportError:  # run from a checkout: the device modules live in firmware/
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    import board_config  # noqa: F401

# The Pico's 40-pin header, pin 1 at the top left with the USB connector up
# (seen from above, components side). Pico W, Pico 2 and Pico 2 W share it.
PICO_HEADER = (
    "GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7",
    "GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15",
    "GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN",
    "GP26", "GP27", "AGND", "GP28", "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND", "VSYS", "VBUS",
)  # fmt: skip

# GPIOs the RP2040 has but the Pico board keeps for itself.
RESERVED_GPIOS = {
    23: "SMPS power-save control (Pico W: wireless chip power-on)",
    24: "VBUS sense (Pico W: wireless chip data/IRQ)",
    25: "on-board LED (Pico W: wireless chip select)",
    29: "VSYS/3 on ADC3 (Pico W: wireless chip clock, shared with the VSYS ADC)",
}


def gpio_to_header_pin(gpio):
    """Physical Pico pin (1..40) of GP`gpio`, or None if it is not on the header."""
    name = "GP%d" % gpio
    for index, label in enumerate(PICO_HEADER):
        if label == name:
            return index + 1
    return None


def square_name(square):
    return "abcdefgh"[square & 7] + str((square >> 3) + 1)


def pin_roles(cfg):
    """Every GPIO the board uses, in GPIO order: (gpio, net, kind, role, connects to)."""
    roles = []
    for r, pin in enumerate(cfg.ROW_PINS):
        squares = [square_name(cfg.rc_to_square(r, c)) for c in range(8)]
        roles.append((pin, "ROW%d" % r, "row", "output LOW while row %d is scanned, else input" % r,
                      "cathode (band) of the 8 diodes in row %d: %s" % (r, " ".join(squares))))
    for c, pin in enumerate(cfg.COL_PINS):
        squares = [square_name(cfg.rc_to_square(r, c)) for r in range(8)]
        roles.append((pin, "COL%d" % c, "col", "input, pull-up; 0 = reed closed",
                      "one lead of the 8 reeds in column %d: %s" % (c, " ".join(squares))))
    roles.append((cfg.LED_PIN, "LED_DATA", "led", "output, WS2812B data at 3.3 V",
                  "74AHCT125 pin 2 (1A); its pin 3 (1Y) -> 330 Ohm -> DIN of LED 0"))
    for name, pin in cfg.BUTTONS:
        role = "input, pull-up; 0 = pressed"
        if name == cfg.DIAG_BUTTON:
            role += "; held at power-up: diagnostics"
        if name in ("menu", "ok"):
            role += "; the display's menu"
        roles.append((pin, "BTN_" + name.upper(), "button", role,
                      "push button '%s' to GND" % name))
    hz = "%d kHz" % (cfg.OLED_I2C_HZ // 1000)
    roles.append((cfg.OLED_SDA, "OLED_SDA", "i2c", "I2C%d SDA, %s (optional display)" % (cfg.OLED_I2C, hz),
                  "SDA of the SSD1306 OLED module (its pull-up to 3V3)"))
    roles.append((cfg.OLED_SCL, "OLED_SCL", "i2c", "I2C%d SCL, %s (optional display)" % (cfg.OLED_I2C, hz),
                  "SCL of the SSD1306 OLED module (its pull-up to 3V3)"))
    roles.sort()
    return roles


def net_of_header_pin(cfg, number):
    """(net, kind) on physical pin `number`, or ('', 'free')."""
    label = PICO_HEADER[number - 1]
    if label == "VBUS":
        return "+5V", "power"
    if label == "3V3(OUT)":
        return "+3V3", "power"
    if label in ("GND", "AGND"):
        return "GND", "gnd"
    if label.startswith("GP"):
        gpio = int(label[2:])
        for pin, net, kind, _role, _to in pin_roles(cfg):
            if pin == gpio:
                return net, kind
    return "", "free"


def power_budget(cfg):
    """The worst frame the firmware can show, line by line, in mA."""
    level = cfg.LED_MAX_LEVEL
    channel = cfg.LED_CHANNEL_MA * level / 255
    leds = cfg.LED_COUNT
    lines = (
        ("LED colour channels, all white at the cap", "%d x 3 x %.2f" % (leds, channel), leds * 3 * channel),
        ("LED control ICs, quiescent", "%d x %d" % (leds, cfg.LED_IDLE_MA), leds * cfg.LED_IDLE_MA),
        ("Pico (RP2040, USB serial)", "1 x %d" % cfg.PICO_MA, cfg.PICO_MA),
        ("74AHCT125, pull-ups, reed matrix", "1 x %d" % cfg.LOGIC_MA, cfg.LOGIC_MA),
        ("SSD1306 OLED 128 x 64 (optional, always counted)", "1 x %d" % cfg.OLED_MA, cfg.OLED_MA),
    )
    total = 0.0
    for _what, _how, ma in lines:
        total += ma
    return {
        "level": level,
        "channel_ma": channel,
        "lines": lines,
        "total_ma": total,
        "usb_ma": cfg.USB_PORT_MA,
        "target_ma": cfg.POWER_TARGET_MA,
    }


def max_level_within(cfg, budget_ma):
    """The highest per-channel cap whose worst frame stays within `budget_ma`."""
    level = 0
    while level < 255 and cfg.worst_case_ma(level + 1) <= budget_ma:
        level += 1
    return level
