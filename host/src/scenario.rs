//! Scenario files: a game, its set-up, physical events and expectations, run through the
//! simulated table (sensing model and referee). The format is documented in `host/SCENARIOS.md`.

use std::fmt;
use std::path::Path;

use boards::stratego::{seat_name, Deployment, Piece, Rank, Square, Variant, BLUE, RED};
use boards::{Actor, Game, Seat, Status};
use firmware::referee::games::{self, napoleon, BoardLayout};
use firmware::referee::{Decision, GameKind, Record, RefereeConfig};
use firmware::sensing::{Button, Place, TagFailure, TagUid};
use firmware::ui::Screen;

use crate::sim::{square_place, SimTable};
use crate::table::{self, TableGameEntry};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// A scenario that could not be read or whose expectation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The file (or name) of the scenario.
    pub file: String,
    /// The 1-based line.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            // The file as a whole (unreadable, or checking nothing).
            return write!(f, "{}: {}", self.file, self.message);
        }
        write!(
            f,
            "{}:{}: `{}`: {}",
            self.file, self.line, self.text, self.message
        )
    }
}

impl std::error::Error for Failure {}

/// How a scenario went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passed {
    /// Physical steps performed.
    pub steps: usize,
    /// Expectations checked.
    pub expectations: usize,
    /// Whether it played Stratego: Waterloo (on the layout it was given).
    pub waterloo: bool,
}

/// The most time one `wait` may let pass, in ms: an hour (the longest pause at a four-hour
/// game's table is a meal break; the shipped scenarios wait 10 s at most).
pub const MAX_WAIT_MS: u64 = 60 * 60 * 1000;
/// The most times `repeat` may run its command (24 Waterloo turns take `repeat 48 ok`).
pub const MAX_REPEAT: u64 = 1000;
/// The most steps one `bot` line may play (a whole Piecepack game takes under 5000).
pub const MAX_BOT_STEPS: u64 = 10_000;
/// The longest settle time `mismatch-after` may set, in ms: a minute (the umpire's is 3 s).
pub const MAX_MISMATCH_AFTER_MS: u64 = 60 * 1000;
/// The most table time a whole scenario may take, in ms: eight hours, twice a four-hour game.
pub const MAX_TABLE_MS: u64 = 8 * 60 * 60 * 1000;

/// Reads the count or duration `word` of the command `cmd`, at most `max`. `unit` follows the
/// number in the message, `limit` names the limit in words, and `fix` says how to stay under it.
fn parse_limited(
    cmd: &str,
    word: &str,
    unit: &str,
    max: u64,
    limit: &str,
    fix: &str,
) -> Result<u64, String> {
    let unit_text = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    let too_big = || format!("{cmd} {word}{unit_text} is more than the {limit} limit: {fix}");
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "`{word}` is not a number{}: write a whole number from 0 to {max}",
            if unit.is_empty() {
                String::new()
            } else {
                format!(" of {unit}")
            }
        ));
    }
    // All digits: a number too long for a u64 is over every limit.
    let n: u64 = word.parse().map_err(|_| too_big())?;
    if n > max {
        return Err(too_big());
    }
    Ok(n)
}

fn parse_wait(word: &str) -> Result<u64, String> {
    parse_limited(
        "wait",
        word,
        "ms",
        MAX_WAIT_MS,
        "1-hour (3600000 ms)",
        "split the wait into several `wait` lines or shorten it",
    )
}

fn parse_repeat(word: &str) -> Result<u64, String> {
    parse_limited(
        "repeat",
        word,
        "times",
        MAX_REPEAT,
        "1000-times",
        "split the repeat into several `repeat` lines or write a shorter scenario",
    )
}

fn parse_bot(word: &str) -> Result<u64, String> {
    parse_limited(
        "bot",
        word,
        "steps",
        MAX_BOT_STEPS,
        "10000-step",
        "split it into several `bot` lines (a whole game takes under 5000 steps)",
    )
}

fn parse_mismatch_after(word: &str) -> Result<u64, String> {
    parse_limited(
        "mismatch-after",
        word,
        "ms",
        MAX_MISMATCH_AFTER_MS,
        "1-minute (60000 ms)",
        "the umpire's settle time is 3000 ms; use `wait` to let more time pass",
    )
}

/// Checks the counts and durations of one line against the limits, without running it: a
/// scenario asking for unbounded work is refused before any of it is done.
///
/// # Errors
/// The count or duration over its limit (or not a number), with the fix.
pub fn check_limits(raw: &str) -> Result<(), String> {
    let line = raw.split('#').next().unwrap_or_default().trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["repeat", n, rest @ ..] => {
            parse_repeat(n)?;
            check_limits(&rest.join(" "))
        }
        ["wait", ms] => parse_wait(ms).map(|_| ()),
        ["bot", n] => parse_bot(n).map(|_| ()),
        ["mismatch-after", ms] => parse_mismatch_after(ms).map(|_| ()),
        _ => Ok(()),
    }
}

/// A short name for a decision's kind, as `expect decision KIND` writes it.
pub fn decision_kind(d: &Decision) -> &'static str {
    match d {
        Decision::GameChosen { .. } => "game-chosen",
        Decision::GroupPlaced { .. } => "group-placed",
        Decision::GroupUndone { .. } => "group-undone",
        Decision::Deployed(_) => "deployed",
        Decision::SetupProblems(_) => "setup-problems",
        Decision::GameStarted => "game-started",
        Decision::Moved { .. } => "moved",
        Decision::Battle(_) => "battle",
        Decision::Acted { .. } => "acted",
        Decision::Refused { .. } => "refused",
        Decision::WrongPiece { .. } => "wrong-piece",
        Decision::HandsDone => "hands-done",
        Decision::Mismatch(_) => "mismatch",
        Decision::BoardMatches => "board-matches",
        Decision::TakebackOffered { .. } => "takeback-offered",
        Decision::MoveCorrected { .. } => "move-corrected",
        Decision::TookBack { .. } => "took-back",
        Decision::TakebackDeclined => "takeback-declined",
        Decision::MenuOpened { .. } => "menu",
        Decision::MenuClosed => "menu-closed",
        Decision::GameOver { .. } => "game-over",
        Decision::Ignored { .. } => "ignored",
        Decision::TagProblem(_) => "tag-problem",
        Decision::Fault(_) => "fault",
        Decision::JournalFailed(_) => "journal-failed",
        Decision::Ghost { .. } => "ghost",
        Decision::PhonePages => "phone-pages",
    }
}

/// A decision in words (the umpire's log; a refusal's reason is the public one).
pub fn decision_text(d: &Decision) -> String {
    let kind = decision_kind(d);
    let detail = match d {
        Decision::GameChosen { game } => game.clone(),
        Decision::GroupPlaced { seat, group, count } => {
            format!("{} {count}: {group}", seat.index() + 1)
        }
        Decision::GroupUndone { seat, group } => format!("{} {group}", seat.index() + 1),
        Decision::Deployed(seat) => seat_name(*seat).to_string(),
        Decision::SetupProblems(p) => p.join("; "),
        Decision::Moved { seat, mv } => format!("{} {mv}", seat_name(*seat)),
        Decision::Battle(b) => b.to_string(),
        Decision::Acted { actor, action } => match actor {
            Actor::Chance => format!("chance: {action}"),
            _ => action.clone(),
        },
        Decision::Refused { action, reason } => format!("{action}: {reason}"),
        Decision::WrongPiece { action } => action.clone(),
        Decision::MoveCorrected { was, now } => format!("{was} became {now}"),
        Decision::Mismatch(diffs) => diffs
            .iter()
            .map(|d| format!("{}: {}", d.place, d.belongs))
            .collect::<Vec<_>>()
            .join("; "),
        // The journal's count of actions: named as such, never "move" or "turn", which the
        // screens keep for the status line's counter.
        Decision::TakebackOffered { to_ply } | Decision::TookBack { to_ply } => match to_ply {
            1 => "to the position after 1 action".to_string(),
            n => format!("to the position after {n} actions"),
        },
        Decision::MenuOpened { title, entries } => format!("{title}: {}", entries.join("; ")),
        Decision::GameOver { result, reason } => format!("{result}: {reason}"),
        Decision::Ignored { button, why } => format!("{button:?}: {why}"),
        Decision::TagProblem(m) | Decision::JournalFailed(m) => m.clone(),
        Decision::Fault(f) => f.to_string(),
        Decision::Ghost { place, undone } => match undone {
            Some(action) => format!("{place} ({action} taken back)"),
            None => place.clone(),
        },
        Decision::MenuClosed
        | Decision::PhonePages
        | Decision::GameStarted
        | Decision::HandsDone
        | Decision::BoardMatches
        | Decision::TakebackDeclined => String::new(),
    };
    if detail.is_empty() {
        kind.to_string()
    } else {
        format!("{kind} {detail}")
    }
}

/// Runs the scenario file at `path`.
///
/// # Errors
/// The first unreadable line or failed expectation, with its line number.
pub fn run_file(path: &Path) -> Result<Passed, Failure> {
    run_file_on(path, BoardLayout::shipped())
}

/// Runs the scenario file at `path`, Stratego: Waterloo on `layout`.
///
/// # Errors
/// The first unreadable line or failed expectation, with its line number.
pub fn run_file_on(path: &Path, layout: BoardLayout) -> Result<Passed, Failure> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Failure {
        file: name.clone(),
        line: 0,
        text: String::new(),
        message: format!("cannot read the file: {e}"),
    })?;
    run_text_on(&name, &text, layout)
}

/// A table driven line by line in the scenario language: what `check` runs per file and what
/// `umpire-sim play` runs per typed line.
#[derive(Debug)]
pub struct Session {
    variant: Variant,
    isf: bool,
    seed: u64,
    mismatch_after: u32,
    rows: [Vec<String>; 2],
    /// A table game (Waterloo, Piecepack) instead of Stratego.
    table_game: Option<TableGameEntry>,
    /// Waterloo armies drawn with `allied`/`french` lines, by seat.
    diagrams: [table::ArmyDiagram; 2],
    /// The random hands of `bot` and the sample set-up of `setup`, from the seed.
    rng: Option<Pcg64Mcg>,
    table: Option<SimTable>,
    last: Vec<Decision>,
    passed: Passed,
    /// NFC readers under every place (`nfc`): pieces carry tags, set up with tags (Stratego).
    nfc: bool,
    /// Lines run so far (the line being run, from 1).
    line: usize,
    /// The line of each seat's first `red`/`blue` row, by seat.
    rows_at: [Option<usize>; 2],
    /// The line of a `rules` command (Stratego only).
    rules_at: Option<usize>,
    /// The board Stratego: Waterloo is played on.
    waterloo_layout: BoardLayout,
}

/// A Stratego army as placed: (owner, square, rank) per piece.
type Army = Vec<(Seat, Square, Rank)>;

/// The tag a Stratego piece set up on `square` by `seat` carries under `nfc` (registered to
/// it in the umpire's [`firmware::referee::TagRegistry`]): `04:5A:01:00` for Red's on a1.
///
/// # Errors
/// None for a seat and square of the board (the UID is four bytes).
pub fn setup_tag(seat: Seat, square: Square) -> Result<TagUid, String> {
    let seat = u8::try_from(seat.index() + 1).map_err(|e| e.to_string())?;
    let square = u8::try_from(square.index()).map_err(|e| e.to_string())?;
    TagUid::new(&[0x04, 0x5A, seat, square]).map_err(|e| e.to_string())
}

/// The tag the Napoléon block `index` (its place in the order of battle, from 0) carries under
/// `nfc` (registered to it in the umpire's [`firmware::referee::TagRegistry`]):
/// `04:5B:00:00` for the first block.
///
/// # Errors
/// An order of battle of more than 256 blocks.
pub fn block_tag(index: usize) -> Result<TagUid, String> {
    let index = u8::try_from(index).map_err(|e| e.to_string())?;
    TagUid::new(&[0x04, 0x5B, 0x00, index]).map_err(|e| e.to_string())
}

/// The tag `reading unknown` reads, `04:EE:EE:EE`: registered to no piece.
///
/// # Errors
/// None (the UID is four bytes).
pub fn unknown_tag() -> Result<TagUid, String> {
    TagUid::new(&[0x04, 0xEE, 0xEE, 0xEE]).map_err(|e| e.to_string())
}

fn parse_square(s: &str) -> Result<Square, String> {
    Square::parse(s).ok_or_else(|| format!("`{s}` is not a square: write a1 to j10"))
}

/// How `seat`'s set-up rows are drawn in `variant`: "4 rows of ten tokens, row 10 first".
fn setup_rows_hint(variant: Variant, seat: Seat) -> String {
    let n = variant.setup_rows();
    let first = if seat == RED { n } else { 10 };
    format!("{n} rows of ten tokens, row {first} first")
}

fn parse_seat(s: &str) -> Result<Seat, String> {
    match s {
        "red" => Ok(RED),
        "blue" => Ok(BLUE),
        _ => Err(format!("`{s}` is not a seat: write red or blue")),
    }
}

impl Session {
    /// A session before any line: classic Stratego, ISF rules, seed 1.
    pub fn new() -> Session {
        Session {
            variant: Variant::Classic,
            isf: true,
            seed: 1,
            mismatch_after: RefereeConfig::default().mismatch_after_ms,
            rows: [Vec::new(), Vec::new()],
            table_game: None,
            diagrams: Default::default(),
            rng: None,
            table: None,
            last: Vec::new(),
            passed: Passed {
                steps: 0,
                expectations: 0,
                waterloo: false,
            },
            nfc: false,
            line: 0,
            rows_at: [None, None],
            rules_at: None,
            waterloo_layout: BoardLayout::shipped(),
        }
    }

    /// A session before any line that plays Stratego: Waterloo on `layout`.
    pub fn on_layout(layout: BoardLayout) -> Session {
        Session {
            waterloo_layout: layout,
            ..Session::new()
        }
    }

    /// The steps and expectations passed so far.
    pub fn passed(&self) -> &Passed {
        &self.passed
    }

    /// The decisions of the last physical step.
    pub fn last(&self) -> &[Decision] {
        &self.last
    }

    /// Runs one line (a command, an expectation, a comment or nothing).
    ///
    /// # Errors
    /// What is wrong with the line, or how the expectation failed.
    pub fn run_line(&mut self, raw: &str) -> Result<(), String> {
        self.line += 1;
        self.run_command(raw)
    }

    /// Runs one line's command, without counting it (`repeat` runs its command this way).
    fn run_command(&mut self, raw: &str) -> Result<(), String> {
        let line = raw.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            return Ok(());
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.split_first() {
            Some((&"repeat", rest)) => {
                let (n, command) = rest
                    .split_first()
                    .ok_or("`repeat N COMMAND`: a number of times and a command")?;
                let n = parse_repeat(n)?;
                if command.is_empty() || command.first() == Some(&"repeat") {
                    return Err("`repeat N COMMAND`: one command after the number".into());
                }
                let command = command.join(" ");
                check_limits(&command)?;
                for _ in 0..n {
                    self.check_clock()?;
                    self.run_command(&command)?;
                }
                Ok(())
            }
            Some((&"expect", rest)) => {
                let after = line.strip_prefix("expect").unwrap_or_default();
                self.expect(rest, after)
            }
            _ => self.act(&words),
        }
    }

    /// Refuses to go on once the table's clock has passed [`MAX_TABLE_MS`]: with the limits
    /// on each line, this bounds a whole scenario's work.
    fn check_clock(&self) -> Result<(), String> {
        match &self.table {
            Some(t) if t.board.now().0 > MAX_TABLE_MS => Err(format!(
                "the scenario has passed the 8-hour limit of table time ({} ms): split it \
                 into several files",
                t.board.now().0
            )),
            _ => Ok(()),
        }
    }

    /// The simulated table, made on first use from the lines so far.
    ///
    /// # Errors
    /// The simulated board could not be built.
    pub fn table(&mut self) -> Result<&mut SimTable, String> {
        if self.table.is_none() {
            // A table game's settings (its files, the options its `game` line gives) are the
            // umpire's configuration, as a configured umpire plays it.
            let game = self
                .table_game
                .as_ref()
                .map_or_else(RefereeConfig::default, TableGameEntry::referee_config);
            let mut config = RefereeConfig {
                mismatch_after_ms: self.mismatch_after,
                isf_rules: self.isf,
                waterloo_layout: self.waterloo_layout,
                ..game
            };
            if let (true, Some(choice)) = (self.nfc, self.napoleon()) {
                // Every block of the order of battle carries its own tag, registered once to
                // it; the menu offers the set-up by tags, as with readers configured.
                config.nfc_readers = true;
                for (id, block) in choice.set.campaign().order_of_battle().blocks() {
                    config
                        .tags
                        .register_block(block_tag(id.index())?, &block.name);
                }
            }
            if self.nfc && self.table_game.is_none() {
                // Every piece of the set-up carries its own tag, registered once to it.
                for d in self.deployments()? {
                    for (seat, square, rank) in d {
                        config
                            .tags
                            .register(setup_tag(seat, square)?, Piece { owner: seat, rank });
                    }
                }
            }
            let table = match &self.table_game {
                Some(entry) if self.nfc => SimTable::with_layout(
                    config,
                    self.seed,
                    entry.layout().with_tag_readers_everywhere(),
                ),
                Some(entry) => SimTable::with_layout(config, self.seed, entry.layout()),
                None => SimTable::new(config, self.seed, self.nfc),
            }
            .map_err(|p| format!("the simulated board: {p}"))?;
            self.table = Some(table);
        }
        self.table.as_mut().ok_or_else(|| "no table".to_string())
    }

    fn rng(&mut self) -> &mut Pcg64Mcg {
        let seed = self.seed;
        self.rng
            .get_or_insert_with(|| Pcg64Mcg::seed_from_u64(seed))
    }

    /// The table game's lines; `None` when the command is not one of them.
    fn act_table(&mut self, cmd: &str, args: &[&str]) -> Result<Option<Vec<Decision>>, String> {
        let game = self.table_game.clone();
        let places = || -> Result<Vec<Place>, String> {
            args.iter()
                .map(|a| table::parse_place_in(game.as_ref(), a))
                .collect()
        };
        let hand = |e: crate::sim::HandError| table::hand_error_text(game.as_ref(), &e);
        let mut out = Vec::new();
        let mut collect = |t: &mut SimTable| {
            for told in t.take_told() {
                if let crate::sim::Told::Decision(d) = told {
                    out.push(d);
                }
            }
        };
        if matches!(cmd, "choose" | "setup" | "hands") && !args.is_empty() {
            return Err(format!(
                "`{cmd}` takes nothing after it, not `{}`",
                args.join(" ")
            ));
        }
        match cmd {
            "choose" => {
                let entry = self.menu_entry()?;
                let t = self.table()?;
                t.take_told();
                table::choose_game(t, &entry)?;
                collect(t);
            }
            "setup" if self.nfc && self.napoleon().is_some() => {
                let entry = self.menu_entry()?;
                let t = self.table()?;
                t.take_told();
                table::choose_game(t, &entry)?;
                collect(t);
                for seat in [napoleon::ALLIES, napoleon::FRENCH] {
                    out.extend(self.place_blocks(seat)?);
                }
                let t = self.table()?;
                out.extend(t.press(Button::Ok));
                if !table::view(t)?.in_play() {
                    return Err(format!(
                        "the referee did not start the game after the set-up by tags; it \
                         shows: {}",
                        t.screen_text()
                    ));
                }
            }
            "army" if self.nfc && self.napoleon().is_some() => {
                let seat = match args {
                    ["allies"] => napoleon::ALLIES,
                    ["french"] => napoleon::FRENCH,
                    _ => return Err("`army` takes a side: allies or french".into()),
                };
                out.extend(self.place_blocks(seat)?);
            }
            "setup" => {
                let entry = self.table_game.clone().ok_or("no table game")?;
                let mut rng = self.rng().clone();
                let diagrams = self.diagrams.clone();
                let drawn = diagrams.iter().filter(|d| !d.is_empty()).count();
                let t = self.table()?;
                t.take_told();
                table::choose_game(t, &entry)?;
                match drawn {
                    0 => table::set_up(t, &mut rng)?,
                    2 => table::set_up_with(t, |_, seat| {
                        table::diagram_groups(&entry, seat, &diagrams[seat.index()])
                    })?,
                    _ => {
                        return Err("draw both armies (`allied` and `french` lines) or none".into())
                    }
                }
                collect(t);
                self.rng = Some(rng);
            }
            "group" => {
                let p = places()?;
                if p.is_empty() {
                    return Err(
                        "`group` takes the places of the group's pieces, then presses OK \
                                (`ok` alone presses OK)"
                            .into(),
                    );
                }
                let t = self.table()?;
                t.take_told();
                table::place_group(t, &p)?;
                collect(t);
            }
            "select" | "fire" => {
                let p = places()?;
                let t = self.table()?;
                let arity = || {
                    format!(
                        "`{cmd}` takes {} place(s)",
                        if cmd == "select" { 1 } else { 2 }
                    )
                };
                let (first, rest) = p.split_first().ok_or_else(arity)?;
                if (cmd == "select") != rest.is_empty() || rest.len() > 1 {
                    return Err(arity());
                }
                // Every lift checked before the first: a refused line moves no piece.
                for place in p.iter() {
                    t.board.can_set(*place, false).map_err(hand)?;
                }
                out.extend(t.lift(*first).map_err(hand)?);
                out.extend(t.place(*first, None).map_err(hand)?);
                for place in rest {
                    out.extend(t.lift(*place).map_err(hand)?);
                }
            }
            "pick" => {
                let text = args.join(" ");
                if text.is_empty() {
                    // Every entry contains the empty text: OK would take the highlighted one.
                    return Err("`pick` takes the words of a menu entry: `pick end`".into());
                }
                let t = self.table()?;
                t.take_told();
                table::choose_entry(t, &text)?;
                collect(t);
            }
            "hands" => {
                let t = self.table()?;
                t.take_told();
                table::follow_hands(t)?;
                collect(t);
            }
            "bot" => {
                let steps = match args {
                    [n] => parse_bot(n)?,
                    _ => return Err("`bot` takes a number of steps".into()),
                };
                self.check_clock()?;
                let mut rng = self.rng().clone();
                let t = self.table()?;
                t.take_told();
                for _ in 0..steps {
                    if t.board.now().0 > MAX_TABLE_MS {
                        return Err(format!(
                            "the bot has passed the 8-hour limit of table time ({} ms): \
                             give `bot` fewer steps",
                            t.board.now().0
                        ));
                    }
                    if table::bot_step(t, &mut rng)?.is_none() {
                        break;
                    }
                }
                collect(t);
                self.rng = Some(rng);
            }
            _ => return Ok(None),
        }
        Ok(Some(out))
    }

    /// Both armies of a Stratego set-up as (seat, square, rank), from the `red`/`blue` rows,
    /// or shuffled from the seed when rows are missing (the rows are then filled in).
    fn deployments(&mut self) -> Result<Vec<Army>, String> {
        let variant = self.variant;
        let one_drawn = match self.rows_at {
            [Some(at), None] => Some((at, RED, BLUE)),
            [None, Some(at)] => Some((at, BLUE, RED)),
            _ => None,
        };
        if let Some((at, has, lacks)) = one_drawn {
            return Err(format!(
                "{}'s set-up rows are drawn (line {at}) but {}'s are not: draw {}'s too \
                 (`{} ROW` lines, {}) or remove {}'s to shuffle both armies",
                seat_name(has),
                seat_name(lacks),
                seat_name(lacks),
                seat_name(lacks).to_lowercase(),
                setup_rows_hint(variant, lacks),
                seat_name(has),
            ));
        }
        if self.rows.iter().any(|r| r.is_empty()) {
            let mut chance = firmware::referee::SeededChance::new(self.seed);
            let setup = boards::stratego::Setup::shuffled(variant, |n| {
                use firmware::referee::Chance as _;
                let n32 = u32::try_from(n).unwrap_or(u32::MAX);
                chance.roll(n32).map_or(0, |x| x as usize)
            });
            for seat in [RED, BLUE] {
                let text = setup.deployments[seat].to_text(variant, seat);
                self.rows[seat.index()] = text.lines().map(str::to_string).collect();
            }
        }
        let mut out = Vec::new();
        for seat in [RED, BLUE] {
            let text = self.rows[seat.index()].join("\n");
            let d = Deployment::parse(variant, seat, &text)
                .map_err(|p| format!("{}'s set-up rows: {p}", seat_name(seat)))?;
            out.push(d.placements.iter().map(|(sq, r)| (seat, *sq, *r)).collect());
        }
        Ok(out)
    }

    /// Places `seat`'s army from its rows, rank group by rank group from the Flag: without NFC
    /// with OK after each group, with NFC each piece with its tag and no OK.
    fn place_army(&mut self, seat: Seat) -> Result<Vec<Decision>, String> {
        let deployments = self.deployments()?;
        let army = deployments.get(seat.index()).cloned().unwrap_or_default();
        let variant = self.variant;
        let nfc = self.nfc;
        let t = self.table()?;
        let mut out = Vec::new();
        for rank in Rank::ALL.iter().rev().filter(|r| variant.count(**r) > 0) {
            let mut places = Vec::new();
            for (seat, square, _) in army.iter().filter(|(_, _, r)| r == rank) {
                let tag = if nfc {
                    Some(setup_tag(*seat, *square)?)
                } else {
                    None
                };
                places.push((square_place(*square), tag));
            }
            if nfc && places.is_empty() {
                continue;
            }
            out.extend(t.place_many(&places).map_err(|e| e.to_string())?);
            if !nfc {
                out.extend(t.press(Button::Ok));
            }
        }
        Ok(out)
    }

    /// The Napoléon game chosen by `game`, if it is one.
    fn napoleon(&self) -> Option<napoleon::NapoleonChoice> {
        match self.table_game.as_ref()?.kind {
            GameKind::Napoleon { choice } => Some(choice),
            _ => None,
        }
    }

    /// The menu entry `choose` and `setup` pick: the table game's variant, set up by tags
    /// with `nfc` when the game offers it (Napoléon).
    fn menu_entry(&self) -> Result<TableGameEntry, String> {
        let mut entry = self.table_game.clone().ok_or("no table game")?;
        if self.nfc && self.napoleon().is_some() {
            entry.variant = games::by_tags(&entry.variant);
        }
        Ok(entry)
    }

    /// Puts `seat`'s Napoléon blocks down with their tags, each on the slot of the game's
    /// sample set-up drawn from the seed, without OK.
    fn place_blocks(&mut self, seat: Seat) -> Result<Vec<Decision>, String> {
        let choice = self.napoleon().ok_or("no Napoleon game")?;
        let oob = choice.set.campaign().order_of_battle();
        let armies: &[boards::napoleon::Army] = if seat == napoleon::FRENCH {
            &[boards::napoleon::Army::French]
        } else {
            &[
                boards::napoleon::Army::AngloDutch,
                boards::napoleon::Army::Prussian,
            ]
        };
        let blocks: Vec<usize> = armies
            .iter()
            .flat_map(|&a| oob.army(a).map(|(id, _)| id.index()))
            .collect();
        let mut rng = self.rng().clone();
        let t = self.table()?;
        let groups = table::view(t)?
            .sample_groups(seat, &mut |n| {
                use rand::Rng as _;
                rng.random_range(0..n.max(1))
            })
            .ok_or("this game has no sample set-up")?;
        let mut places = Vec::new();
        for (index, group) in blocks.into_iter().zip(groups) {
            for place in group {
                places.push((place, Some(block_tag(index)?)));
            }
        }
        let out = t.place_many(&places).map_err(|e| e.to_string())?;
        self.rng = Some(rng);
        Ok(out)
    }

    /// A place of the game being played, as a line writes it.
    fn parse_place(&self, word: &str) -> Result<Place, String> {
        if self.table_game.is_some() {
            table::parse_place_in(self.table_game.as_ref(), word)
        } else {
            parse_square(word).map(square_place)
        }
    }

    /// `... reading WHAT` at the end of `place SQ`, `move A B` or `slide A ... B`: the reader
    /// under the place the piece is put on answers WHAT at its read.
    fn act_reading(&mut self, words: &[&str], what: &str) -> Result<(), String> {
        let usage = "`reading` ends a `place SQ`, `move A B` or `slide A ... B` line: \
                     `reading none`, `reading unknown` or `reading SQ` (the tag of the piece \
                     standing on SQ)";
        let (cmd, args) = words.split_first().ok_or(usage)?;
        let to = match (*cmd, args) {
            ("place", [to]) | ("move", [_, to]) | ("slide", [_, .., to]) => *to,
            _ => return Err(usage.to_string()),
        };
        let to = self.parse_place(to)?;
        let answer = match what {
            "none" => Err(TagFailure::NoTag),
            "unknown" => Ok(unknown_tag()?),
            other => {
                let from = self.parse_place(other)?;
                let t = self.table()?;
                Ok(t.board.tag_at(from).ok_or(format!(
                    "no tagged piece stands on {other} for the reader to pick up: name an \
                     occupied place, `none` or `unknown`"
                ))?)
            }
        };
        let t = self.table()?;
        if !t.has_readers() {
            return Err(
                "`reading` needs NFC readers: write `nfc` before the first physical event".into(),
            );
        }
        t.board.fault_next_read(to, answer);
        self.act(words)
    }

    fn act(&mut self, words: &[&str]) -> Result<(), String> {
        if let [rest @ .., "reading", what] = words {
            return self.act_reading(rest, what);
        }
        let (cmd, args) = words.split_first().ok_or("empty line")?;
        if *cmd == "nfc" {
            if !args.is_empty() {
                return Err("`nfc` takes nothing".into());
            }
            if self.table.is_some() {
                return Err("`nfc` must come before the first physical event".into());
            }
            self.nfc = true;
            return Ok(());
        }
        if let ("game", [stratego @ ("classic" | "duel"), word, ..]) = (*cmd, args) {
            let title = if *stratego == "duel" {
                Variant::Duel
            } else {
                Variant::Classic
            };
            return Err(table::stratego_game_line_error(&title.to_string(), word));
        }
        if *cmd == "game" && !matches!(args, ["classic"] | ["duel"]) {
            if self.table.is_some() {
                return Err("`game` must come before the first physical event".into());
            }
            let mut entry = table::parse_game_line(args)?;
            entry.kind = entry.kind.on_layout(self.waterloo_layout);
            self.passed.waterloo |= matches!(entry.kind, GameKind::Waterloo { .. });
            if let Some(at) = self.rules_at {
                return Err(format!(
                    "`rules` (line {at}) applies to Stratego Original and Duel only; {} has no \
                     repetition rules: remove it",
                    entry.name
                ));
            }
            if let Some(at) = self.rows_at.iter().flatten().min() {
                return Err(format!(
                    "`red`/`blue` rows (line {at}) set up Stratego only: draw {}'s armies with \
                     its own lines (host/SCENARIOS.md), or remove them to set up at random",
                    entry.name
                ));
            }
            self.table_game = Some(entry);
            return Ok(());
        }
        if let (Some(seat), Some(_)) = (table::waterloo_seat(cmd), &self.table_game) {
            if self
                .table
                .as_ref()
                .is_some_and(|t| t.referee().table().is_some())
            {
                return Err(format!("`{cmd}` must come before the game is chosen"));
            }
            let diagram = &mut self.diagrams[seat.index()];
            match args.split_first() {
                Some((&"reserve", codes)) => {
                    diagram
                        .reserve
                        .extend(codes.iter().map(|c| (*c).to_string()));
                }
                _ => diagram
                    .rows
                    .push(args.iter().map(|c| (*c).to_string()).collect()),
            }
            return Ok(());
        }
        if self.table_game.is_some() {
            if let Some(out) = self.act_table(cmd, args)? {
                self.passed.steps += 1;
                self.last = out;
                return Ok(());
            }
            if let "lift" | "place" | "nudge" | "move" | "attack" | "slide" = *cmd {
                let places = args
                    .iter()
                    .map(|a| table::parse_place_in(self.table_game.as_ref(), a))
                    .collect::<Result<_, _>>()?;
                return self.act_places(cmd, places, "places");
            }
        }
        let squares =
            || -> Result<Vec<Square>, String> { args.iter().map(|a| parse_square(a)).collect() };
        let arity = |n: usize| -> Result<(), String> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!("`{cmd}` takes {n} argument(s)"))
            }
        };
        if let "lift" | "place" | "nudge" | "move" | "attack" | "slide" = *cmd {
            if let "move" | "attack" = *cmd {
                arity(2)?;
            }
            let places = squares()?.into_iter().map(square_place).collect();
            return self.act_places(cmd, places, "squares");
        }
        let mut out = Vec::new();
        match *cmd {
            "game" => {
                arity(1)?;
                self.variant = match args[0] {
                    "classic" => Variant::Classic,
                    "duel" => Variant::Duel,
                    other => return Err(format!("unknown game `{other}`: classic or duel")),
                };
                return Ok(());
            }
            "rules" => {
                arity(1)?;
                self.isf = match args[0] {
                    "isf" => true,
                    "plain" => false,
                    other => return Err(format!("unknown rules `{other}`: isf or plain")),
                };
                if let Some(entry) = &self.table_game {
                    return Err(format!(
                        "`rules` applies to Stratego Original and Duel only; {} has no \
                         repetition rules: remove the line",
                        entry.name
                    ));
                }
                self.rules_at = Some(self.line);
                return Ok(());
            }
            "seed" => {
                arity(1)?;
                self.seed = args[0]
                    .parse()
                    .map_err(|_| format!("`{}` is not a number", args[0]))?;
                return Ok(());
            }
            "mismatch-after" => {
                arity(1)?;
                let ms = parse_mismatch_after(args[0])?;
                self.mismatch_after = u32::try_from(ms).unwrap_or(u32::MAX);
                return Ok(());
            }
            "red" | "blue" => {
                let seat = parse_seat(cmd)?;
                if let Some(entry) = &self.table_game {
                    return Err(format!(
                        "`{cmd}` rows set up Stratego only: draw {}'s armies with its own lines \
                         (host/SCENARIOS.md)",
                        entry.name
                    ));
                }
                if self.table.is_some() {
                    return Err(format!(
                        "`{cmd}` rows must come before the first physical event"
                    ));
                }
                self.rows_at[seat.index()].get_or_insert(self.line);
                self.rows[seat.index()].push(args.join(" "));
                return Ok(());
            }
            "choose" => {
                arity(0)?;
                // The entries by their words, as `pick` finds them: Die from wherever the
                // menu's highlight stands (a `die` typed before), and no button pressed when no
                // game menu is shown (a second `setup`).
                let game = match self.variant {
                    Variant::Duel => "Stratego Duel",
                    _ => "Stratego Original",
                };
                let setup = if self.nfc {
                    "With NFC tags"
                } else {
                    "By rank groups"
                };
                let t = self.table()?;
                t.take_told();
                let on_game_menu = matches!(
                    t.referee().screen(),
                    Screen::Choice { entries, .. } if entries.iter().any(|e| e == game)
                );
                if !on_game_menu {
                    return Err(format!(
                        "the game menu is not shown, so {game} cannot be chosen from it (a \
                         game is chosen once, at the start); the screen shows: {}",
                        t.screen_text()
                    ));
                }
                table::choose_entry(t, game)?;
                table::choose_entry(t, setup)?;
                for told in t.take_told() {
                    if let crate::sim::Told::Decision(d) = told {
                        out.push(d);
                    }
                }
            }
            "setup" => {
                arity(0)?;
                self.act(&["choose"])?;
                out.append(&mut self.last);
                for seat in [RED, BLUE] {
                    out.extend(self.place_army(seat)?);
                }
                if self.nfc {
                    out.extend(self.table()?.press(Button::Ok));
                }
            }
            "army" => {
                arity(1)?;
                if !self.nfc {
                    return Err(
                        "`army` places an army with its tags: write `nfc` before the \
                                first physical event (without NFC, `setup` places it rank group \
                                by rank group)"
                            .into(),
                    );
                }
                let seat = parse_seat(args[0])?;
                out.extend(self.place_army(seat)?);
            }
            "ok" | "back" | "die" => {
                arity(0)?;
                let button = match *cmd {
                    "ok" => Button::Ok,
                    "back" => Button::Back,
                    _ => Button::Die,
                };
                out.extend(self.table()?.press(button));
            }
            "hold" => {
                arity(1)?;
                let button = match args[0] {
                    "ok" => Button::Ok,
                    "back" => Button::Back,
                    "die" => Button::Die,
                    other => {
                        return Err(format!("unknown button `{other}`: ok, back or die"));
                    }
                };
                out.extend(self.table()?.hold(button));
            }
            "wait" => {
                arity(1)?;
                let ms = parse_wait(args[0])?;
                self.check_clock()?;
                let now = self.table()?.board.now().0;
                if now + ms > MAX_TABLE_MS {
                    return Err(format!(
                        "wait {ms} ms would take the scenario past the 8-hour limit of table \
                         time (it is at {now} ms): shorten the wait or split the scenario"
                    ));
                }
                out.extend(self.table()?.wait(ms));
            }
            "power-off" => {
                arity(0)?;
                self.table()?.power_off();
            }
            "power-on" => {
                let torn: &[u8] = match args {
                    [] => &[],
                    ["torn"] => &[40, 0, 0, 0, 7, 7, 7],
                    _ => {
                        return Err(format!(
                            "`power-on` takes nothing, or `torn` for a journal whose last \
                             record the cut tore: not `{}`",
                            args.join(" ")
                        ))
                    }
                };
                out.extend(self.table()?.power_on(torn).map_err(|e| e.to_string())?);
            }
            other => return Err(format!("unknown command `{other}` (see host/SCENARIOS.md)")),
        }
        self.passed.steps += 1;
        self.last = out;
        Ok(())
    }

    /// `lift`, `place`, `nudge`, `move`, `attack` and `slide` with the hands, for every game:
    /// Stratego's squares and a table game's places (squares and tray slots) alike. `noun`
    /// names what the line's arguments are, for the error messages.
    fn act_places(&mut self, cmd: &str, places: Vec<Place>, noun: &str) -> Result<(), String> {
        let game = self.table_game.clone();
        let hand = |e: crate::sim::HandError| table::hand_error_text(game.as_ref(), &e);
        if places.is_empty() {
            // A bare `lift` would otherwise pass as a step that did nothing.
            return Err(match cmd {
                "move" | "attack" => format!("`{cmd}` takes 2 {noun}: from, then to"),
                "slide" => format!("`slide` takes the path: from, the {noun} passed, to"),
                _ => format!("`{cmd}` takes one or more {noun}, like `{cmd} c4`"),
            });
        }
        let t = self.table()?;
        let mut out = Vec::new();
        match cmd {
            "lift" => {
                for p in &places {
                    out.extend(t.lift(*p).map_err(hand)?);
                }
            }
            "place" => {
                let many: Vec<_> = places.iter().map(|p| (*p, None)).collect();
                out.extend(t.place_many(&many).map_err(hand)?);
            }
            "nudge" => {
                for p in &places {
                    out.extend(t.nudge(*p).map_err(hand)?);
                }
            }
            "move" | "attack" => {
                let [a, b] = places.as_slice() else {
                    return Err(format!("`{cmd}` takes 2 places"));
                };
                // Both hands' steps checked before the first: a refused line leaves no piece
                // in a hand.
                t.board.can_set(*a, false).map_err(hand)?;
                if cmd == "attack" {
                    t.board.can_set(*b, false).map_err(hand)?;
                } else if a != b {
                    t.board.can_set(*b, true).map_err(hand)?;
                }
                out.extend(t.lift(*a).map_err(hand)?);
                if cmd == "move" {
                    out.extend(t.place(*b, None).map_err(hand)?);
                } else {
                    out.extend(t.lift(*b).map_err(hand)?);
                }
            }
            _ => {
                if places.len() < 2 {
                    return Err(format!(
                        "`slide` takes the path: from, the {noun} passed, to"
                    ));
                }
                out.extend(t.slide(&places).map_err(hand)?);
            }
        }
        self.passed.steps += 1;
        self.last = out;
        Ok(())
    }

    /// The table game's expectations; `None` when `what` is not one of them.
    fn expect_table(
        &mut self,
        what: &str,
        args: &[&str],
        arg_text: &str,
    ) -> Result<Option<()>, String> {
        // The others (screen, decision) hold after the game too, when no table game is in
        // progress any more.
        if !matches!(what, "winner" | "actions" | "board" | "menu") {
            return Ok(None);
        }
        let game = self.table_game.clone();
        let t = self.table()?;
        let v = table::view(t)?;
        match what {
            "winner" => {
                let got = v
                    .result()
                    .map_or("none".to_string(), |(r, why)| format!("{r}: {why}"));
                let want = if arg_text.is_empty() {
                    "none"
                } else {
                    arg_text
                };
                let ok = if want == "none" {
                    got == "none"
                } else {
                    got.to_lowercase().contains(&want.to_lowercase())
                };
                if !ok {
                    return Err(format!("the result is {got}"));
                }
            }
            "actions" => {
                let want: u32 = arg_text
                    .parse()
                    .map_err(|_| format!("`{arg_text}` is not a number"))?;
                let got = v.actions().ok_or("no game is in play")?;
                if got != want {
                    return Err(format!("{got} actions are played"));
                }
            }
            "board" => {
                let (place, desc) = args.split_first().ok_or("`expect board PLACE TEXT`")?;
                let place = table::parse_place_in(game.as_ref(), place)?;
                let want = desc.join(" ");
                let expected = v.expected();
                let got = expected
                    .get(&place)
                    .cloned()
                    .unwrap_or_else(|| "empty".to_string());
                let ok = if want == "empty" {
                    got == "empty"
                } else {
                    got.to_lowercase().contains(&want.to_lowercase())
                };
                if !ok {
                    return Err(format!(
                        "{} holds {got}",
                        table::place_text_in(game.as_ref(), &place)
                    ));
                }
            }
            "menu" => {
                let (entries, _) = v.menu().ok_or("no menu is open")?;
                if !entries.iter().any(|e| e.contains(arg_text)) {
                    return Err(format!("the menu offers: {}", entries.join("; ")));
                }
            }
            _ => return Ok(None),
        }
        Ok(Some(()))
    }

    fn expect(&mut self, words: &[&str], rest: &str) -> Result<(), String> {
        self.passed.expectations += 1;
        let (what, args) = words
            .split_first()
            .ok_or("`expect` needs something to expect")?;
        let arg_text = rest
            .trim_start()
            .strip_prefix(what)
            .unwrap_or_default()
            .trim();
        if self.table_game.is_some() && self.expect_table(what, args, arg_text)?.is_some() {
            return Ok(());
        }
        let table = self.table()?;
        let screen = table.screen_text();
        match *what {
            "screen" => {
                if !screen.contains(arg_text) {
                    return Err(format!("the screen shows `{screen}`"));
                }
            }
            "screen-is" => {
                if screen != arg_text {
                    return Err(format!("the screen shows `{screen}`"));
                }
            }
            "no-screen" => {
                if screen.contains(arg_text) {
                    return Err(format!("the screen shows `{screen}`"));
                }
            }
            "decision" => {
                let kind = args.first().ok_or("`expect decision` needs a kind")?;
                let detail = arg_text.strip_prefix(kind).unwrap_or_default().trim();
                let found = self
                    .last
                    .iter()
                    .any(|d| decision_kind(d) == *kind && decision_text(d).contains(detail));
                if !found {
                    return Err(format!("the last step decided: {}", self.decided()));
                }
            }
            "no-decision" => {
                // With a KIND (and TEXT): no decision of that kind (containing TEXT).
                let found = match args.first() {
                    None => !self.last.is_empty(),
                    Some(kind) => {
                        let detail = arg_text.strip_prefix(kind).unwrap_or_default().trim();
                        self.last
                            .iter()
                            .any(|d| decision_kind(d) == *kind && decision_text(d).contains(detail))
                    }
                };
                if found {
                    return Err(format!("the last step decided: {}", self.decided()));
                }
            }
            "winner" => {
                let want = args
                    .first()
                    .ok_or("`expect winner` needs red, blue, draw or none")?;
                let status = table
                    .referee()
                    .position()
                    .map(|p| p.status())
                    .ok_or("no game is in play")?;
                let got = match status {
                    Status::Won { winner, .. } => seat_name(winner).to_lowercase(),
                    Status::Drawn { .. } => "draw".to_string(),
                    Status::Ongoing => "none".to_string(),
                };
                if got != *want {
                    return Err(format!("the winner is {got}"));
                }
            }
            "ply" => {
                let want: u32 = arg_text
                    .parse()
                    .map_err(|_| format!("`{arg_text}` is not a number"))?;
                let got = table
                    .referee()
                    .position()
                    .map(|p| p.ply())
                    .ok_or("no game is in play")?;
                if got != want {
                    return Err(format!("{got} moves are played"));
                }
            }
            "piece" => {
                let (sq, desc) = args.split_first().ok_or("`expect piece SQUARE ...`")?;
                let square = parse_square(sq)?;
                let piece = table
                    .referee()
                    .position()
                    .ok_or("no game is in play")?
                    .piece_at(square);
                let got = match piece {
                    Some(p) => format!("{} {}", seat_name(p.owner), p.rank).to_lowercase(),
                    None => "empty".to_string(),
                };
                let want = desc.join(" ").to_lowercase();
                if got != want {
                    return Err(format!("{square} holds {got}"));
                }
            }
            "journaled" => {
                let want: usize = arg_text
                    .parse()
                    .map_err(|_| format!("`{arg_text}` is not a number"))?;
                let bytes = table.journal_bytes();
                let mut records =
                    firmware::journal::decode::<firmware::referee::Header, Record>(&bytes)
                        .map_err(|e| e.to_string())?
                        .records;
                // The files a game began on are no step of the game.
                records.retain(|r| !matches!(r, Record::Files(_)));
                let got = records.len();
                if got != want {
                    return Err(format!("the journal holds {got} records: {records:?}"));
                }
            }
            other => {
                return Err(format!(
                    "unknown expectation `{other}` (see host/SCENARIOS.md)"
                ))
            }
        }
        Ok(())
    }

    fn decided(&self) -> String {
        if self.last.is_empty() {
            return "nothing".to_string();
        }
        self.last
            .iter()
            .map(decision_text)
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// Runs a scenario given as text; `name` is used in failures.
///
/// # Errors
/// The first unreadable line or failed expectation, with its line number.
pub fn run_text(name: &str, text: &str) -> Result<Passed, Failure> {
    run_text_on(name, text, BoardLayout::shipped())
}

/// Runs a scenario given as text, Stratego: Waterloo on `layout`; `name` is used in failures.
///
/// # Errors
/// The first unreadable line or failed expectation, with its line number.
pub fn run_text_on(name: &str, text: &str, layout: BoardLayout) -> Result<Passed, Failure> {
    // Every limit is checked before anything runs: a line asking for too much is named at once.
    for (i, raw) in text.lines().enumerate() {
        check_limits(raw).map_err(|message| Failure {
            file: name.to_string(),
            line: i + 1,
            text: raw.split('#').next().unwrap_or_default().trim().to_string(),
            message,
        })?;
    }
    let mut session = Session::on_layout(layout);
    for (i, raw) in text.lines().enumerate() {
        session.run_line(raw).map_err(|message| Failure {
            file: name.to_string(),
            line: i + 1,
            text: raw.split('#').next().unwrap_or_default().trim().to_string(),
            message,
        })?;
    }
    if session.passed.expectations == 0 {
        // An empty file, or one cut short before its first `expect`, would pass whatever the
        // umpire did.
        return Err(Failure {
            file: name.to_string(),
            line: 0,
            text: String::new(),
            message: "the scenario checks nothing: add `expect` lines for what the umpire must \
                      do (see `help`), else it passes whatever happens"
                .to_string(),
        });
    }
    Ok(session.passed)
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scenario that checks nothing (empty, only comments, steps without one `expect`) fails:
    /// it would pass whatever the umpire did.
    #[test]
    fn a_scenario_that_checks_nothing_fails() {
        for text in ["", "# to do\n", "game piecepack\nsetup\n"] {
            let err = run_text("t", text).unwrap_err();
            assert!(err.message.contains("checks nothing"), "{err}");
        }
        assert!(run_text("t", "game piecepack\nexpect screen Game /\n").is_ok());
    }

    /// `group` with no place is refused with the fix, not an OK pressed.
    #[test]
    fn a_group_without_places_is_refused() {
        let err = run_text("t", "game piecepack\nok\ngroup\n").unwrap_err();
        assert!(err.message.contains("`group` takes the places"), "{err}");
    }

    #[test]
    fn a_table_game_screen_is_checked_outside_the_game_too() {
        // On the game menu (before the game is chosen, or after OK ends it) no table game is
        // in progress: the screen and decisions are still there to check.
        let text = "game piecepack\nexpect screen Game /\nexpect no-decision\n";
        assert!(run_text("t", text).is_ok(), "{:?}", run_text("t", text));
        let err = run_text("t", "game piecepack\nexpect actions 0\n").unwrap_err();
        assert!(err.message.contains("no table game"), "{err}");
    }

    /// Red's rows with no Blue rows: the old code shuffled both armies without a word.
    #[test]
    fn an_army_drawn_for_one_seat_only_is_refused_with_its_line() {
        let red = "red 9 9 9 9 9 9 9 9 S M\nred 8 8 8 8 8 7 7 7 7 6\n\
                   red 6 6 6 5 5 5 5 4 4 4\nred 3 3 3 2 2 2 2 2 B F\n";
        let text = format!("# Red only\n{red}setup\n");
        let err = run_text("t", &text).unwrap_err();
        assert_eq!(err.line, 6, "{err}");
        assert!(
            err.message
                .contains("Red's set-up rows are drawn (line 2) but Blue's are not"),
            "{err}"
        );
        assert!(err.message.contains("row 10 first"), "{err}");
        // Blue only: the same, the other way round.
        let blue = red.replace("red", "blue");
        let err = run_text("t", &format!("{blue}setup\n")).unwrap_err();
        assert!(err.message.contains("draw Red's too"), "{err}");
        assert!(err.message.contains("row 4 first"), "{err}");
    }

    /// Stratego's `rules` and `red` rows in a table game were ignored without a word.
    #[test]
    fn stratego_lines_in_a_table_game_are_refused() {
        let err = run_text("t", "game stratego-waterloo basic\nrules plain\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("Stratego: Waterloo has no"), "{err}");
        let err = run_text("t", "rules plain\ngame piecepack\n").unwrap_err();
        assert!(err.message.contains("`rules` (line 1)"), "{err}");
        let err = run_text("t", "game stratego-waterloo\nred F B B . . . . . . .\n").unwrap_err();
        assert!(err.message.contains("set up Stratego only"), "{err}");
    }

    /// The `game` line takes the options of its game after the variant: Napoléon's
    /// `reveal-on-contact` reaches the umpire as `[napoleon] reveal_on_contact` does (its
    /// set-up screens say so), in the configuration file's spelling too. Fails on the old
    /// code: a third word on the line was refused.
    #[test]
    fn a_game_line_gives_its_games_options() {
        let note = firmware::referee::games::napoleon::REVEAL_ON_CONTACT_NOTE;
        for line in [
            "game napoleon historical reveal-on-contact",
            "game napoleon reveal-on-contact",
            "game napoleon own reveal_on_contact",
        ] {
            let text = format!("{line}\nchoose\nexpect screen {note}\n");
            let run = run_text("t", &text);
            assert!(run.is_ok(), "{line}: {run:?}");
        }
        let text = format!("game napoleon historical\nchoose\nexpect no-screen {note}\n");
        assert!(run_text("t", &text).is_ok(), "{:?}", run_text("t", &text));
        // The line `umpire-sim play` makes of a game reads back as that game, options and all.
        for (name, variants) in games::menu() {
            for (label, kind) in variants {
                for kind in [kind, kind.on_napoleon_reveal_on_contact(true)] {
                    let entry = TableGameEntry {
                        name: name.to_string(),
                        variant: label.clone(),
                        kind,
                    };
                    let line = table::game_line(&entry);
                    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
                    assert_eq!(table::parse_game_line(&words), Ok(entry), "{line}");
                }
            }
        }
    }

    /// An unknown option, another game's, one given twice or a variant after an option: each
    /// stops the file at the `game` line's number with the fix, the game's options listed.
    #[test]
    fn a_wrong_option_on_the_game_line_stops_the_file_with_its_line() {
        let refused = |line: &str| {
            let err = run_text("t", &format!("# a scenario\nseed 3\n{line}\nsetup\n")).unwrap_err();
            assert_eq!(err.line, 3, "{err}");
            assert_eq!(err.text, line, "{err}");
            err.message
        };
        let m = refused("game napoleon historical fog-of-war");
        assert!(m.contains("`fog-of-war` is no option of any game"), "{m}");
        assert!(
            m.contains("Napoleon 1815's options: `reveal-on-contact`"),
            "{m}"
        );
        assert!(m.contains("[napoleon] reveal_on_contact"), "{m}");
        assert!(m.contains("remove it"), "{m}");
        let m = refused("game piecepack extra reveal-on-contact");
        assert!(
            m.contains("`reveal-on-contact` is an option of Napoleon 1815 only"),
            "{m}"
        );
        assert!(
            m.contains("Piecepack at Waterloo takes no options on its `game` line: remove it"),
            "{m}"
        );
        let m = refused("game stratego-waterloo reveal-on-contact");
        assert!(m.contains("Stratego: Waterloo takes no options"), "{m}");
        let m = refused("game duel reveal-on-contact");
        assert!(
            m.contains("Stratego Duel takes no options on its `game` line: remove it"),
            "{m}"
        );
        let m = refused("game classic plain");
        assert!(
            m.contains("write `rules plain` on a line of its own"),
            "{m}"
        );
        let m = refused("game napoleon own reveal-on-contact reveal-on-contact");
        assert!(m.contains("given twice"), "{m}");
        let m = refused("game napoleon reveal-on-contact historical");
        assert!(
            m.contains("`game napoleon historical reveal-on-contact`"),
            "{m}"
        );
        // A misspelt option where the variant goes: the variants, and the options after them.
        let m = refused("game napoleon reveal-on-contat");
        assert!(m.contains("has no variant `reveal-on-contat`"), "{m}");
        assert!(m.contains("after the variant, Napoleon 1815 takes"), "{m}");
    }

    #[test]
    fn a_failed_expectation_names_its_line() {
        let text = "game duel\nchoose\nexpect screen Blue: place 1 Flag\n";
        let err = run_text("t", text).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(
            err.message.contains("the screen shows `Red set-up"),
            "{err}"
        );
        let err = run_text("t", "fly a1\n").unwrap_err();
        assert!(err.message.contains("unknown command `fly`"), "{err}");
    }

    #[test]
    fn waterloo_armies_drawn_as_diagrams_are_set_up() {
        let armies = "game stratego-waterloo basic
french C  K  I4 I4 .  .  I6 I5 I5 A  .  .
french H5 H5 H6 A  A  A  i1 I3 I3 I3 A  .
french I3 I3 I3 I3 I3 I3 L  L  L  L  I3 .
french I3 I3 H4 H4 I3 I3 L  i1 i1 i1 L  .
allied I3 I3 A  .  i2 I3 L  L  A  I3 .  L
allied I3 I3 I3 I3 I3 I3 I3 I3 I3 I3 A  L
allied H4 H4 H4 H5 H6 I6 I5 I5 i1 i1 i1 L
allied C  K  A  A  .  .  I3 i2 L  A  I3 .
allied reserve I3 I3
french reserve H4 i1 I3 A A A
";
        let text = format!(
            "{armies}setup\nexpect decision game-started\nexpect board c4 Allied artillery\n\
             expect board reserve/2/6 French piece\nexpect board staging/1/13 Prussian piece\n\
             repeat 2 ok\nexpect screen Turn 1 11:00 French\n"
        );
        run_text("t", &text).unwrap();
        // One British/KGL Foot short: the scenario's own mistake, named.
        let short = armies.replace("allied reserve I3 I3", "allied reserve I3");
        let err = run_text("t", &format!("{short}setup\n")).unwrap_err();
        assert!(
            err.message
                .contains("the allied diagram: 17 British/KGL Foot (I3) drawn, the army has 18"),
            "{err}"
        );
    }
}
