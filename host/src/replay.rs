//! `umpire-sim replay JOURNAL`: a journaled game as a readable record.
//!
//! Secrets stay redacted while the game is unfinished: boards show only what the table knows (a
//! rank once a battle or a long Scout move revealed it), and set-ups are not listed.
//! `--reveal` shows every rank of a finished game; an unfinished game is revealed only with
//! `--reveal --force` (every player at the table should agree).

use std::fmt;
use std::io::{self, Write};

use boards::stratego::{seat_name, Position, BLUE, RED};
use boards::{Actor, Game, Status};
use firmware::journal::{decode, HeaderError, Tail};
use firmware::referee::{
    check_schema, rebuild, Decision, GameKind, Header, RebuildError, Record, SetupMode,
};

/// Why a journal could not be replayed.
#[derive(Debug)]
pub enum ReplayError {
    /// The header cannot be trusted.
    Header(HeaderError),
    /// The records do not rebuild into a game.
    Rebuild(RebuildError),
    /// `--reveal` on an unfinished game without `--force`.
    Unfinished,
    /// Writing failed.
    Write(io::Error),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Header(e) => write!(f, "{e}"),
            ReplayError::Rebuild(e) => write!(f, "{e}"),
            ReplayError::Unfinished => f.write_str(
                "the game is not finished, so its secrets stay hidden: replay without --reveal, \
                 or add --force if every player agrees to see them",
            ),
            ReplayError::Write(e) => write!(f, "cannot write the replay: {e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<io::Error> for ReplayError {
    fn from(e: io::Error) -> Self {
        ReplayError::Write(e)
    }
}

/// The board as the whole table knows it: each piece's owner, and its rank only if revealed.
pub fn public_diagram(position: &Position) -> String {
    let mut out = String::new();
    for row in (0..10u8).rev() {
        out.push_str(&format!("{:>2} ", row + 1));
        for col in 0..10u8 {
            let Some(s) = boards::stratego::Square::new(col, row) else {
                continue;
            };
            let token = match position.piece_at(s) {
                None if s.is_lake() => "~~".to_string(),
                None => "..".to_string(),
                Some(p) => {
                    let owner = if p.owner == RED { 'r' } else { 'b' };
                    let rank = if position.is_revealed(s) {
                        p.rank.to_char()
                    } else {
                        '?'
                    };
                    format!("{owner}{rank}")
                }
            };
            out.push_str(&token);
            out.push(' ');
        }
        out.pop();
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h  i  j\n");
    out
}

/// Writes the game journaled in `bytes` to `out`.
///
/// # Errors
/// [`ReplayError`]: a bad header, records that do not rebuild, or `reveal` on an unfinished
/// game without `force`.
pub fn write_replay(
    bytes: &[u8],
    reveal: bool,
    force: bool,
    out: &mut impl Write,
) -> Result<(), ReplayError> {
    check_schema(bytes).map_err(ReplayError::Rebuild)?;
    let recovered = decode::<Header, Record>(bytes).map_err(ReplayError::Header)?;
    if !matches!(recovered.header.game, GameKind::Stratego { .. }) {
        return write_table_replay(&recovered, reveal, force, out);
    }
    let rebuilt = rebuild(recovered.header, &recovered.records).map_err(ReplayError::Rebuild)?;
    let finished = rebuilt.position().is_some_and(|p| !p.status().is_ongoing());
    if reveal && !finished && !force {
        return Err(ReplayError::Unfinished);
    }
    let GameKind::Stratego { options } = recovered.header.game else {
        return Err(ReplayError::Rebuild(RebuildError::Setup(
            "not a Stratego journal".to_string(),
        )));
    };
    writeln!(
        out,
        "Game: {} ({}), journal schema {}",
        options.variant,
        options.variant.name(),
        recovered.header.schema
    )?;
    let two = match options.two_squares {
        Some(n) => format!("two-squares rule {n}"),
        None => "two-squares rule off".to_string(),
    };
    writeln!(
        out,
        "Rules: {two}, more-squares rule {}; set-up {}",
        if options.more_squares { "on" } else { "off" },
        match recovered.header.setup {
            SetupMode::RankGroups => "by rank groups",
            SetupMode::Tags => "with NFC tags",
        }
    )?;
    write_tail(&recovered.tail, out)?;
    let shown = reveal && (finished || force);
    write_secrets(
        shown,
        "every rank shown",
        "only ranks the table has seen",
        out,
    )?;
    for entry in &rebuilt.entries {
        let number = entry.number;
        match (&entry.decision, entry.actor) {
            (Decision::Deployed(seat), _) => {
                writeln!(out, "      {} placed their army.", seat_name(*seat))?;
                if shown {
                    if let Some(d) = &rebuilt.armies[*seat] {
                        for line in d.to_text(options.variant, *seat).lines() {
                            writeln!(out, "        {line}")?;
                        }
                    }
                }
            }
            (Decision::Moved { seat, mv }, _) => {
                let text = if shown {
                    entry.full.clone()
                } else {
                    mv.to_string()
                };
                writeln!(out, "{number:>4}. {:<5}  {text}", seat_name(*seat))?
            }
            // Both ranks are public once they fight: the rulebook has the attack reveal both.
            (Decision::Battle(b), Actor::Seat(seat)) => writeln!(
                out,
                "{number:>4}. {:<5}  {} attacks {}: {b}",
                seat_name(seat),
                b.mv.from,
                b.mv.to
            )?,
            (Decision::TookBack { to_ply }, _) => writeln!(
                out,
                "      Taken back: play returns to the position after {to_ply} action{}.",
                if *to_ply == 1 { "" } else { "s" }
            )?,
            // Stratego announces nothing else for a record (`StrategoTable::acted`).
            _ => writeln!(out, "{number:>4}. {}", entry.public)?,
        }
    }
    writeln!(out)?;
    let Some(position) = rebuilt.position() else {
        writeln!(out, "The set-up is not finished.")?;
        return Ok(());
    };
    writeln!(
        out,
        "Board after {} moves ({}):",
        position.ply(),
        if shown {
            "every rank"
        } else {
            "as the table knows it"
        }
    )?;
    let diagram = if shown {
        position.diagram()
    } else {
        public_diagram(position)
    };
    for line in diagram.lines() {
        writeln!(out, "    {line}")?;
    }
    match position.status() {
        Status::Won { winner, reason } => {
            writeln!(out, "Result: {} wins: {reason}.", seat_name(winner))?
        }
        Status::Drawn { reason } => writeln!(out, "Result: a draw: {reason}.")?,
        Status::Ongoing => writeln!(
            out,
            "Unfinished: {} to move.",
            seat_name(if position.to_move() == RED { RED } else { BLUE })
        )?,
    }
    Ok(())
}

/// The replay of a table game's journal (Waterloo, Piecepack): every action in public words
/// with what the table was told of it (battles and their results, the die), seats by name;
/// with `--reveal` (a finished game, or `--force`) every action in full and both armies.
fn write_table_replay(
    recovered: &firmware::journal::Recovered<Header, Record>,
    reveal: bool,
    force: bool,
    out: &mut impl Write,
) -> Result<(), ReplayError> {
    let record = firmware::referee::games::record(recovered.header.game, &recovered.records)
        .map_err(ReplayError::Rebuild)?;
    let finished = record.result.is_some();
    if reveal && !finished && !force {
        return Err(ReplayError::Unfinished);
    }
    let shown = reveal && (finished || force);
    writeln!(
        out,
        "Game: {}, journal schema {}",
        record.title, recovered.header.schema
    )?;
    // Where the journal's first record says the file of `key` was read, if it records one.
    let source = |key: &str| match recovered.records.first() {
        Some(Record::Files(files)) => files
            .iter()
            .find(|f| f.key == key)
            .map(|f| f.source.clone()),
        _ => None,
    };
    if matches!(recovered.header.game, GameKind::Waterloo { .. }) {
        match source("layout") {
            Some(source) => {
                let shipped = firmware::referee::games::LayoutSource::Shipped.to_string();
                let board = if source == shipped {
                    shipped
                } else {
                    format!("the layout of {source}")
                };
                writeln!(
                    out,
                    "Board: {board}, as the journal recorded it when the game began."
                )?
            }
            _ => writeln!(
                out,
                "Board: the shipped layout (this journal is older than recorded layouts; a game \
                 played on a layout file of its own may not replay)."
            )?,
        }
    }
    if matches!(recovered.header.game, GameKind::Sba { .. }) {
        match (source("cards"), source("layout")) {
            (Some(cards_source), Some(layout_source)) => writeln!(
                out,
                "Cards and map: {cards_source} on {layout_source}, as the journal recorded them \
                 when the game began."
            )?,
            _ => writeln!(
                out,
                "Cards and map: the example cards on the shipped layout (this journal is older \
                 than recorded card files; a game played on files of its own may not replay)."
            )?,
        }
    }
    write_tail(&recovered.tail, out)?;
    write_secrets(
        shown,
        "every action in full",
        "actions as the table saw them",
        out,
    )?;
    for (seat, words) in &record.armies {
        writeln!(out, "      {} placed their army.", record.seat_names[*seat])?;
        if shown {
            for line in words {
                writeln!(out, "        {line}")?;
            }
        }
    }
    for entry in &record.entries {
        let number = entry.number;
        let who = match entry.actor {
            Actor::Seat(s) => record.seat_names[s].to_string(),
            Actor::Chance => "chance".to_string(),
            Actor::Nobody => {
                writeln!(
                    out,
                    "      Taken back: play returns to action {}.",
                    number + 1
                )?;
                continue;
            }
        };
        let text = if shown { &entry.full } else { &entry.public };
        writeln!(out, "{number:>4}. {who:<8} {text}")?;
        for line in &entry.told {
            writeln!(out, "{:15}{line}", "")?;
        }
    }
    writeln!(out)?;
    let (title, board) = if shown {
        (
            "The board at the end (every piece named):",
            &record.umpire_board,
        )
    } else {
        (
            "The board at the end (as the table knows it):",
            &record.board,
        )
    };
    writeln!(out, "{title}")?;
    let items: Vec<String> = board
        .iter()
        .map(|(place, what)| format!("{place}: {what}"))
        .collect();
    for line in wrap(&items, 96) {
        writeln!(out, "    {line}")?;
    }
    match &record.result {
        Some((result, why)) => writeln!(out, "Result: {result}: {why}.")?,
        None => writeln!(out, "Unfinished.")?,
    }
    Ok(())
}

/// `items` joined with `; ` into lines of at most about `width` characters.
fn wrap(items: &[String], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && line.len() + item.len() + 2 > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str("; ");
        }
        line.push_str(item);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The `Secrets:` line, saying what `revealed` shows or what `redacted` keeps, and the blank
/// line after it.
fn write_secrets(
    shown: bool,
    revealed: &str,
    redacted: &str,
    out: &mut impl Write,
) -> io::Result<()> {
    if shown {
        writeln!(out, "Secrets: revealed ({revealed}).")?;
    } else {
        writeln!(
            out,
            "Secrets: redacted ({redacted}; --reveal shows all once the game is over)."
        )?;
    }
    writeln!(out)
}

/// How the journal ends, when it does not end cleanly: a torn last record (a power cut) or
/// damage, with where.
fn write_tail(tail: &Tail, out: &mut impl Write) -> io::Result<()> {
    match tail {
        Tail::Clean => Ok(()),
        Tail::Torn { offset, .. } => writeln!(
            out,
            "Note: the journal ends in a half-written record at byte {offset} (a power cut); \
             it was never announced and is left out."
        ),
        Tail::Corrupt { offset, .. } => writeln!(
            out,
            "Warning: the journal is damaged at byte {offset}; only the records before it are \
             shown."
        ),
    }
}
