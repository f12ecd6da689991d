//! The systemd unit the package installs: the lines that keep the umpire up (never a start
//! limit, a watchdog, notify), blank the OLED when it stops, and confine it to its devices.

use std::collections::BTreeMap;

const UNIT: &str = include_str!("../debian/umpire.service");

/// The unit's settings: section -> key -> every value given (in order).
fn settings() -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let mut out: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut section = String::new();
    for line in UNIT.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.to_string();
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("not a setting: {line}"));
        out.entry(section.clone())
            .or_default()
            .entry(key.to_string())
            .or_default()
            .push(value.to_string());
    }
    out
}

fn one(section: &str, key: &str) -> String {
    let all = settings();
    let values = all
        .get(section)
        .and_then(|s| s.get(key))
        .unwrap_or_else(|| panic!("[{section}] {key}= is missing"));
    assert_eq!(values.len(), 1, "[{section}] {key}= given twice");
    values[0].clone()
}

/// On the old unit systemd gave up after 10 restarts in 2 minutes, leaving a blank board.
#[test]
fn systemd_never_gives_up_and_watches_the_loop() {
    assert_eq!(one("Unit", "StartLimitIntervalSec"), "0");
    assert!(!settings()["Unit"].contains_key("StartLimitBurst"));
    assert_eq!(one("Service", "Restart"), "always");
    assert_eq!(one("Service", "Type"), "notify");
    assert_eq!(one("Service", "NotifyAccess"), "main");
    let watchdog: u32 = one("Service", "WatchdogSec").parse().unwrap();
    assert!(
        (2..=60).contains(&watchdog),
        "the loop pings every half interval: {watchdog} s"
    );
}

#[test]
fn the_service_runs_the_umpire_and_blanks_the_oled_after() {
    assert_eq!(
        one("Service", "ExecStart"),
        "/usr/bin/umpire --config /etc/umpire/umpire.toml run"
    );
    // `-`: a missing OLED must not mark the stop as failed.
    assert_eq!(
        one("Service", "ExecStopPost"),
        "-/usr/bin/umpire --config /etc/umpire/umpire.toml blank"
    );
}

#[test]
fn the_service_is_confined_to_its_devices_and_needs() {
    let s = settings();
    let service = &s["Service"];
    for (key, value) in [
        ("DevicePolicy", "closed"),
        // IPv4 for the phone pages, and only with the local networks (the unit once had a
        // private network namespace and AF_UNIX only: no phone could reach the pages).
        ("RestrictAddressFamilies", "AF_UNIX AF_INET"),
        ("IPAddressDeny", "any"),
        (
            "IPAddressAllow",
            "localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16",
        ),
        ("ProtectKernelModules", "yes"),
        ("ProtectClock", "yes"),
        ("LockPersonality", "yes"),
        ("MemoryDenyWriteExecute", "yes"),
        ("SystemCallArchitectures", "native"),
        ("RestrictNamespaces", "yes"),
        ("RestrictRealtime", "yes"),
        ("CapabilityBoundingSet", ""),
        ("UMask", "0077"),
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("User", "umpire"),
        ("StateDirectory", "umpire"),
    ] {
        assert_eq!(
            service.get(key).map(Vec::as_slice),
            Some([value.to_string()].as_slice()),
            "{key}"
        );
    }
    let allowed = &service["DeviceAllow"];
    for device in [
        "char-i2c rw",
        "char-spi rw",
        "char-gpiochip rw",
        "/dev/gpiomem rw",
    ] {
        assert!(allowed.iter().any(|a| a == device), "{device}: {allowed:?}");
    }
}
