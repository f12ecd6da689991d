//! `umpire-sim play`: typed physical events drive the simulated table; the board and the OLED
//! are drawn after each line.

use boards::stratego::Variant;

fn session(input: &str) -> String {
    let mut out = Vec::new();
    host::play::run(Variant::Duel, 3, input.as_bytes(), &mut out).expect("plays");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn typed_events_reach_the_umpire_and_the_screen_is_drawn() {
    let text = session("setup\nlift e9\nwait 3000\nplace e9\nquit\nlift a1\n");
    assert!(text.contains("| Move 1 | Red to act"), "{text}");
    assert!(text.contains("umpire: mismatch e9: Blue piece"), "{text}");
    assert!(text.contains("| e9: Blue piece"), "{text}");
    assert!(text.contains("umpire: board-matches"), "{text}");
    // The table's view shows owners only, and the lifted piece as expected-but-lifted.
    assert!(text.contains("(b"), "{text}");
    assert!(!text.contains("bF") && !text.contains("rF"), "{text}");
    // Nothing after quit runs.
    assert_eq!(text.matches("Board (").count(), 4);
}

#[test]
fn a_bad_line_is_explained_and_play_goes_on() {
    let text = session("fly a1\nlift a1\nshow umpire\n");
    assert!(text.contains("! unknown command `fly`"), "{text}");
    assert!(text.contains("! there is no piece on a1 to lift"), "{text}");
    assert!(text.contains("the umpire's eyes"), "{text}");
}

#[test]
fn a_table_game_shows_each_seat_its_own_pieces() {
    let mut out = Vec::new();
    host::play::run_game(
        "game piecepack",
        "Piecepack at Waterloo",
        1,
        "setup\nshow 1\nshow 2\nshow table\n".as_bytes(),
        &mut out,
    )
    .expect("plays");
    let text = String::from_utf8(out).expect("utf-8");
    let part = |from: &str, to: &str| -> String {
        let start = text.find(from).unwrap_or_else(|| panic!("{from}\n{text}"));
        let rest = &text[start..];
        rest[..rest.find(to).unwrap_or(rest.len())].to_string()
    };
    // The French (seat 1, they move first) see their own pieces by name, the Allied coins by
    // suit only; and the Allies the other way round.
    let french = part("seat 1's view", "seat 2's view");
    assert!(french.contains("Old Guard (Green Crown 5)"), "{french}");
    assert!(!french.contains("Cooke"), "{french}");
    let allies = part("seat 2's view", "the table's view");
    assert!(allies.contains("Wellington (Red Pawn)"), "{allies}");
    assert!(!allies.contains("Old Guard"), "{allies}");
    let last = text.rfind("the table's view").expect("drawn");
    let table = &text[last..];
    assert!(
        !table.contains("Old Guard") && !table.contains("Cooke"),
        "{table}"
    );
}
