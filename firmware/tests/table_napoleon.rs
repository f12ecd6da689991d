//! Napoléon 1815 at the table, through raw sensed events: chosen from the game menu, set up
//! block by block, resumed after a restart on the files it began on; with NFC, set up by the
//! blocks' registered tags and each move checked by the tag read where the block lands.

#[allow(dead_code)]
mod support;

use boards::{Game, Seat};
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

/// The tag of the `i`-th block of the order of battle.
fn block_tag(i: usize) -> firmware::sensing::TagUid {
    firmware::sensing::TagUid::new(&[0x04, 0xB1, 0x0C, u8::try_from(i).unwrap()]).unwrap()
}

/// The referee at the menu with `config`, on the layout of `choice` set up by tags.
fn at_the_menu_with(config: firmware::referee::RefereeConfig, choice: NapoleonChoice) -> Table {
    let layout = NapoleonTable::layout(NapoleonChoice {
        tags: true,
        ..choice
    })
    .validate()
    .expect("the layout is valid");
    support::Table {
        referee: Referee::new(config, SeededChance::new(4), || Ok(MemStore::new())),
        layout,
        t: 0,
        log: Vec::new(),
        checks: Nothing,
    }
}

/// The Napoléon menu as the OLED shows it with its fifth entry highlighted (after the four
/// set-ups by hand), then back to the game menu.
fn napoleon_menu(t: &mut Table) -> String {
    let game = firmware::referee::games::menu()
        .iter()
        .position(|(n, _)| *n == firmware::referee::games::napoleon::TITLE)
        .unwrap();
    for _ in 0..2 + game {
        t.press(Button::Die);
    }
    t.press(Button::Ok);
    for _ in 0..4 {
        t.press(Button::Die);
    }
    let text = t.text();
    t.press(Button::Back);
    text
}

/// With NFC readers configured and every block's tag registered once, the menu offers
/// Napoléon set up by tags: both armies in any order, each block known by its tag (a tag
/// registered to nothing named at once), the game started on OK; in play a block read as
/// another is refused in words that name slots only, and the block's own tag plays the move.
/// Without readers the menu offers no such entry; with readers but no block registered the
/// entry is refused with the fix.
#[test]
fn napoleon_is_set_up_by_tags_and_each_move_checked_by_them() {
    use firmware::referee::{RefereeConfig, TagRegistry};
    let plain = menu_choice(0);
    let names: Vec<String> = plain
        .set
        .campaign()
        .order_of_battle()
        .blocks()
        .map(|(_, b)| b.name.clone())
        .collect();
    let mut registry = TagRegistry::new();
    for (i, name) in names.iter().enumerate() {
        registry.register_block(block_tag(i), name);
    }
    // No readers: no set-up by tags on the menu.
    let mut t = at_the_menu_with(RefereeConfig::default(), plain);
    let menu = napoleon_menu(&mut t);
    assert!(menu.contains("> 2 players, historical set-up /"), "{menu}");
    assert!(!menu.contains("NFC tags"), "{menu}");
    // Readers but no block registered: refused with the fix.
    let mut t = at_the_menu_with(
        RefereeConfig {
            nfc_readers: true,
            ..RefereeConfig::default()
        },
        plain,
    );
    let menu = napoleon_menu(&mut t);
    assert!(
        menu.contains("> 2 players, historical set-up, NFC tags"),
        "{menu}"
    );
    // Back at the game menu: Napoléon, then its fifth entry.
    let game = firmware::referee::games::menu()
        .iter()
        .position(|(n, _)| *n == firmware::referee::games::napoleon::TITLE)
        .unwrap();
    for _ in 0..2 + game {
        t.press(Button::Die);
    }
    t.press(Button::Ok);
    for _ in 0..4 {
        t.press(Button::Die);
    }
    let out = t.press(Button::Ok);
    assert!(
        out.iter().any(|d| matches!(d, Decision::Ignored { why, .. }
            if why == "no NFC tags are registered to Napoleon blocks")),
        "{out:?}"
    );
    assert!(
        t.text().contains("register the blocks' tags first"),
        "{}",
        t.text()
    );

    // Readers and every block registered.
    let mut t = at_the_menu_with(
        RefereeConfig {
            nfc_readers: true,
            tags: registry,
            ..RefereeConfig::default()
        },
        plain,
    );
    t.choose_game(firmware::referee::games::napoleon::TITLE, 4);
    assert!(
        t.text().contains("place both armies (tags are read)"),
        "{}",
        t.text()
    );
    let layout = plain.set.layout();
    let oob = plain.set.campaign().order_of_battle();
    // A block whose tag is registered to nothing is named at once; lifted, it is not counted.
    let first = layout.town(oob.blocks().next().unwrap().1.start)[0];
    let unknown = firmware::sensing::TagUid::new(&[0x04, 0xEE, 0xEE, 0xEE]).unwrap();
    let out = t.put_tagged(first, Some(unknown));
    assert!(
        out.iter()
            .any(|d| matches!(d, Decision::TagProblem(m) if m.contains("is not registered"))),
        "{out:?}"
    );
    t.lift(first);
    // Every block on its historical town's first free slot, the order of battle backwards.
    let mut taken = std::collections::BTreeSet::new();
    let blocks: Vec<_> = oob.blocks().map(|(id, b)| (id, b.start)).collect();
    for &(id, start) in blocks.iter().rev() {
        let slot = *layout
            .town(start)
            .iter()
            .find(|p| !taken.contains(*p))
            .unwrap();
        taken.insert(slot);
        t.put_tagged(slot, Some(block_tag(id.index())));
    }
    t.settle();
    t.press(Button::Ok);
    let game = t.session().and_then(|s| s.game()).cloned();
    let game = game.unwrap_or_else(|| panic!("{}", t.text()));
    for &(id, start) in &blocks {
        let at = game.place_of(id).unwrap();
        assert!(layout.town(start).contains(&at));
    }
    // The journal of a set-up by tags resumes into the same game.
    let (referee, _) = t.restarted(SeededChance::new(2), Millis(t.t + 1000));
    let resumed = session::<NapoleonTable, _>(&referee).and_then(|s| s.game());
    assert_eq!(resumed, Some(&game));

    // A French one-town move; the block put down reads as a French block of another town.
    let occupied = game.occupied();
    let (block, from, to) = game
        .game()
        .legal_actions()
        .into_iter()
        .find_map(|a| match a {
            boards::napoleon::Action::Move { block, path } if path.len() == 1 => {
                let from = game.place_of(block)?;
                let to = *layout
                    .town(path[0])
                    .iter()
                    .find(|p| !occupied.contains(*p))?;
                Some((block, from, to))
            }
            _ => None,
        })
        .expect("a French move");
    let home = layout.spot(&from);
    let other = plain
        .set
        .campaign()
        .order_of_battle()
        .army(boards::napoleon::Army::French)
        .map(|(id, _)| id)
        .find(|id| {
            let at = game.place_of(*id).unwrap();
            !matches!((layout.spot(&at), home),
                (Some(firmware::referee::games::napoleon::Spot::Town { town: a, .. }),
                 Some(firmware::referee::games::napoleon::Spot::Town { town: b, .. })) if a == b)
        })
        .unwrap();
    t.lift(from);
    let mut out = t.put_tagged(to, Some(block_tag(other.index())));
    out.extend(t.settle());
    assert!(
        out.iter().any(|d| matches!(d, Decision::WrongPiece { .. })),
        "{out:?}"
    );
    let screen = t.text();
    assert!(screen.contains("is not the one lifted"), "{screen}");
    for name in &names {
        assert!(
            !screen
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .any(|w| w == name),
            "{name} in {screen}"
        );
    }
    assert_eq!(t.table().place_of(block), Some(from));
    // Lifted and put back, its own tag read: the move is played.
    t.lift(to);
    let mut out = t.put_tagged(to, Some(block_tag(block.index())));
    out.extend(t.settle());
    assert_eq!(support::acted(&out).len(), 1, "{out:?}");
    assert_eq!(t.table().place_of(block), Some(to));
}
