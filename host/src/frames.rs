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
