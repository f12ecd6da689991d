//! `umpire-sim` as a person runs it: bad input gets one clear line, never a backtrace.

use std::process::Command;

#[test]
fn a_file_that_is_not_a_journal_is_named_without_a_backtrace() {
    let path = std::env::temp_dir().join(format!("umpire-sim-cli-{}.umpj", std::process::id()));
    std::fs::write(&path, b"garbage").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .args(["replay", path.to_str().unwrap()])
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    std::fs::remove_file(&path).ok();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.starts_with("umpire-sim: cannot replay"), "{err}");
    assert!(err.contains("not an Umpire journal"), "{err}");
    assert!(!err.contains("backtrace"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn an_unknown_game_is_refused_with_the_choices() {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .args(["demo", "chess"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("[possible values: classic, duel, waterloo, piecepack]"),
        "{err}"
    );
}

/// `demo --journal FILE` writes the journal owner-only (0600: it holds both set-ups), also over
/// a file that was open to others; the old code left it 0644.
#[cfg(unix)]
#[test]
fn the_demo_journal_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::temp_dir().join(format!("umpire-sim-private-{}.umpj", std::process::id()));
    std::fs::write(&path, b"old").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .args(["demo", "duel", "--quiet", "--max-moves", "4", "--journal"])
        .arg(&path)
        .output()
        .unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(mode, 0o600);
    assert!(bytes.starts_with(b"UMPJ"));
}
