//! Every hint the firmware gives that names a configuration section or setting (`[oled]
//! address`, `[[nfc.reader]] cells`) names one the configuration file really has. The schema is
//! the parser itself: a file holding just that setting is parsed and must not be told "unknown".
//! So a renamed section or key fails here until every hint follows it (the doctor once said
//! "[display] address" for `[oled]`, and "the [sensor] addresses" for `[sensor.matrix]
//! row_expander`).

use std::path::{Path, PathBuf};

use firmware::config::Config;

/// Words that follow a section name in a sentence without being a setting ("the [sensor]
/// section", "[[nfc.reader]] sections", "[nfc] needs ..."). Any other word after a section is
/// taken for a setting and checked.
const NOT_SETTINGS: &[&str] = &[
    "a", "against", "and", "as", "at", "for", "from", "has", "in", "is", "its", "must", "needs",
    "of", "on", "or", "section", "sections", "the", "to", "with",
];

/// Sections of the Pi's own `config.txt`, which `umpire setup` edits: not ours.
const PI_CONFIG_TXT: &[&str] = &["all", "pi3", "pi4", "pi5", "cm4", "cm5", "pi0", "none"];

/// One mention of a section, and maybe a setting, in a string of the source.
#[derive(Debug)]
struct Mention {
    file: String,
    /// `[[...]]`: an array of sections.
    array: bool,
    section: String,
    setting: Option<String>,
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of Rust source `text` (escapes left as written).
fn string_literals(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // Comments hold no hints; skip them (a quote in a comment would upset the pairing).
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            // A char literal such as '"' is not the start of a string.
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 3,
            b'\'' if bytes.get(i + 1) == Some(&b'\\') && bytes.get(i + 3) == Some(&b'\'') => i += 4,
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                out.push(&text[start..i.min(text.len())]);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'
}

/// The `[section] setting` mentions in one string.
fn mentions(file: &str, s: &str, out: &mut Vec<Mention>) {
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        rest = &rest[open..];
        let array = rest.starts_with("[[");
        let inner = &rest[if array { 2 } else { 1 }..];
        let len = inner
            .find(|c: char| !(is_name_char(c) || c == '.'))
            .unwrap_or(inner.len());
        let name = &inner[..len];
        let close = if array { "]]" } else { "]" };
        let good_name = name.starts_with(|c: char| c.is_ascii_lowercase())
            && !name.ends_with('.')
            && inner[len..].starts_with(close);
        if !good_name {
            rest = &rest[1..];
            continue;
        }
        let after = &inner[len + close.len()..];
        let setting = after.strip_prefix(' ').and_then(|w| {
            let end = w.find(|c: char| !is_name_char(c)).unwrap_or(w.len());
            let word = &w[..end];
            (!word.is_empty()
                && word.starts_with(|c: char| c.is_ascii_lowercase())
                && !NOT_SETTINGS.contains(&word))
            .then(|| word.to_string())
        });
        out.push(Mention {
            file: file.to_string(),
            array,
            section: name.to_string(),
            setting,
        });
        rest = after;
    }
}

/// The problems the parser reports as "unknown" for a file holding only `[section]` (and
/// `setting = 0`): a known setting with a wrong value is some other problem.
fn unknown(array: bool, section: &str, setting: Option<&str>) -> Vec<String> {
    let header = if array {
        format!("[[{section}]]")
    } else {
        format!("[{section}]")
    };
    let text = match setting {
        Some(k) => format!("{header}\n{k} = 0\n"),
        None => format!("{header}\n"),
    };
    match Config::parse(&text) {
        Ok(_) => Vec::new(),
        Err(problems) => problems
            .as_slice()
            .iter()
            .map(|p| p.message.clone())
            .filter(|m| m.starts_with("unknown"))
            .collect(),
    }
}

fn all_mentions() -> Vec<Mention> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.strip_prefix(&root).unwrap().display().to_string();
        for s in string_literals(&text) {
            mentions(&file, s, &mut out);
        }
    }
    out.retain(|m| {
        !(m.file.ends_with("setup.rs") && !m.array && PI_CONFIG_TXT.contains(&m.section.as_str()))
    });
    out
}

#[test]
fn every_section_and_setting_a_hint_names_exists() {
    let found = all_mentions();
    let mut wrong = Vec::new();
    for m in &found {
        // The oracle sees this section's settings: a made-up one is reported.
        assert!(
            !unknown(m.array, &m.section, Some("zz_no_such_setting")).is_empty()
                || !unknown(m.array, &m.section, None).is_empty(),
            "the parser does not check the settings of [{}]",
            m.section
        );
        let problems = unknown(m.array, &m.section, m.setting.as_deref());
        if !problems.is_empty() {
            wrong.push(format!(
                "{}: [{}]{} — {}",
                m.file,
                m.section,
                m.setting
                    .as_deref()
                    .map(|k| format!(" {k}"))
                    .unwrap_or_default(),
                problems.join("; ")
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "hints name settings the configuration does not have:\n{}",
        wrong.join("\n")
    );
    // The scan finds the hints it is meant to check (the doctor's OLED fix, the expanders' settings, the
    // service's journal folder), so it cannot pass by finding nothing.
    for (file, section, setting) in [
        ("doctor.rs", "oled", "address"),
        ("main.rs", "sensor.matrix", "row_expander"),
        ("service.rs", "journal", "dir"),
    ] {
        assert!(
            found.iter().any(|m| m.file == file
                && m.section == section
                && m.setting.as_deref() == Some(setting)),
            "the scan missed [{section}] {setting} in {file}: {found:#?}"
        );
    }
}

#[test]
fn the_scan_reads_sections_settings_and_prose() {
    let mut found = Vec::new();
    mentions(
        "x.rs",
        "set [oled] address, see the [sensor] section, the [[nfc.reader]] cells, [{name}] and [u8]",
        &mut found,
    );
    let got: Vec<(bool, &str, Option<&str>)> = found
        .iter()
        .map(|m| (m.array, m.section.as_str(), m.setting.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (false, "oled", Some("address")),
            (false, "sensor", None),
            (true, "nfc.reader", Some("cells")),
            (false, "u8", None),
        ]
    );
    // The oracle: a real setting is known, a wrong one is not.
    assert!(unknown(false, "oled", Some("address")).is_empty());
    assert!(!unknown(false, "display", Some("address")).is_empty());
    assert!(!unknown(false, "sensor", Some("addresses")).is_empty());
    assert!(unknown(false, "sensor.expanders", Some("addresses")).is_empty());
    assert!(unknown(true, "nfc.reader", Some("cells")).is_empty());
    assert!(!unknown(true, "nfc.reader", Some("cell")).is_empty());
}
