//! `umpire-sim play GAME`: the simulated table in the terminal. Type physical events in the
//! scenario language (`lift e4`, `place e5`, `move e4 e5`, `attack e4 e5`, `ok`, `back`, `die`,
//! `wait 500`, ...); after each line the board and the OLED are drawn as text.

use std::io::{self, BufRead, Write};

use boards::stratego::{seat_name, Position, Square, Variant, BLUE, RED};
use boards::{Game, Seat};
use std::collections::BTreeMap;
use std::path::Path;

use firmware::referee::games::BoardLayout;
use firmware::referee::table::Named;
use firmware::referee::Decision;
use firmware::screens;
use firmware::sensing::Place;

use crate::scenario::{decision_text, Session};
use crate::sim::square_place;

/// Whose eyes the board is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eyes {
    /// What everyone at the table sees: owners, ranks only once revealed, and where the sensed
    /// board differs from the umpire's.
    Table,
    /// One seat's view: its own ranks, the enemy's only once revealed.
    Seat(Seat),
    /// The umpire's eyes: every rank (spoils the game).
    Umpire,
}

const HELP: &str = "\
Physical events (squares a1..j10, Red at rank 1):
  lift e4 [..]    lift pieces          place e5 [..]   put pieces down
  move e4 e5      lift, then place     attack e4 e5    lift yours, then the enemy
  slide a4 a5 a6  slide over squares   nudge e4        lift and put straight back
  ok | back | die press a button       wait 500        let 500 ms pass
  setup           choose the game and place both armies (shuffled) group by group
  power-off | power-on [torn]          cut the power, resume from the journal
Drawing:  show table | red | blue | umpire     oled (the panel, pixel for pixel)
Other:    help, quit
Expectations from scenario files work too (expect screen ..., see host/SCENARIOS.md).";

/// What `play` prints before reading each line.
pub const PROMPT: &str = "> ";

/// Draws the board as `eyes` see it, the sensed pieces included.
pub fn draw_board(session: &mut Session, eyes: Eyes) -> Vec<String> {
    let Ok(table) = session.table() else {
        return Vec::new();
    };
    let position: Option<Position> = table.referee().position().cloned();
    let mut lines = Vec::new();
    if eyes == Eyes::Umpire {
        if let Some(view) = table.referee().table() {
            lines.extend(view.umpire_eyes().lines().map(str::to_string));
        }
    }
    for row in (0..10u8).rev() {
        let mut line = format!("{:>2} ", row + 1);
        for col in 0..10u8 {
            let Some(s) = Square::new(col, row) else {
                continue;
            };
            let sensed = table.board.is_occupied(square_place(s));
            let piece = position.as_ref().and_then(|p| p.piece_at(s));
            let token = match (piece, sensed) {
                (None, false) if s.is_lake() => "~~".to_string(),
                (None, false) => "..".to_string(),
                (None, true) => "##".to_string(),
                (Some(p), present) => {
                    let owner = if p.owner == RED { 'r' } else { 'b' };
                    let known = match eyes {
                        Eyes::Umpire => true,
                        Eyes::Seat(seat) => p.owner == seat,
                        Eyes::Table => false,
                    } || position.as_ref().is_some_and(|pos| pos.is_revealed(s));
                    let rank = if known { p.rank.to_char() } else { '?' };
                    if present {
                        format!("{owner}{rank}")
                    } else {
                        // Expected but lifted: in a hand, or missing.
                        format!("({owner}")
                    }
                }
            };
            line.push_str(&token);
            line.push(' ');
        }
        lines.push(line.trim_end().to_string());
    }
    lines.push("   a  b  c  d  e  f  g  h  i  j".to_string());
    lines
}

const TABLE_HELP: &str = "\
Physical events (squares as `c4`, tray slots as `reserve/1/3`, `staging/1/2`, `withdrawn/2/1`):
  lift c4 [..]    lift pieces          place c5 [..]   put pieces down
  move c4 c5      lift, then place     attack c4 c5    lift yours, then the enemy
  select c4       lift and put back    fire c4 c7      select the gun, lift the target
  ok | back | die press a button       pick TEXT       Die until the menu shows TEXT, OK
  group c1 d1     place one set-up group and press OK
  setup           choose the game and set both sides up (a sample set-up) group by group
  hands           do what the OLED's hand steps say
  bot N           let random hands play N steps       wait 500   let 500 ms pass
  power-off | power-on [torn]          cut the power, resume from the journal
Drawing:  show table | 1 | 2 | umpire     oled (the panel, pixel for pixel)
Other:    help, quit
Expectations from scenario files work too (expect screen ..., see host/SCENARIOS.md).";

/// Draws a table game's board: each square's piece as the table (or one seat) knows it, the
/// sensed pieces included, then the occupied tray slots.
pub fn draw_table_board(session: &mut Session, eyes: Eyes) -> Vec<String> {
    let Ok(table) = session.table() else {
        return Vec::new();
    };
    let Some(view) = table.referee().table() else {
        return Vec::new();
    };
    let mut lines: Vec<String> = Vec::new();
    // Each place's diagram code and words: the umpire's every piece named, else as the eyes
    // know it.
    let expected: BTreeMap<Place, Named> = match eyes {
        Eyes::Umpire => {
            lines.extend(view.umpire_eyes().lines().map(str::to_string));
            view.umpire_board()
        }
        Eyes::Seat(seat) => named(view.seat_board(seat)),
        Eyes::Table => named(view.expected()),
    };
    let layout = table.board.layout();
    let squares: Vec<boards::geometry::grid::Cell> = layout
        .iter()
        .filter_map(|(_, p)| match p {
            firmware::sensing::Place::Square(c) => Some(c),
            firmware::sensing::Place::Tray { .. } => None,
        })
        .collect();
    let cols = squares.iter().map(|c| c.col).max().map_or(0, |c| c + 1);
    let rows = squares.iter().map(|c| c.row).max().map_or(0, |r| r + 1);
    // Every square as wide as the longest code (a stack's codes are joined).
    let width = expected
        .iter()
        .filter(|(p, _)| matches!(p, Place::Square(_)))
        .map(|(_, n)| n.code.chars().count())
        .max()
        .unwrap_or(2)
        .max(2);
    let token = |place: &Place| -> String {
        let sensed = table.board.is_occupied(*place);
        match (expected.get(place), sensed) {
            (None, false) => format!("{:<width$}", ".."),
            (None, true) => format!("{:<width$}", "##"),
            (Some(n), true) => format!("{:<width$}", n.code),
            // Expected but lifted: in a hand, or missing.
            (Some(n), false) => {
                let first = n.code.chars().next().unwrap_or('?');
                format!("{:<width$}", format!("({first}"))
            }
        }
    };
    for row in (0..rows).rev() {
        let mut line = format!("{:>2} ", row + 1);
        for col in 0..cols {
            let place = Place::Square(boards::geometry::grid::Cell::new(col, row));
            line.push_str(&token(&place));
            line.push(' ');
        }
        lines.push(line.trim_end().to_string());
    }
    let letters: String = (0..cols)
        .map(|c| format!("{:<w$}", char::from(b'a' + c), w = width + 1))
        .collect();
    lines.push(format!("   {}", letters.trim_end()));
    // What stands where, in words, as these eyes know it (trays included).
    let mut line = String::from("Pieces:");
    for (place, n) in &expected {
        let item = format!(" {}: {};", crate::table::place_text(place), n.name);
        if line.len() + item.len() > 100 {
            lines.push(line);
            line = String::from("       ");
        }
        line.push_str(&item);
    }
    lines.push(line);
    lines
}

/// Refuses to journal to `path` when a file with something in it is there already: a journal
/// of an earlier game (or any file given by mistake) is never written over. A missing or empty
/// file is fine. Its folder must be there, so the game is not played only to be lost.
///
/// # Errors
/// [`io::ErrorKind::AlreadyExists`] or [`io::ErrorKind::NotFound`], naming the file and the
/// fix.
pub fn check_new_journal(path: &Path) -> io::Result<()> {
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        if !folder.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "cannot write the journal to {}: there is no folder {}; create it or give \
                     another path",
                    path.display(),
                    folder.display()
                ),
            ));
        }
    }
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() || m.len() > 0 => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} already exists: a journal is never written over another file; give a new \
                 file name, or move that one away first",
                path.display()
            ),
        )),
        _ => Ok(()),
    }
}

/// The journal file of the session's `game`th game: `path` for the first, then `game-2.ujn`
/// beside `game.ujn`.
fn numbered(path: &Path, game: u32) -> std::path::PathBuf {
    if game <= 1 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{game}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{game}"),
    };
    path.with_file_name(name)
}

/// Each place's words with the code [`Named::from_words`] gives them.
fn named(board: BTreeMap<Place, String>) -> BTreeMap<Place, Named> {
    board
        .into_iter()
        .map(|(place, words)| (place, Named::from_words(words)))
        .collect()
}

/// Draws the OLED: each page's lines of text as the panel draws them (top to bottom, each
/// line as wrapped), in a box 25 characters wide.
pub fn draw_oled(session: &mut Session) -> Vec<String> {
    let Ok(table) = session.table() else {
        return Vec::new();
    };
    let layout = screens::layout(&table.oled_screen());
    let width = 25;
    let mut out = vec![format!("+{}+", "-".repeat(width + 2))];
    for (n, page) in layout.pages.iter().enumerate() {
        if n > 0 {
            out.push(format!("|{}|", "-".repeat(width + 2)));
        }
        for d in page.texts() {
            let mark = if d.highlighted() { '>' } else { ' ' };
            out.push(format!("|{mark}{:<width$} |", d.text));
        }
    }
    out.push(format!("+{}+", "-".repeat(width + 2)));
    out
}

/// Draws the OLED pixel for pixel, every page, as text art.
pub fn draw_oled_art(session: &mut Session) -> Vec<String> {
    let Ok(table) = session.table() else {
        return Vec::new();
    };
    let screen = table.oled_screen();
    (0..screens::page_count(&screen))
        .flat_map(|page| crate::frames::text_art(&screens::render_page(&screen, page)))
        .collect()
}

/// Runs the interactive simulator over `input` until it ends or `quit`.
///
/// # Errors
/// Reading or writing failed.
pub fn run(
    variant: Variant,
    seed: u64,
    input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    run_game(
        stratego_line(variant),
        &variant.to_string(),
        seed,
        input,
        out,
    )
}

/// The scenario `game` line of a Stratego variant.
pub fn stratego_line(variant: Variant) -> &'static str {
    match variant {
        Variant::Classic => "game classic",
        Variant::Duel => "game duel",
    }
}

/// Runs the interactive simulator for the game a scenario's `game` line names (`game
/// stratego-waterloo basic`, `game piecepack`) over `input` until it ends or `quit`.
///
/// # Errors
/// Reading or writing failed.
pub fn run_game(
    game_line: &str,
    title: &str,
    seed: u64,
    input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    run_journaled(
        game_line,
        title,
        seed,
        BoardLayout::shipped(),
        None,
        input,
        out,
    )
}

/// [`run_game`] with Stratego: Waterloo on `layout`, also writing the referee's journal to
/// `journal` (owner-only, as the umpire keeps it) after every line that changed it, so
/// `umpire-sim replay` reads the game back.
///
/// # Errors
/// Reading or writing failed, the journal file included.
pub fn run_journaled(
    game_line: &str,
    title: &str,
    seed: u64,
    layout: BoardLayout,
    journal: Option<&Path>,
    input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    run_served(game_line, title, seed, layout, journal, None, input, out)
}

/// Where the phone codes point for a table served at `address` (`host:port`): this machine's
/// address on the local network on that port, so a phone can open it.
fn phone_address(address: &str) -> firmware::web::link::Address {
    use firmware::web::link::{Address, Origin};
    match address.rsplit(':').next().and_then(|p| p.parse().ok()) {
        Some(port) => Address::Detect { port },
        None => Origin::parse(&format!("http://{address}")).map_or(
            Address::Detect {
                port: firmware::config::DEFAULT_WEB_PORT,
            },
            Address::Fixed,
        ),
    }
}

/// [`run_journaled`], also publishing the table to the phone pages through `serve` (the
/// publisher, and the address printed for the pages): the pages' addresses are printed once
/// the game is chosen (its seats' tokens are made then), and again for each new game.
///
/// # Errors
/// As [`run_journaled`].
#[allow(clippy::too_many_arguments)]
pub fn run_served(
    game_line: &str,
    title: &str,
    seed: u64,
    layout: BoardLayout,
    journal: Option<&Path>,
    serve: Option<(firmware::web::Publisher, String)>,
    mut input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    if let Some(path) = journal {
        check_new_journal(path)?;
    }
    let mut session = Session::on_layout(layout);
    // The tokens whose addresses were printed last.
    let mut printed: Vec<String> = Vec::new();
    let (mut publisher, address) = serve.map_or((None, None), |(p, a)| (Some(p), Some(a)));
    if let Err(e) = session.run_line(game_line) {
        writeln!(out, "! {e}")?;
        return Ok(());
    }
    let _ = session.run_line(&format!("seed {seed}"));
    let is_table = !(game_line.ends_with("classic") || game_line.ends_with("duel"));
    let mut eyes = Eyes::Table;
    writeln!(
        out,
        "Umpire simulator: {title}. Type `help` for the commands, `setup` to place both \
         armies."
    )?;
    for line in draw_oled(&mut session) {
        writeln!(out, "{line}")?;
    }
    // The journal bytes last written, and the games journaled so far in this session.
    let mut written: Vec<u8> = Vec::new();
    let mut games = 1;
    let mut leds = crate::leds::SimLeds::new().map_err(io::Error::other)?;
    let mut line = String::new();
    loop {
        write!(out, "{PROMPT}")?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => continue,
            ["quit"] | ["exit"] => break,
            ["help"] => {
                writeln!(out, "{}", if is_table { TABLE_HELP } else { HELP })?;
                continue;
            }
            ["game", ..] => {
                let again = if is_table {
                    "umpire-sim play GAME --variant ..."
                } else {
                    "umpire-sim play GAME"
                };
                writeln!(
                    out,
                    "! the game was chosen on the command line ({title}): `quit`, then start \
                     `{again}` again for another"
                )?;
                continue;
            }
            ["oled"] => {
                for l in draw_oled_art(&mut session) {
                    writeln!(out, "{l}")?;
                }
                continue;
            }
            ["show", who] => {
                eyes = match *who {
                    "red" | "1" => Eyes::Seat(RED),
                    "blue" | "2" => Eyes::Seat(BLUE),
                    "umpire" => Eyes::Umpire,
                    "table" => Eyes::Table,
                    other => {
                        writeln!(
                            out,
                            "! `show {other}`: show table, {}, or umpire",
                            if is_table { "1, 2" } else { "red, blue" }
                        )?;
                        continue;
                    }
                };
            }
            // Play's own words with something after them: said so, not "unknown command".
            [cmd @ ("quit" | "exit" | "help" | "oled"), ..] => {
                writeln!(out, "! `{cmd}` takes nothing after it: type `{cmd}` alone")?;
                continue;
            }
            ["show", ..] => {
                writeln!(
                    out,
                    "! `show` takes one word: show table, {}, or umpire",
                    if is_table { "1, 2" } else { "red, blue" }
                )?;
                continue;
            }
            _ => {
                let steps = session.passed().steps;
                if let Err(e) = session.run_line(&line) {
                    if e.starts_with("unknown command") {
                        let word = e.split('`').nth(1).unwrap_or(words[0]);
                        writeln!(out, "! unknown command `{word}`: `help` lists the commands")?;
                        continue;
                    }
                    writeln!(out, "! {e}")?;
                }
                // Only what this line did: a refused line leaves the last line's decisions.
                let acted = session.passed().steps > steps;
                for d in session.last().iter().filter(|_| acted) {
                    // The rules' own reason for a refusal may name a rank; the OLED below
                    // carries the public wording.
                    let text = match d {
                        Decision::Refused { action, .. } => format!("refused {action}"),
                        other => decision_text(other),
                    };
                    writeln!(out, "  umpire: {text}")?;
                }
            }
        }
        let label = match eyes {
            Eyes::Table => "the table's view".to_string(),
            Eyes::Seat(seat) if is_table => format!("seat {}'s view", seat.index() + 1),
            Eyes::Seat(seat) => format!("{}'s view", seat_name(seat)),
            Eyes::Umpire => "the umpire's eyes".to_string(),
        };
        // A lifted piece is drawn `(r` (its rank) on a Stratego board, `(x` on a table game's.
        let (lifted, board) = if is_table {
            ('x', draw_table_board(&mut session, eyes))
        } else {
            ('r', draw_board(&mut session, eyes))
        };
        writeln!(
            out,
            "Board ({label}; ## = a piece the umpire does not expect, \"({lifted}\" = expected but lifted):"
        )?;
        for l in board {
            writeln!(out, "  {l}")?;
        }
        for l in draw_oled(&mut session) {
            writeln!(out, "{l}")?;
        }
        if let (Some(address), Ok(table)) = (address.as_deref(), session.table()) {
            if table.web().is_none() {
                table.set_web(publisher.take());
                // The OLED hands each seat its code, as the umpire does: OK shows a seat's,
                // Die skips it, Back closes (placing pieces closes it too).
                table.set_handout(Some(firmware::web::handout::Handout::new(phone_address(
                    address,
                ))));
            }
            let tokens: Vec<String> = table
                .web()
                .map(|w| w.tokens().iter().map(firmware::web::Token::hex).collect())
                .unwrap_or_default();
            if tokens != printed {
                if !tokens.is_empty() {
                    crate::demo::write_addresses(table, address, out)?;
                }
                printed = tokens;
            }
        }
        if let Ok(table) = session.table() {
            let screen = table.referee().screen().clone();
            leds.see(table, &screen).map_err(io::Error::other)?;
            for l in leds.draw(table) {
                writeln!(out, "  {l}")?;
            }
        }
        if let (Some(path), Ok(table)) = (journal, session.table()) {
            let bytes = table.journal_bytes();
            if bytes != written {
                if !written.is_empty() && !bytes.starts_with(&written) {
                    // A new game: the last one's journal stays as it is.
                    games += 1;
                    check_new_journal(&numbered(path, games))?;
                    writeln!(
                        out,
                        "(a new game: its journal goes to {})",
                        numbered(path, games).display()
                    )?;
                }
                let path = numbered(path, games);
                // Owner-only: a journal holds both secret set-ups.
                firmware::journal::write_private(&path, &bytes).map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!("cannot write the journal to {}: {e}", path.display()),
                    )
                })?;
                written = bytes;
            }
        }
        if is_table {
            continue;
        }
        if let Ok(table) = session.table() {
            if let Some(p) = table.referee().position() {
                if !p.status().is_ongoing() {
                    writeln!(
                        out,
                        "(the game is over: `ok` for a new one, `quit` to leave)"
                    )?;
                }
            }
        }
    }
    Ok(())
}
