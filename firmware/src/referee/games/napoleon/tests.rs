//! The adapter through the table session, from raw sensed events: set-up by groups (the
//! player named, every refusal naming the slot and never the block), the historical set-up,
//! the journal resumed, group moves and their refusals.

use std::collections::{BTreeMap, BTreeSet};

use boards::geometry::roads::TownId;
use boards::napoleon::{Action, Army, BlockId, Players, UnitType};
use boards::{Actor, Game};

use super::*;
use crate::referee::chance::SeededChance;
use crate::referee::decision::Decision;
use crate::referee::hands::Hands;
use crate::referee::record::Record;
use crate::referee::table::session::{AnySession, Ctx};
use crate::referee::table::{rebuild_table, Session, TableView};
use crate::referee::tags::TagRegistry;
use crate::sensing::{Button, Millis, TagUid};

fn choice(players: Players, historical: bool) -> NapoleonChoice {
    NapoleonChoice {
        players,
        historical,
        set: NapoleonSet::shipped(),
        tags: false,
        reveal_on_contact: false,
        every_leader_asked: true,
    }
}

/// The session with a journal in memory and the board as the hands leave it.
struct Bench {
    session: Session<NapoleonTable>,
    sensed: BTreeSet<Place>,
    now: u64,
    records: Vec<Record>,
    chance: SeededChance,
    error: Option<String>,
    hands: Hands,
    /// The tags registered to blocks (none unless a test registers them).
    registry: TagRegistry,
}

impl Bench {
    fn new(choice: NapoleonChoice) -> Bench {
        Bench {
            session: Session::new(choice),
            sensed: BTreeSet::new(),
            now: 0,
            records: Vec::new(),
            chance: SeededChance::new(7),
            error: None,
            hands: Hands::default(),
            registry: TagRegistry::new(),
        }
    }

    /// A set-up by tags, each block of the order of battle registered to its tag
    /// ([`block_tag`]).
    fn by_tags(choice: NapoleonChoice) -> Bench {
        let mut b = Bench::new(choice);
        b.session = Session::by_tags(choice).expect("Napoleon is set up by tags");
        b.registry = block_registry(choice);
        b
    }

    /// A block put on `p` whose tag `uid` is read as it settles.
    fn put_tagged(&mut self, p: Place, uid: TagUid) -> Vec<Decision> {
        self.now += 250;
        assert!(self.sensed.insert(p), "already a block on {p}");
        self.hands.placed(p, Millis(self.now));
        self.hands.tag_read(p);
        self.session.placed(&p);
        let mut out = self.with(|s, ctx, out| s.tag(ctx, &p, uid, out));
        out.extend(self.with(|s, ctx, out| s.settled(ctx, out)));
        out
    }

    fn with(
        &mut self,
        f: impl FnOnce(&mut Session<NapoleonTable>, &mut Ctx<'_>, &mut Vec<Decision>),
    ) -> Vec<Decision> {
        let records = &mut self.records;
        let mut write = |r: &Record| {
            records.push(r.clone());
            Ok(())
        };
        let mut ctx = Ctx {
            sensed: &self.sensed,
            now: Millis(self.now),
            mismatch_after_ms: 3000,
            chance: &mut self.chance,
            write: &mut write,
            journal_error: &mut self.error,
            hands: &mut self.hands,
            attack_hold_ms: 1500,
            settle_ms: crate::sensing::SensingConfig::DEFAULT.settle_ms,
            tags: &self.registry,
            phone_pages: false,
        };
        let mut out = Vec::new();
        f(&mut self.session, &mut ctx, &mut out);
        out
    }

    fn lift(&mut self, p: Place) -> Vec<Decision> {
        self.now += 250;
        assert!(self.sensed.remove(&p), "nothing on {p}");
        self.hands.lifted(p, Millis(self.now));
        self.session.lifted(&p);
        self.with(|s, ctx, out| s.settled(ctx, out))
    }

    fn put(&mut self, p: Place) -> Vec<Decision> {
        self.now += 250;
        assert!(self.sensed.insert(p), "already a block on {p}");
        self.hands.placed(p, Millis(self.now));
        self.session.placed(&p);
        self.with(|s, ctx, out| s.settled(ctx, out))
    }

    fn press(&mut self, b: Button) -> Vec<Decision> {
        self.now += 50;
        self.with(|s, ctx, out| s.button(ctx, b, out))
    }

    fn screen(&self) -> String {
        crate::referee::screen_text(&self.session.screen(&self.sensed))
    }

    fn game(&self) -> &NapoleonTable {
        self.session.game().expect("in play")
    }

    /// Sets up both sides, each block on the first free slot of its historical town.
    fn historical(choice: NapoleonChoice) -> Bench {
        let mut b = Bench::new(choice);
        let oob = choice.campaign().order_of_battle();
        for seat in [ALLIES, FRENCH] {
            for id in choice.blocks(seat) {
                let town = oob.block(id).unwrap().start;
                let slot = *choice
                    .layout()
                    .town(town)
                    .iter()
                    .find(|p| !b.sensed.contains(p))
                    .unwrap();
                b.put(slot);
                b.press(Button::Ok);
            }
            // After the last group: OK checks the side's set-up.
            if b.session.game().is_none() {
                b.press(Button::Ok);
            }
        }
        assert!(b.session.game().is_some(), "{}", b.screen());
        b
    }
}

impl Bench {
    /// The session playing `t` from where it stands, as when a game resumes, with the board as
    /// `t` has it.
    fn playing(t: &NapoleonTable) -> Bench {
        let mut b = Bench::new(t.choice);
        b.sensed = t.occupied();
        let rebuilt = crate::referee::table::TableRebuilt {
            armies: BySeat::default(),
            history: vec![t.clone()],
            actions: Vec::new(),
            entries: Vec::new(),
        };
        b.session = Session::resume(t.choice, false, rebuilt, &b.sensed);
        b.now += 100;
        b.with(|s, ctx, out| s.settled(ctx, out));
        b
    }
}

/// Whether `text` is drawn whole on the first page of `screen` (128x64), nothing cut.
fn whole_on_page_one(screen: &Screen, text: &str) -> bool {
    let laid = crate::screens::layout(screen);
    let want = text.split_whitespace().collect::<Vec<_>>().join(" ");
    !laid
        .lines()
        .iter()
        .any(|l| l.contains(crate::screens::text::ELLIPSIS))
        && laid.pages[0].lines().iter().any(|l| {
            l.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(&want)
        })
}

/// The tag of the `i`-th block of the order of battle.
fn block_tag(i: usize) -> TagUid {
    TagUid::new(&[0x04, 0xB1, 0x0C, u8::try_from(i).unwrap()]).unwrap()
}

/// Every block of the order of battle registered to its tag ([`block_tag`]).
fn block_registry(choice: NapoleonChoice) -> TagRegistry {
    let mut registry = TagRegistry::new();
    for (i, (_, b)) in choice.campaign().order_of_battle().blocks().enumerate() {
        registry.register_block(block_tag(i), &b.name);
    }
    registry
}

fn town(choice: NapoleonChoice, code: &str) -> TownId {
    choice.campaign().map().town(code).unwrap()
}

/// What the whole truth (every army's view) says of `block` in the battle fought now: its
/// side, its place (`None` before it is set up) and its strength.
fn truth_of(
    t: &NapoleonTable,
    block: BlockId,
) -> (
    boards::napoleon::battle::Side,
    Option<boards::napoleon::battle::Place>,
    u8,
) {
    use boards::napoleon::battle::BlockView;
    t.game()
        .battle()
        .expect("a battle is fought")
        .view_of(&Army::ALL)
        .blocks
        .into_iter()
        .find_map(|v| match v {
            BlockView::Known {
                block: b,
                side,
                place,
                strength,
                ..
            } if b == block => Some((side, place, strength)),
            _ => None,
        })
        .expect("the block is in the battle")
}

/// Every block name of the order of battle.
fn block_names(choice: NapoleonChoice) -> Vec<String> {
    choice
        .campaign()
        .order_of_battle()
        .blocks()
        .map(|(_, b)| b.name.clone())
        .collect()
}

/// With three players each Allied prompt names the Anglo-Dutch or the Prussian player and the
/// block; with two, the Allies.
#[test]
fn every_set_up_prompt_names_the_player_who_acts() {
    let three = choice(Players::Three, false);
    let mut b = Bench::new(three);
    let screen = b.screen();
    assert!(screen.contains("Anglo-Dutch: place"), "{screen}");
    assert!(screen.contains("an Anglo-Dutch town"), "{screen}");
    let ad = three
        .campaign()
        .order_of_battle()
        .army(Army::AngloDutch)
        .count();
    // Each Anglo-Dutch block in Brussel, Gent and Aalst: at most 4 a town (4.1).
    let towns = ["BRU", "GHE", "AAL", "NIN"];
    for i in 0..ad {
        let slots = three.layout().town(town(three, towns[i / 4]));
        b.put(slots[i % 4]);
        b.press(Button::Ok);
    }
    let screen = b.screen();
    assert!(screen.contains("Prussian: place"), "{screen}");
    assert!(screen.contains("a Prussian town"), "{screen}");
    let two = Bench::new(choice(Players::Two, false));
    assert!(two.screen().contains("Allies: place"), "{}", two.screen());
}

/// With three players the Allied side is two players (11: "Twee spelers voeren het bevel
/// over de geallieerden: een Pruisische en een Britse."): every set-up screen names the
/// player, never "Allies". By groups, a group's problems are titled by the player placing it
/// and his phone page says who places; by tags, the prompt names the three players.
#[test]
fn three_players_set_up_screens_name_the_player_never_the_allies() {
    let three = choice(Players::Three, false);
    let mut b = Bench::new(three);
    // OK with the group not placed: its problem, titled by the player.
    b.press(Button::Ok);
    let screen = b.screen();
    assert!(screen.starts_with("Anglo-Dutch set-up (1)"), "{screen}");
    let ad = three
        .campaign()
        .order_of_battle()
        .army(Army::AngloDutch)
        .count();
    let towns = ["BRU", "GHE", "AAL", "NIN"];
    for i in 0..ad {
        let slots = three.layout().town(town(three, towns[i / 4]));
        b.put(slots[i % 4]);
        b.press(Button::Ok);
    }
    b.press(Button::Ok);
    let screen = b.screen();
    assert!(screen.starts_with("Prussian set-up (1)"), "{screen}");
    assert!(!screen.contains("Allies"), "{screen}");
    let page = TableView::seat_view(&b.session, PRUSSIAN);
    assert_eq!(
        page.setup,
        Some(format!("Prussian places group {}", ad + 1))
    );
    assert!(!TableView::umpire_eyes(&b.session).contains("Allies"));

    // By tags: the three players asked at once, and named.
    let tags = by_tags(Players::Three, true);
    let mut b = Bench::by_tags(tags);
    let screen = b.screen();
    assert!(
        screen.contains("French, Anglo-Dutch and Prussian: place every army"),
        "{screen}"
    );
    assert!(!screen.contains("Allies"), "{screen}");
    // The phone pages and the umpire's eyes say the set-up is by tags, no group.
    let page = TableView::seat_view(&b.session, PRUSSIAN);
    assert_eq!(
        page.setup.as_deref(),
        Some("every army is placed at once, each piece known by its tag")
    );
    let eyes = TableView::umpire_eyes(&b.session);
    assert!(
        eyes.starts_with("Set-up: every army") && !eyes.contains("group"),
        "{eyes}"
    );
    let out = b.press(Button::Ok);
    assert!(
        out.iter().any(|d| matches!(d, Decision::SetupProblems(_))),
        "{out:?}"
    );
    assert!(!b.screen().contains("Allies"), "{}", b.screen());
    let (b, _) = tagged_historical(tags);
    let screen = b.screen();
    assert!(screen.contains("French: move blocks"), "{screen}");
    // With two players the Allied player is one: "Allies" names him.
    let two = Bench::by_tags(by_tags(Players::Two, true));
    assert!(
        two.screen().starts_with("Allies and French"),
        "{}",
        two.screen()
    );
}

/// A block put outside its army's set-up area, or as the fifth Allied block of a town, is
/// refused at once, naming the slot and the fix, never the block.
#[test]
fn a_wrong_slot_is_refused_at_once_naming_the_slot_only() {
    let c = choice(Players::Two, false);
    let mut b = Bench::new(c);
    let names = block_names(c);
    // The first Anglo-Dutch block on a Prussian town's slot (Namen).
    let namen = c.layout().town(town(c, "NAM"))[0];
    b.put(namen);
    let screen = b.screen();
    assert!(screen.contains("Namen slot 1"), "{screen}");
    assert!(screen.contains("not an Anglo-Dutch town"), "{screen}");
    assert!(
        !names.iter().any(|n| screen.contains(n.as_str())),
        "{screen}"
    );
    b.lift(namen);
    // Four in Brussel, then a fifth.
    let bru = c.layout().town(town(c, "BRU"));
    for slot in &bru[..4] {
        b.put(*slot);
        b.press(Button::Ok);
    }
    b.put(bru[4]);
    let screen = b.screen();
    assert!(screen.contains("Brussel holds 4 blocks"), "{screen}");
    assert!(
        !names.iter().any(|n| screen.contains(n.as_str())),
        "{screen}"
    );
    // A battle board's space is no town's slot.
    b.lift(bru[4]);
    let zone = c.layout().boards()[0].reserve(boards::napoleon::battle::Side::Attacker)[0];
    b.put(zone);
    assert!(b.screen().contains("is no town's slot"), "{}", b.screen());
}

/// The historical set-up (a menu choice) puts each block in its historical town: another town
/// is refused with the town to use; set up whole, the umpire knows each block's slot, and the
/// journal rebuilds the same game and resumes in play.
#[test]
fn the_historical_set_up_is_followed_and_the_journal_resumes() {
    let c = choice(Players::Three, true);
    let mut probe = Bench::new(c);
    let oob = c.campaign().order_of_battle();
    let first = c.blocks(ALLIES)[0];
    let start = oob.block(first).unwrap().start;
    let elsewhere = c.layout().town(town(
        c,
        if start == town(c, "GHE") {
            "BRU"
        } else {
            "GHE"
        },
    ))[0];
    probe.put(elsewhere);
    let screen = probe.screen();
    assert!(
        screen.contains(&format!("put it in {}", c.town_name(start))),
        "{screen}"
    );

    let mut b = Bench::historical(c);
    let game = b.game().clone();
    let game = &game;
    for (id, block) in oob.blocks() {
        let slot = game.place_of(id).unwrap();
        assert!(
            c.layout().town(block.start).contains(&slot),
            "{}",
            block.name
        );
    }
    // The two armies are journaled; the journal rebuilds the game and resumes in play.
    let armies = b
        .records
        .iter()
        .filter(|r| matches!(r, Record::Army { .. }))
        .count();
    assert_eq!(armies, 2);
    let rebuilt = rebuild_table::<NapoleonTable>(c, &b.records).unwrap();
    assert_eq!(rebuilt.history.last(), Some(game));
    let resumed = Session::resume(c, false, rebuilt, &b.sensed);
    assert_eq!(resumed.game(), Some(game));
    // The board as it stands matches: play goes on where it was.
    b.session = resumed;
    b.now += 100;
    b.with(|s, ctx, out| {
        s.settled(ctx, out);
    });
    let screen = b.screen();
    assert!(screen.contains("French: move blocks"), "{screen}");
}

/// The players' own set-up, checked by the rules when the side is done: each block's slot is
/// journaled and the game starts with each block where it was put.
#[test]
fn an_own_set_up_starts_the_game_with_each_block_on_its_slot() {
    let c = choice(Players::Two, false);
    let mut b = Bench::new(c);
    let oob = c.campaign().order_of_battle();
    let mut next: std::collections::BTreeMap<TownId, usize> = Default::default();
    let mut put = Vec::new();
    for seat in [ALLIES, FRENCH] {
        for id in c.blocks(seat) {
            let army = oob.block(id).unwrap().army;
            // The first town of the army's area with room under its cap.
            let cap = if army.is_allied() { 4 } else { 12 };
            let (t, _) = c
                .campaign()
                .map()
                .graph()
                .towns()
                .find(|(t, info)| info.info.area == army && next.get(t).copied().unwrap_or(0) < cap)
                .unwrap();
            let k = next.entry(t).or_default();
            let slot = c.layout().town(t)[*k];
            *k += 1;
            b.put(slot);
            b.press(Button::Ok);
            put.push((id, slot));
        }
        if b.session.game().is_none() {
            b.press(Button::Ok);
        }
    }
    let game = b.game();
    for (id, slot) in put {
        assert_eq!(game.place_of(id), Some(slot));
        assert_eq!(game.game().town_of(id), game.town_of(&slot));
    }
}

/// The first legal one-town move of `block`'s kind for the French, as a slide.
fn a_french_move(t: &NapoleonTable) -> (BlockId, Place, Place) {
    t.game()
        .legal_actions()
        .into_iter()
        .find_map(|a| match a {
            Action::Move { block, path } if path.len() == 1 => {
                let from = t.place_of(block)?;
                let to = *t.free_slots(path[0]).first()?;
                Some((block, from, to))
            }
            _ => None,
        })
        .expect("a French move")
}

/// A slide from one town's slot to a free slot of the next town plays the move at once, named
/// by its slots, never by the block; the block is then known on its new slot.
#[test]
fn a_slide_plays_a_group_move_naming_slots_only() {
    let mut b = Bench::historical(choice(Players::Two, true));
    assert_eq!(b.game().to_act(), Actor::Seat(FRENCH));
    let (block, from, to) = a_french_move(b.game());
    b.lift(from);
    let out = b.put(to);
    assert!(
        out.iter().any(|d| matches!(d, Decision::Acted { .. })),
        "{out:?}"
    );
    assert_eq!(b.game().place_of(block), Some(to));
    let screen = b.screen();
    let names = block_names(b.session.choice());
    assert!(
        !names.iter().any(|n| screen.contains(n.as_str())),
        "{screen}"
    );
    // A second block of the same town, one hand after the other.
    let (second, from2, to2) = a_french_move(b.game());
    b.lift(from2);
    b.put(to2);
    assert_eq!(b.game().place_of(second), Some(to2));
}

/// A slide too far for the block is refused at once with the reason and the fix, and nothing
/// is played.
#[test]
fn a_move_too_far_is_refused_with_the_reason() {
    let mut b = Bench::historical(choice(Players::Two, true));
    let c = b.session.choice();
    let actions = b.game().game().legal_actions().len();
    // A French block from Beaumont to Brussel: many towns away.
    let (block, from, _) = a_french_move(b.game());
    let start = b.game().town_of(&from).unwrap();
    assert_eq!(b.game().game().town_of(block), Some(start));
    let far = c.layout().town(town(c, "GHE"))[5];
    b.lift(from);
    b.put(far);
    b.now += 4000;
    let out = b.with(|s, ctx, out| {
        s.tick(ctx, out);
    });
    let screen = b.screen();
    assert!(screen.contains("too far"), "{screen} {out:?}");
    assert_eq!(b.game().place_of(block), Some(from));
    assert_eq!(b.game().game().legal_actions().len(), actions);
}

/// The French slide blocks from Beaumont into Thuin, held by a Prussian block, across the
/// Sambre: the narrow road's attack limit is halved to 3 (5.5), so the fourth is refused the
/// moment it settles, with the limit, and not played.
#[test]
fn a_road_limit_is_refused_the_moment_the_block_settles() {
    let mut b = Bench::historical(choice(Players::Two, true));
    let c = b.session.choice();
    let (bea, thu) = (town(c, "BEA"), town(c, "THU"));
    let mut moved = 0;
    loop {
        let t = b.game();
        let Some((block, from)) = c.blocks(FRENCH).into_iter().find_map(|id| {
            let from = t.place_of(id)?;
            (t.town_of(&from) == Some(bea)
                && !t
                    .game()
                    .check(&Action::Move {
                        block: id,
                        path: vec![thu],
                    })
                    .is_err_and(|e| e == boards::napoleon::Illegal::AlreadyMoved))
            .then_some((id, from))
        }) else {
            panic!("no French block left in Beaumont");
        };
        let to = t.free_slots(thu)[0];
        b.lift(from);
        b.put(to);
        // Two roads there (direct, or a forced march round by Solre): the menu asks which.
        for _ in 0..8 {
            let screen = b.screen();
            if !screen.starts_with("Which?") {
                break;
            }
            let chosen = screen
                .split(" / ")
                .find(|l| l.starts_with("> "))
                .unwrap_or("");
            if chosen.contains("via") {
                b.press(Button::Die);
            } else {
                b.press(Button::Ok);
            }
        }
        if moved < 3 {
            assert_eq!(b.game().place_of(block), Some(to), "{}", b.screen());
            moved += 1;
            continue;
        }
        let screen = b.screen();
        assert!(screen.contains("across a river: 3"), "{screen}");
        assert_eq!(b.game().place_of(block), Some(from));
        break;
    }
}

/// In a night turn (the track's third box) an attack is refused with the rule (5.7).
#[test]
fn a_night_attack_is_refused() {
    let b = Bench::historical(choice(Players::Two, true));
    let c = b.session.choice();
    let mut t = b.game().clone();
    while t.game().turn() < 3 {
        t.play(&NapoleonAction::rules(Action::EndMoves));
    }
    assert_eq!(t.to_act(), Actor::Seat(FRENCH));
    let (bea, thu) = (town(c, "BEA"), town(c, "THU"));
    let from = c
        .blocks(FRENCH)
        .into_iter()
        .find_map(|id| t.place_of(id).filter(|p| t.town_of(p) == Some(bea)))
        .unwrap();
    let to = t.free_slots(thu)[0];
    let g = Gesture::slide(from, to);
    assert!(t.matching(&g).is_empty());
    let shaped = t.shaped(&g);
    assert_eq!(shaped.len(), 1);
    let why = t.check(&shaped[0]).unwrap_err();
    assert!(why.contains("no attacks at night"), "{why}");
    assert!(t.prompt().starts_with("French: move"), "{}", t.prompt());
}

/// In a night turn a forced march (Solre's block two towns on, to Valenciennes by Maubeuge,
/// allowed by day) is refused saying that the night forbids it (5.7), in the same words for
/// every block, so the refusal tells no block's type.
#[test]
fn a_night_forced_march_is_refused_with_the_night() {
    let b = Bench::historical(choice(Players::Two, true));
    let c = b.session.choice();
    let mut t = b.game().clone();
    let (sol, val) = (town(c, "SOL"), town(c, "VAL"));
    let from = c
        .blocks(FRENCH)
        .into_iter()
        .find_map(|id| t.place_of(id).filter(|p| t.town_of(p) == Some(sol)))
        .unwrap();
    let to = t.free_slots(val)[0];
    let g = Gesture::slide(from, to);
    // By day: a forced march, played.
    assert!(!t.matching(&g).is_empty());
    while t.game().turn() < 3 {
        t.play(&NapoleonAction::rules(Action::EndMoves));
    }
    assert_eq!(t.to_act(), Actor::Seat(FRENCH));
    assert!(t.matching(&g).is_empty());
    let shaped = t.shaped(&g);
    assert!(!shaped.is_empty());
    for action in &shaped {
        let why = t.check(action).unwrap_err();
        assert_eq!(
            why,
            "too far for this block: no forced marches at night: stop nearer, or put it back"
        );
    }
}

/// "Dit voorkomt dat de spelers de type en sterkte van de vijandelijke eenheden zien" (3.2:
/// the players do not see the type and strength of enemy units), while how far a block may go
/// depends on its type (5.3): a slide from a town to another asks "Which?" among the same
/// routes, or plays the same one, for every block of the army standing there that can make
/// it, infantry, artillery, cavalry or leader alike. The old menu listed every legal route,
/// and a fast block's longer ones told the table what it was.
#[test]
fn the_routes_a_slide_offers_tell_nothing_of_the_block() {
    let b = Bench::historical(choice(Players::Two, true));
    let t = b.game();
    let mut compared = 0;
    let mut asked = 0;
    /// The routes offered to the first block seen, and its kind.
    type Offered = (Vec<Vec<TownId>>, UnitType);
    // (origin town, destination) -> what was offered first.
    let mut offered: BTreeMap<(TownId, TownId), Offered> = BTreeMap::new();
    let oob = b.session.choice().campaign().order_of_battle();
    for action in t.game().legal_actions() {
        let Action::Move { block, path } = &action else {
            continue;
        };
        let (Some(&to), Some(from)) = (path.last(), t.place_of(*block)) else {
            continue;
        };
        let origin = t.town_of(&from).expect("a block on the map");
        let Some(&slot) = t.free_slots(to).first() else {
            continue;
        };
        let mut routes: Vec<Vec<TownId>> = t
            .matching(&Gesture::slide(from, slot))
            .into_iter()
            .filter_map(|(_, a)| match a.action {
                Action::Move { path, .. } => Some(path),
                _ => None,
            })
            .collect();
        routes.sort();
        routes.dedup();
        assert!(
            !routes.is_empty(),
            "{action:?}: a legal move the slide does not make"
        );
        let kind = oob.block(*block).expect("a block").kind;
        match offered.get(&(origin, to)) {
            Some((first, first_kind)) => {
                assert_eq!(
                    &routes, first,
                    "{kind:?} and {first_kind:?} from one town are offered other routes"
                );
                compared += usize::from(kind.is_fast() != first_kind.is_fast());
            }
            None => {
                asked += usize::from(routes.len() > 1);
                offered.insert((origin, to), (routes, kind));
            }
        }
    }
    // Not vacuous: slow and fast blocks from one town to one town, some slides asking.
    assert!(compared > 10, "{compared} comparisons");
    assert!(asked > 0, "no slide asks");
}

/// A forced march (one town beyond the block's distance, 5.6) is rolled after the moves on the
/// Die button; a low die is told as what the hand must do on the block's slot, never naming it.
#[test]
fn a_forced_march_die_says_what_the_hand_must_do() {
    let b = Bench::historical(choice(Players::Two, true));
    let mut t = b.game().clone();
    let names = block_names(b.session.choice());
    let (action, slot) = t
        .game()
        .legal_actions()
        .into_iter()
        .find_map(|a| match &a {
            Action::Move { block, path } if path.len() == 2 => {
                let kind = b
                    .session
                    .choice()
                    .campaign()
                    .order_of_battle()
                    .block(*block)?
                    .kind;
                let slot = *t.free_slots(*path.last()?).first()?;
                (!kind.is_fast()).then_some((a.clone(), slot))
            }
            _ => None,
        })
        .expect("an infantry forced march");
    let marched = NapoleonAction {
        action,
        slot: Some(slot),
    };
    t.check(&marched).unwrap();
    t.play(&marched);
    t.play(&NapoleonAction::rules(Action::EndMoves));
    // Asked wherever Napoleon stands (8.1, 3.2); he stays hidden.
    assert_eq!(t.prompt(), "French: OK, show the leader or not");
    let ended = t.play(&NapoleonAction::rules(Action::ShowLeader(false)));
    assert_eq!(t.to_act(), Actor::Chance);
    assert!(t.die_button());
    // The end of the moves says at once that the die is the Die button's, and tells no more
    // than that happened (the prompt is not in the record).
    let text = crate::referee::screen_text(&ended);
    assert!(text.contains("press Die for the forced march"), "{text}");
    assert!(
        !t.told().iter().any(|l| l.contains("press Die")),
        "{:?}",
        t.told()
    );
    let low = t
        .chance()
        .into_iter()
        .map(|(a, _)| a)
        .find(|a| matches!(a.action, Action::Die(f) if f.pips() == 1))
        .unwrap();
    let screen = t.play(&low);
    let told = t.told();
    let expected = format!(
        "{}: turn the block one step down",
        b.session.choice().place_name(&slot)
    );
    assert!(told.contains(&expected), "{told:?}");
    let text = crate::referee::screen_text(&screen);
    assert!(!names.iter().any(|n| text.contains(n.as_str())), "{text}");
}

/// A forced march that costs a block its last step (a leader, strength 1, marching three
/// towns, 5.6) is told as the hand's move from the slot it was put on to its army's tray,
/// never as a step down on the tray slot, and never naming the block.
#[test]
fn a_forced_march_that_eliminates_says_where_the_block_goes() {
    let b = Bench::historical(choice(Players::Two, true));
    let mut t = b.game().clone();
    let c = b.session.choice();
    let names = block_names(c);
    let (action, slot) = t
        .game()
        .legal_actions()
        .into_iter()
        .find_map(|a| match &a {
            Action::Move { block, path } if path.len() == 3 => {
                let kind = c.campaign().order_of_battle().block(*block)?.kind;
                let slot = *t.free_slots(*path.last()?).first()?;
                (kind == boards::napoleon::UnitType::Leader && t.game().strength_of(*block) == 1)
                    .then_some((a.clone(), slot))
            }
            _ => None,
        })
        .expect("a leader's forced march");
    let Action::Move { block, .. } = action else {
        unreachable!()
    };
    let marched = NapoleonAction {
        action,
        slot: Some(slot),
    };
    t.check(&marched).unwrap();
    t.play(&marched);
    // The leader's bonus, if offered, declined: a 1 loses the step either way.
    t.play(&NapoleonAction::rules(Action::EndMoves));
    while let Actor::Seat(_) = t.to_act() {
        t.play(&NapoleonAction::rules(Action::ShowLeader(false)));
    }
    assert_eq!(t.to_act(), Actor::Chance);
    let one = t
        .chance()
        .into_iter()
        .map(|(a, _)| a)
        .find(|a| matches!(a.action, Action::Die(f) if f.pips() == 1))
        .unwrap();
    t.play(&one);
    assert_eq!(t.game().strength_of(block), 0);
    let tray = t
        .place_of(block)
        .expect("the leader goes to his army's tray");
    let army = c.campaign().order_of_battle().block(block).unwrap().army;
    assert!(c.layout().eliminated(army).contains(&tray), "{tray}");
    let told = t.told();
    let expected = format!(
        "{}: the block's last step is lost: put it on {}",
        c.place_name(&slot),
        c.place_name(&tray)
    );
    assert!(told.contains(&expected), "{told:?}");
    assert!(!told.iter().any(|l| l.contains("step down")), "{told:?}");
    let text = told.join(" ");
    assert!(!names.iter().any(|n| text.contains(n.as_str())), "{text}");
}

/// One act, one instruction: a block eliminated (here a leader of strength 1 losing his last
/// step to stragglers on a forced march, 5.6: "1-3: de eenheid voert de geforceerde mars uit
/// maar verliest 1 sterkte door achterblijvers. Eliminatie van deze eenheid is mogelijk.") is
/// told once while the hands move it: its slot and its tray are each named once on the
/// screen, by the told line that is the hand step, and the session's own steps ("take the
/// piece off", "put the eliminated French block") do not say it again. The LEDs light both.
#[test]
fn an_elimination_is_told_once_while_the_hands_make_it() {
    let mut b = Bench::historical(choice(Players::Two, true));
    let c = b.session.choice();
    let t = b.game().clone();
    let legal = t.game().legal_actions();
    // Three roads to a town no shorter route reaches (a slide takes the shortest).
    let shorter = |block: BlockId, to: Option<&TownId>| {
        legal.iter().any(|a| {
            matches!(a, Action::Move { block: b, path } if *b == block && path.len() < 3 && path.last() == to)
        })
    };
    let action = legal
        .iter()
        .find(|a| match a {
            Action::Move { block, path } if path.len() == 3 => {
                c.campaign()
                    .order_of_battle()
                    .block(*block)
                    .map(|bl| bl.kind)
                    == Some(boards::napoleon::UnitType::Leader)
                    && t.game().strength_of(*block) == 1
                    && !shorter(*block, path.last())
            }
            _ => false,
        })
        .cloned()
        .expect("a leader's forced march");
    let Action::Move { block, .. } = action else {
        unreachable!()
    };
    assert!(b.make(&action), "the march is a slide");
    let slot = b.game().place_of(block).unwrap();
    b.make(&Action::EndMoves);
    while let Actor::Seat(_) = b.game().to_act() {
        b.make(&Action::ShowLeader(false));
    }
    // A seed whose die is a 1: the leader's last step is lost.
    let outcomes = b.game().chance();
    let seed = (0..)
        .find(|&n| {
            crate::referee::chance::pick_weighted(&mut SeededChance::new(n), &outcomes)
                .ok()
                .flatten()
                .is_some_and(|a| matches!(a.action, Action::Die(f) if f.pips() == 1))
        })
        .unwrap();
    b.chance = SeededChance::new(seed);
    b.tick(3000);
    b.press(Button::Die);
    assert_eq!(b.game().game().strength_of(block), 0, "{}", b.screen());
    let tray = b.game().place_of(block).unwrap();
    let (slot_name, tray_name) = (c.place_name(&slot), c.place_name(&tray));
    let screen = b.screen();
    assert!(
        screen.contains(&format!(
            "{slot_name}: the block's last step is lost: put it on {tray_name}"
        )),
        "{screen}"
    );
    assert_eq!(screen.matches(tray_name.as_str()).count(), 1, "{screen}");
    assert_eq!(screen.matches(slot_name.as_str()).count(), 1, "{screen}");
    assert!(!screen.contains("take the piece off"), "{screen}");
    assert!(!screen.contains("put the eliminated"), "{screen}");
    let shown = b.session.screen(&b.sensed);
    let Screen::Told { places, .. } = &shown else {
        panic!("{shown:?}")
    };
    assert!(
        places.hands.contains(&slot) && places.hands.contains(&tray),
        "{places:?}"
    );
    // Half made (the block in hand), the one step stands; made, the hands are done.
    b.lift(slot);
    let screen = b.screen();
    assert_eq!(screen.matches(tray_name.as_str()).count(), 1, "{screen}");
    let out = b.put(tray);
    assert!(
        out.iter().any(|d| matches!(d, Decision::HandsDone)),
        "{out:?}"
    );
    assert_eq!(b.screen().matches(tray_name.as_str()).count(), 1);
}

/// How far a block may go tells its type (5.3): a move too far is refused in the same words
/// for a fast block (cavalry, two towns) and a slow one (infantry, one town).
#[test]
fn a_move_too_far_is_refused_in_words_that_tell_no_type() {
    let b = Bench::historical(choice(Players::Two, true));
    let t = b.game();
    let c = b.session.choice();
    let ghe = town(c, "GHE");
    let slot = t.free_slots(ghe)[0];
    let refusal = |fast: bool| {
        c.blocks(FRENCH)
            .into_iter()
            .find_map(|id| {
                let kind = c.campaign().order_of_battle().block(id)?.kind;
                if kind.is_fast() != fast || kind == boards::napoleon::UnitType::Leader {
                    return None;
                }
                let from = t.game().town_of(id)?;
                let path = t.shortest(from, ghe)?;
                t.check(&NapoleonAction {
                    action: Action::Move { block: id, path },
                    slot: Some(slot),
                })
                .err()
            })
            .expect("a French block too far from Gent")
    };
    let (fast, slow) = (refusal(true), refusal(false));
    assert_eq!(fast, slow);
    assert!(fast.contains("too far"), "{fast}");
    assert!(!fast.chars().any(|ch| ch.is_ascii_digit()), "{fast}");
}

/// A small seeded generator for the battle's choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// The block names a screen's words hold (whole words: "I-INF1" is not in "PI-INF1").
fn names_in(text: &str, names: &[String]) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| names.iter().any(|n| n == w))
        .map(str::to_string)
        .collect()
}

impl Bench {
    /// The hands do what the table asks: each block the board lacks put down, each one too
    /// many taken off.
    fn obey(&mut self) {
        let expected = self.game().occupied();
        let extra: Vec<Place> = self.sensed.difference(&expected).copied().collect();
        let missing: Vec<Place> = expected.difference(&self.sensed).copied().collect();
        for p in extra {
            self.lift(p);
        }
        for p in missing {
            self.put(p);
        }
    }

    fn tick(&mut self, ms: u64) {
        self.now += ms;
        self.with(|s, ctx, out| {
            s.tick(ctx, out);
        });
    }

    /// Plays `action` by its gesture when it has one, else from the OK menu; whether by
    /// gesture.
    fn make(&mut self, action: &Action) -> bool {
        self.tick(3000);
        let gesture = self
            .game()
            .gestures()
            .into_iter()
            .find(|(_, a)| a.action == *action);
        if let Some((g, made)) = gesture {
            let label = self.game().label(&made);
            if let Some(sel) = g.selected {
                self.lift(sel);
                self.put(sel);
            }
            for p in &g.lifted {
                self.lift(*p);
            }
            for p in &g.placed {
                self.put(*p);
            }
            self.tick(2000);
            // The same hands for several actions (two roads): the menu asks which.
            if let Some((entries, _)) = TableView::menu(&self.session) {
                let i = entries.iter().position(|e| *e == label).unwrap();
                while TableView::menu(&self.session).is_some_and(|(_, at)| at != i) {
                    self.press(Button::Die);
                }
                self.press(Button::Ok);
            }
            return true;
        }
        self.press(Button::Ok);
        let wanted = NapoleonAction::rules(action.clone());
        let entries = self.game().choices();
        let i = entries
            .iter()
            .position(|(_, a)| *a == wanted)
            .unwrap_or_else(|| panic!("{action:?} is not in the menu: {}", self.screen()));
        // A secret pick's highlight starts anywhere.
        while TableView::menu(&self.session).is_some_and(|(_, at)| at != i) {
            self.press(Button::Die);
        }
        self.press(Button::Ok);
        false
    }

    /// Every block name on the screen is a block the public view of a battle shows, and so is
    /// every block whose type or strength the screen tells.
    fn audit(&self, names: &[String]) {
        let game = self.game().game();
        let shown: Vec<String> = game
            .battle()
            .into_iter()
            .chain(game.held_battles())
            .flat_map(|b| b.view(None).blocks)
            .filter_map(|b| match b {
                boards::napoleon::battle::BlockView::Known { block, .. } => Some(
                    self.session
                        .choice()
                        .campaign()
                        .order_of_battle()
                        .block(block)
                        .unwrap()
                        .name
                        .clone(),
                ),
                boards::napoleon::battle::BlockView::Hidden { .. } => None,
            })
            .collect();
        let screen = self.screen();
        for name in names_in(&screen, names) {
            assert!(shown.contains(&name), "{name} is not revealed: {screen}");
        }
        // A block's type or strength only beside the name of a block the battle reveals
        // (the campaign's leader showing himself is the rules' own announcement). An item
        // carried over to the next page (its rest indented, "  strength 3") is read whole.
        let mut item = String::new();
        for entry in screen.split(" / ") {
            let line = if entry.starts_with("  ") && !item.is_empty() {
                item.push_str(entry);
                item.clone()
            } else {
                // A bullet begins an item; the page's status line and mark end it.
                item = if entry.starts_with("- ") {
                    entry.to_string()
                } else {
                    String::new()
                };
                entry.to_string()
            };
            let line = line.as_str();
            let lower = line.to_lowercase();
            let typed = ["infantry", "cavalry", "artillery", "leader"]
                .iter()
                .any(|k| lower.contains(k))
                && !lower.contains("leader shows himself")
                && !lower.contains("leader stays hidden");
            let strength = lower.contains("strength ")
                || lower.contains(", to ")
                || lower
                    .as_bytes()
                    .windows(3)
                    .any(|w| w[0] == b'(' && w[1].is_ascii_digit() && w[2] == b')');
            if typed || strength {
                assert!(
                    names_in(line, names).iter().any(|n| shown.contains(n)),
                    "a hidden block's type or strength: {line}"
                );
            }
        }
    }
}

/// The Allied town one road from a French block that holds the most Allied blocks (the
/// lowest-numbered among equals): where a French attack finds the most defenders.
fn richest_allied_neighbour(b: &Bench) -> TownId {
    let game = b.game().game();
    let allied_in = |t: TownId| {
        game.blocks_in(t)
            .filter(|id| b.game().army_of(*id).is_some_and(Army::is_allied))
            .count()
    };
    game.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { path, .. } if path.len() == 1 && allied_in(path[0]) > 0 => Some(path[0]),
            _ => None,
        })
        .max_by_key(|t| (allied_in(*t), std::cmp::Reverse(*t)))
        .expect("a French attack")
}

/// The French attack from the historical set-up: their blocks slid one by one into the Allied
/// town next to them that holds the most Allied blocks, then the moves ended from the menu.
fn a_french_attack() -> (Bench, TownId) {
    let mut b = Bench::historical(choice(Players::Two, true));
    let target = richest_allied_neighbour(&b);
    for _ in 0..6 {
        let Some(action) = b
            .game()
            .game()
            .legal_actions()
            .into_iter()
            .find(|a| matches!(a, Action::Move { path, .. } if path.as_slice() == [target]))
        else {
            break;
        };
        assert!(b.make(&action));
    }
    b.make(&Action::EndMoves);
    (b, target)
}

/// A battle played through the session from its start to its end: the blocks go from the
/// town's slots to the battle board's reserves, the terrain is drawn in secret and placed, the
/// blocks deploy, move and fire by gestures (the rest from the OK menu), every die is rolled
/// with the Die button, and the blocks go back to the map. No screen names a block the public
/// view of the battle hides; halfway, the journal rebuilds the game and play resumes from it.
#[test]
fn a_battle_is_played_at_the_table_from_its_start_to_its_end() {
    let (mut b, town) = a_french_attack();
    let c = b.session.choice();
    let names = block_names(c);
    let screen = b.screen();
    assert!(b.game().game().battle().is_some(), "{screen}");
    assert!(screen.contains("on board 1"), "{screen}");
    assert!(screen.contains("board 1 attacker reserve"), "{screen}");
    assert!(!names_in(&screen, &names).iter().any(|_| true), "{screen}");
    let mut rng = Rng(0x5eed_cafe);
    let (mut gestures, mut menus, mut dice, mut resumed) = (0, 0, 0, false);
    let mut told_hits = false;
    let mut last = String::new();
    for step in 0..4000 {
        b.obey();
        b.audit(&names);
        let screen = b.screen();
        told_hits |= screen.contains("the strongest block takes each");
        let Some(battle) = b.game().game().battle().cloned() else {
            break;
        };
        if !resumed && battle.turn() >= 2 && step > 30 {
            // The journal rebuilds the game mid-battle, and play resumes from it.
            let rebuilt = rebuild_table::<NapoleonTable>(c, &b.records).unwrap();
            assert_eq!(rebuilt.history.last(), Some(b.game()));
            let session = Session::resume(c, false, rebuilt, &b.sensed);
            assert_eq!(session.game(), Some(b.game()));
            b.session = session;
            // The board as it stands matches: play goes on where it was.
            b.now += 100;
            b.with(|s, ctx, out| s.settled(ctx, out));
            resumed = true;
        }
        let before = b.session.actions();
        if b.game().to_act() == Actor::Chance {
            assert!(b.game().die_button(), "{screen}");
            b.tick(3000);
            b.press(Button::Die);
            dice += 1;
        } else {
            let legal = battle.legal_actions();
            let fires: Vec<_> = legal
                .iter()
                .filter(|a| matches!(a, boards::napoleon::battle::BattleAction::Fire { .. }))
                .collect();
            let others: Vec<_> = legal
                .iter()
                .filter(|a| **a != boards::napoleon::battle::BattleAction::Done)
                .collect();
            let pick = if !fires.is_empty() && rng.below(4) > 0 {
                *fires[rng.below(fires.len())]
            } else if !others.is_empty() && (rng.below(3) > 0 || legal.len() == others.len()) {
                *others[rng.below(others.len())]
            } else {
                boards::napoleon::battle::BattleAction::Done
            };
            last = format!("{pick:?} {:?}", battle.step());
            if b.make(&Action::Battle(pick)) {
                gestures += 1;
            } else {
                menus += 1;
            }
        }
        assert!(
            b.session.actions() > before,
            "step {step}: {last} not played: {}",
            b.screen()
        );
    }
    b.obey();
    b.audit(&names);
    let t = b.game();
    assert!(t.game().battle().is_none(), "the battle is not over");
    assert!(resumed && gestures > 0 && menus > 0 && dice > 0);
    assert!(told_hits, "no volley told where its hits go");
    // Every block back on the map or on its tray: the battle board is empty again.
    let layout = c.layout();
    for p in t.occupied() {
        assert!(
            matches!(
                layout.spot(&p),
                Some(Spot::Town { .. } | Spot::Eliminated { .. })
            ),
            "{} still holds a block",
            c.place_name(&p)
        );
    }
    // The town is left to one camp, each of its blocks on one of its slots.
    let camps: BTreeSet<bool> = t
        .game()
        .blocks_in(town)
        .map(|id| t.army_of(id).unwrap().is_allied())
        .collect();
    assert!(camps.len() <= 1, "both camps still in the battle's town");
    for id in t.game().blocks_in(town) {
        assert_eq!(t.place_of(id).and_then(|p| t.town_of(&p)), Some(town));
    }
}

/// At deployment a block put on the enemy's half is refused at once with the rule and the fix,
/// naming slots only, and nothing is played; the OK menu names every deployment by slots, and
/// lists the same places for every block of the reserve (the list tells no block's corps).
#[test]
fn a_deployment_on_the_enemy_half_is_refused_naming_slots_only() {
    let (mut b, _) = a_french_attack();
    let names = block_names(b.session.choice());
    // Through the terrain, by the menu, to the first deployment.
    for _ in 0..10 {
        b.obey();
        let t = b.game();
        let battle = t.game().battle().unwrap();
        if battle.step() == boards::napoleon::battle::Step::Deployment {
            break;
        }
        let legal = battle.legal_actions();
        b.make(&Action::Battle(legal[0]));
    }
    b.obey();
    let t = b.game().clone();
    let battle = t.game().battle().unwrap();
    assert_eq!(battle.step(), boards::napoleon::battle::Step::Deployment);
    let (side, army) = match battle.actor() {
        boards::napoleon::battle::BattleActor::Army(a) => (battle.side_of(a).unwrap(), a),
        other => panic!("{other:?}"),
    };
    let board = &b.session.choice().layout().boards()[0];
    let from = *board
        .reserve(side)
        .iter()
        .find(|p| b.sensed.contains(p))
        .unwrap();
    let enemy = board.zone(boards::napoleon::battle::Zone::new(
        side.other(),
        boards::napoleon::battle::Wing::Centre,
    ))[0];
    let actions = b.session.actions();
    b.tick(3000);
    b.lift(from);
    b.put(enemy);
    b.tick(4000);
    let screen = b.screen();
    assert!(screen.contains("it cannot go there"), "{screen}");
    // Deployment is no step forward or back.
    assert!(screen.contains("deploy on your own wings"), "{screen}");
    assert!(!screen.contains("sideways"), "{screen}");
    assert!(screen.contains("board 1"), "{screen}");
    assert!(names_in(&screen, &names).is_empty(), "{screen}");
    assert_eq!(b.session.actions(), actions);
    // Put right, the menu names each deployment by its slots, the same places for each
    // block of the reserve.
    b.lift(enemy);
    b.put(from);
    b.tick(4000);
    let menu = b.game().choices();
    let deployments: Vec<&String> = menu
        .iter()
        .map(|(l, _)| l)
        .filter(|l| l.contains("reserve ") && l.contains(" to "))
        .collect();
    assert!(!deployments.is_empty());
    let places = |slot: &str| {
        let mut v: Vec<String> = deployments
            .iter()
            .filter(|l| l.starts_with(&format!("{slot} to")))
            .map(|l| l.split(" to ").nth(1).unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    let slots: BTreeSet<String> = deployments
        .iter()
        .map(|l| l.split(" to ").next().unwrap().to_string())
        .collect();
    let first = places(slots.iter().next().unwrap());
    for s in &slots {
        assert_eq!(places(s), first, "{s}");
    }
    for (label, _) in &menu {
        assert!(names_in(label, &names).is_empty(), "{label}");
    }
    let _ = army;
}

/// Each seat's slots in group order, every block on the first free slot of its historical
/// town.
fn historical_slots(c: NapoleonChoice) -> BySeat<NapoleonArmy> {
    let oob = c.campaign().order_of_battle();
    let mut used = BTreeSet::new();
    let mut slots = |seat: Seat| NapoleonArmy {
        slots: c
            .blocks(seat)
            .into_iter()
            .map(|id| {
                let start = oob.block(id).unwrap().start;
                let p = *c
                    .layout()
                    .town(start)
                    .iter()
                    .find(|p| !used.contains(*p))
                    .unwrap();
                used.insert(p);
                p
            })
            .collect(),
    };
    let allies = slots(ALLIES);
    let french = slots(FRENCH);
    BySeat::from_fn(|s| {
        if s == FRENCH {
            french.clone()
        } else {
            allies.clone()
        }
    })
}

/// What the table shows after an action: the told screen, the prompt and the menu.
fn public(t: &NapoleonTable, screen: &Screen) -> String {
    let menu: Vec<String> = t.choices().into_iter().map(|(l, _)| l).collect();
    format!(
        "{} | {} | {}",
        crate::referee::screen_text(screen),
        t.prompt(),
        menu.join(" / ")
    )
}

/// The French slide up to `n` blocks one town into `target`, end their moves, and the
/// campaign goes on (the first menu entry each time) until a battle is fought; what each
/// action showed.
fn attack(t: &mut NapoleonTable, target: TownId, n: usize) -> Vec<String> {
    let mut shown = Vec::new();
    for _ in 0..n {
        let Some(action) = t
            .game()
            .legal_actions()
            .into_iter()
            .find(|a| matches!(a, Action::Move { path, .. } if path.as_slice() == [target]))
        else {
            break;
        };
        let moved = NapoleonAction {
            action,
            slot: Some(t.free_slots(target)[0]),
        };
        t.check(&moved).unwrap();
        let screen = t.play(&moved);
        shown.push(public(t, &screen));
    }
    let screen = t.play(&NapoleonAction::rules(Action::EndMoves));
    shown.push(public(t, &screen));
    for _ in 0..20 {
        if t.game().battle().is_some() {
            break;
        }
        let next = match t.to_act() {
            Actor::Chance => t.chance()[0].0.clone(),
            _ => t.choices()[0].1.clone(),
        };
        let screen = t.play(&next);
        shown.push(public(t, &screen));
    }
    assert!(t.game().battle().is_some(), "no battle at {target:?}");
    shown
}

/// The Allied town next to the French with the most Allied blocks (the French attack it).
fn attacked_town(t: &NapoleonTable) -> TownId {
    let game = t.game();
    let allied_in = |town: TownId| {
        game.blocks_in(town)
            .filter(|id| t.army_of(*id).is_some_and(Army::is_allied))
            .count()
    };
    game.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { path, .. } if path.len() == 1 && allied_in(path[0]) > 0 => Some(path[0]),
            _ => None,
        })
        .max_by_key(|town| (allied_in(*town), std::cmp::Reverse(*town)))
        .expect("a French attack")
}

/// Two games that differ only in which of two hidden Allied blocks of the same army (of
/// different types) stands on which slot of the town attacked show the table the same
/// screens, prompts and menus, entry for entry and in the same order, through the battle's
/// start, its terrain and its deployment (until the two blocks' types decide what each game
/// may do): every order the table sees is decided by
/// slots, and a hidden block is offered every place its own would be, whatever its type or
/// corps; where both refuse an entry, they refuse it in the same words.
#[test]
fn twin_games_that_differ_in_hidden_blocks_show_the_same_screens() {
    let c = choice(Players::Two, true);
    let slots = historical_slots(c);
    let one = NapoleonTable::start(c, &slots).unwrap();
    let target = attacked_town(&one);
    // Two Allied blocks of one army in the town attacked, of different types.
    let oob = c.campaign().order_of_battle();
    let allied: Vec<BlockId> = c
        .blocks(ALLIES)
        .into_iter()
        .filter(|id| one.game().town_of(*id) == Some(target))
        .collect();
    let (x, y) = allied
        .iter()
        .flat_map(|&x| allied.iter().map(move |&y| (x, y)))
        .find(|&(x, y)| {
            let (bx, by) = (oob.block(x).unwrap(), oob.block(y).unwrap());
            x < y && bx.army == by.army && bx.kind != by.kind
        })
        .expect("two Allied blocks of one army and two types");
    let mut swapped = slots.clone();
    let group = c.blocks(ALLIES);
    let (i, j) = (
        group.iter().position(|b| *b == x).unwrap(),
        group.iter().position(|b| *b == y).unwrap(),
    );
    swapped[ALLIES].slots.swap(i, j);
    let mut a = one;
    let mut b = NapoleonTable::start(c, &swapped).unwrap();
    assert_eq!(attack(&mut a, target, 6), attack(&mut b, target, 6));
    assert_eq!(a.board(), b.board());
    // Terrain and deployment, from the menus by their words, the same entry in both.
    let mut deployed = 0;
    for _ in 0..80 {
        let battle = a.game().battle().unwrap();
        let step = battle.step();
        if !matches!(
            step,
            boards::napoleon::battle::Step::Terrain | boards::napoleon::battle::Step::Deployment
        ) {
            break;
        }
        let (ma, mb) = (a.choices(), b.choices());
        let labels = |m: &[(String, NapoleonAction)]| -> Vec<String> {
            m.iter().map(|(l, _)| l.clone()).collect()
        };
        assert_eq!(labels(&ma), labels(&mb));
        let (next_a, next_b) = if a.to_act() == Actor::Chance {
            (a.chance()[0].0.clone(), b.chance()[0].0.clone())
        } else {
            let mut pick = None;
            for (k, ((_, na), (_, nb))) in ma.iter().zip(&mb).enumerate() {
                match (a.check(na), b.check(nb)) {
                    (Ok(()), Ok(())) => {
                        // Deploy first, the end of the step last.
                        let done = matches!(
                            na.action,
                            Action::Battle(boards::napoleon::battle::BattleAction::Done)
                        );
                        if pick.is_none() || !done {
                            pick = Some(k);
                        }
                        if !done {
                            break;
                        }
                    }
                    (Err(ea), Err(eb)) => assert_eq!(ea, eb),
                    _ => {}
                }
            }
            // None: the two blocks' types now decide what each game may do, as they would
            // at any table; what was shown so far was the same.
            let Some(k) = pick else {
                break;
            };
            (ma[k].1.clone(), mb[k].1.clone())
        };
        if matches!(
            next_a.action,
            Action::Battle(boards::napoleon::battle::BattleAction::Deploy { .. })
        ) {
            deployed += 1;
        }
        let (sa, sb) = (a.play(&next_a), b.play(&next_b));
        assert_eq!(public(&a, &sa), public(&b, &sb));
        assert_eq!(a.board(), b.board());
    }
    assert!(deployed > 0, "no block deployed");
    // From here the blocks' types decide the set-up (artillery never in woods, 6.2.1), so
    // the twins part; one of them goes on, by the end of each step, to the defender's first
    // fight. There every hidden block is offered every fire, square, shelter, farm or hill
    // its place allows whatever its type, as its twin of another type would be: the old menu
    // offered a square only where an infantry block stood and a fire across the field only
    // from artillery, which told the table what a hidden block was not.
    use boards::napoleon::battle::{BattleAction, BattleActor, BlockView, Place as Field, Step};
    let defender = oob.block(x).unwrap().army;
    let mut checked = 0;
    for _ in 0..200 {
        let Some(battle) = a.game().battle().cloned() else {
            // Held between battle turns (6.3): the campaign goes on to the defender's turn.
            let next = match a.to_act() {
                Actor::Chance => a.chance()[0].0.clone(),
                _ => match a.choices().first() {
                    Some((_, next)) => next.clone(),
                    None => break,
                },
            };
            a.play(&next);
            continue;
        };
        let next = if a.to_act() == Actor::Chance {
            a.chance()[0].0.clone()
        } else {
            let menu = a.choices();
            let labels: Vec<&String> = menu.iter().map(|(l, _)| l).collect();
            if battle.step() == Step::Fight && battle.actor() == BattleActor::Army(defender) {
                let public = battle.view(None);
                let truth = battle.view_of(&Army::ALL);
                let woods = |zone: boards::napoleon::battle::Zone| {
                    public
                        .terrain
                        .iter()
                        .any(|&(z, kind)| z == zone && kind == boards::napoleon::TerrainKind::Woods)
                };
                let in_zone = |zone, of: boards::napoleon::battle::Side| {
                    truth.blocks.iter().any(|v| {
                        matches!(*v, BlockView::Known { side, place: Some(Field::Zone(z)), .. }
                            if side == of && z == zone)
                    })
                };
                for b in &truth.blocks {
                    let BlockView::Known {
                        block,
                        army,
                        side,
                        place: Some(Field::Zone(zone)),
                        ..
                    } = *b
                    else {
                        continue;
                    };
                    let seen = public
                        .blocks
                        .iter()
                        .any(|v| matches!(v, BlockView::Known { block: k, .. } if *k == block));
                    if army != defender || seen {
                        continue;
                    }
                    let slot = a.slot_words(block);
                    if zone.half == side && !woods(zone) {
                        let square = format!("{slot} forms a square");
                        assert!(labels.contains(&&square), "no `{square}` in {labels:?}");
                        checked += 1;
                    }
                    // Across an open facing zone where only the enemy stands: a fire (the
                    // artillery's, 6.4), offered whatever the block is.
                    let far = zone.facing();
                    if !in_zone(zone, side.other())
                        && !woods(far)
                        && in_zone(far, side.other())
                        && !in_zone(far, side)
                    {
                        let fires = format!("{slot} fires at ");
                        assert!(
                            labels.iter().any(|l| l.starts_with(&fires)),
                            "no `{fires}...` in {labels:?}"
                        );
                        checked += 1;
                    }
                }
                break;
            }
            // The end of the step when the rules allow it, else the first entry they accept.
            let ok: Vec<&NapoleonAction> = menu
                .iter()
                .map(|(_, na)| na)
                .filter(|na| a.check(na).is_ok())
                .collect();
            let Some(next) = ok
                .iter()
                .find(|na| matches!(na.action, Action::Battle(BattleAction::Done)))
                .or(ok.first())
            else {
                break;
            };
            (*next).clone()
        };
        a.play(&next);
    }
    assert!(
        checked > 0,
        "no hidden block of the defender checked at its fight"
    );
}

/// The French attack from the historical set-up, at the table, to the defender's first
/// deployment (terrain drawn and placed from the first entries).
fn to_deployment() -> NapoleonTable {
    let c = choice(Players::Two, true);
    let mut t = NapoleonTable::start(c, &historical_slots(c)).unwrap();
    let target = attacked_town(&t);
    attack(&mut t, target, 6);
    for _ in 0..10 {
        if t.game().battle().unwrap().step() == boards::napoleon::battle::Step::Deployment {
            break;
        }
        let next = match t.to_act() {
            Actor::Chance => t.chance()[0].0.clone(),
            _ => t.choices()[0].1.clone(),
        };
        t.play(&next);
    }
    assert_eq!(
        t.game().battle().unwrap().step(),
        boards::napoleon::battle::Step::Deployment
    );
    t
}

/// A battle from the historical set-up to the attacker's first battle turn, each side keeping
/// its first block that may stay there in the reserve (the first outcome or entry otherwise).
fn to_fight_with_reserves() -> NapoleonTable {
    use boards::napoleon::battle::{BattleAction, Place as Field, Side, Step};
    let mut t = to_deployment();
    // Deployment: each side keeps its first block that may stay there in the reserve.
    let mut kept: BTreeSet<Side> = BTreeSet::new();
    while t.game().battle().unwrap().step() == Step::Deployment {
        let menu: Vec<NapoleonAction> = t
            .choices()
            .into_iter()
            .map(|(_, a)| a)
            .filter(|a| t.check(a).is_ok())
            .collect();
        let side = |a: &NapoleonAction| match a.action {
            Action::Battle(BattleAction::Deploy { block, .. }) => Some(truth_of(&t, block).0),
            _ => None,
        };
        let next = menu
            .iter()
            .find(|a| {
                matches!(
                    a.action,
                    Action::Battle(BattleAction::Deploy {
                        to: Field::Reserve,
                        ..
                    })
                ) && side(a).is_some_and(|s| !kept.contains(&s))
            })
            .or_else(|| {
                menu.iter().find(|a| {
                    !matches!(
                        a.action,
                        Action::Battle(BattleAction::Deploy {
                            to: Field::Reserve,
                            ..
                        })
                    )
                })
            })
            .unwrap_or(&menu[0])
            .clone();
        if let Action::Battle(BattleAction::Deploy {
            to: Field::Reserve, ..
        }) = next.action
        {
            kept.extend(side(&next));
        }
        t.play(&next);
    }
    // To the attacker's first battle turn (the first outcome or entry each time).
    for _ in 0..10 {
        if t.game().battle().unwrap().step() == Step::Fight {
            break;
        }
        let next = match t.to_act() {
            Actor::Chance => t.chance()[0].0.clone(),
            _ => t.choices()[0].1.clone(),
        };
        t.play(&next);
    }
    assert_eq!(t.game().battle().unwrap().step(), Step::Fight);
    t
}

/// At every deployment, each block of the reserve is offered the reserve and each of its own
/// wings, whether the rules let it go there or not (artillery and woods, a wing's corps, the
/// leader's army, R23): which entries are listed never tells a block's type or corps, and the
/// ones refused are refused in the same words.
#[test]
fn a_hidden_block_is_offered_every_place_whatever_its_type() {
    use boards::napoleon::battle::BattleAction;
    let mut t = to_deployment();
    let mut steps = 0;
    while t.game().battle().unwrap().step() == boards::napoleon::battle::Step::Deployment {
        let menu = t.choices();
        let deploys: Vec<&(String, NapoleonAction)> = menu
            .iter()
            .filter(|(_, a)| matches!(a.action, Action::Battle(BattleAction::Deploy { .. })))
            .collect();
        let slots: BTreeSet<String> = deploys
            .iter()
            .map(|(l, _)| l.split(" to ").next().unwrap().to_string())
            .collect();
        assert_eq!(deploys.len(), slots.len() * 4, "{menu:?}");
        for (_, a) in &deploys {
            if let Err(why) = t.check(a) {
                // The reason from what the table sees, and the fix.
                assert!(why.starts_with("that block cannot go there now: "), "{why}");
                assert!(
                    why.contains("(6.2.")
                        && (why.ends_with("keep it in the reserve")
                            || why.ends_with("deploy it on an empty wing")),
                    "{why}"
                );
            }
        }
        let next = deploys
            .iter()
            .map(|(_, a)| a)
            .chain(menu.iter().map(|(_, a)| a))
            .find(|a| t.check(a).is_ok())
            .unwrap()
            .clone();
        t.play(&next);
        steps += 1;
    }
    assert!(steps > 3, "{steps}");
}

/// 6.2.4 once the battle has begun: "Blokken die zichtbaar zijn mogen opnieuw verticaal
/// geplaatst worden wanneer ze geplaatst worden in de reserve of in bossen" (visible blocks may
/// stand up again when placed in the reserve or in woods). A French block kept in the reserve
/// and moved onto an open wing is shown: the table tells its hands to lay it flat, naming it;
/// a French block moved from an open wing into the reserve is hidden again: the table says its
/// owner may stand it up, by its slot alone, and names no block the view hides.
#[test]
fn a_block_shown_or_hidden_again_mid_battle_is_told_to_the_hands() {
    use boards::napoleon::battle::{BattleAction, BlockView, Place as Field, Step, Zone};
    let c = choice(Players::Two, true);
    let names = block_names(c);
    let oob = c.campaign().order_of_battle();
    let field = |t: &NapoleonTable, block: BlockId| truth_of(t, block).1;
    // The told screen's lines (paragraphs, before they are laid out on pages).
    let lines = |screen: &Screen| match screen {
        Screen::Told { lines, .. } => lines.clone(),
        _ => Vec::new(),
    };
    let seen = |t: &NapoleonTable, block: BlockId| {
        t.game()
            .battle()
            .unwrap()
            .view(None)
            .blocks
            .iter()
            .any(|b| matches!(*b, BlockView::Known { block: k, .. } if k == block))
    };
    let mut t = to_fight_with_reserves();
    let battle = t.game().battle().unwrap().clone();
    assert_eq!(battle.step(), Step::Fight);
    let woods: Vec<Zone> = battle
        .view(None)
        .terrain
        .iter()
        .filter(|(_, k)| *k == boards::napoleon::TerrainKind::Woods)
        .map(|(z, _)| *z)
        .collect();
    let legal = battle.legal_actions();
    // The reserve block onto an open wing: laid flat, named.
    let (block, to) = legal
        .iter()
        .find_map(|a| match *a {
            BattleAction::Move {
                block,
                to: Field::Zone(z),
            } if field(&t, block) == Some(Field::Reserve) && !woods.contains(&z) => {
                Some((block, z))
            }
            _ => None,
        })
        .expect("a move from the reserve onto an open wing");
    assert!(!seen(&t, block));
    let screen = t.play(&NapoleonAction::rules(Action::Battle(BattleAction::Move {
        block,
        to: Field::Zone(to),
    })));
    let told = public(&t, &screen);
    assert!(seen(&t, block));
    let name = &oob.block(block).unwrap().name;
    let slot = t.slot_words(block);
    let flat = format!("{slot}: lay it flat (6.2.4): {name}");
    assert!(lines(&screen).contains(&flat), "{told}");
    assert_eq!(names_in(&told, &names), vec![name.clone()], "{told}");
    // A shown block of an open wing into the reserve: hidden again, by its slot alone.
    let battle = t.game().battle().unwrap().clone();
    let back = battle
        .legal_actions()
        .iter()
        .find_map(|a| match *a {
            BattleAction::Move {
                block: b,
                to: Field::Reserve,
            } if b != block && seen(&t, b) => Some(b),
            _ => None,
        })
        .expect("a shown block that may regroup into the reserve");
    let screen = t.play(&NapoleonAction::rules(Action::Battle(BattleAction::Move {
        block: back,
        to: Field::Reserve,
    })));
    let told = public(&t, &screen);
    assert!(!seen(&t, back));
    let up = format!("{}: may stand up again (6.2.4)", t.slot_words(back));
    assert!(lines(&screen).contains(&up), "{told}");
    assert!(names_in(&told, &names).is_empty(), "{told}");
    // Nothing else in this action was shown or hidden: no other block is named.
    assert!(!told.contains("lay it flat"), "{told}");
}

/// 6.2.4 through a takeback: what an action showed or hid, taking it back hides or shows
/// again. The players put a block moved from the reserve onto an open wing back in the
/// reserve: once they confirm, the table says it may stand up again, by its slot alone. They
/// put a shown block moved into the reserve back on its wing: the table says to lay it flat,
/// naming it (the public view shows it again).
#[test]
fn a_takeback_tells_the_hands_which_blocks_to_stand_up_or_lay_flat_again() {
    use boards::napoleon::battle::{BattleAction, BlockView, Place as Field, Zone};
    let t = to_fight_with_reserves();
    let names = block_names(t.choice);
    let mut b = Bench::playing(&t);
    let seen = |b: &Bench, block: BlockId| {
        b.game()
            .game()
            .battle()
            .unwrap()
            .view(None)
            .blocks
            .iter()
            .any(|v| matches!(*v, BlockView::Known { block: k, .. } if k == block))
    };
    // Plays `action` by its gesture and ends the French turn (so moving the block back is no
    // move of the turn), then the hands put the block back and OK confirms the takeback: the
    // screen then.
    let there_and_back = |b: &mut Bench, action: Action| {
        let (gesture, _) = b
            .game()
            .gestures()
            .into_iter()
            .find(|(_, a)| a.action == action)
            .expect("the move has a gesture");
        assert!(b.make(&action));
        b.obey();
        b.make(&Action::Battle(BattleAction::Done));
        b.obey();
        b.tick(3000);
        b.lift(gesture.placed[0]);
        b.put(gesture.lifted[0]);
        b.tick(2000);
        assert!(b.session.takeback_offered(), "{}", b.screen());
        b.press(Button::Ok);
        b.tick(100);
        b.screen()
    };
    let woods: Vec<Zone> = t
        .game()
        .battle()
        .unwrap()
        .view(None)
        .terrain
        .iter()
        .filter(|(_, k)| *k == boards::napoleon::TerrainKind::Woods)
        .map(|(z, _)| *z)
        .collect();
    let legal = t.game().battle().unwrap().legal_actions();
    // From the reserve onto an open wing and back.
    let (block, to) = legal
        .iter()
        .find_map(|a| match *a {
            BattleAction::Move {
                block,
                to: Field::Zone(z),
            } if truth_of(&t, block).1 == Some(Field::Reserve) && !woods.contains(&z) => {
                Some((block, z))
            }
            _ => None,
        })
        .expect("a move from the reserve onto an open wing");
    let screen = there_and_back(
        &mut b,
        Action::Battle(BattleAction::Move {
            block,
            to: Field::Zone(to),
        }),
    );
    assert!(!seen(&b, block), "{screen}");
    assert!(screen.contains("taken back to turn"), "{screen}");
    let up = format!("{}: may stand up again (6.2.4)", b.game().slot_words(block));
    assert!(screen.contains(&up), "{screen}");
    assert!(names_in(&screen, &names).is_empty(), "{screen}");
    // A shown block from its open wing into the reserve, and back.
    let back = legal
        .iter()
        .find_map(|a| match *a {
            BattleAction::Move {
                block: k,
                to: Field::Reserve,
            } if seen(&b, k) => Some(k),
            _ => None,
        })
        .expect("a shown block that may regroup into the reserve");
    let screen = there_and_back(
        &mut b,
        Action::Battle(BattleAction::Move {
            block: back,
            to: Field::Reserve,
        }),
    );
    assert!(seen(&b, back), "{screen}");
    let name = &t
        .choice
        .campaign()
        .order_of_battle()
        .block(back)
        .unwrap()
        .name;
    let flat = format!("{}: lay it flat (6.2.4): {name}", b.game().slot_words(back));
    assert!(screen.contains(&flat), "{screen}");
}

/// A skirmish's picks (6.6): the defender's choice stays hidden until the attacker has
/// chosen, so a pick is told only as "the defender chooses a block", and the menu after it
/// lists the same entries in the same order as before (the picked block too).
#[test]
fn a_skirmish_pick_is_told_without_its_slot() {
    use boards::napoleon::battle::{BattleAction, Step};
    let c = choice(Players::Two, true);
    let mut t = NapoleonTable::start(c, &historical_slots(c)).unwrap();
    let target = attacked_town(&t);
    // One French block attacks: fewer than 3 units, a skirmish.
    attack(&mut t, target, 1);
    let battle = t.game().battle().unwrap();
    assert!(battle.is_skirmish());
    assert_eq!(battle.step(), Step::SkirmishReveal);
    let before: Vec<String> = t.choices().into_iter().map(|(l, _)| l).collect();
    let (entry, pick) = t
        .choices()
        .into_iter()
        .find(|(_, a)| matches!(a.action, Action::Battle(BattleAction::Reveal(_))))
        .unwrap();
    assert!(entry.starts_with("show the block on "), "{entry}");
    let slot = entry.trim_start_matches("show the block on ").to_string();
    let screen = crate::referee::screen_text(&t.play(&pick));
    assert!(!screen.contains(&slot), "{screen}");
    assert!(screen.contains("the defender chooses a block"), "{screen}");
    assert!(
        !t.told().iter().any(|l| l.contains(&slot)),
        "{:?}",
        t.told()
    );
    let after: Vec<String> = t
        .choices()
        .into_iter()
        .map(|(l, _)| l)
        .filter(|l| l.starts_with("show the block"))
        .collect();
    let before: Vec<String> = before
        .into_iter()
        .filter(|l| l.starts_with("show the block"))
        .collect();
    assert_eq!(before, after);
}

/// A skirmish's pick at the table (6.6): the OLED faces everyone, so the chooser's menu asks
/// the others to look away, its highlight starts where the clock decides (counting the Die
/// presses tells nothing), and the words read off the OLED (the logs, the phone pages) show
/// every entry with none highlighted; the OLED itself still shows the chooser the highlight.
#[test]
fn a_skirmish_pick_is_chosen_unseen() {
    use boards::napoleon::battle::Step;
    let mut b = Bench::historical(choice(Players::Two, true));
    // The town with the most Allied blocks: the defender picks among them.
    let target = richest_allied_neighbour(&b);
    let one = b
        .game()
        .game()
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Move { path, .. } if path.as_slice() == [target]))
        .unwrap();
    b.make(&one);
    b.make(&Action::EndMoves);
    for _ in 0..20 {
        if b.game().game().battle().is_some() {
            break;
        }
        b.obey();
        if b.game().to_act() == Actor::Chance {
            b.tick(3000);
            b.press(Button::Die);
        } else {
            let next = b.game().choices()[0].1.action.clone();
            b.make(&next);
        }
    }
    b.obey();
    let battle = b.game().game().battle().expect("a skirmish").clone();
    assert!(battle.is_skirmish());
    assert_eq!(battle.step(), Step::SkirmishReveal);
    let mut starts = BTreeSet::new();
    for wait in [0, 1, 2, 3, 5, 7] {
        b.now += wait;
        b.press(Button::Ok);
        let screen = b.session.screen(&b.sensed);
        let Screen::Choice {
            title,
            entries,
            selected,
            secret,
        } = &screen
        else {
            panic!("no menu: {screen:?}");
        };
        assert!(*secret, "{screen:?}");
        assert_eq!(title, "Others: look away");
        starts.insert(*selected);
        // The OLED shows the chooser the highlight ...
        let drawn = crate::screens::layout(&screen);
        assert!(
            drawn.pages[0].texts().any(|d| d.highlighted()),
            "{:?}",
            drawn.lines()
        );
        // ... but no word read off it tells which entry.
        let lines = crate::referee::screen_lines(&screen);
        assert!(!lines.iter().any(|l| l.starts_with("> ")), "{lines:?}");
        assert_eq!(lines[1..], entries[..]);
        b.press(Button::Back);
    }
    assert!(
        starts.len() > 1,
        "the highlight always starts on {starts:?}"
    );
}

/// A players' own set-up (each block where [`own_slots`] puts it) with the Prussian I corps in
/// Charleroi, next to the French: PI-INF1 (4), PI-INF2 (4), PI-INF3 (3) and PI-ART (3) on its
/// first four slots, in the order `order` names them.
fn charleroi_held_by_the_first_corps(c: NapoleonChoice, order: [&str; 4]) -> BySeat<NapoleonArmy> {
    let oob = c.campaign().order_of_battle();
    let mut slots = own_slots(c, false);
    let cha = c.layout().town(town(c, "CHA"));
    for (k, name) in order.into_iter().enumerate() {
        let id = oob.find(name).unwrap();
        let here = slots.iter().position(|(b, _)| *b == id).unwrap();
        let there = slots.iter().position(|(_, p)| *p == cha[k]).unwrap();
        let (a, b) = (slots[here].1, slots[there].1);
        slots[here].1 = b;
        slots[there].1 = a;
    }
    let army = |seat: Seat| NapoleonArmy {
        slots: c
            .blocks(seat)
            .into_iter()
            .map(|id| slots.iter().find(|(b, _)| *b == id).unwrap().1)
            .collect(),
    };
    let (allies, french) = (army(ALLIES), army(FRENCH));
    BySeat::from_fn(|s| {
        if s == FRENCH {
            french.clone()
        } else {
            allies.clone()
        }
    })
}

/// The table of `c` set up as `armies`, its rules' game under 6.2.4's option (a block is seen
/// only once it fires or is in combat; `[napoleon] reveal_on_contact`): the one way a hit
/// can fall among blocks hidden from the firer (ruling R25).
fn revealed_on_contact(c: NapoleonChoice, armies: &BySeat<NapoleonArmy>) -> NapoleonTable {
    let mut t = NapoleonTable::start(c, armies).unwrap();
    let options = Options {
        battle: boards::napoleon::battle::BattleOptions {
            reveal_on_contact: true,
            ..boards::napoleon::battle::BattleOptions::default()
        },
        ..c.options()
    };
    let setup = Setup::Placed {
        allies: placements(c, ALLIES, &armies[ALLIES]),
        french: placements(c, FRENCH, &armies[FRENCH]),
    };
    t.game = Napoleon::start(options, setup).unwrap();
    t
}

/// The menu entry of `b` with the label `a`'s entry for `action` has.
fn twin_entry(a: &NapoleonTable, action: &NapoleonAction, b: &NapoleonTable) -> NapoleonAction {
    let label = a
        .choices()
        .into_iter()
        .find(|(_, na)| na == action)
        .unwrap_or_else(|| panic!("{action:?} is not in the menu"))
        .0;
    b.choices()
        .into_iter()
        .find(|(l, _)| *l == label)
        .unwrap_or_else(|| panic!("no `{label}` in the twin's menu"))
        .1
}

/// Two Napoléon games at the table, alike but for which hidden blocks of the Prussian I corps
/// stand on which of Charleroi's slots ([`Twins::new`], [`Twins::of`]).
struct Twins {
    a: NapoleonTable,
    b: NapoleonTable,
}

impl Twins {
    /// PI-INF3 (3) and PI-INF2 (4) on each other's slots: `a` has PI-INF3 on Charleroi's
    /// second slot and PI-INF2 on its third, `b` the other way round.
    fn new() -> Twins {
        Twins::of(
            ["PI-INF1", "PI-INF3", "PI-INF2", "PI-ART"],
            ["PI-INF1", "PI-INF2", "PI-INF3", "PI-ART"],
        )
    }

    /// `a` with Charleroi's first four slots held in the order `in_a` names the blocks, `b`
    /// in the order `in_b` does.
    fn of(in_a: [&str; 4], in_b: [&str; 4]) -> Twins {
        let c = choice(Players::Two, false);
        Twins {
            a: revealed_on_contact(c, &charleroi_held_by_the_first_corps(c, in_a)),
            b: revealed_on_contact(c, &charleroi_held_by_the_first_corps(c, in_b)),
        }
    }

    /// Plays `na` in `a` and `nb` in `b` (both accepted): the table is shown the same in both,
    /// the told screen, the prompt, the menu, whether the pick is secret and the board, and
    /// none of it names a block the battle hides. The told screen.
    fn play(&mut self, na: &NapoleonAction, nb: &NapoleonAction) -> Screen {
        let (a, b) = (&mut self.a, &mut self.b);
        a.check(na).unwrap();
        b.check(nb).unwrap();
        let (sa, sb) = (a.play(na), b.play(nb));
        let shown = public(a, &sa);
        assert_eq!(shown, public(b, &sb));
        assert_eq!(a.secret_choice(), b.secret_choice());
        assert_eq!(a.board(), b.board());
        let oob = a.choice.campaign().order_of_battle();
        let seen: Vec<String> = a
            .game()
            .battle()
            .map(|battle| battle.view(None).blocks)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|v| match v {
                boards::napoleon::battle::BlockView::Known { block, .. } => {
                    Some(oob.block(block).unwrap().name.clone())
                }
                boards::napoleon::battle::BlockView::Hidden { .. } => None,
            })
            .collect();
        for name in names_in(&shown, &block_names(a.choice)) {
            assert!(seen.contains(&name), "{name} is hidden: {shown}");
        }
        sa
    }

    /// The same action in both.
    fn both(&mut self, action: Action) {
        let na = NapoleonAction::rules(action);
        self.play(&na, &na);
    }

    /// `a`'s menu entry for `action` in `a`, and the entry of the same words in `b`.
    fn entry(&mut self, action: Action) {
        let na = NapoleonAction::rules(action);
        let nb = twin_entry(&self.a, &na, &self.b);
        self.play(&na, &nb);
    }

    /// The first die outcome or menu entry, in both, until `now` holds of `a`.
    fn until(&mut self, now: impl Fn(&NapoleonTable) -> bool) {
        for _ in 0..30 {
            if now(&self.a) {
                return;
            }
            let next = match self.a.to_act() {
                Actor::Chance => self.a.chance()[0].0.clone(),
                _ => self.a.choices()[0].1.clone(),
            };
            self.play(&next, &next);
        }
        panic!("never there: {}", self.a.prompt());
    }

    /// The battle at Charleroi, to its first battle turn: the French move in with a gun and
    /// two other blocks; terrain away from the fight (the attacker's on its left, the
    /// defender's on its centre and right, never woods: no gun stands in woods, 6.2.1); the
    /// Prussians deploy, `plan` naming each block's wing as `a` has them (`b` deploys the
    /// block of the same slot, which may be another), then the French: the gun on their
    /// right, facing the Prussian left, the others on their left and centre. The gun.
    fn battle(&mut self, plan: [(&str, boards::napoleon::battle::Wing); 4]) -> BlockId {
        use boards::napoleon::battle::{BattleAction, Place as Field, Side, Step, Wing, Zone};
        use boards::napoleon::TerrainKind;
        let c = self.a.choice;
        let oob = c.campaign().order_of_battle();
        let kind = |block: BlockId| oob.block(block).unwrap().kind;
        let cha = town(c, "CHA");
        let moves: Vec<(BlockId, Action)> = self
            .a
            .game()
            .legal_actions()
            .into_iter()
            .filter_map(|m| match &m {
                Action::Move { block, path } if path.as_slice() == [cha] => Some((*block, m)),
                _ => None,
            })
            .collect();
        let gun = moves.iter().find(|(b, _)| kind(*b).is_artillery()).unwrap();
        let others = moves
            .iter()
            .filter(|(b, _)| !kind(*b).is_artillery())
            .take(2);
        let french: Vec<&(BlockId, Action)> = [gun].into_iter().chain(others).collect();
        for (_, m) in &french {
            let na = NapoleonAction {
                action: m.clone(),
                slot: Some(self.a.free_slots(cha)[0]),
            };
            self.play(&na, &na);
        }
        self.both(Action::EndMoves);
        self.until(|t| t.game().battle().is_some());
        let step = |t: &NapoleonTable| t.game().battle().map(|b| b.step());
        assert!(!self.a.game().battle().unwrap().is_skirmish());
        let mut wings = [Wing::Left, Wing::Centre, Wing::Right].into_iter();
        while step(&self.a) == Some(Step::Terrain) {
            let next = match self.a.to_act() {
                Actor::Chance => self
                    .a
                    .chance()
                    .into_iter()
                    .map(|(na, _)| na.action)
                    .find(|a| {
                        !matches!(
                            a,
                            Action::Battle(BattleAction::DrawTerrain(TerrainKind::Woods))
                        )
                    })
                    .unwrap(),
                _ => Action::Battle(BattleAction::PlaceTerrain(wings.next().unwrap())),
            };
            self.both(next);
        }
        let at = |side, wing| Field::Zone(Zone::new(side, wing));
        let deploy = plan
            .iter()
            .map(|&(name, wing)| (oob.find(name).unwrap(), at(Side::Defender, wing)))
            .chain([
                (french[0].0, at(Side::Attacker, Wing::Right)),
                (french[1].0, at(Side::Attacker, Wing::Left)),
                (french[2].0, at(Side::Attacker, Wing::Centre)),
            ]);
        for (block, to) in deploy {
            self.entry(Action::Battle(BattleAction::Deploy { block, to }));
        }
        self.until(|t| step(t) == Some(Step::Fight));
        french[0].0
    }

    /// The gun fires across at the Prussian left and hits once.
    fn volley(&mut self, gun: BlockId) {
        use boards::napoleon::battle::{BattleAction, Side, Target, Wing, Zone};
        self.both(Action::Battle(BattleAction::Fire {
            block: gun,
            at: Zone::new(Side::Defender, Wing::Left),
            target: Target::Line,
        }));
        self.both(Action::Battle(BattleAction::Hits(1)));
    }

    /// At the pick: both ask the Allied player, from a secret menu of the blocks of the
    /// Prussian left, the same entries in both (each naming its slot). In the game where one
    /// block is strongest (`b` when `in_b`, else `a`), `weaker` is refused in the same words
    /// as any wrong pick, naming no slot, while the other game accepts its entry (a tie
    /// there); then `strongest` is taken there, and the entry of the same words in the other.
    fn pick(&mut self, in_b: bool, weaker: &str, strongest: &str) {
        use boards::napoleon::battle::{BattleAction, Step};
        let c = self.a.choice;
        let id = |name: &str| c.campaign().order_of_battle().find(name).unwrap();
        for t in [&self.a, &self.b] {
            assert_eq!(t.game().battle().unwrap().step(), Step::Losses);
            assert!(t.secret_choice());
            assert_eq!(t.prompt(), "Allies: OK, choose which block takes the hit");
        }
        let (one, tie) = if in_b {
            (&self.b, &self.a)
        } else {
            (&self.a, &self.b)
        };
        let menu = one.choices();
        assert_eq!(menu.len(), 2, "{menu:?}");
        assert!(
            menu.iter()
                .all(|(l, _)| l.starts_with("board 1 defender left ")
                    && l.ends_with(" takes the hit")),
            "{menu:?}"
        );
        let entry = |name: &str| {
            let action = Action::Battle(BattleAction::TakeHit(id(name)));
            menu.iter()
                .find(|(_, na)| na.action == action)
                .unwrap()
                .1
                .clone()
        };
        let wrong = entry(weaker);
        assert!(tie.check(&twin_entry(one, &wrong, tie)).is_ok());
        // At the table: OK opens the pick for the chooser alone, the same in both games.
        let opened = |t: &NapoleonTable| {
            let mut bench = Bench::playing(t);
            bench.press(Button::Ok);
            (bench.session.screen(&bench.sensed), bench)
        };
        let (screen, mut bench) = opened(one);
        assert_eq!(screen, opened(tie).0);
        let Screen::Choice {
            title,
            entries,
            secret,
            ..
        } = &screen
        else {
            panic!("no menu: {screen:?}");
        };
        assert!(*secret);
        assert_eq!(title, "Others: look away");
        assert_eq!(
            entries[..],
            menu.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>()[..]
        );
        // The weaker block is refused in words that name no slot, the same for any wrong
        // pick, whole on the OLED's first page.
        let at = menu.iter().position(|(_, na)| *na == wrong).unwrap();
        while TableView::menu(&bench.session).is_some_and(|(_, sel)| sel != at) {
            bench.press(Button::Die);
        }
        // The weaker block is not taken, and nothing the others can read says so: no
        // decision logged, the same secret menu open (only its highlight, the chooser's
        // alone, moves on), no prompt, nothing played.
        let played = bench.session.actions();
        let out = bench.press(Button::Ok);
        assert!(out.is_empty(), "{out:?}");
        let after = bench.session.screen(&bench.sensed);
        let Screen::Choice {
            title: still,
            entries: same,
            secret: true,
            selected,
        } = &after
        else {
            panic!("the pick closed: {after:?}");
        };
        assert_eq!((still, same), (title, entries));
        assert_ne!(*selected, at, "the highlight moves off the refused entry");
        assert_eq!(bench.session.actions(), played);
        let right = entry(strongest);
        let other = twin_entry(one, &right, tie);
        let told = if in_b {
            self.play(&other, &right)
        } else {
            self.play(&right, &other)
        };
        // Told as the hands' step alone, naming the slot turned down, whole on the OLED.
        let Screen::Told { title, lines, .. } = &told else {
            panic!("{told:?}");
        };
        assert_eq!(title, "Allies: a block takes the hit");
        assert!(lines[0].starts_with("board 1 defender left "), "{lines:?}");
        assert!(
            lines[0].ends_with(": turn the block one step down"),
            "{lines:?}"
        );
        assert!(whole_on_page_one(&told, title) && whole_on_page_one(&told, &lines[0]));
        for t in [&self.a, &self.b] {
            assert_eq!(t.game().battle().unwrap().step(), Step::Fight);
            assert!(!t.secret_choice());
        }
    }
}

/// 6.4: "Elk raak schot wordt apart toegepast op de sterkste vijandelijke eenheid in die
/// positie. Indien twee of meerdere vijandelijke eenheden even sterk zijn beslist de eigenaar
/// van die eenheden wie het rake schot incasseert" (each hit to the strongest; between equals
/// the owner decides); 3.2: the blocks stand so that the enemy sees neither type nor strength;
/// and 6.2.4's option, blocks seen only once they fire or fight.
///
/// Twin games ([`Twins`]): the French gun fires across at the Prussian left, where PI-INF1 (4)
/// stands, hidden, with PI-INF2 (4) in one game and PI-INF3 (3) in the other. The table sees
/// the same in both, screen for screen, prompt for prompt and entry for entry, through the
/// volley, the owner's pick (asked in both, from a secret menu) and after it: nothing tells
/// whether the hidden blocks tie. Before, the hit was placed at once where one block was the
/// strongest and the owner asked only on a tie, so this test failed on the old code (one game
/// told the hit at once where the other asked the Allied player to choose).
#[test]
fn twin_battles_that_differ_in_whether_hidden_blocks_tie_show_the_same_screens() {
    use boards::napoleon::battle::Wing;
    let mut t = Twins::new();
    let gun = t.battle([
        ("PI-INF1", Wing::Left),
        ("PI-INF3", Wing::Left),
        ("PI-INF2", Wing::Centre),
        ("PI-ART", Wing::Right),
    ]);
    t.volley(gun);
    // In `a` PI-INF1 and PI-INF3: the 3 refused, the 4 taken; in `b` either of two 4s.
    t.pick(false, "PI-INF3", "PI-INF1");
}

/// 6.4 and 3.2 as above, with a block of the group seen: the Prussian gun (3) on the left has
/// fired (6.2.4's option: shown once it fires) beside a hidden infantry block, PI-INF3 (3) in
/// one game, PI-INF2 (4) in the other. The menu lists both blocks in both, not the blocks the
/// rules let take the hit: those (the gun and the 3, or the 4 alone) would say whether the
/// hidden block is stronger than the gun, which the old menu told (the old rules too: the 4
/// alone took the hit at once), so this test failed on the old code.
#[test]
fn a_hit_among_seen_and_hidden_blocks_shows_the_same_menu_tie_or_not() {
    use boards::napoleon::battle::{
        BattleAction, BattleActor, BlockView, Side, Step, Target, Wing, Zone,
    };
    let mut t = Twins::new();
    let gun = t.battle([
        ("PI-ART", Wing::Left),
        ("PI-INF3", Wing::Left),
        ("PI-INF1", Wing::Centre),
        ("PI-INF2", Wing::Right),
    ]);
    let c = t.a.choice;
    let prussian_gun = c.campaign().order_of_battle().find("PI-ART").unwrap();
    let fighting = |army: Army| {
        move |x: &NapoleonTable| {
            x.game()
                .battle()
                .is_some_and(|b| b.step() == Step::Fight && b.actor() == BattleActor::Army(army))
        }
    };
    // The French end their first fight; the Prussian gun fires across at the French gun,
    // and misses: it is seen from now on.
    t.until(fighting(Army::Prussian));
    t.both(Action::Battle(BattleAction::Fire {
        block: prussian_gun,
        at: Zone::new(Side::Attacker, Wing::Right),
        target: Target::Line,
    }));
    t.both(Action::Battle(BattleAction::Hits(0)));
    for x in [&t.a, &t.b] {
        let public = x.game().battle().unwrap().view(None);
        let prussians: Vec<BlockId> = public
            .blocks
            .iter()
            .filter_map(|v| match *v {
                BlockView::Known {
                    block,
                    army: Army::Prussian,
                    ..
                } => Some(block),
                _ => None,
            })
            .collect();
        assert_eq!(prussians, [prussian_gun]);
    }
    t.until(fighting(Army::French));
    t.volley(gun);
    // In `b` the gun (3) and PI-INF2 (4): the gun refused, the 4 taken; in `a` the gun and
    // PI-INF3, both at 3.
    t.pick(true, "PI-ART", "PI-INF2");
}

/// Twin games ([`Twins`]) that differ in a hidden block's type: PI-INF3 (infantry, 3) and
/// PI-ART (foot artillery, 3) stand on each other's slots of Charleroi, and both deploy on the
/// Prussian centre, out of contact and never firing, so hidden under 6.2.4's option. The
/// French engage the Prussian right, held by PI-INF2 alone; on its turn PI-INF2 retreats
/// from the combat, which costs it its rout loss (7), and leaves the French alone in a
/// Prussian zone: the Prussians rout (7.4), every block losing strength by its type (7.4.1).
/// Each play is shown the same in both games ([`Twins::play`]). The twins, at the rout, and
/// the retreat's told screen.
fn routed_twins() -> (Twins, Screen) {
    use boards::napoleon::battle::{
        BattleAction, BattleActor, BlockView, Place as Field, Side, Step, Wing, Zone,
    };
    let mut t = Twins::of(
        ["PI-INF1", "PI-INF3", "PI-INF2", "PI-ART"],
        ["PI-INF1", "PI-ART", "PI-INF2", "PI-INF3"],
    );
    t.battle([
        ("PI-INF1", Wing::Left),
        ("PI-INF3", Wing::Centre),
        ("PI-INF2", Wing::Right),
        ("PI-ART", Wing::Centre),
    ]);
    let c = t.a.choice;
    let id = |name: &str| c.campaign().order_of_battle().find(name).unwrap();
    // The French block on their left engages the Prussian right, which faces it.
    let left = Field::Zone(Zone::new(Side::Attacker, Wing::Left));
    let engager =
        t.a.game()
            .battle()
            .unwrap()
            .view_of(&Army::ALL)
            .blocks
            .into_iter()
            .find_map(|v| match v {
                BlockView::Known {
                    block,
                    place: Some(p),
                    ..
                } if p == left => Some(block),
                _ => None,
            })
            .unwrap();
    t.both(Action::Battle(BattleAction::Move {
        block: engager,
        to: Field::Zone(Zone::new(Side::Defender, Wing::Right)),
    }));
    t.until(|x| {
        x.game().battle().is_some_and(|b| {
            b.step() == Step::Fight && b.actor() == BattleActor::Army(Army::Prussian)
        })
    });
    let inf2 = id("PI-INF2");
    let retreat = t
        .a
        .game()
        .legal_actions()
        .into_iter()
        .find(
            |a| matches!(a, Action::Battle(BattleAction::Retreat { block, .. }) if *block == inf2),
        )
        .expect("PI-INF2 may retreat from the combat");
    let na = NapoleonAction::rules(retreat);
    let nb = twin_entry(&t.a, &na, &t.b);
    let told = t.play(&na, &nb);
    for x in [&t.a, &t.b] {
        let battle = x.game().battle().unwrap();
        assert_eq!(battle.step(), Step::Rout, "{}", x.prompt());
        // The rules' own strengths stay exact: infantry 1, foot artillery 2 (7.4.1).
        let strength = |name: &str| truth_of(x, id(name)).2;
        assert_eq!(
            [strength("PI-INF1"), strength("PI-INF3"), strength("PI-ART")],
            [3, 2, 1]
        );
        // Both twins hidden from the French.
        let seen = battle.view(None).blocks;
        for name in ["PI-INF3", "PI-ART"] {
            assert!(
                !seen
                    .iter()
                    .any(|v| matches!(v, BlockView::Known { block, .. } if *block == id(name))),
                "{name} is seen"
            );
        }
    }
    (t, told)
}

/// Whether `text` is drawn whole on one page of `screen` (128x64), nothing cut.
fn whole_on_a_page(screen: &Screen, text: &str) -> bool {
    let laid = crate::screens::layout(screen);
    let want = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = |lines: Vec<String>| {
        lines
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    !laid
        .lines()
        .iter()
        .any(|l| l.contains(crate::screens::text::ELLIPSIS))
        && laid.pages.iter().any(|p| words(p.lines()).contains(&want))
}

/// 7.4.1 "Verliezen tijdens het vluchten": "Alle eenheden (inclusief reserve eenheden) zijn
/// onderhevig aan verliezen in sterkte door het vluchten: Sterkte -1 voor infanterie en
/// artillerie te paard, Sterkte -2 voor artillerie te voet" (every unit, the reserve included,
/// loses strength in a rout: infantry and horse artillery 1, foot artillery 2); and 7:
/// "Eenheden die in gevechten verwikkeld zijn tijdens hun terugtrekking zijn onderhevig aan
/// dezelfde verliezen als bij vluchten (zie 7.4.1)" (a unit retreating from combat loses the
/// same). A block's type is its owner's secret (3.2; 6.2.4's option), so the loss of a hidden
/// block is never told to the table: a loss of 2 would say "foot artillery".
///
/// Twin games at the rout ([`routed_twins`]): the foot artillery and the infantry block on
/// each other's slots. The table is told the same in both: the told screen, the prompt and
/// the menu (the OLED), the told lines (the log and every phone page's story), the French
/// page's board and secrets; the routing player is asked, in one line whole on the OLED, to
/// take the rout losses on his hidden blocks as 7.4.1 says. The old words told each hidden
/// block's steps ("turn the block two steps down" on the guns' slot, "one step" on the
/// infantry's), so this test failed on the old code.
#[test]
fn twin_routs_that_differ_in_a_hidden_blocks_type_tell_the_same_losses() {
    let (t, screen) = routed_twins();
    let (a, b) = (&t.a, &t.b);
    assert_eq!(a.told(), b.told());
    assert_eq!(a.seat_board(FRENCH), b.seat_board(FRENCH));
    assert_eq!(a.seat_secrets(FRENCH), b.seat_secrets(FRENCH));
    let told = a.told();
    let ask = "Prussian: rout losses (7.4.1): turn your hidden blocks down by type";
    assert!(told.iter().any(|l| l == ask), "{told:?}");
    assert!(!told.iter().any(|l| l.contains("two steps")), "{told:?}");
    // On the OLED, whole on one of the retreat's pages.
    assert!(
        whole_on_a_page(&screen, ask),
        "{:?}",
        crate::screens::layout(&screen).lines()
    );
}

/// 7.4.1 as above: the routing player's own page (his secrets, read by him alone) gives each
/// of his hidden blocks' rout loss by its type, naming the block: the foot artillery two
/// steps, the infantry one; the French page none of it.
#[test]
fn the_routing_players_own_page_gives_each_hidden_blocks_loss() {
    let (t, _) = routed_twins();
    for x in [&t.a, &t.b] {
        let own = x.seat_secrets(ALLIES);
        let line = |name: &str| {
            own.iter()
                .find(|l| l.contains(&format!("({name})")))
                .unwrap_or_else(|| panic!("no {name} in {own:?}"))
                .clone()
        };
        assert!(
            line("PI-ART").ends_with(": turn it two steps down, to 1"),
            "{own:?}"
        );
        assert!(
            line("PI-INF3").ends_with(": turn it one step down, to 2"),
            "{own:?}"
        );
        assert!(
            line("PI-INF1").ends_with(": turn it one step down, to 3"),
            "{own:?}"
        );
        assert!(
            own.iter().all(|l| l.starts_with("Loss by type (7.4.1): ")),
            "{own:?}"
        );
        let french = x.seat_secrets(FRENCH).join(" ");
        assert!(!french.contains("PI-"), "{french}");
    }
}

/// Under the default ruling (a supply loss takes a whole block) the menu entry says the
/// block is eliminated, not turned a step down.
#[test]
fn a_supply_loss_is_worded_from_the_ruling() {
    let c = choice(Players::Two, true);
    let t = NapoleonTable::start(c, &historical_slots(c)).unwrap();
    assert_eq!(
        c.options().supply_loss,
        boards::napoleon::SupplyLoss::Blocks
    );
    let block = c.blocks(FRENCH)[0];
    let label = t.label(&NapoleonAction::rules(Action::SupplyLoss(block)));
    assert!(label.contains("eliminated"), "{label}");
    assert!(!label.contains("step down"), "{label}");
}

/// A deployment chosen from the menu into a wing whose six spaces are all taken is refused,
/// naming the wing: the board could not follow it.
#[test]
fn a_menu_move_into_a_full_wing_is_refused() {
    use boards::napoleon::battle::{BattleAction, Place as Field, Side, Wing, Zone};
    let mut t = to_deployment();
    let menu = t.choices();
    let deploy = menu
        .iter()
        .map(|(_, a)| a)
        .find(|a| {
            matches!(
                a.action,
                Action::Battle(BattleAction::Deploy {
                    to: Field::Zone(_),
                    ..
                })
            ) && t.check(a).is_ok()
        })
        .unwrap()
        .clone();
    let Action::Battle(BattleAction::Deploy {
        to: Field::Zone(zone),
        ..
    }) = deploy.action
    else {
        unreachable!()
    };
    // Blocks far from the battle stand on every space of the wing.
    let spaces = t.choice.layout().boards()[0].zone(zone).to_vec();
    let far: Vec<BlockId> = t
        .choice
        .blocks(FRENCH)
        .into_iter()
        .filter(|b| !t.stands().contains_key(b))
        .take(spaces.len())
        .collect();
    for (b, p) in far.iter().zip(&spaces) {
        t.at[b.index()] = Some(*p);
    }
    let why = t.check(&deploy).unwrap_err();
    let side = if zone.half == Side::Defender {
        "defender"
    } else {
        "attacker"
    };
    let wing = match zone.wing {
        Wing::Left => "left",
        Wing::Centre => "centre",
        Wing::Right => "right",
    };
    assert_eq!(
        why,
        format!("board 1 {side} {wing} is full: choose another place")
    );
    // Every block's deployment there hears the same words, whether the rules would take it
    // or not (which would tell its type or corps).
    for (_, a) in &menu {
        if matches!(a.action, Action::Battle(BattleAction::Deploy { to: Field::Zone(z), .. }) if z == zone)
        {
            assert_eq!(t.check(a).unwrap_err(), why, "{a:?}");
        }
    }
    let _ = Zone::new(Side::Attacker, Wing::Left);
}

/// A terrain block put on a terrain spot of the enemy's half is refused with the fix, not
/// played on the drawer's own wing.
#[test]
fn a_terrain_on_the_enemy_half_is_refused() {
    use boards::napoleon::battle::{BattleAction, Step, Wing, Zone};
    let c = choice(Players::Two, true);
    let mut t = NapoleonTable::start(c, &historical_slots(c)).unwrap();
    let target = attacked_town(&t);
    attack(&mut t, target, 6);
    let battle = t.game().battle().unwrap();
    assert_eq!(battle.step(), Step::Terrain);
    if t.to_act() == Actor::Chance {
        let draw = t.chance()[0].0.clone();
        t.play(&draw);
    }
    let battle = t.game().battle().unwrap();
    let boards::napoleon::battle::BattleActor::Army(army) = battle.actor() else {
        panic!("nobody places the terrain");
    };
    let side = battle.side_of(army).unwrap();
    assert!(battle
        .legal_actions()
        .contains(&BattleAction::PlaceTerrain(Wing::Left)));
    let enemy = c.layout().boards()[0].terrain(Zone::new(side.other(), Wing::Left));
    let gesture = Gesture {
        lifted: Vec::new(),
        placed: vec![enemy],
        selected: None,
    };
    assert!(t.matching(&gesture).is_empty());
    let shaped = t.shaped(&gesture);
    assert_eq!(shaped.len(), 1);
    let why = t.check(&shaped[0]).unwrap_err();
    assert!(
        why.contains("not a terrain spot of your half of board 1"),
        "{why}"
    );
}

/// With three players each Allied player gets his own view (3.2, 11: each sees only his own
/// blocks): the Anglo-Dutch one names Anglo-Dutch blocks and no Prussian, the Prussian one the
/// reverse; with two players the one Allied view names both armies. The French see their own
/// either way. The phone pages are these views, one per player.
#[test]
fn each_allied_player_sees_only_his_own_army() {
    for players in [Players::Two, Players::Three] {
        let b = Bench::historical(choice(players, true));
        let t = b.game();
        let c = b.session.choice();
        let public = t.board();
        let oob = c.campaign().order_of_battle();
        // The armies whose blocks `seat`'s view names beyond the public board.
        let armies = |seat: Seat| {
            let board = t.seat_board(seat);
            let mut armies = BTreeSet::new();
            for (id, block) in oob.blocks() {
                let Some(place) = t.place_of(id) else {
                    continue;
                };
                if board.get(&place).is_some_and(|piece| {
                    public.get(&place) != Some(piece) && piece.contains(block.name.as_str())
                }) {
                    armies.insert(block.army);
                }
            }
            armies.into_iter().collect::<Vec<Army>>()
        };
        assert_eq!(armies(FRENCH), vec![Army::French], "{players:?}");
        let pages: Vec<String> = NapoleonTable::page_seats(c)
            .into_iter()
            .map(|(_, name)| name)
            .collect();
        match players {
            Players::Two => {
                assert_eq!(armies(ALLIES), vec![Army::AngloDutch, Army::Prussian]);
                assert_eq!(pages, ["French", "Allies"]);
            }
            Players::Three => {
                assert_eq!(armies(ANGLO_DUTCH), vec![Army::AngloDutch]);
                assert_eq!(armies(PRUSSIAN), vec![Army::Prussian]);
                assert_eq!(pages, ["French", "Anglo-Dutch", "Prussian"]);
                // The page's own pieces: the Prussian player's are the Prussian blocks.
                let sides = t.sides();
                for (id, block) in oob.blocks() {
                    let Some(place) = t.place_of(id) else {
                        continue;
                    };
                    assert_eq!(
                        sides.get(&place) == Some(&PRUSSIAN),
                        block.army == Army::Prussian,
                        "{}",
                        block.name
                    );
                }
            }
        }
    }
}

/// `c` (historical) set up by tags: every block on a free slot of its historical town, the
/// order of battle backwards (any order will do), each tag read as its block settles, then OK.
fn tagged_historical(c: NapoleonChoice) -> (Bench, Vec<(BlockId, Place)>) {
    let mut b = Bench::by_tags(c);
    let oob = c.campaign().order_of_battle();
    let blocks: Vec<(BlockId, TownId)> = oob.blocks().map(|(id, bl)| (id, bl.start)).collect();
    let mut put = Vec::new();
    for &(id, start) in blocks.iter().rev() {
        let slot = *c
            .layout()
            .town(start)
            .iter()
            .find(|p| !b.sensed.contains(p))
            .unwrap();
        let out = b.put_tagged(slot, block_tag(id.index()));
        assert!(
            !out.iter().any(|d| matches!(d, Decision::TagProblem(_))),
            "{out:?}"
        );
        put.push((id, slot));
    }
    b.press(Button::Ok);
    (b, put)
}

fn by_tags(players: Players, historical: bool) -> NapoleonChoice {
    NapoleonChoice {
        tags: true,
        ..choice(players, historical)
    }
}

/// With readers under the board and each block's tag registered once, both armies are set
/// up in any order: each block is known by its tag, both armies are journaled and the game
/// starts with each block on the slot it was put on; the journal resumes it.
#[test]
fn a_set_up_by_tags_knows_each_block_by_its_tag() {
    let c = by_tags(Players::Two, true);
    let (b, put) = tagged_historical(c);
    assert!(b.session.game().is_some(), "{}", b.screen());
    for (id, slot) in put {
        assert_eq!(b.game().place_of(id), Some(slot));
    }
    let armies = b
        .records
        .iter()
        .filter(|r| matches!(r, Record::Army { .. }))
        .count();
    assert_eq!(armies, 2);
    let rebuilt = rebuild_table::<NapoleonTable>(c, &b.records).unwrap();
    assert_eq!(rebuilt.history.last(), b.session.game());
    // Three players: the two Allied armies are one table seat's, set up with the French.
    let (three, _) = tagged_historical(by_tags(Players::Three, true));
    assert!(three.session.game().is_some(), "{}", three.screen());
    // The layout read by tags has a reader under every place.
    assert!(!NapoleonTable::layout(c).tag_readers.is_empty());
    assert!(NapoleonTable::layout(choice(Players::Two, true))
        .tag_readers
        .is_empty());
}

/// Each block's slot for a players' own set-up: each in the first town of its army's set-up
/// area with room under the cap, but (with `crowd`) the first five Anglo-Dutch blocks in
/// Brussel.
fn own_slots(c: NapoleonChoice, crowd: bool) -> Vec<(BlockId, Place)> {
    let oob = c.campaign().order_of_battle();
    let map = c.campaign().map();
    let bru = town(c, "BRU");
    let mut count: std::collections::BTreeMap<TownId, usize> = Default::default();
    let mut ad = 0;
    let mut out = Vec::new();
    for (id, bl) in oob.blocks() {
        let cap = if bl.army.is_allied() { 4 } else { 12 };
        let t = if crowd && bl.army == Army::AngloDutch && ad < 5 {
            ad += 1;
            bru
        } else {
            map.set_up_area(bl.army)
                .find(|t| {
                    count.get(t).copied().unwrap_or(0) < cap.min(c.layout().town(*t).len())
                        && !(crowd && *t == bru)
                })
                .unwrap()
        };
        let k = count.entry(t).or_default();
        out.push((id, c.layout().town(t)[*k]));
        *k += 1;
    }
    out
}

/// A set-up by tags is checked at OK with every problem listed, each with its fix, naming
/// the slot and never the block on it: a block outside its army's set-up area, two tags of
/// one block, a tag of no Napoléon block, the blocks not placed; then, once every block
/// stands where it may, the rules' caps. A tag registered to nothing is named at once.
#[test]
fn a_set_up_by_tags_lists_every_problem_naming_slots_only() {
    let c = by_tags(Players::Two, false);
    let names = block_names(c);
    let mut b = Bench::by_tags(c);
    let oob = c.campaign().order_of_battle();
    // An unknown tag: named at once.
    let bru = c.layout().town(town(c, "BRU"));
    let out = b.put_tagged(bru[0], TagUid::new(&[0x04, 0xEE, 0xEE, 0xEE]).unwrap());
    assert!(
        out.iter()
            .any(|d| matches!(d, Decision::TagProblem(m) if m.contains("not registered"))),
        "{out:?}"
    );
    b.lift(bru[0]);
    // The first Anglo-Dutch block in a French town.
    let mut ads = oob.army(Army::AngloDutch).map(|(id, _)| id);
    let (ad, ad2) = (ads.next().unwrap(), ads.next().unwrap());
    let bea = c.layout().town(town(c, "BEA"));
    b.put_tagged(bea[0], block_tag(ad.index()));
    // The second read twice: its own tag and a second tag registered to it.
    let twin = TagUid::new(&[0x04, 0xB1, 0x0D, 0x00]).unwrap();
    b.registry.register_block(twin, &names[ad2.index()]);
    b.put_tagged(bru[1], block_tag(ad2.index()));
    b.put_tagged(bru[3], twin);
    // A Stratego piece's tag.
    let piece = TagUid::new(&[0x04, 0x5A, 0x01, 0x00]).unwrap();
    b.registry.register(
        piece,
        boards::stratego::Piece {
            owner: Seat::FIRST,
            rank: boards::stratego::Rank::Scout,
        },
    );
    b.put_tagged(bru[2], piece);
    let out = b.press(Button::Ok);
    let problems = out
        .iter()
        .find_map(|d| match d {
            Decision::SetupProblems(p) => Some(p.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{out:?}"));
    let all = problems.join(" | ");
    assert!(
        all.contains("Beaumont slot 1 is not an Anglo-Dutch town: move this block to one"),
        "{all}"
    );
    assert!(
        all.contains("Brussel slot 2 and Brussel slot 4: both tags are registered to one block"),
        "{all}"
    );
    assert!(
        all.contains("Brussel slot 3: tag 04:5A:01:00 is a Stratego piece's"),
        "{all}"
    );
    assert!(
        all.contains("no French block is placed: place all 24"),
        "{all}"
    );
    assert!(all.contains("are not placed: place them"), "{all}");
    // A problem that names a slot names no block.
    for p in problems.iter().filter(|p| p.contains(" slot ")) {
        assert!(names_in(p, &names).is_empty(), "{p}");
    }
    assert!(b.session.game().is_none());

    // Every block where it may stand but five Anglo-Dutch in Brussel: the cap (4.1).
    let mut b = Bench::by_tags(c);
    for (id, slot) in own_slots(c, true) {
        b.put_tagged(slot, block_tag(id.index()));
    }
    let out = b.press(Button::Ok);
    assert!(
        out.iter().any(|d| matches!(d, Decision::SetupProblems(p)
            if p.iter().any(|l| l.contains("5 blocks in Brussel (max 4)")))),
        "{out:?}"
    );
    assert!(b.session.game().is_none());
    // One taken out to another town: the game starts.
    let mut b = Bench::by_tags(c);
    for (id, slot) in own_slots(c, false) {
        b.put_tagged(slot, block_tag(id.index()));
    }
    b.press(Button::Ok);
    assert!(b.session.game().is_some(), "{}", b.screen());
}

/// In play, the tag read where a block is put down is checked against the move: a block
/// read as a block of another town is refused as not the one lifted, in words that name
/// slots only, and nothing is played.
#[test]
fn a_block_read_as_another_is_refused_naming_slots_only() {
    let c = by_tags(Players::Two, true);
    let names = block_names(c);
    let (mut b, _) = tagged_historical(c);
    let (block, from, to) = a_french_move(b.game());
    let town_from = b.game().town_of(&from);
    let other = c
        .blocks(FRENCH)
        .into_iter()
        .find(|id| {
            b.game()
                .place_of(*id)
                .is_some_and(|p| b.game().town_of(&p) != town_from)
        })
        .unwrap();
    b.lift(from);
    let out = b.put_tagged(to, block_tag(other.index()));
    assert!(
        out.iter().any(|d| matches!(d, Decision::WrongPiece { .. })),
        "{out:?}"
    );
    let screen = b.screen();
    assert!(screen.contains("is not the one lifted"), "{screen}");
    assert!(names_in(&screen, &names).is_empty(), "{screen}");
    assert_eq!(b.game().place_of(block), Some(from));
    // Its own tag read again (lifted and put back): the move is played.
    b.lift(to);
    let out = b.put_tagged(to, block_tag(block.index()));
    assert!(
        out.iter().any(|d| matches!(d, Decision::Acted { .. })),
        "{out:?}"
    );
    assert_eq!(b.game().place_of(block), Some(to));
}

/// The blocks of one town's slots are alike to the switches: a block lifted from a slot the
/// table gave another block of the town is known by its tag, and its move is played; the
/// town's other block is then asked for on the slot the table had the moved one on, naming
/// slots only.
#[test]
fn a_tag_tells_which_block_of_a_town_moved() {
    let c = by_tags(Players::Two, true);
    let names = block_names(c);
    let (mut b, _) = tagged_historical(c);
    let t = b.game().clone();
    // Two French blocks of one town, both able to make the same one-town move.
    let (x, y, dest) = c
        .blocks(FRENCH)
        .into_iter()
        .find_map(|x| {
            let home = t.game().town_of(x)?;
            c.blocks(FRENCH).into_iter().find_map(|y| {
                (y != x && t.game().town_of(y) == Some(home))
                    .then_some(())
                    .and_then(|()| {
                        t.game().legal_actions().into_iter().find_map(|a| match a {
                            Action::Move { block, path }
                                if block == x
                                    && path.len() == 1
                                    && t.game()
                                        .check(&Action::Move {
                                            block: y,
                                            path: path.clone(),
                                        })
                                        .is_ok() =>
                            {
                                Some((x, y, path[0]))
                            }
                            _ => None,
                        })
                    })
            })
        })
        .expect("two French blocks of a town with the same move");
    let (x_at, y_at) = (t.place_of(x).unwrap(), t.place_of(y).unwrap());
    let to = t.free_slots(dest)[0];
    // The hand lifts the block the table has on x's slot, but it is y (the two were swapped).
    b.lift(x_at);
    let out = b.put_tagged(to, block_tag(y.index()));
    assert!(
        out.iter().any(|d| matches!(d, Decision::Acted { .. })),
        "{out:?}"
    );
    assert_eq!(b.game().place_of(y), Some(to));
    assert_eq!(b.game().place_of(x), Some(x_at));
    // The switches show y's old slot filled and x's empty: the hands are asked to move it.
    let screen = b.screen();
    assert!(
        screen.contains(&format!("{}: put the French block", c.place_name(&x_at))),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("{}: take the piece off", c.place_name(&y_at))),
        "{screen}"
    );
    assert!(names_in(&screen, &names).is_empty(), "{screen}");
    b.lift(y_at);
    b.put(x_at);
    assert_eq!(b.sensed, b.game().occupied(), "{}", b.screen());
}

/// In a battle too the blocks of one reserve are alike to the switches: a deployment slide
/// from a reserve space whose tag names another block of that reserve is that block's own
/// deployment, and the tag refuses the block the table had on the space.
#[test]
fn a_tag_tells_which_block_of_a_reserve_deploys() {
    let t = to_deployment();
    let registry = block_registry(t.choice);
    let gestures = t.gestures();
    let slides: Vec<(Place, Place, BlockId, &NapoleonAction)> = gestures
        .iter()
        .filter_map(|(g, a)| match (g.lifted.as_slice(), g.placed.as_slice()) {
            ([from], [to]) => Some((*from, *to, a.moved()?.0, a)),
            _ => None,
        })
        .collect();
    let (from, to, x, y, theirs) = slides
        .iter()
        .find_map(|&(from, to, x, _)| {
            slides.iter().find_map(|&(at, dest, y, a)| {
                (y != x
                    && dest == to
                    && at != from
                    && t.same_area(&from, &at)
                    && t.army_of(x) == t.army_of(y))
                .then(|| (from, to, x, y, a.clone()))
            })
        })
        .expect("two blocks of a reserve that may deploy to the same space");
    assert!(matches!(
        t.choice.layout().spot(&from),
        Some(Spot::Reserve { .. })
    ));
    let tags = vec![(to, block_tag(y.index()))];
    let gesture = Gesture::slide(from, to);
    assert_eq!(
        t.tag_matching(&gesture, &tags, &registry),
        vec![(gesture.clone(), theirs.clone())]
    );
    assert!(t.fits_tags(&theirs, &tags, &registry));
    let own = t
        .matching(&gesture)
        .into_iter()
        .find(|(_, a)| a.moved().is_some_and(|(b, _)| b == x))
        .unwrap()
        .1;
    assert!(!t.fits_tags(&own, &tags, &registry));
    // Without a tag, or with the lifted block's own, nothing more is offered.
    assert!(t.tag_matching(&gesture, &[], &registry).is_empty());
    let mine = vec![(to, block_tag(x.index()))];
    assert!(t.tag_matching(&gesture, &mine, &registry).is_empty());
}

/// Every new wait of the rules is asked on the screen at once, naming who acts: after the
/// battle begins the terrain and the deployment (before, the told lines of what just happened
/// hid them until the next action), then each step of the battle fought to its end.
#[test]
fn every_new_wait_is_asked_on_the_screen_at_once() {
    let c = choice(Players::Two, true);
    let mut t = NapoleonTable::start(c, &historical_slots(c)).unwrap();
    let target = attacked_town(&t);
    let mut asked: Vec<String> = Vec::new();
    let mut prompt = t.prompt();
    let (mut moved, mut fought) = (0, false);
    for _ in 0..400 {
        let legal = t.game().legal_actions();
        let attack = legal
            .iter()
            .find(|a| matches!(a, Action::Move { path, .. } if path.as_slice() == [target]));
        let next = match (t.to_act(), attack) {
            (Actor::Chance, _) => t.chance()[0].0.clone(),
            (Actor::Seat(_), Some(action)) if moved < 6 => {
                moved += 1;
                NapoleonAction {
                    action: action.clone(),
                    slot: Some(t.free_slots(target)[0]),
                }
            }
            (Actor::Seat(_), _) if legal.contains(&Action::EndMoves) => {
                NapoleonAction::rules(Action::EndMoves)
            }
            (Actor::Seat(_), _) => match t.choices().first() {
                Some((_, a)) => a.clone(),
                None => t.gestures()[0].1.clone(),
            },
            (Actor::Nobody, _) => break,
        };
        fought |= t.game().battle().is_some();
        if fought && t.game().battle().is_none() {
            break;
        }
        let screen = t.play(&next);
        let Screen::Told { lines, .. } = &screen else {
            panic!("{screen:?}");
        };
        let waits = matches!(t.game().status(), Status::Ongoing)
            && (matches!(t.to_act(), Actor::Seat(_)) || t.die_button());
        let now = t.prompt();
        if waits && now != prompt {
            assert!(lines.contains(&now), "{now:?} not in {lines:?}");
            asked.push(now.clone());
        }
        // The prompt is said, never recorded as told.
        assert!(!t.told().contains(&now), "{:?}", t.told());
        prompt = now;
    }
    for step in ["French: put the terrain drawn", "Allies: deploy on board"] {
        assert!(
            asked.iter().any(|p| p.starts_with(step)),
            "{step}: {asked:?}"
        );
    }
}

/// The battle at Charleroi (held by the Prussian I corps, [`charleroi_held_by_the_first_corps`])
/// of table `t`, set up to its last block: four French blocks move in; the attacker's terrain
/// (anything but woods) on its left; the defender draws woods, placed on its left, and then
/// anything but woods, on its centre. The Prussians deploy PI-INF1 in the woods, PI-INF2 and
/// PI-INF3 on the centre and right and keep PI-ART in the reserve; the French set up a block
/// on each wing and keep the fourth in the reserve, the last block set up. The screen that
/// last block shows, and the blocks on the French wings.
fn deployed_at_charleroi(t: &mut NapoleonTable) -> (Screen, Vec<BlockId>) {
    use boards::napoleon::battle::{BattleAction, Place as Field, Side, Step, Wing, Zone};
    use boards::napoleon::TerrainKind;
    let c = t.choice;
    let oob = c.campaign().order_of_battle();
    let cha = town(c, "CHA");
    let french: Vec<(BlockId, Action)> = t
        .game()
        .legal_actions()
        .into_iter()
        .filter_map(|m| match &m {
            Action::Move { block, path } if path.as_slice() == [cha] => Some((*block, m)),
            _ => None,
        })
        .take(4)
        .collect();
    assert_eq!(french.len(), 4);
    for (_, m) in &french {
        let na = NapoleonAction {
            action: m.clone(),
            slot: Some(t.free_slots(cha)[0]),
        };
        t.check(&na).unwrap();
        t.play(&na);
    }
    t.play(&NapoleonAction::rules(Action::EndMoves));
    for _ in 0..30 {
        if t.game().battle().is_some() {
            break;
        }
        let next = match t.to_act() {
            Actor::Chance => t.chance()[0].0.clone(),
            _ => t.choices()[0].1.clone(),
        };
        t.play(&next);
    }
    let battle = |t: &NapoleonTable| t.game().battle().cloned().unwrap();
    assert!(!battle(t).is_skirmish());
    // The terrain: woods for the defender's first draw, never elsewhere.
    let mut draws = 0;
    let mut wings = [Wing::Left, Wing::Left, Wing::Centre].into_iter();
    while battle(t).step() == Step::Terrain {
        let next = match t.to_act() {
            Actor::Chance => {
                draws += 1;
                let woods = draws == 2;
                t.chance()
                    .into_iter()
                    .map(|(na, _)| na.action)
                    .find(|a| {
                        woods
                            == matches!(
                                a,
                                Action::Battle(BattleAction::DrawTerrain(TerrainKind::Woods))
                            )
                    })
                    .unwrap()
            }
            _ => Action::Battle(BattleAction::PlaceTerrain(wings.next().unwrap())),
        };
        t.play(&NapoleonAction::rules(next));
    }
    let at = |side, wing| Field::Zone(Zone::new(side, wing));
    let deploy = [
        ("PI-INF1", at(Side::Defender, Wing::Left)),
        ("PI-INF2", at(Side::Defender, Wing::Centre)),
        ("PI-INF3", at(Side::Defender, Wing::Right)),
        ("PI-ART", Field::Reserve),
    ]
    .map(|(name, to)| (oob.find(name).unwrap(), to))
    .into_iter()
    .chain([
        (french[0].0, at(Side::Attacker, Wing::Left)),
        (french[1].0, at(Side::Attacker, Wing::Centre)),
        (french[2].0, at(Side::Attacker, Wing::Right)),
        (french[3].0, Field::Reserve),
    ]);
    let mut screen = None;
    for (block, to) in deploy {
        assert_eq!(battle(t).step(), Step::Deployment);
        let na = NapoleonAction::rules(Action::Battle(BattleAction::Deploy { block, to }));
        t.check(&na)
            .unwrap_or_else(|why| panic!("{}: {why}", t.label(&na)));
        screen = Some(t.play(&na));
    }
    assert_eq!(battle(t).step(), Step::Fight);
    (
        screen.unwrap(),
        french[..3].iter().map(|(block, _)| *block).collect(),
    )
}

/// 6.2.4: "Vooraleer de slag begint maken beide spelers hun eenheden kenbaar (door ze plat te
/// leggen), behalve de eenheden die zich in bossen of in de reserve bevinden." (Before the
/// battle begins both players reveal their units by laying them flat, except those in woods
/// or in the reserve.) The last block set up begins the battle: its told screen says first,
/// whole on page 1, what the hands do, then names each block on a wing outside the woods,
/// with its type and strength, and no other (not the one in the woods, nor the reserves').
/// Under 6.2.4's option ("men kan ook alle eenheden pas zichtbaar maken van zodra ze vuren of
/// in gevechten verwikkeld zijn": units shown only once they fire or fight) it names none.
#[test]
fn the_end_of_deployment_tells_the_hands_to_lay_the_wing_blocks_flat() {
    let c = choice(Players::Two, false);
    let armies = charleroi_held_by_the_first_corps(c, ["PI-INF1", "PI-INF2", "PI-INF3", "PI-ART"]);
    let oob = c.campaign().order_of_battle();
    let name = |block: BlockId| oob.block(block).unwrap().name.clone();
    let mut t = NapoleonTable::start(c, &armies).unwrap();
    let (screen, french) = deployed_at_charleroi(&mut t);
    let Screen::Told { lines, .. } = &screen else {
        panic!("{screen:?}");
    };
    assert_eq!(lines.first().map(String::as_str), Some(battle::LAY_FLAT));
    assert!(whole_on_page_one(&screen, battle::LAY_FLAT), "{screen:?}");
    let text = crate::referee::screen_text(&screen);
    let mut named = names_in(&text, &block_names(c));
    named.sort();
    let mut wings: Vec<String> = french
        .iter()
        .map(|b| name(*b))
        .chain(["PI-INF2".to_string(), "PI-INF3".to_string()])
        .collect();
    wings.sort();
    assert_eq!(named, wings, "{text}");
    // Each named with its type and strength, as the public view now shows it.
    for block in french
        .iter()
        .copied()
        .chain(["PI-INF2", "PI-INF3"].map(|n| oob.find(n).unwrap()))
    {
        let b = oob.block(block).unwrap();
        let line = format!(
            "{}: {}, {}, strength {}",
            t.slot_words(block),
            b.name,
            b.kind,
            b.strength
        );
        assert!(lines.contains(&line), "no `{line}` in {lines:?}");
    }
    // Under the option nothing is laid flat, and nothing named.
    let mut t = revealed_on_contact(c, &armies);
    let (screen, _) = deployed_at_charleroi(&mut t);
    let text = crate::referee::screen_text(&screen);
    assert!(!text.contains(battle::LAY_FLAT), "{text}");
    assert_eq!(names_in(&text, &block_names(c)), Vec::<String>::new());
}
