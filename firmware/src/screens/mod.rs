//! Drawing the umpire's [`Screen`]s on the 128x64 OLED, and pushing only what changed.
//!
//! [`draw`] is pure: it paints one [`Screen`] on any `DrawTarget<Color = BinaryColor>` (a
//! [`Frame`] for the real display, a PNG in tests, a window in the simulator). It clears the
//! target and redraws everything, and never touches a pixel outside 128x64.
//!
//! Layout, chosen for reading from across a table:
//! - Titles are an inverted bar in `FONT_7X13_BOLD` (18 characters), bodies `FONT_6X10`
//!   (21 x 5 lines under a title). Short key facts (a move, a die face, a winner) get a larger
//!   font when they fit (`FONT_10X20`, `FONT_9X15`), falling back to smaller ones.
//! - The in-play status line is `FONT_5X8` (25 characters), one 8-pixel page per row so a clock
//!   tick only rewrites the bytes under its digits: row 1 turn, clock, side to act and, at the
//!   right, the real time used this turn (inverted with a `!` once past the limit); row 2, only
//!   for games that have them, actions left and "Prussians in N".
//! - Text is word-wrapped to the width; what still does not fit is cut with a one-cell
//!   ellipsis mark, and lists end with "+N more".

mod frame;
pub mod text;

pub use frame::{
    diff, diff_regions, wire_bytes, Frame, Region, DATA_CHUNK, FRAME_BYTES, HEIGHT, PAGES, WIDTH,
};

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use embedded_graphics::mono_font::ascii::{
    FONT_10X20, FONT_5X8, FONT_6X10, FONT_7X13_BOLD, FONT_9X15, FONT_9X15_BOLD,
};
use embedded_graphics::mono_font::MonoFont;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, PrimitiveStyle, Rectangle, Triangle};

use crate::ui::{Difference, Screen, StatusLine};
use text::{char_len, columns, draw_line, truncate, width_of, wrap, Ink};

const W: i32 = WIDTH as i32;
const H: i32 = HEIGHT as i32;

/// The body font: 21 characters by 10 pixels.
const BODY: &MonoFont<'static> = &FONT_6X10;
/// The small font: 25 characters by 8 pixels (exactly one page).
const SMALL: &MonoFont<'static> = &FONT_5X8;
/// The title font, drawn inverted in a bar.
const TITLE: &MonoFont<'static> = &FONT_7X13_BOLD;
/// Height of the title bar; the body starts one blank row below it.
const TITLE_BAR: i32 = 13;

/// Draws `screen` on `target`, clearing it first.
///
/// # Errors
/// Only the target's own errors (a [`Frame`] never fails).
pub fn draw<D>(screen: &Screen, target: &mut D) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    target.clear(BinaryColor::Off)?;
    match screen {
        Screen::Boot { version, detail } => boot(target, version, detail),
        Screen::Choice {
            title,
            entries,
            selected,
        } => choice(target, title, entries, *selected),
        Screen::Setup {
            seat,
            instruction,
            placed,
            needed,
        } => setup(target, seat, instruction, *placed, *needed),
        Screen::Problems { title, problems } => problem_list(target, title, problems),
        Screen::Play { status, prompt } => play(target, status, prompt),
        Screen::MoveAccepted { status, mv } => move_accepted(target, status, mv),
        Screen::Illegal {
            status,
            reason,
            fix,
        } => illegal(target, status, reason, fix),
        Screen::Battle {
            attacker,
            defender,
            result,
            hands,
        } => battle(target, attacker, defender, result, hands),
        Screen::Told {
            status,
            title,
            lines,
            hands,
        } => told(target, status, title, lines, hands),
        Screen::DieRoll { face, meaning } => die_roll(target, face, meaning),
        Screen::Mismatch { differences } => mismatch(target, differences),
        Screen::Takeback {
            moves_back,
            to_move_number,
        } => takeback(target, *moves_back, *to_move_number),
        Screen::GameOver { result, reason } => game_over(target, result, reason),
        Screen::Error { message, fix } => error(target, message, fix),
        Screen::Calibrate {
            columns,
            rows,
            occupied,
            seen,
            note,
        } => calibrate(target, *columns, *rows, occupied, seen, note),
        Screen::Recovery {
            found,
            detail,
            entries,
            selected,
        } => recovery(target, found, detail, entries, *selected),
        Screen::Fault {
            part,
            problem,
            fix,
            more,
        } => fault(target, part, problem, fix, *more),
    }
}

/// Renders `screen` into a fresh [`Frame`].
pub fn render(screen: &Screen) -> Frame {
    let mut frame = Frame::new();
    match draw(screen, &mut frame) {
        Ok(()) => frame,
        Err(never) => match never {},
    }
}

// ----- building blocks -----------------------------------------------------------------------

fn px(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

fn line_height(font: &MonoFont<'_>) -> i32 {
    px(font.character_size.height)
}

/// How many lines of `font` fit in `height` pixels.
fn lines_in(font: &MonoFont<'_>, height: i32) -> usize {
    usize::try_from(height / line_height(font).max(1)).unwrap_or(0)
}

fn fill<D>(target: &mut D, rect: Rectangle, color: BinaryColor) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    rect.into_styled(PrimitiveStyle::with_fill(color))
        .draw(target)
}

/// An inverted bar across the top with `title` in bold; returns the first free row below it.
fn title_bar<D>(target: &mut D, title: &str) -> Result<i32, D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    inverted_bar(target, title, 0, false)?;
    Ok(TITLE_BAR + 1)
}

/// A full-width inverted bar of [`TITLE_BAR`] rows from row `y` holding `text` in bold, left
/// or centred. The font's empty top row is raised out of the bar (clipped) so descenders keep a
/// lit row under them.
fn inverted_bar<D>(target: &mut D, text: &str, y: i32, centre: bool) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let bar = Rectangle::new(Point::new(0, y), Size::new(WIDTH as u32, TITLE_BAR as u32));
    fill(target, bar, BinaryColor::On)?;
    let line = truncate(text, columns(TITLE, 126));
    let x = if centre {
        (W - px(width_of(TITLE, char_len(&line)))) / 2
    } else {
        1
    };
    let mut clipped = target.clipped(&bar);
    draw_line(
        &mut clipped,
        TITLE,
        &line,
        Point::new(x, y - 1),
        Ink::Inverted,
    )
}

/// A title with a count that must stay visible: "Red set-up (2)", shortening the title first.
fn titled_count(title: &str, count: usize) -> String {
    let suffix = format!(" ({count})");
    let room = columns(TITLE, 126).saturating_sub(char_len(&suffix));
    format!("{}{suffix}", truncate(title, room))
}

/// Draws `lines` in `font` from row `y`, left-aligned at `x` (or centred when `x` is `None`).
/// The first `lead` characters of the first line are drawn inverted, as a label ("Fix").
/// Returns the first free row below.
fn draw_lines<D>(
    target: &mut D,
    font: &MonoFont<'_>,
    lines: &[String],
    x: Option<i32>,
    y: i32,
    lead: usize,
) -> Result<i32, D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let mut y = y;
    for (i, line) in lines.iter().enumerate() {
        let width = px(width_of(font, char_len(line)));
        let left = x.unwrap_or((W - width) / 2).max(0);
        let chip = if i == 0 { lead.min(char_len(line)) } else { 0 };
        if chip > 0 {
            let head: String = line.chars().take(chip).collect();
            let tail: String = line.chars().skip(chip).collect();
            let head_w = px(width_of(font, chip) + font.character_spacing);
            draw_line(target, font, &head, Point::new(left, y), Ink::Inverted)?;
            draw_line(
                target,
                font,
                &tail,
                Point::new(left + head_w, y),
                Ink::Normal,
            )?;
            // A lit column either side of the label so it reads as a chip, not cut letters.
            let height = font.character_size.height;
            for edge in [left - 1, left + px(width_of(font, chip))] {
                if (0..W).contains(&edge) {
                    fill(
                        target,
                        Rectangle::new(Point::new(edge, y), Size::new(1, height)),
                        BinaryColor::On,
                    )?;
                }
            }
        } else {
            draw_line(target, font, line, Point::new(left, y), Ink::Normal)?;
        }
        y += line_height(font);
    }
    Ok(y)
}

/// One paragraph to lay out: its text and how many leading characters form an inverted label.
struct Para<'a> {
    text: &'a str,
    lead: usize,
}

/// Paragraphs wrapped in the first of `fonts` that fits all of them in `height` pixels; if none
/// does, the last font, with paragraphs cut (each keeps at least one line) and ellipsis-marked.
fn fit_paragraphs<'f>(
    paras: &[Para<'_>],
    fonts: &[&'f MonoFont<'f>],
    width: i32,
    height: i32,
) -> (&'f MonoFont<'f>, Vec<Vec<String>>) {
    let mut last = (BODY, Vec::new());
    for font in fonts {
        let cols = columns(font, u32::try_from(width).unwrap_or(0));
        let wrapped: Vec<Vec<String>> = paras.iter().map(|p| wrap(p.text, cols)).collect();
        let total: usize = wrapped.iter().map(Vec::len).sum();
        if total <= lines_in(font, height) {
            return (font, wrapped);
        }
        last = (*font, wrapped);
    }
    // Nothing fits whole: share the lines out one at a time, so a long reason cannot crowd out
    // the fix after it.
    let (font, wrapped) = last;
    let cols = columns(font, u32::try_from(width).unwrap_or(0));
    let mut room = lines_in(font, height);
    let mut share = std::vec![0usize; wrapped.len()];
    while room > 0 {
        let mut gave = false;
        for (lines, got) in wrapped.iter().zip(share.iter_mut()) {
            if room > 0 && *got < lines.len() {
                *got += 1;
                room -= 1;
                gave = true;
            }
        }
        if !gave {
            break;
        }
    }
    let out = wrapped
        .into_iter()
        .zip(share)
        .map(|(lines, keep)| text::clamp_lines(lines, keep, cols))
        .collect();
    (font, out)
}

/// Draws paragraphs fitted into the band `y..y + height`, left-aligned with a 1-pixel margin.
fn paragraphs<D>(
    target: &mut D,
    paras: &[Para<'_>],
    fonts: &[&MonoFont<'_>],
    y: i32,
    height: i32,
) -> Result<i32, D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let (font, blocks) = fit_paragraphs(paras, fonts, W - 2, height);
    let mut y = y;
    for (para, lines) in paras.iter().zip(&blocks) {
        y = draw_lines(target, font, lines, Some(1), y, para.lead)?;
    }
    Ok(y)
}

/// Draws `text` centred, in the first of `fonts` that fits it whole in the band, else cut in
/// the last font. Returns the first free row below.
fn centred<D>(
    target: &mut D,
    value: &str,
    fonts: &[&MonoFont<'_>],
    y: i32,
    height: i32,
    centre_vertically: bool,
) -> Result<i32, D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let para = [Para {
        text: value,
        lead: 0,
    }];
    let (font, blocks) = fit_paragraphs(&para, fonts, W, height);
    let lines = blocks.into_iter().next().unwrap_or_default();
    let used = line_height(font) * i32::try_from(lines.len()).unwrap_or(0);
    let top = if centre_vertically {
        y + (height - used).max(0) / 2
    } else {
        y
    };
    draw_lines(target, font, &lines, None, top, 0)
}

/// A bulleted list from row `y` to the bottom of the screen: each item wrapped with a hanging
/// indent, in the body font unless the small one shows more items; if they still do not all
/// fit, the last row says "+N more".
fn list<D>(target: &mut D, items: &[String], y: i32) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let (body, body_shown) = list_lines(items, BODY, H - y);
    let (small, small_shown) = list_lines(items, SMALL, H - y);
    let (font, lines) = if small_shown > body_shown {
        (SMALL, small)
    } else {
        (BODY, body)
    };
    draw_lines(target, font, &lines, Some(1), y, 0)?;
    Ok(())
}

/// The lines of a bulleted list in `font` within `height` pixels, and how many items they show
/// (at least in part).
fn list_lines(items: &[String], font: &MonoFont<'_>, height: i32) -> (Vec<String>, usize) {
    let cols = columns(font, (W - 2) as u32);
    let rows = lines_in(font, height);
    let wrapped: Vec<Vec<String>> = items
        .iter()
        .map(|item| wrap(item, cols.saturating_sub(2)))
        .collect();
    let total: usize = wrapped.iter().map(Vec::len).sum();
    let room = if total <= rows {
        rows
    } else {
        rows.saturating_sub(1)
    };
    let mut lines: Vec<String> = Vec::new();
    let mut shown = 0;
    for item in wrapped {
        let left = room.saturating_sub(lines.len());
        if left == 0 {
            break;
        }
        let take = text::clamp_lines(item, left, cols.saturating_sub(2));
        for (i, line) in take.into_iter().enumerate() {
            let mark = if i == 0 { "- " } else { "  " };
            lines.push(format!("{mark}{line}"));
        }
        shown += 1;
    }
    if shown < items.len() {
        lines.push(format!("+{} more", items.len() - shown));
    }
    (lines, shown)
}

/// A full-width 1-pixel rule at row `y`.
fn rule<D>(target: &mut D, y: i32) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    Line::new(Point::new(0, y), Point::new(W - 1, y))
        .into_styled(PrimitiveStyle::with_stroke(BinaryColor::On, 1))
        .draw(target)
}

/// "mm:ss", or "h:mm:ss" from an hour on.
fn mm_ss(seconds: u32) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    }
}

/// The status line: one or two rows of `FONT_5X8` and a rule; returns the first body row.
fn status_line<D>(target: &mut D, status: &StatusLine) -> Result<i32, D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let cols = columns(SMALL, WIDTH as u32);
    let cell = px(SMALL.character_size.width);
    // Right: the real time used this turn; past the limit it is inverted and flagged.
    let over = status.over_time();
    let time = if over {
        format!("!{}", mm_ss(status.elapsed_s))
    } else {
        mm_ss(status.elapsed_s)
    };
    let time_len = char_len(&time);
    let time_x = W - px(width_of(SMALL, time_len));
    if over {
        fill(
            target,
            Rectangle::new(
                Point::new(time_x - 1, 0),
                Size::new(time_len as u32 * 5 + 1, 8),
            ),
            BinaryColor::On,
        )?;
    }
    let ink = if over { Ink::Inverted } else { Ink::Normal };
    draw_line(target, SMALL, &time, Point::new(time_x, 0), ink)?;
    // Left: the turn, the game's clock and the side to act, as long as room allows.
    let room = cols.saturating_sub(time_len + 1);
    let clock = status
        .clock
        .map(|c| format!(" {:02}:{:02}", c.hour, c.minute))
        .unwrap_or_default();
    let turn = [format!("Turn {}", status.turn), format!("T{}", status.turn)];
    let left = turn
        .iter()
        .map(|t| format!("{t}{clock} {}", status.to_act))
        .find(|s| char_len(s) <= room)
        .unwrap_or_else(|| truncate(&format!("T{}{clock} {}", status.turn, status.to_act), room));
    draw_line(target, SMALL, &left, Point::zero(), Ink::Normal)?;
    let mut y = 8;
    // Row 2, for games that count actions or wait for reinforcements.
    if status.actions_left.is_some() || status.reinforcements_in.is_some() {
        let actions = status.actions_left.map(|n| match n {
            1 => "1 action".to_string(),
            n => format!("{n} actions"),
        });
        let prussians = status
            .reinforcements_in
            .map(|n| format!("Prussians in {n}"));
        let mut room = cols;
        if let Some(a) = actions {
            let a = truncate(&a, 10);
            room = cols.saturating_sub(char_len(&a) + 1);
            draw_line(target, SMALL, &a, Point::new(0, y), Ink::Normal)?;
        }
        if let Some(p) = prussians {
            let p = truncate(&p, room);
            let x = W - cell * i32::try_from(char_len(&p)).unwrap_or(0);
            draw_line(target, SMALL, &p, Point::new(x, y), Ink::Normal)?;
        }
        y += 8;
    }
    rule(target, y)?;
    Ok(y + 2)
}

// ----- the screens ---------------------------------------------------------------------------

fn boot<D>(target: &mut D, version: &str, detail: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    centred(target, "UMPIRE", &[&FONT_10X20], 2, 20, false)?;
    let version = if version.starts_with(|c: char| c.is_ascii_digit()) {
        format!("v{version}")
    } else {
        version.to_string()
    };
    let cols = columns(BODY, WIDTH as u32);
    draw_lines(target, BODY, &[truncate(&version, cols)], None, 24, 0)?;
    rule(target, 37)?;
    centred(target, detail, &[BODY], 41, 20, true)?;
    Ok(())
}

fn choice<D>(
    target: &mut D,
    title: &str,
    entries: &[String],
    selected: usize,
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, title)?;
    if entries.is_empty() {
        draw_lines(
            target,
            BODY,
            &["(nothing to choose)".into()],
            Some(1),
            y0,
            0,
        )?;
        return Ok(());
    }
    let rows = lines_in(BODY, H - y0);
    let selected = selected.min(entries.len() - 1);
    // Keep the highlight visible with one entry after it where there is one.
    let first = selected
        .saturating_sub(rows.saturating_sub(2))
        .min(entries.len().saturating_sub(rows));
    let cols = columns(BODY, 120);
    for (row, (index, entry)) in entries
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .enumerate()
    {
        let y = y0 + line_height(BODY) * i32::try_from(row).unwrap_or(0);
        let line = truncate(entry, cols);
        if index == selected {
            fill(
                target,
                Rectangle::new(Point::new(0, y), Size::new(122, 10)),
                BinaryColor::On,
            )?;
            draw_line(target, BODY, &line, Point::new(1, y), Ink::Inverted)?;
        } else {
            draw_line(target, BODY, &line, Point::new(1, y), Ink::Normal)?;
        }
    }
    // Scroll marks in the right margin.
    let marks = PrimitiveStyle::with_fill(BinaryColor::On);
    if first > 0 {
        Triangle::new(
            Point::new(123, y0 + 5),
            Point::new(127, y0 + 5),
            Point::new(125, y0 + 1),
        )
        .into_styled(marks)
        .draw(target)?;
    }
    if first + rows < entries.len() {
        Triangle::new(
            Point::new(123, H - 6),
            Point::new(127, H - 6),
            Point::new(125, H - 2),
        )
        .into_styled(marks)
        .draw(target)?;
    }
    Ok(())
}

fn setup<D>(
    target: &mut D,
    seat: &str,
    instruction: &str,
    placed: u16,
    needed: u16,
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, &format!("{seat} set-up"))?;
    paragraphs(
        target,
        &[Para {
            text: instruction,
            lead: 0,
        }],
        &[BODY, SMALL],
        y0,
        44 - y0,
    )?;
    let progress = if placed > needed {
        format!("Placed {placed} of {needed}: {} too many", placed - needed)
    } else {
        format!("Placed {placed} of {needed}")
    };
    draw_lines(
        target,
        BODY,
        &[truncate(&progress, columns(BODY, 126))],
        Some(1),
        45,
        0,
    )?;
    // The bar: page 7 exactly, so progress updates touch one page.
    Rectangle::new(Point::new(0, 56), Size::new(WIDTH as u32, 8))
        .into_styled(PrimitiveStyle::with_stroke(BinaryColor::On, 1))
        .draw(target)?;
    let inner = 124u32;
    let filled = if needed == 0 {
        inner
    } else {
        (inner * u32::from(placed.min(needed))) / u32::from(needed)
    };
    if filled > 0 {
        fill(
            target,
            Rectangle::new(Point::new(2, 58), Size::new(filled, 4)),
            BinaryColor::On,
        )?;
    }
    Ok(())
}

fn problem_list<D>(target: &mut D, title: &str, problems: &[String]) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, &titled_count(title, problems.len()))?;
    list(target, problems, y0)
}

fn play<D>(target: &mut D, status: &StatusLine, prompt: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = status_line(target, status)?;
    centred(target, prompt, &[&FONT_9X15, BODY, SMALL], y0, H - y0, true)?;
    Ok(())
}

fn move_accepted<D>(target: &mut D, status: &StatusLine, mv: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = status_line(target, status)?;
    let y = draw_lines(target, BODY, &["Accepted".into()], Some(1), y0, 8)?;
    centred(
        target,
        mv,
        &[&FONT_10X20, &FONT_9X15, BODY, SMALL],
        y,
        H - y,
        true,
    )?;
    Ok(())
}

fn illegal<D>(target: &mut D, status: &StatusLine, reason: &str, fix: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = status_line(target, status)?;
    let reason = format!("Illegal {reason}");
    let fix = format!("Fix {fix}");
    paragraphs(
        target,
        &[
            Para {
                text: &reason,
                lead: 7,
            },
            Para {
                text: &fix,
                lead: 3,
            },
        ],
        &[BODY, SMALL],
        y0,
        H - y0,
    )?;
    Ok(())
}

fn battle<D>(
    target: &mut D,
    attacker: &str,
    defender: &str,
    result: &str,
    hands: &[String],
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let cols = columns(BODY, 126);
    let both = format!("{attacker} x {defender}");
    let mut y = if char_len(&both) <= cols {
        draw_lines(target, BODY, &[both], Some(1), 0, 0)?
    } else {
        let lines = [
            truncate(attacker, cols),
            truncate(&format!("x {defender}"), cols),
        ];
        draw_lines(target, BODY, &lines, Some(1), 0, 0)?
    };
    // The result, inverted across the width.
    y += 1;
    inverted_bar(target, result, y, true)?;
    y += TITLE_BAR + 1;
    list(target, hands, y)
}

fn told<D>(
    target: &mut D,
    status: &StatusLine,
    title: &str,
    lines: &[String],
    hands: &[String],
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = status_line(target, status)?;
    let cols = columns(BODY, 126);
    let y = draw_lines(target, BODY, &[truncate(title, cols)], Some(1), y0, 0)?;
    let mut all: Vec<String> = lines.to_vec();
    all.extend(hands.iter().cloned());
    list(target, &all, y + 1)
}

fn die_roll<D>(target: &mut D, face: &str, meaning: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    headline(target, "Die roll", face, meaning)
}

/// A title bar, `big` large and centred below it, then `text` in the rest of the screen.
fn headline<D>(target: &mut D, title: &str, big: &str, text: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, title)?;
    let y = centred(
        target,
        big,
        &[&FONT_10X20, &FONT_9X15_BOLD, BODY],
        y0 + 1,
        20,
        true,
    )?;
    let y = y.max(y0 + 23);
    paragraphs(target, &[Para { text, lead: 0 }], &[BODY, SMALL], y, H - y)?;
    Ok(())
}

fn mismatch<D>(target: &mut D, differences: &[Difference]) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, &titled_count("Fix the board", differences.len()))?;
    let items: Vec<String> = differences
        .iter()
        .map(|d| format!("{} -> {}", d.place, d.belongs))
        .collect();
    list(target, &items, y0)
}

fn takeback<D>(target: &mut D, moves_back: u32, to_move_number: u32) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, "Take back?")?;
    let moves = if moves_back == 1 { "move" } else { "moves" };
    let question = format!("Take back {moves_back} {moves}, to move {to_move_number}?");
    paragraphs(
        target,
        &[Para {
            text: &question,
            lead: 0,
        }],
        &[BODY, SMALL],
        y0,
        H - 20 - y0 - 2,
    )?;
    draw_lines(target, BODY, &["OK = take back".into()], Some(2), H - 21, 2)?;
    draw_lines(target, BODY, &["Back = keep".into()], Some(2), H - 10, 4)?;
    Ok(())
}

fn game_over<D>(target: &mut D, result: &str, reason: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    headline(target, "Game over", result, reason)
}

fn error<D>(target: &mut D, message: &str, fix: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, "Error")?;
    let fix = format!("Fix {fix}");
    paragraphs(
        target,
        &[
            Para {
                text: message,
                lead: 0,
            },
            Para {
                text: &fix,
                lead: 3,
            },
        ],
        &[BODY, SMALL],
        y0,
        H - y0,
    )?;
    Ok(())
}

/// The boot's recovery choice: what was found and what a choice does above, the choices as
/// highlighted rows at the bottom.
fn recovery<D>(
    target: &mut D,
    found: &str,
    detail: &str,
    entries: &[String],
    selected: usize,
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, "Last game")?;
    let rows = i32::try_from(entries.len().min(2)).unwrap_or(2);
    let menu_y = H - rows * line_height(BODY);
    paragraphs(
        target,
        &[
            Para {
                text: found,
                lead: 0,
            },
            Para {
                text: detail,
                lead: 0,
            },
        ],
        &[BODY, SMALL],
        y0,
        menu_y - y0 - 1,
    )?;
    let selected = selected.min(entries.len().saturating_sub(1));
    let first = selected
        .saturating_sub(1)
        .min(entries.len().saturating_sub(2));
    let cols = columns(BODY, 120);
    for (row, (index, entry)) in entries.iter().enumerate().skip(first).take(2).enumerate() {
        let y = menu_y + line_height(BODY) * i32::try_from(row).unwrap_or(0);
        let line = format!("{} {}", if index == selected { '>' } else { ' ' }, entry);
        let line = truncate(&line, cols);
        if index == selected {
            fill(
                target,
                Rectangle::new(Point::new(0, y), Size::new(WIDTH as u32, 10)),
                BinaryColor::On,
            )?;
            draw_line(target, BODY, &line, Point::new(1, y), Ink::Inverted)?;
        } else {
            draw_line(target, BODY, &line, Point::new(1, y), Ink::Normal)?;
        }
    }
    Ok(())
}

/// A fault outside the game: the part in the title bar (alone, so it is never cut), what is
/// wrong, the fix behind a "Fix" chip as on the error screen, and how many other faults wait
/// ("+2 more faults"), fitted so the first words of each stay on screen.
fn fault<D>(target: &mut D, part: &str, problem: &str, fix: &str, more: u16) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    let y0 = title_bar(target, part)?;
    let fix = format!("Fix {fix}");
    let more = match more {
        0 => String::new(),
        1 => "+1 more fault".to_string(),
        n => format!("+{n} more faults"),
    };
    let mut paras = vec![
        Para {
            text: problem,
            lead: 0,
        },
        Para {
            text: &fix,
            lead: 3,
        },
    ];
    if !more.is_empty() {
        paras.push(Para {
            text: &more,
            lead: 0,
        });
    }
    paragraphs(target, &paras, &[BODY, SMALL], y0, H - y0)?;
    Ok(())
}

/// The calibration grid: one 4x4 cell per square on a 5-pixel pitch (a 12x10 board is 60x50),
/// rank 1 at the bottom. A filled cell reads occupied now, an outlined one has been seen, a dot
/// never has. The right side counts the squares seen and shows the latest event.
fn calibrate<D>(
    target: &mut D,
    columns: u8,
    rows: u8,
    occupied: &[u16],
    seen: &[u16],
    note: &str,
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    const PITCH: i32 = 5;
    let (cols, rws) = (i32::from(columns.min(25)), i32::from(rows.min(12)));
    let top = (H - rws * PITCH).max(0) / 2;
    for r in 0..rws {
        for c in 0..cols {
            let cell = u16::try_from(r * i32::from(columns) + c).unwrap_or(u16::MAX);
            let x = c * PITCH;
            let y = top + (rws - 1 - r) * PITCH;
            let rect = Rectangle::new(Point::new(x, y), Size::new(4, 4));
            if occupied.contains(&cell) {
                fill(target, rect, BinaryColor::On)?;
            } else if seen.contains(&cell) {
                rect.into_styled(PrimitiveStyle::with_stroke(BinaryColor::On, 1))
                    .draw(target)?;
            } else {
                Pixel(Point::new(x + 1, y + 2), BinaryColor::On).draw(target)?;
            }
        }
    }
    let x = cols * PITCH + 3;
    let width = u32::try_from((W - x).max(0)).unwrap_or(0);
    let cols_text = text::columns(SMALL, width);
    let total = usize::from(columns) * usize::from(rows);
    let lines = [
        truncate("CALIBRATE", cols_text),
        truncate(&format!("{}/{total}", seen.len()), cols_text),
        truncate("seen", cols_text),
    ];
    let mut y = 0;
    for line in &lines {
        draw_line(target, SMALL, line, Point::new(x, y), Ink::Normal)?;
        y += line_height(SMALL);
    }
    let room = usize::try_from((H - y) / line_height(SMALL)).unwrap_or(0);
    let rest = text::wrap_clamped(note, cols_text, room);
    for line in rest {
        draw_line(target, SMALL, &line, Point::new(x, y), Ink::Normal)?;
        y += line_height(SMALL);
    }
    Ok(())
}
