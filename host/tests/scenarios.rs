//! Every shipped scenario passes through `umpire-sim check`, and a failing one exits non-zero
//! naming its file, line and what was seen.

use std::path::PathBuf;
use std::process::Command;

fn scenario_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("host/scenarios exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scn"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_shipped_scenario_passes() {
    let files = scenario_files();
    assert!(files.len() >= 18, "the scenarios are shipped: {files:?}");
    let waterloo = files
        .iter()
        .filter(|f| {
            f.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('w'))
        })
        .count();
    assert!(
        waterloo >= 21,
        "the Waterloo scenarios are shipped: {files:?}"
    );
    for file in &files {
        if let Err(failure) = host::scenario::run_file(file) {
            panic!("{failure}");
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .arg("check")
        .args(&files)
        .output()
        .expect("umpire-sim runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count(),
        files.len()
    );
}

#[test]
fn a_failing_scenario_exits_non_zero_naming_the_line() {
    let dir = std::env::temp_dir().join(format!("umpire-scn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("bad.scn");
    std::fs::write(
        &file,
        "game duel\nchoose\nexpect screen Red: place 1 Flag\nexpect screen Blue: place 1 Flag\n",
    )
    .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .arg("check")
        .arg(&file)
        .output()
        .expect("umpire-sim runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(stdout.contains("bad.scn:4:"), "{stdout}");
    assert!(stdout.contains("the screen shows `Red set-up"), "{stdout}");
}

#[test]
fn every_shipped_scenario_is_listed_in_scenarios_md() {
    let doc =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("SCENARIOS.md"))
            .expect("host/SCENARIOS.md exists");
    let files = scenario_files();
    assert!(!files.is_empty());
    for file in &files {
        let name = file.file_name().and_then(|n| n.to_str()).expect("a name");
        assert!(
            doc.contains(&format!("| `{name}` |")),
            "{name} is not in SCENARIOS.md's tables"
        );
    }
}
