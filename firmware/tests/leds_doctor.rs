//! `umpire doctor` lights each LED of the guidance chain in turn: checked against the SPI bus
//! mock, every frame decoded back into colours.

use embedded_hal_mock::eh1::delay::{CheckedDelay, Transaction as DelayTx};
use embedded_hal_mock::eh1::spi::{Mock, Transaction};
use firmware::doctor::{check_leds, Severity, LED_STEP_MS};
use firmware::drivers::leds::{decode, encode_frame, Brightness, LedChain, Rgb};
use firmware::guidance::{LedMap, LedOrder};
use firmware::sensing::LayoutSetup;

#[test]
fn doctor_lights_each_led_alone_in_the_chain_order_then_switches_all_off() {
    let layout = LayoutSetup::grid(3, 2).validate().unwrap();
    let map = LedMap::new(&layout, LedOrder::Serpentine);
    let brightness = Brightness::new(16).unwrap();
    let mut expected = vec![
        Transaction::write_vec(encode_frame(&[Rgb::OFF; 6], brightness)),
        Transaction::flush(),
    ];
    for i in 0..6 {
        let mut colours = [Rgb::OFF; 6];
        colours[i] = Rgb::WHITE;
        expected.push(Transaction::write_vec(encode_frame(&colours, brightness)));
        expected.push(Transaction::flush());
    }
    expected.push(Transaction::write_vec(encode_frame(
        &[Rgb::OFF; 6],
        brightness,
    )));
    expected.push(Transaction::flush());
    // Each frame on the wire is one LED lit, white at the capped brightness: LED i at step i.
    for i in 0..6 {
        let mut colours = [Rgb::OFF; 6];
        colours[i] = Rgb::WHITE;
        let lit = decode::colours(&encode_frame(&colours, brightness)).unwrap();
        let on: Vec<usize> = (0..6).filter(|k| !lit[*k].is_off()).collect();
        assert_eq!(on, vec![i]);
        assert_eq!(lit[i], Rgb::new(16, 16, 16));
    }
    let mut spi = Mock::new(&expected);
    let mut delay = CheckedDelay::new(&vec![DelayTx::delay_ms(LED_STEP_MS); 6]);
    let mut seen = Vec::new();
    let names = |i: usize| map.place(i).map_or("-".into(), |p| p.to_string());
    let finding = check_leds(
        LedChain::new(spi.clone(), map.len(), brightness),
        &map,
        names,
        &mut delay,
        |i, name| seen.push(format!("{i}:{name}")),
    );
    assert_eq!(finding.severity, Severity::Ok, "{finding}");
    assert!(finding.detail.contains("6 LEDs"), "{finding}");
    assert!(finding.detail.contains("LED 0 under a1"), "{finding}");
    // The serpentine: row 1 left to right, row 2 right to left.
    assert_eq!(seen, ["0:a1", "1:b1", "2:c1", "3:c2", "4:b2", "5:a2"]);
    spi.done();
    delay.done();
}

#[test]
fn a_bus_that_fails_is_a_problem_with_the_fix() {
    #[derive(Debug)]
    struct Broken;
    impl embedded_hal::spi::ErrorType for Broken {
        type Error = embedded_hal::spi::ErrorKind;
    }
    impl embedded_hal::spi::SpiBus for Broken {
        fn read(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            Err(embedded_hal::spi::ErrorKind::Other)
        }
        fn write(&mut self, _: &[u8]) -> Result<(), Self::Error> {
            Err(embedded_hal::spi::ErrorKind::Other)
        }
        fn transfer(&mut self, _: &mut [u8], _: &[u8]) -> Result<(), Self::Error> {
            Err(embedded_hal::spi::ErrorKind::Other)
        }
        fn transfer_in_place(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            Err(embedded_hal::spi::ErrorKind::Other)
        }
        fn flush(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }
    let layout = LayoutSetup::grid(2, 1).validate().unwrap();
    let map = LedMap::new(&layout, LedOrder::Cells);
    let mut delay = CheckedDelay::new(&[]);
    let finding = check_leds(
        LedChain::new(Broken, map.len(), Brightness::MAX),
        &map,
        |i| i.to_string(),
        &mut delay,
        |_, _| panic!("no LED lights on a broken bus"),
    );
    assert_eq!(finding.severity, Severity::Problem);
    assert!(finding.fix.contains("dtoverlay=spi1-1cs"), "{finding}");
    delay.done();
}

/// Runs the `umpire` binary (through the target's QEMU when cross-built, as `tests/cli.rs`).
fn umpire(args: &[&str]) -> (i32, String) {
    use std::process::{Command, Output};
    let bin = env!("CARGO_BIN_EXE_umpire");
    let qemu = if cfg!(target_arch = "aarch64") {
        Some(("qemu-aarch64", "/usr/aarch64-linux-gnu"))
    } else if cfg!(target_arch = "arm") {
        Some(("qemu-arm", "/usr/arm-linux-gnueabihf"))
    } else {
        None
    };
    let direct = Command::new(bin).args(args).output();
    let cannot_exec = |o: &Output| {
        matches!(o.status.code(), Some(126 | 127)) && o.stdout.is_empty() && o.stderr.is_empty()
    };
    let out: Output = match (direct, qemu) {
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

#[test]
fn the_simulated_doctor_lights_each_led_of_the_configured_chain_in_turn() {
    let path = std::env::temp_dir().join(format!("umpire-leds-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        "[board]\ncolumns = 3\nrows = 2\n[sensor]\nkind = \"simulated\"\n[oled]\nbus = \"i2c1\"\n\
         [leds]\nenabled = true\nbrightness = 16\n",
    )
    .unwrap();
    let (code, text) = umpire(&["--config", path.to_str().unwrap(), "doctor"]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 0, "{text}");
    let order: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("LED "))
        .collect();
    assert_eq!(
        order,
        ["0: a1", "1: b1", "2: c1", "3: c2", "4: b2", "5: a2"],
        "{text}"
    );
    assert!(
        text.contains("ok      LED chain: lit each of its 6 LEDs in turn, from LED 0 under a1"),
        "{text}"
    );
}

/// A board layout that does not validate is a problem of the LED step, with the fix, on every
/// backend (the step is one function over the bus): the chain is never opened. Fails on the old
/// code, whose simulated step silently skipped the LEDs on such a layout.
#[test]
fn an_invalid_layout_is_a_problem_of_the_led_step_not_a_skipped_step() {
    use firmware::doctor::check_led_step;
    let config = firmware::config::Config::parse(
        "[sensor]\nkind = \"simulated\"\n[oled]\nbus = \"i2c1\"\n[leds]\nenabled = true\n",
    )
    .expect("a configuration");
    let leds = config.leds.expect("LEDs configured");
    let mut lit = Vec::new();
    let finding = check_led_step(
        LayoutSetup::grid(0, 0),
        &leds,
        |_| -> Result<Mock<u8>, _> { panic!("the chain is not opened on a broken layout") },
        &mut firmware::sim::NoDelay,
        |i, _| lit.push(i),
    );
    assert_eq!(finding.severity, Severity::Problem, "{finding}");
    assert_eq!(finding.subject, "LED chain");
    assert!(
        finding.detail.starts_with("the board's layout: "),
        "{finding}"
    );
    assert_eq!(finding.fix, "fix [board] in the configuration");
    assert!(lit.is_empty());
}
