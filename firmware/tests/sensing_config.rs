//! `[sensing]` in umpire.toml: the sensing model's timing, every key optional (a key left out
//! is the default), each value in a range that works on a board played by hands, and the
//! combinations that cannot work refused with the reason; every mistake named with its line
//! and the fix. The old code had no such section: every test here fails on it (a `[sensing]`
//! section was refused as an unknown section).

use std::path::Path;

use firmware::config::{Config, MAX_SENSING_WAIT_MS, SENSING_KEYS};
use firmware::referee::RefereeConfig;
use firmware::sensing::SensingConfig;

/// A simulated board with `body` as its `[sensing]` section: the section's first key is on
/// line 4.
fn with_sensing(body: &str) -> String {
    format!("[sensor]\nkind = \"simulated\"\n[sensing]\n{body}")
}

fn sensing(body: &str) -> SensingConfig {
    Config::parse(&with_sensing(body))
        .unwrap_or_else(|p| panic!("{body}: {p}"))
        .sensing
}

fn problems(body: &str) -> Vec<(usize, String)> {
    match Config::parse(&with_sensing(body)) {
        Ok(c) => panic!("{body}: expected problems, got {:?}", c.sensing),
        Err(p) => p.0.into_iter().map(|p| (p.line, p.message)).collect(),
    }
}

fn shipped() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("debian/umpire.toml");
    std::fs::read_to_string(path).unwrap()
}

/// Left out, every key is its default; given, each reaches its own field and no other.
#[test]
fn each_key_is_optional_and_reads_into_its_field() {
    let d = SensingConfig::DEFAULT;
    let bare = Config::parse("[sensor]\nkind = \"simulated\"\n").unwrap();
    assert_eq!(bare.sensing, d);
    assert_eq!(sensing(""), d, "an empty section is the defaults");
    let cases = [
        (
            "debounce_samples = 5",
            SensingConfig {
                debounce_samples: 5,
                ..d
            },
        ),
        (
            "debounce_span_ms = 0",
            SensingConfig {
                debounce_span_ms: 0,
                ..d
            },
        ),
        (
            "settle_ms = 250",
            SensingConfig {
                settle_ms: 250,
                ..d
            },
        ),
        (
            "tag_wait_ms = 500",
            SensingConfig {
                tag_wait_ms: 500,
                ..d
            },
        ),
        (
            "chatter_limit = 12",
            SensingConfig {
                chatter_limit: 12,
                ..d
            },
        ),
        (
            "chatter_limit = 0",
            SensingConfig {
                chatter_limit: 0,
                ..d
            },
        ),
        (
            "decide_early = false",
            SensingConfig {
                decide_early: false,
                ..d
            },
        ),
    ];
    for (line, want) in cases {
        assert_eq!(sensing(line), want, "{line}");
    }
    let all = sensing(
        "debounce_samples = 2\ndebounce_span_ms = 6\nsettle_ms = 400\ntag_wait_ms = 750\n\
         chatter_limit = 20\ndecide_early = false\n",
    );
    assert_eq!(
        all,
        SensingConfig {
            debounce_samples: 2,
            debounce_span_ms: 6,
            settle_ms: 400,
            tag_wait_ms: 750,
            chatter_limit: 20,
            decide_early: false,
        }
    );
    // The ends of each range are accepted.
    for line in [
        "debounce_samples = 1",
        "debounce_samples = 10",
        "debounce_span_ms = 50",
        "settle_ms = 50",
        "settle_ms = 750\ntag_wait_ms = 750",
        "tag_wait_ms = 150",
        "chatter_limit = 5",
        "chatter_limit = 50",
    ] {
        sensing(line);
    }
}

/// The shipped file has the section with every key commented out at its default: uncommenting
/// any line changes nothing, so the file's words and the code's defaults cannot drift apart.
#[test]
fn the_shipped_file_documents_every_key_at_its_default() {
    let text = shipped();
    let parsed = Config::parse(&text).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(parsed.sensing, SensingConfig::DEFAULT);
    let start = text
        .find("\n[sensing]\n")
        .expect("the shipped file has [sensing]");
    let end = text[start + 1..]
        .find("\n[")
        .map_or(text.len(), |e| start + 1 + e);
    let section = &text[start..end];
    for key in SENSING_KEYS {
        let commented: Vec<&str> = section
            .lines()
            .filter(|l| l.starts_with(&format!("# {key} = ")))
            .collect();
        assert_eq!(commented.len(), 1, "{key} once in [sensing]: {section}");
        let line = commented[0];
        let on = text.replacen(line, &line[2..], 1);
        let c = Config::parse(&on).unwrap_or_else(|p| panic!("{line}: {p}"));
        assert_eq!(c.sensing, SensingConfig::DEFAULT, "{line}");
        assert_eq!(c.sensing_summary(), "the defaults", "{line}");
    }
}

/// A value outside its range is named with its line, the setting, what it does and what to
/// use; every problem of the section at once.
#[test]
fn each_value_out_of_range_is_named_with_its_line_and_fix() {
    for (line, says) in [
        ("debounce_samples = 0", "use 1 to 10 agreeing scans"),
        ("debounce_samples = 11", "use 1 to 10 agreeing scans"),
        ("debounce_span_ms = -1", "use 0 to 50 ms"),
        ("debounce_span_ms = 51", "use 0 to 50 ms"),
        (
            "settle_ms = 49",
            "too short to drop a slid piece's pass-over",
        ),
        ("settle_ms = 0", "use 50 to 750"),
        ("settle_ms = 751", "is too long"),
        ("settle_ms = 5000", "use 50 to 750 (half the hold)"),
        ("tag_wait_ms = 751", "use at most 750 (half the hold)"),
        ("tag_wait_ms = -5", "shorter than the settle window"),
        ("chatter_limit = 51", "use 5 to 50"),
        ("chatter_limit = 1000", "use 5 to 50"),
        ("chatter_limit = -1", "0 to never report"),
    ] {
        let p = problems(&format!("\n{line}\n"));
        assert_eq!(p.len(), 1, "{line}: {p:?}");
        assert_eq!(p[0].0, 5, "{line}: {p:?}");
        let key = line.split(" = ").next().unwrap();
        assert!(p[0].1.starts_with(&format!("[sensing] {key} = ")), "{p:?}");
        assert!(p[0].1.contains(says), "{line}: {p:?}");
    }
    // The too-long settle window says why: the referee's attack hold.
    let p = problems("settle_ms = 1000\n");
    let hold = RefereeConfig::DEFAULT_ATTACK_HOLD_MS;
    assert!(
        p[0].1.contains(&format!("{hold} ms after its last lift")),
        "{p:?}"
    );
    assert_eq!(MAX_SENSING_WAIT_MS, hold / 2);
    // Every problem at once, each on its line, in order.
    let p = problems(
        "debounce_samples = 0\ndebounce_span_ms = 99\nsettle_ms = 10\ntag_wait_ms = 2000\n\
         chatter_limit = 2\n",
    );
    let lines: Vec<usize> = p.iter().map(|p| p.0).collect();
    assert_eq!(lines, [4, 5, 6, 7, 8], "{p:#?}");
}

/// Combinations that cannot work are refused with the reason: a chatter limit a hand reaches,
/// a tag wait shorter than the settle window it can never cut short. A settle window raised
/// past the default tag wait, with no tag wait written, is fine: the wait is the window.
#[test]
fn combinations_that_cannot_work_are_refused_with_the_reason() {
    for n in 1..=4 {
        let p = problems(&format!("chatter_limit = {n}\n"));
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].0, 4);
        assert!(
            p[0].1.contains("would report the hands as a fault")
                && p[0].1.contains("a nudged one four times"),
            "{p:?}"
        );
    }
    // The tag wait against the default window, and against a configured one.
    let p = problems("tag_wait_ms = 100\n");
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].0, 4);
    assert!(
        p[0].1.contains(
            "[sensing] tag_wait_ms = 100 is shorter than the settle window (settle_ms = 150)"
        ),
        "{p:?}"
    );
    assert!(p[0].1.contains("give settle_ms or more"), "{p:?}");
    let p = problems("settle_ms = 400\ntag_wait_ms = 300\n");
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].0, 5, "the tag wait's line: {p:?}");
    assert!(p[0].1.contains("(settle_ms = 400)"), "{p:?}");
    // Written the other way round, the line is still the tag wait's.
    let p = problems("tag_wait_ms = 300\nsettle_ms = 400\n");
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].0, 4, "{p:?}");
    let raised = sensing("settle_ms = 400\n");
    assert_eq!(
        (raised.settle_ms, raised.tag_wait_ms),
        (400, SensingConfig::DEFAULT.tag_wait_ms)
    );
    assert_eq!(
        sensing("settle_ms = 400\ntag_wait_ms = 400\n").tag_wait_ms,
        400
    );
}

/// A misspelt key, a value of the wrong type and a section that is not one are named like
/// every other section's.
#[test]
fn unknown_keys_and_wrong_types_are_refused() {
    let p = problems("settle = 200\n");
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].0, 4);
    assert!(
        p[0].1.contains("unknown setting `settle` in [sensing]")
            && p[0].1.contains(&SENSING_KEYS.join(", ")),
        "{p:?}"
    );
    for (line, says) in [
        (
            "settle_ms = \"150\"",
            "[sensing] settle_ms must be a whole number",
        ),
        (
            "settle_ms = 150.5",
            "[sensing] settle_ms must be a whole number",
        ),
        (
            "decide_early = 1",
            "[sensing] decide_early must be true or false",
        ),
        (
            "chatter_limit = true",
            "[sensing] chatter_limit must be a whole number",
        ),
    ] {
        let p = problems(&format!("{line}\n"));
        assert_eq!(p.len(), 1, "{line}: {p:?}");
        assert_eq!(p[0].0, 4, "{line}: {p:?}");
        assert!(p[0].1.contains(says), "{line}: {p:?}");
    }
    let p = match Config::parse("sensing = 150\n[sensor]\nkind = \"simulated\"\n") {
        Ok(c) => panic!("{c:?}"),
        Err(p) => p.0,
    };
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].line, 1);
    assert!(
        p[0].message
            .contains("`sensing` must be a section [sensing], not an integer"),
        "{p:?}"
    );
}

/// What `check-config` and `doctor` say of the timing: the defaults, or each setting that
/// differs as the file writes it.
#[test]
fn the_summary_names_what_differs_from_the_defaults() {
    let summary = |body: &str| {
        Config::parse(&with_sensing(body))
            .unwrap()
            .sensing_summary()
    };
    assert_eq!(summary(""), "the defaults");
    assert_eq!(summary("settle_ms = 150\n"), "the defaults");
    assert_eq!(
        summary("decide_early = false\nsettle_ms = 300\n"),
        "settle_ms = 300, decide_early = false (the rest default)"
    );
    assert_eq!(
        summary(
            "debounce_samples = 2\ndebounce_span_ms = 6\nsettle_ms = 400\ntag_wait_ms = 750\n\
             chatter_limit = 0\ndecide_early = false\n"
        ),
        "debounce_samples = 2, debounce_span_ms = 6, settle_ms = 400, tag_wait_ms = 750, \
         chatter_limit = 0, decide_early = false"
    );
}
