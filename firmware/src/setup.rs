//! `umpire setup`: turns on what the umpire needs in the Pi's boot configuration, by editing
//! `config.txt` the way a builder would by hand.
//!
//! It wants I2C on (`dtparam=i2c_arm=on`: the OLED and the expanders), its clock at 400 kHz
//! (`dtparam=i2c_arm_baudrate=400000`: a full OLED frame in about 25 ms) and SPI on
//! (`dtparam=spi=on`: the 74HC165 chain and the NFC reader). For each it keeps a line that
//! already says so; otherwise it un-comments the stock `#dtparam=...` line, corrects a line
//! that says otherwise, or (when the only such line sits under a model filter like `[pi4]`)
//! appends the line under `[all]` at the end, where it applies to every model. When
//! `umpire.toml` puts a device on SPI1 (the LED chain's own bus), it also wants that bus's
//! overlay with enough chip selects (`dtoverlay=spi1-1cs` for CE0), and widens a line that
//! gives too few. For a board that wires SPI0's pins to something else (a matrix straight on
//! GPIO) it wants SPI0 off instead, and `force_eeprom_read=0` when GPIO 0 or 1 is wired
//! ([`BootNeeds`]). Running it again
//! changes nothing. Before writing it keeps a copy of the file (`config.txt.umpire-backup`,
//! never overwriting an older copy), and the firmware reads the file only at boot: a reboot is
//! needed.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The `dtparam`s the umpire needs, with their values (SPI0's as [`BootNeeds::spi0`] says).
pub const WANTED: [(&str, &str); 3] = [
    ("i2c_arm", "on"),
    ("i2c_arm_baudrate", "400000"),
    ("spi", "on"),
];

/// What a board's `umpire.toml` needs of the boot configuration beyond I2C
/// ([`Config::boot_needs`](crate::config::Config::boot_needs)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BootNeeds {
    /// SPI0 on (`dtparam=spi=on`), or off: the kernel's SPI driver takes GPIO 7-11, so a board
    /// that wires one of them to something else (Option C's matrix) needs it off.
    pub spi0: bool,
    /// The chip selects of SPI1 in use (`dtoverlay=spi1-Ncs`), none when nothing is on SPI1.
    pub spi1_chip_selects: Option<u8>,
    /// `force_eeprom_read=0`: a pin of the HAT ID EEPROM (GPIO 0 or 1) is wired, and the Pi's
    /// probe of that EEPROM at boot must leave it alone.
    pub no_eeprom_read: bool,
}

impl Default for BootNeeds {
    /// What the pin map's boards A and B need (SPI0 on for the shift chain and the NFC
    /// readers, nothing on SPI1): what `umpire setup` does without a configuration file.
    fn default() -> BootNeeds {
        BootNeeds {
            spi0: true,
            spi1_chip_selects: None,
            no_eeprom_read: false,
        }
    }
}

/// Where the boot configuration is: `/boot/firmware/config.txt` (Raspberry Pi OS Bookworm and
/// later), else `/boot/config.txt` (older images), under `root` (`/` on a Pi).
pub fn config_txt(root: &Path) -> Option<PathBuf> {
    ["boot/firmware/config.txt", "boot/config.txt"]
        .iter()
        .map(|p| root.join(p))
        .find(|p| p.is_file())
}

/// One edit to the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Line `line` (from 1) is replaced.
    Replace {
        /// The line number, from 1.
        line: usize,
        /// The line as it is.
        from: String,
        /// The line it becomes.
        to: String,
    },
    /// Lines are added at the end.
    Append {
        /// The lines.
        lines: Vec<String>,
    },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Replace { line, from, to } => {
                write!(f, "line {line}: `{from}` becomes `{to}`")
            }
            Change::Append { lines } => {
                write!(f, "add at the end:")?;
                for l in lines {
                    write!(f, "\n    {l}")?;
                }
                Ok(())
            }
        }
    }
}

/// What `umpire setup` would do to a `config.txt`: the changes, and the text after them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The edits, in file order (appends last).
    pub changes: Vec<Change>,
    /// The file's text after the edits.
    pub text: String,
}

/// A `dtparam=` line's parameters: (name, value) in order.
fn dtparams(line: &str) -> Option<Vec<(String, String)>> {
    let rest = line.trim().strip_prefix("dtparam=")?;
    Some(
        rest.split(',')
            .map(|p| match p.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                // A bare name means "on".
                None => (p.trim().to_string(), "on".to_string()),
            })
            .collect(),
    )
}

fn render(params: &[(String, String)]) -> String {
    let parts: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("dtparam={}", parts.join(","))
}

/// The last line that `read` reads, with its index: among the lines for every model (outside
/// a model filter such as `[pi4]`, or under `[all]`) when `global`, else among those under a
/// model filter.
fn last_line<V>(
    lines: &[String],
    global: bool,
    read: impl Fn(&str) -> Option<V>,
) -> Option<(usize, V)> {
    let mut for_all = true;
    let mut found = None;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            for_all = t.eq_ignore_ascii_case("[all]");
        } else if for_all == global {
            if let Some(v) = read(t) {
                found = Some((i, v));
            }
        }
    }
    found
}

/// Plans the edits `text` needs for a board of the pin map's options A and B without LEDs
/// (see the module docs).
pub fn plan(text: &str) -> Plan {
    plan_for(text, BootNeeds::default())
}

/// A `dtoverlay=spi1-Ncs` line's chip-select count and the rest of its parameters.
fn spi1_overlay(line: &str) -> Option<(u8, &str)> {
    let rest = line.trim().strip_prefix("dtoverlay=spi1-")?;
    let (name, params) = rest.split_once(',').unwrap_or((rest, ""));
    let n = name.strip_suffix("cs")?.parse().ok()?;
    Some((n, params))
}

/// Plans the edits `text` needs for a board that needs `needs`: I2C always; SPI0 on, or off
/// where the board wires its pins to something else; SPI1's overlay with enough chip selects
/// when something is on it; `force_eeprom_read=0` when a HAT ID pin is wired.
pub fn plan_for(text: &str, needs: BootNeeds) -> Plan {
    let spi1_chip_selects = needs.spi1_chip_selects;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut changes = Vec::new();
    let mut append = Vec::new();
    for (name, value) in WANTED {
        let off = name == "spi" && !needs.spi0;
        let value = if off { "off" } else { value };
        // The last line that sets `name` for every model, the last commented stock line, and
        // the last line under a model filter (`[pi4]`) that sets it otherwise than wanted.
        let sets = |t: &str| dtparams(t).filter(|ps| ps.iter().any(|(k, _)| k == name));
        let active = last_line(&lines, true, |t| sets(t)).map(|(i, _)| i);
        let commented = last_line(&lines, true, |t| {
            let ps = dtparams(t.strip_prefix('#')?.trim())?;
            (ps.len() == 1 && ps[0].0 == name).then_some(())
        })
        .map(|(i, _)| i);
        let filtered_otherwise = last_line(&lines, false, |t| {
            sets(t).filter(|ps| ps.iter().any(|(k, v)| k == name && v != value))
        })
        .map(|(i, _)| i);
        match (active, commented) {
            (Some(i), _) => {
                let mut params = dtparams(&lines[i]).unwrap_or_default();
                let mut changed = false;
                for (k, v) in &mut params {
                    if k == name && v != value {
                        *v = value.to_string();
                        changed = true;
                    }
                }
                if changed {
                    let to = render(&params);
                    changes.push(Change::Replace {
                        line: i + 1,
                        from: lines[i].clone(),
                        to: to.clone(),
                    });
                    lines[i] = to;
                }
            }
            // Off is what a commented or missing line already says (a model's own line that
            // turns it on is seen to below).
            (None, _) if off => {}
            (None, Some(i)) => {
                let to = format!("dtparam={name}={value}");
                changes.push(Change::Replace {
                    line: i + 1,
                    from: lines[i].clone(),
                    to: to.clone(),
                });
                lines[i] = to;
            }
            (None, None) => append.push(format!("dtparam={name}={value}")),
        }
        // A model's own line after the one that sets it wins on that model: the wanted value
        // again under `[all]` at the end, after it.
        let wanted = format!("dtparam={name}={value}");
        let set_at = match (active, commented) {
            (Some(i), _) => Some(i),
            (None, Some(i)) if !off => Some(i),
            _ => None,
        };
        if let Some(f) = filtered_otherwise {
            if !append.contains(&wanted) && set_at.is_none_or(|i| f > i) {
                append.push(wanted);
            }
        }
    }
    if let Some(wanted) = spi1_chip_selects {
        let found = last_line(&lines, true, |t| {
            spi1_overlay(t).map(|(n, params)| (n, params.to_string()))
        });
        match found {
            Some((_, (n, _))) if n >= wanted => {}
            Some((i, (_, params))) => {
                let mut to = format!("dtoverlay=spi1-{wanted}cs");
                if !params.is_empty() {
                    to = format!("{to},{params}");
                }
                changes.push(Change::Replace {
                    line: i + 1,
                    from: lines[i].clone(),
                    to: to.clone(),
                });
                lines[i] = to;
            }
            None => append.push(format!("dtoverlay=spi1-{wanted}cs")),
        }
    }
    if needs.no_eeprom_read {
        let found = last_line(&lines, true, |t| {
            t.strip_prefix("force_eeprom_read=")
                .map(|v| v.trim() == "0")
        });
        match found {
            Some((_, true)) => {}
            Some((i, false)) => {
                let to = "force_eeprom_read=0".to_string();
                changes.push(Change::Replace {
                    line: i + 1,
                    from: lines[i].clone(),
                    to: to.clone(),
                });
                lines[i] = to;
            }
            None => append.push("force_eeprom_read=0".to_string()),
        }
    }
    changes.sort_by_key(|c| match c {
        Change::Replace { line, .. } => *line,
        Change::Append { .. } => usize::MAX,
    });
    if !append.is_empty() {
        // The comment names what the appended lines are for, and nothing else.
        let mut what = Vec::new();
        if append.iter().any(|l| l.starts_with("dtparam=i2c")) {
            what.push("I2C at 400 kHz (OLED, expanders)");
        }
        if append.iter().any(|l| l == "dtparam=spi=on") {
            what.push("SPI (sensors, NFC)");
        }
        if append.iter().any(|l| l == "dtparam=spi=off") {
            what.push("SPI0 off (its pins are the matrix's)");
        }
        if append.iter().any(|l| l.starts_with("dtoverlay=spi1-")) {
            what.push("SPI1 (LEDs)");
        }
        if append.iter().any(|l| l.starts_with("force_eeprom_read")) {
            what.push("no HAT EEPROM probe (GPIO 0 or 1 is wired)");
        }
        let mut block = vec![
            String::new(),
            format!("# Added by `umpire setup`: {}.", what.join(", ")),
            "[all]".to_string(),
        ];
        block.extend(append);
        lines.extend(block.iter().cloned());
        changes.push(Change::Append { lines: block });
    }
    let text = if changes.is_empty() {
        text.to_string()
    } else {
        lines.join("\n") + "\n"
    };
    Plan { changes, text }
}

/// Why `umpire setup` could not do its work, and what to do.
#[derive(Debug)]
pub enum SetupError {
    /// Neither `/boot/firmware/config.txt` nor `/boot/config.txt` exists.
    NoConfigTxt,
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NoConfigTxt => f.write_str(
                "neither /boot/firmware/config.txt nor /boot/config.txt exists: run this on the \
                 Raspberry Pi (Raspberry Pi OS), or give the file with --config-txt",
            ),
            SetupError::Io { path, source } => write!(
                f,
                "cannot use {} ({source}): run `sudo umpire setup` (the file belongs to root)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// What [`apply`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The edits made (none: the file already had everything).
    pub changes: Vec<Change>,
    /// The copy of the file as it was, when it was changed.
    pub backup: Option<PathBuf>,
}

/// Edits `path` as [`plan`] says, after keeping a copy of it (the first free name of
/// `NAME.umpire-backup`, `NAME.umpire-backup.1`, ...). The new text is written to a temporary
/// file beside it and renamed over it, so a power cut leaves the old file or the new one.
///
/// # Errors
/// The file, its copy or the temporary file could not be read or written.
pub fn apply(path: &Path, needs: BootNeeds) -> Result<Applied, SetupError> {
    let io = |source| SetupError::Io {
        path: path.to_path_buf(),
        source,
    };
    let text = fs::read_to_string(path).map_err(io)?;
    let plan = plan_for(&text, needs);
    if plan.changes.is_empty() {
        return Ok(Applied {
            changes: Vec::new(),
            backup: None,
        });
    }
    let name = path
        .file_name()
        .map_or_else(|| "config.txt".into(), |n| n.to_string_lossy().into_owned());
    let backup = (0..)
        .map(|n| {
            let suffix = if n == 0 {
                String::new()
            } else {
                format!(".{n}")
            };
            path.with_file_name(format!("{name}.umpire-backup{suffix}"))
        })
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.with_file_name(format!("{name}.umpire-backup")));
    fs::copy(path, &backup).map_err(io)?;
    let temp = path.with_file_name(format!("{name}.umpire-new"));
    fs::write(&temp, &plan.text).map_err(io)?;
    if let Ok(f) = fs::File::open(&temp) {
        let _ = f.sync_all();
    }
    fs::rename(&temp, path).map_err(io)?;
    Ok(Applied {
        changes: plan.changes,
        backup: Some(backup),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stock Raspberry Pi OS (Bookworm) lines around the interfaces.
    const STOCK: &str = "\
# For more options and information see
# http://rptl.io/configtxt

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

[cm4]
otg_mode=1

[all]
";

    /// A board of options A or B with `n` chip selects of SPI1 in use (the LED chain).
    fn spi1(n: u8) -> BootNeeds {
        BootNeeds {
            spi1_chip_selects: Some(n),
            ..BootNeeds::default()
        }
    }

    /// Option C's matrix on GPIO (`schematics/README.md`): its rows and columns use SPI0's
    /// pins, so SPI0 stays off ("leave `dtparam=spi=on` out"), and its COL4 on GPIO 0 needs
    /// `force_eeprom_read=0`. A line turning SPI on is turned off; a commented one is left.
    #[test]
    fn a_matrix_on_gpio_gets_spi0_off_and_no_eeprom_probe() {
        let matrix = BootNeeds {
            spi0: false,
            spi1_chip_selects: None,
            no_eeprom_read: true,
        };
        let stock = plan_for(STOCK, matrix);
        assert!(stock.text.contains("\n#dtparam=spi=on\n"), "{}", stock.text);
        assert!(!stock.text.contains("\ndtparam=spi=on"), "{}", stock.text);
        assert!(
            stock.text.ends_with(
                "# Added by `umpire setup`: I2C at 400 kHz (OLED, expanders), no HAT EEPROM \
                 probe (GPIO 0 or 1 is wired).\n[all]\ndtparam=i2c_arm_baudrate=400000\n\
                 force_eeprom_read=0\n"
            ),
            "{}",
            stock.text
        );
        assert!(plan_for(&stock.text, matrix).changes.is_empty());
        // A builder who turned SPI on, and a probe forced on: both corrected in place.
        let text = "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\ndtparam=spi=on\n\
                    force_eeprom_read=1\n";
        let fixed = plan_for(text, matrix);
        assert_eq!(
            fixed.changes,
            vec![
                Change::Replace {
                    line: 2,
                    from: "dtparam=spi=on".into(),
                    to: "dtparam=spi=off".into()
                },
                Change::Replace {
                    line: 3,
                    from: "force_eeprom_read=1".into(),
                    to: "force_eeprom_read=0".into()
                },
            ]
        );
        assert!(plan_for(&fixed.text, matrix).changes.is_empty());
        // SPI turned on for one model only still turns it on there: off under [all] after it.
        let text = "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\nforce_eeprom_read=0\n[pi4]\n\
                    dtparam=spi=on\n";
        let filtered = plan_for(text, matrix);
        assert!(
            filtered.text.ends_with("[all]\ndtparam=spi=off\n"),
            "{}",
            filtered.text
        );
        assert!(plan_for(&filtered.text, matrix).changes.is_empty());
        // A model's line after the line for all that sets it: the same, for off and for on.
        let after = "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\nforce_eeprom_read=0\n\
                     dtparam=spi=on\n[pi4]\ndtparam=spi=on\n";
        let fixed = plan_for(after, matrix);
        assert!(
            fixed.text.contains("\ndtparam=spi=off\n[pi4]"),
            "{}",
            fixed.text
        );
        assert!(
            fixed.text.ends_with("[all]\ndtparam=spi=off\n"),
            "{}",
            fixed.text
        );
        assert!(plan_for(&fixed.text, matrix).changes.is_empty());
        let off_for_pi4 = "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n#dtparam=spi=on\n\
                           [pi4]\ndtparam=spi=off\n";
        let on = plan(off_for_pi4);
        assert!(on.text.ends_with("[all]\ndtparam=spi=on\n"), "{}", on.text);
        assert!(plan(&on.text).changes.is_empty());
        // Boards A and B keep SPI on and the probe.
        assert!(!plan(STOCK).text.contains("force_eeprom_read"));
    }

    #[test]
    fn the_stock_file_gets_its_lines_uncommented_and_the_clock_added() {
        let plan = plan(STOCK);
        assert_eq!(plan.changes.len(), 3, "{:#?}", plan.changes);
        assert_eq!(
            plan.changes[0],
            Change::Replace {
                line: 5,
                from: "#dtparam=i2c_arm=on".into(),
                to: "dtparam=i2c_arm=on".into()
            }
        );
        assert!(plan.text.contains("\ndtparam=spi=on\n"));
        assert!(plan.text.contains("#dtparam=i2s=on"), "other lines stay");
        assert!(plan
            .text
            .ends_with("[all]\ndtparam=i2c_arm_baudrate=400000\n"));
    }

    #[test]
    fn planning_again_changes_nothing() {
        let once = plan(STOCK);
        let twice = plan(&once.text);
        assert!(twice.changes.is_empty(), "{:#?}", twice.changes);
        assert_eq!(twice.text, once.text);
    }

    #[test]
    fn a_line_that_says_otherwise_is_corrected_and_one_under_a_model_filter_is_not_trusted() {
        let text = "dtparam=i2c_arm=on,i2c_arm_baudrate=100000\n[pi4]\ndtparam=spi=on\n";
        let plan = plan(text);
        assert_eq!(
            plan.changes[0],
            Change::Replace {
                line: 1,
                from: "dtparam=i2c_arm=on,i2c_arm_baudrate=100000".into(),
                to: "dtparam=i2c_arm=on,i2c_arm_baudrate=400000".into()
            }
        );
        assert!(
            plan.text.ends_with("[all]\ndtparam=spi=on\n"),
            "SPI only on a Pi 4 is not enough: {}",
            plan.text
        );
        assert!(super::plan(&plan.text).changes.is_empty());
    }

    /// The LED chain's bus (`[leds] bus = "spi1"`) needs its overlay: without it
    /// `/dev/spidev1.0` never appears and the chain stays dark.
    #[test]
    fn a_board_with_leds_on_spi1_gets_the_overlay_and_a_narrow_one_is_widened() {
        let leds = plan_for(STOCK, spi1(1));
        assert!(
            leds.text
                .ends_with("dtparam=i2c_arm_baudrate=400000\ndtoverlay=spi1-1cs\n"),
            "{}",
            leds.text
        );
        assert!(plan_for(&leds.text, spi1(1)).changes.is_empty());
        assert!(
            !plan(STOCK).text.contains("spi1"),
            "no SPI1 device, no overlay"
        );
        // A device on CE1 needs two chip selects: the builder's own line is widened, its
        // parameters kept.
        let text = "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\ndtparam=spi=on\n\
                    dtoverlay=spi1-1cs,cs0_pin=18\n";
        let wider = plan_for(text, spi1(2));
        assert_eq!(
            wider.changes,
            vec![Change::Replace {
                line: 3,
                from: "dtoverlay=spi1-1cs,cs0_pin=18".into(),
                to: "dtoverlay=spi1-2cs,cs0_pin=18".into()
            }]
        );
        assert!(plan_for(text, spi1(1)).changes.is_empty(), "enough already");
        // Under a model filter it does not count.
        let filtered = plan_for("[pi4]\ndtoverlay=spi1-3cs\n", spi1(1));
        assert!(
            filtered
                .text
                .ends_with("dtparam=spi=on\ndtoverlay=spi1-1cs\n"),
            "{}",
            filtered.text
        );
    }

    #[test]
    fn apply_keeps_a_backup_writes_once_and_finds_the_file() {
        let root = std::env::temp_dir().join(format!("umpire-setup-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        assert_eq!(config_txt(&root), None);
        fs::create_dir_all(root.join("boot")).unwrap();
        fs::write(root.join("boot/config.txt"), STOCK).unwrap();
        let path = config_txt(&root).unwrap();
        assert_eq!(path, root.join("boot/config.txt"), "older images");
        let applied = apply(&path, BootNeeds::default()).unwrap();
        assert_eq!(applied.changes.len(), 3);
        let backup = applied.backup.unwrap();
        assert_eq!(fs::read_to_string(&backup).unwrap(), STOCK);
        assert_eq!(fs::read_to_string(&path).unwrap(), plan(STOCK).text);
        let again = apply(&path, BootNeeds::default()).unwrap();
        assert!(again.changes.is_empty() && again.backup.is_none());
        // Bookworm's location wins when both exist.
        fs::create_dir_all(root.join("boot/firmware")).unwrap();
        fs::write(root.join("boot/firmware/config.txt"), "").unwrap();
        assert_eq!(
            config_txt(&root),
            Some(root.join("boot/firmware/config.txt"))
        );
        // A second backup never overwrites the first.
        fs::write(&path, STOCK).unwrap();
        let second = apply(&path, BootNeeds::default()).unwrap().backup.unwrap();
        assert_ne!(second, backup);
        assert!(second.to_string_lossy().ends_with(".umpire-backup.1"));
        fs::remove_dir_all(&root).ok();
    }
}
