//! Sa Belle Alliance at the table, through raw sensed events: random games played by hand
//! (corps chosen by lifting and putting back a marker, targets lifted and held, dice rolled with
//! Die or entered from the menu, the hand steps carried out), each checked against the rules
//! after every action and against its journal at the end.

#[allow(dead_code)]
mod support;

use std::collections::BTreeSet;

use boards::geometry::grid::Cell;
use boards::sba::{Action, CardSet, Options, Phase, SaBelleAlliance};
use boards::{Actor, Game, Seat};
use firmware::journal::MemStore;
use firmware::referee::games::sba::{SbaChoice, SbaTable};
use firmware::referee::table::{rebuild_table, TableGame, TableView, ToldMove};
use firmware::referee::{screen_text, Chance, Decision, Record, Referee, SeededChance};
use firmware::sensing::{Button, Millis, Place};
use firmware::ui::Screen;
use support::{session, Checks};

/// The status line the umpire draws shows the morale cubes it keeps.
#[derive(Default)]
struct Cubes {
    /// Screens checked that drew a status line.
    checked: usize,
}

impl Checks for Cubes {
    type Game = SbaTable;

    fn after<C: Chance>(&mut self, referee: &Referee<MemStore, C>, _out: &[Decision]) {
        let Some(table) = session::<SbaTable, C>(referee).and_then(|s| s.game()) else {
            return;
        };
        let g = table.game();
        let text = screen_text(referee.screen());
        if text.starts_with(&format!("T{} ", g.turn())) {
            let cubes = format!(
                "M{}-{} {}",
                g.morale(boards::sba::FRENCH),
                g.morale(boards::sba::ALLIED),
                g.time_name()
            );
            assert!(text.contains(&cubes), "{cubes} not in {text}");
            self.checked += 1;
        }
    }
}

type Table = support::Table<SeededChance, Cubes>;

fn choose(seed: u64) -> Table {
    let layout = SbaTable::layout(SbaChoice::default())
        .validate()
        .expect("the layout is valid");
    let mut t = Table::at_the_menu(SeededChance::new(seed), layout, Cubes::default());
    t.choose_game("Sa Belle Alliance", 0);
    t
}

/// Places `seat`'s groups, each group's markers in a random order, OK after each.
fn set_up(t: &mut Table, rng: &mut SeededChance, seat: Seat) {
    let groups = SbaTable::sample_groups(SbaChoice::default(), seat, &mut |_| 0).unwrap();
    for mut places in groups {
        let n = places.len();
        for i in 0..n {
            let j = i + rng.roll((n - i) as u32).unwrap() as usize;
            places.swap(i, j);
        }
        for p in places {
            t.put(p);
        }
        t.settle();
        t.press(Button::Ok);
    }
}

/// Makes the board what the umpire expects: extras lifted, missing markers put down, each
/// control marker the umpire asks to exchange lifted and replaced.
fn hands(t: &mut Table) {
    t.match_board();
    let expected = t.referee.sensed().clone();
    let swaps = t.session().map(TableView::swaps).unwrap_or_default();
    for p in swaps {
        t.lift(p);
        t.settle();
        t.put(p);
        t.settle();
    }
    assert_eq!(t.referee.sensed(), &expected);
    assert!(!t.referee.hands_pending(), "{}", t.text());
}

/// Makes `action` (a seat's) by hand when a gesture makes it and `by_hand`, else from the menu.
fn perform(t: &mut Table, rng: &mut SeededChance, action: &Action, by_hand: bool) {
    let game = t.table().clone();
    let gestures: Vec<_> = game
        .gestures()
        .into_iter()
        .filter(|(_, a)| a == action)
        .map(|(g, _)| g)
        .collect();
    if gestures.is_empty() || !by_hand {
        let label = game
            .choices()
            .into_iter()
            .find(|(_, a)| a == action)
            .map(|(l, _)| l)
            .unwrap_or_else(|| panic!("{action:?} is neither a gesture nor a choice"));
        t.choose_action(&label);
        return;
    }
    let before = t.actions();
    let g = &gestures[rng.roll(gestures.len() as u32).unwrap() as usize];
    let s = g.selected.expect("every gesture chooses by a marker");
    t.lift(s);
    t.settle();
    t.put(s);
    t.settle();
    for l in &g.lifted {
        t.lift(*l);
        t.settle();
    }
    if !g.lifted.is_empty() {
        t.hold();
    }
    if t.actions() == before {
        // The same hands make several actions (an attack or a counter attack): the menu asks.
        assert!(
            matches!(t.referee.screen(), Screen::Choice { title, .. } if title.starts_with("Which")),
            "{action:?}: {}",
            t.text()
        );
        t.pick(&game.label(action));
    }
}

/// The actions journaled so far.
fn journaled(t: &Table) -> Vec<Action> {
    t.records()
        .iter()
        .filter_map(|r| match r {
            Record::Action(bytes) => Some(postcard::from_bytes::<Action>(bytes).unwrap()),
            _ => None,
        })
        .collect()
}

/// Each casualty, arrival and capture the last action told is said once, by the spaces the
/// hands use: a casualty as its marker's way from the box to the casualty track ("Orange 4 to
/// Allied casualty 1"), an arrival as its marker's space ("Prussian marker to Blücher's
/// Prussians 1"), a capture as its control box ("Hougoumont taken: French marker in"); and no
/// hand step names any of those spaces.
fn told_once(t: &Table) {
    let moves = t.table().told_moves();
    if moves.is_empty() {
        return;
    }
    let screen = t.referee.screen();
    if matches!(screen, Screen::GameOver { .. }) {
        // A rout test rolled once the hands had moved what called it ends the game: nothing
        // is left to tell (the game over screen comes only when no hand step is left).
        return;
    }
    let Screen::Told { lines, hands, .. } = screen else {
        panic!("a move, not told: {}", t.text());
    };
    let name = |p: &Place| SbaTable::place_name(SbaChoice::default(), p);
    for m in moves {
        let (way, told) = match *m {
            ToldMove::Move { from, to } => {
                let way = format!("{} to {}", name(&from), name(&to));
                let n = lines
                    .iter()
                    .filter(|l| *l == &way || l.starts_with(&format!("{way} (")))
                    .count();
                (way, n)
            }
            ToldMove::Arrive(at) => {
                let way = format!("marker to {}", name(&at));
                let n = lines
                    .iter()
                    .filter(|l| l.ends_with(&format!(" {way}")))
                    .count();
                (way, n)
            }
            ToldMove::Exchange(at) => {
                let way = format!("{} taken: ", name(&at));
                (
                    way.clone(),
                    lines.iter().filter(|l| l.starts_with(&way)).count(),
                )
            }
        };
        assert_eq!(told, 1, "{way}: {}", t.text());
        for place in &m.places() {
            let step = format!("{}: ", name(place));
            assert!(
                !hands.iter().any(|h| h.starts_with(&step)),
                "{way} is a hand step too: {}",
                t.text()
            );
        }
    }
}

#[derive(Debug, Default)]
struct Coverage {
    by_hand: usize,
    by_menu: usize,
    die_button: usize,
    die_menu: usize,
    rout_tests: usize,
    take_from: usize,
    napoleon: usize,
    endings: BTreeSet<String>,
}

/// One game to its end with random legal actions, the referee's game checked against the rules
/// after each action (the rout tests included), and the journal at the end.
fn random_game(seed: u64, coverage: &mut Coverage) -> Table {
    let mut rng = SeededChance::new(seed ^ 0x5ba);
    let mut t = choose(seed);
    set_up(&mut t, &mut rng, boards::sba::FRENCH);
    set_up(&mut t, &mut rng, boards::sba::ALLIED);
    assert!(t.session().and_then(|s| s.game()).is_some(), "{}", t.text());
    let options = Options::new(CardSet::example());
    let mut replay = SaBelleAlliance::start(options.clone(), ()).unwrap();
    let mut seen = 0;
    while replay.status().is_ongoing() {
        match replay.to_act() {
            Actor::Chance => {
                // The action's die and the rout tests alike: "the player must roll a d6".
                assert!(
                    matches!(replay.phase(), Phase::Roll | Phase::RoutTest(_)),
                    "{:?}",
                    replay.phase()
                );
                if rng.roll(2).unwrap() == 0 {
                    t.press(Button::Die);
                    coverage.die_button += 1;
                } else {
                    let face = rng.roll(6).unwrap() + 1;
                    t.choose_action(&format!("die shows {face}"));
                    coverage.die_menu += 1;
                }
            }
            Actor::Seat(_) => {
                let legal = replay.legal_actions();
                let action = legal[rng.roll(legal.len() as u32).unwrap() as usize];
                let by_hand = rng.roll(4).unwrap() != 0;
                let gestured = t.table().gestures().iter().any(|(_, a)| *a == action);
                perform(&mut t, &mut rng, &action, by_hand);
                if by_hand && gestured {
                    coverage.by_hand += 1;
                } else {
                    coverage.by_menu += 1;
                }
                if matches!(action, Action::TakeFrom(_)) {
                    coverage.take_from += 1;
                }
                if matches!(action, Action::Activate { napoleon: true, .. }) {
                    coverage.napoleon += 1;
                }
                let played = journaled(&t);
                assert_eq!(played.get(seen), Some(&action), "{}", t.text());
            }
            Actor::Nobody => unreachable!("an ongoing game has someone to act"),
        }
        // Every action journaled since, the rout tests with it, by the rules.
        let played = journaled(&t);
        assert!(played.len() > seen, "nothing was played: {}", t.text());
        for a in &played[seen..] {
            if matches!(replay.phase(), Phase::RoutTest(_)) {
                coverage.rout_tests += 1;
            }
            replay.play(a).expect("the referee plays legal actions");
        }
        seen = played.len();
        assert_eq!(t.table().game(), &replay);
        told_once(&t);
        hands(&mut t);
        assert!(seen < 2000, "the game does not end");
    }
    assert!(t.referee.is_over());
    assert!(
        matches!(t.referee.screen(), Screen::GameOver { .. }),
        "{}",
        t.text()
    );
    for d in &t.log {
        if let Decision::GameOver { reason, .. } = d {
            // The kind of ending, without the roll a rout test's names (": Allied rout test 5
            // vs morale 3").
            let kind = reason.split(": ").next().unwrap_or(reason);
            coverage.endings.insert(kind.to_string());
        }
    }
    // The journal rebuilds the same game, and its actions replay by the rules.
    let records = t.records();
    let rebuilt = rebuild_table::<SbaTable>(SbaChoice::default(), &records).expect("rebuilds");
    assert_eq!(rebuilt.history.last(), Some(t.table()));
    let again: SaBelleAlliance =
        boards::game::replay(options, (), &journaled(&t)).expect("replays");
    assert_eq!(&again, t.table().game());
    assert!(t.checks.checked > 0);
    t
}

#[test]
fn random_games_played_by_hand_match_the_rules_and_the_journal() {
    let mut coverage = Coverage::default();
    // 40 games, about 1,300 actions and dice, a few seconds on the development machine; on the
    // cross targets (run under QEMU in CI, ten times slower) a sample of 8 checks the same
    // invariants after every step, and the coverage is left to the full run.
    let full = cfg!(target_arch = "x86_64");
    for seed in 0..if full { 40 } else { 8 } {
        let _ = random_game(seed, &mut coverage);
    }
    println!("{coverage:#?}");
    if !full {
        return;
    }
    for (what, n) in [
        ("by hand", coverage.by_hand),
        ("by menu", coverage.by_menu),
        ("Die", coverage.die_button),
        ("die from the menu", coverage.die_menu),
        ("rout tests", coverage.rout_tests),
        ("Napoleon", coverage.napoleon),
    ] {
        assert!(n >= 20, "{what}: {coverage:#?}");
    }
    assert!(coverage.take_from >= 1, "{coverage:#?}");
    assert!(coverage.endings.len() >= 2, "{coverage:#?}");
}

fn p(s: &str) -> Place {
    Place::Square(Cell::parse(s).unwrap())
}

/// A casualty is told once, with its exact spaces: its marker's way from the box's last space
/// to the next casualty space (the rulebook: "remove one division marker from the battlefield
/// map and place it on the casualty track. Fill the track from top to bottom"), and no hand
/// step says it again; play waits until the hands have made it.
#[test]
fn a_casualty_is_told_once_with_its_spaces() {
    let mut rng = SeededChance::new(1);
    let mut t = choose(1);
    set_up(&mut t, &mut rng, boards::sba::FRENCH);
    set_up(&mut t, &mut rng, boards::sba::ALLIED);
    // Kellermann (d2) charges Orange (a8-d8): d2 lifted and put back, a8 lifted and held.
    t.lift(p("d2"));
    t.settle();
    t.put(p("d2"));
    t.settle();
    t.lift(p("a8"));
    t.settle();
    t.hold();
    t.put(p("a8"));
    t.settle();
    assert!(!t.referee.hands_pending(), "{}", t.text());
    // 6 reads AC2: Orange's last two markers to the Allied casualty track (a6, b6).
    t.choose_action("die shows 6");
    let text = t.text();
    for way in [
        "Orange 4 to Allied casualty 1",
        "Orange 3 to Allied casualty 2",
    ] {
        assert_eq!(text.matches(&format!("- {way} /")).count(), 1, "{text}");
    }
    for step in [
        "Orange 4: ",
        "Orange 3: ",
        "Allied casualty 1: ",
        "Allied casualty 2: ",
    ] {
        assert!(!text.contains(step), "{step}in {text}");
    }
    assert!(t.referee.hands_pending(), "{text}");
    t.lift(p("d8"));
    t.put(p("a6"));
    t.settle();
    assert!(t.referee.hands_pending(), "{}", t.text());
    t.lift(p("c8"));
    t.put(p("b6"));
    t.settle();
    assert!(!t.referee.hands_pending(), "{}", t.text());
}

/// Both armies set up, the Allied casualty track to box 9 (as in scenario b05), then d'Erlon
/// assaults La Haye Sainte and 5 reads AC1 CAP: Orange's last marker goes to box 10 (RT), the
/// control box's marker is owed an exchange, and the Allied rout test waits for Die.
fn to_la_haye_sainte_taken() -> Table {
    let mut rng = SeededChance::new(1);
    let mut t = choose(1);
    set_up(&mut t, &mut rng, boards::sba::FRENCH);
    set_up(&mut t, &mut rng, boards::sba::ALLIED);
    for (action, face) in [
        (
            "Imperial Guard: Advance of the Guard vs Orange, Napoleon",
            6,
        ),
        ("Hill: Hold the right vs Reille", 1),
        ("Kellermann: Charge vs Hill", 6),
        ("Picton: Charge of the reserve vs d'Erlon", 1),
        ("Milhaud: Charge the squares vs Picton", 6),
        ("Uxbridge: Charge of the heavy brigades vs Milhaud", 4),
    ] {
        t.choose_action(action);
        t.choose_action(&format!("die shows {face}"));
        hands(&mut t);
    }
    assert_eq!(
        t.table().game().casualties(boards::sba::ALLIED).len(),
        9,
        "{}",
        t.text()
    );
    t.choose_action("d'Erlon: Assault La Haye Sainte vs Orange");
    t.choose_action("die shows 5");
    t
}

/// A control box taken by an action whose casualty calls a rout test, the test rolled with Die
/// before the hands exchange the box's marker: the exchange is still owed. Before, the roll
/// forgot it, and once the casualty's marker had moved the umpire went on with the Allied
/// marker still in La Haye Sainte, which the game had French (the switches cannot see it).
#[test]
fn a_capture_is_still_owed_after_a_rout_test_rolled_before_the_hands() {
    let mut t = to_la_haye_sainte_taken();
    let text = t.text();
    assert!(
        text.contains("La Haye Sainte taken: French marker in"),
        "{text}"
    );
    assert!(text.contains("rout test: Die: roll"), "{text}");
    assert_eq!(t.table().exchanged().len(), 1, "{text}");
    // Die at once, then the casualty's marker moved: the exchange is still to be made.
    t.press(Button::Die);
    assert!(t.referee.hands_pending(), "{}", t.text());
    t.match_board();
    assert!(t.referee.hands_pending(), "{}", t.text());
    hands(&mut t);
}

/// While a control box's exchange is owed, no corps is activated from the OK menu (a gesture
/// already waits for the hands): a restart could not tell whether the exchange was made
/// before it. A die is still entered from the menu.
#[test]
fn no_corps_is_activated_from_the_menu_while_an_exchange_is_owed() {
    let mut t = to_la_haye_sainte_taken();
    // The rout test, entered from the menu: 1 holds.
    t.choose_action("die shows 1");
    t.match_board();
    assert!(t.referee.hands_pending(), "{}", t.text());
    let before = t.actions();
    let out = t.press(Button::Ok);
    assert!(
        out.iter().any(|d| matches!(d, Decision::Ignored { why, .. }
            if why == "the hands first: make the exchange the screen asks for")),
        "{out:?}: {}",
        t.text()
    );
    assert_eq!(t.actions(), before);
    hands(&mut t);
    // Made, the menu opens again.
    t.press(Button::Ok);
    assert!(
        matches!(t.referee.screen(), Screen::Choice { .. }),
        "{}",
        t.text()
    );
}

/// A capture whose marker exchange the hands still owed when the power went is owed again
/// after the restart: occupancy cannot see whether the Allied marker still stands in La Haye
/// Sainte, so the resumed umpire asks for the exchange (one already made costs a lift) before
/// play goes on, whether the rout test was rolled before the cut or not.
#[test]
fn a_capture_owed_when_the_power_went_is_owed_after_the_restart() {
    for rolled_before_the_cut in [false, true] {
        let mut t = to_la_haye_sainte_taken();
        let exchanged: BTreeSet<Place> = t.table().exchanged().into_iter().collect();
        assert_eq!(exchanged.len(), 1, "{}", t.text());
        if rolled_before_the_cut {
            t.press(Button::Die);
        }
        // The power goes before the hands made anything.
        let (resumed, _) = t.restarted(SeededChance::new(2), Millis(t.t + 1000));
        t.referee = resumed;
        let owed: BTreeSet<Place> = t
            .session()
            .map(TableView::swaps)
            .unwrap_or_default()
            .into_iter()
            .collect();
        assert_eq!(owed, exchanged, "{}", t.text());
        t.match_board();
        assert!(t.referee.hands_pending(), "{}", t.text());
        if !rolled_before_the_cut {
            // The rout test waits for Die first, as it does without the cut.
            assert!(t.text().contains("rout test: Die: roll"), "{}", t.text());
            t.press(Button::Die);
        }
        // The screen says it: the step, or the announcement of the test with the capture.
        let text = t.text();
        assert!(
            text.contains("La Haye Sainte: lift the piece and put the French control marker there")
                || text.contains("La Haye Sainte taken: French marker in"),
            "the exchange is asked: {text}"
        );
        hands(&mut t);
    }
}

/// An arrival and a capture are each told once, with their exact spaces (the rulebook: arriving
/// Prussian divisions are placed in their box; a captured control box's marker is exchanged):
/// "Prussian marker to Blücher's Prussians 1", "Hougoumont taken: French marker in", and no hand
/// step says either again, even with the old control marker lifted; play waits until the hands
/// have made them.
#[test]
fn an_arrival_and_a_capture_are_told_once_with_their_spaces() {
    let mut rng = SeededChance::new(1);
    let mut t = choose(1);
    set_up(&mut t, &mut rng, boards::sba::FRENCH);
    set_up(&mut t, &mut rng, boards::sba::ALLIED);
    // Reille (e1-g1) assaults Hougoumont (j2) against Hill (e8-g8); 5 reads AC1 CAP.
    t.choose_action("Reille: Assault Hougoumont vs Hill");
    t.choose_action("die shows 5");
    let text = t.text();
    for told in [
        "- Hill 3 to Allied casualty 1 /",
        "- Hougoumont taken: French marker in /",
    ] {
        assert_eq!(text.matches(told).count(), 1, "{told} in {text}");
    }
    assert!(!text.contains("Hougoumont: "), "{text}");
    assert!(!text.contains("is taken"), "{text}");
    assert!(t.referee.hands_pending(), "{text}");
    t.lift(p("g8"));
    t.put(p("a6"));
    t.settle();
    // The Allied control marker off: the French one is still the told line's, not a step.
    t.lift(p("j2"));
    t.settle();
    assert!(!t.text().contains("Hougoumont: "), "{}", t.text());
    assert!(t.referee.hands_pending(), "{}", t.text());
    t.put(p("j2"));
    t.settle();
    assert!(!t.referee.hands_pending(), "{}", t.text());
    // Blücher's Prussians march to the field; 4 reads P2: two markers into e7, f7.
    t.choose_action("Blücher's Prussians: March to the field");
    t.choose_action("die shows 4");
    let text = t.text();
    for told in [
        "- Prussian marker to Blücher's Prussians 1 /",
        "- Prussian marker to Blücher's Prussians 2 /",
    ] {
        assert_eq!(text.matches(told).count(), 1, "{told} in {text}");
    }
    assert!(!text.contains("Prussians 1: "), "{text}");
    assert!(!text.contains("Prussians 2: "), "{text}");
    assert!(!text.contains("arrive in the box"), "{text}");
    assert!(t.referee.hands_pending(), "{text}");
    t.put(p("e7"));
    t.settle();
    assert!(t.referee.hands_pending(), "{}", t.text());
    t.put(p("f7"));
    t.settle();
    assert!(!t.referee.hands_pending(), "{}", t.text());
}

/// A Sa Belle Alliance journal cut at every byte offset, as a power cut mid-write leaves it,
/// resumes the game of its intact records: the cards and map it began on (its first record),
/// the armies, each whole action and rout test; the torn record cut off, never a panic, never
/// a game its records do not make. (On the cross targets, under QEMU, every 17th offset.)
#[test]
fn a_sba_journal_cut_at_every_byte_resumes_its_intact_actions() {
    use firmware::journal::{decode, JournalWriter};
    use firmware::referee::{Header, RefereeConfig};
    // A game of 31 records to its end (each cut rebuilds the game up to it).
    let t = random_game(6, &mut Coverage::default());
    let bytes = t.referee.journal().unwrap().store().as_bytes().to_vec();
    let records = t.records();
    assert!(matches!(records.first(), Some(Record::Files(f)) if f.len() == 2));
    // Where each record ends: the journal re-encoded frame by frame.
    let header = decode::<Header, Record>(&bytes).unwrap().header;
    let mut writer = JournalWriter::create(MemStore::new(), &header).unwrap();
    let mut ends = vec![writer.len_bytes()];
    for r in &records {
        writer.append(r).unwrap();
        ends.push(writer.len_bytes());
    }
    assert_eq!(writer.store().as_bytes(), &bytes[..]);
    let step = if cfg!(target_arch = "x86_64") { 1 } else { 17 };
    let mut games = 0;
    for cut in (ends[0]..=bytes.len()).step_by(step) {
        let complete = ends.iter().filter(|&&end| end <= cut).count() - 1;
        let (referee, _) = Referee::resume(
            RefereeConfig::default(),
            SeededChance::new(9),
            || Ok(MemStore::new()),
            MemStore::from_bytes(bytes[..cut].to_vec()),
            Vec::new(),
            Millis(0),
        )
        .unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        assert_eq!(
            referee.journal().unwrap().store().as_bytes(),
            &bytes[..ends[complete]],
            "cut at {cut}: the torn record cut off"
        );
        let rebuilt = rebuild_table::<SbaTable>(SbaChoice::default(), &records[..complete])
            .unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let game = session::<SbaTable, _>(&referee).and_then(|s| s.game());
        assert_eq!(game, rebuilt.history.last(), "cut at {cut}");
        games += usize::from(game.is_some());
    }
    assert!(
        games * step > 100,
        "most cuts fall in the game: {games}, one offset in {step}"
    );
}
