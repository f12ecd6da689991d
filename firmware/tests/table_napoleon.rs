//! Napoléon 1815 at the table, through raw sensed events: chosen from the game menu, set up
//! block by block, resumed after a restart on the files it began on.

#[allow(dead_code)]
mod support;

use boards::Seat;
use firmware::journal::MemStore;
use firmware::referee::games::napoleon::{
    NapoleonChoice, NapoleonSet, NapoleonTable, ALLIES, FRENCH,
};
use firmware::referee::table::TableGame;
use firmware::referee::{screen_text, Chance, Decision, GameKind, Record, Referee, SeededChance};
use firmware::sensing::{Button, Millis};
use support::{session, Checks};

/// No check beyond the referee's own.
#[derive(Default)]
struct Nothing;

impl Checks for Nothing {
    type Game = NapoleonTable;

    fn after<C: Chance>(&mut self, _referee: &Referee<MemStore, C>, _out: &[Decision]) {}
}

type Table = support::Table<SeededChance, Nothing>;

/// The menu's `variant`-th Napoléon entry.
fn menu_choice(variant: usize) -> NapoleonChoice {
    let menu = firmware::referee::games::menu();
    let (_, variants) = menu
        .iter()
        .find(|(name, _)| name.starts_with("Napoleon"))
        .expect("Napoleon is on the menu");
    match variants[variant].1 {
        GameKind::Napoleon { choice } => choice,
        other => panic!("{other:?}"),
    }
}

/// The referee at the menu, Napoléon's `variant`-th entry chosen with the buttons.
fn choose(seed: u64, variant: usize) -> Table {
    let layout = NapoleonTable::layout(menu_choice(variant))
        .validate()
        .expect("the layout is valid");
    let mut t = Table::at_the_menu(SeededChance::new(seed), layout, Nothing);
    t.choose_game(firmware::referee::games::napoleon::TITLE, variant);
    t
}

/// Places `seat`'s blocks, one a group, each on a slot `roll` samples, OK after each; OK
/// again when the side's set-up waits to be checked.
fn set_up(t: &mut Table, choice: NapoleonChoice, seat: Seat, rng: &mut SeededChance) {
    let groups = NapoleonTable::sample_groups(choice, seat, &mut |n| rng.roll(n).unwrap_or(0))
        .expect("a set-up samples");
    for places in groups {
        for p in places {
            t.put(p);
        }
        t.settle();
        t.press(Button::Ok);
    }
    if seat == ALLIES {
        t.press(Button::Ok);
    }
}

/// Napoléon is chosen from the menu, set up historically by hand, journals its four data
/// files first, and resumes after a restart into the same game on the board as sensed.
#[test]
fn napoleon_is_chosen_from_the_menu_set_up_historically_and_resumed() {
    let choice = menu_choice(0);
    assert!(choice.historical);
    let mut t = choose(1, 0);
    assert!(
        t.text().contains("Anglo-Dutch") || t.text().contains("Allies"),
        "{}",
        t.text()
    );
    let mut rng = SeededChance::new(5);
    set_up(&mut t, choice, ALLIES, &mut rng);
    assert!(t.session().and_then(|s| s.game()).is_none(), "{}", t.text());
    set_up(&mut t, choice, FRENCH, &mut rng);
    assert!(t.session().and_then(|s| s.game()).is_some(), "{}", t.text());
    let records = t.records();
    match records.first() {
        Some(Record::Files(files)) => {
            let keys: Vec<&str> = files.iter().map(|f| f.key.as_str()).collect();
            assert_eq!(keys, ["map", "order_of_battle", "turns", "layout"]);
        }
        other => panic!("the first record is the files: {other:?}"),
    }
    assert_eq!(
        records
            .iter()
            .filter(|r| matches!(r, Record::Army { .. }))
            .count(),
        2
    );
    let before = t.table().clone();
    let screen = t.text();
    let (referee, _) = t.restarted(SeededChance::new(2), Millis(t.t + 1000));
    let resumed = session::<NapoleonTable, _>(&referee)
        .and_then(|s| s.game())
        .expect("resumed in play");
    assert_eq!(resumed, &before);
    assert!(!referee.is_over());
    let again = screen_text(referee.screen());
    assert_eq!(again, screen, "the same prompt after the restart");
}

/// A journal of a game begun on other Napoléon files is refused on resuming, with what to do.
#[test]
fn a_napoleon_game_resumes_only_on_the_files_it_began_on() {
    use firmware::referee::games::napoleon::{NapoleonFile, NapoleonFiles};
    use firmware::referee::RefereeConfig;
    let choice = menu_choice(1);
    assert!(!choice.historical);
    let mut t = choose(3, 1);
    let mut rng = SeededChance::new(8);
    set_up(&mut t, choice, ALLIES, &mut rng);
    set_up(&mut t, choice, FRENCH, &mut rng);
    assert!(t.session().and_then(|s| s.game()).is_some(), "{}", t.text());
    let bytes = t.referee.journal().unwrap().store().as_bytes().to_vec();
    let mut files = NapoleonFiles::shipped();
    files.layout = NapoleonFile {
        source: "ours.txt".to_string(),
        text: format!("# ours\n{}", files.layout.text),
    };
    let set = NapoleonSet::read(files).expect("the files read");
    let resumed = Referee::resume(
        RefereeConfig {
            napoleon_set: set,
            ..RefereeConfig::default()
        },
        SeededChance::new(1),
        || Ok(MemStore::new()),
        MemStore::from_bytes(bytes),
        t.referee.sensed().iter().copied(),
        Millis(0),
    );
    let Err(err) = resumed else {
        panic!("resumed on other files")
    };
    assert_eq!(
        err.to_string(),
        "this game began on the shipped Napoleon layout, not ours.txt: leave [napoleon] \
         layout unset, or start a new game"
    );
}
