//! Drawing the umpire's [`Screen`]s on the 128x64 OLED, and pushing only what changed.
//!
//! [`layout`] is pure: it lays one [`Screen`] out as [`Page`]s of text lines and shapes. The
//! same layout paints the pixels ([`draw_page`] on any `DrawTarget<Color = BinaryColor>`: a
//! [`Frame`] for the real display, a PNG in tests) and gives the words back ([`screen_lines`]) to the
//! simulator, the logs and the scenario checks, so what they read is what the OLED draws.
//!
//! Layout, chosen for reading from across a table:
//! - Titles are an inverted bar in `FONT_7X13_BOLD` (18 characters), bodies `FONT_6X10`
//!   (21 x 4-5 lines under a title). Short key facts (a move, a die face, a winner) get a larger
//!   font when they fit whole (`FONT_10X20`, `FONT_9X15`), falling back to smaller ones.
//! - The in-play status line is `FONT_5X8` (25 characters), one 8-pixel page per row so a clock
//!   tick only rewrites the bytes under its digits: row 1 turn, clock, side to act and, at the
//!   right, the real time used this turn (inverted with a `!` once past the limit); row 2, only
//!   for games that have them, actions left and "Prussians in N".
//! - Text is word-wrapped and never cut: what does not fit one page goes on more, marked "1/3"
//!   in the bottom right corner and turned every [`PAGE_MS`]. The words a player needs first
//!   (the verdict, what to press, the first hand step) are on page 1.
//! - Menu entries are drawn whole, on two lines where one is not enough.

mod frame;
mod layout;
mod pager;
pub mod qr;
pub mod text;

pub use frame::{
    diff, diff_regions, wire_bytes, Frame, Region, DATA_CHUNK, FRAME_BYTES, HEIGHT, PAGES, WIDTH,
};
pub use layout::{Drawn, Font, Layout, Mark, Page};
pub use pager::{without_clock, Pager, PAGE_MS};

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Rectangle, Triangle};

use boards::geometry::grid::Cell;

use crate::ui::{Difference, Screen, StatusLine};
use layout::{flow, paged, Block, FLine, H, W};
use text::{char_len, truncate, Ink};

/// Height of the title bar; the body starts one blank row below it.
const TITLE_BAR: i32 = 13;

/// Lays `screen` out: its pages, each with every line and shape it draws.
pub fn layout(screen: &Screen) -> Layout {
    let pages = match screen {
        Screen::Boot { version, detail } => boot(version, detail),
        Screen::Choice {
            title,
            entries,
            selected,
            ..
        } => std::vec![choice(title, entries, *selected)],
        Screen::Setup {
            seat,
            instruction,
            placed,
            needed,
        } => setup(seat, instruction, *placed, *needed),
        Screen::Problems { title, problems } => problem_list(title, problems),
        Screen::Play { status, prompt } => play(status, prompt),
        Screen::MoveAccepted { status, mv, .. } => move_accepted(status, mv),
        Screen::Illegal {
            status,
            reason,
            fix,
            ..
        } => illegal(status, reason, fix),
        Screen::Battle {
            attacker,
            defender,
            result,
            after,
            hands,
            ..
        } => battle(attacker, defender, result, after, hands),
        Screen::Told {
            status,
            title,
            lines,
            hands,
            ..
        } => told(status, title, lines, hands),
        Screen::DieRoll { face, meaning } => headline("Die roll", face, meaning, None),
        Screen::Mismatch { differences } => mismatch(differences),
        Screen::Takeback {
            moves_back,
            to_move_number,
        } => takeback(*moves_back, *to_move_number),
        Screen::GameOver { result, reason } => {
            headline("Game over", result, reason, Some("OK: new game"))
        }
        Screen::Error { message, fix } => fix_screen("Error", message, fix, 0),
        Screen::Calibrate {
            columns,
            rows,
            occupied,
            focus,
            seen,
            idle,
            walked,
            places,
            tray,
            note,
        } => std::vec![calibrate(
            (*columns, *rows),
            (occupied, *focus, seen, idle),
            (*walked, *places),
            tray.as_deref(),
            note
        )],
        Screen::Recovery {
            found,
            detail,
            entries,
            selected,
        } => recovery(found, detail, entries, *selected),
        Screen::Fault {
            part,
            problem,
            fix,
            more,
        } => fix_screen(part, problem, fix, *more),
        Screen::PhoneAsk { seat, more } => phone_ask(seat, *more),
        Screen::PhoneCode { seat, url } => phone_code(seat, &url.0),
    };
    Layout { pages }
}

/// The screen's words as the OLED draws them: one entry per paragraph (its wrapped lines
/// joined), page after page. Logs, the simulator, scenario checks and the phone pages read
/// these. A secret pick's menu is the exception: its highlight is the chooser's alone, so
/// its words are the title and every entry, none highlighted.
pub fn screen_lines(screen: &Screen) -> Vec<String> {
    match screen {
        Screen::Choice {
            title,
            entries,
            secret: true,
            ..
        } => std::iter::once(title.clone())
            .chain(entries.iter().cloned())
            .collect(),
        _ => layout(screen).lines(),
    }
}

/// The screen's words as drawn on one line, paragraphs separated by ` / `.
pub fn screen_text(screen: &Screen) -> String {
    screen_lines(screen).join(" / ")
}

/// Draws page `page` of `screen` (wrapping round) on `target`, clearing it first.
///
/// # Errors
/// Only the target's own errors (a [`Frame`] never fails).
pub fn draw_page<D>(screen: &Screen, page: usize, target: &mut D) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    layout(screen).page(page).paint(target)
}

/// Draws the first page of `screen` on `target`, clearing it first.
///
/// # Errors
/// Only the target's own errors (a [`Frame`] never fails).
pub fn draw<D>(screen: &Screen, target: &mut D) -> Result<(), D::Error>
where
    D: DrawTarget<Color = BinaryColor>,
{
    draw_page(screen, 0, target)
}

/// Renders page `page` of `screen` into a fresh [`Frame`].
pub fn render_page(screen: &Screen, page: usize) -> Frame {
    let mut frame = Frame::new();
    match draw_page(screen, page, &mut frame) {
        Ok(()) => frame,
        Err(never) => match never {},
    }
}

/// Renders the first page of `screen` into a fresh [`Frame`].
pub fn render(screen: &Screen) -> Frame {
    render_page(screen, 0)
}

/// How many pages `screen` takes.
pub fn page_count(screen: &Screen) -> usize {
    layout(screen).pages.len()
}

// ----- building blocks -----------------------------------------------------------------------

fn rect(x: i32, y: i32, w: i32, h: i32) -> Rectangle {
    Rectangle::new(
        Point::new(x, y),
        Size::new(
            u32::try_from(w.max(0)).unwrap_or(0),
            u32::try_from(h.max(0)).unwrap_or(0),
        ),
    )
}

/// An inverted bar across the top with `title` in bold; returns the first free row below it.
fn title_bar(page: &mut Page, title: &str) -> i32 {
    if char_len(title) <= Font::Title.columns(126) {
        page.bar(Font::Title, title, 0, TITLE_BAR, false);
    } else if char_len(title) <= Font::Body.columns(126) {
        // Too long for the bold font: the body font, which holds three more characters.
        page.bar(Font::Body, title, 0, TITLE_BAR, false);
    } else {
        // Or the small one, four more again.
        page.bar(
            Font::Small,
            &truncate(title, Font::Small.columns(126)),
            0,
            TITLE_BAR,
            false,
        );
    }
    TITLE_BAR + 1
}

/// A title with a count that must stay visible: "Red set-up (2)"; whole when the title bar's
/// smaller fonts hold it ("Anglo-Dutch set-up (1)"), else shortening the title first.
fn titled_count(title: &str, count: usize) -> String {
    let suffix = format!(" ({count})");
    if char_len(title) + char_len(&suffix) <= Font::Small.columns(126) {
        return format!("{title}{suffix}");
    }
    let room = Font::Title.columns(126).saturating_sub(char_len(&suffix));
    format!("{}{suffix}", truncate(title, room))
}

/// `value` centred in the band `y..y + height`, whole, in the first of `fonts` that holds it
/// (wrapped); `None` when none does. Returns the first free row below.
fn centred(page: &mut Page, value: &str, fonts: &[Font], y: i32, height: i32) -> Option<i32> {
    let block = [Block::plain(value)];
    for &font in fonts {
        let flowed = flow(&block, &block, &[font], W, height);
        if let [lines] = flowed.pages.as_slice() {
            if lines.len() > font.rows(height) {
                continue;
            }
            let used = font.height() * i32::try_from(lines.len()).unwrap_or(0);
            let top = y + (height - used).max(0) / 2;
            return Some(page.flowed(font, lines, None, top));
        }
    }
    None
}

/// "mm:ss", or "h:mm:ss" from an hour on: the status line's time.
pub fn mm_ss(seconds: u32) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    }
}

/// The status line: one or two rows of the small font and a rule; returns the first body row.
fn status_line(page: &mut Page, status: &StatusLine) -> i32 {
    let cols = Font::Small.columns(W);
    // The real time used this turn; past the limit it is inverted and flagged.
    let over = status.over_time();
    let time = if over {
        format!("!{}", mm_ss(status.elapsed_s))
    } else {
        mm_ss(status.elapsed_s)
    };
    let time_len = char_len(&time);
    // The turn, the game's clock and the side to act, whole: with the time on row 1 when they
    // fit beside it, else alone on row 1 and the time on row 2.
    let clock = status
        .clock
        .map(|c| format!(" {:02}:{:02}", c.hour, c.minute))
        .unwrap_or_default();
    let candidates = [
        format!("Turn {}{clock} {}", status.turn, status.to_act),
        format!("T{}{clock} {}", status.turn, status.to_act),
    ];
    let beside = candidates
        .iter()
        .find(|s| char_len(s) <= cols.saturating_sub(time_len + 1));
    let (left, time_row) = match beside {
        Some(left) => (left.clone(), 0),
        None => (
            candidates
                .iter()
                .find(|s| char_len(s) <= cols)
                .cloned()
                .unwrap_or_else(|| truncate(&candidates[1], cols)),
            8,
        ),
    };
    page.text(Font::Small, left, Point::zero(), Ink::Normal);
    // Row 2, for games that count actions or wait for reinforcements (or for the time).
    let actions = status.actions_left.map(|n| match n {
        1 => "1 action".to_string(),
        n => format!("{n} actions"),
    });
    let prussians = status
        .reinforcements_in
        .map(|n| [format!("Prussians in {n}"), format!("Pruss. in {n}")]);
    let mut y = 8;
    if actions.is_some() || prussians.is_some() || time_row == 8 {
        let right_used = if time_row == 8 { time_len + 1 } else { 0 };
        let mut used = 0;
        if let Some(a) = actions {
            used = char_len(&a) + 1;
            page.text(Font::Small, a, Point::new(0, y), Ink::Normal);
        }
        if let Some(p) = prussians {
            let room = cols.saturating_sub(used + right_used);
            let p = p
                .iter()
                .find(|p| char_len(p) <= room)
                .cloned()
                .unwrap_or_else(|| truncate(&p[1], room));
            let x = if time_row == 8 {
                Font::Small.width(used) + i32::from(used > 0)
            } else {
                W - Font::Small.width(char_len(&p))
            };
            page.text(Font::Small, p, Point::new(x, y), Ink::Normal);
        }
        y += 8;
    }
    let time_x = W - Font::Small.width(time_len);
    if over {
        page.marks.push(Mark::Fill(rect(
            time_x - 1,
            time_row,
            i32::try_from(time_len).unwrap_or(0) * 5 + 1,
            8,
        )));
    }
    let ink = if over { Ink::Inverted } else { Ink::Normal };
    page.text(Font::Small, time, Point::new(time_x, time_row), ink);
    page.marks.push(Mark::Rule(y));
    y + 2
}

// ----- the screens ---------------------------------------------------------------------------

fn boot(version: &str, detail: &str) -> Vec<Page> {
    let version = if version.starts_with(|c: char| c.is_ascii_digit()) {
        format!("v{version}")
    } else {
        version.to_string()
    };
    let header = |page: &mut Page| {
        centred(page, "UMPIRE", &[Font::Huge], 2, 20);
        let cols = Font::Body.columns(W);
        let version = truncate(&version, cols);
        let x = (W - Font::Body.width(char_len(&version))) / 2;
        page.text(Font::Body, version, Point::new(x.max(0), 24), Ink::Normal);
        page.marks.push(Mark::Rule(37));
        41
    };
    let block = [Block::plain(detail).essential()];
    paged(&header, H, &block, &block, &[Font::Body, Font::Small], true)
}

/// The menu: a title bar, the entries (each whole, on two lines where one is not enough) with
/// the highlighted one inverted and always on screen, scroll marks, and what the buttons do.
fn choice(title: &str, entries: &[String], selected: usize) -> Page {
    let mut page = Page::default();
    let y0 = title_bar(&mut page, title);
    let hint_y = H - Font::Small.height();
    let hint = |page: &mut Page| {
        page.text(
            Font::Small,
            "Die:next OK:pick Back:out",
            Point::new(0, hint_y),
            Ink::Normal,
        );
    };
    if entries.is_empty() {
        page.text(
            Font::Body,
            "(nothing to choose)",
            Point::new(1, y0),
            Ink::Normal,
        );
        hint(&mut page);
        return page;
    }
    let rows = Font::Body.rows(hint_y - y0);
    // Entries use the whole width; the scroll marks sit at the end of the buttons' row.
    let cols = Font::Body.columns(126);
    let wrapped: Vec<Vec<String>> = entries.iter().map(|e| text::wrap(e, cols)).collect();
    let selected = selected.min(entries.len() - 1);
    // The first entry shown: the highlight and, where there is one, the entry after it fit.
    let height =
        |from: usize, to: usize| -> usize { wrapped[from..=to].iter().map(Vec::len).sum() };
    let last_wanted = (selected + 1).min(entries.len() - 1);
    let mut first = 0;
    while first < selected && height(first, last_wanted) > rows {
        first += 1;
    }
    while first < selected && height(first, selected) > rows {
        first += 1;
    }
    let mut y = y0;
    let mut shown_to = first;
    for (index, lines) in wrapped.iter().enumerate().skip(first) {
        let used = usize::try_from((y - y0) / Font::Body.height()).unwrap_or(0);
        if used + lines.len() > rows && index != selected {
            break;
        }
        let ink = if index == selected {
            let h = Font::Body.height() * i32::try_from(lines.len()).unwrap_or(0);
            page.marks.push(Mark::Fill(rect(0, y, W, h)));
            Ink::Inverted
        } else {
            Ink::Normal
        };
        for (i, line) in lines.iter().enumerate() {
            page.marks.push(Mark::Text(Drawn {
                text: line.clone(),
                font: Font::Body,
                at: Point::new(1, y),
                ink,
                chip: 0,
                clip: None,
                continues: i > 0,
                glued: false,
            }));
            y += Font::Body.height();
        }
        shown_to = index + 1;
    }
    if first > 0 {
        page.marks.push(Mark::Triangle(Triangle::new(
            Point::new(122, hint_y + 3),
            Point::new(126, hint_y + 3),
            Point::new(124, hint_y),
        )));
    }
    if shown_to < entries.len() {
        page.marks.push(Mark::Triangle(Triangle::new(
            Point::new(122, hint_y + 4),
            Point::new(126, hint_y + 4),
            Point::new(124, hint_y + 7),
        )));
    }
    hint(&mut page);
    page
}

/// Set-up guidance: the seat and the count in the title bar ("Red set-up 3/6"), what to do
/// below it (too many pieces first), and the progress bar on the bottom page row. Words that
/// would run onto a second page above the bar (an instruction with a rule's note, Napoléon's
/// 6.2.4 option) take the bar's row instead, when that keeps them on one page: pages turn on
/// their own, and a player may miss the one with the prompt; the title keeps the count.
fn setup(seat: &str, instruction: &str, placed: u16, needed: u16) -> Vec<Page> {
    let title = setup_title(seat, placed, needed);
    let header = |page: &mut Page| title_bar(page, &title);
    let mut blocks = Vec::new();
    if placed > needed {
        blocks.push(Block::plain(format!("{} too many: lift them", placed - needed)).essential());
    }
    blocks.push(Block::plain(instruction).essential());
    let fonts = [Font::Body, Font::Small];
    let mut pages = paged(&header, 55, &blocks, &blocks, &fonts, false);
    if pages.len() > 1 {
        let whole = paged(&header, H, &blocks, &blocks, &fonts, false);
        if whole.len() == 1 {
            return whole;
        }
    }
    for page in &mut pages {
        // The bar: page 7 exactly, so progress updates touch one page.
        page.marks.push(Mark::Outline(rect(0, 56, W, 8)));
        let inner = 124u32;
        let filled = if needed == 0 {
            inner
        } else {
            (inner * u32::from(placed.min(needed))) / u32::from(needed)
        };
        if filled > 0 {
            page.marks.push(Mark::Fill(rect(
                2,
                58,
                i32::try_from(filled).unwrap_or(0),
                4,
            )));
        }
    }
    pages
}

/// A set-up screen's title, its count always whole: "Red set-up 12/40"; without "set-up"
/// when the title bar's smallest font cannot hold it all ("Allies and French 12/58"); then
/// the seat shortened.
fn setup_title(seat: &str, placed: u16, needed: u16) -> String {
    let count = format!("{placed}/{needed}");
    let room = Font::Small.columns(126);
    let full = format!("{seat} set-up {count}");
    if char_len(&full) <= room {
        return full;
    }
    let short = format!("{seat} {count}");
    if char_len(&short) <= room {
        return short;
    }
    format!(
        "{} {count}",
        truncate(seat, room.saturating_sub(char_len(&count) + 1))
    )
}

/// A list under a title bar: each item a bullet, the first on page 1.
fn titled_list(title: &str, items: &[String]) -> Vec<Page> {
    let header = |page: &mut Page| title_bar(page, title);
    let blocks: Vec<Block> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let block = Block::item(item.clone());
            if i == 0 {
                block.essential()
            } else {
                block
            }
        })
        .collect();
    paged(
        &header,
        H,
        &blocks,
        &blocks,
        &[Font::Body, Font::Small],
        false,
    )
}

fn problem_list(title: &str, problems: &[String]) -> Vec<Page> {
    titled_list(&titled_count(title, problems.len()), problems)
}

fn play(status: &StatusLine, prompt: &str) -> Vec<Page> {
    let header = |page: &mut Page| status_line(page, status);
    let mut page = Page::default();
    let y0 = header(&mut page);
    if centred(
        &mut page,
        prompt,
        &[Font::Large, Font::Body, Font::Small],
        y0,
        H - y0,
    )
    .is_some()
    {
        return std::vec![page];
    }
    let block = [Block::plain(prompt).essential()];
    paged(
        &header,
        H,
        &block,
        &block,
        &[Font::Body, Font::Small],
        false,
    )
}

fn move_accepted(status: &StatusLine, mv: &str) -> Vec<Page> {
    let header = |page: &mut Page| {
        let y0 = status_line(page, status);
        page.marks.push(Mark::Text(Drawn {
            text: "Accepted".into(),
            font: Font::Body,
            at: Point::new(1, y0),
            ink: Ink::Normal,
            chip: 8,
            clip: None,
            continues: false,
            glued: false,
        }));
        y0 + Font::Body.height()
    };
    let mut page = Page::default();
    let y = header(&mut page);
    let fonts = [Font::Huge, Font::Large, Font::Body, Font::Small];
    if centred(&mut page, mv, &fonts, y, H - y).is_some() {
        return std::vec![page];
    }
    let block = [Block::plain(mv).essential()];
    paged(
        &header,
        H,
        &block,
        &block,
        &[Font::Body, Font::Small],
        false,
    )
}

/// A refusal: why, and the fix. On one page "Illegal <why>" then "Fix <fix>"; when that takes
/// more, page 1 says "Illegal <fix>", and "Why <why>" follows.
fn illegal(status: &StatusLine, reason: &str, fix: &str) -> Vec<Page> {
    let header = |page: &mut Page| status_line(page, status);
    let single = [Block::chip("Illegal", reason), Block::chip("Fix", fix)];
    let paged_blocks = [
        Block::chip("Illegal", fix).essential(),
        Block::chip("Why", reason),
    ];
    paged(
        &header,
        H,
        &single,
        &paged_blocks,
        &[Font::Body, Font::Small],
        false,
    )
}

/// A battle: who met whom, the verdict inverted, then what the hands must do. When that takes
/// pages, the verdict and the first hand step are on page 1.
fn battle(
    attacker: &str,
    defender: &str,
    result: &str,
    after: &[String],
    hands: &[String],
) -> Vec<Page> {
    let mut blocks = std::vec![
        Block::plain(format!("{attacker} x {defender}")),
        Block::plain(result).essential().inverse(),
    ];
    blocks.extend(hands.iter().enumerate().map(|(i, h)| {
        let block = Block::item(h.clone());
        if i == 0 {
            block.essential()
        } else {
            block
        }
    }));
    blocks.extend(after.iter().map(|a| Block::item(a.clone())));
    paged(
        &|_| 0,
        H,
        &blocks,
        &blocks,
        &[Font::Body, Font::Small],
        false,
    )
}

/// What an action did: the title, what more there is to say, then the hand steps; the title
/// and the first hand step (or, with none, the first line) on page 1.
fn told(status: &StatusLine, title: &str, lines: &[String], hands: &[String]) -> Vec<Page> {
    let header = |page: &mut Page| status_line(page, status);
    let mut blocks = std::vec![Block::plain(title).essential()];
    blocks.extend(lines.iter().enumerate().map(|(i, l)| {
        let block = Block::item(l.clone());
        if i == 0 && hands.is_empty() {
            block.essential()
        } else {
            block
        }
    }));
    blocks.extend(hands.iter().enumerate().map(|(i, h)| {
        let block = Block::item(h.clone());
        if i == 0 {
            block.essential()
        } else {
            block
        }
    }));
    paged(
        &header,
        H,
        &blocks,
        &blocks,
        &[Font::Body, Font::Small],
        false,
    )
}

/// A title bar, `big` large and centred below it, then `text` (and `press`, what to press) in
/// the rest of the screen.
fn headline(title: &str, big: &str, text: &str, press: Option<&str>) -> Vec<Page> {
    let header = |page: &mut Page| {
        let y0 = title_bar(page, title);
        let fonts = [Font::Huge, Font::LargeBold, Font::Body];
        let y = centred(page, big, &fonts, y0 + 1, 20).unwrap_or_else(|| {
            let lines = text::wrap(big, Font::Small.columns(W))
                .into_iter()
                .enumerate()
                .map(|(i, text)| FLine {
                    text,
                    chip: 0,
                    continues: i > 0,
                    glued: false,
                    inverse: false,
                })
                .collect::<Vec<_>>();
            page.flowed(Font::Small, &lines, None, y0 + 1)
        });
        y.max(y0 + 23)
    };
    let mut blocks = std::vec![Block::plain(text).essential()];
    if let Some(press) = press {
        blocks.push(Block::plain(press).essential());
    }
    let pages = paged(
        &header,
        H,
        &blocks,
        &blocks,
        &[Font::Body, Font::Small],
        false,
    );
    if pages.len() == 1 {
        return pages;
    }
    // Too much to say under the large value: the value joins the title ("Die roll: Blue R")
    // and the words get the rest of the screen; or, when the title bar cannot hold both whole
    // ("Game over: Anglo-Allied victory"), the value leads the words, never cut.
    let both = format!("{title}: {big}");
    let bar = if char_len(&both) <= Font::Small.columns(126) {
        both
    } else {
        blocks.insert(0, Block::plain(big).essential());
        title.to_string()
    };
    let header = |page: &mut Page| title_bar(page, &bar);
    paged(
        &header,
        H,
        &blocks,
        &blocks,
        &[Font::Body, Font::Small],
        false,
    )
}

fn mismatch(differences: &[Difference]) -> Vec<Page> {
    let items: Vec<String> = differences
        .iter()
        .map(|d| format!("{} -> {}", d.place, d.belongs))
        .collect();
    titled_list(&titled_count("Fix the board", differences.len()), &items)
}

fn takeback(moves_back: u32, to_move_number: u32) -> Vec<Page> {
    let mut page = Page::default();
    let y0 = title_bar(&mut page, "Take back?");
    let moves = if moves_back == 1 { "move" } else { "moves" };
    let question = format!("Take back {moves_back} {moves}, to turn {to_move_number}?");
    let block = [Block::plain(question)];
    let flowed = flow(
        &block,
        &block,
        &[Font::Body, Font::Small],
        W - 2,
        H - 20 - y0 - 2,
    );
    if let Some(lines) = flowed.pages.first() {
        page.flowed(flowed.font, lines, Some(1), y0);
    }
    for (text, chip, y) in [("OK = take back", 2, H - 21), ("Back = keep", 4, H - 10)] {
        page.marks.push(Mark::Text(Drawn {
            text: text.into(),
            font: Font::Body,
            at: Point::new(2, y),
            ink: Ink::Normal,
            chip,
            clip: None,
            continues: false,
            glued: false,
        }));
    }
    std::vec![page]
}

/// A fault outside the game, or an error: the part in the title bar, what is wrong, the fix
/// behind a "Fix" chip (on page 1 whatever it takes), and how many other faults wait.
fn fix_screen(part: &str, problem: &str, fix: &str, more: u16) -> Vec<Page> {
    let header = |page: &mut Page| title_bar(page, part);
    let mut blocks = std::vec![Block::plain(problem), Block::chip("Fix", fix).essential()];
    match more {
        0 => {}
        1 => blocks.push(Block::plain("+1 more fault")),
        n => blocks.push(Block::plain(format!("+{n} more faults"))),
    }
    paged(
        &header,
        H,
        &blocks,
        &blocks,
        &[Font::Body, Font::Small],
        false,
    )
}

/// A seat is asked to press OK for its phone code, the others to look away.
fn phone_ask(seat: &str, more: bool) -> Vec<Page> {
    let header = |page: &mut Page| title_bar(page, "Phone code");
    let next = if more { "Die: next seat" } else { "Die: done" };
    let blocks = [
        Block::plain(format!(
            "{seat}: press OK to show your code (others look away)"
        ))
        .essential(),
        Block::plain(format!("{next}, Back: close")),
    ];
    paged(
        &header,
        H,
        &blocks,
        &blocks,
        &[Font::Body, Font::Small],
        false,
    )
}

/// Pixels a QR module takes on the OLED.
pub const QR_MODULE: i32 = 2;

/// A seat's phone code: its address as a QR code, dark modules on a lit square with a quiet
/// zone, [`QR_MODULE`] pixels a module, at the left; the seat and the address in small text at
/// the right when they fit (the host and port in lower case, the token as the code has it).
fn phone_code(seat: &str, url: &str) -> Vec<Page> {
    let Some(code) = qr::qr(url) else {
        // Never for an address the umpire builds (its length is checked with the config).
        return fix_screen(
            "Phone code",
            "The address is too long for a code",
            "set a shorter [web] url",
            0,
        );
    };
    let mut page = Page::default();
    let n = i32::try_from(code.size()).unwrap_or(0);
    let side = n * QR_MODULE;
    let top = (H - side) / 2;
    let left = top.max(3 * QR_MODULE);
    let lit = side + 2 * left;
    page.marks.push(layout::Mark::Fill(rect(0, 0, lit, H)));
    for y in 0..code.size() {
        let mut x = 0;
        while x < code.size() {
            if !code.dark(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            while x < code.size() && code.dark(x, y) {
                x += 1;
            }
            let (sx, sy, run) = (
                i32::try_from(start).unwrap_or(0),
                i32::try_from(y).unwrap_or(0),
                i32::try_from(x - start).unwrap_or(0),
            );
            page.marks.push(layout::Mark::Clear(rect(
                left + sx * QR_MODULE,
                top + sy * QR_MODULE,
                run * QR_MODULE,
                QR_MODULE,
            )));
        }
    }
    // The text beside it: the seat, the address, what OK does.
    let x = lit + 2;
    let cols = Font::Small.columns(W - x);
    // The host and port, then the path from a line of its own.
    let parts = match url.split_once("/S/") {
        Some((origin, token)) => {
            let host = origin.strip_prefix("HTTP://").unwrap_or(origin);
            [host.to_ascii_lowercase(), format!("/s/{token}")]
        }
        None => [url.to_string(), String::new()],
    };
    let chunks: Vec<String> = parts
        .iter()
        .flat_map(|part| {
            part.chars()
                .collect::<Vec<_>>()
                .chunks(cols.max(1))
                .map(|c| c.iter().collect::<String>())
                .collect::<Vec<_>>()
        })
        .collect();
    let rows = Font::Small.rows(H);
    let with_address = chunks.len() + 2 <= rows;
    page.text(
        Font::Small,
        truncate(seat, cols),
        Point::new(x, 0),
        Ink::Inverted,
    );
    if with_address {
        for (i, chunk) in chunks.iter().enumerate() {
            let y = Font::Small.height() * i32::try_from(i + 1).unwrap_or(0);
            page.marks.push(layout::Mark::Text(layout::Drawn {
                text: chunk.clone(),
                font: Font::Small,
                at: Point::new(x, y),
                ink: Ink::Normal,
                chip: 0,
                clip: None,
                continues: i > 0,
                glued: i > 0,
            }));
        }
    }
    page.text(
        Font::Small,
        "OK: hide",
        Point::new(x, H - Font::Small.height()),
        Ink::Normal,
    );
    std::vec![page]
}

/// The boot's recovery choice: what was found and what a choice does above, the choices as
/// highlighted rows at the bottom.
fn recovery(found: &str, detail: &str, entries: &[String], selected: usize) -> Vec<Page> {
    let rows = i32::try_from(entries.len().min(2)).unwrap_or(2);
    let menu_y = H - rows * Font::Body.height();
    let header = |page: &mut Page| title_bar(page, "Last game");
    let blocks = [Block::plain(found).essential(), Block::plain(detail)];
    let mut pages = paged(
        &header,
        menu_y - 1,
        &blocks,
        &blocks,
        &[Font::Body, Font::Small],
        false,
    );
    let selected = selected.min(entries.len().saturating_sub(1));
    let first = selected
        .saturating_sub(1)
        .min(entries.len().saturating_sub(2));
    let cols = Font::Body.columns(120);
    for page in &mut pages {
        for (row, (index, entry)) in entries.iter().enumerate().skip(first).take(2).enumerate() {
            let y = menu_y + Font::Body.height() * i32::try_from(row).unwrap_or(0);
            let line = truncate(entry, cols);
            let ink = if index == selected {
                page.marks.push(Mark::Fill(rect(0, y, W, 10)));
                Ink::Inverted
            } else {
                Ink::Normal
            };
            page.text(Font::Body, line, Point::new(1, y), ink);
        }
    }
    pages
}

/// The calibration grid: one 4x4 cell per square on a 5-pixel pitch (a 12x10 board is 60x50),
/// rank 1 at the bottom. A filled cell reads occupied now, an outlined one has been seen, a dot
/// never has, and a square no place is asked for (`umpire calibrate --game`) is left blank. The
/// right side counts the places walked (tray slots too) and shows the latest event.
///
/// At most 16 columns x 12 rows are drawn: a larger board (Napoléon's 26 x 31 map) shows the
/// window of it, in steps of 16 columns and 12 rows, that holds the piece read last (lifted
/// since or not; with none, the first occupied cell), and names the window's corners
/// ("k20-z31") on the right. A piece read last in a tray shows that tray instead, its slots 16
/// a row from slot 1, named on the right.
fn calibrate(
    (columns, rows): (u8, u8),
    (occupied, focus, seen, idle): (&[u16], Option<u16>, &[u16], &[u16]),
    (walked, places): (u16, u16),
    tray: Option<&str>,
    note: &str,
) -> Page {
    const PITCH: i32 = 5;
    const SHOWN: (u8, u8) = (16, 12);
    let mut page = Page::default();
    let (cols, rws) = (columns.min(SHOWN.0), rows.min(SHOWN.1));
    // The window's first column and row: the step holding the piece read last, or else the
    // first occupied square.
    let focus = focus
        .iter()
        .chain(occupied)
        .map(|&c| (c % u16::from(columns.max(1)), c / u16::from(columns.max(1))))
        .find(|&(_, row)| row < u16::from(rows));
    let start = |at: Option<u16>, len: u8, shown: u8| {
        let at = u8::try_from(at.unwrap_or(0)).unwrap_or(u8::MAX);
        // A board of no columns or rows (a screen built by hand) shows nothing, not a panic.
        (at / shown.max(1) * shown).min(len - shown)
    };
    let col0 = start(focus.map(|f| f.0), columns, cols);
    let row0 = start(focus.map(|f| f.1), rows, rws);
    let (cols, rws) = (i32::from(cols), i32::from(rws));
    let top = (H - rws * PITCH).max(0) / 2;
    for r in 0..rws {
        for c in 0..cols {
            let (col, row) = (i32::from(col0) + c, i32::from(row0) + r);
            let cell = u16::try_from(row * i32::from(columns) + col).unwrap_or(u16::MAX);
            let x = c * PITCH;
            let y = top + (rws - 1 - r) * PITCH;
            let square = rect(x, y, 4, 4);
            if occupied.contains(&cell) {
                page.marks.push(Mark::Fill(square));
            } else if seen.contains(&cell) {
                page.marks.push(Mark::Outline(square));
            } else if !idle.contains(&cell) {
                page.marks.push(Mark::Dot(Point::new(x + 1, y + 2)));
            }
        }
    }
    let x = cols * PITCH + 3;
    let cols_text = Font::Small.columns(W - x);
    let mut lines = vec![
        truncate("CALIBRATE", cols_text),
        truncate(&format!("{walked}/{places}"), cols_text),
        truncate("seen", cols_text),
    ];
    if let Some(tray) = tray {
        // The tray's name over two lines at most ("seat 2" / "reserve").
        lines.extend(text::wrap_clamped(tray, cols_text, 2));
    } else if columns > SHOWN.0 || rows > SHOWN.1 {
        let last = |start: u8, shown: i32| start + u8::try_from(shown - 1).unwrap_or(0);
        let corners = format!(
            "{}-{}",
            Cell::new(col0, row0),
            Cell::new(last(col0, cols), last(row0, rws))
        );
        lines.push(truncate(&corners, cols_text));
    }
    let mut y = 0;
    for line in lines {
        page.text(Font::Small, line, Point::new(x, y), Ink::Normal);
        y += Font::Small.height();
    }
    let room = Font::Small.rows(H - y);
    for (i, line) in text::wrap_clamped(note, cols_text, room)
        .into_iter()
        .enumerate()
    {
        page.marks.push(Mark::Text(Drawn {
            text: line,
            font: Font::Small,
            at: Point::new(x, y),
            ink: Ink::Normal,
            chip: 0,
            clip: None,
            continues: i > 0,
            glued: false,
        }));
        y += Font::Small.height();
    }
    page
}
