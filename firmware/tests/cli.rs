//! The `umpire` binary's builder tools, run as a builder would run them, on the simulated board.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The user-mode QEMU and library root that `.cargo/config.toml` runs this target's binaries
/// with, for a cross-built test (`scripts/test` runs these tests under QEMU).
fn qemu_runner() -> Option<(&'static str, &'static str)> {
    if cfg!(target_arch = "aarch64") {
        Some(("qemu-aarch64", "/usr/aarch64-linux-gnu"))
    } else if cfg!(target_arch = "arm") {
        Some(("qemu-arm", "/usr/arm-linux-gnueabihf"))
    } else {
        None
    }
}

fn umpire(args: &[&str]) -> (i32, String) {
    let bin = env!("CARGO_BIN_EXE_umpire");
    let direct = Command::new(bin).args(args).output();
    // Under QEMU without binfmt_misc the host cannot exec the cross-built binary (exit 126/127,
    // no output): run it through the same QEMU the test itself runs under.
    let cannot_exec = |o: &Output| {
        matches!(o.status.code(), Some(126 | 127)) && o.stdout.is_empty() && o.stderr.is_empty()
    };
    let out: Output = match (direct, qemu_runner()) {
        (Ok(o), _) if !cannot_exec(&o) => o,
        (_, Some((qemu, root))) => Command::new(qemu)
            .args(["-L", root, bin])
            .args(args)
            .output()
            .expect("umpire runs under QEMU"),
        (result, None) => result.expect("umpire runs"),
    };
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// `umpire --config CONFIG --simulated ARGS...`: a builder's tool on the simulated board wired
/// as `config` describes.
fn simulated(config: &str, args: &[&str]) -> (i32, String) {
    let mut all = vec!["--config", config, "--simulated"];
    all.extend_from_slice(args);
    umpire(&all)
}

/// The shipped configuration's text (`debian/umpire.toml`).
fn shipped_config() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/debian/umpire.toml")).unwrap()
}

/// A fresh folder `umpire-cli-{name}-{pid}` in the temporary folder holding `umpire.toml`
/// (`text`) and the Waterloo layout file the shipped configuration names beside it; returns
/// the folder (for the test to remove) and the configuration's path.
fn config_folder(name: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("umpire-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("umpire.toml");
    std::fs::write(&path, text).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/debian/waterloo-layout.txt"),
        dir.join("waterloo-layout.txt"),
    )
    .unwrap();
    (dir, path)
}

#[test]
fn doctor_passes_a_healthy_simulated_board() {
    let (code, text) = umpire(&["--simulated", "doctor"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("ok      display: an OLED answers at 0x3c"),
        "{text}"
    );
    assert!(text.contains("ok      NFC reader"), "{text}");
    assert!(text.contains("every square reads empty"), "{text}");
}

#[test]
fn doctor_names_each_fault_and_its_fix() {
    let (code, text) = umpire(&[
        "--simulated",
        "doctor",
        "--fault",
        "stuck:e4",
        "--fault",
        "no-display",
        "--fault",
        "no-reader",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("PROBLEM square e4"), "{text}");
    assert!(
        text.contains("PROBLEM display: nothing answers at 0x3c"),
        "{text}"
    );
    // The fix names the section the configuration has: `[oled]` (it said `[display]`).
    assert!(text.contains("set [oled] address"), "{text}");
    assert!(text.contains("PROBLEM NFC reader"), "{text}");
    assert_eq!(text.matches("fix:").count(), 3, "{text}");
}

#[test]
fn calibrate_walks_every_square_and_reports_the_dead_one() {
    let (code, text) = umpire(&["--simulated", "calibrate", "--fault", "dead:c7"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains(" 7 o o . o o o o o o o"), "{text}");
    assert!(text.contains("Never read a piece (1 of 100): c7"), "{text}");
    // The simulated board is read through a 74HC165 chain: no diode to check.
    assert!(
        text.contains("check each one's reed switch, wiring and solder joints"),
        "{text}"
    );
    let (code, text) = umpire(&["--simulated", "calibrate"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("Every one of the board's 100 places read a piece."),
        "{text}"
    );
    assert!(
        text.contains("OLED (simulated, I2C bus 1 at 0x3c): 100 updates"),
        "{text}"
    );
}

/// Finding of the issue: `calibrate` never opened the reader although its help said it shows
/// tags. With --simulated it initialises each reader and shows the tag the walking piece carries.
#[test]
fn calibrate_shows_the_tags_each_reader_reads() {
    let (code, text) = umpire(&["--simulated", "calibrate"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("tag 04:A2:1B:7C:33:5E:80 over a1 (NFC reader 1)"),
        "{text}"
    );
    assert!(
        text.contains("tag 04:A2:1B:7C:33:5E:80 over d1 (NFC reader 2)"),
        "{text}"
    );
    // A reader that never initialises is named with its fix, and reads nothing.
    let (_, text) = umpire(&["--simulated", "calibrate", "--fault", "uninit-reader:2"]);
    assert!(text.contains("NFC reader 2 (c1 d1):"), "{text}");
    assert!(text.contains("MOSI"), "{text}");
    assert!(!text.contains("over c1"), "{text}");
}

/// Each simulated reader fault is named by `doctor` with its fix.
#[test]
fn doctor_names_each_reader_fault() {
    let (code, text) = umpire(&[
        "--simulated",
        "doctor",
        "--fault",
        "no-reader",
        "--fault",
        "uninit-reader:2",
        "--fault",
        "reset-reader:3",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("PROBLEM NFC reader 1 (a1 b1): absent: its VersionReg reads 0x00"),
        "{text}"
    );
    assert!(
        text.contains("PROBLEM NFC reader 2 (c1 d1): not initialised"),
        "{text}"
    );
    assert!(
        text.contains("PROBLEM NFC reader 3 (e1 f1): not initialised: it never came out of reset"),
        "{text}"
    );
    assert!(text.contains("ok      NFC reader 4"), "{text}");
    assert_eq!(text.matches("fix:").count(), 3, "{text}");
    let (code, text) = umpire(&["--simulated", "doctor", "--fault", "no-reader:99"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("needs a reader number 1 to 5"), "{text}");
}

#[test]
fn check_config_lists_every_problem_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("umpire-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("umpire.toml");
    std::fs::write(
        &path,
        "[board]\nscan_hz = 10\n[sensor]\nkind = \"gpio_matrix\"\n[sensor.gpio_matrix]\n\
         rows = [5, 6]\ncolumns = [5]\n",
    )
    .unwrap();
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("umpire.toml:2"), "{text}");
    assert!(text.contains("scan at 100 Hz or faster"), "{text}");
    assert!(text.contains("GPIO 5 is used twice"), "{text}");
    assert!(
        text.contains("senses 2 places but the board senses 100"),
        "{text}"
    );
    assert!(text.contains("no [buttons] section"), "{text}");
}

#[test]
fn the_shipped_configuration_checks_fine() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/debian/umpire.toml");
    let (code, text) = umpire(&["--config", path, "check-config"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "fine — 12x10 board, 15 74HC165s on spi0 CE1, no NFC, 11 GPIO pins wired, sensing \
             timing: the defaults"
        ),
        "{text}"
    );
}

/// A builder who lengthens the settle window (slow slides registered the squares they
/// crossed) sees `check-config` and `doctor` say the timing in use, as the file writes it; a
/// window too short to drop a pass-over is named with the file, its line and the fix. The old
/// code refused `[sensing]` as an unknown section.
#[test]
fn check_config_and_doctor_say_the_sensing_timing() {
    let tuned = shipped_config()
        .replacen("# settle_ms = 150", "settle_ms = 300", 1)
        .replacen("# decide_early = true", "decide_early = false", 1);
    assert_ne!(
        tuned,
        shipped_config(),
        "the shipped file documents both keys"
    );
    let (dir, path) = config_folder("sensing", &tuned);
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "11 GPIO pins wired, sensing timing: settle_ms = 300, decide_early = false (the rest \
             default)"
        ),
        "{text}"
    );
    let (code, text) = umpire(&[
        "--config",
        path.to_str().unwrap(),
        "--simulated",
        "doctor",
        "--scans",
        "5",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "ok      sensing timing: settle_ms = 300, decide_early = false (the rest default) \
             ([sensing] in the configuration)"
        ),
        "{text}"
    );
    let short = shipped_config().replacen("# settle_ms = 150", "settle_ms = 20", 1);
    let line = short
        .lines()
        .position(|l| l == "settle_ms = 20")
        .expect("the line set")
        + 1;
    std::fs::write(&path, short).unwrap();
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    let (doctor, said) = umpire(&["--config", path.to_str().unwrap(), "--simulated", "doctor"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains(&format!(
            "umpire.toml:{line}: [sensing] settle_ms = 20 is too short to drop a slid piece's \
             pass-over"
        )),
        "{text}"
    );
    assert!(text.contains("use 50 to 750"), "{text}");
    assert_eq!(doctor, 2, "{said}");
    assert!(
        said.contains(&format!("umpire.toml:{line}: [sensing] settle_ms")),
        "{said}"
    );
}

#[test]
fn doctor_checks_the_matrix_expanders() {
    let (dir, path) = config_folder(
        "matrix",
        &shipped_config().replace("kind = \"shift_chain\"", "kind = \"matrix\""),
    );
    let (code, text) = umpire(&[
        "--config",
        path.to_str().unwrap(),
        "--simulated",
        "doctor",
        "--scans",
        "5",
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("ok      expander 0x20 (matrix rows): a PCF8575 answers at 0x20"),
        "{text}"
    );
    assert!(
        text.contains("ok      expander 0x21 (matrix columns)"),
        "{text}"
    );
}

#[test]
fn a_missing_config_says_what_to_do() {
    let (code, text) = umpire(&["--config", "/nonexistent/umpire.toml", "doctor"]);
    assert_eq!(code, 2);
    assert!(
        text.contains("cannot read /nonexistent/umpire.toml"),
        "{text}"
    );
    assert!(text.contains("--simulated"), "{text}");
}

#[test]
fn unknown_faults_are_refused_with_the_list() {
    let (code, text) = umpire(&["--simulated", "doctor", "--fault", "melted:e4"]);
    assert_eq!(code, 2);
    assert!(text.contains("unknown fault `melted:e4`"), "{text}");
}

/// A fault that is not put in is refused with what to write instead: never a check that
/// passes for the wrong reason, nor ten switch problems for one matrix line.
#[test]
fn a_fault_that_cannot_be_simulated_is_refused_with_the_fix() {
    // The help's own example, a tray slot's number, on a board without tray slots.
    let (code, text) = umpire(&["--simulated", "doctor", "--fault", "stuck:125"]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("this board has no tray slots ([[board.tray]]")
            && text.contains("write a square like e4"),
        "{text}"
    );
    // A matrix's shorted row on the default simulated board, a chain.
    let (code, text) = umpire(&["--simulated", "doctor", "--fault", "row:3"]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("this board has no matrix") && !text.contains("PROBLEM"),
        "{text}"
    );
    // Without --simulated, on the hardware the configuration names.
    let (dir, path) = config_folder("fault", &shipped_config());
    let path = path.to_str().unwrap().to_string();
    let (code, text) = umpire(&["--config", &path, "doctor", "--fault", "stuck:e4"]);
    let (run, ran) = umpire(&["--config", &path, "run", "--fault", "stuck:e4"]);
    std::fs::remove_dir_all(dir).ok();
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("add --simulated"), "{text}");
    assert_eq!(run, 2, "{ran}");
    assert!(ran.contains("for `doctor` and `calibrate`"), "{ran}");
}

/// A configuration that cannot be read says why and the fix for that cause: a missing file,
/// or a folder given for the file.
#[test]
fn an_unreadable_configuration_says_the_fix_for_its_cause() {
    let dir = std::env::temp_dir().join(format!("umpire-cli-folder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (code, folder) = umpire(&["--config", dir.to_str().unwrap(), "check-config"]);
    let missing = dir.join("nothing.toml");
    let (missing_code, absent) = umpire(&["--config", missing.to_str().unwrap(), "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_ne!(code, 0, "{folder}");
    assert!(
        folder.contains("that is a folder: give the file with --config"),
        "{folder}"
    );
    assert_ne!(missing_code, 0, "{absent}");
    assert!(
        absent.contains("give another file with --config, or try --simulated"),
        "{absent}"
    );
}

#[test]
fn run_on_the_simulated_board_points_at_the_simulator() {
    let (code, text) = umpire(&["--simulated", "run"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("umpire-sim demo classic"), "{text}");
    // On hardware, a build without the Pi backend points at the simulator too, never back
    // at `--simulated`, which refuses `run` as above.
    if !cfg!(feature = "pi") {
        let (dir, path) = config_folder("run", &shipped_config());
        let (code, text) = umpire(&["--config", path.to_str().unwrap(), "run"]);
        std::fs::remove_dir_all(dir).ok();
        assert_ne!(code, 0, "{text}");
        assert!(
            text.contains("no Raspberry Pi backend") && text.contains("umpire-sim demo classic"),
            "{text}"
        );
        assert!(!text.contains("--simulated"), "{text}");
    }
}

/// The finding: an unplugged sensor cable read as a board full of pieces. Now the chain's
/// check chip makes it a named fault with its fix, through the real driver on the simulated
/// chain, with the shipped configuration (15 74HC165s) and with the simulated board.
#[test]
fn doctor_names_an_unplugged_or_short_sensor_chain() {
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/debian/umpire.toml");
    for config in [&["--config", shipped][..], &[][..]] {
        for (fault, says) in [
            (
                "unplugged",
                "the sensor chain does not answer (every bit reads 0)",
            ),
            (
                "unplugged-high",
                "the sensor chain does not answer (every bit reads 1)",
            ),
            ("missing-chip", "the sensor chain is 1 chip(s) short"),
        ] {
            let mut args = config.to_vec();
            args.extend(["--simulated", "doctor", "--scans", "3", "--fault", fault]);
            let (code, text) = umpire(&args);
            assert_eq!(code, 1, "{text}");
            assert!(
                text.contains(&format!("PROBLEM sensors: a scan failed: {says}")),
                "{text}"
            );
            assert!(!text.contains("PROBLEM square"), "{text}");
        }
    }
    let mut args = vec![
        "--config",
        shipped,
        "--simulated",
        "doctor",
        "--fault",
        "unplugged",
    ];
    let (_, text) = umpire(&args);
    assert!(text.contains("check the ribbon cable"), "{text}");
    // The fix names the wires the configuration reads the chain through.
    assert!(
        text.contains(
            "check the sensor's wires (SPI0 MISO GPIO 9, SCLK GPIO 11, CE1 GPIO 7 and the load \
             line on GPIO 24)"
        ),
        "{text}"
    );
    // A healthy shipped chain reads an empty board through the driver.
    args.truncate(4);
    let (code, text) = umpire(&args);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("every square reads empty"), "{text}");
}

/// An OLED that drops off the bus and comes back is named, with its fix, as a warning.
#[test]
fn doctor_names_an_oled_lost_and_back() {
    let (code, text) = umpire(&["--simulated", "doctor", "--fault", "oled-lost"]);
    assert_eq!(code, 0, "a warning, not a failure: {text}");
    assert!(
        text.contains("WARNING display link: the OLED was lost and came back: 3 of 10 frames"),
        "{text}"
    );
    assert!(
        text.contains("fix: check the OLED's VCC, GND, SDA and SCL"),
        "{text}"
    );
    let (_, healthy) = umpire(&["--simulated", "doctor"]);
    assert!(
        healthy.contains("ok      display link: 10 whole frames sent"),
        "{healthy}"
    );
}

/// `umpire setup --dry-run` prints exactly what it would change and changes nothing; the real
/// run keeps a backup and says a reboot is needed; a second run has nothing to do.
#[test]
fn setup_edits_config_txt_once_with_a_backup_and_a_dry_run_first() {
    let dir = std::env::temp_dir().join(format!("umpire-cli-setup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("config.txt");
    let stock = "#dtparam=i2c_arm=on\n#dtparam=spi=on\ndtparam=audio=on\n";
    std::fs::write(&file, stock).unwrap();
    let path = file.to_str().unwrap();
    let (code, text) = umpire(&["setup", "--dry-run", "--config-txt", path]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("line 1: `#dtparam=i2c_arm=on` becomes `dtparam=i2c_arm=on`"),
        "{text}"
    );
    assert!(text.contains("dtparam=i2c_arm_baudrate=400000"), "{text}");
    assert!(text.contains("nothing written"), "{text}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stock);
    let (code, text) = umpire(&["setup", "--config-txt", path]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("sudo reboot"), "{text}");
    let edited = std::fs::read_to_string(&file).unwrap();
    assert!(
        edited.starts_with("dtparam=i2c_arm=on\ndtparam=spi=on\n"),
        "{edited}"
    );
    let backup = dir.join("config.txt.umpire-backup");
    assert_eq!(std::fs::read_to_string(backup).unwrap(), stock);
    let (code, text) = umpire(&["setup", "--config-txt", path]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("nothing to change"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A board whose `umpire.toml` turns the LED chain on (SPI1, CE0) gets SPI1's overlay from
/// `umpire setup`: without it `/dev/spidev1.0` never appears. The shipped file (LEDs off) adds
/// nothing for SPI1.
#[test]
fn setup_adds_spi1_for_a_board_with_leds() {
    let dir = std::env::temp_dir().join(format!("umpire-cli-setup-leds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("debian/umpire.toml"),
    )
    .unwrap();
    let off = dir.join("off.toml");
    std::fs::write(&off, &shipped).unwrap();
    let on = dir.join("on.toml");
    let lit = shipped.replacen(
        "enabled = false\nbus = \"spi1\"",
        "enabled = true\nbus = \"spi1\"",
        1,
    );
    assert_ne!(
        lit, shipped,
        "the shipped [leds] section changed: update this test"
    );
    std::fs::write(&on, lit).unwrap();
    let file = dir.join("config.txt");
    std::fs::write(
        &file,
        "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\ndtparam=spi=on\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (code, text) = umpire(&[
        "--config",
        off.to_str().unwrap(),
        "setup",
        "--config-txt",
        path,
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("nothing to change"), "{text}");
    let (code, text) = umpire(&[
        "--config",
        on.to_str().unwrap(),
        "setup",
        "--config-txt",
        path,
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("dtoverlay=spi1-1cs"), "{text}");
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .ends_with("[all]\ndtoverlay=spi1-1cs\n"),
        "{text}"
    );
    let (_, again) = umpire(&[
        "--config",
        on.to_str().unwrap(),
        "setup",
        "--config-txt",
        path,
    ]);
    assert!(again.contains("nothing to change"), "{again}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The subcommands the systemd unit names (`run`, and `blank` after it stops) and the install
/// step (`setup`) exist in the binary.
#[test]
fn the_units_subcommands_exist() {
    let (code, text) = umpire(&["--help"]);
    assert_eq!(code, 0, "{text}");
    for sub in ["run", "blank", "setup"] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(sub)),
            "{sub}: {text}"
        );
    }
}

/// An owner who edits Napoléon's map and runs `umpire check-config` hears every problem of the
/// file with its path and line, read from beside the configuration.
#[test]
fn check_config_reads_napoleons_files_by_path() {
    // The shipped file has a [napoleon] section: the map goes into it.
    let config = shipped_config().replacen(
        "\n[napoleon]\n",
        "\n[napoleon]\nmap = \"napoleon-map.txt\"\n",
        1,
    );
    assert!(config.contains("map = \"napoleon-map.txt\""));
    let (dir, path) = config_folder("napoleon", &config);
    let map = boards::napoleon::DEFAULT_MAP.replacen("road BRU WAT", "road BRU QQQ", 1);
    let line = map
        .lines()
        .position(|l| l.starts_with("road BRU QQQ"))
        .unwrap()
        + 1;
    std::fs::write(dir.join("napoleon-map.txt"), &map).unwrap();
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    // Fixed, the same configuration checks fine.
    std::fs::write(dir.join("napoleon-map.txt"), boards::napoleon::DEFAULT_MAP).unwrap();
    let (fixed, fine) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("Napoleon map"), "{text}");
    assert!(
        text.contains(&format!("napoleon-map.txt:{line}:")),
        "{text}"
    );
    assert!(text.contains("QQQ"), "{text}");
    assert_eq!(fixed, 0, "{fine}");
}

/// An owner who registers his blocks' and pieces' NFC tags in a file and runs `umpire
/// check-config` hears every wrong line with the file's path and line, and the fixed file
/// checks fine: a broken tags file is never read as no tags at all.
#[test]
fn check_config_names_each_wrong_line_of_the_tags_file() {
    let shipped = shipped_config();
    // NFC fitted: enabled, one reader under a1 and b1, and the tags file named.
    let nfc_on = shipped
        .replacen(
            "enabled = false\nbus = \"spi0\"",
            "enabled = true\nbus = \"spi0\"",
            1,
        )
        .replacen(
            "# tags = \"tags.txt\"",
            "tags = \"tags.txt\"\n[[nfc.reader]]\ncells = [\"a1\", \"b1\"]",
            1,
        );
    assert_ne!(
        nfc_on, shipped,
        "the shipped [nfc] section is as this test expects"
    );
    let (dir, path) = config_folder("tags", &nfc_on);
    let good = "04:A2:1B:7C block NAPOLEON\n04:A2:1B:7D piece red Scout\n";
    std::fs::write(
        dir.join("tags.txt"),
        format!("{good}04:ZZ block WELLINGTON\n04:A2:1B:7E block NOBODY\n"),
    )
    .unwrap();
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    std::fs::write(dir.join("tags.txt"), good).unwrap();
    let (fixed, fine) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    // The tags named while NFC is disabled: the umpire runs, and says the file is not read.
    std::fs::write(
        &path,
        shipped.replacen("# tags = \"tags.txt\"", "tags = \"tags.txt\"", 1),
    )
    .unwrap();
    let (disabled, warned) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("tags.txt:3:"), "{text}");
    assert!(text.contains("04:ZZ"), "{text}");
    assert!(text.contains("tags.txt:4:"), "{text}");
    assert!(text.contains("NOBODY"), "{text}");
    assert_eq!(fixed, 0, "{fine}");
    assert_eq!(disabled, 0, "{warned}");
    assert!(
        warned.contains("tags file is not read") && warned.contains("enabled = true"),
        "{warned}"
    );
}

/// An owner with NFC readers who names a Napoléon variant set up by tags in `[game] variant`
/// hears `check-config` and `doctor` accept it; with the readers disabled both name the line
/// and the two fixes, and the service does not start. The old code refused it either way as
/// not on the menu.
#[test]
fn a_variant_set_up_by_tags_is_checked_against_the_readers() {
    let shipped = shipped_config();
    let game = shipped.replacen(
        "name = \"classic\"",
        "name = \"napoleon\"\nvariant = \"2-players-own-set-up-nfc-tags\"",
        1,
    );
    // NFC fitted: enabled, one reader under a1 and b1.
    let readers = game
        .replacen(
            "enabled = false\nbus = \"spi0\"",
            "enabled = true\nbus = \"spi0\"",
            1,
        )
        .replacen(
            "# [[nfc.reader]]\n# cells = [\"a1\", \"b1\"]",
            "[[nfc.reader]]\ncells = [\"a1\", \"b1\"]",
            1,
        );
    assert!(
        game != shipped && !readers.contains("# [[nfc.reader]]"),
        "the shipped [game] and [nfc] sections are as this test expects"
    );
    let line = game
        .lines()
        .position(|l| l.starts_with("variant = "))
        .unwrap()
        + 1;
    let (dir, path) = config_folder("variant-tags", &readers);
    let path = path.to_str().unwrap();
    let (checked, fine) = umpire(&["--config", path, "check-config"]);
    let (doctored, healthy) = simulated(path, &["doctor", "--scans", "3"]);
    std::fs::write(path, &game).unwrap();
    let (refused, why) = umpire(&["--config", path, "check-config"]);
    let (not_doctored, doctor_why) = simulated(path, &["doctor", "--scans", "3"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(checked, 0, "{fine}");
    assert!(fine.contains("NFC with 1 reader over 2 squares"), "{fine}");
    assert_eq!(doctored, 0, "{healthy}");
    for (code, text) in [(refused, &why), (not_doctored, &doctor_why)] {
        assert_eq!(code, 2, "{text}");
        assert!(
            text.contains(&format!(
                "umpire.toml:{line}: [game] variant = \"2-players-own-set-up-nfc-tags\" sets \
                 napoleon up by NFC tags, which the menu offers only with NFC readers under the \
                 board: configure them in [nfc] (enabled = true, one [[nfc.reader]] for \
                 each module), or use variant = \"2-players-own-set-up\" to set it up without tags"
            )),
            "{text}"
        );
    }
}

/// A builder whose Waterloo layout and Napoléon map are both broken hears both files' problems
/// from one `umpire check-config`, as the service's Fault screens list them: the old code
/// stopped at the layout, so the map's problems came only once the layout was fixed.
#[test]
fn check_config_names_every_broken_data_file_at_once() {
    let config = shipped_config().replacen(
        "\n[napoleon]\n",
        "\n[napoleon]\nmap = \"napoleon-map.txt\"\n",
        1,
    );
    let (dir, path) = config_folder("every-file", &config);
    let layout = std::fs::read_to_string(dir.join("waterloo-layout.txt")).unwrap();
    std::fs::write(
        dir.join("waterloo-layout.txt"),
        layout.replacen("facing.french: down", "facing.french: sideways", 1),
    )
    .unwrap();
    let map = boards::napoleon::DEFAULT_MAP.replacen("road BRU WAT", "road BRU QQQ", 1);
    std::fs::write(dir.join("napoleon-map.txt"), &map).unwrap();
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("waterloo-layout.txt:"), "{text}");
    assert!(text.contains("sideways"), "{text}");
    assert!(text.contains("napoleon-map.txt:"), "{text}");
    assert!(text.contains("QQQ"), "{text}");
}

/// A problem of a whole data file (a line it lacks) is told with the file's path alone, not as
/// "map.txt:0:", a line 0 no editor shows.
#[test]
fn check_config_names_a_whole_file_problem_without_a_line_0() {
    let config = shipped_config().replacen(
        "\n[napoleon]\n",
        "\n[napoleon]\nmap = \"napoleon-map.txt\"\n",
        1,
    );
    let (dir, path) = config_folder("line-0", &config);
    let map: String = boards::napoleon::DEFAULT_MAP
        .lines()
        .filter(|l| !l.starts_with("width broad"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("napoleon-map.txt"), &map).unwrap();
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("napoleon-map.txt: no `width broad` line"),
        "{text}"
    );
    assert!(!text.contains(":0:"), "{text}");
}

/// A builder hears from `check-config` which games the board cannot play, with the fix, before
/// a player meets the menu's refusal; a `[game] name` the board cannot play is a warning in
/// `check-config` and `doctor`. The old code said "fine" and left it to the menu.
#[test]
fn check_config_names_the_games_the_board_cannot_play() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/debian/umpire.toml");
    let (code, text) = umpire(&["--config", path, "check-config"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "  not on this board: Napoleon 1815: wire and configure a board of at least 26 \
             columns x 31 rows ([board] columns, rows)"
        ),
        "{text}"
    );
    assert!(
        text.contains("  not on this board: Stratego: Waterloo: wire and configure seat 1's"),
        "{text}"
    );
    assert!(
        !text.contains("not on this board: Stratego Original"),
        "{text}"
    );

    let napoleon = shipped_config().replacen("name = \"classic\"", "name = \"napoleon\"", 1);
    assert_ne!(napoleon, shipped_config(), "the shipped file names a game");
    let (dir, config) = config_folder("beyond", &napoleon);
    let config = config.to_str().unwrap();
    let (code, text) = umpire(&["--config", config, "check-config"]);
    let (doctor, said) = umpire(&["--config", config, "--simulated", "doctor", "--scans", "5"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("works, with 1 warning"), "{text}");
    assert!(
        text.contains(
            "  warning: [game] name = \"napoleon\": Napoleon 1815 cannot be played on this \
             board, so the menu refuses it when chosen; fix: name another game, or: wire and \
             configure a board of at least 26 columns x 31 rows"
        ),
        "{text}"
    );
    assert_eq!(doctor, 0, "{said}");
    assert!(
        said.contains("WARNING configuration: [game] name = \"napoleon\": Napoleon 1815 cannot"),
        "{said}"
    );
    assert!(
        said.contains("ok      games: Napoleon 1815 is not played on this board: wire"),
        "{said}"
    );
}

/// A builder wiring Napoléon's map (26 x 31 squares, 806 reed switches) on a chain of 101
/// 74HC165s hears the configuration is fine and every game but Waterloo's and Piecepack's
/// trays playable; a clock too slow for so long a chain at the scan rate is named with the
/// fix. The old code refused 31 rows and more than 32 chips.
#[test]
fn a_napoleon_board_on_a_long_chain_checks_fine() {
    let map = shipped_config()
        .replacen("columns = 12\nrows = 10", "columns = 26\nrows = 31", 1)
        .replacen("chips = 15 ", "chips = 101 ", 1)
        .replacen("name = \"classic\"", "name = \"napoleon\"", 1);
    assert!(
        map.contains("columns = 26\nrows = 31") && map.contains("chips = 101 "),
        "the shipped file's board changed"
    );
    let (dir, config) = config_folder("napoleon-board", &map);
    let path = config.to_str().unwrap();
    let (code, text) = umpire(&["--config", path, "check-config"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("fine — 26x31 board, 101 74HC165s on spi0 CE1"),
        "{text}"
    );
    assert!(!text.contains("not on this board: Napoleon"), "{text}");
    // The chain read through the schematic's order gone on past U15: a stuck switch under z31,
    // the last square, on the 101st chip, is named.
    let (code, said) = simulated(path, &["doctor", "--scans", "5", "--fault", "stuck:z31"]);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("PROBLEM square z31"), "{said}");
    let (code, walked) = simulated(path, &["calibrate"]);
    assert_eq!(code, 0, "{walked}");
    assert!(walked.contains("806 updates"), "{walked}");
    assert!(
        walked.contains("Every one of the board's 806 places read a piece."),
        "{walked}"
    );
    // Wired for Napoléon alone, the board has switches under the map's 530 slots only: the
    // walk asks for those, and the others are blank on the grid.
    let (code, walked) = simulated(path, &["calibrate", "--game", "napoleon"]);
    assert_eq!(code, 0, "{walked}");
    assert!(walked.contains("530 updates"), "{walked}");
    assert!(
        walked.contains("Every one of the 530 places Napoleon 1815 uses read a piece."),
        "{walked}"
    );
    assert!(
        walked.contains("blank: no place of Napoleon 1815"),
        "{walked}"
    );
    // 103 bytes at 100 kHz take 8.2 ms: 200 scans a second do not fit.
    let slow = map.replacen("spi_hz = 1_000_000", "spi_hz = 100_000", 1);
    std::fs::write(&config, slow).unwrap();
    let (code, text) = umpire(&["--config", path, "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains(
            "[board] scan_hz = 200 is faster than the 74HC165 chain can be read: a scan takes \
             8240 µs on SPI at 100000 Hz, so at most 121 scans a second; lower scan_hz or raise \
             [sensor.shift_chain] spi_hz"
        ),
        "{text}"
    );
}

/// The shipped configuration with Stratego: Waterloo's trays on the chain after the squares
/// (26 chips), seat 2's reserve given `reserve_2` slots (Waterloo needs 24).
fn waterloo_trays(reserve_2: u8) -> String {
    let trays = [
        ("reserve", 1, 10),
        ("reserve", 2, reserve_2),
        ("staging", 1, 13),
        ("withdrawn", 1, 20),
        ("withdrawn", 2, 20),
    ]
    .iter()
    .map(|(kind, seat, slots)| {
        format!("[[board.tray]]\nkind = \"{kind}\"\nseat = {seat}\nslots = {slots}\n")
    })
    .collect::<String>();
    let text = shipped_config()
        .replacen("chips = 15 ", "chips = 26 ", 1)
        .replacen("\n[sensing]\n", &format!("\n{trays}\n[sensing]\n"), 1);
    assert!(
        text.contains("chips = 26 "),
        "the shipped file's chain changed"
    );
    text
}

/// A tray wired with too few slots is told to have more, not to be configured again: a second
/// `[[board.tray]]` for it is refused by the configuration.
#[test]
fn a_tray_short_of_slots_is_told_how_many_it_needs() {
    let (dir, config) = config_folder("short-tray", &waterloo_trays(20));
    let (code, said) = umpire(&["--config", config.to_str().unwrap(), "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains(
            "not on this board: Stratego: Waterloo: wire and configure 24 slots, not 20, on seat \
             2's reserve tray ([[board.tray]] slots)"
        ),
        "{said}"
    );
}

/// A Stratego: Waterloo board with its 87 tray slots wired on the chain after the squares, as
/// the README tells the builder: `doctor` names a stuck tray switch as the configuration names
/// its slot, and `calibrate` walks the slots as well as the squares. Both stopped at l10 before,
/// so no tray switch was ever tested. `--game` takes the names `[game] name` takes.
#[test]
fn doctor_and_calibrate_check_the_tray_slots_of_a_waterloo_board() {
    let text = waterloo_trays(24);
    let (dir, config) = config_folder("waterloo-trays", &text);
    let path = config.to_str().unwrap();
    let (code, said) = umpire(&["--config", path, "check-config"]);
    assert_eq!(code, 0, "{said}");
    assert!(
        !said.contains("not on this board: Stratego: Waterloo"),
        "{said}"
    );
    // Cell 150 is the 31st slot: seat 2's reserve, slot 21 (after seat 1's 10).
    let (code, said) = simulated(path, &["doctor", "--scans", "5", "--fault", "stuck:150"]);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("PROBLEM seat 2 reserve slot 21"), "{said}");
    // A dead switch under the last slot, seat 2's 20th withdrawn slot (cell 206).
    let (code, walked) = simulated(path, &["calibrate", "--fault", "dead:206"]);
    assert_eq!(code, 1, "{walked}");
    assert!(walked.contains("207 updates"), "{walked}");
    assert!(
        walked.contains("Never read a piece (1 of 207): seat 2 withdrawn slot 20"),
        "{walked}"
    );
    assert!(
        walked.contains("\nseat 1 reserve: 1 2 3 4 5 6 7 8 9 10\nseat 2 reserve: 1 2 "),
        "{walked}"
    );
    let (code, walked) = simulated(path, &["calibrate", "--game", "waterloo"]);
    assert_eq!(code, 0, "{walked}");
    assert!(
        walked.contains("Every one of the 207 places Stratego: Waterloo uses read a piece."),
        "{walked}"
    );
    // Stratego uses a1 to j10: the k and l files and the trays are not asked for, and blank.
    let (code, walked) = simulated(path, &["calibrate", "--game", "classic"]);
    assert_eq!(code, 0, "{walked}");
    assert!(walked.contains("100 updates"), "{walked}");
    assert!(
        walked.contains("Every one of the 100 places Stratego Original uses read a piece."),
        "{walked}"
    );
    assert!(
        walked.contains("\n 1 o o o o o o o o o o     \n"),
        "{walked}"
    );
    // A board whose places never read are exactly the ones Stratego does not use (the k and l
    // files and the trays dead) is told to walk Stratego's; one dead square alone is not.
    let unused: Vec<String> = (1..=10)
        .flat_map(|row| [format!("dead:k{row}"), format!("dead:l{row}")])
        .chain((120..207).map(|cell| format!("dead:{cell}")))
        .collect();
    let mut args = vec!["calibrate"];
    for fault in &unused {
        args.extend(["--fault", fault.as_str()]);
    }
    let (code, walked) = simulated(path, &args);
    assert_eq!(code, 1, "{walked}");
    assert!(
        walked.contains(
            "They are exactly the places Stratego Original does not use: if the board is wired \
             for it alone, walk its places with `umpire calibrate --game classic`."
        ),
        "{walked}"
    );
    let (code, walked) = simulated(path, &["calibrate", "--fault", "dead:c7"]);
    assert_eq!(code, 1, "{walked}");
    assert!(!walked.contains("--game"), "{walked}");
    let (code, said) = simulated(path, &["calibrate", "--game", "chess"]);
    let (_, bad_cell) = simulated(path, &["doctor", "--fault", "stuck:207"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{said}");
    assert!(
        said.contains(
            "no game is called `chess`: write one of classic, duel, waterloo, piecepack, \
             sa-belle-alliance, napoleon"
        ),
        "{said}"
    );
    assert!(
        bad_cell.contains(
            "`207` is not a square of this 12x10 board (write e4, or a tray \
             slot's cell number 120 to 206)"
        ),
        "{bad_cell}"
    );
}

/// `calibrate --game` for a game whose places the board lacks refuses with what to wire, as the
/// menu and `check-config` say it, instead of walking the part of the game the board has and
/// calling it all (the shipped 12 x 10 board has none of Waterloo's 87 tray slots).
#[test]
fn calibrate_for_a_game_the_board_cannot_play_says_what_to_wire() {
    let (dir, config) = config_folder("calibrate-beyond", &shipped_config());
    let (code, said) = simulated(
        config.to_str().unwrap(),
        &["calibrate", "--game", "waterloo"],
    );
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{said}");
    assert!(!said.contains("read a piece"), "{said}");
    assert!(
        said.contains(
            "Stratego: Waterloo cannot be played on this board, so there is nothing to walk for \
             it: wire and configure seat 1's Prussian staging tray of 13 slots"
        ),
        "{said}"
    );
}

/// On the shipped chain, U1 reads a1..h1 (the pin map's order): every one of them stuck is told
/// as the chip, by its schematic name, not as eight switches; and `row:1` on a chain is no
/// "row" fault (a chain has no row lines).
#[test]
fn doctor_names_a_chain_chip_whose_switches_all_read() {
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/debian/umpire.toml");
    let faults: Vec<String> = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
        .iter()
        .map(|square| format!("stuck:{square}"))
        .collect();
    let mut args = vec!["doctor", "--scans", "5"];
    for fault in &faults {
        args.extend(["--fault", fault.as_str()]);
    }
    let (code, said) = simulated(shipped, &args);
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains(
            "PROBLEM chip U1: all 8 switches it reads (a1 to h1) read occupied on an empty board"
        ),
        "{said}"
    );
    assert!(!said.contains("PROBLEM square"), "{said}");
    let (_, said) = simulated(shipped, &["doctor", "--scans", "5", "--fault", "row:1"]);
    assert!(!said.contains("PROBLEM row"), "{said}");
}

/// On a board of PCF8575s with one switch a pin, every pin of one chip reading closed is that
/// chip (its supply, its joints), told once by its address; its neighbour's stuck pin is told
/// by its square. `[board] cells` decides which squares a chip's pins read.
#[test]
fn doctor_names_an_expander_whose_every_pin_reads() {
    let text =
        "[board]\ncolumns = 8\nrows = 4\nscan_hz = 100\ncells = [\"a3..h4\", \"a1..h2\"]\n\n\
                [sensor]\nkind = \"expanders\"\n[sensor.expanders]\nbus = \"i2c1\"\n\
                addresses = [0x20, 0x21]\n\n[oled]\nbus = \"i2c1\"\n\n\
                [buttons]\nok = 5\nback = 6\ndie = 13\n";
    let (dir, path) = config_folder("expanders", text);
    let mut args = vec![
        "--config".to_string(),
        path.to_str().unwrap().to_string(),
        "--simulated".to_string(),
    ];
    // 0x20's pins read a3..h4 (the list's first sixteen), all stuck; and a1 of 0x21.
    let stuck = ('a'..='h').flat_map(|c| [format!("{c}3"), format!("{c}4")]);
    for square in stuck.chain(["a1".to_string()]) {
        args.push("--fault".into());
        args.push(format!("stuck:{square}"));
    }
    args.extend(["doctor", "--scans", "5"].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, said) = umpire(&args);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("expander 0x20: all 16 switches it reads (a3 to h4) read occupied"),
        "{said}"
    );
    assert!(said.contains("check its VDD and ground pins"), "{said}");
    // Each chip's answer names the places its pins read.
    assert!(
        said.contains("ok      expander 0x20 (a3 to h4): a PCF8575 answers"),
        "{said}"
    );
    assert!(
        said.contains("ok      expander 0x21 (a1 to h2): a PCF8575 answers"),
        "{said}"
    );
    assert!(said.contains("square a1: reads occupied"), "{said}");
    assert!(!said.contains("square b3"), "{said}");
    assert!(!said.contains("expander 0x21:"), "{said}");
}

/// An owner follows the shipped configuration's words: copies each game's shipped data file
/// the package installs in /usr/share/umpire beside it, names the copy, and uncomments the
/// `[sba]` lines. The configuration checks fine and reads the copies.
#[test]
fn the_shipped_configuration_takes_the_owners_copies_of_the_shipped_files() {
    let config = shipped_config()
        .replacen(
            "\n[napoleon]\n",
            "\n[napoleon]\nmap = \"napoleon-map.txt\"\norder_of_battle = \"napoleon-oob.txt\"\n\
             turns = \"napoleon-turns.txt\"\nlayout = \"napoleon-layout.txt\"\n",
            1,
        )
        .replace("# [sba]\n", "[sba]\n")
        .replace(
            "# cards = \"sba-cards.toml\"\n",
            "cards = \"sba-cards.toml\"\n",
        )
        .replace(
            "# layout = \"sba-layout.txt\"\n",
            "layout = \"sba-layout.txt\"\n",
        );
    for line in [
        "\n[sba]\n",
        "\ncards = \"sba-cards.toml\"\n",
        "\nlayout = \"sba-layout.txt\"\n",
    ] {
        assert!(config.contains(line), "{line} {config}");
    }
    let (dir, path) = config_folder("copies", &config);
    // What the package installs in /usr/share/umpire: its assets ["source", "destination", ..].
    let manifest = env!("CARGO_MANIFEST_DIR");
    let cargo = std::fs::read_to_string(format!("{manifest}/Cargo.toml")).unwrap();
    let mut copied = 0;
    for line in cargo.lines() {
        let Some(inner) = line.trim().strip_prefix("[\"") else {
            continue;
        };
        let mut parts = inner.split("\", \"");
        let (Some(source), Some(to)) = (parts.next(), parts.next()) else {
            continue;
        };
        if let Some(name) = to.strip_prefix("usr/share/umpire/") {
            std::fs::copy(format!("{manifest}/{source}"), dir.join(name)).unwrap();
            copied += 1;
        }
    }
    assert_eq!(copied, 7, "the shipped data files");
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    // And the copies are what it reads: one broken, it says so.
    std::fs::write(dir.join("sba-layout.txt"), "grid: 0x0\n").unwrap();
    let (broken, said) = umpire(&["--config", path.to_str().unwrap(), "check-config"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{text}");
    assert_eq!(broken, 2, "{said}");
    assert!(said.contains("sba-layout.txt:1:"), "{said}");
}
