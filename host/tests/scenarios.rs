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

/// Runs `text` and returns the failure's line and message (it must fail).
fn refused(text: &str) -> (usize, String) {
    let failure = host::scenario::run_text("limits.scn", text)
        .expect_err("the scenario asks for too much and is refused");
    (failure.line, failure.to_string())
}

/// Fails on the old code: `wait 18446744073709551615` overflowed the clock (a panic), and any
/// wait, however long, was run.
#[test]
fn a_wait_over_an_hour_is_refused_naming_the_line_and_the_fix() {
    let (line, msg) = refused("game duel\nchoose\nwait 18446744073709551615\n");
    assert_eq!(line, 3, "{msg}");
    assert!(
        msg.contains(
            "wait 18446744073709551615 ms is more than the 1-hour (3600000 ms) limit: split \
             the wait into several `wait` lines or shorten it"
        ),
        "{msg}"
    );
    let (line, msg) = refused("choose\n\nwait 3600001 # a long think\n");
    assert_eq!(line, 3, "{msg}");
    assert!(
        msg.contains("`wait 3600001`: wait 3600001 ms is more than"),
        "{msg}"
    );
    let (_, msg) = refused("wait 3s\n");
    assert!(msg.contains("`3s` is not a number of ms"), "{msg}");
}

/// Fails on the old code, which ran `repeat 1001 ok` (and any count up to 2^32 - 1).
#[test]
fn a_repeat_over_1000_times_is_refused_before_anything_runs() {
    let (line, msg) = refused("game duel\nchoose\nrepeat 1001 ok\n");
    assert_eq!(line, 3, "{msg}");
    assert!(
        msg.contains("1001 times is more than the 1000-times limit: split the repeat"),
        "{msg}"
    );
    // A repeated command's own count is checked too, before the first run.
    let (line, msg) = refused("choose\nrepeat 2 wait 3600001\n");
    assert_eq!(line, 2, "{msg}");
    assert!(msg.contains("1-hour (3600000 ms) limit"), "{msg}");
    assert!(host::scenario::run_text("ok.scn", "repeat 1000 expect no-decision\n").is_ok());
}

/// Fails on the old code, which played `bot` for any number of steps (here it reported the
/// missing game instead, or that 2^64 "is not a number").
#[test]
fn a_bot_over_10000_steps_is_refused_before_anything_runs() {
    let (line, msg) = refused("game piecepack\nsetup\nbot 10001\n");
    assert_eq!(line, 3, "{msg}");
    assert!(
        msg.contains(
            "10001 steps is more than the 10000-step limit: split it into several `bot` lines"
        ),
        "{msg}"
    );
    let (_, msg) = refused("game piecepack\nbot 18446744073709551616\n");
    assert!(msg.contains("is more than the 10000-step limit"), "{msg}");
}

/// Fails on the old code, which took any settle time up to 2^32 - 1 ms (49 days: a mismatch
/// never shown).
#[test]
fn a_mismatch_after_over_a_minute_is_refused() {
    let (line, msg) = refused("mismatch-after 60001\n");
    assert_eq!(line, 1, "{msg}");
    assert!(
        msg.contains("60001 ms is more than the 1-minute (60000 ms) limit"),
        "{msg}"
    );
}

/// Fails on the old code, which let any time pass (a thousand hours, given the lines). The
/// limits of each line bound one line's work; this bounds the whole scenario's. (With the
/// power off the hours pass without scans, so the test is quick.)
#[test]
fn a_scenario_past_eight_hours_of_table_time_is_refused() {
    let (line, msg) = refused("power-off\nrepeat 8 wait 3600000\nwait 1\n");
    assert_eq!(line, 3, "{msg}");
    assert!(msg.contains("past the 8-hour limit of table time"), "{msg}");
}

const STANDARD_ARMIES: &str = "game classic
red  2 3 5 5 2 6 8 9 M 3
red  2 2 4 4 4 4 6 6 6 7
red  2 2 2 5 5 7 7 8 3 3
red  B B B F B B B S 2 3
blue B B B F B B B S 2 3
blue 2 2 2 5 5 7 7 8 3 3
blue 2 2 4 4 4 4 6 6 6 7
blue 3 2 5 5 2 6 8 M 9 3
";

/// A piece keeps its tag from hand to place: after a battle the winner put down is read as
/// the winner (the piece the umpire expects there, not the last one lifted), so its next move
/// is no wrong piece; a nudge keeps the tag too.
#[test]
fn with_nfc_pieces_carry_their_own_tags() {
    let text = format!(
        "{STANDARD_ARMIES}nfc\nsetup\nexpect decision game-started\nmove i4 i5\nmove b7 b6\n\
         move i5 i6\nmove b6 b7\nattack i6 i7\nwait 1500\nexpect decision battle Red Marshal attacks \
         Blue General\nplace i7\nexpect decision hands-done\nmove b7 b6\nnudge i7\n\
         move i7 i6\nexpect decision moved Red i7-i6\nexpect no-decision wrong-piece\n"
    );
    if let Err(failure) = host::scenario::run_text("tags.scn", &text) {
        panic!("{failure}");
    }
}

/// Every wrong use of the NFC lines is named with the fix.
#[test]
fn nfc_lines_used_wrongly_are_named_with_the_fix() {
    let cases = [
        (
            format!("{STANDARD_ARMIES}setup\nmove a4 a5 reading none\n"),
            "`reading` needs NFC readers: write `nfc` before the first physical event",
        ),
        (
            format!("{STANDARD_ARMIES}nfc\nsetup\nplace a5 a6 reading none\n"),
            "`reading` ends a `place SQ`, `move A B` or `slide A ... B` line",
        ),
        (
            format!("{STANDARD_ARMIES}nfc\nsetup\nmove a4 a5 reading a6\n"),
            "no tagged piece stands on a6 for the reader to pick up",
        ),
        (
            format!("{STANDARD_ARMIES}choose\nnfc\n"),
            "`nfc` must come before the first physical event",
        ),
        (
            format!("{STANDARD_ARMIES}choose\narmy red\n"),
            "`army` places an army with its tags: write `nfc`",
        ),
    ];
    for (text, want) in cases {
        let failure = host::scenario::run_text("nfc.scn", &text).expect_err(want);
        assert!(failure.message.contains(want), "{failure}");
    }
}

/// Napoléon's places are written as the layout and the OLED name them: a town's code and slot,
/// a battle board's zone, reserve and terrain spot, an army's eliminated tray; each resolves to
/// the layout's square, and an unknown one stops the file with the fix.
#[test]
fn napoleon_places_are_named_as_the_layout_names_them() {
    // Bergen's slot 1 is n6, Beaumont's 12 y18, board 1's attacker left 2 b21, its defender
    // reserve 1 s23, its attacker centre terrain g22, the Prussian tray's slot 3 c31.
    let same = "game napoleon\nsetup\n\
                expect board MON/1 Anglo-Dutch block\nexpect board n6 Anglo-Dutch block\n\
                expect board BEA/12 French block\nexpect board y18 French block\n\
                expect board b1/attacker/left/2 empty\nexpect board b21 empty\n\
                expect board eliminated/pr/3 empty\n\
                move SOL/1 MAU/1\nexpect board a20 empty\nexpect board MAU/1 French block\n";
    host::scenario::run_text("places.scn", same).expect("the named places are the squares");
    for (place, fix) in [
        (
            "XYZ/1",
            "`XYZ` is no town of the Napoleon map: write a town's code as the map file and the \
             layout spell it",
        ),
        (
            "MON/9",
            "`9` is not a slot of MON (Bergen): it has slots 1 to 8 (`MON/1`)",
        ),
        ("b3/attacker/left/1", "`b3` is not a battle board: b1 to b2"),
        (
            "b1/left/attacker/1",
            "`left` is not a side: attacker or defender",
        ),
        (
            "b1/defender/middle/1",
            "`middle` is not a zone: left, centre, right or reserve",
        ),
        (
            "b1/defender/reserve/9",
            "it has slots 1 to 8 (`b1/defender/reserve/1`)",
        ),
        (
            "eliminated/allies/1",
            "`allies` is not an army's tray: french, ad or pr",
        ),
        (
            "MON/1/2/3/4",
            "is not a Napoleon place: write a town's slot (MON/2)",
        ),
    ] {
        let failure = host::scenario::run_text(
            "places.scn",
            &format!("game napoleon\nsetup\nlift {place}\n"),
        )
        .expect_err("an unknown place is refused");
        assert_eq!(failure.line, 3, "{failure}");
        assert!(failure.message.contains(fix), "{place}: {failure}");
    }
    let failure = host::scenario::run_text(
        "places.scn",
        "game napoleon\nsetup\nexpect board MAU/2 French\n",
    )
    .expect_err("Maubeuge is empty");
    assert!(failure.message.contains("MAU/2 holds empty"), "{failure}");
    // What a hand cannot do names the place as the file writes it, not as a raw square.
    let failure = host::scenario::run_text("places.scn", "game napoleon\nsetup\nplace BEA/12\n")
        .expect_err("Beaumont's slot 12 holds a block");
    assert!(
        failure
            .message
            .contains("a piece already stands on BEA/12: lift it first"),
        "{failure}"
    );
}

/// `n17` checks what rule 6.2.4's option changes, not only that it plays: the same file with
/// the option left off its `game` line fails where the end of the deployment is told without
/// laying the wings flat; and past it, where the hit on the Guard, which has neither fired nor
/// fought, is told by its slot alone (without the option the wings are laid flat and the hit
/// names it).
#[test]
fn the_reveal_on_contact_scenario_fails_without_the_option() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/n17-reveal-on-contact.scn");
    let text = std::fs::read_to_string(&path).expect("n17 is shipped");
    let on = "game napoleon historical reveal-on-contact\n";
    assert!(text.contains(on), "n17 plays the option from its game line");
    let off = text.replace(on, "game napoleon historical\n");
    let failure =
        host::scenario::run_text("n17-off.scn", &off).expect_err("the wings are laid flat");
    assert!(
        failure
            .text
            .starts_with("expect no-screen lay the wing blocks flat"),
        "{failure}"
    );
    assert!(
        failure
            .message
            .contains("6.2.4: lay the wing blocks flat; woods and reserve stay up"),
        "{failure}"
    );
    // Past the deployment's checks, the hit.
    let off: String = off
        .lines()
        .filter(|l| {
            !l.starts_with("expect no-screen lay the wing blocks flat")
                && !l.ends_with("# nor named")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let failure = host::scenario::run_text("n17-off.scn", &off).expect_err("the hit names G-INF");
    assert!(
        failure
            .text
            .starts_with("expect screen board 1 attacker centre 1: turn the block"),
        "{failure}"
    );
    assert!(
        failure
            .message
            .contains("board 1 attacker centre 1 (G-INF): turn the block one step down"),
        "{failure}"
    );
}

/// A `game` line naming no game offers every game a scenario may play, Stratego's included (the
/// old message listed the table games only), and one naming several lists only those it names
/// (the old message listed every table game, `sa-belle-alliance` for `waterloo`).
#[test]
fn a_game_line_naming_no_game_or_several_lists_the_games_it_could_mean() {
    let (line, msg) = refused("game chess\n");
    assert_eq!(line, 1, "{msg}");
    assert!(
        msg.contains("no game is called `chess`: `classic` or `duel` (Stratego), or a table game: stratego-waterloo"),
        "{msg}"
    );
    let (_, msg) = refused("game waterloo basic\n");
    assert!(
        msg.contains(
            "`waterloo` names several games: stratego-waterloo, piecepack-at-waterloo; write \
             more of the one meant"
        ),
        "{msg}"
    );
    assert!(!msg.contains("napoleon"), "{msg}");
}
