//! A screen laid out before it is painted: pages of marks (lines of text, bars, rules), so the
//! pixels on the OLED and the words the simulator, the logs and the tests read come from one
//! place.
//!
//! Text is never cut: what does not fit one page flows onto more pages, each with a "2/3" mark
//! in its bottom right corner, which the service turns by itself ([`PAGE_MS`](super::PAGE_MS)). When a screen
//! needs pages, the words a player needs first (the verdict, what to press, the first hand
//! step: a [`Block`]'s `essential`) go on page 1.

use std::format;
use std::string::String;
use std::vec::Vec;

use embedded_graphics::mono_font::ascii::{
    FONT_10X20, FONT_5X8, FONT_6X10, FONT_7X13_BOLD, FONT_9X15, FONT_9X15_BOLD,
};
use embedded_graphics::mono_font::MonoFont;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, PrimitiveStyle, Rectangle, Triangle};

use super::text::{char_len, columns, draw_line, width_of, wrap, Ink};
use super::{HEIGHT, WIDTH};

pub(crate) const W: i32 = WIDTH as i32;
pub(crate) const H: i32 = HEIGHT as i32;

/// Width a page's last row keeps free for the page mark ("2/3" in the small font, and a gap).
const MARK_ROOM: i32 = 17;

/// Whether `line` may go on a page's last row, beside the page mark.
fn beside_mark(font: Font, width: i32, line: &FLine) -> bool {
    font.width(char_len(&line.text)) + MARK_ROOM <= width
}

/// The fonts the screens use, by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Font {
    /// `FONT_5X8`: 25 characters, exactly one 8-pixel page per row.
    Small,
    /// `FONT_6X10`: 21 characters; the body text.
    Body,
    /// `FONT_7X13_BOLD`: 18 characters; titles in an inverted bar.
    Title,
    /// `FONT_9X15`: 14 characters; a prompt from across the table.
    Large,
    /// `FONT_9X15_BOLD`: 14 characters; a die face, a winner.
    LargeBold,
    /// `FONT_10X20`: 12 characters; a move, the name on the boot screen.
    Huge,
}

impl Font {
    /// The embedded-graphics font.
    pub fn mono(self) -> &'static MonoFont<'static> {
        match self {
            Font::Small => &FONT_5X8,
            Font::Body => &FONT_6X10,
            Font::Title => &FONT_7X13_BOLD,
            Font::Large => &FONT_9X15,
            Font::LargeBold => &FONT_9X15_BOLD,
            Font::Huge => &FONT_10X20,
        }
    }

    /// Height of a line, in pixels.
    pub fn height(self) -> i32 {
        i32::try_from(self.mono().character_size.height).unwrap_or(i32::MAX)
    }

    /// Characters that fit in `width` pixels.
    pub fn columns(self, width: i32) -> usize {
        columns(self.mono(), u32::try_from(width.max(0)).unwrap_or(0))
    }

    /// Width in pixels of `chars` characters.
    pub fn width(self, chars: usize) -> i32 {
        i32::try_from(width_of(self.mono(), chars)).unwrap_or(i32::MAX)
    }

    /// Lines that fit in `height` pixels.
    pub fn rows(self, height: i32) -> usize {
        usize::try_from(height.max(0) / self.height().max(1)).unwrap_or(0)
    }
}

/// One line of text as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// The characters, exactly as drawn.
    pub text: String,
    /// The font.
    pub font: Font,
    /// The top-left corner of the first character.
    pub at: Point,
    /// Lit text on dark, or dark on lit.
    pub ink: Ink,
    /// The first `chip` characters are drawn inverted, as a label ("Fix").
    pub chip: usize,
    /// Drawn only inside this rectangle (a title bar).
    pub clip: Option<Rectangle>,
    /// Continues the paragraph of the line before it (wrapped), for reading words back.
    pub continues: bool,
    /// Continues a word the line before it split (too long for one line): read back with no
    /// space between.
    pub glued: bool,
}

impl Drawn {
    /// A highlighted menu entry: inverted body text outside any bar.
    pub fn highlighted(&self) -> bool {
        self.ink == Ink::Inverted && self.clip.is_none() && self.font == Font::Body
    }

    /// The rectangle the line's characters cover.
    pub fn bounds(&self) -> Rectangle {
        let width = u32::try_from(self.font.width(char_len(&self.text))).unwrap_or(0);
        let height = u32::try_from(self.font.height()).unwrap_or(0);
        Rectangle::new(self.at, Size::new(width, height))
    }
}

/// One thing painted on a page, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A line of text.
    Text(Drawn),
    /// A lit rectangle.
    Fill(Rectangle),
    /// A lit outline.
    Outline(Rectangle),
    /// A lit triangle (scroll marks).
    Triangle(Triangle),
    /// A full-width 1-pixel rule at this row.
    Rule(i32),
    /// One lit pixel.
    Dot(Point),
    /// A dark rectangle on what is lit (a QR code's dark modules).
    Clear(Rectangle),
}

/// One page of a screen: what is painted on it, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// The marks, painted first to last.
    pub marks: Vec<Mark>,
}

/// A screen laid out: one page, or several shown in turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The pages, at least one.
    pub pages: Vec<Page>,
}

impl Layout {
    /// The page shown `n`-th (wrapping round).
    pub fn page(&self, n: usize) -> &Page {
        &self.pages[n % self.pages.len().max(1)]
    }

    /// The words as drawn, one entry per paragraph (wrapped lines joined by a space), page
    /// after page.
    pub fn lines(&self) -> Vec<String> {
        self.pages.iter().flat_map(Page::lines).collect()
    }
}

impl Page {
    /// The lines of text on the page, top to bottom as pushed.
    pub fn texts(&self) -> impl Iterator<Item = &Drawn> {
        self.marks.iter().filter_map(|m| match m {
            Mark::Text(d) => Some(d),
            _ => None,
        })
    }

    /// The page's words, one entry per paragraph; a highlighted menu entry (inverted, not in
    /// a bar) reads "> " first.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for d in self.texts() {
            match out.last_mut() {
                Some(last) if d.continues => {
                    if !d.glued {
                        last.push(' ');
                    }
                    last.push_str(d.text.trim_start());
                }
                _ if d.highlighted() => out.push(format!("> {}", d.text)),
                _ => out.push(d.text.clone()),
            }
        }
        out
    }

    /// Paints the page on `target`, clearing it first.
    ///
    /// # Errors
    /// Only the target's own.
    pub fn paint<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = BinaryColor>,
    {
        target.clear(BinaryColor::Off)?;
        let lit = PrimitiveStyle::with_fill(BinaryColor::On);
        for mark in &self.marks {
            match mark {
                Mark::Text(d) => match d.clip {
                    Some(clip) => paint_text(&mut target.clipped(&clip), d)?,
                    None => paint_text(target, d)?,
                },
                Mark::Fill(r) => r.into_styled(lit).draw(target)?,
                Mark::Outline(r) => r
                    .into_styled(PrimitiveStyle::with_stroke(BinaryColor::On, 1))
                    .draw(target)?,
                Mark::Triangle(t) => t.into_styled(lit).draw(target)?,
                Mark::Rule(y) => Line::new(Point::new(0, *y), Point::new(W - 1, *y))
                    .into_styled(PrimitiveStyle::with_stroke(BinaryColor::On, 1))
                    .draw(target)?,
                Mark::Dot(p) => Pixel(*p, BinaryColor::On).draw(target)?,
                Mark::Clear(r) => r
                    .into_styled(PrimitiveStyle::with_fill(BinaryColor::Off))
                    .draw(target)?,
            }
        }
        Ok(())
    }

    /// Adds a line of text.
    pub(crate) fn text(&mut self, font: Font, text: impl Into<String>, at: Point, ink: Ink) {
        self.marks.push(Mark::Text(Drawn {
            text: text.into(),
            font,
            at,
            ink,
            chip: 0,
            clip: None,
            continues: false,
            glued: false,
        }));
    }

    /// Adds flowed lines in `font` from row `y`, left at `x` or centred; returns the row below.
    pub(crate) fn flowed(&mut self, font: Font, lines: &[FLine], x: Option<i32>, y: i32) -> i32 {
        let mut y = y;
        for line in lines {
            let width = font.width(char_len(&line.text));
            let left = x.unwrap_or((W - width) / 2).max(0);
            let band = Rectangle::new(
                Point::new(0, y),
                Size::new(WIDTH as u32, u32::try_from(font.height()).unwrap_or(0)),
            );
            if line.inverse {
                self.marks.push(Mark::Fill(band));
            }
            self.marks.push(Mark::Text(Drawn {
                text: line.text.clone(),
                font,
                at: Point::new(left, y),
                ink: if line.inverse {
                    Ink::Inverted
                } else {
                    Ink::Normal
                },
                chip: line.chip,
                clip: line.inverse.then_some(band),
                continues: line.continues,
                glued: line.glued,
            }));
            y += font.height();
        }
        y
    }

    /// A full-width inverted bar of `height` rows from row `y` holding `text` in `font`, left
    /// or centred. The font's empty top row is raised out of the bar (clipped) so descenders
    /// keep a lit row under them.
    pub(crate) fn bar(&mut self, font: Font, text: &str, y: i32, height: i32, centre: bool) {
        let bar = Rectangle::new(
            Point::new(0, y),
            Size::new(WIDTH as u32, u32::try_from(height).unwrap_or(0)),
        );
        self.marks.push(Mark::Fill(bar));
        let x = if centre {
            (W - font.width(char_len(text))) / 2
        } else {
            1
        };
        // The bold font's empty top row is raised out of the bar; other fonts are centred in it.
        let top = if font == Font::Title {
            y - 1
        } else {
            y + (height - font.height()).max(0) / 2
        };
        self.marks.push(Mark::Text(Drawn {
            text: text.into(),
            font,
            at: Point::new(x.max(0), top),
            ink: Ink::Inverted,
            chip: 0,
            clip: Some(bar),
            continues: false,
            glued: false,
        }));
    }

    /// The "2/3" mark at the right end of a page's last row, a row of `font` from row `y`
    /// (its foot on the row's foot).
    pub(crate) fn page_mark(&mut self, n: usize, of: usize, font: Font, y: i32) {
        let mark = format!("{}/{of}", n + 1);
        let x = W - Font::Small.width(char_len(&mark));
        let y = y + (font.height() - Font::Small.height()).max(0);
        self.text(Font::Small, mark, Point::new(x, y), Ink::Normal);
    }
}

/// Draws one line: the chip inverted with a lit column either side, the rest normal.
fn paint_text<D>(target: &mut D, d: &Drawn) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let font = d.font.mono();
    let chip = d.chip.min(char_len(&d.text));
    if chip == 0 {
        return draw_line(target, font, &d.text, d.at, d.ink);
    }
    let head: String = d.text.chars().take(chip).collect();
    let tail: String = d.text.chars().skip(chip).collect();
    let head_w = d.font.width(chip) + i32::try_from(font.character_spacing).unwrap_or(0);
    draw_line(target, font, &head, d.at, Ink::Inverted)?;
    draw_line(
        target,
        font,
        &tail,
        Point::new(d.at.x + head_w, d.at.y),
        Ink::Normal,
    )?;
    let height = font.character_size.height;
    for edge in [d.at.x - 1, d.at.x + d.font.width(chip)] {
        if (0..W).contains(&edge) {
            Rectangle::new(Point::new(edge, d.at.y), Size::new(1, height))
                .into_styled(PrimitiveStyle::with_fill(BinaryColor::On))
                .draw(target)?;
        }
    }
    Ok(())
}

/// A paragraph to lay out.
#[derive(Clone, Debug, Default)]
pub(crate) struct Block {
    /// The words.
    pub text: String,
    /// How many leading characters form an inverted label ("Fix").
    pub chip: usize,
    /// A list item: "- " before its first line, its other lines indented.
    pub bullet: bool,
    /// Goes on the first page when the screen needs several.
    pub essential: bool,
    /// Drawn dark on a lit band across the width (a verdict).
    pub inverse: bool,
}

impl Block {
    pub(crate) fn plain(text: impl Into<String>) -> Block {
        Block {
            text: text.into(),
            ..Block::default()
        }
    }

    pub(crate) fn chip(label: &str, text: &str) -> Block {
        Block {
            text: format!("{label} {text}"),
            chip: char_len(label),
            ..Block::default()
        }
    }

    pub(crate) fn item(text: impl Into<String>) -> Block {
        Block {
            text: text.into(),
            bullet: true,
            ..Block::default()
        }
    }

    pub(crate) fn essential(mut self) -> Block {
        self.essential = true;
        self
    }

    pub(crate) fn inverse(mut self) -> Block {
        self.inverse = true;
        self
    }

    /// The block's lines at `cols` characters.
    fn lines(&self, cols: usize) -> Vec<FLine> {
        let (inner, first, rest) = if self.bullet {
            (cols.saturating_sub(2), "- ", "  ")
        } else {
            (cols, "", "")
        };
        let wrapped = wrap(&self.text, inner);
        let glued = split_words(&self.text, &wrapped);
        wrapped
            .into_iter()
            .zip(glued)
            .enumerate()
            .map(|(i, (text, glued))| FLine {
                text: format!("{}{text}", if i == 0 { first } else { rest }),
                chip: if i == 0 && !self.bullet { self.chip } else { 0 },
                continues: i > 0,
                glued,
                inverse: self.inverse,
            })
            .collect()
    }
}

/// For each wrapped line of `text`, whether it goes on with a word the line before split.
fn split_words(text: &str, lines: &[String]) -> Vec<bool> {
    let flat: Vec<char> = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .collect();
    let mut at = 0usize;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let glued = at > 0 && flat.get(at) != Some(&' ');
        if flat.get(at) == Some(&' ') {
            at += 1;
        }
        out.push(glued);
        at += line.chars().count();
    }
    out
}

/// A laid-out line of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FLine {
    pub text: String,
    pub chip: usize,
    pub continues: bool,
    pub glued: bool,
    pub inverse: bool,
}

/// Blocks flowed into a band: the font chosen, each page's lines, and the rows a page holds
/// (the last shared with the page mark when there are several pages).
pub(crate) struct Flowed {
    pub font: Font,
    pub pages: Vec<Vec<FLine>>,
    pub rows: usize,
    /// Whether every essential block is on page 1.
    pub first: bool,
}

/// Flows blocks into a band `width` x `height`: `single` whole on one page in the first of
/// `fonts` that holds it; otherwise `paged` on as many pages as it takes (each page's last row
/// keeping [`MARK_ROOM`] at its right end for the page mark), essential blocks first, in the
/// first font whose page holds every essential block.
pub(crate) fn flow(
    single: &[Block],
    paged: &[Block],
    fonts: &[Font],
    width: i32,
    height: i32,
) -> Flowed {
    for &font in fonts {
        let cols = font.columns(width);
        let lines: Vec<FLine> = single.iter().flat_map(|b| b.lines(cols)).collect();
        if lines.len() <= font.rows(height) {
            return Flowed {
                font,
                pages: std::vec![lines],
                rows: font.rows(height),
                first: true,
            };
        }
    }
    // In their order when that keeps the essential blocks on page 1, else those first.
    let natural: Vec<&Block> = paged.iter().collect();
    let essential_first: Vec<&Block> = paged
        .iter()
        .filter(|b| b.essential)
        .chain(paged.iter().filter(|b| !b.essential))
        .collect();
    let filled: Vec<Flowed> = fonts
        .iter()
        .map(|&font| {
            let flowed = fill(&natural, font, width, height);
            if flowed.first {
                flowed
            } else {
                fill(&essential_first, font, width, height)
            }
        })
        .collect();
    // The first font whose page 1 holds every essential block (else the last); then a smaller
    // one when it saves a page (fewer turns to wait for the end), still with them on page 1.
    let start = filled
        .iter()
        .position(|f| f.first)
        .unwrap_or(filled.len().saturating_sub(1));
    let keep_first = filled.get(start).is_some_and(|f| f.first);
    filled
        .into_iter()
        .skip(start)
        .filter(|f| f.first || !keep_first)
        .min_by_key(|f| f.pages.len())
        .unwrap_or(Flowed {
            font: Font::Small,
            pages: std::vec![Vec::new()],
            rows: 1,
            first: true,
        })
}

/// Fills pages of `font` with `order`'s blocks: a page's last row only beside the page mark,
/// and a block that fits a page of its own not split across two, unless it is essential.
fn fill(order: &[&Block], font: Font, width: i32, height: i32) -> Flowed {
    let cols = font.columns(width);
    // No room at all under the header: one line a page, which the test of every screen
    // catches (the header must leave room).
    let rows = font.rows(height).max(1);
    // Whether `lines` fit from row `used` of a page, the last row only beside the mark.
    let fit = |lines: &[FLine], used: usize| {
        let end = used + lines.len();
        end < rows || (end == rows && lines.last().is_none_or(|l| beside_mark(font, width, l)))
    };
    let mut pages: Vec<Vec<FLine>> = std::vec![Vec::new()];
    let mut first = true;
    for block in order {
        let lines = block.lines(cols);
        let used = pages.last().map_or(0, Vec::len);
        // A block that fits a page of its own is not split across two; but an essential one
        // stays on page 1, split if it must be.
        if !block.essential && !fit(&lines, used) && fit(&lines, 0) && used > 0 {
            pages.push(Vec::new());
        }
        for line in lines {
            let mut line = line;
            let used = pages.last().map_or(0, Vec::len);
            let full =
                used >= rows || (rows > 1 && used + 1 == rows && !beside_mark(font, width, &line));
            if full {
                pages.push(Vec::new());
                // A paragraph carried over reads as a new one on its page.
                line.continues = false;
            }
            if let Some(page) = pages.last_mut() {
                page.push(line);
            }
        }
        if block.essential && pages.len() > 1 {
            first = false;
        }
    }
    Flowed {
        font,
        pages,
        rows,
        first,
    }
}

/// Pages of a screen: `header` drawn on each (it returns the first free row), then the blocks
/// flowed into the band down to `bottom`, centred when `centre` and on one page, with the page
/// mark on each when there are several.
pub(crate) fn paged(
    header: &dyn Fn(&mut Page) -> i32,
    bottom: i32,
    single: &[Block],
    paged_blocks: &[Block],
    fonts: &[Font],
    centre: bool,
) -> Vec<Page> {
    let top = header(&mut Page::default());
    let flowed = flow(single, paged_blocks, fonts, W - 2, bottom - top);
    let count = flowed.pages.len();
    flowed
        .pages
        .into_iter()
        .enumerate()
        .map(|(n, lines)| {
            let mut page = Page::default();
            let top = header(&mut page);
            if count == 1 && centre {
                let used = flowed.font.height() * i32::try_from(lines.len()).unwrap_or(0);
                let y = top + (bottom - top - used).max(0) / 2;
                page.flowed(flowed.font, &lines, None, y);
            } else {
                page.flowed(flowed.font, &lines, Some(1), top);
            }
            if count > 1 {
                let last = top + flowed.font.height() * i32::try_from(flowed.rows).unwrap_or(1);
                page.page_mark(n, count, flowed.font, last - flowed.font.height());
            }
            page
        })
        .collect()
}
