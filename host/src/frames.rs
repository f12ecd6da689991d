//! OLED frames as PNG images: what the umpire's 128x64 screen showed, pixel for pixel.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

use firmware::screens::{Frame, HEIGHT, WIDTH};

/// Each OLED pixel becomes a `SCALE` x `SCALE` block, so a frame is 512 x 256: readable on a
/// laptop screen, still exact.
pub const SCALE: usize = 4;

/// The frame as 8-bit grey pixels (lit = white), scaled by [`SCALE`].
pub fn to_grey(frame: &Frame) -> Vec<u8> {
    let (w, h) = (WIDTH * SCALE, HEIGHT * SCALE);
    let mut grey = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            if frame.pixel(x / SCALE, y / SCALE) {
                grey[y * w + x] = 0xFF;
            }
        }
    }
    grey
}

/// Writes `frame` to `path` as a greyscale PNG.
///
/// # Errors
/// The file cannot be created or written.
pub fn write_png(frame: &Frame, path: &Path) -> io::Result<()> {
    let file = BufWriter::new(File::create(path)?);
    let mut encoder = png::Encoder::new(file, (WIDTH * SCALE) as u32, (HEIGHT * SCALE) as u32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(io::Error::other)?;
    writer
        .write_image_data(&to_grey(frame))
        .map_err(io::Error::other)?;
    writer.finish().map_err(io::Error::other)
}

/// The frame as text art, two pixel rows per line in half blocks (`▀`, `▄`, `█`), framed: the
/// OLED pixel for pixel in a terminal 130 columns wide.
pub fn text_art(frame: &Frame) -> Vec<String> {
    let mut lines = vec![format!("+{}+", "-".repeat(WIDTH))];
    for y in (0..HEIGHT).step_by(2) {
        let row: String = (0..WIDTH)
            .map(|x| match (frame.pixel(x, y), frame.pixel(x, y + 1)) {
                (false, false) => ' ',
                (true, false) => '\u{2580}',
                (false, true) => '\u{2584}',
                (true, true) => '\u{2588}',
            })
            .collect();
        lines.push(format!("|{row}|"));
    }
    lines.push(format!("+{}+", "-".repeat(WIDTH)));
    lines
}

/// Pixels per place in an LED picture ([`write_leds_png`]).
const LED_CELL: usize = 24;

/// The LEDs of a board as a colour picture: a square of `LED_CELL` pixels per place, the
/// board's squares in their rows and columns (row 1 at the bottom, as the players see it from
/// the first seat), then one row of slots per tray below it; each LED a disc, dark grey when
/// off, in its meaning's colour (at full brightness, so a dim colour still shows) when lit.
pub fn leds_picture(
    layout: &firmware::sensing::SensorLayout,
    lit: &std::collections::BTreeMap<firmware::sensing::Place, firmware::guidance::Meaning>,
    palette: &firmware::guidance::Palette,
) -> (usize, usize, Vec<u8>) {
    use firmware::sensing::Place;
    let places: Vec<Place> = layout.iter().map(|(_, p)| p).collect();
    let squares: Vec<_> = places
        .iter()
        .filter_map(|p| match p {
            Place::Square(c) => Some(*c),
            Place::Tray { .. } => None,
        })
        .collect();
    let cols = squares
        .iter()
        .map(|c| usize::from(c.col) + 1)
        .max()
        .unwrap_or(0);
    let rows = squares
        .iter()
        .map(|c| usize::from(c.row) + 1)
        .max()
        .unwrap_or(0);
    // One row per tray, in the layout's order of trays.
    let mut trays: Vec<Vec<Place>> = Vec::new();
    for p in &places {
        if let Place::Tray { tray, seat, .. } = p {
            let same = |q: &Place| matches!(q, Place::Tray { tray: t, seat: s, .. } if t == tray && s == seat);
            match trays.iter_mut().find(|row| row.first().is_some_and(same)) {
                Some(row) => row.push(*p),
                None => trays.push(vec![*p]),
            }
        }
    }
    for row in &mut trays {
        row.sort();
    }
    let width = cols
        .max(trays.iter().map(Vec::len).max().unwrap_or(0))
        .max(1)
        * LED_CELL;
    let gap = if trays.is_empty() { 0 } else { LED_CELL / 2 };
    let height = (rows + trays.len()).max(1) * LED_CELL + gap;
    let mut rgb = vec![0x10u8; width * height * 3];
    let mut disc = |x0: usize, y0: usize, place: &Place| {
        let colour = lit.get(place).map(|m| {
            let c = palette.colour(*m);
            let top = u16::from(c.r.max(c.g).max(c.b)).max(1);
            let up = |v: u8| (u16::from(v) * 255 / top) as u8;
            [up(c.r), up(c.g), up(c.b)]
        });
        let r = (LED_CELL / 2 - 3) as i32;
        let centre = (LED_CELL / 2) as i32;
        for dy in 0..LED_CELL {
            for dx in 0..LED_CELL {
                let (ex, ey) = (dx as i32 - centre, dy as i32 - centre);
                let px = ((y0 + dy) * width + x0 + dx) * 3;
                let border = dx == 0 || dy == 0;
                let ink = if border {
                    [0x40, 0x40, 0x40]
                } else if ex * ex + ey * ey <= r * r {
                    colour.unwrap_or([0x30, 0x30, 0x30])
                } else {
                    [0x10, 0x10, 0x10]
                };
                rgb[px..px + 3].copy_from_slice(&ink);
            }
        }
    };
    for c in &squares {
        let x = usize::from(c.col) * LED_CELL;
        let y = (rows - 1 - usize::from(c.row)) * LED_CELL;
        disc(x, y, &Place::Square(*c));
    }
    for (i, row) in trays.iter().enumerate() {
        for (j, p) in row.iter().enumerate() {
            disc(j * LED_CELL, (rows + i) * LED_CELL + gap, p);
        }
    }
    (width, height, rgb)
}

/// Writes [`leds_picture`] to `path` as a colour PNG.
///
/// # Errors
/// The file cannot be created or written.
pub fn write_leds_png(
    layout: &firmware::sensing::SensorLayout,
    lit: &std::collections::BTreeMap<firmware::sensing::Place, firmware::guidance::Meaning>,
    path: &Path,
) -> io::Result<()> {
    let (w, h, rgb) = leds_picture(layout, lit, &firmware::guidance::Palette::default());
    let file = BufWriter::new(File::create(path)?);
    let mut encoder = png::Encoder::new(file, w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(io::Error::other)?;
    writer.write_image_data(&rgb).map_err(io::Error::other)?;
    writer.finish().map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    use boards::geometry::grid::Cell;
    use firmware::guidance::{Meaning, Palette};
    use firmware::referee::RefereeConfig;
    use firmware::sensing::Place;

    use crate::sim::SimTable;

    /// The picture's pixel at the centre of `cell`'s disc on a 10 x 10 board.
    fn centre(rgb: &[u8], width: usize, cell: Cell) -> [u8; 3] {
        let x = usize::from(cell.col) * LED_CELL + LED_CELL / 2;
        let y = (9 - usize::from(cell.row)) * LED_CELL + LED_CELL / 2;
        let i = (y * width + x) * 3;
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    }

    /// Each lit LED is drawn under its own square (row 1 at the bottom) in its meaning's
    /// colour at full brightness; the others are dark grey.
    #[test]
    fn a_lit_led_is_drawn_in_its_colour_on_its_square() {
        let table = SimTable::new(RefereeConfig::default(), 3, false).expect("table");
        let layout = table.pipeline().sensing().layout();
        let (c3, h7) = (Cell::new(2, 2), Cell::new(7, 6));
        let lit = BTreeMap::from([
            (Place::Square(c3), Meaning::HandStep),
            (Place::Square(h7), Meaning::LastMove),
        ]);
        let (w, h, rgb) = leds_picture(layout, &lit, &Palette::default());
        assert_eq!(
            (w, h),
            (10 * LED_CELL, 10 * LED_CELL),
            "the classic board has no trays"
        );
        assert_eq!(rgb.len(), w * h * 3);
        assert_eq!(centre(&rgb, w, c3), [0, 64, 255], "hand step: blue");
        assert_eq!(
            centre(&rgb, w, h7),
            [255, 255, 255],
            "dim white, drawn bright"
        );
        assert_eq!(centre(&rgb, w, Cell::new(7, 2)), [0x30, 0x30, 0x30], "off");
    }
}
