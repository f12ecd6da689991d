//! A 128x64 one-bit frame in the SSD1306's own memory layout, and what changed between two frames.
//!
//! The controller's RAM is 8 *pages* of 128 columns; each byte is a vertical strip of 8 pixels
//! (bit 0 at the top). [`Frame`] keeps exactly that layout, so pushing a region is copying bytes.
//! Because the renderer redraws a whole screen into a fresh frame, "what changed" is found by
//! comparing bytes ([`diff`], [`diff_regions`]), never by tracking where drawing happened: a
//! screen that redraws the same text costs nothing on the bus.

use core::convert::Infallible;
use std::vec::Vec;

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;

/// Display width in pixels (and columns).
pub const WIDTH: usize = 128;
/// Display height in pixels.
pub const HEIGHT: usize = 64;
/// Number of 8-pixel pages.
pub const PAGES: usize = HEIGHT / 8;
/// Bytes in a whole frame.
pub const FRAME_BYTES: usize = WIDTH * PAGES;

/// One frame of the OLED, 1 bit per pixel, in SSD1306 page layout.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Frame {
    bytes: [u8; FRAME_BYTES],
}

impl core::fmt::Debug for Frame {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let lit: u32 = self.bytes.iter().map(|b| b.count_ones()).sum();
        f.debug_struct("Frame").field("lit_pixels", &lit).finish()
    }
}

impl Default for Frame {
    fn default() -> Self {
        Self::new()
    }
}

impl Frame {
    /// A dark frame.
    pub const fn new() -> Self {
        Self {
            bytes: [0; FRAME_BYTES],
        }
    }

    /// The raw bytes, page 0 columns 0..128 first, as the controller stores them.
    pub fn as_bytes(&self) -> &[u8; FRAME_BYTES] {
        &self.bytes
    }

    /// The byte for `page` (0-7) and `column` (0-127), or `None` off the screen.
    pub fn byte(&self, page: usize, column: usize) -> Option<u8> {
        if page < PAGES && column < WIDTH {
            self.bytes.get(page * WIDTH + column).copied()
        } else {
            None
        }
    }

    /// Whether the pixel at (`x`, `y`) is lit; `false` off the screen.
    pub fn pixel(&self, x: usize, y: usize) -> bool {
        if x >= WIDTH || y >= HEIGHT {
            return false;
        }
        self.byte(y / 8, x).is_some_and(|b| b & (1 << (y % 8)) != 0)
    }

    /// Lights or darkens the pixel at (`x`, `y`); off-screen pixels are ignored.
    pub fn set_pixel(&mut self, x: usize, y: usize, on: bool) {
        if x >= WIDTH || y >= HEIGHT {
            return;
        }
        if let Some(b) = self.bytes.get_mut((y / 8) * WIDTH + x) {
            let mask = 1u8 << (y % 8);
            if on {
                *b |= mask;
            } else {
                *b &= !mask;
            }
        }
    }

    /// The bytes of `region`, page by page, left to right: the order the controller expects in
    /// horizontal addressing mode after its column and page window is set to `region`.
    pub fn region_bytes(&self, region: &Region) -> Vec<u8> {
        let mut out = Vec::with_capacity(region.bytes());
        for page in usize::from(region.first_page)..=usize::from(region.last_page) {
            let start = page * WIDTH + usize::from(region.first_column);
            let end = page * WIDTH + usize::from(region.last_column) + 1;
            if let Some(row) = self.bytes.get(start..end) {
                out.extend_from_slice(row);
            }
        }
        out
    }
}

impl OriginDimensions for Frame {
    fn size(&self) -> Size {
        Size::new(WIDTH as u32, HEIGHT as u32)
    }
}

impl DrawTarget for Frame {
    type Color = BinaryColor;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        for Pixel(point, color) in pixels {
            if let (Ok(x), Ok(y)) = (usize::try_from(point.x), usize::try_from(point.y)) {
                self.set_pixel(x, y, color.is_on());
            }
        }
        Ok(())
    }

    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        self.bytes = [if color.is_on() { 0xFF } else { 0x00 }; FRAME_BYTES];
        Ok(())
    }
}

/// A rectangle of controller memory: pages `first_page..=last_page` by columns
/// `first_column..=last_column`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// Top page, 0-7.
    pub first_page: u8,
    /// Bottom page, inclusive.
    pub last_page: u8,
    /// Left column, 0-127.
    pub first_column: u8,
    /// Right column, inclusive.
    pub last_column: u8,
}

impl Region {
    /// The whole screen.
    pub const FULL: Region = Region {
        first_page: 0,
        last_page: (PAGES - 1) as u8,
        first_column: 0,
        last_column: (WIDTH - 1) as u8,
    };

    /// Bytes of frame data in the region.
    pub fn bytes(&self) -> usize {
        let pages = usize::from(self.last_page.saturating_sub(self.first_page)) + 1;
        let columns = usize::from(self.last_column.saturating_sub(self.first_column)) + 1;
        pages * columns
    }

    /// The smallest region holding both.
    pub fn union(&self, other: &Region) -> Region {
        Region {
            first_page: self.first_page.min(other.first_page),
            last_page: self.last_page.max(other.last_page),
            first_column: self.first_column.min(other.first_column),
            last_column: self.last_column.max(other.last_column),
        }
    }

    /// Bytes this region costs on the I2C wire when pushed by [`crate::display::Display`],
    /// counting each transaction's address byte: two command writes of 5 bytes (address, control
    /// 0x00, command, start, end) to set the window, then the data in writes of at most 16 bytes,
    /// each with an address and a 0x40 control byte (display-interface-i2c 0.5 framing).
    pub fn wire_bytes(&self) -> usize {
        let data = self.bytes();
        2 * 5 + data + 2 * data.div_ceil(DATA_CHUNK)
    }
}

/// Data bytes per I2C write in display-interface-i2c 0.5.
pub const DATA_CHUNK: usize = 16;

/// Changed columns per page: `(first, last)` or `None` where the page is unchanged.
fn page_spans(old: &Frame, new: &Frame) -> [Option<(u8, u8)>; PAGES] {
    let mut spans = [None; PAGES];
    for (page, span) in spans.iter_mut().enumerate() {
        let start = page * WIDTH;
        let (Some(a), Some(b)) = (
            old.bytes.get(start..start + WIDTH),
            new.bytes.get(start..start + WIDTH),
        ) else {
            continue;
        };
        let first = a.iter().zip(b).position(|(x, y)| x != y);
        let last = a.iter().zip(b).rposition(|(x, y)| x != y);
        if let (Some(first), Some(last)) = (first, last) {
            *span = Some((first as u8, last as u8));
        }
    }
    spans
}

/// The bounding box of every byte that differs between `old` and `new`, or `None` if the frames
/// are equal.
pub fn diff(old: &Frame, new: &Frame) -> Option<Region> {
    page_spans(old, new)
        .iter()
        .enumerate()
        .filter_map(|(page, span)| {
            span.map(|(first, last)| Region {
                first_page: page as u8,
                last_page: page as u8,
                first_column: first,
                last_column: last,
            })
        })
        .reduce(|a, b| a.union(&b))
}

/// The changed bytes as a few rectangles, chosen to cost the fewest bytes on the I2C wire
/// ([`Region::wire_bytes`]): bands of consecutive pages, each as wide as its changed columns.
/// Two changes far apart (the clock in the status line and a line near the bottom) go as two
/// small rectangles instead of one bounding box over everything between. Empty if the frames
/// are equal; never more than 8 rectangles (one per page).
pub fn diff_regions(old: &Frame, new: &Frame) -> Vec<Region> {
    let spans = page_spans(old, new);
    let band = |from: usize, to: usize| -> Option<Region> {
        spans
            .get(from..=to)?
            .iter()
            .flatten()
            .map(|&(first, last)| Region {
                first_page: from as u8,
                last_page: to as u8,
                first_column: first,
                last_column: last,
            })
            .reduce(|a, b| a.union(&b))
    };
    // best[i] = the cheapest cover of pages 0..i and the band that ends it (None: page i-1 is
    // unchanged and needs no band).
    let mut best: [(usize, Option<(usize, usize)>); PAGES + 1] = [(0, None); PAGES + 1];
    for end in 1..=PAGES {
        let last = end - 1;
        best[end] = if spans[last].is_none() {
            (best[last].0, None)
        } else {
            (usize::MAX, None)
        };
        if spans[last].is_none() {
            continue;
        }
        for start in (0..end).filter(|&start| spans[start].is_some()) {
            if let Some(region) = band(start, last) {
                let cost = best[start].0.saturating_add(region.wire_bytes());
                if cost < best[end].0 {
                    best[end] = (cost, Some((start, last)));
                }
            }
        }
    }
    let mut regions = Vec::new();
    let mut end = PAGES;
    while end > 0 {
        match best[end].1 {
            Some((start, last)) => {
                if let Some(region) = band(start, last) {
                    regions.push(region);
                }
                end = start;
            }
            None => end -= 1,
        }
    }
    regions.reverse();
    regions
}

/// Bytes on the I2C wire to push `regions` (see [`Region::wire_bytes`]).
pub fn wire_bytes(regions: &[Region]) -> usize {
    regions.iter().map(Region::wire_bytes).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_frames_have_no_diff() {
        let a = Frame::new();
        assert_eq!(diff(&a, &a), None);
        assert!(diff_regions(&a, &a).is_empty());
    }

    #[test]
    fn one_pixel_is_one_byte() {
        let a = Frame::new();
        let mut b = Frame::new();
        b.set_pixel(10, 20, true);
        let r = Region {
            first_page: 2,
            last_page: 2,
            first_column: 10,
            last_column: 10,
        };
        assert_eq!(diff(&a, &b), Some(r));
        assert_eq!(diff_regions(&a, &b), [r]);
        assert_eq!(b.region_bytes(&r), [1 << 4]);
    }

    #[test]
    fn far_apart_changes_go_as_two_rectangles() {
        let a = Frame::new();
        let mut b = Frame::new();
        b.set_pixel(100, 0, true);
        b.set_pixel(0, 63, true);
        let bounding = Region {
            first_page: 0,
            last_page: 7,
            first_column: 0,
            last_column: 100,
        };
        assert_eq!(diff(&a, &b), Some(bounding));
        let regions = diff_regions(&a, &b);
        assert_eq!(regions.len(), 2);
        assert!(wire_bytes(&regions) < bounding.wire_bytes() / 20);
    }

    #[test]
    fn near_changes_merge() {
        let a = Frame::new();
        let mut b = Frame::new();
        for x in 0..60 {
            b.set_pixel(x, 3, true);
            b.set_pixel(x, 12, true);
        }
        assert_eq!(diff_regions(&a, &b).len(), 1);
    }

    #[test]
    fn regions_cover_every_change() {
        let a = Frame::new();
        let mut b = Frame::new();
        for (x, y) in [(5, 5), (120, 9), (64, 40), (3, 63), (70, 33)] {
            b.set_pixel(x, y, true);
        }
        let regions = diff_regions(&a, &b);
        for page in 0..PAGES {
            for column in 0..WIDTH {
                if a.byte(page, column) != b.byte(page, column) {
                    assert!(regions.iter().any(|r| {
                        (usize::from(r.first_page)..=usize::from(r.last_page)).contains(&page)
                            && (usize::from(r.first_column)..=usize::from(r.last_column))
                                .contains(&column)
                    }));
                }
            }
        }
    }
}
