//! Stratego: Waterloo through the whole referee, by physical events only: chosen from the menu
//! with the buttons, both armies set up group by group, then played with lifts, placements and
//! buttons. A scripted game walks through every kind of table moment (each check quotes the
//! rulebook sentence or the ruling it follows); hundreds of random games check the referee's game
//! against a replay of the rules and the journal, and that no screen names a hidden unit.

mod support;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;

use boards::geometry::grid::Cell;
use boards::waterloo::{
    Action, Event, Outcome, PursuitEvent, Seen, Setup, Unit, Version, Waterloo, ALLIED, FRENCH,
};
use boards::{Actor, BySeat, Game, Seat};
use firmware::journal::MemStore;
use firmware::referee::games::{self, waterloo, WaterlooAction, WaterlooChoice, WaterlooTable};
use firmware::referee::table::{rebuild_table, Gesture, TableGame};
use firmware::referee::{
    screen_text, Chance, ChanceError, Decision, GameKind, Record, Referee, SeededChance,
};
use firmware::sensing::{Button, Millis, Place, TrayKind};
use firmware::ui::{HandStep, Screen, StatusLine};
use support::{acted, session, Checks};

// ---- the chance: seeded, or rigged for the scripted game -----------------------------------

/// The umpire's chance with the next rolls queued by the test (then a seed).
#[derive(Debug)]
struct Rigged {
    queue: Rc<RefCell<VecDeque<u32>>>,
    rest: SeededChance,
}

impl Chance for Rigged {
    fn roll(&mut self, n: u32) -> Result<u32, ChanceError> {
        match self.queue.borrow_mut().pop_front() {
            Some(v) => {
                assert!(v < n, "rigged roll {v} of {n}");
                Ok(v)
            }
            None => self.rest.roll(n),
        }
    }
}

// ---- the table: the referee fed physical events, and the checks after each -----------------

fn kind(choice: WaterlooChoice) -> GameKind {
    GameKind::Waterloo { choice }
}

/// The referee and the sensors' layout, with what the test knows beside the referee: a replay
/// of the journal through the rules alone.
type Table<C> = support::Table<C, Replay>;

/// The journal read so far, replayed through the rules.
struct Replay {
    choice: WaterlooChoice,
    /// Where the next record starts, once the header was read.
    journal_pos: Option<usize>,
    armies: BySeat<Option<waterloo::WaterlooArmy>>,
    /// The rules' games after each journaled action (the replay), with each outcome.
    games: Vec<Waterloo>,
    /// Units the latest journaled actions revealed (a battle, an elimination): they may be
    /// named while their announcement is shown.
    recent: BTreeSet<Unit>,
    /// After each journaled action (as `games`), the units each seat's opponent has seen as
    /// the Pursuit goes: those face up on the board when it began (a battle or a
    /// reconnaissance showed them, and they have not left the board since), and those a
    /// battle or a charge has shown since. A set-aside cavalry may be named only so.
    shown: Vec<BTreeSet<Unit>>,
    screens: usize,
}

impl<C: Chance> Table<C> {
    fn new(chance: C, choice: WaterlooChoice) -> Table<C> {
        let layout = games::layout(kind(choice))
            .validate()
            .expect("the Waterloo layout is valid");
        let replay = Replay {
            choice,
            journal_pos: None,
            armies: BySeat::default(),
            games: Vec::new(),
            recent: BTreeSet::new(),
            shown: Vec::new(),
            screens: 0,
        };
        let mut table = Table::at_the_menu(chance, layout, replay);
        table.choose();
        table
    }

    /// Chooses this game from the menu with the buttons: Die down to "Stratego: Waterloo", OK,
    /// Die down to the variant, OK.
    fn choose(&mut self) {
        let menu = games::menu();
        let (_, variants) = menu
            .iter()
            .find(|(name, _)| *name == "Stratego: Waterloo")
            .expect("Waterloo is on the menu");
        let variant = variants
            .iter()
            .position(|(_, k)| *k == kind(self.checks.choice))
            .expect("the variant is on the menu");
        self.choose_game("Stratego: Waterloo", variant);
    }

    /// Lift `from`, put the piece on `to`, let the board settle.
    fn slide(&mut self, from: Place, to: Place) -> Vec<Decision> {
        let mut out = self.lift(from);
        out.extend(self.put(to));
        out.extend(self.settle());
        out
    }

    /// Lift `gun` and put it back, then lift `target` (fire).
    fn fire(&mut self, gun: Place, target: Place) -> Vec<Decision> {
        let mut out = self.lift(gun);
        out.extend(self.put(gun));
        out.extend(self.settle());
        out.extend(self.lift(target));
        out.extend(self.settle());
        out.extend(self.hold());
        out
    }

    fn game(&self) -> &Waterloo {
        self.table().game()
    }

    /// Makes the sensed board what the umpire expects: every hand step done, each piece to
    /// replace lifted and put back.
    fn do_hands(&mut self) {
        for _ in 0..4 {
            let expected: BTreeMap<Place, String> = self.table().board();
            let sensed = self.referee.sensed().clone();
            let swaps: Vec<Place> = self.hand_swaps();
            if !self.referee.hands_pending() && expected.keys().eq(sensed.iter()) {
                return;
            }
            for place in sensed.iter().filter(|p| !expected.contains_key(p)) {
                self.lift(*place);
            }
            for place in swaps {
                self.lift(place);
                self.put(place);
            }
            for place in expected.keys().filter(|p| !sensed.contains(p)) {
                self.put(*place);
            }
            self.settle();
        }
        panic!("the hands never finished: {}", self.text());
    }

    /// The squares a hand step asks to lift and refill (from the screen's words).
    fn hand_swaps(&self) -> Vec<Place> {
        let hands = match self.referee.screen() {
            Screen::Battle { hands, .. } | Screen::Told { hands, .. } => hands.clone(),
            _ => Vec::new(),
        };
        hands
            .iter()
            .filter_map(|h| h.strip_suffix(" there"))
            .filter_map(|h| h.split_once(": lift the piece and put "))
            .map(|(place, _)| place)
            .filter_map(Cell::parse)
            .map(Place::Square)
            .collect()
    }

    /// What the screen tells after an action: its title, lines, hand steps and status line.
    fn told(&self) -> (String, Vec<String>, Vec<HandStep>, StatusLine) {
        let Screen::Told {
            status,
            title,
            lines,
            hands,
            ..
        } = self.referee.screen().clone()
        else {
            panic!("{}", self.text());
        };
        (title, lines, hands, status)
    }

    /// Opens the OK menu (or uses the one open) and chooses the entry `label`.
    fn choose_entry(&mut self, label: &str) -> Vec<Decision> {
        if matches!(self.referee.screen(), Screen::Choice { .. }) {
            self.pick(label)
        } else {
            self.choose_action(label)
        }
    }
}

// ---- the checks after every event ---------------------------------------------------------

impl Checks for Replay {
    type Game = WaterlooTable;

    fn after<C: Chance>(&mut self, referee: &Referee<MemStore, C>, _: &[Decision]) {
        self.screens += 1;
        self.read_journal(referee);
        if let Some(table) = session::<WaterlooTable, C>(referee).and_then(|s| s.game()) {
            let replayed = self.games.last().expect("the replay started with the game");
            assert_eq!(
                table.game(),
                replayed,
                "the referee's game is not the rules' replay of its journal"
            );
            let shown = self.shown.last().expect("as the games");
            audit(referee.screen(), table.game(), &self.recent, shown);
        }
    }
}

impl Replay {
    /// Reads the records journaled since the last look and replays them through the rules.
    fn read_journal<C: Chance>(&mut self, referee: &Referee<MemStore, C>) {
        let Some(journal) = referee.journal() else {
            return;
        };
        let bytes = journal.store().as_bytes().to_vec();
        let mut pos = match self.journal_pos {
            Some(p) => p,
            None => {
                // Magic, version, length, payload, CRC.
                let len = u32::from_le_bytes(bytes[6..10].try_into().unwrap()) as usize;
                10 + len + 4
            }
        };
        let mut fresh = Vec::new();
        while pos + 8 <= bytes.len() {
            let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
            let payload = &bytes[pos + 8..pos + 8 + len];
            fresh.push(postcard::from_bytes::<Record>(payload).expect("a record"));
            pos += 8 + len + 4;
        }
        self.journal_pos = Some(pos);
        if fresh.is_empty() {
            return;
        }
        self.recent.clear();
        for record in fresh {
            match record {
                Record::Army { seat, army } => {
                    self.armies[seat] = Some(postcard::from_bytes(&army).expect("an army"));
                    if let BySeat([Some(a), Some(f)]) = &self.armies {
                        let setup = Setup {
                            placements: BySeat([a.placements.clone(), f.placements.clone()]),
                        };
                        let game = Waterloo::start(waterloo::options(self.choice), setup)
                            .expect("the journaled armies start a game");
                        self.games = vec![game];
                        self.shown = vec![BTreeSet::new()];
                    }
                }
                Record::Action(bytes) => {
                    let action: WaterlooAction = postcard::from_bytes(&bytes).expect("an action");
                    let mut next = self.games.last().expect("a game").clone();
                    let face_up: Vec<Unit> = next
                        .pieces()
                        .filter(|(_, p)| p.revealed)
                        .map(|(_, p)| p.unit)
                        .collect();
                    let outcome = next
                        .play(&action.action)
                        .expect("every journaled action is legal");
                    self.recent.extend(revealed(&outcome));
                    let mut shown = self.shown.last().expect("as the games").clone();
                    let began = outcome
                        .events
                        .iter()
                        .any(|e| matches!(e, Event::PursuitBegan { .. }));
                    if began {
                        shown.extend(face_up);
                    }
                    if began || next.pursuit_victor().is_some() {
                        shown.extend(fought(&outcome));
                    }
                    self.shown.push(shown);
                    self.games.push(next);
                }
                Record::Takeback { to_ply } => {
                    self.games.truncate(to_ply as usize + 1);
                    self.shown.truncate(to_ply as usize + 1);
                }
                // The board the game began on, the journal's first record.
                Record::Files(files) => {
                    assert!(self.armies.iter().all(|(_, a)| a.is_none()), "first");
                    let [file] = &files[..] else {
                        panic!("one file: {files:?}")
                    };
                    assert_eq!(file.key, "layout");
                    assert_eq!(
                        boards::waterloo::Layout::parse(&file.text).expect("it reads"),
                        *self.choice.layout.layout()
                    );
                }
                other => panic!("a Stratego record in a Waterloo journal: {other:?}"),
            }
        }
    }
}

/// The units an outcome shows both players: both pieces of a battle, the eliminated, the
/// withdrawn (just revealed in battle), the reconnoitred, and the Pursuit's face-up cavalry.
fn revealed(outcome: &Outcome) -> Vec<Unit> {
    let mut units = fought(outcome);
    for event in &outcome.events {
        if let Event::Eliminated { unit, .. }
        | Event::Withdrawn { unit, .. }
        | Event::Reconnoitred { unit, .. }
        | Event::Pursuit(PursuitEvent::CutDown { unit, .. }) = *event
        {
            units.push(unit);
        }
    }
    units
}

/// The units an outcome's battles and Pursuit charges showed both players.
fn fought(outcome: &Outcome) -> Vec<Unit> {
    let mut units = Vec::new();
    for event in &outcome.events {
        match *event {
            Event::Battle(r) => units.extend([r.attacker.1, r.defender.1]),
            Event::Pursuit(PursuitEvent::Charge {
                attacker, defender, ..
            }) => units.extend([attacker, defender]),
            _ => {}
        }
    }
    units
}

/// The units either seat's view shows of the other's, the dead, and the Pursuit's cavalry
/// that its opponent has seen (`shown`).
fn public_units(game: &Waterloo, shown: &BTreeSet<Unit>) -> BTreeSet<Unit> {
    let mut units = BTreeSet::new();
    for seat in [ALLIED, FRENCH] {
        let view = game.view(seat);
        for (_, seen) in view.squares() {
            if let Seen::Enemy {
                unit: Some(unit), ..
            } = seen
            {
                units.insert(unit);
            }
        }
        units.extend(view.dead(seat).iter().copied());
        // The OLED names a seat's set-aside cavalry by its back until its opponent has seen it.
        units.extend(
            view.pursuit_cavalry()
                .iter()
                .map(|(u, _)| *u)
                .filter(|u| shown.contains(u)),
        );
    }
    units
}

/// No screen in play names a unit the opponent's view hides, or a line of retreat.
fn audit(screen: &Screen, game: &Waterloo, recent: &BTreeSet<Unit>, shown: &BTreeSet<Unit>) {
    let mut text = screen_text(screen);
    let public = public_units(game, shown);
    // Every unit by its short name (the OLED's) and its full one, longest first, so a name
    // inside another ("Landwehr" in "Sil. Landwehr") is not mistaken for it.
    let mut names: Vec<(Unit, &str)> = Unit::ALL
        .iter()
        .flat_map(|u| [(*u, u.short()), (*u, u.name())])
        .collect();
    names.sort_by_key(|(_, n)| std::cmp::Reverse(n.len()));
    for (unit, name) in names {
        if text.contains(name) {
            assert!(
                public.contains(&unit) || recent.contains(&unit),
                "{name} is hidden but named on the OLED: {}",
                screen_text(screen)
            );
            text = text.replace(name, "#");
        }
    }
    for flank in ["left flank", "right flank", "centre"] {
        assert!(
            !text.contains(flank),
            "a line of retreat on the OLED: {text}"
        );
    }
}

// ---- set-up by groups ------------------------------------------------------------------------

/// Where each piece of `seat` goes: `fixed` squares, `reserve` units on reserve slots (in
/// order), the Prussians on staging slots, every other piece on the set-up rows in order
/// (Allied from a1, French from a10), leaving `empty` squares free.
fn deployment(
    choice: WaterlooChoice,
    seat: Seat,
    fixed: &[(&str, Unit)],
    reserve: &[Unit],
    empty: &[&str],
) -> Vec<Vec<Place>> {
    let rows: [u8; 4] = if seat == ALLIED {
        [0, 1, 2, 3]
    } else {
        [9, 8, 7, 6]
    };
    let taken: Vec<Cell> = fixed
        .iter()
        .map(|(s, _)| *s)
        .chain(empty.iter().copied())
        .map(|s| Cell::parse(s).unwrap())
        .collect();
    let mut free = rows
        .iter()
        .flat_map(|&r| (0..12).map(move |c| Cell::new(c, r)))
        .filter(|c| !taken.contains(c));
    let mut slots = 0u8;
    let mut staging = 0u8;
    group_units(choice, seat)
        .iter()
        .map(|&unit| {
            let mut places: Vec<Place> = fixed
                .iter()
                .filter(|(_, u)| *u == unit)
                .map(|(s, _)| Place::Square(Cell::parse(s).unwrap()))
                .collect();
            let on_tray = reserve.iter().filter(|u| **u == unit).count();
            for _ in 0..on_tray {
                places.push(Place::Tray {
                    tray: TrayKind::Reserve,
                    seat,
                    slot: slots,
                });
                slots += 1;
            }
            while places.len() < usize::from(unit.count()) {
                if unit.army() == boards::waterloo::Army::Prussian {
                    places.push(Place::Tray {
                        tray: TrayKind::PrussianStaging,
                        seat: ALLIED,
                        slot: staging,
                    });
                    staging += 1;
                } else {
                    places.push(Place::Square(free.next().expect("room on the rows")));
                }
            }
            places
        })
        .collect()
}

/// The unit of each of `seat`'s set-up groups: its army in piece-page order, then (Allied)
/// the Prussians.
fn group_units(choice: WaterlooChoice, seat: Seat) -> Vec<Unit> {
    use boards::waterloo::Army;
    let units: Vec<Unit> = if seat == ALLIED {
        Unit::of(Army::Allied)
            .chain(Unit::of(Army::Prussian))
            .collect()
    } else {
        Unit::of(Army::French).collect()
    };
    let groups = WaterlooTable::groups(choice, seat);
    assert_eq!(units.len(), groups.len());
    for (unit, group) in units.iter().zip(&groups) {
        assert!(group.label.contains(unit.short()), "{}", group.label);
        assert_eq!(
            group.count,
            unit.count(),
            "every piece of a kind is asked for"
        );
    }
    units
}

/// Places `seat`'s groups one by one, pressing OK after each.
fn set_up<C: Chance>(t: &mut Table<C>, seat: Seat, groups: &[Vec<Place>]) {
    let labels = WaterlooTable::groups(t.checks.choice, seat);
    for (group, places) in labels.iter().zip(groups) {
        assert!(
            t.text().contains(&group.label),
            "asked for {}: {}",
            group.label,
            t.text()
        );
        for place in places {
            t.put(*place);
        }
        t.settle();
        let out = t.press(Button::Ok);
        assert!(
            out.iter()
                .any(|d| matches!(d, Decision::GroupPlaced { .. })),
            "{}: {out:?} {}",
            group.label,
            t.text()
        );
    }
    assert!(
        t.log.contains(&Decision::Deployed(seat)),
        "{:?}",
        t.log.iter().rev().take(3).collect::<Vec<_>>()
    );
}

fn sq(s: &str) -> Place {
    Place::Square(Cell::parse(s).unwrap())
}

fn tray(tray: TrayKind, seat: Seat, slot: u8) -> Place {
    Place::Tray { tray, seat, slot }
}

// ---- the scripted game -----------------------------------------------------------------------

#[test]
fn a_basic_game_at_the_table() {
    let choice = WaterlooChoice {
        version: Version::Basic,
        early_start: false,
        prussians_uncertain: false,
        mud: false,
        layout: Default::default(),
    };
    let rolls = Rc::new(RefCell::new(VecDeque::new()));
    let chance = Rigged {
        queue: Rc::clone(&rolls),
        rest: SeededChance::new(5),
    };
    let mut t = Table::new(chance, choice);

    // "In 'Stratego: Waterloo' the Allied player will start setting up his army."
    assert!(t.text().starts_with("Allied set-up"), "{}", t.text());
    let allied = deployment(
        choice,
        ALLIED,
        &[
            ("a1", Unit::Wellington),
            ("b1", Unit::Uxbridge),
            ("c4", Unit::BritishArtillery),
            ("e4", Unit::BritishFoot),
            ("g4", Unit::KglHussars),
            ("l4", Unit::KglHussars),
            ("l3", Unit::KglHussars),
        ],
        &[Unit::BritishFoot, Unit::BritishFoot],
        &[],
    );
    set_up(&mut t, ALLIED, &allied);
    // The French leave the l file, k10, e10 and f10 free; six pieces wait in reserve.
    let french = deployment(
        choice,
        FRENCH,
        &[
            ("a10", Unit::Napoleon),
            ("b10", Unit::Ney),
            ("c7", Unit::Cuirassiers),
            ("e7", Unit::FrenchLineInfantry),
            ("g7", Unit::Chasseurs),
            ("g8", Unit::FrenchLightInfantry),
        ],
        &[
            Unit::FrenchLineInfantry,
            Unit::FrenchLineInfantry,
            Unit::FrenchLineInfantry,
            Unit::FrenchLineInfantry,
            Unit::FrenchArtillery,
            Unit::FrenchArtillery,
        ],
        &["l7", "l8", "l9", "l10", "k10", "e10", "f10"],
    );
    // "both players randomly choose a Line of Retreat card": the Allied right, the French left
    // (l10 k10 j10 i10 on the default board), drawn unseen as the game starts.
    rolls.borrow_mut().extend([2, 0]);
    set_up(&mut t, FRENCH, &french);
    assert!(t.log.contains(&Decision::GameStarted));
    assert_eq!(
        t.game().to_act(),
        Actor::Seat(ALLIED),
        "The Allied player starts the battle."
    );
    assert_eq!(t.game().reserve(FRENCH).len(), 6);
    assert_eq!(t.table().trays().len(), 2 + 6 + 13);
    let (title, lines, _, status) = t.told();
    assert_eq!(title, "Lines of retreat");
    assert_eq!(
        lines,
        [
            "Allied line of retreat drawn (secret)",
            "French line of retreat drawn (secret)",
            "Allied turn: 3 actions",
        ]
    );
    assert_eq!(status.turn, 1);
    assert_eq!(status.actions_left, Some(3));
    assert_eq!(
        status.reinforcements_in,
        Some(12),
        "the Prussians come at turn 13"
    );
    assert_eq!(
        status.clock.map(|c| (c.hour, c.minute)),
        Some((11, 0)),
        "The timetable shows 11 o'clock when the 1st game turn starts"
    );

    // No die is due: the Die button does nothing.
    let out = t.press(Button::Die);
    assert!(matches!(out[..], [Decision::Ignored { .. }]), "{out:?}");

    // An illegal move is refused at once, with its fix: "Artillery can only move one space
    // each action".
    let out = t.slide(sq("c4"), sq("c6"));
    assert!(
        out.iter().any(|d| matches!(d, Decision::Refused { .. })),
        "{out:?}"
    );
    assert_eq!(
        t.text(),
        "Turn 1 11:00 Allied / 3 actions / Prussians in 12 / 00:00 / Illegal c4: put the Allied artillery; c6: take the piece off / 1/2 / Turn 1 11:00 Allied / 3 actions / Prussians in 12 / 00:00 / Why c4-c6: the piece on c4 cannot reach c6 in one action (check its move and the pieces in the way) / 2/2"
    );
    t.slide(sq("c6"), sq("c4"));
    assert!(
        t.text().contains("Allied: move, attack, fire or enter"),
        "{}",
        t.text()
    );

    // A piece put down where nothing fits: after the settle time, the differences.
    t.put(sq("f5"));
    t.settle();
    assert!(t.wait(1000).is_empty(), "not before the settle time");
    let out = t.wait(2500);
    assert!(
        matches!(&out[..], [Decision::Mismatch(d)] if d.len() == 1 && d[0].place == "f5" && d[0].belongs == "empty"),
        "{out:?}"
    );
    assert_eq!(t.text(), "Fix the board (1) / - f5 -> empty");
    let out = t.lift(sq("f5"));
    let mut out2 = out.clone();
    out2.extend(t.settle());
    assert!(out2.contains(&Decision::BoardMatches), "{out2:?}");

    // A move: "Line Infantry pieces can move two spaces each action."
    let out = t.slide(sq("e4"), sq("e6"));
    assert_eq!(acted(&out), ["e4-e6"]);
    assert_eq!(t.game().actions(), (3, 2));
    // Put back on e4, it is a legal move, which is preferred; Back then offers to take both
    // back, confirmed with OK.
    let out = t.slide(sq("e6"), sq("e4"));
    assert_eq!(acted(&out), ["e6-e4"]);
    assert_eq!(t.game().actions(), (3, 1));
    let out = t.press(Button::Back);
    assert!(
        out.contains(&Decision::TakebackOffered { to_ply: 2 }),
        "{out:?}"
    );
    assert!(
        t.text().starts_with("Take back? / Take back 2 moves"),
        "{}",
        t.text()
    );
    let out = t.press(Button::Ok);
    assert!(out.contains(&Decision::TookBack { to_ply: 2 }), "{out:?}");
    assert_eq!(t.game().actions(), (3, 3));
    t.slide(sq("e4"), sq("e6"));

    // An attack: "Both pieces are then revealed." Equal strength: "the attacker will have to
    // roll the Battle die". The attacker stands on e6, the square of its last step (ruling 7).
    t.lift_two(sq("e6"), sq("e7"));
    assert_eq!(
        t.referee.screen(),
        &Screen::Battle {
            attacker: "British Foot (3)".into(),
            defender: "Fr. Line Inf (3)".into(),
            result: "equal strength: press Die to roll the battle die".into(),
            after: Vec::new(),
            hands: vec![
                "e6: put the British Foot".into(),
                "e7: put the Fr. Line Inf".into(),
            ],
            // The places the hand steps and the attack name, for the LEDs.
            places: firmware::ui::Places {
                hands: vec![sq("e6"), sq("e7")],
                moved: vec![sq("e6"), sq("e7")],
                target: None,
            },
        }
    );
    t.put(sq("e6"));
    t.put(sq("e7"));
    let out = t.settle();
    assert!(out.contains(&Decision::HandsDone), "{out:?}");
    // "6. Red 'R' The Red/Black piece has emerged victorious and may now take the place of the
    // Blue piece ... The Blue piece is not eliminated but withdraws off the board".
    rolls.borrow_mut().push_back(5);
    let out = t.press(Button::Die);
    assert_eq!(acted(&out), ["die: Red R"]);
    let withdrawn = tray(TrayKind::Withdrawn, FRENCH, 0);
    assert_eq!(t.table().trays()[&withdrawn], Unit::FrenchLineInfantry);
    let (title, lines, hands, _) = t.told();
    assert_eq!(title, "Die: Red R");
    assert_eq!(lines, ["Fr. Line Inf on e7 withdraws off the board (R)"]);
    assert_eq!(
        hands,
        [
            "French withdrawn slot 1: put the French piece",
            "e6: take the piece off",
            "e7: lift the piece and put the British Foot there",
        ]
    );
    // The French piece from e7 to its withdrawn slot; the winner from e6 to e7.
    t.lift(sq("e7"));
    t.put(withdrawn);
    t.settle();
    assert!(t.referee.hands_pending(), "the winner is not on e7 yet");
    t.lift(sq("e6"));
    t.put(sq("e7"));
    let out = t.settle();
    assert!(out.contains(&Decision::HandsDone), "{out:?}");

    // Fire: "Artillery can fire frontally up to a distance of 3 spaces IF the spaces in front
    // are empty"; "Artillery can destroy ALL pieces ... except for Light Infantry".
    let out = t.fire(sq("c4"), sq("c7"));
    assert_eq!(acted(&out), ["c4 fires at c7"]);
    let (title, lines, hands, _) = t.told();
    assert_eq!(title, "c4 fires at c7");
    assert_eq!(
        lines,
        ["Cuirassiers on c7 is eliminated", "French turn: 3 actions"]
    );
    assert!(hands.is_empty());

    // The French turn. The withdrawn piece "At the cost of one action, starting next turn, it
    // can be put back on the back row".
    assert_eq!(t.game().to_act(), Actor::Seat(FRENCH));
    let out = t.slide(withdrawn, sq("e10"));
    assert_eq!(acted(&out), ["entry on e10 from French withdrawn slot 1"]);
    assert_eq!(
        t.table().board()[&sq("e10")],
        "French infantry*",
        "back hidden (ruling 6)"
    );
    // A reserve: "Move a unit in reserve ... onto the board: this unit will always be placed
    // on the bottom row. This costs 1 action."
    let reserve = tray(TrayKind::Reserve, FRENCH, 0);
    let out = t.slide(reserve, sq("f10"));
    assert_eq!(acted(&out), ["entry on f10 from French reserve slot 1"]);
    // Five French pieces still wait beside the board (alike pieces: the rules may count the
    // one that came back from the withdrawn slot as the reserve's).
    let waiting = t.game().reserve(FRENCH).len() + t.game().off_board(FRENCH).count();
    assert_eq!(waiting, 5);
    let on_trays = t.table().trays().keys().filter(|p| {
        matches!(p, Place::Tray { seat, tray, .. } if *seat == FRENCH && *tray != TrayKind::PrussianStaging)
    });
    assert_eq!(on_trays.count(), 5);
    // The last action is forfeited from the menu.
    let out = t.choose_entry("end the French turn (1 action unused)");
    assert_eq!(acted(&out), ["end the French turn (1 action unused)"]);

    // A frenzy: "4. Red '+' The Red/Black piece is victorious ... However, the Red/Black piece
    // will, in wild excitement, attack the next adjacent piece. This will happen from the same
    // direction as the original attack".
    t.lift_two(sq("g4"), sq("g7"));
    let Screen::Battle { result, .. } = t.referee.screen().clone() else {
        panic!("{}", t.text());
    };
    assert_eq!(result, "equal strength: press Die to roll the battle die");
    t.do_hands();
    rolls.borrow_mut().push_back(3);
    let out = t.press(Button::Die);
    assert_eq!(acted(&out), ["die: Red +"]);
    let (title, lines, hands, _) = t.told();
    assert_eq!(title, "Die: Red +");
    assert_eq!(
        lines,
        [
            "Chasseurs on g7 is eliminated",
            "frenzy! KGL Hussars (2) vs Fr. Light Inf (1): KGL Hussars wins",
            "Fr. Light Inf on g8 is eliminated",
        ]
    );
    assert_eq!(
        hands,
        [
            "g6: take the piece off",
            "g7: take the piece off",
            "g8: lift the piece and put the KGL Hussars there",
        ]
    );
    t.do_hands();
    assert!(!t.referee.hands_pending());
    assert_eq!(
        t.game()
            .piece_at(Cell::parse("g8").unwrap())
            .map(|p| p.unit),
        Some(Unit::KglHussars)
    );
    t.choose_entry("end the Allied turn (2 actions unused)");

    // On to the Prussians: "After the 12th turn, the Allied player may take two Prussian
    // pieces without looking at them and position them ... on the Black Prussian flag".
    while !(t.game().turn() == 12 && t.game().current() == FRENCH) {
        let seat = boards::waterloo::seat_name(t.game().current());
        let label = format!("end the {seat} turn (3 actions unused)");
        t.choose_entry(&label);
    }
    // The draw is the umpire's, unseen: von Bulow, then Prussian infantry.
    rolls.borrow_mut().extend([0, 0]);
    let out = t.choose_entry("end the French turn (3 actions unused)");
    assert_eq!(
        acted(&out),
        [
            "end the French turn (3 actions unused)",
            "a Prussian is drawn",
            "a Prussian is drawn",
        ]
    );
    let (_, lines, hands, status) = t.told();
    assert_eq!(
        lines,
        [
            "a Prussian arrives on a5",
            "a Prussian arrives on a6",
            "Allied turn: 4 actions",
        ]
    );
    assert_eq!(
        hands,
        [
            "a5: put the Prussian cavalry",
            "a6: put the Prussian infantry*",
            "Prussian staging slot 1: take the piece off",
            "Prussian staging slot 2: take the piece off",
        ]
    );
    // "Allied players may therefore carry out 4 actions each turn instead of only 3."
    assert_eq!(status.actions_left, Some(4));
    assert_eq!(status.reinforcements_in, None);
    assert_eq!(status.clock.map(|c| (c.hour, c.minute)), Some((17, 0)));
    t.slide(tray(TrayKind::PrussianStaging, ALLIED, 0), sq("a5"));
    t.slide(tray(TrayKind::PrussianStaging, ALLIED, 1), sq("a6"));
    assert!(!t.referee.hands_pending(), "{}", t.text());

    // The end: "Two units on your opponent's lines of retreat mean immediate victory."
    t.slide(sq("l4"), sq("l10"));
    t.slide(sq("l10"), sq("k10"));
    let out = t.slide(sq("l3"), sq("l10"));
    assert!(
        out.contains(&Decision::GameOver {
            result: "The Allies win".into(),
            reason: "the lines of retreat were severed".into(),
        }),
        "{out:?}"
    );
    assert!(t.referee.is_over());
    assert_eq!(
        t.text(),
        "Game over / The Allies win / the lines of retreat were severed / OK: new game"
    );

    // The journal rebuilds the same game, and a restart resumes it.
    let records = t.records();
    let rebuilt = rebuild_table::<WaterlooTable>(choice, &records).unwrap();
    assert_eq!(rebuilt.history.last().map(|g| g.game()), Some(t.game()));
    let (resumed, out) = t.restarted(SeededChance::new(9), Millis(0));
    assert_eq!(out, [Decision::BoardMatches]);
    let session = session::<WaterlooTable, _>(&resumed).unwrap();
    assert_eq!(session.game().map(|g| g.game()), Some(t.game()));
    assert!(resumed.is_over());
    assert!(t.checks.screens > 200);
}

// ---- random games --------------------------------------------------------------------------

/// A small PCG for the driver's choices (the umpire's chance is its own seed).
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// Plays one random game by physical events only, checking the referee against the rules'
/// replay after every event; returns whether it ended, and the kinds of action played.
fn random_game(
    seed: u64,
    choice: WaterlooChoice,
    max_actions: u32,
) -> (bool, BTreeSet<&'static str>) {
    let mut pick = Pick(seed ^ 0x5eed);
    let mut t = Table::new(SeededChance::new(seed), choice);
    // Random valid armies, group by group, the pieces left off on reserve slots.
    let options = waterloo::options(choice);
    let setup = Setup::random(&options, |n| pick.below(n));
    for seat in [ALLIED, FRENCH] {
        let mut slot = 0u8;
        let mut staging = 0u8;
        let filled: Vec<Vec<Place>> = group_units(choice, seat)
            .into_iter()
            .map(|unit| {
                let mut places: Vec<Place> = setup.placements[seat]
                    .iter()
                    .filter(|(_, u)| *u == unit)
                    .map(|(c, _)| Place::Square(*c))
                    .collect();
                while places.len() < usize::from(unit.count()) {
                    if unit.army() == boards::waterloo::Army::Prussian {
                        places.push(tray(TrayKind::PrussianStaging, ALLIED, staging));
                        staging += 1;
                    } else {
                        places.push(tray(TrayKind::Reserve, seat, slot));
                        slot += 1;
                    }
                }
                places
            })
            .collect();
        set_up(&mut t, seat, &filled);
    }
    assert!(t.log.contains(&Decision::GameStarted));
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(
            steps < 20 * max_actions as usize,
            "the driver is stuck: {}",
            t.text()
        );
        if t.referee.hands_pending() || t.table().board().keys().ne(t.referee.sensed().iter()) {
            t.do_hands();
            continue;
        }
        if t.referee.is_over() || t.actions() >= max_actions {
            break;
        }
        let table = t.table().clone();
        match table.to_act() {
            Actor::Nobody => break,
            Actor::Chance => {
                assert!(table.die_button(), "a secret draw was left undrawn");
                let out = t.press(Button::Die);
                assert_eq!(acted(&out).len().min(1), 1, "{out:?}");
                continue;
            }
            Actor::Seat(_) => {}
        }
        let gestures = table.gestures();
        let choices = table.choices();
        let k = pick.below(gestures.len() + choices.len());
        let before = t.actions();
        if k < gestures.len() {
            let (gesture, action) = gestures[k].clone();
            perform(&mut t, &gesture);
            if let Screen::Choice { .. } = t.referee.screen() {
                // The gesture meant several actions: choose ours by its label.
                t.pick(&table.label(&action));
            }
        } else {
            let (label, _) = choices[k - gestures.len()].clone();
            t.choose_entry(&label);
        }
        assert!(
            t.actions() > before,
            "the chosen action was not played: {}",
            t.text()
        );
    }
    // The journal rebuilds to the same game.
    let records = t.records();
    let rebuilt = rebuild_table::<WaterlooTable>(choice, &records).unwrap();
    assert_eq!(rebuilt.history.last().map(|g| g.game()), Some(t.game()));
    let kinds = records
        .iter()
        .filter_map(|r| match r {
            Record::Action(bytes) => postcard::from_bytes::<WaterlooAction>(bytes).ok(),
            _ => None,
        })
        .map(|a| kind_of(&a.action))
        .collect();
    (t.referee.is_over(), kinds)
}

/// What kind of action, for the random games' coverage.
fn kind_of(action: &Action) -> &'static str {
    use boards::waterloo::ChanceAction;
    match action {
        Action::Move { .. } => "move",
        Action::Attack { .. } => "attack",
        Action::Fire { tile: false, .. } => "fire",
        Action::Fire { tile: true, .. } => "fire at a building",
        Action::Enter { .. } => "entry",
        Action::TakeOff { .. } => "take-off",
        Action::EndTurn => "end of turn",
        Action::Pursue { .. } => "pursuit",
        Action::Charge { .. } => "charge",
        Action::Save { .. } => "save",
        Action::Chance(ChanceAction::Die(_)) => "die",
        Action::Chance(ChanceAction::Retreat(_)) => "line of retreat",
        Action::Chance(ChanceAction::Prussian(_)) => "Prussian",
        Action::PlayCard(_) => "card",
        Action::Draft(_) => "draft",
        Action::Decline => "decline",
        Action::Frenzy { .. } => "frenzy in a building",
    }
}

/// The hands of `gesture`, one place at a time, the board settling after each.
fn perform<C: Chance>(t: &mut Table<C>, gesture: &Gesture) {
    if let Some(gun) = gesture.selected {
        t.lift(gun);
        t.put(gun);
        t.settle();
    }
    for (i, place) in gesture.lifted.iter().enumerate() {
        t.lift(*place);
        if i + 1 < gesture.lifted.len() || !gesture.placed.is_empty() {
            t.settle();
        }
    }
    for place in &gesture.placed {
        t.put(*place);
    }
    t.settle();
    if gesture.placed.is_empty() {
        // Lifts only: an attack, a shot or a pursuit waits for the attack hold.
        t.hold();
    }
}

#[test]
fn random_games_match_the_rules_and_keep_their_secrets() {
    let versions = [
        (Version::Basic, false, false),
        (Version::Standard, false, false),
        (Version::Expert, false, false),
        (Version::Basic, true, false),
        (Version::Standard, true, false),
        (Version::Expert, false, true),
    ];
    // The full run on the development machine; on the cross targets (run under QEMU in CI, ten
    // times slower) a sample checks the same invariants after every step, and the coverage of
    // every action kind is left to the full run.
    let full = cfg!(target_arch = "x86_64");
    let games: u64 = if full { 300 } else { 24 };
    let seeds: Vec<u64> = (0..games).collect();
    // Each game stands alone (its seed decides it), so they are spread over the cores.
    let counted = support::spread(
        &seeds,
        |&seed, (ended, kinds): &mut (usize, BTreeSet<_>)| {
            let (version, early_start, prussians_uncertain) =
                versions[seed as usize % versions.len()];
            let choice = WaterlooChoice {
                version,
                early_start,
                prussians_uncertain,
                mud: false,
                layout: Default::default(),
            };
            // Expert games play on longer, to reach the Pursuit.
            let max_actions = if version == Version::Expert { 600 } else { 120 };
            let (over, played) = random_game(seed, choice, max_actions);
            *ended += usize::from(over);
            kinds.extend(played);
        },
    );
    let ended: usize = counted.iter().map(|(n, _)| n).sum();
    let mut kinds: BTreeSet<&str> = counted.into_iter().flat_map(|(_, k)| k).collect();
    if !full {
        return;
    }
    // Random hands seldom push two pieces onto a flank, so few Expert games reach the Pursuit
    // (one in about 400): a seed known to reach it covers its actions. Should a change of the
    // rules or the table move it, find another (`random_game` over Expert seeds) and note it.
    const PURSUIT_SEED: u64 = 304;
    let choice = WaterlooChoice {
        version: Version::Expert,
        early_start: false,
        prussians_uncertain: true,
        mud: false,
        layout: Default::default(),
    };
    let (over, played) = random_game(PURSUIT_SEED, choice, 600);
    assert!(over, "the Pursuit game ended");
    assert!(
        played.contains("pursuit"),
        "seed {PURSUIT_SEED} reaches the Pursuit"
    );
    kinds.extend(played);
    assert!(ended >= 30, "only {ended} random games ended");
    let every: BTreeSet<&str> = [
        "move",
        "attack",
        "fire",
        "fire at a building",
        "entry",
        "take-off",
        "end of turn",
        "pursuit",
        "charge",
        "save",
        "die",
        "line of retreat",
        "Prussian",
        "card",
        "draft",
        "decline",
        "frenzy in a building",
    ]
    .into_iter()
    .collect();
    assert_eq!(kinds, every, "every kind of action was played at the table");
}

// ---- a card that fills in the middle of a step ----------------------------------------------

/// No checks after each step: a card that fills leaves a torn frame in the journal until the
/// next write, which the replay above would read as damage.
#[derive(Debug, Default)]
struct Unchecked;

impl Checks for Unchecked {
    type Game = WaterlooTable;

    fn after<C: Chance>(&mut self, _: &Referee<MemStore, C>, _: &[Decision]) {}
}

/// Found in review: a button step that journaled part of its work before a later write failed
/// — the French army's last OK writes the army, then the secret lines of retreat do not fit —
/// was run again on retry as a fresh OK press, which opened the in-play menu instead. The retry
/// now draws what is owed and reads the board again: the game starts, nothing is pressed twice.
#[test]
fn a_step_journaled_in_part_is_finished_not_pressed_again() {
    let choice = WaterlooChoice {
        version: Version::Basic,
        early_start: false,
        prussians_uncertain: false,
        mud: false,
        layout: Default::default(),
    };
    let variant = games::menu()
        .iter()
        .find(|(name, _)| *name == "Stratego: Waterloo")
        .and_then(|(_, variants)| variants.iter().position(|(_, k)| *k == kind(choice)))
        .expect("the variant is on the menu");
    let allied = deployment(choice, ALLIED, &[("a1", Unit::Wellington)], &[], &[]);
    let french = deployment(choice, FRENCH, &[("a10", Unit::Napoleon)], &[], &[]);
    let mut met = false;
    for extra in 0..160 {
        let quota = firmware::journal::Quota::new(usize::MAX);
        let card = quota.clone();
        let layout = games::layout(kind(choice))
            .validate()
            .expect("the Waterloo layout is valid");
        let mut t = support::Table {
            referee: Referee::new(
                firmware::referee::RefereeConfig::default(),
                SeededChance::new(9),
                move || Ok(MemStore::on_card(card.clone())),
            ),
            layout,
            t: 0,
            log: Vec::new(),
            checks: Unchecked,
        };
        t.choose_game("Stratego: Waterloo", variant);
        let mut last = Vec::new();
        for (seat, groups) in [(ALLIED, &allied), (FRENCH, &french)] {
            if seat == FRENCH {
                let journal = t.referee.journal().expect("a journal");
                quota.set(journal.len_bytes() + extra);
            }
            for places in groups.iter() {
                for place in places {
                    t.put(*place);
                }
                t.settle();
                last = t.press(Button::Ok);
            }
        }
        let failed = last.iter().any(|d| matches!(d, Decision::JournalFailed(_)));
        if !(failed && last.contains(&Decision::Deployed(FRENCH))) {
            continue;
        }
        // The army is written and the game announced, the secret draw that follows is not.
        met = true;
        let game = |t: &support::Table<SeededChance, Unchecked>| {
            session::<WaterlooTable, _>(&t.referee)
                .and_then(|s| s.game())
                .map(|g| g.game().to_act())
        };
        assert_eq!(game(&t), Some(Actor::Chance), "{last:?} {}", t.text());
        quota.set(usize::MAX);
        let out = t.press(Button::Ok);
        assert!(
            !out.iter().any(|d| matches!(d, Decision::JournalFailed(_))),
            "{out:?}"
        );
        assert!(
            !matches!(t.referee.screen(), Screen::Choice { .. }),
            "the retry pressed OK again: {}",
            t.text()
        );
        assert_eq!(game(&t), Some(Actor::Seat(ALLIED)), "{}", t.text());
        break;
    }
    assert!(met, "no card size fitted the army but not the draw");
}
