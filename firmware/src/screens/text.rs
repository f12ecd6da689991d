//! Text on 128x64: word wrapping to a column count, truncation with an ellipsis mark, and drawing
//! lines in an embedded-graphics mono font.
//!
//! Every font used here is monospaced, so widths are counted in character cells. Text the renderer
//! cannot fit is wrapped first, then cut with a one-cell ellipsis mark (three dots), so a player
//! always sees that something was left off.

use std::string::String;
use std::vec::Vec;

use embedded_graphics::mono_font::{MonoFont, MonoTextStyle, MonoTextStyleBuilder};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Baseline, Text};

/// Stands for "text was left off here"; drawn as three dots in one character cell.
pub const ELLIPSIS: char = '\u{2026}';

/// Characters that fit across `width` pixels in `font`.
pub fn columns(font: &MonoFont<'_>, width: u32) -> usize {
    let cell = font.character_size.width + font.character_spacing;
    if cell == 0 {
        return 0;
    }
    // A line of n characters is n cells minus the spacing after the last one.
    ((width + font.character_spacing) / cell) as usize
}

/// Width in pixels of `chars` characters in `font`.
pub fn width_of(font: &MonoFont<'_>, chars: usize) -> u32 {
    let n = u32::try_from(chars).unwrap_or(u32::MAX);
    (font.character_size.width + font.character_spacing)
        .saturating_mul(n)
        .saturating_sub(if n == 0 { 0 } else { font.character_spacing })
}

/// Number of characters in `s` (the fonts are ASCII: one char, one cell).
pub fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Shortens `s` to at most `cols` characters, ending with [`ELLIPSIS`] if anything was cut.
pub fn truncate(s: &str, cols: usize) -> String {
    if char_len(s) <= cols {
        return s.to_owned();
    }
    if cols == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(cols - 1).collect();
    out.truncate(out.trim_end().len());
    out.push(ELLIPSIS);
    out
}

/// Wraps `text` into lines of at most `cols` characters, breaking at spaces; a word longer than a
/// line is split. A `'\n'` starts a new line.
pub fn wrap(text: &str, cols: usize) -> Vec<String> {
    let mut lines = Vec::new();
    if cols == 0 {
        return lines;
    }
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut line_len = 0usize;
        for word in paragraph.split_whitespace() {
            let mut word: Vec<char> = word.chars().collect();
            loop {
                let gap = usize::from(line_len > 0);
                if line_len + gap + word.len() <= cols {
                    if gap == 1 {
                        line.push(' ');
                    }
                    line.extend(word.iter());
                    line_len += gap + word.len();
                    break;
                }
                if word.len() <= cols {
                    // The word fits on a line of its own.
                    lines.push(core::mem::take(&mut line));
                    line_len = 0;
                    continue;
                }
                // A word longer than a whole line: fill this line, carry the rest on.
                let room = cols.saturating_sub(line_len + gap);
                // Start a fresh line rather than leave a one-letter stub after other words.
                if line_len > 0 && room < 2 {
                    lines.push(core::mem::take(&mut line));
                    line_len = 0;
                    continue;
                }
                if gap == 1 {
                    line.push(' ');
                }
                line.extend(word.iter().take(room));
                word.drain(..room);
                lines.push(core::mem::take(&mut line));
                line_len = 0;
            }
        }
        lines.push(line);
    }
    lines
}

/// Keeps at most `max_lines` of `lines`; if any were dropped, the last kept line ends with an
/// [`ELLIPSIS`] so the cut shows.
pub fn clamp_lines(mut lines: Vec<String>, max_lines: usize, cols: usize) -> Vec<String> {
    if lines.len() <= max_lines {
        return lines;
    }
    lines.truncate(max_lines);
    if let Some(last) = lines.last_mut() {
        let kept: String = last.chars().take(cols.saturating_sub(1)).collect();
        *last = kept.trim_end().to_owned();
        last.push(ELLIPSIS);
    }
    lines
}

/// Wraps `text` to `cols` and keeps at most `max_lines`, marking a cut with an ellipsis.
pub fn wrap_clamped(text: &str, cols: usize, max_lines: usize) -> Vec<String> {
    clamp_lines(wrap(text, cols), max_lines, cols)
}

/// How a line is painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// Lit text on a dark background.
    Normal,
    /// Dark text on a lit background (highlights, warnings).
    Inverted,
}

/// Draws one line of text with its top-left corner at `top_left`. The line must already fit.
pub fn draw_line<D>(
    target: &mut D,
    font: &MonoFont<'_>,
    line: &str,
    top_left: Point,
    ink: Ink,
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let (fg, bg) = match ink {
        Ink::Normal => (BinaryColor::On, BinaryColor::Off),
        Ink::Inverted => (BinaryColor::Off, BinaryColor::On),
    };
    let style: MonoTextStyle<'_, BinaryColor> = MonoTextStyleBuilder::new()
        .font(font)
        .text_color(fg)
        .background_color(bg)
        .build();
    let cell = i32::try_from(font.character_size.width + font.character_spacing).unwrap_or(0);
    let mut x = top_left.x;
    // Draw runs of ordinary characters; the ellipsis mark is drawn by hand (not in ASCII fonts).
    let mut run = String::new();
    let mut run_start = x;
    let flush = |target: &mut D, run: &mut String, at: i32| -> Result<(), D::Error> {
        if !run.is_empty() {
            Text::with_baseline(run, Point::new(at, top_left.y), style, Baseline::Top)
                .draw(target)?;
            run.clear();
        }
        Ok(())
    };
    for c in line.chars() {
        if c == ELLIPSIS {
            flush(target, &mut run, run_start)?;
            draw_ellipsis(target, font, Point::new(x, top_left.y), fg, bg)?;
            x += cell;
            run_start = x;
        } else {
            run.push(if c.is_ascii() && !c.is_ascii_control() {
                c
            } else {
                '?'
            });
            x += cell;
        }
    }
    flush(target, &mut run, run_start)
}

/// Three dots on the baseline of one character cell.
fn draw_ellipsis<D>(
    target: &mut D,
    font: &MonoFont<'_>,
    top_left: Point,
    fg: BinaryColor,
    bg: BinaryColor,
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let size = font.character_size;
    Rectangle::new(top_left, size)
        .into_styled(PrimitiveStyle::with_fill(bg))
        .draw(target)?;
    let dot = if size.width >= 8 { 2 } else { 1 };
    let step = i32::try_from(size.width / 3).unwrap_or(1).max(dot + 1);
    let y = top_left.y + i32::try_from(font.baseline).unwrap_or(0) + 1 - dot;
    for i in 0..3 {
        let x = top_left.x + i * step;
        Rectangle::new(Point::new(x, y), Size::new(dot as u32, dot as u32))
            .into_styled(PrimitiveStyle::with_fill(fg))
            .draw(target)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(
            wrap("a4-b5: pieces move straight, never diagonally", 21),
            ["a4-b5: pieces move", "straight, never", "diagonally"]
        );
    }

    #[test]
    fn splits_words_longer_than_a_line() {
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("xy abcdefghij", 5), ["xy ab", "cdefg", "hij"]);
    }

    #[test]
    fn a_long_word_after_a_full_line_starts_a_new_one() {
        assert_eq!(wrap("abcde fghijklm", 5), ["abcde", "fghij", "klm"]);
    }

    #[test]
    fn every_line_fits_whatever_the_text() {
        let words = [
            "a",
            "bb",
            "ccc",
            "dddddddd",
            "eeeeeeeeeeeeeeeeeeeeeeeeeeeee",
            "f-g",
            "",
        ];
        for cols in 1..30 {
            for seed in 0..200usize {
                let text: Vec<&str> = (0..seed % 13)
                    .map(|i| words[(seed * 7 + i * 3) % words.len()])
                    .collect();
                let text = text.join(if seed % 2 == 0 { " " } else { "  " });
                let lines = wrap(&text, cols);
                assert!(
                    lines.iter().all(|l| char_len(l) <= cols),
                    "{text:?} at {cols}"
                );
                let joined: String = lines.concat().split_whitespace().collect();
                let original: String = text.split_whitespace().collect();
                assert_eq!(joined, original, "{text:?} at {cols} lost text");
                for max in 0..4 {
                    let kept = wrap_clamped(&text, cols, max);
                    assert!(kept.len() <= max);
                    assert!(kept.iter().all(|l| char_len(l) <= cols));
                }
            }
        }
    }

    #[test]
    fn keeps_forced_breaks_and_empty_text() {
        assert_eq!(wrap("one\ntwo", 10), ["one", "two"]);
        assert_eq!(wrap("", 10), [""]);
    }

    #[test]
    fn clamping_marks_the_cut() {
        let lines = wrap_clamped("one two three four", 5, 2);
        assert_eq!(lines, ["one", "two\u{2026}"]);
        assert_eq!(truncate("Blue Scout", 6), "Blue\u{2026}");
        assert_eq!(truncate("Red", 6), "Red");
    }

    #[test]
    fn columns_match_the_hardware_notes() {
        use embedded_graphics::mono_font::ascii::{FONT_10X20, FONT_5X8, FONT_6X10};
        assert_eq!(columns(&FONT_6X10, 128), 21);
        assert_eq!(columns(&FONT_5X8, 128), 25);
        assert_eq!(columns(&FONT_10X20, 128), 12);
    }
}
