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
        err.contains("[possible values: classic, duel, waterloo, piecepack, sba, napoleon]"),
        "{err}"
    );
}

/// `demo --journal FILE` writes the journal owner-only (0600: it holds both set-ups), also over
/// an empty file that was open to others; the old code left it 0644.
#[cfg(unix)]
#[test]
fn the_demo_journal_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::temp_dir().join(format!("umpire-sim-private-{}.umpj", std::process::id()));
    std::fs::write(&path, b"").unwrap();
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

/// `umpire-sim ARGS`: its exit status and standard error.
fn sim(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An option the chosen game does not take is an error naming the games that take it; the old
/// code ran the demo and ignored it (`demo classic --variant expert`, `demo waterloo --rules
/// plain`, `--view red` in a table game).
#[test]
fn an_option_the_game_does_not_take_is_refused_with_the_games_that_take_it() {
    for (args, option, games) in [
        (
            &["demo", "classic", "--variant", "expert"][..],
            "--variant",
            "Stratego: Waterloo, Piecepack at Waterloo, Sa Belle Alliance and Napoleon 1815 only",
        ),
        (
            &["play", "duel", "--variant", "basic"],
            "--variant",
            "Stratego: Waterloo, Piecepack at Waterloo, Sa Belle Alliance and Napoleon 1815 only",
        ),
        (
            &["demo", "waterloo", "--rules", "plain"],
            "--rules",
            "Stratego Original and Duel only; Stratego: Waterloo has no repetition rules",
        ),
        (
            &["demo", "piecepack", "--view", "red"],
            "--view",
            "Stratego Original and Duel only; Piecepack at Waterloo prints no boards",
        ),
        (
            &["demo", "waterloo", "--board-every", "5"],
            "--board-every",
            "Stratego Original and Duel only",
        ),
    ] {
        let (ok, err) = sim(args);
        assert!(!ok, "{args:?} ran");
        assert!(
            err.contains(&format!("{option} applies to {games}")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains(&format!("leave {option} out")),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // The same options for the games that take them run.
    for args in [
        &[
            "demo",
            "classic",
            "--rules",
            "plain",
            "--view",
            "red",
            "--board-every",
            "1",
        ][..],
        &["demo", "waterloo", "--variant", "expert"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--quiet", "--max-moves", "2"]);
        let (ok, err) = sim(&args);
        assert!(ok, "{args:?}: {err}");
    }
}

/// A file in a fresh temporary folder, written with `text`.
fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-sim-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `--layout FILE` plays Stratego: Waterloo on the board the file describes, read at run time;
/// a broken file stops the game with every problem and its line (the old code had no way to
/// give one, and fell back on a bare board when the compiled-in copy was broken).
#[test]
fn waterloo_is_played_on_the_layout_file_given_and_a_broken_one_stops_it() {
    let eleven = temp_file(
        "eleven.txt",
        &boards::waterloo::DEFAULT_LAYOUT.replace("rows: 10", "rows: 11"),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .args(["demo", "waterloo", "--max-moves", "1", "--layout"])
        .arg(&eleven)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The French set up on the last four of eleven rows.
    assert!(text.contains("8-11"), "{text}");

    let broken = temp_file(
        "broken.txt",
        "columns: 12\nrows 10\nprussian_entry: z99 a5\nhill.x: a1 a1\n",
    );
    let path = broken.to_str().unwrap();
    for args in [
        &["demo", "waterloo", "--layout", path][..],
        &["play", "waterloo", "--layout", path],
        &["check", "host/scenarios/w01-move.scn", "--layout", path],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains("has 3 problems"), "{args:?}: {err}");
        for line in [2, 3, 4] {
            assert!(err.contains(&format!("{path}:{line}: ")), "{args:?}: {err}");
        }
        assert!(out.stdout.is_empty(), "{args:?}: nothing is played");
    }
    // The option applies to Waterloo only.
    let (ok, err) = sim(&["demo", "classic", "--layout", path]);
    assert!(!ok);
    assert!(
        err.contains("--layout applies to Stratego: Waterloo only"),
        "{err}"
    );
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/01-move.scn");
    let (ok, err) = sim(&["check", scenario, "--layout", eleven.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("no scenario given plays it"), "{err}");
    for f in [eleven, broken] {
        std::fs::remove_dir_all(f.parent().unwrap()).ok();
    }
}

/// `umpire-sim demo sba --serve 0`: a table game is served (the old code refused every game
/// but Stratego): the table's and each seat's addresses are printed once the game is chosen,
/// and the seat's page answers while the demo plays on.
#[test]
fn demo_serve_serves_a_table_game() {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .args(["demo", "sba", "--serve", "0", "--quiet", "--max-moves", "2"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seat = None;
    for line in lines.by_ref().take(50) {
        let line = line.unwrap();
        if let Some(address) = line.strip_prefix("French's page: http://") {
            seat = Some(address.to_string());
            break;
        }
    }
    let Some(seat) = seat else {
        let _ = child.kill();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        panic!("no seat address printed: {err}");
    };
    let (host, path) = seat.split_at(seat.find('/').unwrap());
    let port: u16 = host.rsplit(':').next().unwrap().parse().unwrap();
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\n\r\n").unwrap();
    let mut page = String::new();
    s.read_to_string(&mut page).unwrap();
    // The demo serves until Ctrl-C: this test ends the process it started.
    let _ = child.kill();
    let _ = child.wait();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<title>Umpire: French"), "{page}");
}

/// `--reveal-on-contact` plays Napoléon's demo under 6.2.4's option (the set-up screens say
/// so); any other game refuses it by name. Fails on the old code: no such option.
#[test]
fn napoleon_demo_takes_6_2_4_option_and_other_games_refuse_it() {
    let demo = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, out) = demo(&[
        "demo",
        "napoleon",
        "--reveal-on-contact",
        "--seed",
        "3",
        "--max-moves",
        "5",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("6.2.4"), "{out}");
    let (ok, plain) = demo(&["demo", "napoleon", "--seed", "3", "--max-moves", "5"]);
    assert!(ok, "{plain}");
    assert!(!plain.contains("6.2.4"), "{plain}");
    let (ok, err) = sim(&["demo", "waterloo", "--reveal-on-contact"]);
    assert!(!ok);
    assert!(
        err.contains("--reveal-on-contact applies to Napoleon 1815 only"),
        "{err}"
    );
}

/// `play napoleon --reveal-on-contact` starts from the scenario line `game napoleon VARIANT
/// reveal-on-contact`: the umpire plays rule 6.2.4's option (the set-up screen says so) and the
/// banner names it. Another game refuses the flag by name. Fails on the old code: `play`
/// refused the flag, its scenario line having no options.
#[test]
fn play_napoleon_takes_6_2_4_option_from_its_game_line() {
    use std::io::Write as _;
    let play = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // `pick` chooses Napoleon 1815 on the game menu, OK its first variant: the set-up.
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"pick Napoleon\nok\nquit\n").unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, out) = play(&["play", "napoleon", "--reveal-on-contact"]);
    assert!(ok, "{out}");
    assert!(
        out.contains("Napoleon 1815: 2 players, historical set-up, reveal-on-contact"),
        "{out}"
    );
    // The note, whatever the 25-column drawing of the OLED wraps: its boxes' words joined.
    let words: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix('|'))
        .flat_map(|l| l.trim_end_matches('|').split_whitespace())
        .collect();
    assert!(
        words
            .join(" ")
            .contains(firmware::referee::games::napoleon::REVEAL_ON_CONTACT_NOTE),
        "{out}"
    );
    let (ok, plain) = play(&["play", "napoleon"]);
    assert!(ok, "{plain}");
    assert!(!plain.contains("6.2.4"), "{plain}");
    let (ok, err) = sim(&["play", "sba", "--reveal-on-contact"]);
    assert!(!ok);
    assert!(
        err.contains("--reveal-on-contact applies to Napoleon 1815 only"),
        "{err}"
    );
}

/// `demo --journal FILE` and `play --journal FILE` never write over a file that holds
/// something (an earlier game's journal typed again, a file named by mistake): the command is
/// refused before anything is played, naming the file and the fix, and the file is left as it
/// was. A journal into a folder that does not exist is refused before the game is played (the
/// old code played the whole demo, then failed to write it).
#[test]
fn a_journal_is_never_written_over_an_existing_file() {
    let path = std::env::temp_dir().join(format!("umpire-sim-keep-{}.ujn", std::process::id()));
    std::fs::write(&path, b"UMPJ an earlier game").unwrap();
    let (ok, err) = sim(&[
        "demo",
        "duel",
        "--quiet",
        "--journal",
        path.to_str().unwrap(),
    ]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("already exists: a journal is never written over"),
        "{err}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_umpire-sim"))
        .args(["play", "duel", "--journal"])
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"UMPJ an earlier game");
    std::fs::remove_file(&path).ok();
    let (ok, err) = sim(&[
        "demo",
        "duel",
        "--journal",
        "/nonexistent-umpire-folder/game.ujn",
    ]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("there is no folder /nonexistent-umpire-folder"),
        "{err}"
    );
}

/// `umpire-sim replay game.ujn | head` (the reader closes the pipe early) ends quietly and
/// successfully, as `demo | head` does; it printed "umpire-sim: Broken pipe (os error 32)" and
/// failed.
#[test]
fn a_replay_read_only_in_part_ends_quietly() {
    let path = std::env::temp_dir().join(format!("umpire-sim-pipe-{}.ujn", std::process::id()));
    std::fs::remove_file(&path).ok();
    let (ok, err) = sim(&[
        "demo",
        "classic",
        "--quiet",
        "--journal",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    // As typed in a shell: the reader (`head`) exits after one line.
    let out = Command::new("bash")
        .args([
            "-o",
            "pipefail",
            "-c",
            "\"$0\" replay \"$1\" | head -n 1 >/dev/null",
        ])
        .arg(env!("CARGO_BIN_EXE_umpire-sim"))
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).ok();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.is_empty(), "{err}");
}
