//! `umpire`: the referee service on the Pi, and the builder's tools.
//!
//! ```text
//! umpire [--config FILE] [--simulated] check-config   # read and check the configuration
//! umpire [--config FILE] [--simulated] doctor         # check the display, reader and squares
//! umpire [--config FILE] [--simulated] calibrate      # live: which squares and tags read
//! ```
//!
//! `--simulated` runs against the simulated board (no hardware needed); `--fault` injects the
//! faults a builder meets, to see what the tools say about them.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use firmware::config::{Config, SensorConfig};
use firmware::display::{Display, Orientation, DEFAULT_ADDRESS};
use firmware::doctor::{
    check_display, check_expander, check_reader, check_sensors, has_problems, BoardShape,
    Calibration, CalibrationEvent, Finding,
};
use firmware::drivers::nfc::mfrc522::Mfrc522;
use firmware::drivers::reed_matrix::CellMap;
use firmware::drivers::shift_chain::{ChainOrder, ShiftChain, ShiftChainConfig};
use firmware::platform::Scanner;
use firmware::sensing::Occupancy;
use firmware::sensing::SensedCell;
use firmware::sim::{ChainWiring, SimBoard, SimChain, SimI2c, SimMfrc522, SimPin, SwitchFault};

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
    /// flicker:j10, row:3 (a shorted row), no-display, no-reader, unplugged (the sensor
    /// chain's cable), unplugged-high, missing-chip. Repeatable.
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
    /// Show live which squares read occupied and which tags are read, to test every square.
    Calibrate {
        /// Stop after this many seconds (default: run until interrupted).
        #[arg(long)]
        seconds: Option<u64>,
    },
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
    let text = std::fs::read_to_string(&cli.config).with_context(|| {
        format!(
            "cannot read {} (give another file with --config, or try --simulated)",
            cli.config.display()
        )
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
    let config = load_config(cli)?;
    let simulated = cli.simulated || config.sensor == SensorConfig::Simulated;
    match &cli.command {
        Command::Run => {
            if simulated {
                bail!(
                    "the simulated board has no hands to play on it: watch a game with \
                     `umpire-sim demo classic`, or play one in the terminal with `umpire-sim \
                     play classic`"
                );
            }
            serve(&config)
        }
        Command::CheckConfig => {
            println!(
                "{}: fine — {}x{} board, {}, {} GPIO pins wired",
                if cli.config.exists() {
                    cli.config.display().to_string()
                } else {
                    "(simulated)".into()
                },
                config.columns,
                config.rows,
                sensor_summary(&config),
                config.gpio_pins().len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Doctor { scans } => {
            let findings = if simulated {
                doctor_simulated(&config, &cli.faults, *scans)?
            } else {
                doctor_hardware(&config, *scans)?
            };
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
        Command::Calibrate { seconds } => {
            if simulated {
                calibrate_simulated(&config, &cli.faults)
            } else {
                calibrate_hardware(&config, *seconds)
            }
        }
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
        Some(nfc) => format!("{sensor}, NFC with {} antennas", nfc.mux.channels),
        None => format!("{sensor}, no NFC"),
    }
}

/// The PCF8575s the sensor uses, with what each is for: (bus number, address, role).
fn expanders(config: &Config) -> Vec<(u8, u8, String)> {
    match &config.sensor {
        SensorConfig::Matrix {
            bus,
            row_expander,
            column_expander,
            ..
        } => vec![
            (bus.number(), *row_expander, "matrix rows".into()),
            (bus.number(), *column_expander, "matrix columns".into()),
        ],
        SensorConfig::Expanders { bus, addresses } => addresses
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                (
                    bus.number(),
                    a,
                    format!("squares {}-{}", 16 * i + 1, 16 * i + 16),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

struct SimRig {
    board: SimBoard,
    display_present: bool,
    reader_version: u8,
    /// The 74HC165 chain the board is read through (a `shift_chain` or `simulated` sensor):
    /// the real driver on a simulated bus, so its chain check runs.
    chain: Option<ShiftChain<SimChain, SimPin, NoDelay>>,
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
}

/// The simulated 74HC165 chain for `config` wired as `wiring`, if its sensor is a chain (or the
/// simulated board): the chips configured (or enough for the board), mapped by `[board] cells`
/// or the pin map's order.
fn sim_chain(
    config: &Config,
    wiring: ChainWiring,
) -> Result<Option<ShiftChain<SimChain, SimPin, NoDelay>>> {
    let places = usize::from(config.columns) * usize::from(config.rows)
        + config.trays.iter().map(|t| usize::from(t.2)).sum::<usize>();
    let chips = match &config.sensor {
        SensorConfig::ShiftChain { chips, .. } => usize::from(*chips),
        SensorConfig::Simulated => places.div_ceil(8),
        _ if wiring == ChainWiring::Healthy => return Ok(None),
        _ => bail!(
            "the chain faults (unplugged, unplugged-high, missing-chip) simulate the 74HC165 \
             chain: use them with [sensor] kind = \"shift_chain\" or \"simulated\""
        ),
    };
    let order = ChainOrder::schematic().map_err(anyhow::Error::msg)?;
    let cells = match config.cell_map(chips * 8).map_err(anyhow::Error::msg)? {
        Some(cells) => cells,
        None if chips <= order.chips().len() => {
            order.cell_map(chips, places).map_err(anyhow::Error::msg)?
        }
        // A simulated board larger than the schematic's chain: input i reads cell i.
        None => CellMap::from_table(
            (0..chips * 8)
                .map(|i| (i < places).then(|| SensedCell::new(i as u16)))
                .collect(),
        )
        .map_err(anyhow::Error::msg)?,
    };
    let bus = SimChain::new(cells.clone(), order.check(), wiring);
    let chain_config = ShiftChainConfig {
        cells: Some(cells),
        load_pulse_ns: 0,
        ..ShiftChainConfig::new(chips * 8, order.check())
    };
    let chain = ShiftChain::new(bus, SimPin, NoDelay, chain_config).map_err(anyhow::Error::msg)?;
    Ok(Some(chain))
}

fn shape(config: &Config) -> BoardShape {
    BoardShape {
        columns: config.columns,
        rows: config.rows,
    }
}

fn cell_named(shape: BoardShape, name: &str) -> Result<SensedCell> {
    let mut chars = name.chars();
    let col = chars
        .next()
        .filter(char::is_ascii_lowercase)
        .map(|c| c as u8 - b'a');
    let row: Option<u8> = chars.as_str().parse().ok();
    match (col, row) {
        (Some(c), Some(r)) if c < shape.columns && r >= 1 && r <= shape.rows => Ok(
            SensedCell::new(u16::from(r - 1) * u16::from(shape.columns) + u16::from(c)),
        ),
        _ => bail!(
            "`{name}` is not a square of this {}x{} board (write e4)",
            shape.columns,
            shape.rows
        ),
    }
}

fn sim_rig(config: &Config, faults: &[String]) -> Result<SimRig> {
    let shape = shape(config);
    let mut rig = SimRig {
        board: SimBoard::new(config.columns, config.rows),
        display_present: true,
        reader_version: 0x92,
        chain: None,
    };
    let mut wiring = ChainWiring::Healthy;
    for fault in faults {
        let (kind, arg) = fault.split_once(':').unwrap_or((fault.as_str(), ""));
        let f = match kind {
            "stuck" => SwitchFault::StuckClosed(cell_named(shape, arg)?),
            "dead" => SwitchFault::Dead(cell_named(shape, arg)?),
            "flicker" => SwitchFault::Flickering(cell_named(shape, arg)?),
            "row" => match arg.parse::<u8>() {
                Ok(r) if r >= 1 && r <= shape.rows => SwitchFault::ShortedRow(r - 1),
                _ => bail!("--fault row:N needs a row number 1 to {}", shape.rows),
            },
            "no-display" => {
                rig.display_present = false;
                continue;
            }
            "no-reader" => {
                rig.reader_version = 0x00;
                continue;
            }
            "clone-reader" => {
                rig.reader_version = 0x88;
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
                "unknown fault `{fault}`: use stuck:SQUARE, dead:SQUARE, flicker:SQUARE, row:N, \
                 no-display, no-reader, clone-reader, unplugged, unplugged-high or missing-chip"
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
    let mut rig = sim_rig(config, faults)?;
    println!(
        "umpire doctor: the simulated board ({}x{})\n",
        config.columns, config.rows
    );
    let mut findings = Vec::new();
    let (bus, address) = simulated_oled(config);
    let expanders = expanders(config);
    let mut i2c = SimI2c::with_devices(
        rig.display_present
            .then_some(address)
            .into_iter()
            .chain(expanders.iter().map(|e| e.1)),
    );
    findings.push(check_display(&mut i2c, bus, address));
    for (bus, address, role) in &expanders {
        findings.push(check_expander(&mut i2c, *bus, *address, role));
    }
    let mut reader = Mfrc522::new(SimMfrc522::new(rig.reader_version), NoDelay);
    findings.push(check_reader(&mut reader));
    findings.extend(check_sensors(shape(config), scans, || rig.scan()));
    Ok(findings)
}

#[derive(Debug)]
struct NoDelay;
impl embedded_hal::delay::DelayNs for NoDelay {
    fn delay_ns(&mut self, _: u32) {}
}

fn calibrate_simulated(config: &Config, faults: &[String]) -> Result<ExitCode> {
    let mut rig = sim_rig(config, faults)?;
    let shape = shape(config);
    let mut cal = Calibration::new(shape);
    println!(
        "umpire calibrate: the simulated board; a simulated builder walks one piece over every square.\n\
         Legend: # occupied now, o seen, . never seen\n"
    );
    let (bus, address) = simulated_oled(config);
    let i2c = SimI2c::with_devices(rig.display_present.then_some(address));
    let mut oled = Display::with_options(i2c, address, Orientation::default());
    let mut oled_updates = 0u32;
    let mut oled_failed = None;
    for i in 0..shape.cells() {
        rig.board.clear();
        rig.board.set_piece(SensedCell::new(i), true);
        let occ = rig.scan().map_err(anyhow::Error::msg)?;
        let mut note = String::new();
        for event in cal.update(occ) {
            if let CalibrationEvent::On(name) = event {
                print!("{name} ");
                note = format!("{name} on");
            }
        }
        match oled.show_screen(&cal.screen(note)) {
            Ok(_) => oled_updates += 1,
            Err(e) => oled_failed = Some(e.to_string()),
        }
        if (i + 1) % u16::from(shape.columns) == 0 {
            println!();
        }
    }
    rig.board.clear();
    let occ = rig.scan().map_err(anyhow::Error::msg)?;
    cal.update(occ);
    println!("\n{}", cal.grid());
    let bytes = oled.release().bytes_written;
    match oled_failed {
        None => println!(
            "OLED (simulated, I2C bus {bus} at {address:#04x}): {oled_updates} updates, {bytes} bytes \
             written, only the changed squares each time."
        ),
        Some(e) => println!("OLED: {e}"),
    }
    report_calibration(&cal)
}

fn report_calibration(cal: &Calibration) -> Result<ExitCode> {
    let missing = cal.never_seen();
    let stuck: Vec<String> = cal.occupied().iter().map(|c| cal.shape().name(c)).collect();
    if !stuck.is_empty() {
        println!(
            "Still reading occupied with the board cleared: {}",
            stuck.join(" ")
        );
    }
    if missing.is_empty() && stuck.is_empty() {
        println!("Every square read a piece.");
        Ok(ExitCode::SUCCESS)
    } else {
        if !missing.is_empty() {
            println!(
                "Never read a piece: {} — check each one's reed switch, diode and solder joints.",
                missing.join(" ")
            );
        }
        Ok(ExitCode::from(1))
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
            Ok(mut i2c) => findings.push(check_display(&mut i2c, d.bus.number(), d.address)),
            Err(e) => findings.push(open_failed("display", &e)),
        }
    }
    let expanders = expanders(config);
    if let SensorConfig::Matrix { bus, .. } | SensorConfig::Expanders { bus, .. } = &config.sensor {
        match pi::open_i2c(config.i2c_path(*bus)) {
            Ok(mut i2c) => {
                for (bus, address, role) in &expanders {
                    findings.push(check_expander(&mut i2c, *bus, *address, role));
                }
            }
            Err(e) => findings.push(open_failed("expanders", &e)),
        }
    }
    if let Some(nfc) = &config.nfc {
        match pi::open_nfc(config, nfc) {
            Ok(opened) => {
                let (mut reader, _antennas) = opened.tags.into_parts();
                findings.push(check_reader(&mut reader));
            }
            Err(e) => findings.push(open_failed("NFC reader", &e)),
        }
    }
    println!("Take every piece off the board; scanning in 3 seconds...");
    std::thread::sleep(Duration::from_secs(3));
    match pi::open_scanner(config) {
        Ok(mut scanner) => {
            let period = scan_period(config);
            findings.extend(check_sensors(shape(config), scans, || {
                std::thread::sleep(period);
                scanner.scan()
            }));
        }
        Err(e) => findings.push(open_failed("sensors", &e)),
    }
    Ok(findings)
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
fn calibrate_hardware(config: &Config, seconds: Option<u64>) -> Result<ExitCode> {
    use firmware::platform::pi;
    use std::time::{Duration, Instant};
    let mut scanner = pi::open_scanner(config).map_err(anyhow::Error::new)?;
    let mut oled = match config.oled {
        Some(d) => Some(Display::with_options(
            pi::open_i2c(config.i2c_path(d.bus)).map_err(anyhow::Error::new)?,
            d.address,
            Orientation::default(),
        )),
        None => None,
    };
    let shape = shape(config);
    let mut cal = Calibration::new(shape);
    let period = scan_period(config);
    let start = Instant::now();
    println!("umpire calibrate: put a piece on every square in turn (Ctrl-C to stop).");
    println!("Legend: # occupied now, o seen, . never seen\n");
    loop {
        if seconds.is_some_and(|s| start.elapsed() >= Duration::from_secs(s)) {
            break;
        }
        let occ = scanner.scan().map_err(anyhow::Error::msg)?;
        let events = cal.update(occ);
        if !events.is_empty() {
            // Redraw in place: clear the screen, home the cursor.
            print!("\x1b[2J\x1b[H{}", cal.grid());
            let mut note = String::new();
            for e in events {
                note = match e {
                    CalibrationEvent::On(s) => format!("piece on {s}"),
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
        std::thread::sleep(period);
    }
    report_calibration(&cal)
}

#[cfg(not(feature = "pi"))]
fn doctor_hardware(_: &Config, _: u32) -> Result<Vec<Finding>> {
    bail!(NO_BACKEND)
}

/// `umpire run` on the Pi: the service loop, until the process is stopped.
#[cfg(feature = "pi")]
fn serve(config: &Config) -> Result<ExitCode> {
    use firmware::platform::pi;
    use firmware::referee::{OsChance, RefereeConfig};
    use firmware::sensing::{Millis, SensorLayout};
    use firmware::service::{Hardware, JournalDir, Service};
    use std::time::{Duration, Instant};

    let scanner = pi::open_scanner(config).map_err(anyhow::Error::new)?;
    let buttons = match &config.buttons {
        Some(b) => Some(Box::new(pi::open_buttons(b).map_err(anyhow::Error::new)?)
            as Box<dyn firmware::service::ButtonSource>),
        None => None,
    };
    let tags = match &config.nfc {
        Some(nfc) => Some(
            Box::new(pi::open_nfc(config, nfc).map_err(anyhow::Error::new)?)
                as Box<dyn firmware::service::TagSource>,
        ),
        None => None,
    };
    let oled = match config.oled {
        Some(d) => Some(Box::new(Display::with_options(
            pi::open_i2c(config.i2c_path(d.bus)).map_err(anyhow::Error::new)?,
            d.address,
            Orientation::default(),
        )) as Box<dyn firmware::service::ScreenSink>),
        None => None,
    };
    let layout = SensorLayout::new(config.layout_setup())
        .map_err(|p| anyhow::anyhow!("the board layout: {p}"))?;
    let referee = RefereeConfig {
        board: Some(layout.iter().map(|(_, place)| place).collect()),
        isf_rules: config.rules == firmware::config::RulesName::Isf,
        ..RefereeConfig::default()
    };
    let journals = JournalDir::open(&config.journal_dir).with_context(|| {
        format!(
            "cannot use the journal folder {} (check [journal] dir and its owner)",
            config.journal_dir.display()
        )
    })?;
    let boot = Instant::now();
    let now = || Millis(u64::try_from(boot.elapsed().as_millis()).unwrap_or(u64::MAX));
    let hardware = Hardware {
        scanner,
        buttons,
        tags,
        oled,
    };
    let mut service = Service::start(
        layout,
        referee,
        || OsChance,
        &journals,
        hardware,
        config.scan_hz,
        now(),
    )
    .map_err(anyhow::Error::new)?;
    println!(
        "umpire: refereeing on a {}x{} board, scanning at {} Hz, journals in {}",
        config.columns,
        config.rows,
        config.scan_hz,
        config.journal_dir.display()
    );
    loop {
        let step = service.step(now());
        // Only screens are logged: they hold nothing the rules keep secret.
        if let Some(screen) = step.screen {
            println!("screen: {screen}");
        }
        for trouble in step.trouble {
            eprintln!("trouble: {trouble}");
        }
        let due = service.next_scan().0.saturating_sub(now().0);
        std::thread::sleep(Duration::from_millis(due.clamp(1, 10)));
    }
}

#[cfg(not(feature = "pi"))]
fn serve(_: &Config) -> Result<ExitCode> {
    bail!(NO_BACKEND)
}

#[cfg(not(feature = "pi"))]
fn calibrate_hardware(_: &Config, _: Option<u64>) -> Result<ExitCode> {
    bail!(NO_BACKEND)
}

#[cfg(not(feature = "pi"))]
const NO_BACKEND: &str = "this build has no Raspberry Pi backend: build with `--features pi` \
     (the .deb packages are), or run against the simulated board with --simulated";
