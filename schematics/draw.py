#!/usr/bin/env python3
"""Draw the wiring diagrams (*.svg) from pinmap.toml.

Run from anywhere: `python3 schematics/draw.py` (Python 3.11+, standard library only). It rewrites
every SVG beside this script; commit them with the pin map. Each wire that leaves the Pi is
labelled `NAME · GPIOn · pin p` (BCM GPIO number, physical header pin), and power pins as
`3V3 · pin 1`; tests/tests/pinmap.rs checks every such label against pinmap.toml.
"""

import tomllib
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
PINMAP = tomllib.loads((HERE / "pinmap.toml").read_text())

# The Pi's 40-pin header: physical pin -> BCM GPIO number or power rail.
HEADER = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}

COLOURS = {
    "power": "#c0392b", "ground": "#222222", "i2c": "#1f6fb2", "spi": "#7d3c98",
    "controls": "#1e8449", "nfc": "#ca6f1e", "sensor": "#8e5b2d", "reserved": "#888888",
    "spare": "#aaaaaa", "leds": "#0e7c7b",
}


# Alternative builds ([[alternative]] in the pin map, e.g. option C): their pins overlap the
# sections they replace, so the header diagram shows the main build and leaves them out.
ALTERNATIVES = [a["build"] for a in PINMAP.get("alternative", [])]


def signals(main_build_only=False):
    """Every GPIO signal in the pin map: (group, entry) with entry = {name, gpio, header}.
    With main_build_only, leave out the signals of alternative builds."""
    out = []

    def walk(group, table, path):
        for key, value in table.items():
            here = f"{path}.{key}"
            if main_build_only and any(here == a or here.startswith(a + ".")
                                       for a in ALTERNATIVES):
                continue
            if isinstance(value, list):
                value = {str(i): v for i, v in enumerate(value) if isinstance(v, dict)}
            if isinstance(value, dict) and "gpio" in value and "name" in value:
                out.append((group, value))
            elif isinstance(value, dict):
                walk(group, value, here)

    walk("i2c", PINMAP["i2c1"], "i2c1")
    walk("spi", PINMAP["spi0"], "spi0")
    walk("controls", PINMAP["buttons"], "buttons")
    walk("controls", PINMAP["buzzer"], "buzzer")
    walk("nfc", PINMAP["nfc"], "nfc")
    walk("sensor", PINMAP["sensor"], "sensor")
    walk("leds", PINMAP["spi1"], "spi1")
    return out


SIGNALS = {entry["name"]: (group, entry) for group, entry in signals()}


def label(name):
    """The wire label for a named signal: `NAME · GPIOn · pin p`."""
    entry = SIGNALS[name][1]
    return f"{name} · GPIO{entry['gpio']} · pin {entry['header']}"


def colour(name):
    return COLOURS[SIGNALS[name][0]]


class Svg:
    def __init__(self, width, height, title):
        self.width, self.height = width, height
        self.parts = []
        self.rect(0, 0, width, height, fill="white", stroke="none")
        self.text(20, 32, title, size=20, weight="bold")

    def rect(self, x, y, w, h, fill="#f7f7f7", stroke="#333", width=1.5, rx=4, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"{d}/>'
        )

    def text(self, x, y, s, size=12, anchor="start", weight="normal", fill="#111", italic=False):
        style = ' font-style="italic"' if italic else ""
        self.parts.append(
            f'<text x="{x}" y="{y}" font-family="DejaVu Sans, Arial, sans-serif" '
            f'font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}" xml:space="preserve"{style}>{escape(s)}</text>'
        )

    def line(self, points, stroke="#333", width=2, dash=None):
        pts = " ".join(f"{x},{y}" for x, y in points)
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(
            f'<polyline points="{pts}" fill="none" stroke="{stroke}" stroke-width="{width}"{d}/>'
        )

    def dot(self, x, y, fill="#333", r=3.5):
        self.parts.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}"/>')

    def circle(self, x, y, r, fill="white", stroke="#333"):
        self.parts.append(
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'
        )

    def notes(self, x, y, lines, size=12, step=17):
        for i, s in enumerate(lines):
            self.text(x, y + i * step, s, size=size)

    def save(self, name):
        body = "\n".join(self.parts)
        (HERE / name).write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}">\n{body}\n</svg>\n'
        )

    # --- symbols -------------------------------------------------------------------------------

    def resistor(self, x, y, text, vertical=False):
        """A resistor centred on (x, y): a small box with its value beside it."""
        if vertical:
            self.rect(x - 6, y - 16, 12, 32, fill="white", rx=1)
            self.text(x + 10, y + 4, text, size=11)
        else:
            self.rect(x - 16, y - 6, 32, 12, fill="white", rx=1)
            self.text(x, y - 10, text, size=11, anchor="middle")

    def switch(self, x, y, text, length=40):
        """A normally-open switch from (x, y) to (x + length, y)."""
        self.dot(x + 6, y, r=2.5)
        self.dot(x + length - 6, y, r=2.5)
        self.line([(x, y), (x + 6, y)])
        self.line([(x + 6, y), (x + length - 8, y - 12)])
        self.line([(x + length - 6, y), (x + length, y)])
        self.text(x + length / 2, y + 18, text, size=11, anchor="middle")

    def diode(self, x, y, text="", down=True):
        """A diode centred on (x, y), conducting downwards (cathode bar at the bottom)."""
        s = 1 if down else -1
        self.parts.append(
            f'<polygon points="{x - 7},{y - 6 * s} {x + 7},{y - 6 * s} {x},{y + 6 * s}" '
            f'fill="#333"/>'
        )
        self.line([(x - 7, y + 6 * s), (x + 7, y + 6 * s)], width=2.5)
        if text:
            self.text(x + 11, y + 4, text, size=11)

    def ground(self, x, y):
        self.line([(x, y), (x, y + 8)])
        self.line([(x - 9, y + 8), (x + 9, y + 8)])
        self.line([(x - 6, y + 12), (x + 6, y + 12)])
        self.line([(x - 3, y + 16), (x + 3, y + 16)])

    def chip(self, x, y, w, h, name, part, left=(), right=(), top=(), bottom=(), pitch=22):
        """A chip box; pin names inside along each edge. Returns {pin: (x, y)} of pin ends."""
        self.rect(x, y, w, h, fill="#fdfdf2")
        self.text(x + w / 2, y + 18, name, size=13, anchor="middle", weight="bold")
        self.text(x + w / 2, y + 33, part, size=11, anchor="middle", italic=True)
        ends = {}
        for i, pin in enumerate(left):
            py = y + 52 + i * pitch
            self.text(x + 6, py + 4, pin, size=11)
            ends[pin] = (x, py)
        for i, pin in enumerate(right):
            py = y + 52 + i * pitch
            self.text(x + w - 6, py + 4, pin, size=11, anchor="end")
            ends[pin] = (x + w, py)
        for i, pin in enumerate(top):
            px = x + 24 + i * (w - 48) / max(1, len(top) - 1)
            self.text(px, y - 4, pin, size=10, anchor="middle")
            ends[pin] = (px, y)
        for i, pin in enumerate(bottom):
            px = x + 24 + i * (w - 48) / max(1, len(bottom) - 1)
            self.text(px, y + h - 5, pin, size=10, anchor="middle")
            ends[pin] = (px, y + h)
        return ends

    def pi(self, x, y, rows, w=150, pitch=44):
        """The Pi as a box with one labelled wire stub per row. rows: signal names, or
        ("3V3"|"5V"|"GND", header pin). Returns {row key: (x, y)} of each stub's end."""
        h = 40 + pitch * len(rows)
        self.rect(x, y, w, h, fill="#e9f3e9", stroke="#1e8449", width=2)
        self.text(x + w / 2, y + 22, "Raspberry Pi", size=14, anchor="middle", weight="bold")
        self.text(x + w / 2, y + 38, "40-pin header", size=11, anchor="middle", italic=True)
        ends = {}
        for i, row in enumerate(rows):
            py = y + 62 + i * pitch
            if row is None:  # a gap, to leave room for the parts drawn beside it
                continue
            if isinstance(row, tuple):
                rail, pin = row
                assert HEADER[pin] == rail, (rail, pin)
                text, key = f"{rail} · pin {pin}", f"{rail}@{pin}"
                stroke = COLOURS["ground"] if rail == "GND" else COLOURS["power"]
            else:
                text, key, stroke = label(row), row, colour(row)
            self.dot(x + w, py, fill=stroke)
            self.text(x + w + 8, py - 6, text, size=12, fill=stroke, weight="bold")
            ends[key] = (x + w, py)
        return ends


def wire(svg, a, b, stroke, via_x=None):
    """An orthogonal wire from a to b (horizontal, then vertical at via_x, then horizontal)."""
    (x1, y1), (x2, y2) = a, b
    if y1 == y2:
        svg.line([a, b], stroke=stroke)
        return
    mx = via_x if via_x is not None else (x1 + x2) / 2
    svg.line([a, (mx, y1), (mx, y2), b], stroke=stroke)


# --------------------------------------------------------------------------------------------
# 1. The header: what goes where.


def draw_header():
    svg = Svg(1180, 1060, "Raspberry Pi 40-pin header: what each pin does on an umpire board")
    by_gpio = {entry["gpio"]: (group, entry) for group, entry in signals(main_build_only=True)}
    reserved = {r["gpio"]: r["why"] for r in PINMAP["reserved"]}
    spare = set(PINMAP["spare"])
    x0, y0, pitch = 560, 90, 42
    svg.rect(x0 - 40, y0 - 30, 120, 20 * pitch + 20, fill="#555", stroke="#333")
    svg.text(x0 + 20, y0 - 38, "header (pin 1 at the SD-card end)", size=11, anchor="middle")
    for pin in range(1, 41):
        row, col = (pin - 1) // 2, (pin - 1) % 2
        px, py = x0 + col * 40, y0 + row * pitch
        what = HEADER[pin]
        if what in ("3V3", "5V"):
            group, text = "power", f"{what} · pin {pin}"
        elif what == "GND":
            group, text = "ground", f"GND · pin {pin}"
        elif what in by_gpio:
            group, entry = by_gpio[what]
            text = label(entry["name"])
        elif what in reserved:
            group, text = "reserved", f"RESERVED · GPIO{what} · pin {pin}"
        elif what in spare:
            group, text = "spare", f"SPARE · GPIO{what} · pin {pin}"
        else:
            raise SystemExit(f"GPIO{what} (pin {pin}) is neither used, reserved nor spare")
        fill = "#ffffff" if group not in ("power", "ground") else COLOURS[group]
        svg.circle(px, py, 11, fill=fill, stroke="#fff" if group == "ground" else COLOURS[group])
        svg.text(px, py + 4, str(pin), size=10, anchor="middle",
                 fill="#fff" if group in ("power", "ground") else "#111")
        if col == 0:
            svg.line([(px - 12, py), (px - 60, py)], stroke=COLOURS[group])
            svg.text(px - 66, py + 4, text, size=13, anchor="end", fill=COLOURS[group],
                     weight="bold")
        else:
            svg.line([(px + 12, py), (px + 60, py)], stroke=COLOURS[group])
            svg.text(px + 66, py + 4, text, size=13, fill=COLOURS[group], weight="bold")
    legend = [
        ("i2c", "I2C1: OLED 0x3C; matrix option: PCF8575 0x20 (rows), 0x21 (columns)"),
        ("spi", "SPI0: CE0 = NFC readers (74HC154 enable); CE1 = 74HC165 chain option (via 74HC125)"),
        ("controls", "buttons OK / Back / Die (to GND, pull-up), optional buzzer"),
        ("nfc", "NFC readers' reset and chip-select decoder address (up to 16 MFRC522 + 74HC154)"),
        ("sensor", "74HC165 chain option: parallel load"),
        ("reserved", "reserved: HAT ID EEPROM (pins 27, 28), serial console (pins 8, 10)"),
        ("leds", "SPI1 (dtoverlay=spi1-1cs): MOSI drives the optional WS2812B LED chain; the rest unwired"),
        ("spare", "spare"),
        ("sensor", "option C (10 x 10 matrix on GPIO, no NFC) is another build: sensor-gpio-matrix.svg"),
    ]
    for i, (group, text) in enumerate(legend):
        x, y = 20 + (i % 2) * 600, 975 + (i // 2) * 20
        svg.rect(x, y - 10, 12, 12, fill=COLOURS[group], stroke=COLOURS[group], rx=2)
        svg.text(x + 18, y, text, size=12)
    svg.save("header.svg")


# --------------------------------------------------------------------------------------------
# 2. OLED, buttons and buzzer.


def draw_oled_buttons():
    oled = PINMAP["oled"]
    svg = Svg(1000, 720, "Display and controls: SSD1306 OLED (I2C1), buttons, optional buzzer")
    rows = [("3V3", 1), ("GND", 9), "I2C1_SDA", "I2C1_SCL", "BTN_OK", "BTN_BACK", "BTN_DIE",
            None, None, "BUZZER", None, ("5V", 2)]
    p = svg.pi(20, 60, rows)
    # OLED module
    o = svg.chip(620, 70, 200, 150, "OLED", f"SSD1306 128x64, I2C addr 0x{oled['address']:02X}",
                 left=["VCC", "GND", "SDA", "SCL"])
    wire(svg, p["3V3@1"], o["VCC"], COLOURS["power"], via_x=560)
    wire(svg, p["GND@9"], o["GND"], COLOURS["ground"], via_x=575)
    wire(svg, p["I2C1_SDA"], o["SDA"], colour("I2C1_SDA"), via_x=590)
    wire(svg, p["I2C1_SCL"], o["SCL"], colour("I2C1_SCL"), via_x=605)
    svg.notes(840, 130, ["Power the module from 3V3,", "never 5V: its on-board", "pull-ups then stay at",
                         "the Pi's 3.3 V logic."], size=11, step=15)
    # Buttons to a ground rail
    gx = 700
    for name, text in (("BTN_OK", "S1 OK"), ("BTN_BACK", "S2 Back"), ("BTN_DIE", "S3 Die")):
        x, y = p[name]
        svg.line([(x, y), (gx - 60, y)], stroke=colour(name))
        svg.switch(gx - 60, y, text, length=60)
    top, bottom = p["BTN_OK"][1], p["BTN_DIE"][1]
    svg.line([(gx, top), (gx, bottom + 20)], stroke=COLOURS["ground"])
    svg.ground(gx, bottom + 20)
    svg.text(gx + 16, bottom + 34, "GND (pins 30, 34, 39 are nearby)", size=11)
    svg.notes(760, top - 4, ["Pressed = low. Use the Pi's internal pull-up,",
                             "or add 10 k to 3V3 and 100 nF to GND per",
                             "button for long wires. 12x12 mm tactile."], size=11, step=15)
    # Buzzer: GPIO -> 1k -> NPN base; 5V -> buzzer -> collector; emitter -> GND
    bx, by = p["BUZZER"]
    svg.line([(bx, by), (560, by)], stroke=colour("BUZZER"))
    svg.resistor(576, by, "R 1 k")
    svg.line([(592, by), (640, by)], stroke=colour("BUZZER"))
    svg.circle(660, by, 22)
    svg.text(660, by + 4, "Q1", size=11, anchor="middle")
    svg.text(636, by + 40, "NPN 2N3904 / BC547", size=10, anchor="end")
    svg.text(628, by - 6, "B", size=10)
    # collector up to buzzer, emitter down to ground
    svg.line([(672, by - 18), (672, by - 40), (760, by - 40)])
    svg.text(678, by - 26, "C", size=10)
    svg.line([(672, by + 18), (672, by + 30), (720, by + 30)])
    svg.text(678, by + 28, "E", size=10)
    svg.ground(720, by + 30)
    svg.rect(760, by - 56, 90, 32, fill="#fff")
    svg.text(805, by - 36, "buzzer 5 V", size=11, anchor="middle")
    svg.text(756, by - 44, "-", size=12, anchor="end")
    vx, vy = p["5V@2"]
    svg.line([(vx, vy), (880, vy), (880, by - 40), (850, by - 40)], stroke=COLOURS["power"])
    svg.text(858, by - 44, "+", size=12)
    svg.notes(560, by + 118, ["Optional. An active buzzer sounds when BUZZER is high.",
                             "A magnetic (not piezo) buzzer needs a 1N4148 across it,",
                             "cathode to +5V."], size=11, step=15)
    svg.save("oled-buttons.svg")


# --------------------------------------------------------------------------------------------
# 3. Option B: 74HC165 chain on SPI0 CE1.


def square_name(cell):
    """The square of a cell on the pin map's board: cell 0 = a1, cell `columns` = a2."""
    columns = PINMAP["board"]["columns"]
    return f"{chr(ord('a') + cell % columns)}{cell // columns + 1}"


def chain_label(chip):
    """The label naming a square chip's first and last input: tests/tests/pinmap.rs reads it."""
    first = chip["first_cell"]
    return (f"{chip['ref']}: input A (D0) = {square_name(first)}, "
            f"H (D7) = {square_name(first + 7)}")


def draw_shift_chain():
    sc = PINMAP["sensor"]["shift_chain"]
    chain, check = sc["chain"], sc["check"]
    assert len(chain) == sc["chips"], "pinmap: one chain entry per chip"
    buffer_ref = f"U{len(chain) + 2}"
    svg = Svg(1560, 940, f"Sensor option B: {sc['chips']} x 74HC165 chain on SPI0 "
                          "(one reed switch per square, no diodes), ended by a check chip")
    rows = [("3V3", 17), ("GND", 20), "SPI0_MISO", "SPI0_CE1", "SPI0_SCLK", "SR_LOAD"]
    p = svg.pi(20, 60, rows)
    last = len(chain)
    # Power rails across the top.
    for key, text in (
        ("3V3@17", f"3V3: VCC (pin 16) of U1-{check['ref']}, VCC (pin 14) of {buffer_ref}, "
                   "the 10 k pull-ups, C bulk 10 µF here and at the far end"),
        ("GND@20", f"GND: GND (pin 8) and CE (pin 15) of U1-{check['ref']}, GND (pin 7) of "
                   f"{buffer_ref}, the reeds"),
    ):
        x, y = p[key]
        stroke = COLOURS["power"] if key.startswith("3V3") else COLOURS["ground"]
        svg.line([(x, y), (1530, y)], stroke=stroke)
        svg.text(1530, y - 6, text, size=11, anchor="end", fill=stroke)
    # 74HC125 buffer between the chain and MISO, with a series resistor on its output.
    b = svg.chip(460, 190, 150, 100, buffer_ref, "74HC125 (gate 1 of 4)", left=["1Y", "1OE"],
                 right=["1A"])
    yx, yy = b["1Y"]
    wire(svg, p["SPI0_MISO"], (416, yy), colour("SPI0_MISO"), via_x=405)
    svg.resistor(432, yy, "R3 100")
    svg.line([(448, yy), (yx, yy)], stroke=colour("SPI0_MISO"))
    wire(svg, p["SPI0_CE1"], b["1OE"], colour("SPI0_CE1"), via_x=415)
    svg.notes(640, 200, ["drives MISO only while CE1 is low, so the",
                         "NFC reader (CE0) can share it. Gates 2-4",
                         "unused: 2OE-4OE to 3V3, 2A-4A to GND."], size=10, step=13)
    # The chain: data flows right to left, from the check chip to U1 to the buffer.
    drawn = [chain[0], chain[1], chain[-1]]
    xs, top = [640, 840, 1090], 400
    chips = []
    for x, entry in zip(xs, drawn):
        c = svg.chip(x, top, 150, 170, entry["ref"], "74HC165", left=["CP", "PL", "CE", "Q7"],
                     right=["", "", "", "DS"], bottom=["D0", "", "", "", "", "", "", "D7"])
        chips.append(c)
        for k in range(8):
            dx = x + 24 + k * (150 - 48) / 7
            svg.line([(dx, top + 170), (dx, top + 185)])
        first = entry["first_cell"]
        svg.text(x + 75, top + 202, f"squares {square_name(first)}-{square_name(first + 7)}",
                 size=11, anchor="middle", weight="bold")
        svg.text(x + 75, top + 217, f"(cells {first}-{first + 7})", size=10, anchor="middle")
        cx, cy = c["CE"]
        svg.text(cx - 4, cy + 4, "GND", size=9, anchor="end")
    # The check chip at the far end: inputs wired to the pattern, DS to GND.
    cx0 = 1320
    k = svg.chip(cx0, top, 150, 170, check["ref"], "74HC165 (check)",
                 left=["CP", "PL", "CE", "Q7"], right=["", "", "", "DS"],
                 bottom=["D0", "", "", "", "", "", "", "D7"])
    ex, ey = k["CE"]
    svg.text(ex - 4, ey + 4, "GND", size=9, anchor="end")
    bits = [(check["pattern"] >> n) & 1 for n in range(8)]
    for n, bit in enumerate(bits):
        dx = cx0 + 24 + n * (150 - 48) / 7
        svg.line([(dx, top + 170), (dx, top + 185)],
                 stroke=COLOURS["power"] if bit else COLOURS["ground"])
        svg.text(dx, top + 197, str(bit), size=10, anchor="middle",
                 fill=COLOURS["power"] if bit else COLOURS["ground"], weight="bold")
    svg.text(cx0 + 75, top + 214, f"D7..D0 = {check['pattern']:08b} = 0x{check['pattern']:02X}",
             size=11, anchor="middle", weight="bold")
    svg.text(cx0 + 75, top + 229, "1 = wire to 3V3, 0 = wire to GND", size=10, anchor="middle")
    svg.text(cx0 + 75, top + 244, "(no resistors, no reeds)", size=10, anchor="middle")
    # U1.Q7 -> buffer input; Un.DS <- Un+1.Q7; the check chip's DS to GND.
    wire(svg, b["1A"], chips[0]["Q7"], colour("SPI0_MISO"), via_x=625)
    svg.line([chips[0]["DS"], chips[1]["Q7"]], stroke="#555")
    svg.line([chips[1]["DS"], (1010, chips[1]["DS"][1])], stroke="#555", dash="6,4")
    svg.line([(1070, chips[2]["Q7"][1]), chips[2]["Q7"]], stroke="#555", dash="6,4")
    svg.text(1040, 548, f"U3 ... U{last - 1}", size=12, anchor="middle", weight="bold")
    svg.text(815, top + 52 + 3 * 22 + 16, "DS <- Q7", size=10, anchor="middle")
    svg.line([chips[2]["DS"], k["Q7"]], stroke="#555")
    gx, gy = k["DS"]
    svg.line([(gx, gy), (gx + 20, gy), (gx + 20, gy + 10)])
    svg.ground(gx + 20, gy + 10)
    svg.text(gx + 20, gy + 42, f"DS to {check['ds']}", size=10, anchor="middle")
    # Shared clock and load from above, each through a series resistor near the Pi.
    for key, name, bus_y, off, ref, rx in (("CP", "SPI0_SCLK", 350, 14, "R1 100", 470),
                                           ("PL", "SR_LOAD", 365, 22, "R2 100", 530)):
        x, y = p[name]
        svg.line([(x, y), (360 - off, y), (360 - off, bus_y), (rx - 16, bus_y)],
                 stroke=colour(name))
        svg.rect(rx - 16, bus_y - 6, 32, 12, fill="white", rx=1)
        svg.text(rx, bus_y - 10 if key == "CP" else bus_y + 19, ref, size=11, anchor="middle")
        svg.line([(rx + 16, bus_y), (cx0 + 90 - off, bus_y)], stroke=colour(name))
        for c in chips + [k]:
            px, py = c[key]
            svg.line([(px - off, bus_y), (px - off, py), (px, py)], stroke=colour(name))
            svg.dot(px - off, bus_y, fill=colour(name))
    svg.text(640, 346, "SCLK -> CP of every chip", size=10, fill=colour("SPI0_SCLK"))
    svg.text(650, 381, "SR_LOAD -> PL of every chip", size=10, fill=colour("SR_LOAD"))
    svg.notes(20, 420, [
        "Every input D0-D7 of every square",
        "chip is one square:",
        "",
        "  3V3 --[10 k]--+-- Dn",
        "                |",
        "           reed switch",
        "                |",
        "               GND",
        "",
        "(one 9-pin bussed 10 k network",
        "per chip). Empty = 1, piece = 0.",
        "An input wired to no square (a",
        "smaller board) keeps its pull-up:",
        "never leave a 74HC165 input open.",
    ], size=12, step=16)
    # The chain's order, chip by chip, from the pin map: the one source.
    svg.text(20, 680, "Chain order (pinmap.toml [sensor.shift_chain] chain): byte 1 read = U1, "
             "the chip whose Q7 drives MISO; each chip's Q7 feeds the DS of the chip before it.",
             size=12, weight="bold")
    for i, entry in enumerate(chain):
        x, y = 20 + (i % 3) * 420, 702 + (i // 3) * 17
        svg.text(x, y, chain_label(entry), size=11)
    y0 = 702 + ((len(chain) + 2) // 3) * 17 + 6
    svg.text(20, y0, f"then {check['ref']}, the check chip: its byte must read "
             f"0x{check['pattern']:02X} and the byte after it 0x00 (its DS to {check['ds']}).",
             size=11)
    if sc.get("longer") == "next":
        last = max(entry["first_cell"] for entry in chain) + 8
        y0 += 17
        svg.text(20, y0, f"A longer chain (tray slots, a larger board): each chip after "
                 f"{chain[-1]['ref']} reads the next 8 cells from cell {last} on, and the check "
                 f"chip moves to the far end.", size=11)
    svg.notes(20, y0 + 28, [
        "Read: pulse SR_LOAD low (latches all squares at once), then read "
        f"{sc['chips'] + 2} bytes on SPI0 CE1 (mode 0, {sc['spi_hz'] // 1000} kHz): one per "
        f"square chip, the check byte, the byte past the end.",
        "Bit n of a chip's byte is its input Dn. An unplugged cable (all 0 or all 1), a missing "
        "or an extra chip moves or loses the check byte: the firmware names the fault.",
        f"Decoupling: 100 nF ceramic from each chip's VCC pin to its GND pin, at the pin "
        f"(C1-C{len(chain) + 2}), and 10 µF bulk where 3V3 enters the board and at {check['ref']}.",
        "R1, R2: 100 Ω in series near the Pi (after SCLK's branch to the NFC reader): they damp "
        "ringing on a board-length wire, which would double-clock the chain. R3: 100 Ω on MISO.",
        "Power every chip from 3V3: the Pi's GPIO are not 5 V tolerant. Wire a different order? "
        "Map it in the configuration: [board] cells.",
    ], size=12, step=18)
    svg.save("sensor-shift-chain.svg")


# --------------------------------------------------------------------------------------------
# 4. Option A: diode matrix on two PCF8575.


def draw_matrix():
    m = PINMAP["sensor"]["matrix"]
    rows, cols = m["rows"], m["columns"]
    svg = Svg(1230, 940, f"Sensor option A: reed + diode matrix, {rows} rows x {cols} columns, "
                         "on two PCF8575 (I2C1)")
    p = svg.pi(20, 60, ["I2C1_SDA", "I2C1_SCL", ("3V3", 1), ("GND", 6)])
    u1 = svg.chip(420, 260, 150, 300, "U1 rows", f"PCF8575 @ 0x{m['row_expander']:02X}",
                  left=["SDA", "SCL", "A0", "A1", "A2"],
                  right=[f"P{n:02d}" for n in (0, 1, 2, 3, 4, 5, 6, 7, 10, 11)], pitch=24)
    u2 = svg.chip(620, 70, 560, 130, "U2 columns", f"PCF8575 @ 0x{m['column_expander']:02X}",
                  left=["SDA", "SCL"],
                  bottom=[f"P{n:02d}" for n in (0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13)])
    svg.text(900, 122, "A0 to 3V3; A1, A2 to GND", size=11, anchor="middle")
    svg.text(420, 252, "A0, A1, A2 to GND", size=11)
    for pin in ("A0", "A1", "A2"):
        x, y = u1[pin]
        svg.line([(x, y), (x - 10, y)])
    # I2C trunks: one wire from the Pi to both expanders.
    for name, trunk in (("I2C1_SDA", 380), ("I2C1_SCL", 365)):
        pin = name[-3:]
        (x, y), top, low = p[name], u2[pin], u1[pin]
        svg.line([(x, y), (trunk, y)], stroke=colour(name))
        svg.line([(trunk, top[1]), (trunk, low[1])], stroke=colour(name))
        svg.line([(trunk, top[1]), top], stroke=colour(name))
        svg.line([(trunk, low[1]), low], stroke=colour(name))
        svg.dot(trunk, y, fill=colour(name))
    for key, text in (("3V3@1", "VCC of U1, U2 (100 nF each), RN1, RN2"),
                      ("GND@6", "GND of U1 and U2")):
        x, y = p[key]
        stroke = COLOURS["power"] if key.startswith("3V3") else COLOURS["ground"]
        svg.line([(x, y), (350, y)], stroke=stroke)
        svg.text(178, y + 16, text, size=10, fill=stroke)
    # The grid.
    gx0, gy0, dx, dy = 660, 270, 44, 52
    row_pins = [u1[f"P{n:02d}"] for n in (0, 1, 2, 3, 4, 5, 6, 7, 10, 11)]
    col_pins = [u2[f"P{n:02d}"] for n in (0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13)]
    for r in range(rows):
        y = gy0 + r * dy
        px, py = row_pins[r]
        svg.line([(px, py), (620 - 4 * r, py), (620 - 4 * r, y), (gx0 + (cols - 1) * dx + 20, y)],
                 stroke="#1f6fb2")
        svg.text(gx0 + (cols - 1) * dx + 26, y + 4, f"R{r + 1}", size=11, fill="#1f6fb2")
    for c in range(cols):
        x = gx0 + c * dx
        px, py = col_pins[c]
        svg.line([(px, py), (px, 225), (x + 14, 225), (x + 14, gy0 + (rows - 1) * dy + 20)],
                 stroke="#8e5b2d")
        svg.text(x + 14, gy0 + (rows - 1) * dy + 34, f"C{c + 1}", size=11, anchor="middle",
                 fill="#8e5b2d")
    for r in range(rows):
        for c in range(cols):
            x, y = gx0 + c * dx + 14, gy0 + r * dy
            svg.rect(x - 9, y - 28, 10, 14, fill="#fff", stroke="#999", width=1, rx=1)
            svg.dot(x, y - 28, r=1.5)
    svg.text(gx0 - 40, gy0 + rows * dy + 30, "each small box: one square's reed + diode, "
             "between its column and its row", size=11)
    # Detail of one square.
    cx, cy = 60, 600
    svg.rect(cx - 30, cy - 30, 300, 230, fill="#fbfbfb", stroke="#999", dash="5,4")
    svg.text(cx - 20, cy - 10, "one square (at every crossing)", size=12, weight="bold")
    x = cx + 30
    svg.line([(x, cy), (x, cy + 30)], stroke="#8e5b2d")
    svg.text(x + 8, cy + 14, "column Cc (to U2)", size=11, fill="#8e5b2d")
    svg.dot(x, cy + 30, r=2.5)
    svg.line([(x, cy + 30), (x + 12, cy + 56)])
    svg.dot(x, cy + 60, r=2.5)
    svg.text(x + 20, cy + 50, "reed switch (normally open)", size=11)
    svg.line([(x, cy + 60), (x, cy + 100)])
    svg.diode(x, cy + 110, "1N4148, band (cathode) to the row")
    svg.line([(x, cy + 116), (x, cy + 140), (x + 200, cy + 140)], stroke="#1f6fb2")
    svg.text(x + 60, cy + 156, "row Rr (to U1)", size=11, fill="#1f6fb2")
    svg.notes(cx - 20, cy + 180, ["A magnet in the piece closes the reed."], size=11)
    svg.notes(20, 850, [
        "Scan (100 Hz): drive one row low, release the others (the PCF8575's weak high), wait the "
        "settle time (50 µs), read the 12 columns: a column reads low where that row's",
        "square holds a piece. The diodes stop three occupied squares from making a fourth look "
        "occupied (ghosting). Cell = 12 x (row - 1) + (column - 1); [board] cells remaps it.",
        "Pull-ups: the PCF8575's high is a weak 30-300 µA source, too slow on board-length wires: "
        "add 10 k from every row and column line to 3V3 (RN1: 10 rows, RN2: 12 columns).",
        "Decoupling: 100 nF at each PCF8575's VCC pin, 10 µF bulk at the board's 3V3 entry. Unused "
        "pins (P12-P17 of U1, P14-P17 of U2): tie each to 3V3 through 10 k.",
    ], size=12, step=18)
    svg.save("sensor-matrix.svg")


# --------------------------------------------------------------------------------------------
# 5. NFC: up to 16 MFRC522 modules, one chip select each through a 74HC154.


def draw_nfc():
    nfc = PINMAP["nfc"]
    readers = nfc["readers"]
    svg = Svg(1420, 1000, f"NFC (optional): up to {readers} MFRC522 modules, each under its own "
                          "squares, chip-selected by a 74HC154 on SPI0 CE0")
    rows = [("5V", 2), ("GND", 25), "SPI0_SCLK", "SPI0_MOSI", "SPI0_MISO", "SPI0_CE0",
            "NFC_RST", "NFC_A0", "NFC_A1", "NFC_A2", "NFC_A3"]
    p = svg.pi(20, 60, rows, pitch=44)
    rail3 = "#e67e22"
    # The NFC 3.3 V rail: its own regulator from the Pi's 5 V, so the modules do not load the
    # Pi's 3V3.
    u = svg.chip(450, 70, 170, 90, "U10", "AMS1117-3.3 module", left=["VIN", "GND"],
                 right=["3V3"], pitch=22)
    wire(svg, p["5V@2"], u["VIN"], COLOURS["power"], via_x=420)
    wire(svg, p["GND@25"], u["GND"], COLOURS["ground"], via_x=430)
    ox, oy = u["3V3"]
    svg.line([(ox, oy), (1370, oy)], stroke=rail3, width=3)
    svg.text(1365, oy - 6, "NFC 3V3 rail", size=11, anchor="end", fill=rail3, weight="bold")
    svg.line([(650, oy), (650, oy + 26)], stroke=rail3)
    svg.rect(638, oy + 26, 24, 14, fill="white", rx=1)
    svg.text(668, oy + 37, "C1 220 uF bulk", size=10)
    svg.ground(650, oy + 40)
    # Decoder: CE0 enables it, NFC_A0-A3 pick Y0..Y15 (active low) = reader n's chip select.
    d = svg.chip(470, 300, 150, 440, "U11", "74HC154 (4 to 16)",
                 left=["A0", "A1", "A2", "A3", "~E0", "~E1", "VCC", "GND"],
                 right=[f"Y{k}" for k in range(16)], pitch=24)
    for key, pin, vx in (("NFC_A0", "A0", 410), ("NFC_A1", "A1", 420), ("NFC_A2", "A2", 430),
                         ("NFC_A3", "A3", 440), ("SPI0_CE0", "~E0", 450)):
        wire(svg, p[key], d[pin], colour(key), via_x=vx)
    for pin, rail in (("~E1", "GND"), ("GND", "GND"), ("VCC", "NFC 3V3 + C 100 nF")):
        x, y = d[pin]
        svg.line([(x, y), (x - 14, y)], stroke=rail3 if rail != "GND" else COLOURS["ground"])
        svg.text(x - 18, y + 4, rail, size=10, anchor="end")
    # NFC_RST: to every module's RST, held low (hard power-down) by R1 until the firmware
    # starts.
    rx, ry = p["NFC_RST"]
    svg.line([(rx, ry), (394, ry), (394, 900), (1370, 900)], stroke=colour("NFC_RST"), width=2)
    svg.resistor(394, 930, "R1 10k to GND", vertical=True)
    svg.text(700, 893, "NFC_RST to RST of every module (R1 holds them in hard power-down at "
                       "boot)", size=11, fill=colour("NFC_RST"))
    # SCLK and MOSI to every module; MISO back through one 74HC125 gate per module.
    for i, key in enumerate(("SPI0_SCLK", "SPI0_MOSI")):
        x, y = p[key]
        by = 800 + i * 14
        svg.line([(x, y), (370 + i * 8, y), (370 + i * 8, by), (1370, by)], stroke=colour(key),
                 width=1.5)
    mx, my = p["SPI0_MISO"]
    miso_y = 828
    svg.line([(mx, my), (386, my), (386, miso_y), (1370, miso_y)], stroke=colour("SPI0_MISO"),
             width=1.5)
    svg.text(700, 850, "SCLK, MOSI to every module; each module's MISO through its own 74HC125 "
                       "gate onto SPI0_MISO", size=11)
    # Three of the modules, with their MISO gates.
    shown = [(0, 720), (1, 950), (readers - 1, 1190)]
    for n, x in shown:
        g = svg.chip(x, 240, 170, 120, f"U{12 + n // 4}{'abcd'[n % 4]}",
                     "74HC125 gate (1 of 4)", left=["A", "~OE"], right=["Y"], pitch=24)
        m = svg.chip(x, 450, 170, 260, f"Reader {n + 1}", "MFRC522 module",
                     left=["3.3V", "GND", "SCK", "MOSI", "MISO", "SDA", "RST", "IRQ"], pitch=24)
        svg.text(x + 85, 725, f"decoder output Y{n}", size=11, anchor="middle",
                 fill=COLOURS["nfc"])
        svg.text(x + 85, 740, "[[nfc.reader]] number " + str(n + 1), size=10, anchor="middle")
        # Its chip select from the decoder: SDA and the gate's enable.
        yx, yy = d[f"Y{n}"]
        lane = 640 + n % 8 * 6 if n < readers - 1 else 680
        svg.line([(yx, yy), (lane, yy), (lane, 215 + (n % 3) * 6), (x - 20, 215 + (n % 3) * 6),
                  (x - 20, m["SDA"][1]), m["SDA"]], stroke=COLOURS["nfc"], width=1.5)
        svg.line([(x - 20, g["~OE"][1]), g["~OE"]], stroke=COLOURS["nfc"], width=1.5)
        svg.dot(x - 20, g["~OE"][1], fill=COLOURS["nfc"], r=2.5)
        # MISO: module -> gate A; gate Y -> the shared MISO line.
        ax, ay = m["MISO"]
        svg.line([(ax, ay), (x - 10, ay), (x - 10, g["A"][1]), g["A"]],
                 stroke=colour("SPI0_MISO"), width=1.5)
        gx, gy = g["Y"]
        svg.line([(gx, gy), (gx + 20, gy), (gx + 20, miso_y)], stroke=colour("SPI0_MISO"),
                 width=1.5)
        svg.dot(gx + 20, miso_y, fill=colour("SPI0_MISO"), r=2.5)
        # Power with its own 100 nF at the module, and the shared lines.
        px, py = m["3.3V"]
        svg.line([(px, py), (x - 30, py), (x - 30, oy)], stroke=rail3, width=1.5)
        svg.dot(x - 30, oy, fill=rail3, r=2.5)
        svg.text(x + 175, py + 4, "C 100 nF", size=10)
        gx2, gy2 = m["GND"]
        svg.line([(gx2, gy2), (x - 40, gy2)], stroke=COLOURS["ground"])
        svg.ground(x - 40, gy2)
        for pin, line_y, key in (("SCK", 800, "SPI0_SCLK"), ("MOSI", 814, "SPI0_MOSI"),
                                 ("RST", 900, "NFC_RST")):
            qx, qy = m[pin]
            svg.line([(qx, qy), (x - 50 - (pin == "MOSI") * 5 - (pin == "RST") * 10, qy),
                      (x - 50 - (pin == "MOSI") * 5 - (pin == "RST") * 10, line_y)],
                     stroke=colour(key), width=1.2)
        ix, iy = m["IRQ"]
        svg.text(ix + 6, iy + 18, "IRQ n.c.", size=10)
    svg.text(1155, 380, "...", size=28, anchor="middle", weight="bold")
    svg.text(1155, 400, f"readers 3 to {readers - 1}", size=11, anchor="middle")
    svg.notes(20, 960, [
        "Reader n sits under the squares its [[nfc.reader]] cells list (one or two: a module reads "
        "a small tag over about its own antenna; not measured). The firmware wakes one module, lists "
        "every tag in its field",
        "and takes the one that was not there before (the piece just placed); the others stay in soft "
        "power-down, field off. Nothing of this sheet has been built or measured (schematics/README.md).",
    ], size=11, step=15)
    svg.notes(20, 50 + 44 * 12 + 60, [
        "3.3 V budget, computed from datasheet maxima",
        "(MFRC522 Table 1, not measured):",
        "one module awake, field on:",
        "  6.5 (IDDD) + 10 (IDDA) + 100 (TVDD) = 116.5 mA",
        f"{readers - 1} in soft power-down: {readers - 1} x 10 uA",
        "74HC154 + 4x 74HC125: < 1 mA",
        "module power LEDs: about 2 mA each",
        f"  (estimate): {2 * readers} mA for {readers}",
        f"steady: ~{117 + 1 + 2 * readers} mA",
        f"reset released, before the firmware",
        f"sleeps them (~50 ms): {readers} x 16.5 mA",
        f"  + LEDs = ~{round(16.5 * readers) + 2 * readers} mA peak.",
        "U10 gives 1 A: margin > 2x.",
        "Decoupling: 100 nF at each module and",
        "chip, C1 220 uF at U10's output.",
    ], size=11, step=15)
    svg.save("nfc.svg")


# --------------------------------------------------------------------------------------------
# 6. Option C (an alternative build, no NFC): reed + diode matrix straight on GPIO.


def draw_gpio_matrix():
    gm = PINMAP["sensor"]["gpio_matrix"]
    row_names = [r["name"] for r in gm["rows"]]
    col_names = [c["name"] for c in gm["columns"]]
    nr, nc = len(row_names), len(col_names)
    row_colour, col_colour = "#1f6fb2", "#8e5b2d"
    svg = Svg(1400, 1080, f"Sensor option C (a build without NFC): reed + diode matrix, {nr} rows "
                          f"x {nc} columns, straight on GPIO")
    pitch = 40
    p = svg.pi(20, 60, row_names + col_names, pitch=pitch)
    gx0, dx = 440, 56
    y_top = p[row_names[0]][1] - 34
    x_end = gx0 + (nc - 1) * dx + 40
    # Rows: outputs, straight across from the Pi.
    for r, name in enumerate(row_names):
        x, y = p[name]
        svg.line([(x, y), (x_end, y)], stroke=row_colour)
        svg.text(x_end + 6, y + 4, f"R{r + 1}", size=11, fill=row_colour, weight="bold")
    # Columns: inputs, up from the Pi into the grid (COL1 turns up first: no wire crosses).
    for c, name in enumerate(col_names):
        x, y = p[name]
        cx = gx0 + c * dx
        svg.line([(x, y), (cx, y), (cx, y_top)], stroke=col_colour)
        svg.text(cx, y_top - 6, f"C{c + 1}", size=11, anchor="middle", fill=col_colour,
                 weight="bold")
    # One reed + diode per square: from its column, through the reed, anode to cathode, to its row.
    for r, rname in enumerate(row_names):
        ry = p[rname][1]
        for c in range(nc):
            cx = gx0 + c * dx
            sx = cx + 24
            svg.dot(cx, ry - 30, fill=col_colour, r=2)
            svg.line([(cx, ry - 30), (sx, ry - 30), (sx, ry - 27)], width=1)
            svg.line([(sx, ry - 27), (sx + 5, ry - 19)], width=1.2)  # reed blade, open
            svg.dot(sx, ry - 27, r=1.5)
            svg.dot(sx, ry - 17, r=1.5)
            svg.line([(sx, ry - 17), (sx, ry - 13)], width=1)
            svg.parts.append(f'<polygon points="{sx - 4},{ry - 13} {sx + 4},{ry - 13} {sx},{ry - 6}" '
                             f'fill="#333"/>')
            svg.line([(sx - 4, ry - 6), (sx + 4, ry - 6)], width=1.6)
            svg.line([(sx, ry - 6), (sx, ry)], width=1)
            svg.dot(sx, ry, fill=row_colour, r=2)
    notes_y = p[col_names[-1]][1] + 60
    svg.text(20, notes_y, f"{nr * nc} squares: at every crossing one reed switch "
             "and one 1N4148, band (cathode) towards the row", size=12, weight="bold")
    # Detail of one square.
    dx0, dy0 = 1090, 110
    svg.rect(dx0 - 20, dy0 - 30, 310, 350, fill="#fbfbfb", stroke="#999", dash="5,4")
    svg.text(dx0 - 10, dy0 - 8, "one square, enlarged", size=13, weight="bold")
    x = dx0 + 40
    svg.line([(x, dy0 + 10), (x, dy0 + 40)], stroke=col_colour, width=2.5)
    svg.text(x + 10, dy0 + 24, "column Cc: input, pull-up", size=11, fill=col_colour)
    svg.dot(x, dy0 + 40, r=2.5)
    svg.line([(x, dy0 + 40), (x + 12, dy0 + 68)])
    svg.dot(x, dy0 + 72, r=2.5)
    svg.text(x + 22, dy0 + 56, "reed switch (normally open);", size=11)
    svg.text(x + 22, dy0 + 70, "the piece's magnet closes it", size=11)
    svg.line([(x, dy0 + 72), (x, dy0 + 104)])
    svg.text(x + 12, dy0 + 100, "anode", size=10, italic=True)
    svg.diode(x, dy0 + 116)
    svg.text(x + 14, dy0 + 120, "1N4148", size=11, weight="bold")
    svg.text(x + 12, dy0 + 136, "band = cathode", size=10, italic=True)
    svg.line([(x, dy0 + 122), (x, dy0 + 160), (x + 220, dy0 + 160)], stroke=row_colour, width=2.5)
    svg.text(x + 40, dy0 + 178, "row Rr: output", size=11, fill=row_colour)
    svg.notes(dx0 - 10, dy0 + 206, [
        "Current flows only column -> row:",
        "the pulled-up column, through the closed",
        "reed and the diode, into the row that is",
        "driven low. The other rows are released",
        "(open-drain: inputs, no pull), so no row",
        "ever drives high: even a diode fitted",
        "backwards cannot short two Pi pins.",
    ], size=11, step=15)
    svg.notes(dx0 - 10, dy0 + 340, [
        "No resistors, no chips: the Pi's internal",
        "pull-ups (about 50 k) hold the columns high",
        "and the firmware waits settle_us (50 µs by",
        "default) after selecting a row.",
        "For long or noisy wiring add 10 k from each",
        "column to 3V3 (pin 1 or 17).",
        "",
        "Rows on header pins 7 to 22,",
        "columns on header pins 23 to 40.",
    ], size=11, step=15)
    svg.notes(20, notes_y + 24, [
        "Scan (100 Hz or faster): drive one row low and release every other row (open-drain), read "
        "the ten columns: a column reads low where that row's square holds a piece.",
        f"Cell = {nc} x (row - 1) + (column - 1); the layout file maps cells to squares. "
        "Configuration: [sensor] kind = \"gpio_matrix\", [sensor.gpio_matrix] rows = [...], "
        "columns = [...].",
        "This build has no NFC, no SPI device and no buzzer: it reuses their pins and the spare ones. "
        "Leave SPI off (no dtparam=spi=on).",
        "COL4 is the HAT ID_SD pin, used as an input only (there is no HAT EEPROM): set "
        "force_eeprom_read=0 in /boot/firmware/config.txt.",
        "The serial console (header pins 8, 10), I2C1 (the OLED) and the three buttons stay as in "
        "oled-buttons.svg.",
    ], size=12, step=18)
    svg.save("sensor-gpio-matrix.svg")


# --------------------------------------------------------------------------------------------
# 7. The optional LED guidance: a WS2812B chain on SPI1's MOSI through a level shifter.


def draw_leds():
    leds = PINMAP["leds"]
    board = PINMAP["board"]
    squares = board["columns"] * board["rows"]
    svg = Svg(1300, 620, "LED guidance (optional): WS2812B chain on SPI1 MOSI via a 74AHCT125")
    p = svg.pi(20, 60, [("5V", 2), ("GND", 6), None, "SPI1_MOSI"])
    # The level shifter: a 74AHCT125 on 5 V reads the Pi's 3.3 V as high (V_IH 2 V) and drives 5 V.
    u = svg.chip(470, 180, 170, 120, "U20", f"{leds['shifter']} (gate 1 of 4)",
                 left=["1A", "1OE"], right=["1Y"], top=["VCC", "GND"])
    wire(svg, p["SPI1_MOSI"], u["1A"], colour("SPI1_MOSI"), via_x=420)
    ox, oy = u["1OE"]
    svg.line([(ox, oy), (ox - 30, oy)], stroke=COLOURS["ground"])
    svg.ground(ox - 30, oy)
    vx, vy = u["VCC"]
    gx, gy = u["GND"]
    wire(svg, p["5V@2"], (vx, vy - 40), COLOURS["power"], via_x=380)
    svg.line([(vx, vy - 40), (vx, vy)], stroke=COLOURS["power"])
    wire(svg, p["GND@6"], (gx, gy - 20), COLOURS["ground"], via_x=395)
    svg.line([(gx, gy - 20), (gx, gy)], stroke=COLOURS["ground"])
    svg.text(vx + 6, vy - 46, "5V · pin 2 (a few mA for U20 only)", size=10, fill=COLOURS["power"])
    svg.notes(470, 330, ["C 100 nF from VCC (pin 14) to GND (pin 7) at U20.",
                         "Gates 2-4 unused: 2A-4A and 2OE-4OE to GND."], size=10, step=13)
    # Series resistor to the first LED's DIN.
    yx, yy = u["1Y"]
    svg.line([(yx, yy), (700, yy)], stroke=COLOURS["leds"])
    svg.resistor(716, yy, f"R20 {leds['series_ohms']} Ω")
    svg.line([(732, yy), (780, yy)], stroke=COLOURS["leds"])
    svg.text(716, yy + 24, "DIN, 5 V logic", size=11, anchor="middle", fill=COLOURS["leds"],
             weight="bold")
    # The chain: LED 0, LED 1, ..., the last; DOUT of each to DIN of the next.
    xs = [780, 930, 1120]
    names = ["LED 0 (a1)", "LED 1 (b1)", "LED N-1"]
    tops = []
    for x, name in zip(xs, names):
        c = svg.chip(x, 180, 120, 110, name, "WS2812B", left=["DIN"], right=["DOUT"],
                     top=["VDD", "VSS"])
        tops.append(c)
    svg.line([tops[0]["DOUT"], tops[1]["DIN"]], stroke=COLOURS["leds"])
    dx, dy = tops[1]["DOUT"]
    svg.line([(dx, dy), (dx + 30, dy)], stroke=COLOURS["leds"], dash="4 4")
    svg.text(dx + 50, dy + 4, "...", size=14)
    svg.line([(tops[2]["DIN"][0] - 30, dy), tops[2]["DIN"]], stroke=COLOURS["leds"], dash="4 4")
    # The strip's own supply and its bulk capacitor.
    rail_5v, rail_gnd = 110, 140
    svg.line([(760, rail_5v), (1270, rail_5v)], stroke=COLOURS["power"])
    svg.line([(760, rail_gnd), (1270, rail_gnd)], stroke=COLOURS["ground"])
    for c in tops:
        svg.line([(c["VDD"][0], rail_5v), c["VDD"]], stroke=COLOURS["power"])
        svg.line([(c["VSS"][0], rail_gnd), c["VSS"]], stroke=COLOURS["ground"])
    svg.text(1270, rail_5v - 6, "+5 V strip (its own supply)", size=11, anchor="end",
             fill=COLOURS["power"])
    svg.text(1270, rail_gnd + 14, "GND strip", size=11, anchor="end", fill=COLOURS["ground"])
    svg.rect(560, 60, 150, 40, fill="#fff")
    svg.text(635, 78, "5 V supply for the LEDs", size=11, anchor="middle", weight="bold")
    svg.text(635, 93, "(not the Pi's 5 V pins)", size=10, anchor="middle")
    svg.line([(710, 72), (740, 72), (740, rail_5v), (760, rail_5v)], stroke=COLOURS["power"])
    svg.line([(710, 90), (725, 90), (725, rail_gnd), (760, rail_gnd)], stroke=COLOURS["ground"])
    svg.line([(760, rail_5v), (760, rail_5v + 4)], stroke=COLOURS["power"])
    svg.rect(752, rail_5v + 4, 16, 22, fill="#fff", rx=2)
    svg.line([(760, rail_5v + 26), (760, rail_gnd)], stroke=COLOURS["ground"])
    svg.text(748, rail_5v + 20, f"C20 {leds['bulk_uf']} µF", size=10, anchor="end")
    # Common ground: the strip's GND joined to the Pi's at U20.
    svg.line([(gx, gy - 20), (gx, 150), (725, 150), (725, rail_gnd)], stroke=COLOURS["ground"],
             dash="6 3")
    svg.text(640, 146, "GND joined", size=10, fill=COLOURS["ground"])
    n = squares
    svg.notes(20, 390, [
        f"One WS2812B under each square ({n} on a {board['columns']} x {board['rows']} board) and "
        "under each tray slot, chained DOUT -> DIN.",
        f"Chain order ([leds] order = \"{leds['order']}\" in pinmap.toml, the one source the "
        "firmware reads): LED 0 under a1, along row 1, back along row 2, ..., then the tray slots.",
        "SPI1 only carries the chain (it has no chip select, so it would read any other device's "
        "bytes as colours): dtoverlay=spi1-1cs; MISO, SCLK and CE0 stay unwired.",
        "Each LED bit is 3 SPI bits at 2.4 MHz (100 = 0, 110 = 1), GRB order, a 320 µs reset gap "
        "between frames.",
        "The 74AHCT125 turns 3.3 V into 5 V logic: a WS2812B on 5 V wants DIN high above "
        "0.7 x VDD = 3.5 V, more than the Pi gives.",
        f"R20 ({leds['series_ohms']} Ω) near U20 damps ringing on the data wire; keep that wire "
        "short. C20 ({} µF) across the strip's 5 V at its feed absorbs the switch-on surge.".format(
            leds["bulk_uf"]),
        "Power (computed, not measured): 60 mA per LED at full white (20 mA a channel, a commonly "
        "quoted figure);",
        "the firmware caps brightness at 64/255, so 132 LEDs draw at most 132 x 60 mA x 64/255 = "
        "2.0 A. Take a 5 V 3 A supply;",
        "feed long strips at both ends. Never draw this from the Pi's 5 V pins.",
        "Check: `umpire doctor` lights each LED in turn; each must light under its own place, "
        "in order.",
    ], size=12, step=19)
    svg.save("leds.svg")


if __name__ == "__main__":
    draw_header()
    draw_oled_buttons()
    draw_shift_chain()
    draw_matrix()
    draw_nfc()
    draw_gpio_matrix()
    draw_leds()
    print("wrote", ", ".join(sorted(p.name for p in HERE.glob("*.svg"))))
