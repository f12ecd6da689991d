//! `umpire`: the referee service on the Pi, and the builder's tools.
//!
//! ```text
//! umpire [--config FILE] [--simulated] check-config   # read and check the configuration
//! umpire [--config FILE] [--simulated] doctor         # check the display, reader and squares
//! umpire [--config FILE] [--simulated] calibrate [--game NAME]  # live: which places and tags read
//! umpire [--config FILE] run                          # the service (systemd starts it)
//! umpire setup [--dry-run]                            # turn on I2C (400 kHz) and SPI
//! umpire [--config FILE] blank                        # switch the OLED off (service stop)
//! ```
//!
//! `--simulated` runs against the simulated board (no hardware needed); `--fault` injects the
//! faults a builder meets, to see what the tools say about them.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use firmware::config::square_name;
use firmware::config::{Config, GameName, SensorConfig};
use firmware::display::{Display, DEFAULT_ADDRESS};
use firmware::doctor::{
    check_display, check_display_link, check_expander, check_reader, check_sensors, has_problems,
    BoardShape, Calibration, CalibrationEvent, Finding, SensedBoard,
};
use firmware::drivers::nfc::mfrc522::Mfrc522;
use firmware::drivers::nfc::Mfrc522Ready;
use firmware::drivers::shift_chain::{ChainOrder, ShiftChain, ShiftChainConfig};
use firmware::inputs::Scanner;
use firmware::sensing::{Occupancy, SensedCell, TagUid};
use firmware::sim::{
    ChainWiring, NoDelay, ReaderFault, SimBoard, SimChain, SimI2c, SimMfrc522, SimPin, SimTags,
    SwitchFault,
};

const DEFAULT_CONFIG: &str = "/etc/umpire/umpire.toml";

#[derive(Parser, Debug)]
#[command(
    name = "umpire",
    version,
    about = "The electronic referee for physical wargames"
)]
struct Cli {
    /// The configuration file.
    #[arg(long, global = true, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
    /// Use the simulated board instead of hardware (no configuration file needed).
    #[arg(long, global = true)]
    simulated: bool,
    /// With --simulated: a fault to put in the simulated board, e.g. stuck:e4, dead:c7,
    /// flicker:j10 (a square, or, on a board with [[board.tray]] slots, a slot's cell number:
    /// stuck:125), row:3 (a matrix's shorted row), no-display, oled-lost (lost and back), unplugged (the sensor chain's cable),
    /// unplugged-high, missing-chip, and for NFC reader N (`:N` optional, default 1):
    /// no-reader:N (absent), clone-reader:N, uninit-reader:N (ignores writes, never
    /// initialised), reset-reader:N (never leaves reset). Repeatable.
    #[arg(long = "fault", global = true)]
    faults: Vec<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Referee games: the service (what systemd starts at boot).
    Run,
    /// Read the configuration file and list every problem with its line.
    CheckConfig,
    /// Check the hardware the configuration describes and say what to fix.
    Doctor {
        /// Scans of the empty board to take.
        #[arg(long, default_value_t = 100)]
        scans: u32,
    },
    /// Show live which squares and tray slots read occupied and which tags are read, to test
    /// every place.
    Calibrate {
        /// Stop after this many seconds (default: run until Ctrl-C, which ends with the report).
        #[arg(long)]
        seconds: Option<u64>,
        /// Ask only for the places this game uses (classic, duel, waterloo, piecepack,
        /// sa-belle-alliance, napoleon): a board wired for one game's map has no switch under
        /// the squares that are no place of it.
        #[arg(long, value_parser = parse_game)]
        game: Option<GameName>,
    },
    /// Turn on I2C at 400 kHz and SPI (SPI1 too for LEDs) in the Pi's config.txt (keeps a
    /// backup; reboot after).
    Setup {
        /// Print exactly what would change, and change nothing.
        #[arg(long)]
        dry_run: bool,
        /// The file to edit (default: /boot/firmware/config.txt, else /boot/config.txt).
        #[arg(long)]
        config_txt: Option<PathBuf>,
    },
    /// Switch the OLED off, so a stopped umpire shows no stale screen (the unit's ExecStopPost).
    Blank,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("umpire: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn load_config(cli: &Cli) -> Result<Config> {
    if cli.simulated && !cli.config.exists() {
        return Config::parse("[sensor]\nkind = \"simulated\"\n[oled]\nbus = \"i2c1\"\n")
            .map_err(|p| anyhow::anyhow!("{p}"));
    }
    let text = std::fs::read_to_string(&cli.config).map_err(|e| {
        // The fix for the cause: a missing file, a file the user may not read, a folder.
        let fix = match e.kind() {
            std::io::ErrorKind::PermissionDenied => {
                "run it with sudo, or let this user read the file"
            }
            _ if cli.config.is_dir() => "that is a folder: give the file with --config",
            _ => "give another file with --config, or try --simulated",
        };
        anyhow::anyhow!("cannot read {}: {e} ({fix})", cli.config.display())
    })?;
    Config::parse(&text).map_err(|problems| {
        let n = problems.0.len();
        let mut msg = format!(
            "{} has {n} problem{}:",
            cli.config.display(),
            if n == 1 { "" } else { "s" }
        );
        for p in &problems.0 {
            msg.push_str(&format!(
                "\n  {}:{}: {}",
                cli.config.display(),
                p.line,
                p.message
            ));
        }
        anyhow::anyhow!(msg)
    })
}

fn run(cli: &Cli) -> Result<ExitCode> {
    // A fault asked for and never put in is a check that passes for the wrong reason.
    if !cli.faults.is_empty()
        && matches!(
            cli.command,
            Command::Setup { .. } | Command::Blank | Command::Run | Command::CheckConfig
        )
    {
        bail!(
            "--fault puts a fault in the simulated board for `doctor` and `calibrate`: use it \
             with those and --simulated"
        );
    }
    match &cli.command {
        Command::Setup {
            dry_run,
            config_txt,
        } => return setup(cli, config_txt.as_deref(), *dry_run),
        Command::Blank => return blank(cli),
        Command::Run if !cli.simulated => return serve(cli),
        _ => {}
    }
    let config = load_config(cli)?;
    let simulated = cli.simulated || config.sensor == SensorConfig::Simulated;
    if !cli.faults.is_empty() && !simulated {
        bail!(
            "--fault puts a fault in the simulated board, and this runs on the hardware of {}: \
             add --simulated (a real board's faults are what `umpire doctor` finds)",
            cli.config.display()
        );
    }
    match &cli.command {
        Command::Run => {
            if simulated {
                bail!(
                    "the simulated board has no hands to play on it: watch a game with \
                     `umpire-sim demo classic`, or play one in the terminal with `umpire-sim \
                     play classic`"
                );
            }
            serve(cli)
        }
        Command::CheckConfig => {
            // Every data file's problems at once: a broken layout does not hide a broken map.
            let mut broken = Vec::new();
            let waterloo = firmware::game_data::waterloo_layout(&config, &cli.config)
                .map_err(|e| broken.push(e))
                .ok();
            let sba = firmware::game_data::sba_set(&config, &cli.config)
                .map_err(|e| broken.push(e))
                .ok();
            // The tags name blocks of the order of battle: checked once it reads.
            let napoleon = firmware::game_data::napoleon_set(&config, &cli.config)
                .map_err(|e| broken.push(e))
                .ok();
            if let Some(napoleon) = napoleon {
                if let Err(e) = firmware::game_data::tag_registry(&config, &cli.config, napoleon) {
                    broken.push(e);
                }
            }
            // What the board can play, judged on the data files just read.
            let beyond = match (waterloo, sba, napoleon) {
                (Some(w), Some(s), Some(n)) if broken.is_empty() => {
                    firmware::game_data::games_beyond_the_board(&config, w, s, n)
                }
                _ if broken.len() == 1 => return Err(broken.remove(0).into()),
                _ => return Err(firmware::game_data::DataFileError::Several(broken).into()),
            };
            let mut warnings = config.warnings();
            warnings.extend(config.game_beyond_the_board(&beyond));
            println!(
                "{}: {} — {}x{} board, {}, {} GPIO pins wired, sensing timing: {}",
                if cli.config.exists() {
                    cli.config.display().to_string()
                } else {
                    "(simulated)".into()
                },
                match warnings.len() {
                    0 => "fine".to_string(),
                    1 => "works, with 1 warning".to_string(),
                    n => format!("works, with {n} warnings"),
                },
                config.columns,
                config.rows,
                sensor_summary(&config),
                config.gpio_pins().len(),
                config.sensing_summary()
            );
            for w in &warnings {
                println!("  warning: {w}");
            }
            for b in &beyond {
                println!("  not on this board: {}: {}", b.game, b.fix);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Doctor { scans } => {
            let findings = if simulated {
                doctor_simulated(&config, &cli.faults, *scans)?
            } else {
                doctor_hardware(&config, *scans)?
            };
            let findings: Vec<Finding> = config_findings(&config, &cli.config)
                .into_iter()
                .chain(findings)
                .collect();
            for f in &findings {
                println!("{f}");
            }
            if has_problems(&findings) {
                println!("\nSome checks failed: fix the PROBLEM lines above, then run `umpire doctor` again.");
                Ok(ExitCode::from(1))
            } else {
                println!("\nEverything the configuration describes answers.");
                Ok(ExitCode::SUCCESS)
            }
        }
        Command::Calibrate { seconds, game } => {
            let board = calibration_board(&config, &cli.config, *game)?;
            let cal = if simulated {
                calibrate_simulated(&config, board, &cli.faults)?
            } else {
                calibrate_hardware(&config, board, *seconds)?
            };
            let wired_for = wired_for(&config, &cli.config, &cal);
            Ok(report_calibration(&cal, simulated, wired_for))
        }
        Command::Setup { .. } | Command::Blank => unreachable!("handled before the configuration"),
    }
}

/// What `doctor` finds in the configuration itself: the sensing timing in use, each warning,
/// and the games' data files (a problem when one cannot be used).
fn config_findings(config: &Config, path: &std::path::Path) -> Vec<Finding> {
    use firmware::doctor::Severity;
    let timing = Finding {
        severity: Severity::Ok,
        subject: "sensing timing".into(),
        detail: format!(
            "{} ([sensing] in the configuration)",
            config.sensing_summary()
        ),
        fix: String::new(),
    };
    let mut out: Vec<Finding> = std::iter::once(timing)
        .chain(config.warnings().into_iter().map(|w| Finding {
            severity: Severity::Warning,
            subject: "configuration".into(),
            detail: w.problem,
            fix: w.fix,
        }))
        .collect();
    let mut broken = |subject: &str, e: firmware::game_data::DataFileError| {
        out.push(Finding {
            severity: Severity::Problem,
            subject: subject.into(),
            detail: e.to_string(),
            fix: "fix every line listed; until then the umpire starts no game".into(),
        });
    };
    let waterloo = firmware::game_data::waterloo_layout(config, path)
        .map_err(|e| broken("Waterloo layout", e))
        .ok();
    let sba = firmware::game_data::sba_set(config, path)
        .map_err(|e| broken("Sa Belle Alliance data", e))
        .ok();
    let napoleon = firmware::game_data::napoleon_set(config, path)
        .map_err(|e| broken("Napoleon data", e))
        .ok();
    if let Some(napoleon) = napoleon {
        if let Err(e) = firmware::game_data::tag_registry(config, path, napoleon) {
            out.push(Finding {
                severity: Severity::Problem,
                subject: "NFC tags".into(),
                detail: e.to_string(),
                fix: "fix every line listed; the umpire does not start without it".into(),
            });
        }
    }
    // The games this board cannot play, judged on the data files just read (none when one
    // does not read: its problem is above): a warning for the one the menu opens on, the rest
    // told.
    if let (Some(waterloo), Some(sba), Some(napoleon)) = (waterloo, sba, napoleon) {
        let beyond = firmware::game_data::games_beyond_the_board(config, waterloo, sba, napoleon);
        out.extend(config.game_beyond_the_board(&beyond).map(|w| Finding {
            severity: Severity::Warning,
            subject: "configuration".into(),
            detail: w.problem,
            fix: w.fix,
        }));
        out.extend(beyond.into_iter().map(|b| Finding {
            severity: Severity::Ok,
            subject: "games".into(),
            detail: format!("{} is not played on this board: {}", b.game, b.fix),
            fix: String::new(),
        }));
    }
    out
}

/// `umpire setup`: the boot configuration edits the umpire needs.
fn setup(cli: &Cli, path: Option<&std::path::Path>, dry_run: bool) -> Result<ExitCode> {
    use firmware::setup::{apply, config_txt, plan_for, BootNeeds, SetupError};
    // What umpire.toml wires: SPI1's overlay only for a device on it (the LED chain), SPI0 off
    // and no HAT EEPROM probe for a matrix on GPIO (Option C).
    let needs = if cli.config.exists() {
        load_config(cli)?.boot_needs()
    } else {
        println!(
            "No {}: only I2C and SPI0 are set up. Install the umpire package (or give \
             --config) and run this again if the board has LEDs on SPI1 or its matrix on GPIO.",
            cli.config.display()
        );
        BootNeeds::default()
    };
    let spi1 = needs.spi1_chip_selects;
    let path = match path {
        Some(p) => p.to_path_buf(),
        None => config_txt(std::path::Path::new("/")).ok_or(SetupError::NoConfigTxt)?,
    };
    let text = std::fs::read_to_string(&path).map_err(|source| SetupError::Io {
        path: path.clone(),
        source,
    })?;
    let planned = plan_for(&text, needs);
    if planned.changes.is_empty() {
        println!(
            "{}: I2C is on at 400 kHz and SPI is {}{}{} already; nothing to change.",
            path.display(),
            if needs.spi0 { "on" } else { "off" },
            if spi1.is_some() { ", SPI1 on" } else { "" },
            if needs.no_eeprom_read {
                ", the HAT EEPROM probe off,"
            } else {
                ""
            }
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}:", path.display());
    for change in &planned.changes {
        println!("  {change}");
    }
    if dry_run {
        println!("Dry run: nothing written. Run `sudo umpire setup` to make these changes.");
        return Ok(ExitCode::SUCCESS);
    }
    let applied = apply(&path, needs)?;
    if let Some(backup) = applied.backup {
        println!("Written; the old file is kept as {}.", backup.display());
    }
    println!("Reboot for the changes to take effect: sudo reboot");
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "pi")]
/// The OLED's bus device and address: the configured ones, or the pin map's (`/dev/i2c-1` at
/// 0x3C) when the configuration cannot be read, so a fault can always be shown.
fn oled_place(config: Option<&Config>) -> Option<(PathBuf, u8)> {
    match config {
        Some(c) => c.oled.map(|d| (c.i2c_path(d.bus).to_path_buf(), d.address)),
        None => Some((PathBuf::from("/dev/i2c-1"), DEFAULT_ADDRESS)),
    }
}

/// "15 74HC165s on spi0 CE1", for check-config.
fn sensor_summary(config: &Config) -> String {
    let sensor = match &config.sensor {
        SensorConfig::ShiftChain { spi, chips, .. } => format!(
            "{chips} 74HC165s on {} CE{}",
            spi.bus.name(),
            spi.chip_select.number()
        ),
        SensorConfig::Matrix {
            bus,
            rows,
            columns,
            row_expander,
            column_expander,
        } => format!(
            "a {rows}x{columns} matrix on PCF8575s {row_expander:#04x}/{column_expander:#04x} \
             ({})",
            bus.name()
        ),
        SensorConfig::GpioMatrix { rows, columns, .. } => {
            format!("a {}x{} matrix on GPIO", rows.len(), columns.len())
        }
        SensorConfig::Expanders { bus, addresses } => {
            format!("{} PCF8575s on {}", addresses.len(), bus.name())
        }
        SensorConfig::Simulated => "the simulated board".into(),
    };
    match &config.nfc {
        Some(nfc) => {
            let (readers, squares) = (nfc.readers.len(), nfc.cells().len());
            format!(
                "{sensor}, NFC with {readers} reader{} over {squares} square{}",
                if readers == 1 { "" } else { "s" },
                if squares == 1 { "" } else { "s" }
            )
        }
        None => format!("{sensor}, no NFC"),
    }
}

/// The PCF8575s the sensor uses, to check: bus number, address, role (what each is for), and
/// the setting that gives the address.
fn expanders(config: &Config, board: &SensedBoard) -> Vec<(u8, u8, String, &'static str)> {
    match &config.sensor {
        SensorConfig::Matrix {
            bus,
            row_expander,
            column_expander,
            ..
        } => vec![
            (
                bus.number(),
                *row_expander,
                "matrix rows".into(),
                "[sensor.matrix] row_expander",
            ),
            (
                bus.number(),
                *column_expander,
                "matrix columns".into(),
                "[sensor.matrix] column_expander",
            ),
        ],
        SensorConfig::Expanders { bus, addresses } => {
            // Each chip named by the places its pins read, as `[board] cells` maps them.
            let chips = match board.wiring() {
                firmware::doctor::Wiring::Expanders(chips) => chips.as_slice(),
                _ => &[],
            };
            addresses
                .iter()
                .enumerate()
                .map(|(i, &a)| {
                    let role = match chips.get(i) {
                        Some((_, read)) => board.span(read),
                        None => format!("inputs {}-{}", 16 * i + 1, 16 * i + 16),
                    };
                    (bus.number(), a, role, "[sensor.expanders] addresses")
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

struct SimRig {
    board: SimBoard,
    display_present: bool,
    /// The 74HC165 chain the board is read through (a `shift_chain` or `simulated` sensor):
    /// the real driver on a simulated bus, so its chain check runs.
    chain: Option<ShiftChain<SimChain, SimPin, NoDelay>>,
    /// The OLED drops off the bus during the link check and comes back.
    display_lost: bool,
    /// The simulated NFC readers: each one's region and fault.
    readers: Vec<(Vec<SensedCell>, Option<ReaderFault>)>,
    /// The tags on the simulated board.
    tags: SimTags,
}

impl SimRig {
    /// One scan of the simulated board, through the simulated chain if there is one.
    fn scan(&mut self) -> Result<Occupancy, String> {
        let seen = self.board.scan()?;
        match &mut self.chain {
            None => Ok(seen),
            Some(chain) => {
                chain.bus_mut().latch(seen);
                chain.scan().map_err(|e| e.to_string())
            }
        }
    }

    /// The simulated readers, uninitialised, each with its region.
    fn readers(&self) -> Vec<(Mfrc522<SimMfrc522, NoDelay>, Vec<SensedCell>)> {
        self.readers
            .iter()
            .map(|(region, fault)| {
                let chip = SimMfrc522::under(region, self.tags.clone(), *fault);
                (Mfrc522::new(chip, NoDelay), region.clone())
            })
            .collect()
    }
}

/// The simulated 74HC165 chain for `config` wired as `wiring`, if its sensor is a chain (or the
/// simulated board): the chips configured (or enough for the board), mapped by `[board] cells`
/// or the pin map's order.
fn sim_chain(
    config: &Config,
    wiring: ChainWiring,
) -> Result<Option<ShiftChain<SimChain, SimPin, NoDelay>>> {
    let chips = match chain_length(config) {
        Some(chips) => chips,
        None if wiring == ChainWiring::Healthy => return Ok(None),
        None => bail!(
            "the chain faults (unplugged, unplugged-high, missing-chip) simulate the 74HC165 \
             chain: use them with [sensor] kind = \"shift_chain\" or \"simulated\""
        ),
    };
    let order = ChainOrder::schematic().map_err(anyhow::Error::msg)?;
    let cells = config
        .chain_cells(&order, chips)
        .map_err(anyhow::Error::msg)?;
    let bus = SimChain::new(cells.clone(), order.check(), wiring);
    let chain_config = ShiftChainConfig {
        cells: Some(cells),
        load_pulse_ns: 0,
        ..ShiftChainConfig::new(chips * 8, order.check())
    };
    let chain = ShiftChain::new(bus, SimPin, NoDelay, chain_config).map_err(anyhow::Error::msg)?;
    Ok(Some(chain))
}

/// The simulated board's NFC regions: the configured ones, or, with no `[nfc]` section, one
/// reader under each pair of squares of the first row (a demonstration bank).
fn simulated_regions(config: &Config) -> Vec<Vec<SensedCell>> {
    match &config.nfc {
        Some(nfc) => nfc.readers.clone(),
        None => (0..u16::from(config.columns))
            .collect::<Vec<_>>()
            .chunks(2)
            .map(|pair| pair.iter().copied().map(SensedCell::new).collect())
            .collect(),
    }
}

/// Said when the simulated board's NFC readers are the demonstration bank.
const DEMO_BANK: &str = "NFC (simulated): no [nfc] in the configuration, so one simulated reader \
     under each pair of squares of row 1";

/// "a1 b1": a region's squares by name.
fn region_names(config: &Config, region: &[SensedCell]) -> String {
    let names: Vec<String> = region
        .iter()
        .map(|&c| square_name(c, config.columns))
        .collect();
    names.join(" ")
}

/// The tag the simulated builder's piece carries.
fn simulated_tag() -> TagUid {
    TagUid::new(&[0x04, 0xA2, 0x1B, 0x7C, 0x33, 0x5E, 0x80]).unwrap_or_else(|_| unreachable!())
}

fn shape(config: &Config) -> BoardShape {
    BoardShape {
        columns: config.columns,
        rows: config.rows,
    }
}

/// Every square and tray slot of the configured board, and how its switches are read.
fn sensed_board(config: &Config) -> SensedBoard {
    use firmware::doctor::Wiring;
    let board = SensedBoard::new(shape(config), &config.layout_setup());
    let wiring = match &config.sensor {
        SensorConfig::Matrix { .. } | SensorConfig::GpioMatrix { .. } => Wiring::Matrix,
        SensorConfig::Expanders { addresses, .. } => {
            expander_chips(config, addresses).map_or(Wiring::Direct, Wiring::Expanders)
        }
        // The simulated board is read through a simulated chain ([`sim_chain`]).
        SensorConfig::ShiftChain { .. } | SensorConfig::Simulated => {
            match chain_length(config).and_then(|chips| chain_chips(config, chips)) {
                Some(chips) => Wiring::Chain(chips),
                None => Wiring::Direct,
            }
        }
    };
    board.wired(wiring).read_through(config.sensor_wires())
}

/// Each PCF8575 of `addresses` with the places its sixteen pins read (`[board] cells`, or pin
/// `16 * chip + n` reading cell `16 * chip + n`); `None` if the list does not fit the chips
/// (`check-config` says why).
fn expander_chips(config: &Config, addresses: &[u8]) -> Option<Vec<(u8, Vec<SensedCell>)>> {
    use firmware::drivers::expander::PINS_PER_CHIP;
    let cells = config.cell_map(addresses.len() * PINS_PER_CHIP).ok()?;
    let places = config.places();
    Some(by_chip(addresses.iter().copied(), PINS_PER_CHIP, |i| {
        match &cells {
            Some(cells) => cells.cell(i),
            None => Some(SensedCell::new(i as u16)),
        }
        .filter(|c| usize::from(c.number()) < places)
    }))
}

/// Each chip, named by `names` in the order its inputs are read, `per_chip` inputs a chip,
/// with the places its inputs read (`cell` of each input number).
fn by_chip<N>(
    names: impl IntoIterator<Item = N>,
    per_chip: usize,
    cell: impl Fn(usize) -> Option<SensedCell>,
) -> Vec<(N, Vec<SensedCell>)> {
    names
        .into_iter()
        .enumerate()
        .map(|(k, name)| {
            let read = (per_chip * k..per_chip * (k + 1))
                .filter_map(&cell)
                .collect();
            (name, read)
        })
        .collect()
}

/// The chips of the configured 74HC165 chain: `[sensor.shift_chain] chips`, or for the
/// simulated board enough for its places; `None` for another sensor.
fn chain_length(config: &Config) -> Option<usize> {
    match &config.sensor {
        SensorConfig::ShiftChain { chips, .. } => Some(usize::from(*chips)),
        SensorConfig::Simulated => Some(config.places().div_ceil(8)),
        _ => None,
    }
}

/// Each chip of a chain of `chips` on the configured board, named as the schematic names
/// it ("U9", then "16" past its last), with the cells its inputs read (`[board] cells`, or the
/// pin map's order); `None` if the order cannot be read (the configuration check says why).
fn chain_chips(config: &Config, chips: usize) -> Option<Vec<(String, Vec<SensedCell>)>> {
    let order = ChainOrder::schematic().ok()?;
    let cells = config.chain_cells(&order, chips).ok()?;
    let names = (0..chips).map(|k| {
        order
            .chips()
            .get(k)
            .map_or_else(|| (k + 1).to_string(), |chip| chip.reference.clone())
    });
    Some(by_chip(names, 8, |i| cells.cell(i)))
}

/// The places `calibrate` asks for: every one of the board, or with `--game` those the game
/// uses, on its data file as configured.
fn calibration_board(
    config: &Config,
    config_file: &std::path::Path,
    game: Option<GameName>,
) -> Result<SensedBoard> {
    let board = sensed_board(config);
    let Some(game) = game else {
        return Ok(board);
    };
    let (name, places, beyond) = game_places(config, config_file, game)?;
    if let Some(beyond) = beyond {
        bail!(
            "{name} cannot be played on this board, so there is nothing to walk for it: {} \
             (`umpire check-config` lists what each game needs)",
            beyond.fix
        );
    }
    Ok(board.only(name, &places))
}

/// After a walk of every place, the game whose unused places are exactly the ones that never
/// read (a board wired for it alone), and its name on the menu: the report says to walk that
/// game's places. Looked for only when some place never read.
fn wired_for(
    config: &Config,
    config_file: &std::path::Path,
    cal: &Calibration,
) -> Option<(GameName, &'static str)> {
    let missing = cal.never_seen();
    if missing.is_empty() || cal.board().game().is_some() {
        return None;
    }
    GameName::ALL.iter().find_map(|&(game, _)| {
        // A data file that does not read is told by `check-config`; no hint from it here.
        let (name, places, beyond) = game_places(config, config_file, game).ok()?;
        let narrowed = cal.board().clone().only(name, &places);
        (beyond.is_none() && narrowed.unasked() == missing).then_some((game, name))
    })
}

/// The places `game` senses, as the menu names it, on its data file as configured, and what
/// the board lacks of them.
fn game_places(
    config: &Config,
    config_file: &std::path::Path,
    game: GameName,
) -> Result<(
    &'static str,
    std::collections::BTreeSet<firmware::sensing::Place>,
    Option<firmware::referee::BeyondTheBoard>,
)> {
    use firmware::game_data;
    use firmware::referee::games::{napoleon::NapoleonSet, sba::SbaSet, BoardLayout};
    // Only the game's own data file is read: another's problem is not this walk's.
    let (mut waterloo, mut sba, mut napoleon) = (
        BoardLayout::shipped(),
        SbaSet::shipped(),
        NapoleonSet::shipped(),
    );
    match game {
        GameName::Waterloo => waterloo = game_data::waterloo_layout(config, config_file)?,
        GameName::Sba => sba = game_data::sba_set(config, config_file)?,
        GameName::Napoleon => napoleon = game_data::napoleon_set(config, config_file)?,
        GameName::Classic | GameName::Duel | GameName::Piecepack => {}
    }
    game_data::places_of_game(config, game, waterloo, sba, napoleon).with_context(|| {
        format!(
            "cannot tell the places of {}: run `umpire check-config`",
            game.name()
        )
    })
}

/// `--game NAME`: a game as `[game] name` writes it.
fn parse_game(name: &str) -> Result<GameName, String> {
    GameName::ALL
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(game, _)| *game)
        .ok_or_else(|| {
            let names: Vec<&str> = GameName::ALL.iter().map(|(_, n)| *n).collect();
            format!(
                "no game is called `{name}`: write one of {}",
                names.join(", ")
            )
        })
}

/// A square (`e4`) or a cell number (a tray slot's, after the squares), for `--fault`.
fn cell_named(board: &SensedBoard, name: &str) -> Result<SensedCell> {
    let shape = board.shape();
    let cells = usize::from(board.cells());
    // A number only past the squares: a square goes by its name.
    let named = !name.starts_with(|c: char| c.is_ascii_digit());
    let number = firmware::config::place_number(name, shape.columns, shape.rows, cells)
        .filter(|&n| named || n >= shape.cells());
    match number {
        Some(n) => Ok(SensedCell::new(n)),
        None if !named && board.cells() == shape.cells() => bail!(
            "`{name}` would be a tray slot's cell number, but this board has no tray slots \
             ([[board.tray]] in the configuration given with --config): write a square like e4"
        ),
        None => {
            let slots = if board.cells() > shape.cells() {
                format!(
                    ", or a tray slot's cell number {} to {}",
                    shape.cells(),
                    board.cells() - 1
                )
            } else {
                String::new()
            };
            bail!(
                "`{name}` is not a square of this {}x{} board (write e4{slots})",
                shape.columns,
                shape.rows
            )
        }
    }
}

fn sim_rig(config: &Config, board: &SensedBoard, faults: &[String]) -> Result<SimRig> {
    let shape = board.shape();
    let mut rig = SimRig {
        board: SimBoard::new(config.columns, config.rows),
        display_present: true,
        display_lost: false,
        chain: None,
        readers: simulated_regions(config)
            .into_iter()
            .map(|r| (r, None))
            .collect(),
        tags: SimTags::new(),
    };
    let mut wiring = ChainWiring::Healthy;
    for fault in faults {
        let (kind, arg) = fault.split_once(':').unwrap_or((fault.as_str(), ""));
        let f = match kind {
            "stuck" => SwitchFault::StuckClosed(cell_named(board, arg)?),
            "dead" => SwitchFault::Dead(cell_named(board, arg)?),
            "flicker" => SwitchFault::Flickering(cell_named(board, arg)?),
            "row" if !matches!(
                config.sensor,
                SensorConfig::Matrix { .. } | SensorConfig::GpioMatrix { .. }
            ) =>
            {
                bail!(
                    "--fault row:N shorts a matrix's row line, and this board has no matrix: use \
                     it with [sensor] kind = \"matrix\" or \"gpio_matrix\" (a chain's faults are \
                     unplugged, unplugged-high and missing-chip; a switch's stuck, dead, flicker)"
                )
            }
            "row" => match arg.parse::<u8>() {
                Ok(r) if r >= 1 && r <= shape.rows => SwitchFault::ShortedRow(r - 1),
                _ => bail!("--fault row:N needs a row number 1 to {}", shape.rows),
            },
            "no-display" => {
                rig.display_present = false;
                continue;
            }
            "oled-lost" => {
                rig.display_lost = true;
                continue;
            }
            "no-reader" | "clone-reader" | "uninit-reader" | "reset-reader" => {
                let n = if arg.is_empty() {
                    Ok(1)
                } else {
                    arg.parse::<usize>()
                };
                let count = rig.readers.len();
                let Some(slot) = n
                    .ok()
                    .filter(|n| *n >= 1)
                    .and_then(|n| rig.readers.get_mut(n - 1))
                else {
                    bail!("--fault {kind}:N needs a reader number 1 to {count}");
                };
                slot.1 = Some(match kind {
                    "no-reader" => ReaderFault::Absent,
                    "clone-reader" => ReaderFault::Clone,
                    "uninit-reader" => ReaderFault::IgnoresWrites,
                    _ => ReaderFault::StuckInReset,
                });
                continue;
            }
            "unplugged" => {
                wiring = ChainWiring::Unplugged { miso: 0x00 };
                continue;
            }
            "unplugged-high" => {
                wiring = ChainWiring::Unplugged { miso: 0xFF };
                continue;
            }
            "missing-chip" => {
                wiring = ChainWiring::MissingChip;
                continue;
            }
            _ => bail!(
                "unknown fault `{fault}`: use stuck:PLACE, dead:PLACE, flicker:PLACE (a square, or a \
                 tray slot's cell number), row:N, \
                 no-display, oled-lost, unplugged, unplugged-high, missing-chip, no-reader[:N], \
                 clone-reader[:N], uninit-reader[:N] or reset-reader[:N]"
            ),
        };
        rig.board = rig.board.with_fault(f);
    }
    rig.chain = sim_chain(config, wiring)?;
    Ok(rig)
}

/// The simulated OLED's I2C bus number and address: the configured ones, or bus 1 at the
/// default address.
fn simulated_oled(config: &Config) -> (u8, u8) {
    config
        .oled
        .map_or((1, DEFAULT_ADDRESS), |d| (d.bus.number(), d.address))
}

fn doctor_simulated(config: &Config, faults: &[String], scans: u32) -> Result<Vec<Finding>> {
    let board = sensed_board(config);
    let mut rig = sim_rig(config, &board, faults)?;
    println!(
        "umpire doctor: the simulated board ({}x{})\n",
        config.columns, config.rows
    );
    if config.nfc.is_none() {
        println!("{}\n", DEMO_BANK);
    }
    let mut findings = Vec::new();
    let (bus, address) = simulated_oled(config);
    let expanders = expanders(config, &board);
    let mut i2c = SimI2c::with_devices(
        rig.display_present
            .then_some(address)
            .into_iter()
            .chain(expanders.iter().map(|e| e.1)),
    );
    findings.push(check_display(&mut i2c, bus, address));
    if rig.display_present {
        let panel = SimI2c::default().with_panel(address);
        let mut display = Display::with_address(panel.clone(), address);
        let lost = rig.display_lost;
        findings.push(check_display_link(&mut display, 10, |i| {
            // Lost before the fourth frame, back before the seventh.
            if lost && (i == 3 || i == 6) {
                panel.set_present(address, i == 6);
            }
        }));
    }
    for (bus, address, role, setting) in &expanders {
        findings.push(check_expander(&mut i2c, *bus, *address, role, setting));
    }
    for (i, (reader, region)) in rig.readers().into_iter().enumerate() {
        findings.extend(check_reader(i + 1, &region_names(config, &region), reader));
    }
    if let Some(leds) = &config.leds {
        // The simulated chain decodes each frame as the LEDs would; the names are printed as
        // on the Pi.
        findings.push(firmware::doctor::check_led_step(
            config.layout_setup(),
            leds,
            |n| {
                println!("The simulated LEDs light in turn:");
                Ok(firmware::sim::SimLedChain::new(n))
            },
            &mut firmware::sim::NoDelay,
            |i, place| println!("  LED {i}: {place}"),
        ));
    }
    findings.extend(check_sensors(&board, scans, || rig.scan()));
    Ok(findings)
}

/// An initialised reader for `calibrate`: its number (1-based), the reader, its region.
type CalibrationReader<S, D> = (usize, Mfrc522Ready<S, D>, Vec<SensedCell>);

/// Initialises each reader for `calibrate`, printing the ones that fail (the others still
/// read): the initialised readers with their regions.
fn calibration_readers<S, D>(
    config: &Config,
    readers: Vec<(Mfrc522<S, D>, Vec<SensedCell>)>,
) -> Vec<CalibrationReader<S, D>>
where
    S: embedded_hal::spi::SpiDevice,
    D: embedded_hal::delay::DelayNs,
{
    let mut out = Vec::new();
    for (i, (reader, region)) in readers.into_iter().enumerate() {
        let names = region_names(config, &region);
        match reader.init() {
            Ok(mut ready) => {
                if let Err(e) = ready.power_down() {
                    println!("NFC reader {} ({names}): {e}", i + 1);
                    continue;
                }
                out.push((i + 1, ready, region));
            }
            Err(e) => println!("NFC reader {} ({names}): {e}", i + 1),
        }
    }
    out
}

/// Lists the field of the reader under `cell`, if any, recording every tag on `cal`: the
/// calibration shows what each reader sees, not the set-up diff the service uses.
fn calibration_tags<S, D>(
    readers: &mut [CalibrationReader<S, D>],
    cal: &mut Calibration,
    cell: SensedCell,
) -> Vec<String>
where
    S: embedded_hal::spi::SpiDevice,
    D: embedded_hal::delay::DelayNs,
{
    let Some((number, reader, _)) = readers
        .iter_mut()
        .find(|(_, _, region)| region.contains(&cell))
    else {
        return Vec::new();
    };
    let listing = reader.wake().and_then(|()| reader.inventory());
    let _ = reader.power_down();
    match listing {
        Ok(tags) => tags
            .into_iter()
            .map(|uid| match cal.tag(cell, uid) {
                CalibrationEvent::Tag(name, uid) => {
                    format!("tag {uid} over {name} (NFC reader {number})")
                }
                other => format!("{other:?}"),
            })
            .collect(),
        Err(e) => vec![format!("NFC reader {number}: {e}")],
    }
}

/// The legend under `calibrate`'s board: a blank only when the walk is one game's.
fn calibration_legend(board: &SensedBoard) -> String {
    let blank = match board.game() {
        Some(game) => format!(", blank: no place of {game}"),
        None => String::new(),
    };
    format!("Legend: # occupied now, o seen, . never seen{blank}\n")
}

/// The simulated builder's walk over `board`'s places, then the board cleared.
fn calibrate_simulated(
    config: &Config,
    board: SensedBoard,
    faults: &[String],
) -> Result<Calibration> {
    let mut rig = sim_rig(config, &board, faults)?;
    let mut cal = Calibration::new(board.clone());
    let walked = match board.game() {
        Some(game) => format!("every {} {game} uses", board.kinds()),
        None => format!("every {}", board.kinds()),
    };
    println!(
        "umpire calibrate: the simulated board; a simulated builder walks one piece over {walked}.\n\
         {}",
        calibration_legend(&board)
    );
    let (bus, address) = simulated_oled(config);
    let i2c = SimI2c::with_devices(rig.display_present.then_some(address));
    let mut oled = Display::with_address(i2c, address);
    let mut oled_updates = 0u32;
    let mut oled_failed = None;
    if config.nfc.is_none() {
        println!("{DEMO_BANK}\n");
    }
    let mut readers = calibration_readers(config, rig.readers());
    let mut tag_lines = Vec::new();
    let tag = simulated_tag();
    let mut previous: Option<SensedCell> = None;
    // The names walked, one terminal line per row of squares and one per tray.
    let mut line: (String, Vec<String>) = (String::new(), Vec::new());
    let print_line = |(_, names): &(String, Vec<String>)| {
        if !names.is_empty() {
            println!("{}", names.join(" "));
        }
    };
    for cell in board.asked() {
        rig.board.clear();
        rig.board.set_piece(cell, true);
        if let Some(before) = previous {
            rig.tags.set(before, None);
        }
        previous = Some(cell);
        rig.tags.set(cell, Some(tag));
        let group = board.group(cell);
        if group != line.0 {
            print_line(&line);
            line = (group, Vec::new());
        }
        let occ = rig.scan().map_err(anyhow::Error::msg)?;
        let mut note = String::new();
        for event in cal.update(occ) {
            if let CalibrationEvent::On(on, name) = event {
                note = format!("{name} on");
                // A tray's line names its slots by number: "seat 1 reserve: 1 2 3".
                let short = board.name_in_group(on);
                line.1.push(if board.group(on) != line.0 || short == name {
                    name
                } else if line.1.is_empty() {
                    format!("{}: {short}", line.0)
                } else {
                    short
                });
                tag_lines.extend(calibration_tags(&mut readers, &mut cal, on));
            }
        }
        match oled.show_screen(&cal.screen(note)) {
            Ok(_) => oled_updates += 1,
            Err(e) => oled_failed = Some(e.to_string()),
        }
    }
    print_line(&line);
    rig.board.clear();
    let occ = rig.scan().map_err(anyhow::Error::msg)?;
    cal.update(occ);
    println!("\n{}", cal.grid());
    for line in &tag_lines {
        println!("{line}");
    }
    let bytes = oled.release().bytes_written;
    match oled_failed {
        None => println!(
            "OLED (simulated, I2C bus {bus} at {address:#04x}): {oled_updates} updates, {bytes} bytes \
             written, only the changed squares each time."
        ),
        Some(e) => println!("OLED: {e}"),
    }
    Ok(cal)
}

/// What the walk found, and the exit code: 1 when a place never read (or, with the board
/// `cleared` by the simulated builder, still reads). `wired_for`: the game the board seems
/// wired for alone ([`wired_for`]).
fn report_calibration(
    cal: &Calibration,
    cleared: bool,
    wired_for: Option<(GameName, &str)>,
) -> ExitCode {
    let board = cal.board();
    let missing = cal.never_seen();
    let stuck: Vec<String> = cal.occupied().iter().map(|c| board.name(c)).collect();
    let strays = cal.strays();
    if !stuck.is_empty() {
        if cleared {
            println!(
                "Still reading occupied with the board cleared: {} — its switch is stuck closed \
                 or shorted: replace it or check its solder joints.",
                stuck.join(", ")
            );
        } else {
            println!(
                "Still reading a piece at the end: {} — lift it before stopping; if nothing \
                 stands there, its switch is stuck closed (`umpire doctor` on the empty board \
                 says).",
                stuck.join(", ")
            );
        }
    }
    if let (Some(game), false) = (board.game(), strays.is_empty()) {
        println!(
            "Read a piece where {game} has no place: {} — with nothing put there, a switch is \
             wired to the wrong input (the pin map's order, or [board] cells).",
            strays.join(", ")
        );
    }
    let asked = board.asked().count();
    let failed = !missing.is_empty() || (cleared && !stuck.is_empty());
    if missing.is_empty() {
        match board.game() {
            Some(game) => println!("Every one of the {asked} places {game} uses read a piece."),
            None => println!("Every one of the board's {asked} places read a piece."),
        }
    } else {
        let diode = if *board.wiring() == firmware::doctor::Wiring::Matrix {
            " diode,"
        } else {
            ""
        };
        println!(
            "Never read a piece ({} of {asked}): {} — check each one's reed switch,{diode} \
             wiring and solder joints.",
            missing.len(),
            missing.join(", ")
        );
        if let Some((game, name)) = wired_for {
            println!(
                "They are exactly the places {name} does not use: if the board is wired for it \
                 alone, walk its places with `umpire calibrate --game {}`.",
                game.name()
            );
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(feature = "pi")]
fn doctor_hardware(config: &Config, scans: u32) -> Result<Vec<Finding>> {
    use firmware::platform::pi;
    use std::time::Duration;
    println!("umpire doctor: the hardware in the configuration\n");
    let mut findings = Vec::new();
    if let Some(d) = config.oled {
        match pi::open_i2c(config.i2c_path(d.bus)) {
            Ok(mut i2c) => {
                let found = check_display(&mut i2c, d.bus.number(), d.address);
                let answers = found.severity == firmware::doctor::Severity::Ok;
                findings.push(found);
                if answers {
                    let mut display = Display::with_address(i2c, d.address);
                    findings.push(check_display_link(&mut display, 20, |_| {}));
                }
            }
            Err(e) => findings.push(open_failed("display", &e)),
        }
    }
    let board = sensed_board(config);
    let expanders = expanders(config, &board);
    if let SensorConfig::Matrix { bus, .. } | SensorConfig::Expanders { bus, .. } = &config.sensor {
        match pi::open_i2c(config.i2c_path(*bus)) {
            Ok(mut i2c) => {
                for (bus, address, role, setting) in &expanders {
                    findings.push(check_expander(&mut i2c, *bus, *address, role, setting));
                }
            }
            Err(e) => findings.push(open_failed("expanders", &e)),
        }
    }
    if let Some(nfc) = &config.nfc {
        match pi::open_nfc_readers(config, nfc) {
            Ok(opened) => {
                for (i, (reader, region)) in opened.readers.into_iter().enumerate() {
                    findings.extend(check_reader(i + 1, &region_names(config, &region), reader));
                }
            }
            Err(e) => findings.push(open_failed("NFC readers", &e)),
        }
    }
    if let Some(leds) = &config.leds {
        findings.push(doctor_leds(config, leds));
    }
    println!("Take every piece off the board; scanning in 3 seconds...");
    std::thread::sleep(Duration::from_secs(3));
    match pi::open_scanner(config) {
        Ok(mut scanner) => {
            let period = scan_period(config);
            findings.extend(check_sensors(&board, scans, || {
                std::thread::sleep(period);
                scanner.scan()
            }));
        }
        Err(e) => findings.push(open_failed("sensors", &e)),
    }
    Ok(findings)
}

/// `doctor`'s LED step: each LED of the chain lit in turn, named as it lights.
#[cfg(feature = "pi")]
fn doctor_leds(config: &Config, leds: &firmware::config::LedsConfig) -> Finding {
    use firmware::platform::pi;
    firmware::doctor::check_led_step(
        config.layout_setup(),
        leds,
        |_| {
            let bus =
                pi::open_led_bus(config, leds.spi).map_err(|e| open_failed("LED chain", &e))?;
            println!("Watch the LEDs: each lights in turn under its own place.");
            Ok(bus)
        },
        &mut linux_embedded_hal::Delay,
        |i, place| println!("  LED {i}: {place}"),
    )
}

/// The time between two scans at `[board] scan_hz`.
#[cfg(feature = "pi")]
fn scan_period(config: &Config) -> std::time::Duration {
    std::time::Duration::from_micros(1_000_000 / u64::from(config.scan_hz.max(1)))
}

#[cfg(feature = "pi")]
fn open_failed(subject: &str, e: &firmware::platform::OpenError) -> Finding {
    Finding {
        severity: firmware::doctor::Severity::Problem,
        subject: subject.into(),
        detail: format!("cannot open {}: {}", e.what, e.cause),
        fix: e.fix.into(),
    }
}

#[cfg(feature = "pi")]
fn calibrate_hardware(
    config: &Config,
    board: SensedBoard,
    seconds: Option<u64>,
) -> Result<Calibration> {
    use firmware::platform::pi;
    use firmware::schedule::ScanSchedule;
    use firmware::sensing::Millis;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let mut scanner = pi::open_scanner(config).map_err(anyhow::Error::new)?;
    let mut oled = match config.oled {
        Some(d) => Some(Display::with_address(
            pi::open_i2c(config.i2c_path(d.bus)).map_err(anyhow::Error::new)?,
            d.address,
        )),
        None => None,
    };
    let legend = calibration_legend(&board);
    let mut cal = Calibration::new(board);
    // The NFC readers, initialised; their reset line is held high while `_nfc_reset` lives.
    let (mut readers, _nfc_reset) = match &config.nfc {
        Some(nfc) => {
            let opened = pi::open_nfc_readers(config, nfc).map_err(anyhow::Error::new)?;
            (calibration_readers(config, opened.readers), opened.reset)
        }
        None => (Vec::new(), None),
    };
    // Ctrl-C ends the walk with its report: the places never seen are what the builder wants.
    // A second Ctrl-C leaves at once, should a scan hang.
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupted);
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .context("cannot catch Ctrl-C to end with the report (run with --seconds N instead)")?;
    let start = Instant::now();
    // The service's scan schedule: a fixed grid, however long the terminal and OLED take.
    let mut scans = ScanSchedule::new(Millis(0), config.scan_hz).map_err(anyhow::Error::new)?;
    let places = match cal.board().game() {
        Some(game) => format!("every place {game} uses"),
        None => format!("every {}", cal.board().kinds()),
    };
    println!(
        "umpire calibrate: put a piece on {places} in turn, then lift it (Ctrl-C ends with the \
         report)."
    );
    println!("{legend}");
    loop {
        if interrupted.load(Ordering::SeqCst)
            || seconds.is_some_and(|s| start.elapsed() >= Duration::from_secs(s))
        {
            break;
        }
        let slot = start + Duration::from_millis(scans.next_due().0);
        std::thread::sleep(slot.saturating_duration_since(Instant::now()));
        let now = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
        if scans.poll(Millis(now)).is_none() {
            continue;
        }
        let occ = scanner.scan().map_err(anyhow::Error::msg)?;
        let events = cal.update(occ);
        if !events.is_empty() {
            // Redraw in place: clear the screen, home the cursor.
            print!("\x1b[2J\x1b[H{legend}\n{}", cal.grid());
            let mut note = String::new();
            for e in events {
                if let CalibrationEvent::On(cell, _) = &e {
                    for line in calibration_tags(&mut readers, &mut cal, *cell) {
                        println!("{line}");
                    }
                }
                note = match e {
                    CalibrationEvent::On(_, s) => format!("piece on {s}"),
                    CalibrationEvent::Off(s) => format!("piece off {s}"),
                    CalibrationEvent::FirstSeen(s) => format!("{s} works"),
                    CalibrationEvent::Tag(s, uid) => format!("tag {uid} on {s}"),
                };
                println!("{note}");
            }
            if let Some(d) = oled.as_mut() {
                if let Err(e) = d.show_screen(&cal.screen(note)) {
                    println!("OLED: {e}");
                }
            }
        }
    }
    println!();
    Ok(cal)
}

#[cfg(not(feature = "pi"))]
fn doctor_hardware(_: &Config, _: u32) -> Result<Vec<Finding>> {
    bail!(NO_BACKEND)
}

/// The configuration for the service: read afresh at every start attempt, so a fixed file is
/// picked up without a restart. A problem is a start fault (shown on the OLED), one per line.
#[cfg(feature = "pi")]
fn service_config(path: &std::path::Path) -> Result<Config, Vec<firmware::boot::StartFault>> {
    use firmware::boot::StartFault;
    let fix = "fix the file (see `umpire check-config`); it is read again by itself";
    let text = std::fs::read_to_string(path).map_err(|e| {
        vec![StartFault::new(
            "Config",
            format!("cannot read {}: {e}", path.display()),
            "install the umpire package again, or give the file with --config",
        )]
    })?;
    Config::parse(&text).map_err(|problems| {
        problems
            .0
            .iter()
            .map(|p| StartFault::new(format!("Config line {}", p.line), p.message.clone(), fix))
            .collect()
    })
}

/// Opens everything the service needs, collecting every fault (not only the first).
#[cfg(feature = "pi")]
fn open_parts(
    path: &std::path::Path,
    epoch: std::time::Instant,
    served: bool,
) -> Result<firmware::boot::Parts, Vec<firmware::boot::StartFault>> {
    use firmware::boot::{Parts, StartFault};
    use firmware::inputs::ButtonSource;
    use firmware::platform::pi;
    use firmware::referee::RefereeConfig;
    use firmware::scan_thread::ScanThread;
    use firmware::sensing::SensorLayout;
    use firmware::service::{BeepSink, Hardware, JournalDir, TagSource};

    let config = service_config(path)?;
    let mut faults = Vec::new();
    let scanner = pi::open_scanner(&config)
        .map_err(|e| faults.push(StartFault::open("Sensors", &e)))
        .ok();
    let buttons = match &config.buttons {
        Some(b) => pi::open_buttons(b)
            .map(|b| Some(Box::new(b) as Box<dyn ButtonSource + Send>))
            .map_err(|e| faults.push(StartFault::open("Buttons", &e)))
            .ok(),
        None => Some(None),
    };
    let tags = match &config.nfc {
        Some(nfc) => pi::open_nfc(&config, nfc)
            .map(|n| Some(Box::new(n) as Box<dyn TagSource>))
            .map_err(|e| faults.push(StartFault::open("NFC", &e)))
            .ok(),
        None => Some(None),
    };
    let buzzer = match config.buzzer {
        Some(pin) => pi::open_buzzer(pin)
            .map(|b| Some(Box::new(b) as Box<dyn BeepSink>))
            .map_err(|e| faults.push(StartFault::open("Buzzer", &e)))
            .ok(),
        None => Some(None),
    };
    let leds = match &config.leds {
        Some(leds) => pi::open_led_chain(&config, leds)
            .map(Some)
            .map_err(|e| faults.push(StartFault::open("LEDs", &e)))
            .ok(),
        None => Some(None),
    };
    let layout = SensorLayout::new(config.layout_setup())
        .map_err(|p| {
            faults.push(StartFault::new(
                "Layout",
                p.to_string(),
                "fix [board] and its tray slots in the configuration",
            ))
        })
        .ok();
    // A broken layout file stops the umpire with every problem: never the shipped one instead.
    let waterloo_layout = firmware::game_data::waterloo_layout(&config, path)
        .map_err(|e| faults.extend(e.faults()))
        .ok();
    let sba_set = firmware::game_data::sba_set(&config, path)
        .map_err(|e| faults.extend(e.faults()))
        .ok();
    let napoleon_set = firmware::game_data::napoleon_set(&config, path)
        .map_err(|e| faults.extend(e.faults()))
        .ok();
    // The tags registered to pieces and blocks, each block checked against the order of
    // battle played (a broken file is a start fault, never an empty registry).
    let tags_registered = napoleon_set.and_then(|set| {
        firmware::game_data::tag_registry(&config, path, set)
            .map_err(|e| faults.extend(e.faults()))
            .ok()
    });
    let journals = JournalDir::open(&config.journal_dir)
        .map_err(|e| {
            faults.push(StartFault::new(
                "Journal",
                format!("cannot use {}: {e}", config.journal_dir.display()),
                "check [journal] dir and that the service user may write there",
            ))
        })
        .ok();
    match (
        scanner,
        buttons,
        tags,
        buzzer,
        layout,
        journals,
        waterloo_layout,
        leds,
    ) {
        (
            Some(scanner),
            Some(buttons),
            Some(tags),
            Some(buzzer),
            Some(layout),
            Some(journals),
            Some(waterloo_layout),
            Some(leds),
        ) if faults.is_empty() => {
            let referee = RefereeConfig {
                board: Some(layout.iter().map(|(_, place)| place).collect()),
                waterloo_layout,
                // A set that did not read is a start fault above: never the shipped one.
                sba_set: sba_set.unwrap_or_default(),
                napoleon_set: napoleon_set.unwrap_or_default(),
                // The OK menu offers the seats' phone codes again only when the pages are
                // served: a server that could not listen offers no entry that does nothing.
                phone_pages: served && config.web.is_some(),
                // A file that did not read is a start fault above: never an empty registry.
                tags: tags_registered.unwrap_or_default(),
                // The rules and the menu: its highlight and, with readers under the board,
                // Napoléon's set-up by tags.
                ..config.referee_config()
            };
            // The switches and the buttons are read on a thread of their own, so that the OLED,
            // the journal's sync and the NFC reads never delay a scan (`firmware::scan_thread`).
            let scanner =
                ScanThread::spawn(scanner, buttons, config.scan_hz, epoch).map_err(|e| {
                    vec![StartFault::new(
                        "Sensors",
                        e.to_string(),
                        "set [board] scan_hz from 100 to 1000, or restart the service",
                    )]
                })?;
            Ok(Parts {
                layout,
                sensing: config.sensing,
                referee,
                journals,
                hardware: Hardware {
                    scanner: Box::new(scanner),
                    buttons: None,
                    tags,
                    oled: None,
                },
                buzzer,
                leds,
                scan_hz: config.scan_hz,
            })
        }
        _ => Err(faults),
    }
}

/// `umpire run` on the Pi: the service loop, until the process is stopped. It never exits for
/// a fault: the OLED is opened first (on demand, so a bus that appears later is used), every
/// start-up fault is shown there and logged once, and the rest is opened again with back-off
/// until it works. systemd hears READY=1 once the loop runs and WATCHDOG=1 from every turn.
#[cfg(feature = "pi")]
fn serve(cli: &Cli) -> Result<ExitCode> {
    use firmware::boot::{OpenOnDemand, Umpire};
    use firmware::notify::Notifier;
    use firmware::platform::pi;
    use firmware::referee::OsChance;
    use firmware::sensing::Millis;
    use firmware::service::ScreenSink;
    use std::time::{Duration, Instant};

    let first = load_config(cli).ok();
    for warning in first.iter().flat_map(Config::warnings) {
        eprintln!("umpire: warning: {warning}");
    }
    let oled = oled_place(first.as_ref()).map(|(path, address)| {
        Box::new(OpenOnDemand::new(move || {
            pi::open_i2c(&path)
                .map(|i2c| Display::with_address(i2c, address))
                .map_err(|e| e.to_string())
        })) as Box<dyn ScreenSink>
    });
    let path = cli.config.clone();
    let boot = Instant::now();
    // The phone pages, beside the loop: a port that cannot be opened is said (in the log, and
    // by the OK menu having no "Phone pages"), and the umpire runs without them (the table needs
    // nothing from a phone).
    let mut web_parts = None;
    let mut _web_server = None;
    if let Some(web) = first.as_ref().and_then(|c| c.web.clone()) {
        let slot = firmware::web::Slot::new();
        let started = std::net::TcpListener::bind(("0.0.0.0", web.port))
            .and_then(|listener| firmware::web::server::Server::start(listener, slot.clone()));
        match started {
            Ok(server) => {
                println!(
                    "umpire: phone pages on port {}: the table's page at /",
                    web.port
                );
                web_parts = Some((slot, web));
                _web_server = Some(server);
            }
            Err(e) => eprintln!(
                "umpire: the phone pages cannot listen on port {} ({e}): choose a free port in \
                 [web] port, or set enabled = false; the OK menu offers no \"Phone pages\" \
                 until then",
                web.port
            ),
        }
    }
    let served = web_parts.is_some();
    let mut umpire = Umpire::new(
        oled,
        Box::new(move || open_parts(&path, boot, served)),
        || OsChance,
    );
    if let Some((slot, web)) = web_parts {
        umpire.set_web(Some(firmware::web::Publisher::new(slot)));
        // The OLED hands each seat its code (on the Pi's LAN address or `[web] url`).
        umpire.set_handout(Some(firmware::web::handout::Handout::new(web.address())));
    }
    let mut notifier = Notifier::from_env().context("cannot reach systemd's notify socket")?;
    let now = || Millis(u64::try_from(boot.elapsed().as_millis()).unwrap_or(u64::MAX));
    let mut running = false;
    let mut ready = false;
    loop {
        let step = umpire.step(now());
        // Only screens are logged: they hold nothing the rules keep secret.
        if let Some(screen) = &step.screen {
            println!("screen: {screen}");
        }
        for trouble in &step.trouble {
            eprintln!("{trouble}");
        }
        if step.missed_scans > 0 {
            eprintln!(
                "umpire: the loop ran late: {} scans skipped (not made up)",
                step.missed_scans
            );
        }
        if !ready {
            // Up: the loop runs and shows either the game or what to fix. Sent before the
            // status below, which would otherwise be overwritten by "starting".
            ready = true;
            if let Err(e) = notifier.ready("starting") {
                eprintln!("umpire: cannot tell systemd it is ready: {e}");
            }
        }
        if umpire.is_running() && !running {
            running = true;
            println!("umpire: refereeing, journals in the configured folder");
            let _ = notifier.status("refereeing");
        } else if !umpire.is_running() && !step.trouble.is_empty() {
            let faults: Vec<String> = umpire
                .faults()
                .active()
                .map(|(part, _)| part.to_string())
                .collect();
            let _ = notifier.status(&format!("waiting for: {}", faults.join(", ")));
        }
        if let Err(e) = notifier.keep_alive(now()) {
            eprintln!("umpire: cannot reach the systemd watchdog: {e}");
        }
        // Until the next scan's slot on the schedule's grid (not a period from now, which
        // would drift), at most 10 ms so the buttons and the watchdog are served meanwhile.
        // The slot is an instant, not a count of milliseconds from a truncated `now()`: the
        // wake-up is never early (which would cost a wasted step and a late scan).
        let slot = boot + Duration::from_millis(umpire.next_due().0);
        let wait = slot.saturating_duration_since(Instant::now());
        std::thread::sleep(wait.clamp(Duration::from_micros(100), Duration::from_millis(10)));
    }
}

/// `umpire blank`: switches the OLED off (ExecStopPost, once the service has stopped).
#[cfg(feature = "pi")]
fn blank(cli: &Cli) -> Result<ExitCode> {
    use firmware::platform::pi;
    let config = load_config(cli).ok();
    // A stop, a crash or the watchdog may end the service mid-beep: the buzzer is opened
    // silent and released (its pin goes back to an input, the transistor off).
    if let Some(drive) = config.as_ref().and_then(|c| c.buzzer) {
        if let Err(e) = pi::open_buzzer(drive) {
            eprintln!("umpire blank: cannot silence the buzzer: {e}");
        }
    }
    let Some((path, address)) = oled_place(config.as_ref()) else {
        println!("no [oled] in the configuration: nothing to blank");
        return Ok(ExitCode::SUCCESS);
    };
    let i2c = pi::open_i2c(&path).map_err(anyhow::Error::new)?;
    Display::with_address(i2c, address)
        .blank()
        .map_err(anyhow::Error::new)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "pi"))]
fn blank(_: &Cli) -> Result<ExitCode> {
    bail!(NO_BACKEND)
}

#[cfg(not(feature = "pi"))]
fn serve(_: &Cli) -> Result<ExitCode> {
    // Not NO_BACKEND: `run --simulated` is refused (no hands on a simulated board).
    bail!(
        "this build has no Raspberry Pi backend: build with `--features pi` (the .deb packages \
         are); without hardware, watch the umpire referee a game with `umpire-sim demo classic`"
    )
}

#[cfg(not(feature = "pi"))]
fn calibrate_hardware(_: &Config, _: SensedBoard, _: Option<u64>) -> Result<Calibration> {
    bail!(NO_BACKEND)
}

#[cfg(not(feature = "pi"))]
const NO_BACKEND: &str = "this build has no Raspberry Pi backend: build with `--features pi` \
     (the .deb packages are), or run against the simulated board with --simulated";
