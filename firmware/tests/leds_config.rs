//! `[leds]` in umpire.toml: off by default, a capped brightness, a bus of its own, the pin map's
//! chain order; every mistake named with its line and the fix.

use std::path::Path;

use firmware::config::{ChipSelect, Config, LedsConfig, SpiBus, SpiConfig};
use firmware::drivers::leds::{Brightness, SPI_HZ};
use firmware::guidance::LedOrder;

/// The shipped default configuration with its `[leds]` section replaced by `leds` (nothing:
/// no `[leds]` section at all).
fn shipped_with(leds: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("debian/umpire.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("[leds]").expect("the shipped file has [leds]");
    let end = start
        + text[start..]
            .find("\n[journal]")
            .expect("[journal] follows");
    format!("{}{}{}", &text[..start], leds.trim_start(), &text[end..])
}

/// The shipped configuration as it is.
fn shipped() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("debian/umpire.toml");
    std::fs::read_to_string(path).unwrap()
}

fn problems(text: &str) -> Vec<(usize, String)> {
    match Config::parse(text) {
        Ok(c) => panic!("expected problems, got {:?}", c.leds),
        Err(p) => p.0.into_iter().map(|p| (p.line, p.message)).collect(),
    }
}

#[test]
fn the_leds_are_off_unless_enabled() {
    let as_shipped = Config::parse(&shipped()).unwrap();
    assert_eq!(as_shipped.leds, None, "the shipped file has [leds] off");
    assert_eq!(Config::parse(&shipped_with("")).unwrap().leds, None);
    // Switched on, the shipped section is the pin map's chain.
    let on = Config::parse(&shipped().replacen(
        "enabled = false\nbus = \"spi1\"",
        "enabled = true\nbus = \"spi1\"",
        1,
    ))
    .unwrap();
    let leds = on.leds.expect("enabled");
    assert_eq!(leds.order, LedOrder::schematic().unwrap());
    assert_eq!(on.spi_path(leds.spi), Path::new("/dev/spidev1.0"));
    let present = Config::parse(&shipped_with("\n[leds]\nbrightness = 40\n")).unwrap();
    assert_eq!(
        present.leds, None,
        "a section without enabled = true is off"
    );
}

#[test]
fn an_enabled_chain_takes_spi1_the_default_brightness_and_the_pin_maps_order() {
    let c = Config::parse(&shipped_with("\n[leds]\nenabled = true\n")).unwrap();
    let spi = SpiConfig {
        bus: SpiBus::Spi1,
        chip_select: ChipSelect::Ce0,
        spi_hz: SPI_HZ,
    };
    assert_eq!(
        c.leds,
        Some(LedsConfig {
            spi,
            brightness: Brightness::new(32).unwrap(),
            order: LedOrder::schematic().unwrap(),
        })
    );
    assert_eq!(LedOrder::schematic(), Ok(LedOrder::Serpentine));
    assert_eq!(c.spi_path(spi), Path::new("/dev/spidev1.0"));
    // SPI1's pins are now wired: GPIO 20 is MOSI, the chain's data line.
    assert!(
        c.gpio_pins().iter().any(|p| p.0 == 20),
        "{:?}",
        c.gpio_pins()
    );
    let custom = Config::parse(&shipped_with(
        "\n[leds]\nenabled = true\nbrightness = 64\norder = \"cells\"\n",
    ))
    .unwrap()
    .leds
    .unwrap();
    assert_eq!(custom.brightness, Brightness::MAX);
    assert_eq!(custom.order, LedOrder::Cells);
}

#[test]
fn bad_leds_settings_are_named_with_their_fix() {
    let base = shipped_with("");
    let line = base[..base.find("\n[journal]").unwrap()].lines().count() + 1;
    let found = problems(&shipped_with(
        "\n[leds]\nenabled = true\nbrightness = 200\norder = \"zigzag\"\ncolour = 3\n",
    ));
    let text: Vec<String> = found.iter().map(|(l, m)| format!("{l}: {m}")).collect();
    let text = text.join("\n");
    assert!(
        text.contains(&format!(
            "{}: [leds] brightness = 200: use 1 to 64",
            line + 2
        )),
        "{text}"
    );
    assert!(text.contains("enabled = false"), "{text}");
    assert!(
        text.contains(
            "[leds] order = \"zigzag\" is not known: use one of \"cells\", \"serpentine\""
        ) || text.contains("order = \"zigzag\""),
        "{text}"
    );
    assert!(
        text.contains("unknown setting `colour` in [leds]"),
        "{text}"
    );
    let zero = problems(&shipped_with("\n[leds]\nenabled = true\nbrightness = 0\n"));
    assert!(
        zero.iter().any(|(_, m)| m.contains("brightness = 0")),
        "{zero:?}"
    );
    let wrong_type = problems(&shipped_with("\n[leds]\nenabled = \"yes\"\n"));
    assert!(
        wrong_type
            .iter()
            .any(|(_, m)| m.contains("[leds] enabled must be true or false")),
        "{wrong_type:?}"
    );
}

#[test]
fn the_chain_may_not_share_a_bus_with_another_spi_device() {
    // The default sensor is the 74HC165 chain on SPI0: an LED chain on SPI0 would read its
    // traffic as colours.
    let found = problems(&shipped_with(
        "\n[leds]\nenabled = true\nbus = \"spi0\"\nchip_select = \"ce0\"\n",
    ));
    assert!(
        found.iter().any(|(_, m)| m
            .contains("the LED chain shares spi0 with [sensor.shift_chain]")
            && m.contains("no chip select")
            && m.contains("[leds] bus = \"spi1\"")),
        "{found:?}"
    );
    // Disabled, the same wiring is no problem.
    assert!(Config::parse(&shipped_with("\n[leds]\nbus = \"spi0\"\n")).is_ok());
}
