//! `umpire-sim`: the Umpire simulator on a desktop, no hardware needed.
//!
//! `umpire-sim demo classic --seed 1` plays a whole seeded game between two bots on a simulated
//! board, refereed by the firmware's referee through its sensing model, and prints it.

use std::io::{self, BufWriter, Write};

use anyhow::Context as _;
use boards::stratego::{Variant, BLUE, RED};
use boards::Seat;
use clap::{Parser, Subcommand, ValueEnum};
use firmware::referee::games::BoardLayout;
use host::demo::{self, Demo, Rules};

/// The Umpire simulator: electronic refereeing of board wargames, without the board.
#[derive(Debug, Parser)]
#[command(name = "umpire-sim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a whole seeded game between two bots on the simulated board, refereed by the
    /// umpire; print every move and what the OLED says.
    Demo(DemoArgs),
    /// Play at the simulated table in the terminal: type physical events, see the board and the
    /// OLED after each.
    Play(PlayArgs),
    /// Print a journaled game as a readable record (secrets redacted while it is unfinished).
    Replay(ReplayArgs),
    /// Run scenario files (host/SCENARIOS.md); exit non-zero naming the first failed line.
    Check(CheckArgs),
    /// Replay seeded bot games (Stratego and every table game) through the pipeline and print
    /// the touch-down-to-decision times, in simulated scan time (median, 95th percentile, max).
    Latency(LatencyArgs),
}

/// `umpire-sim latency`'s options.
#[derive(Debug, clap::Args)]
struct LatencyArgs {
    /// Seeds per game (1..=N).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=50))]
    seeds: u64,
    /// Also print each game's distribution.
    #[arg(long)]
    each: bool,
    /// Replay with every change waiting out the settle window (`decide_early` off), as before
    /// early decisions, for comparison.
    #[arg(long)]
    no_early: bool,
}

/// The game and its variant, as `demo` and `play` take them.
#[derive(Debug, clap::Args)]
struct GameChoice {
    /// The game to play.
    #[arg(value_enum)]
    game: GameArg,
    /// The game's variant as its menu names it (`basic`, `expert`,
    /// `2-players-historical-set-up`, ...; every game but Stratego Original and Duel).
    #[arg(long)]
    variant: Option<String>,
    /// Stratego: Waterloo's board layout file (the shipped one when left out); a file with a
    /// problem stops the game with every problem and its line.
    #[arg(long, value_name = "FILE")]
    layout: Option<std::path::PathBuf>,
    /// Napoléon 1815 under rule 6.2.4's option: a block in battle is seen only once it fires or
    /// fights (the umpire's `[napoleon] reveal_on_contact`; a scenario's `game` line says
    /// `reveal-on-contact`). Refused for any other game.
    #[arg(long)]
    reveal_on_contact: bool,
}

/// The Stratego: Waterloo board in `path`, checked; the shipped one for `None`.
fn board_layout(path: Option<&std::path::Path>) -> anyhow::Result<BoardLayout> {
    Ok(match path {
        None => BoardLayout::shipped(),
        Some(path) => firmware::game_data::load_waterloo_layout(path)?,
    })
}

/// The table games as the menu names them: "Stratego: Waterloo, ... and Napoleon 1815".
fn table_games() -> String {
    let names: Vec<&str> = firmware::referee::games::menu()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Which games an option applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Applies {
    /// Stratego Original and Duel.
    Stratego,
    /// The table games: every game on the menu after Stratego Original and Duel.
    Table,
}

impl GameChoice {
    /// The table game chosen; `None` for Stratego.
    fn table(&self) -> anyhow::Result<Option<host::table::TableGameEntry>> {
        let why = if self.game == GameArg::Classic {
            "has no variants (Duel is its own game: `duel`)"
        } else {
            "has no variants"
        };
        self.refuse_unless(Applies::Table, "--variant", why, self.variant.is_some())?;
        if self.layout.is_some() && self.game != GameArg::Waterloo {
            anyhow::bail!(
                "--layout applies to Stratego: Waterloo only; {} has no layout file: leave \
                 --layout out",
                self.game.title()
            );
        }
        if self.reveal_on_contact && self.game != GameArg::Napoleon {
            anyhow::bail!(
                "--reveal-on-contact applies to Napoleon 1815 only (its rule 6.2.4's option); \
                 leave it out for {}",
                self.game.title()
            );
        }
        let layout = board_layout(self.layout.as_deref())?;
        let entry = self.game.table(self.variant.as_deref())?;
        Ok(entry.map(|mut e| {
            e.kind = e
                .kind
                .on_layout(layout)
                .on_napoleon_reveal_on_contact(self.reveal_on_contact);
            e
        }))
    }

    /// An error naming the games `option` applies to, and `why` the chosen game does not take
    /// it, when it is `given` for another game: an option that does nothing is never silently
    /// ignored.
    fn refuse_unless(
        &self,
        applies: Applies,
        option: &str,
        why: &str,
        given: bool,
    ) -> anyhow::Result<()> {
        let stratego = matches!(self.game, GameArg::Classic | GameArg::Duel);
        if !given || stratego == (applies == Applies::Stratego) {
            return Ok(());
        }
        let games = match applies {
            Applies::Stratego => "Stratego Original and Duel".to_string(),
            Applies::Table => table_games(),
        };
        let game = self.game.title();
        anyhow::bail!("{option} applies to {games} only; {game} {why}: leave {option} out")
    }

    /// The Stratego variant chosen (Classic unless Duel).
    fn stratego(&self) -> Variant {
        match self.game {
            GameArg::Duel => Variant::Duel,
            _ => Variant::Classic,
        }
    }
}

#[derive(Debug, clap::Args)]
struct PlayArgs {
    #[command(flatten)]
    game: GameChoice,
    /// Seed for the umpire's chance and for `setup`'s shuffled armies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the referee's journal of the game to FILE after every line (read it with
    /// `replay`).
    #[arg(long, value_name = "FILE")]
    journal: Option<std::path::PathBuf>,
    /// Serve the phone pages on PORT: the table's page and each seat's (the addresses are
    /// printed once the game is chosen).
    #[arg(long, value_name = "PORT")]
    serve: Option<u16>,
}

#[derive(Debug, clap::Args)]
struct ReplayArgs {
    /// The journal file (as `demo --journal FILE` or the umpire writes it).
    journal: std::path::PathBuf,
    /// Show every rank. Refused for an unfinished game unless --force is given too.
    #[arg(long)]
    reveal: bool,
    /// With --reveal: show the secrets of an unfinished game (every player should agree).
    #[arg(long, requires = "reveal")]
    force: bool,
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Scenario files to run, in order.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Stratego: Waterloo's board layout file for the scenarios that play it (the shipped one
    /// when left out).
    #[arg(long, value_name = "FILE")]
    layout: Option<std::path::PathBuf>,
}

#[derive(Debug, clap::Args)]
struct DemoArgs {
    #[command(flatten)]
    game: GameChoice,
    /// Seed for the set-ups and the bots: the same seed plays the same game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Repetition rules (Stratego Original and Duel): isf (two-squares and more-squares rules,
    /// the default) or plain (none).
    #[arg(long, value_enum)]
    rules: Option<RulesArg>,
    /// Stop without a result after this many moves.
    #[arg(long, default_value_t = 3000, value_name = "N")]
    max_moves: u32,
    /// Print only the battles and the result.
    #[arg(long)]
    quiet: bool,
    /// Print boards as this seat sees them instead of with every rank shown (Stratego Original
    /// and Duel).
    #[arg(long, value_enum, value_name = "SEAT")]
    view: Option<SeatArg>,
    /// Print the board after every N moves (0: only at the start and the end; default 50;
    /// Stratego Original and Duel).
    #[arg(long, value_name = "N")]
    board_every: Option<u32>,
    /// Also write the referee's journal of the game to FILE (read it with `replay`).
    #[arg(long, value_name = "FILE")]
    journal: Option<std::path::PathBuf>,
    /// Write every OLED frame the umpire shows as a PNG into DIR (created if missing).
    #[arg(long, value_name = "DIR")]
    frames: Option<std::path::PathBuf>,
    /// Serve the phone pages on PORT (the table's page and each seat's, addresses printed),
    /// play at a pace a browser can follow, and keep serving after the game until Ctrl-C
    /// (every game).
    #[arg(long, value_name = "PORT")]
    serve: Option<u16>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GameArg {
    /// Stratego Original: 40 pieces each.
    Classic,
    /// Stratego Duel: 10 pieces each.
    Duel,
    /// Stratego: Waterloo (`--variant basic`, `standard`, `expert`, ...).
    Waterloo,
    /// Piecepack at Waterloo (`--variant` a set of rulings).
    Piecepack,
    /// Sa Belle Alliance, with the example card set on the shipped map layout.
    Sba,
    /// Napoléon 1815 on the shipped map and layout (`--variant 2-players-historical-set-up`,
    /// `2-players-own-set-up`, `3-players-...`).
    Napoleon,
}

impl GameArg {
    /// The game's name, as the menu shows it.
    fn title(self) -> &'static str {
        match self {
            GameArg::Classic => "Stratego Original",
            GameArg::Duel => "Stratego Duel",
            GameArg::Waterloo => "Stratego: Waterloo",
            GameArg::Piecepack => "Piecepack at Waterloo",
            GameArg::Sba => "Sa Belle Alliance",
            GameArg::Napoleon => "Napoleon 1815",
        }
    }

    /// The table game this names, in `variant` (its first when `None`).
    fn table(self, variant: Option<&str>) -> anyhow::Result<Option<host::table::TableGameEntry>> {
        let name = match self {
            GameArg::Classic | GameArg::Duel => return Ok(None),
            GameArg::Waterloo => "stratego-waterloo",
            GameArg::Piecepack => "piecepack",
            GameArg::Sba => "sa-belle-alliance",
            GameArg::Napoleon => "napoleon",
        };
        host::table::find_game(name, variant)
            .map(Some)
            .map_err(anyhow::Error::msg)
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum RulesArg {
    /// Tournament rules: two-squares (limit 3) and more-squares.
    Isf,
    /// No repetition rules.
    Plain,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SeatArg {
    /// Red, who sits at rank 1 and moves first.
    Red,
    /// Blue, who sits at rank 10.
    Blue,
}

impl DemoArgs {
    /// Refuses every option given that the chosen game does not take.
    fn check_options(&self) -> anyhow::Result<()> {
        let g = &self.game;
        let rules = "has no repetition rules";
        g.refuse_unless(Applies::Stratego, "--rules", rules, self.rules.is_some())?;
        let boards = "prints no boards (its OLED lines show the game)";
        g.refuse_unless(Applies::Stratego, "--view", boards, self.view.is_some())?;
        let every = self.board_every.is_some();
        g.refuse_unless(Applies::Stratego, "--board-every", boards, every)?;
        Ok(())
    }

    fn to_demo(&self) -> Demo {
        Demo {
            rules: match self.rules {
                Some(RulesArg::Isf) | None => Rules::Isf,
                Some(RulesArg::Plain) => Rules::Plain,
            },
            max_moves: self.max_moves,
            quiet: self.quiet,
            eyes: self.view.map(|s| -> Seat {
                match s {
                    SeatArg::Red => RED,
                    SeatArg::Blue => BLUE,
                }
            }),
            board_every: self.board_every.unwrap_or(50),
            ..Demo::new(self.game.stratego(), self.seed)
        }
    }
}

fn main() -> std::process::ExitCode {
    match run(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // `umpire-sim replay game.ujn | head` closes the pipe early: not an error.
        Err(e) if closed_pipe(&e) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // One line a cause, no backtrace: the message says what to do.
            eprintln!("umpire-sim: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Whether `e` is standard output closed by the reader (`| head`), whatever wraps it.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        let io = cause.downcast_ref::<io::Error>().or_else(|| {
            match cause.downcast_ref::<host::replay::ReplayError>() {
                Some(host::replay::ReplayError::Write(e)) => Some(e),
                _ => None,
            }
        });
        io.is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Demo(args) => {
            args.check_options()?;
            if let Some(dir) = &args.frames {
                std::fs::create_dir_all(dir).with_context(|| {
                    format!("cannot create the frames folder {}", dir.display())
                })?;
            }
            if let Some(port) = args.serve {
                let slot = firmware::web::Slot::new();
                let listener =
                    std::net::TcpListener::bind(("0.0.0.0", port)).with_context(|| {
                        format!("cannot listen on port {port}: choose a free one with --serve")
                    })?;
                let server = firmware::web::server::Server::start(listener, slot.clone())
                    .context("cannot start the phone pages' server")?;
                let serve = demo::Serve {
                    publisher: firmware::web::Publisher::new(slot),
                    address: format!("localhost:{}", server.addr().port()),
                    pace: std::time::Duration::from_millis(400),
                    // The codes point at this machine's address on the local network, so a
                    // phone can scan them off the printed OLED or the frames.
                    handout: Some(firmware::web::handout::Handout::new(
                        firmware::web::link::Address::Detect {
                            port: server.addr().port(),
                        },
                    )),
                };
                let mut out = io::stdout().lock();
                match args.game.table()? {
                    Some(entry) => host::table::demo_served(
                        &entry,
                        args.seed,
                        args.max_moves,
                        args.quiet,
                        args.frames.as_deref(),
                        Some(serve),
                        &mut out,
                    )
                    .map(|_| ()),
                    None => {
                        demo::run_served(&args.to_demo(), args.frames.as_deref(), serve, &mut out)
                            .map(|_| ())
                    }
                }
                .context("the demo failed")?;
                writeln!(out, "The game is over; the pages stay up until Ctrl-C.")?;
                out.flush()?;
                loop {
                    std::thread::park();
                }
            }
            // Before the game is played: never over an earlier journal, never a game lost at
            // its end for a path that could not take it.
            if let Some(path) = &args.journal {
                host::play::check_new_journal(path)?;
            }
            let mut out = BufWriter::new(io::stdout().lock());
            let played = match args.game.table()? {
                Some(entry) => host::table::demo(
                    &entry,
                    args.seed,
                    args.max_moves,
                    args.quiet,
                    args.frames.as_deref(),
                    &mut out,
                )
                .map(|p| (p.journal, p.frames)),
                None => demo::run_with_frames(&args.to_demo(), args.frames.as_deref(), &mut out)
                    .map(|p| (p.journal, p.frames)),
            }
            .and_then(|played| Ok(out.flush().map(|_| played)?));
            let (journal, frames) = match played {
                // `umpire-sim demo classic | head` closes the pipe early: not an error.
                Err(demo::Error::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
                    return Ok(())
                }
                Err(e) => Err(e).context("the demo failed")?,
                Ok(played) => played,
            };
            if let Some(dir) = &args.frames {
                eprintln!("{frames} OLED frames written to {}", dir.display());
            }
            if let Some(path) = &args.journal {
                // Owner-only: a journal holds both secret set-ups.
                firmware::journal::write_private(path, &journal)
                    .with_context(|| format!("cannot write the journal to {}", path.display()))?;
            }
        }
        Command::Play(args) => {
            // The game starts from the scenario `game` line the options make: an option given
            // here (--reveal-on-contact) is the line's option, so the two cannot disagree.
            let (line, title, layout) = match args.game.table()? {
                Some(entry) => (
                    host::table::game_line(&entry),
                    host::table::options_on(&entry)
                        .fold(format!("{}: {}", entry.name, entry.variant), |title, o| {
                            format!("{title}, {}", o.name)
                        }),
                    match entry.kind {
                        firmware::referee::GameKind::Waterloo { choice } => choice.layout,
                        _ => BoardLayout::shipped(),
                    },
                ),
                None => {
                    let variant = args.game.stratego();
                    (
                        host::play::stratego_line(variant).to_string(),
                        variant.to_string(),
                        BoardLayout::shipped(),
                    )
                }
            };
            let mut _server = None;
            let serve = match args.serve {
                Some(port) => {
                    let slot = firmware::web::Slot::new();
                    let listener =
                        std::net::TcpListener::bind(("0.0.0.0", port)).with_context(|| {
                            format!("cannot listen on port {port}: choose a free one with --serve")
                        })?;
                    let server = firmware::web::server::Server::start(listener, slot.clone())
                        .context("cannot start the phone pages' server")?;
                    let address = format!("localhost:{}", server.addr().port());
                    _server = Some(server);
                    Some((firmware::web::Publisher::new(slot), address))
                }
                None => None,
            };
            let stdin = io::stdin().lock();
            let mut out = io::stdout().lock();
            host::play::run_served(
                &line,
                &title,
                args.seed,
                layout,
                args.journal.as_deref(),
                serve,
                stdin,
                &mut out,
            )?;
        }
        Command::Replay(args) => {
            let bytes = std::fs::read(&args.journal)
                .with_context(|| format!("cannot read {}", args.journal.display()))?;
            let mut out = BufWriter::new(io::stdout().lock());
            host::replay::write_replay(&bytes, args.reveal, args.force, &mut out)
                .with_context(|| format!("cannot replay {}", args.journal.display()))?;
            out.flush()?;
        }
        Command::Latency(args) => {
            let games = host::latency::recorded_games(args.seeds)
                .map_err(|e| anyhow::anyhow!("a recorded game could not be played: {e}"))?;
            let sensing = firmware::sensing::SensingConfig {
                decide_early: !args.no_early,
                ..firmware::sensing::SensingConfig::default()
            };
            let mut all = Vec::new();
            for game in &games {
                let samples = host::latency::touchdown_latencies(game, sensing);
                if args.each {
                    if let Some(d) = host::latency::Distribution::of(&samples) {
                        println!("{}: {d}", game.name);
                    }
                }
                all.extend(samples);
            }
            let d = host::latency::Distribution::of(&all)
                .ok_or_else(|| anyhow::anyhow!("the games answered no touch-down"))?;
            println!(
                "{} games, scans every {} ms, {}: {d}",
                games.len(),
                host::sim::SCAN_MS,
                if args.no_early {
                    "every change waiting out the settle window"
                } else {
                    "default sensing"
                }
            );
        }
        Command::Check(args) => {
            let layout = board_layout(args.layout.as_deref())?;
            let mut waterloo = false;
            for file in &args.files {
                match host::scenario::run_file_on(file, layout) {
                    Ok(passed) => {
                        waterloo |= passed.waterloo;
                        println!(
                            "ok    {} ({} steps, {} expectations)",
                            file.display(),
                            passed.steps,
                            passed.expectations
                        );
                    }
                    Err(failure) => {
                        println!("FAIL  {failure}");
                        std::process::exit(1);
                    }
                }
            }
            if args.layout.is_some() && !waterloo {
                anyhow::bail!(
                    "--layout applies to Stratego: Waterloo only, and no scenario given plays \
                     it (`game stratego-waterloo ...`): leave --layout out"
                );
            }
        }
    }
    Ok(())
}
