//! The repository stands alone in a clone: no file sends its reader to the project's private
//! folder beside it (the design notes, the house style, the research notes, the rulebooks'
//! files). The design and the rulings live in `docs/` and the READMEs; a rulebook is named by
//! its title, which the players own.

use std::path::{Path, PathBuf};

/// What a clone does not have. Built from pieces so that this file does not match itself.
fn outside() -> Vec<String> {
    let mut v: Vec<String> = [
        ["../", "shared"],
        ["shared/", "rules"],
        ["shared/", "notes"],
        ["DESIGN", ".md"],
        ["STYLE", ".md"],
        ["notes/", "hardware"],
        ["hardware", ".md 1"],
        ["hardware", ".md 2"],
        ["hardware", ".md 4"],
        ["hardware", ".md 6"],
        ["rules-", "facts"],
        ["prior-", "art.md"],
        ["napoleon-", "map.md"],
        ["hardware ", "notes"],
        ["project ", "notes"],
    ]
    .iter()
    .map(|[a, b]| format!("{a}{b}"))
    .collect();
    // The rulebooks' file names.
    for (name, ext) in [
        ("stratego-original", "txt"),
        ("stratego-waterloo", "txt"),
        ("piecepack-waterloo", "md"),
        ("napoleon-1815", "nl"),
        ("sa-belle-alliance", "md"),
    ] {
        v.push(format!("{name}.{ext}"));
    }
    v
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if (name != "target" && !name.starts_with('.')) || name == ".ci" {
                files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

#[test]
fn nothing_points_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut all = Vec::new();
    files(root, &mut all);
    let outside = outside();
    let mut read = 0;
    let mut found = Vec::new();
    for path in &all {
        // Text files only: binaries (images, journals) cannot send a reader anywhere.
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        read += 1;
        for (n, line) in text.lines().enumerate() {
            for bad in &outside {
                if line.contains(bad.as_str()) {
                    found.push(format!(
                        "{}:{}: `{bad}` in {line:?}",
                        path.strip_prefix(root).unwrap().display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(
        read > 100,
        "only {read} text files read from {}",
        root.display()
    );
    assert!(
        found.is_empty(),
        "name the rulebook by its title, and cite docs/ or a README instead:\n{}",
        found.join("\n")
    );
}
