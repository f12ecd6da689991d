//! `umpire-sim demo`: a whole seeded game of Stratego between two [`Bot`]s, told move by move.
//!
//! The game is played on a simulated table ([`SimTable`]): the firmware's referee, fed by the
//! firmware's sensing model from simulated reed switches. The players choose the game with the
//! buttons and set up their armies rank group by rank group; each bot sees only its own seat's
//! [`View`](boards::stratego::View) and the legal moves, and its hands make the chosen move
//! physically (lift, place; for an attack lift both, then do what the umpire says). Every move
//! line is the referee's decision, and every `OLED|` line is what the umpire's screen showed. Everything random (the two set-ups, with each
//! Flag then moved to its back row, and the bots' tie-breaks) comes from one seed, so the same
//! seed always prints the same game.

use std::fmt;
use std::io::{self, Write};
use std::path::Path;

use boards::stratego::{
    seat_name, BattleResult, Deployment, EndReason, Illegal, Move, Options, Position, Rank, Setup,
    SetupProblem, Square, Variant, BLUE, RED,
};
use boards::{BySeat, Game, Problems, Seat, Status};
use firmware::referee::{screen_text, Decision, RefereeConfig};
use firmware::screens::render_page;
use firmware::sensing::Button;
use firmware::ui::Screen;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::bots::Bot;
use crate::sim::{square_place, HandError, SimTable, Told};

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
    /// The simulated table and the referee disagreed: a bug in the hands or the referee.
    Table(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Setup(p) => write!(f, "the generated set-up is not playable: {p}"),
            Error::BotMove { mv, reason } => {
                write!(f, "a bot chose the illegal move {mv}: {reason}")
            }
            Error::Write(e) => write!(f, "cannot write the demo: {e}"),
            Error::Table(e) => write!(f, "the simulated table went wrong: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Setup(p) => Some(p),
            Error::BotMove { reason, .. } => Some(reason),
            Error::Write(e) => Some(e),
            Error::Table(_) => None,
        }
    }
}

impl From<String> for Error {
    /// What the table's hands or the referee said went wrong.
    fn from(e: String) -> Error {
        Error::Table(e)
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
/// [`Error::Write`] when `out` fails; [`Error::Setup`], [`Error::BotMove`] or [`Error::Table`]
/// on a bug in the set-up generator, a bot, the hands or the referee.
pub fn run(demo: &Demo, out: &mut impl Write) -> Result<Summary, Error> {
    run_with_journal(demo, out).map(|(summary, _)| summary)
}

/// Everything a demo game leaves behind.
#[derive(Debug)]
pub struct Played {
    /// How the game went.
    pub summary: Summary,
    /// The referee's journal (the bytes of its file).
    pub journal: Vec<u8>,
    /// OLED frames written.
    pub frames: u32,
    /// Every input the simulated board fed its sensing model, from the first button press: a
    /// fresh [`firmware::pipeline::Pipeline`] fed these plays the same game.
    pub inputs: Vec<crate::sim::Sensed>,
    /// Every screen the OLED showed, in order.
    pub screens: Vec<Screen>,
}

/// Like [`run`], also returning the referee's journal of the game (the bytes of its file).
///
/// # Errors
/// As [`run`].
pub fn run_with_journal(demo: &Demo, out: &mut impl Write) -> Result<(Summary, Vec<u8>), Error> {
    run_with_frames(demo, None, out).map(|p| (p.summary, p.journal))
}

/// Like [`run_with_journal`], also writing every OLED frame the umpire shows as a PNG into
/// `frames` (`00001.png`, `00002.png`, ...; see [`crate::frames`]), and recording every sensed
/// input.
///
/// # Errors
/// As [`run`]; a frame that cannot be written is [`Error::Write`].
pub fn run_with_frames(
    demo: &Demo,
    frames: Option<&Path>,
    out: &mut impl Write,
) -> Result<Played, Error> {
    run_inner(demo, frames, None, out)
}

/// A demo served to the phone pages (`demo --serve`): where, and how slowly.
#[derive(Debug)]
pub struct Serve {
    /// Publishes the table to the server.
    pub publisher: firmware::web::Publisher,
    /// The address printed for the pages (`http://ADDRESS/...`).
    pub address: String,
    /// How long each screen stays before the hands go on, so a browser can follow.
    pub pace: std::time::Duration,
    /// The OLED hands each seat its phone code once the game is chosen (the demo's hands
    /// press OK for each seat in turn).
    pub handout: Option<firmware::web::handout::Handout>,
}

/// Like [`run`], played at `serve`'s pace with every change published to the phone pages; the
/// pages' addresses are printed once the game is chosen (the seats' tokens are made then),
/// and the OLED hands out each seat's code (drawn into `frames` too, if given).
///
/// # Errors
/// As [`run`].
pub fn run_served(
    demo: &Demo,
    frames: Option<&Path>,
    serve: Serve,
    out: &mut impl Write,
) -> Result<Played, Error> {
    run_inner(demo, frames, Some(serve), out)
}

fn run_inner(
    demo: &Demo,
    frames: Option<&Path>,
    serve: Option<Serve>,
    out: &mut impl Write,
) -> Result<Played, Error> {
    let options = demo.rules.options(demo.variant);
    let mut rng = Pcg64Mcg::seed_from_u64(demo.seed);
    let mut setup = Setup::shuffled(demo.variant, |n| rng.random_range(0..n));
    for seat in [RED, BLUE] {
        let col = rng.random_range(0..10);
        flag_to_back_row(&mut setup.deployments[seat], seat, col);
    }
    setup.validate(demo.variant).map_err(Error::Setup)?;
    let mut bots = BySeat::from_fn(|_| Bot::new(rng.random()));
    let config = RefereeConfig {
        isf_rules: demo.rules == Rules::Isf,
        ..RefereeConfig::default()
    };
    let config_hold = config.attack_hold_ms;
    let mut table = SimTable::new(config, demo.seed, false)
        .map_err(|p| Error::Table(format!("the simulated board's layout: {p}")))?;
    table.board.record();
    let mut oled = Oled {
        print: !demo.quiet,
        frames,
        written: 0,
        seen: Vec::new(),
        leds: crate::leds::SimLeds::new().map_err(|e| Error::Table(e.to_string()))?,
        pace: serve.as_ref().map(|s| s.pace),
    };
    let address = serve.as_ref().map(|s| s.address.clone());
    if let Some(serve) = serve {
        table.set_web(Some(serve.publisher));
        table.set_handout(serve.handout);
    }

    write_header(demo, &options, out)?;
    // Choose the game on the menu, then set up rank group by rank group, as players would.
    if demo.variant == Variant::Duel {
        table.press(Button::Die);
    }
    table.press(Button::Ok);
    table.press(Button::Ok);
    if let Some(address) = address {
        write_addresses(&table, &address, out)?;
    }
    tell(&mut table, &mut oled, out)?;
    // Each seat in turn: OK shows its code, OK hides it and asks the next (whose question
    // takes OK only a moment after the code before was hidden).
    while table.handing_out() {
        if matches!(table.oled_screen(), Screen::PhoneAsk { .. }) {
            table.wait(firmware::web::handout::ASK_CALM_MS);
        }
        table.press(Button::Ok);
        tell(&mut table, &mut oled, out)?;
    }
    for seat in [RED, BLUE] {
        for rank in Rank::ALL
            .iter()
            .rev()
            .filter(|r| demo.variant.count(**r) > 0)
        {
            let places: Vec<_> = setup.deployments[seat]
                .placements
                .iter()
                .filter(|(_, r)| r == rank)
                .map(|(s, _)| (square_place(*s), None))
                .collect();
            table.place_many(&places).map_err(hand)?;
            tell(&mut table, &mut oled, out)?;
            table.press(Button::Ok);
        }
    }
    let Some(start) = table.referee().position().cloned() else {
        return Err(Error::Table(format!(
            "the referee did not start the game after the set-up; it shows: {}",
            table.screen_text()
        )));
    };
    tell(&mut table, &mut oled, out)?;
    if oled.print {
        writeln!(out)?;
    }
    if !demo.quiet {
        writeln!(out, "Starting deployments ({}):", eyes_label(demo))?;
        write_board(demo, &start, out)?;
        writeln!(out)?;
    }

    let mut battles = 0;
    while let Some(position) = table.referee().position().cloned() {
        if !position.status().is_ongoing() || position.ply() >= demo.max_moves {
            break;
        }
        let seat = position.to_move();
        let legal = position.legal_moves();
        let Some(mv) = bots[seat].choose(&position.view(seat), &legal) else {
            break;
        };
        let number = position.ply() + 1;
        // The hands: lift the piece; for an attack lift the enemy too, then do what the
        // umpire says.
        let from = square_place(mv.from);
        let to = square_place(mv.to);
        table.lift(from).map_err(hand)?;
        tell(&mut table, &mut oled, out)?;
        let decided = if position.piece_at(mv.to).is_some() {
            // Both pieces stay up for the attack hold, as a deliberate attack does.
            let mut decided = table.lift(to).map_err(hand)?;
            decided.extend(table.wait(u64::from(config_hold)));
            if let Some(battle) = decided.iter().find_map(|d| match d {
                Decision::Battle(b) => Some(*b),
                _ => None,
            }) {
                writeln!(
                    out,
                    "{number:>4}. {:<5}  {:<7}  {battle}",
                    seat_name(seat),
                    format!("{}x{}", mv.from, mv.to)
                )?;
                battles += 1;
                tell(&mut table, &mut oled, out)?;
                if battle.result != BattleResult::BothRemoved {
                    table.place(to, None).map_err(hand)?;
                }
            }
            decided
        } else {
            let decided = table.place(to, None).map_err(hand)?;
            if decided.contains(&Decision::Moved { seat, mv }) && !demo.quiet {
                writeln!(out, "{number:>4}. {:<5}  {mv}", seat_name(seat))?;
            }
            decided
        };
        tell(&mut table, &mut oled, out)?;
        let accepted = decided.iter().any(|d| {
            matches!(d, Decision::Moved { mv: m, .. } if *m == mv)
                || matches!(d, Decision::Battle(b) if b.mv == mv)
        });
        if !accepted || !table.referee().differences().is_empty() {
            return Err(Error::Table(format!(
                "the umpire did not take {mv} as played by the hands; it shows: {}",
                table.screen_text()
            )));
        }
        let now = table
            .referee()
            .position()
            .map(|p| p.ply())
            .unwrap_or(number);
        let ongoing = table
            .referee()
            .position()
            .is_some_and(|p| p.status().is_ongoing())
            && now < demo.max_moves;
        if !demo.quiet && ongoing && demo.board_every > 0 && number % demo.board_every == 0 {
            if let Some(p) = table.referee().position() {
                writeln!(out)?;
                writeln!(out, "Board after move {number} ({}):", eyes_label(demo))?;
                write_board(demo, p, out)?;
                writeln!(out)?;
            }
        }
    }

    let Some(position) = table.referee().position().cloned() else {
        return Err(Error::Table(
            "the game vanished from the referee".to_string(),
        ));
    };
    let summary = Summary {
        moves: position.ply(),
        battles,
        status: position.status(),
    };
    if !demo.quiet {
        writeln!(out)?;
        writeln!(
            out,
            "Final board after {} moves ({}):",
            summary.moves,
            eyes_label(demo)
        )?;
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
    let journal = table.journal_bytes();
    Ok(Played {
        summary,
        journal,
        frames: oled.written,
        inputs: table.board.take_recording(),
        screens: oled.seen,
    })
}

fn hand(e: HandError) -> Error {
    Error::Table(format!("a hand could not act: {e}"))
}

/// Where the OLED's screens go: printed as `OLED|` lines, and drawn into PNG frames.
pub(crate) struct Oled<'a> {
    pub(crate) print: bool,
    pub(crate) frames: Option<&'a Path>,
    pub(crate) written: u32,
    /// Every screen shown, in order.
    pub(crate) seen: Vec<Screen>,
    /// The LED guidance, fed every screen shown.
    pub(crate) leds: crate::leds::SimLeds,
    /// When served: how long each screen stays.
    pub(crate) pace: Option<std::time::Duration>,
}

/// Prints the phone pages' addresses: the public page, and each seat's (with its token).
///
/// # Errors
/// `out` fails.
pub fn write_addresses(table: &SimTable, address: &str, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "The table's page: http://{address}/")?;
    let Some(web) = table.web() else {
        return Ok(());
    };
    for (i, token) in web.tokens().iter().enumerate() {
        let name = u8::try_from(i)
            .ok()
            .and_then(|i| table.referee().seat_view(Seat::new(i)))
            .and_then(|v| v.seat_names.get(i).cloned())
            .unwrap_or_else(|| format!("Seat {}", i + 1));
        writeln!(out, "{name}'s page: http://{address}/seat/{}", token.hex())?;
    }
    Ok(())
}

/// Prints (and draws) the OLED screens shown since the last call, one `OLED|` line each.
pub(crate) fn tell(
    table: &mut SimTable,
    oled: &mut Oled<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    for told in table.take_told() {
        if let Told::Screen(screen) = told {
            oled.show(&screen, out)?;
            oled.show_leds(table, &screen)?;
            if let Some(pace) = oled.pace {
                out.flush()?;
                std::thread::sleep(pace);
            }
        }
    }
    Ok(())
}

impl Oled<'_> {
    /// Prints (and draws) one screen: its `OLED|` line and its next PNG frame.
    pub(crate) fn show(&mut self, screen: &Screen, out: &mut impl Write) -> io::Result<()> {
        self.seen.push(screen.clone());
        if self.print {
            writeln!(out, "        OLED| {}", screen_text(screen))?;
        }
        if let Some(dir) = self.frames {
            // A screen that takes pages leaves a frame for each, in the order they turn.
            for page in 0..firmware::screens::page_count(screen) {
                self.written += 1;
                let path = dir.join(format!("{:05}.png", self.written));
                crate::frames::write_png(&render_page(screen, page), &path)?;
            }
        }
        Ok(())
    }
}

impl Oled<'_> {
    /// Feeds `screen` to the LED guidance; with frames, writes what the LEDs light beside the
    /// screen's last frame (`00012.leds.txt` and `00012.leds.png` beside `00012.png`): a grid
    /// of the board with the lit places marked and a legend, and a picture of the LEDs.
    pub(crate) fn show_leds(&mut self, table: &SimTable, screen: &Screen) -> io::Result<()> {
        self.leds.see(table, screen).map_err(io::Error::other)?;
        if let Some(dir) = self.frames {
            let path = dir.join(format!("{:05}.leds.txt", self.written));
            let mut text = self.leds.draw(table).join("\n");
            text.push('\n');
            std::fs::write(path, text)?;
            let layout = table.pipeline().sensing().layout();
            let png = dir.join(format!("{:05}.leds.png", self.written));
            crate::frames::write_leds_png(layout, self.leds.shown(), &png)?;
        }
        Ok(())
    }
}

/// Puts the Flag on column `col` of `seat`'s back row, swapping it with the piece standing there
/// (if any), as most players would place it: a Flag shuffled into the front row makes for a game
/// over in a handful of moves.
fn flag_to_back_row(deployment: &mut Deployment, seat: Seat, col: u8) {
    let back = if seat == RED { 0 } else { 9 };
    let Some(target) = Square::new(col, back) else {
        return;
    };
    let placements = &mut deployment.placements;
    let Some(flag) = placements.iter().position(|&(_, r)| r == Rank::Flag) else {
        return;
    };
    match placements.iter().position(|&(s, _)| s == target) {
        Some(other) => {
            placements[flag].1 = placements[other].1;
            placements[other].1 = Rank::Flag;
        }
        None => placements[flag].0 = target,
    }
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
                    format!("{} has no legal move left", seat_name(winner.opponent()))
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
        "Set-ups: shuffled from the seed, then each Flag put on its owner's back row."
    )?;
    writeln!(
        out,
        "Moves: Red moves first; a4-a5 is a move, a4xa5 an attack."
    )?;
    writeln!(
        out,
        "Table: simulated reed switches scanned every 10 ms into the umpire's sensing model and \
         referee; hands choose the game with the buttons, set up rank group by rank group and \
         make every move by lifting and placing pieces. OLED| lines are the umpire's screen."
    )?;
    writeln!(out)
}

/// Whose eyes the boards are seen through.
fn eyes_label(demo: &Demo) -> String {
    match demo.eyes {
        None => "the umpire's eyes".to_string(),
        Some(seat) => format!("as {} sees it", seat_name(seat)),
    }
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
