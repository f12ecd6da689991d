//! `umpire-sim demo`: a whole seeded game of Stratego between two [`Bot`]s, told move by move.
//!
//! The demo plays the umpire's part in software: it keeps the [`Position`] (the whole truth),
//! shows each bot only its own seat's [`View`] and the legal moves, plays the chosen move and
//! announces what happened. Everything random (the two set-ups, the bots' tie-breaks) comes from
//! one seed, so the same seed always prints the same game.

use std::fmt;
use std::io::{self, Write};

use boards::stratego::{
    seat_name, EndReason, Illegal, Move, Options, Outcome, Position, Setup, SetupProblem, Variant,
    BLUE, RED,
};
use boards::{BySeat, Game, Problems, Seat, Status};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::bots::Bot;

/// Which rules against endless repetition are in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Tournament rules: the two-squares rule (limit 3) and the more-squares rule.
    #[default]
    Isf,
    /// The rulebook's plain text: no repetition rules.
    Plain,
}

impl Rules {
    /// The game options for `variant` under these rules.
    pub const fn options(self, variant: Variant) -> Options {
        match self {
            Rules::Isf => Options::isf(variant),
            Rules::Plain => Options::plain(variant),
        }
    }
}

/// What to play and how much to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Demo {
    /// Classic Stratego or Duel.
    pub variant: Variant,
    /// Which repetition rules apply.
    pub rules: Rules,
    /// Fixes the set-ups and every choice of the bots.
    pub seed: u64,
    /// Stop without a result after this many moves.
    pub max_moves: u32,
    /// Print only the battles and the result.
    pub quiet: bool,
    /// Print boards as this seat sees them instead of as the umpire does.
    pub eyes: Option<Seat>,
    /// Print the board after every this many moves (0: only at the start and the end).
    pub board_every: u32,
}

impl Demo {
    /// The demo of `variant` with `seed` and every other setting at its default: ISF rules, at
    /// most 3000 moves, every move printed, the umpire's boards every 50 moves.
    pub const fn new(variant: Variant, seed: u64) -> Demo {
        Demo {
            variant,
            rules: Rules::Isf,
            seed,
            max_moves: 3000,
            quiet: false,
            eyes: None,
            board_every: 50,
        }
    }
}

/// How a demo game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Summary {
    /// Moves played.
    pub moves: u32,
    /// Battles fought.
    pub battles: u32,
    /// How the game stands at the end: [`Status::Ongoing`] when the move limit stopped it.
    pub status: Status<EndReason>,
}

/// Why a demo could not be played to the end.
#[derive(Debug)]
pub enum Error {
    /// The generated set-up was refused by the rules: a bug in the set-up generator, reported
    /// rather than played around.
    Setup(Problems<SetupProblem>),
    /// A bot chose a move the rules refused: a bug in the bot, reported rather than skipped.
    BotMove {
        /// The move chosen.
        mv: Move,
        /// Why the rules refused it.
        reason: Illegal,
    },
    /// Writing the report failed (for example, the reader closed the pipe).
    Write(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Setup(p) => write!(f, "the generated set-up is not playable: {p}"),
            Error::BotMove { mv, reason } => {
                write!(f, "a bot chose the illegal move {mv}: {reason}")
            }
            Error::Write(e) => write!(f, "cannot write the demo: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Setup(p) => Some(p),
            Error::BotMove { reason, .. } => Some(reason),
            Error::Write(e) => Some(e),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Write(e)
    }
}

/// Plays the game `demo` describes and writes it to `out`.
///
/// # Errors
/// [`Error::Write`] when `out` fails; [`Error::Setup`] or [`Error::BotMove`] on a bug in the
/// set-up generator or a bot.
pub fn run(demo: &Demo, out: &mut impl Write) -> Result<Summary, Error> {
    let options = demo.rules.options(demo.variant);
    let mut rng = Pcg64Mcg::seed_from_u64(demo.seed);
    let setup = Setup::shuffled(demo.variant, |n| rng.random_range(0..n));
    let mut position = Position::start(options, setup).map_err(Error::Setup)?;
    let mut bots = BySeat::from_fn(|_| Bot::new(rng.random()));

    write_header(demo, &options, out)?;
    if !demo.quiet {
        writeln!(out, "Starting deployments:")?;
        write_board(demo, &position, out)?;
        writeln!(out)?;
    }

    let mut battles = 0;
    while position.status().is_ongoing() && position.ply() < demo.max_moves {
        let seat = position.to_move();
        let legal = position.legal_moves();
        let Some(mv) = bots[seat].choose(&position.view(seat), &legal) else {
            break;
        };
        let number = position.ply() + 1;
        let outcome = position
            .play(&mv)
            .map_err(|reason| Error::BotMove { mv, reason })?;
        match outcome {
            Outcome::Battle(battle) => {
                battles += 1;
                let text = format!("{}x{}", mv.from, mv.to);
                writeln!(
                    out,
                    "{number:>4}. {:<5}  {text:<7}  {battle}",
                    seat_name(seat)
                )?;
            }
            Outcome::Moved(_) if !demo.quiet => {
                writeln!(out, "{number:>4}. {:<5}  {mv}", seat_name(seat))?;
            }
            Outcome::Moved(_) => {}
        }
        let ongoing = position.status().is_ongoing() && position.ply() < demo.max_moves;
        if !demo.quiet && ongoing && demo.board_every > 0 && number % demo.board_every == 0 {
            writeln!(out)?;
            writeln!(out, "Board after move {number}:")?;
            write_board(demo, &position, out)?;
            writeln!(out)?;
        }
    }

    let summary = Summary {
        moves: position.ply(),
        battles,
        status: position.status(),
    };
    if !demo.quiet {
        writeln!(out)?;
        writeln!(out, "Final board after {} moves:", summary.moves)?;
        write_board(demo, &position, out)?;
    }
    let left = |seat| position.pieces().filter(|(_, p)| p.owner == seat).count();
    writeln!(
        out,
        "Pieces left: Red {}, Blue {}. Battles fought: {}.",
        left(RED),
        left(BLUE),
        summary.battles
    )?;
    writeln!(out, "{}", result_line(demo, &summary))?;
    Ok(summary)
}

/// The last line of the report: who won and why, a draw, or that the demo stopped.
pub fn result_line(demo: &Demo, summary: &Summary) -> String {
    let moves = summary.moves;
    match summary.status {
        Status::Won { winner, reason } => {
            let why = match reason {
                EndReason::FlagCaptured => format!(
                    "{} captured {}'s Flag",
                    seat_name(winner),
                    seat_name(winner.opponent())
                ),
                EndReason::NoMovesLeft => {
                    format!(
                        "{} has no piece left that can move",
                        seat_name(winner.opponent())
                    )
                }
                other => other.to_string(),
            };
            format!(
                "Result: {} wins: {why}, after {moves} moves.",
                seat_name(winner)
            )
        }
        Status::Drawn { reason } => format!("Result: a draw: {reason}, after {moves} moves."),
        Status::Ongoing => format!(
            "Result: none. The demo stopped at its limit of {} moves before either side won.",
            demo.max_moves
        ),
    }
}

fn write_header(demo: &Demo, options: &Options, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "Umpire demo: {} ({}), seed {}",
        demo.variant,
        demo.variant.name(),
        demo.seed
    )?;
    let two = match options.two_squares {
        Some(n) => format!("two-squares rule on (at most {n} moves in a row between two squares)"),
        None => "two-squares rule off".to_string(),
    };
    let more = if options.more_squares { "on" } else { "off" };
    let rules = match demo.rules {
        Rules::Isf => "ISF",
        Rules::Plain => "plain",
    };
    writeln!(out, "Rules: {rules}: {two}, more-squares rule {more}")?;
    if demo.quiet {
        return Ok(());
    }
    writeln!(
        out,
        "Players: two seeded bots; each sees only its own seat's view and its legal moves."
    )?;
    match demo.eyes {
        None => writeln!(
            out,
            "Boards are the umpire's eyes, every rank shown: rM = Red Marshal, b2 = Blue Scout, \
             rB = Bomb, rF = Flag, rS = Spy, ~~ = lake."
        )?,
        Some(seat) => writeln!(
            out,
            "Boards are {}'s view: {} = unknown enemy, {} = unknown enemy that has moved, \
             ~~ = lake.",
            seat_name(seat),
            enemy_token(seat, '?'),
            enemy_token(seat, '*'),
        )?,
    }
    writeln!(
        out,
        "Moves: Red moves first; a4-a5 is a move, a4xa5 an attack."
    )?;
    writeln!(out)
}

fn enemy_token(seat: Seat, c: char) -> String {
    let tag = if seat.opponent() == RED { 'r' } else { 'b' };
    format!("{tag}{c}")
}

fn write_board(demo: &Demo, position: &Position, out: &mut impl Write) -> io::Result<()> {
    let diagram = match demo.eyes {
        None => position.diagram(),
        Some(seat) => position.view(seat).diagram(),
    };
    for line in diagram.lines() {
        writeln!(out, "    {line}")?;
    }
    Ok(())
}
