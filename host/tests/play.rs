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
    assert!(text.contains("| Turn 1 Red"), "{text}");
    assert!(text.contains("umpire: mismatch e9: Blue piece"), "{text}");
    assert!(text.contains("| - e9 -> Blue piece"), "{text}");
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

/// The game comes from the command line: a `game` line typed during play says so and how to
/// play another, rather than the scenario file's "must come before the first physical event".
#[test]
fn a_game_line_typed_during_play_says_the_game_comes_from_the_command_line() {
    let text = session("game waterloo basic\nlift a1\n");
    assert!(
        text.contains("! the game was chosen on the command line (")
            && text.contains("`quit`, then start `umpire-sim play GAME` again"),
        "{text}"
    );
    assert!(!text.contains("first physical event"), "{text}");
    // Play goes on with the game chosen.
    assert!(text.contains("! there is no piece on a1 to lift"), "{text}");
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

/// The board `show umpire` draws: from its title to the OLED's box after it.
fn umpire_section(text: &str) -> Vec<&str> {
    let start = text
        .rfind("the umpire's eyes")
        .unwrap_or_else(|| panic!("no umpire's eyes:\n{text}"));
    text[start..]
        .lines()
        .take_while(|l| !l.starts_with('+'))
        .collect()
}

/// `show umpire` draws every game's board by short codes with the table's state, in under 60
/// lines and without Rust's `Debug`. Fails on the code before: a Waterloo table printed its
/// state as 1,327 lines of `Debug`.
#[test]
fn show_umpire_is_a_readable_board_and_the_table_state() {
    let stratego = session("setup\nmove f2 f3\nshow umpire\n");
    let waterloo = {
        let mut out = Vec::new();
        host::play::run_game(
            "game stratego-waterloo basic",
            "Waterloo",
            3,
            "setup\nbot 12\nshow umpire\n".as_bytes(),
            &mut out,
        )
        .expect("plays");
        String::from_utf8(out).expect("utf-8")
    };
    let piecepack = {
        let mut out = Vec::new();
        host::play::run_game(
            "game piecepack",
            "Piecepack",
            3,
            "setup\nbot 30\nshow umpire\n".as_bytes(),
            &mut out,
        )
        .expect("plays");
        String::from_utf8(out).expect("utf-8")
    };
    for (text, piece) in [(&stratego, "rM"), (&waterloo, "fC"), (&piecepack, "GP")] {
        let board = umpire_section(text);
        let joined = board.join("\n");
        assert!(board.len() < 60, "{} lines:\n{joined}", board.len());
        assert!(!joined.contains('{') && !joined.contains("::"), "{joined}");
        assert!(
            joined.contains("Turn ") && joined.contains("to act: "),
            "{joined}"
        );
        assert!(joined.contains("Actions played: "), "{joined}");
        // A grid, row 1 at the bottom, each piece by its code (every one: the umpire's eyes).
        assert!(
            board.iter().any(|l| l.trim_start().starts_with("1 ")),
            "{joined}"
        );
        assert!(joined.contains(piece), "{joined}");
    }
    assert!(waterloo.contains("French Emperor Napoleon"), "{waterloo}");
    assert!(piecepack.contains("Napoleon (Green Pawn)"), "{piecepack}");
}

/// An unknown command gets one line that says how to find the commands, and the move after it
/// is told once. Fails on the code before: the last move was told again after the unknown line.
#[test]
fn an_unknown_command_is_one_line_and_nothing_is_told_twice() {
    let text = session("setup\nmove f2 f3\nfly\nmove a9 a8\n");
    assert_eq!(text.matches("moved Red f2-f3").count(), 1, "{text}");
    assert_eq!(text.matches("moved Blue a9-a8").count(), 1, "{text}");
    assert_eq!(text.matches("unknown command").count(), 1, "{text}");
    assert!(
        text.contains("! unknown command `fly`: `help` lists the commands\n"),
        "{text}"
    );
    // The unknown line draws nothing: the next thing is the prompt for the move.
    let after = &text[text.find("`help` lists the commands").expect("said")..];
    assert!(
        after.lines().nth(1).is_some_and(|l| l.starts_with("> ")),
        "{after}"
    );
}

/// `play` asks for each line with a prompt, and `help` lists the commands.
#[test]
fn play_prompts_for_each_line_and_help_lists_the_commands() {
    let text = session("help\nquit\n");
    let prompts = text
        .lines()
        .filter(|l| l.starts_with(host::play::PROMPT))
        .count();
    assert_eq!(prompts, 2, "{text}");
    for command in ["lift", "move", "attack", "ok", "show", "quit"] {
        assert!(text.contains(command), "{command}: {text}");
    }
}

/// `play --journal FILE` writes the referee's journal as the game goes, and `replay` reads it
/// back to the same moves.
#[test]
fn play_writes_a_journal_that_replay_reads_back() {
    let dir = std::env::temp_dir().join(format!("umpire-play-journal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("duel.ujn");
    let mut out = Vec::new();
    host::play::run_journaled(
        host::play::stratego_line(Variant::Duel),
        "Stratego Duel",
        3,
        firmware::referee::games::BoardLayout::shipped(),
        Some(&path),
        "setup\nmove f2 f3\nmove a9 a8\nmove f3 f4\n".as_bytes(),
        &mut out,
    )
    .expect("plays");
    let bytes = std::fs::read(&path).expect("the journal is written");
    let mut text = Vec::new();
    host::replay::write_replay(&bytes, false, false, &mut text).expect("replays");
    let text = String::from_utf8(text).expect("utf-8");
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.trim_start()
                .split(". ")
                .next()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .collect();
    assert_eq!(
        moves,
        [
            "   1. Red    f2-f3",
            "   2. Blue   a9-a8",
            "   3. Red    f3-f4"
        ],
        "{text}"
    );
    // A table game too: the journal holds every action the hands made.
    let path = dir.join("piecepack.ujn");
    let mut out = Vec::new();
    host::play::run_journaled(
        "game piecepack",
        "Piecepack",
        2,
        firmware::referee::games::BoardLayout::shipped(),
        Some(&path),
        "setup\nbot 25\nshow umpire\n".as_bytes(),
        &mut out,
    )
    .expect("plays");
    let played = String::from_utf8(out).expect("utf-8");
    let actions = played
        .rsplit("Actions played: ")
        .next()
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.parse::<u32>().ok())
        .expect("the umpire's eyes count the actions");
    let bytes = std::fs::read(&path).expect("the journal is written");
    let mut text = Vec::new();
    host::replay::write_replay(&bytes, false, false, &mut text).expect("replays");
    let text = String::from_utf8(text).expect("utf-8");
    assert!(actions > 0);
    assert!(
        text.contains(&format!("\n{actions:>4}. ")),
        "{actions} actions:\n{text}"
    );
    assert!(!text.contains(&format!("\n{:>4}. ", actions + 1)), "{text}");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// `play napoleon`: the game chosen, `setup` places both armies historically, and the OK menu
/// of the first turn is drawn.
#[test]
fn napoleon_is_played_by_typed_events() {
    let mut out = Vec::new();
    host::play::run_game(
        "game napoleon",
        "Napoleon 1815",
        3,
        "setup\nok\nquit\n".as_bytes(),
        &mut out,
    )
    .expect("plays");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(text.contains("Anglo-Dutch block"), "{text}");
    assert!(text.contains("end the moves"), "{text}");
}

/// A physical-event line without its places is refused with the fix, never passed as a step
/// that did nothing; `fire` names itself; a bare `pick` never takes the highlighted entry.
#[test]
fn an_event_line_without_its_places_is_refused_with_the_fix() {
    let text = session("lift\nplace\nnudge\nmove\nslide\n");
    for cmd in ["lift", "place", "nudge"] {
        assert!(
            text.contains(&format!(
                "! `{cmd}` takes one or more squares, like `{cmd} c4`"
            )),
            "{cmd}: {text}"
        );
    }
    assert!(text.contains("! `move` takes 2 argument(s)"), "{text}");
    assert!(text.contains("! `slide` takes the path"), "{text}");
    let mut out = Vec::new();
    host::play::run_game(
        "game piecepack",
        "Piecepack at Waterloo",
        1,
        "lift\nplace\nfire\nselect\npick\n".as_bytes(),
        &mut out,
    )
    .expect("plays");
    let text = String::from_utf8(out).expect("utf-8");
    for cmd in ["lift", "place"] {
        assert!(
            text.contains(&format!(
                "! `{cmd}` takes one or more places, like `{cmd} c4`"
            )),
            "{cmd}: {text}"
        );
    }
    assert!(text.contains("! `fire` takes 2 place(s)"), "{text}");
    assert!(text.contains("! `select` takes 1 place(s)"), "{text}");
    assert!(
        text.contains("! `pick` takes the words of a menu entry"),
        "{text}"
    );
    // The game menu is still on its first entry: nothing was chosen.
    assert!(!text.contains("umpire: game-chosen"), "{text}");
}

/// `setup` chooses the game the command line named by the menu's words, wherever its highlight
/// stands (a `die` typed first moved it to the next game), and presses nothing when no game menu
/// is shown (typed a second time, during play): never another game, never a button in play.
#[test]
fn setup_chooses_the_named_game_wherever_the_menu_stands_and_nothing_in_play() {
    let mut out = Vec::new();
    host::play::run(Variant::Classic, 1, "die\nsetup\n".as_bytes(), &mut out).expect("plays");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(text.contains("| Turn 1 Red"), "{text}");
    assert!(!text.contains("outside Red's"), "{text}");
    let text = session("setup\nsetup\n");
    assert!(
        text.contains("! the game menu is not shown, so Stratego Duel cannot be chosen from it"),
        "{text}"
    );
    assert!(!text.contains("nothing to"), "{text}");
    assert!(!text.contains("a piece already stands"), "{text}");
    // The menu's first screen: an OK typed first opens Stratego Original's set-up menu, which
    // `setup` names rather than setting Duel's army up on Original.
    let text = session("ok\nsetup\n");
    assert!(
        text.contains("! the game menu is not shown, so Stratego Duel cannot be chosen from it"),
        "{text}"
    );
}

/// `power-on` takes nothing or `torn`: another word was ignored and the power put back as if
/// nothing had been typed wrong (`power-on tron` resumed a whole journal).
#[test]
fn power_on_with_a_word_it_does_not_take_is_refused() {
    let text = session("setup\npower-off\npower-on tron\npower-on torn extra\npower-on\n");
    assert!(
        text.contains("! `power-on` takes nothing, or `torn` for a journal whose last record the cut tore: not `tron`"),
        "{text}"
    );
    assert!(text.contains("not `torn extra`"), "{text}");
}

/// Play's own words and a table game's `setup`, `hands` and `choose` with words after them are
/// refused with the fix: `help me` was "unknown command `help`", and `setup now` in a table
/// game ran as `setup`, the extra words dropped.
#[test]
fn a_command_with_words_it_does_not_take_is_refused_with_the_fix() {
    let text = session("help me\nquit now\noled x\nshow umpire please\nshow\n");
    for cmd in ["help", "quit", "oled"] {
        assert!(
            text.contains(&format!(
                "! `{cmd}` takes nothing after it: type `{cmd}` alone"
            )),
            "{text}"
        );
    }
    assert!(!text.contains("unknown command"), "{text}");
    assert_eq!(
        text.matches("! `show` takes one word: show table, red, blue, or umpire")
            .count(),
        2,
        "{text}"
    );
    let mut out = Vec::new();
    host::play::run_game(
        "game piecepack",
        "Piecepack at Waterloo",
        1,
        "setup now\nhands x\n".as_bytes(),
        &mut out,
    )
    .expect("plays");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(
        text.contains("! `setup` takes nothing after it, not `now`"),
        "{text}"
    );
    assert!(
        text.contains("! `hands` takes nothing after it, not `x`"),
        "{text}"
    );
    assert!(!text.contains("umpire: game-chosen"), "{text}");
}

/// A `move`, `attack` or `fire` line whose second square a hand cannot use is refused before
/// the first piece is lifted: `move e3 f3` onto a piece lifted e3 and left it in the hand
/// ("e3 lifted: put it down") with only "a piece already stands on f3" said.
#[test]
fn a_two_square_line_a_hand_cannot_finish_moves_no_piece() {
    // Duel seed 3: Red's pieces on h3 and i3, nothing on h4 (as `show umpire` draws them).
    let text = session("setup\nshow umpire\nmove h3 i3\nattack h3 h4\nwait 4000\n");
    assert!(text.contains("! a piece already stands on i3"), "{text}");
    assert!(text.contains("! there is no piece on h4 to lift"), "{text}");
    assert!(!text.contains("h3 lifted"), "{text}");
    assert!(!text.contains("umpire: mismatch"), "{text}");
}
