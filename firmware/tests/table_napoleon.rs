//! Napoléon 1815 at the table, through raw sensed events: chosen from the game menu, set up
//! block by block, resumed after a restart on the files it began on; and random games played
//! by hand.
//!
//! The random games (`random_games_through_sensed_events_match_the_rules_and_keep_secrets`):
//! 50 seeded games per menu entry (two and three players, historical and own set-up), 200 in
//! all, played through raw sensed events only: the set-up block by block, group moves by
//! lifting a block and putting it on another town's slot, battles on the battle boards
//! (deploying and moving by slides, fire by select-then-lift, terrain put on its spot), Die
//! for every die the players roll, the OK menu where no gesture says the action (or one in
//! five times where both do), the menu's pick when the hands mean several actions, and the
//! hand steps the screen tells carried out (each place to change named on the screen first).
//! After every step the umpire's game must be a `boards::napoleon` game rebuilt from the set-up
//! and the actions journaled so far, each legal by the rules; at the end the journal must
//! rebuild the same table. Every screen of the game in play is audited: no name of a block the
//! public view of a battle does not show, no type or strength of one. Now and then a slide no
//! legal action makes is refused with nothing played, and put back; now and then a move is
//! carried on to another town, and the umpire corrects it (a takeback and the new move, which
//! the replay follows); once a game the umpire restarts from its journal and the sensed board
//! into the same game (mid-battle in about half). One game in ten is played to its end, the
//! others stop after 250 actions; about 53,000 actions, 2,500 battles, 4,800 refused slides and
//! 900 corrected moves, about 43 s of CPU in the test profile on the development machine,
//! spread over its cores (a sample of 4 per entry on the cross targets).
//! `UMPIRE_NAPOLEON_GAMES=N` plays N games per entry instead.
//!
//! With NFC, the game is set up by the blocks' registered tags and each move checked by the tag
//! read where the block lands.

#[allow(dead_code)]
mod support;

use std::collections::{BTreeMap, BTreeSet};

use boards::napoleon::battle::{BattleAction, BlockView};
use boards::napoleon::{
    Action, Army, BlockId, Event, Napoleon, Options, Placement, Players, Setup,
};
use boards::{Actor, Game as _, Seat};
use firmware::journal::MemStore;
use firmware::referee::games::napoleon::{
    NapoleonAction, NapoleonChoice, NapoleonSet, NapoleonTable, Spot, ALLIES, FRENCH,
    REVEAL_ON_CONTACT_NOTE,
};
use firmware::referee::table::{rebuild_table, Gesture, TableGame};
use firmware::referee::{
    screen_text, Chance, Decision, GameKind, Record, Referee, RefereeConfig, SeededChance,
};
use firmware::screens::page_count;
use firmware::sensing::{Button, Millis, Place};
use firmware::ui::Screen;
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
    choose_with(seed, variant, Nothing)
}

/// [`choose`], with the game's `checks` after every event.
fn choose_with<K: Checks<Game = NapoleonTable>>(
    seed: u64,
    variant: usize,
    checks: K,
) -> support::Table<SeededChance, K> {
    choose_configured(seed, variant, RefereeConfig::default(), checks)
}

/// [`choose_with`], the umpire started on `config`.
fn choose_configured<K: Checks<Game = NapoleonTable>>(
    seed: u64,
    variant: usize,
    config: RefereeConfig,
    checks: K,
) -> support::Table<SeededChance, K> {
    let layout = NapoleonTable::layout(menu_choice(variant))
        .validate()
        .expect("the layout is valid");
    let mut t = support::Table::at_the_menu(SeededChance::new(seed), layout, checks);
    t.referee = Referee::new(config, SeededChance::new(seed), || Ok(MemStore::new()));
    t.choose_game(firmware::referee::games::napoleon::TITLE, variant);
    t
}

/// Places `seat`'s blocks, one a group, each on a slot `roll` samples, OK after each; OK
/// again when the side's set-up waits to be checked.
fn set_up<K: Checks<Game = NapoleonTable>>(
    t: &mut support::Table<SeededChance, K>,
    choice: NapoleonChoice,
    seat: Seat,
    rng: &mut SeededChance,
) {
    let groups = sampled(choice, seat, rng);
    place_groups(t, seat, groups);
}

/// `seat`'s set-up as `rng` samples it: each block's slot, in group order.
fn sampled(choice: NapoleonChoice, seat: Seat, rng: &mut SeededChance) -> Vec<Vec<Place>> {
    NapoleonTable::sample_groups(choice, seat, &mut |n| rng.roll(n).unwrap_or(0))
        .expect("a set-up samples")
}

/// Places `groups` (`seat`'s, in group order), OK after each; OK again when the Allies'
/// set-up waits to be checked.
fn place_groups<K: Checks<Game = NapoleonTable>>(
    t: &mut support::Table<SeededChance, K>,
    seat: Seat,
    groups: Vec<Vec<Place>>,
) {
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

// ---- random games through raw sensed events ---------------------------------------------

/// The block names a text holds, as whole words ("I-INF1" is not in "PI-INF1").
fn names_in<'a>(text: &'a str, names: &BTreeSet<&str>) -> Vec<&'a str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| names.contains(w))
        .collect()
}

/// Whether `text` tells a block's type or strength: a unit type (not the campaign's leader
/// showing himself, or the prompt to choose whether he does), "strength 3", ", to 3".
fn tells_type_or_strength(text: &str) -> bool {
    let lower = text.to_lowercase();
    let typed = ["infantry", "cavalry", "artillery", "leader"]
        .iter()
        .any(|k| lower.contains(k))
        && ![
            "leader shows himself",
            "leader stays hidden",
            "show the leader",
        ]
        .iter()
        .any(|public| lower.contains(public));
    let b = lower.as_bytes();
    let strength = ["strength ", ", to "].iter().any(|k| {
        lower
            .match_indices(k)
            .any(|(i, _)| b.get(i + k.len()).is_some_and(u8::is_ascii_digit))
    });
    typed || strength
}

/// The blocks the whole table may know: those the public view of a battle begun shows.
fn revealed(game: &Napoleon) -> BTreeSet<BlockId> {
    game.battle()
        .into_iter()
        .chain(game.held_battles())
        .flat_map(|b| b.view(None).blocks)
        .filter_map(|b| match b {
            BlockView::Known { block, .. } => Some(block),
            BlockView::Hidden { .. } => None,
        })
        .collect()
}

/// Audits `screen`: it names no block of `names` but the `allowed` ones, and tells a type or
/// a strength only beside an allowed block's name (each told line on its own, as drawn
/// wrapped; any other screen as a whole). Whether it names an allowed block.
///
/// # Errors
/// What leaked, with the screen's text.
fn audit(
    screen: &Screen,
    names: &[(BlockId, String)],
    allowed: &BTreeSet<BlockId>,
) -> Result<bool, String> {
    let (open, hidden): (Vec<_>, Vec<_>) = names.iter().partition(|(id, _)| allowed.contains(id));
    let open: BTreeSet<&str> = open.iter().map(|(_, n)| n.as_str()).collect();
    let hidden: BTreeSet<&str> = hidden.iter().map(|(_, n)| n.as_str()).collect();
    let text = screen_text(screen);
    let leaked = names_in(&text, &hidden);
    if !leaked.is_empty() {
        return Err(format!(
            "the OLED names {leaked:?}, not revealed to the table: {text}"
        ));
    }
    let items: Vec<&str> = match screen {
        Screen::Told { title, lines, .. } => std::iter::once(title.as_str())
            .chain(lines.iter().map(String::as_str))
            .collect(),
        _ => vec![text.as_str()],
    };
    for item in items {
        if tells_type_or_strength(item) && names_in(item, &open).is_empty() {
            return Err(format!(
                "a type or strength of no revealed block: {item} (screen: {text})"
            ));
        }
    }
    Ok(!names_in(&text, &open).is_empty())
}

/// Every screen of the game in play audited: no name of a block the whole table may not know
/// (the public view of a battle shows it now, or showed it as the last action began: a told
/// line names a block as the action found it), and no type or strength but beside the name of
/// such a block.
#[derive(Default)]
struct Secrets {
    /// Every block name of the order of battle, by block.
    names: Vec<(BlockId, String)>,
    /// The actions played when `before` was last taken.
    actions: u32,
    /// The blocks revealed before the last action, and after it.
    before: BTreeSet<BlockId>,
    now: BTreeSet<BlockId>,
    /// Screens audited.
    screens: usize,
    /// Screens that named a revealed block.
    named: usize,
}

impl Checks for Secrets {
    type Game = NapoleonTable;

    fn after<C: Chance>(&mut self, referee: &Referee<MemStore, C>, _out: &[Decision]) {
        let Some(session) = session::<NapoleonTable, C>(referee) else {
            return;
        };
        let Some(table) = session.game() else {
            return;
        };
        if self.names.is_empty() {
            self.names = table
                .game()
                .options()
                .campaign
                .order_of_battle()
                .blocks()
                .map(|(id, b)| (id, b.name.clone()))
                .collect();
        }
        let actions = session.actions().unwrap_or(0);
        if actions != self.actions {
            self.before = std::mem::take(&mut self.now);
            self.actions = actions;
        }
        self.now = revealed(table.game());
        let allowed: BTreeSet<BlockId> = self.before.union(&self.now).copied().collect();
        let named =
            audit(referee.screen(), &self.names, &allowed).unwrap_or_else(|e| panic!("{e}"));
        self.screens += 1;
        self.named += usize::from(named);
    }
}

type Played = support::Table<SeededChance, Secrets>;

/// What the random games covered, to assert they are not trivial.
#[derive(Debug, Default)]
struct Coverage {
    games: usize,
    /// Steps at which a battle (no skirmish) past its deployment had a block on a wing
    /// without woods hidden from the table: only under 6.2.4's option.
    hidden_on_open_wings: usize,
    three_players: usize,
    own_set_up: usize,
    /// Actions journaled (the umpire's chance included).
    actions: usize,
    /// Seat actions made by a gesture on the board, and from the OK menu.
    by_hand: usize,
    by_menu: usize,
    /// Gestures whose hands meant several actions, the menu asking which.
    asked: usize,
    /// Dice rolled with the Die button.
    die_button: usize,
    /// Campaign moves, forced marches rolled.
    moves: usize,
    forced_marches: usize,
    /// Battles begun and ended.
    battles: usize,
    battles_ended: usize,
    /// Battle actions by kind.
    deployments: usize,
    fires: usize,
    hits_taken: usize,
    retreats: usize,
    reinforcements: usize,
    regroups: usize,
    supply_losses: usize,
    /// Terrain drawn in secret by the umpire.
    terrain_drawn: usize,
    /// Hand steps the hands carried out after an action.
    hand_steps: usize,
    /// Rules-legal actions the table offers no way to make (no free slot or space where the
    /// block would go: a full town, a full zone of the battle board), skipped for another.
    unexpressible: usize,
    /// Restarts mid-game, mid-battle among them: the referee resumed from its journal and
    /// the sensed board.
    restarts: usize,
    restarts_in_battle: usize,
    /// Moves corrected by carrying the slide on, and the takebacks journaled (one each).
    corrections: usize,
    takebacks: usize,
    /// Slides the rules refuse, made and put back: refused with nothing played.
    refused: usize,
    /// Screens audited, and those naming a revealed block.
    screens: usize,
    named: usize,
    /// Games ended, by result.
    endings: BTreeMap<String, usize>,
    /// Every action journaled, by kind.
    kinds: BTreeMap<String, usize>,
}

impl Coverage {
    /// Adds what `other` counted (games played elsewhere) to this count.
    fn add(&mut self, other: Coverage) {
        let Coverage {
            games,
            hidden_on_open_wings,
            three_players,
            own_set_up,
            actions,
            by_hand,
            by_menu,
            asked,
            die_button,
            moves,
            forced_marches,
            battles,
            battles_ended,
            deployments,
            fires,
            hits_taken,
            retreats,
            reinforcements,
            regroups,
            supply_losses,
            terrain_drawn,
            hand_steps,
            unexpressible,
            restarts,
            restarts_in_battle,
            corrections,
            takebacks,
            refused,
            screens,
            named,
            endings,
            kinds,
        } = other;
        for (mine, theirs) in [
            (&mut self.games, games),
            (&mut self.hidden_on_open_wings, hidden_on_open_wings),
            (&mut self.three_players, three_players),
            (&mut self.own_set_up, own_set_up),
            (&mut self.actions, actions),
            (&mut self.by_hand, by_hand),
            (&mut self.by_menu, by_menu),
            (&mut self.asked, asked),
            (&mut self.die_button, die_button),
            (&mut self.moves, moves),
            (&mut self.forced_marches, forced_marches),
            (&mut self.battles, battles),
            (&mut self.battles_ended, battles_ended),
            (&mut self.deployments, deployments),
            (&mut self.fires, fires),
            (&mut self.hits_taken, hits_taken),
            (&mut self.retreats, retreats),
            (&mut self.reinforcements, reinforcements),
            (&mut self.regroups, regroups),
            (&mut self.supply_losses, supply_losses),
            (&mut self.terrain_drawn, terrain_drawn),
            (&mut self.hand_steps, hand_steps),
            (&mut self.unexpressible, unexpressible),
            (&mut self.restarts, restarts),
            (&mut self.restarts_in_battle, restarts_in_battle),
            (&mut self.corrections, corrections),
            (&mut self.takebacks, takebacks),
            (&mut self.refused, refused),
            (&mut self.screens, screens),
            (&mut self.named, named),
        ] {
            *mine += theirs;
        }
        for (mine, theirs) in [(&mut self.endings, endings), (&mut self.kinds, kinds)] {
            for (key, n) in theirs {
                *mine.entry(key).or_default() += n;
            }
        }
    }
}

/// The journal's records from byte `pos` on: each frame's length (and its CRC), payload, CRC.
fn records_from(bytes: &[u8], pos: &mut usize) -> Vec<Record> {
    if *pos == 0 {
        // The header: magic, version, payload length, payload, CRC.
        let len = u32::from_le_bytes(bytes[6..10].try_into().unwrap()) as usize;
        *pos = 10 + len + 4;
    }
    let mut out = Vec::new();
    while *pos + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[*pos..*pos + 4].try_into().unwrap()) as usize;
        let payload = &bytes[*pos + 8..*pos + 8 + len];
        out.push(postcard::from_bytes::<Record>(payload).expect("a record decodes"));
        *pos += 8 + len + 4;
    }
    out
}

/// The rules' own game, rebuilt independently of the umpire from the set-up the hands made
/// and the actions it journals.
struct Replay {
    /// The game as the set-up starts it.
    start: Napoleon,
    game: Napoleon,
    /// Where the journal has been read to.
    pos: usize,
    /// The actions replayed.
    played: Vec<NapoleonAction>,
}

/// `seat`'s blocks in group order (the Anglo-Dutch then the Prussians, or the French) in the
/// towns of `slots`, at full strength: the set-up as the rules read it.
fn placements(choice: NapoleonChoice, seat: Seat, slots: &[Vec<Place>]) -> Vec<Placement> {
    let campaign = choice.set.campaign();
    let armies: &[Army] = if seat == FRENCH {
        &[Army::French]
    } else {
        &[Army::AngloDutch, Army::Prussian]
    };
    let blocks = armies
        .iter()
        .flat_map(|&a| campaign.order_of_battle().army(a));
    blocks
        .zip(slots)
        .map(|((_, b), group)| {
            let [slot] = group.as_slice() else {
                panic!("one block a group: {group:?}")
            };
            let Some(Spot::Town { town, .. }) = choice.set.layout().spot(slot) else {
                panic!("{slot} is a town's slot")
            };
            Placement::new(&b.name, campaign.map().code(town).unwrap(), b.strength)
        })
        .collect()
}

impl Replay {
    /// The game the rules start from `setup`.
    fn start(choice: NapoleonChoice, setup: Setup) -> Replay {
        let mut options = Options::new(choice.set.campaign().clone(), choice.players);
        options.battle.reveal_on_contact = choice.reveal_on_contact;
        let game = Napoleon::start(options, setup).expect("the rules accept the set-up");
        Replay {
            start: game.clone(),
            game,
            pos: 0,
            played: Vec::new(),
        }
    }

    /// Plays every action journaled since the last call by the rules (each must be legal),
    /// and checks the umpire's game is the rules' game; what the rules said.
    fn sync(&mut self, t: &Played, coverage: &mut Coverage) -> Vec<Event> {
        let bytes = t.referee.journal().expect("a journal").store().as_bytes();
        let mut events = Vec::new();
        for record in records_from(bytes, &mut self.pos) {
            let bytes = match record {
                Record::Action(bytes) => bytes,
                // A slide carried on corrects the last action: back, then the new one.
                Record::Takeback { to_ply } => {
                    self.played.truncate(to_ply as usize);
                    self.game = self.start.clone();
                    for a in &self.played {
                        self.game.play(&a.action).expect("replayed before");
                    }
                    coverage.takebacks += 1;
                    continue;
                }
                _ => continue,
            };
            let action: NapoleonAction = postcard::from_bytes(&bytes).expect("an action");
            if self.game.to_act() == Actor::Chance {
                if matches!(action.action, Action::Battle(BattleAction::DrawTerrain(_))) {
                    coverage.terrain_drawn += 1;
                }
                if matches!(action.action, Action::Die(_)) {
                    coverage.forced_marches += 1;
                }
            }
            let kind = format!("{:?}", action.action);
            let kind = kind
                .split([' ', '(', '{', ')'])
                .take(if kind.starts_with("Battle") { 2 } else { 1 })
                .collect::<Vec<_>>()
                .join(" ");
            *coverage.kinds.entry(kind).or_default() += 1;
            events.extend(
                self.game
                    .play(&action.action)
                    .unwrap_or_else(|e| panic!("the umpire played {action:?}, illegal: {e}")),
            );
            self.played.push(action);
        }
        let table = t.table();
        assert_eq!(
            self.played.len() as u32,
            t.actions(),
            "every action is journaled"
        );
        assert!(
            table.game() == &self.game,
            "the umpire's game is not the rules' game"
        );
        events
    }
}

/// Makes the board what the umpire expects, as its screen says: each place to empty or fill
/// is named on the screen first.
fn hands(t: &mut Played, choice: NapoleonChoice, coverage: &mut Coverage) {
    let expected: BTreeSet<Place> = t.table().board().into_keys().collect();
    let sensed = t.referee.sensed().clone();
    if expected == sensed {
        return;
    }
    let (layout, campaign) = (choice.set.layout(), choice.set.campaign());
    let text = t.text();
    let steps: Vec<Place> = sensed.symmetric_difference(&expected).copied().collect();
    for p in &steps {
        let name = layout.name(campaign, p).unwrap_or_else(|| p.to_string());
        assert!(
            text.contains(&name),
            "the hands must change {name}, which the screen does not say: {text}"
        );
    }
    t.match_board();
    coverage.hand_steps += steps.len();
    assert!(!t.referee.hands_pending(), "{}", t.text());
}

/// Makes `gesture` with the hands: the selected block lifted and put back, the blocks
/// lifted, the blocks placed, each settling; a gesture of lifts only held for the attack hold.
fn make(t: &mut Played, gesture: &Gesture) {
    if let Some(s) = gesture.selected {
        t.lift(s);
        t.settle();
        t.put(s);
        t.settle();
    }
    for l in &gesture.lifted {
        t.lift(*l);
        t.settle();
    }
    for p in &gesture.placed {
        t.put(*p);
        t.settle();
    }
    if gesture.placed.is_empty() {
        t.hold();
    }
}

/// A random action of the seat to act, by the rules, made by a gesture when the table has one
/// for it (mostly) or from the OK menu; what was chosen.
fn seat_step(t: &mut Played, replay: &Replay, rng: &mut SeededChance, c: &mut Coverage) -> Action {
    let legal = replay.game.legal_actions();
    let table = t.table().clone();
    let gestures = table.gestures();
    let choices = table.choices();
    // Weighted: battles fire, campaigns move, more often than they end the step.
    let weight = |a: &Action| -> u32 {
        match a {
            Action::Battle(BattleAction::Fire { .. }) => 40,
            Action::Battle(BattleAction::Retreat { .. }) => 1,
            Action::Battle(BattleAction::Done) | Action::EndMoves | Action::EndRegroup => 2,
            _ => 3,
        }
    };
    // A route longer than every block could take (one road at night, two by day) to a town a
    // shorter one reaches is not made at the table (the menu would tell the block's type
    // otherwise): not a candidate.
    let night = menu_choice(0)
        .set
        .campaign()
        .turn_track()
        .turn(replay.game.turn())
        .is_some_and(|t| t.night);
    let anyone = if night { 1 } else { 2 };
    let shorter = |a: &Action| match a {
        Action::Move { block, path } => {
            path.len() > anyone
                && legal.iter().any(|b| {
                    matches!(b, Action::Move { block: o, path: p }
                        if o == block && p.last() == path.last() && p.len() < path.len())
                })
        }
        _ => false,
    };
    let mut candidates: Vec<&Action> = legal.iter().filter(|a| !shorter(a)).collect();
    loop {
        assert!(
            !candidates.is_empty(),
            "no legal action can be made at the table: {legal:?}: {}",
            t.text()
        );
        let total: u32 = candidates.iter().map(|a| weight(a)).sum();
        let mut pick = rng.roll(total).unwrap();
        let i = candidates
            .iter()
            .position(|a| {
                let w = weight(a);
                if pick < w {
                    true
                } else {
                    pick -= w;
                    false
                }
            })
            .unwrap();
        let action = candidates.swap_remove(i);
        let by_gesture: Vec<&(Gesture, NapoleonAction)> = gestures
            .iter()
            .filter(|(_, na)| na.action == *action)
            .collect();
        // An entry the table refuses (a full zone of the battle board) cannot be made.
        let in_menu = choices
            .iter()
            .find(|(_, na)| na.action == *action && table.check(na).is_ok());
        let before = t.actions();
        if !by_gesture.is_empty() && (in_menu.is_none() || rng.roll(5).unwrap() > 0) {
            let (g, na) = by_gesture[rng.roll(by_gesture.len() as u32).unwrap() as usize];
            make(t, g);
            if t.actions() == before {
                // The same hands make several actions (two roads to one town): the menu asks.
                assert!(
                    matches!(t.referee.screen(), Screen::Choice { .. }),
                    "{action:?} by {g:?} not played: {}",
                    t.text()
                );
                t.pick(&table.label(na));
                c.asked += 1;
            } else if matches!(action, Action::Move { .. }) && rng.roll(10).unwrap() == 0 {
                carry_on(t, &gestures, g, rng, c);
            }
            c.by_hand += 1;
        } else if let Some((label, _)) = in_menu {
            t.choose_action(label);
            c.by_menu += 1;
        } else {
            c.unexpressible += 1;
            continue;
        }
        assert!(
            t.actions() > before,
            "{action:?} was not played: {}",
            t.text()
        );
        return action.clone();
    }
}

/// The hand lifts the block it just moved by `made` and puts it further, on a slot of another
/// town it could have gone to by one road (one of `gestures`, the legal ones before the move):
/// the umpire corrects the move, taking it back and playing the new one in its place.
fn carry_on(
    t: &mut Played,
    gestures: &[(Gesture, NapoleonAction)],
    made: &Gesture,
    rng: &mut SeededChance,
    c: &mut Coverage,
) {
    let further: Vec<&(Gesture, NapoleonAction)> = gestures
        .iter()
        .filter(|(h, _)| {
            h.lifted == made.lifted
                && h.placed != made.placed
                && gestures.iter().filter(|(k, _)| k == h).count() == 1
        })
        .collect();
    // Only straight after the move: a move whose hand steps are still to do (a block that
    // waited on a battle board for a slot of its town going to the one freed) is not
    // carried on before they are done.
    let expected: BTreeSet<Place> = t.table().board().into_keys().collect();
    if further.is_empty() || t.referee.sensed() != &expected {
        return;
    }
    let (h, other) = further[rng.roll(further.len() as u32).unwrap() as usize];
    let Action::Move { block, .. } = other.action else {
        return;
    };
    let played = t.actions();
    let mut out = t.lift(made.placed[0]);
    out.extend(t.settle());
    out.extend(t.put(h.placed[0]));
    out.extend(t.settle());
    assert!(
        out.iter()
            .any(|d| matches!(d, Decision::MoveCorrected { .. })),
        "carried on to {:?}: {}",
        h.placed,
        t.text()
    );
    assert_eq!(t.actions(), played, "a correction replaces the move");
    assert_eq!(t.table().place_of(block), other.slot, "{}", t.text());
    c.corrections += 1;
}

/// A slide no legal action makes: a block of the side to act lifted and put on a free space
/// of a town, zone or reserve no gesture of the table's goes to. The umpire must refuse it
/// (the screen audited like any other) and play nothing; the hands then put the block back.
/// Whether such a slide was found.
fn wrong_slide(
    t: &mut Played,
    choice: NapoleonChoice,
    replay: &Replay,
    rng: &mut SeededChance,
) -> bool {
    let table = t.table().clone();
    let Actor::Seat(seat) = table.to_act() else {
        return false;
    };
    let layout = choice.set.layout();
    let on_board = |p: &Place| {
        matches!(
            layout.spot(p),
            Some(Spot::Town { .. } | Spot::Zone { .. } | Spot::Reserve { .. })
        )
    };
    let occupied = table.board();
    let mine: Vec<Place> = table
        .sides()
        .into_iter()
        .filter(|(p, s)| {
            on_board(p)
                && (*s == seat
                    || (seat == ALLIES && *s == firmware::referee::games::napoleon::PRUSSIAN))
        })
        .map(|(p, _)| p)
        .collect();
    let free: Vec<Place> = t
        .layout
        .iter()
        .map(|(_, p)| p)
        .filter(|p| on_board(p) && !occupied.contains_key(p))
        .collect();
    if mine.is_empty() || free.is_empty() {
        return false;
    }
    let from = mine[rng.roll(mine.len() as u32).unwrap() as usize];
    let to = free[rng.roll(free.len() as u32).unwrap() as usize];
    // The block the last action put down, lifted again and put further, carries that slide
    // on: a correction, not a wrong slide.
    if replay.played.last().and_then(|a| a.slot) == Some(from) {
        return false;
    }
    // Not a legal gesture, nor a move the table reads from the same hands (another slot of a
    // town a legal move of the block goes to).
    let legal = table.gestures();
    let town = |p: &Place| match layout.spot(p) {
        Some(Spot::Town { town, .. }) => Some(town),
        _ => None,
    };
    if legal.iter().any(|(g, _)| {
        g.lifted == [from]
            && (g.placed == [to]
                || (town(&to).is_some() && g.placed.iter().any(|p| town(p) == town(&to))))
    }) {
        return false;
    }
    let before = t.actions();
    t.lift(from);
    t.settle();
    t.put(to);
    t.settle();
    t.wait(3500);
    assert_eq!(
        t.actions(),
        before,
        "{} to {} was played: {}",
        from,
        to,
        t.text()
    );
    assert!(
        t.table() == &table,
        "{from} to {to} changed the game: {}",
        t.text()
    );
    t.lift(to);
    t.settle();
    t.put(from);
    t.settle();
    let expected: BTreeSet<Place> = t.table().board().into_keys().collect();
    assert_eq!(t.referee.sensed(), &expected);
    assert!(!t.referee.hands_pending(), "{}", t.text());
    true
}

/// The game's options: players, set-up, and how many actions to play at most.
#[derive(Clone, Copy, Debug)]
struct Game {
    seed: u64,
    /// The menu's Napoléon entry: 0 two players historical, 1 own set-up, 2 and 3 the same
    /// with three players.
    variant: usize,
    max_actions: usize,
    /// The umpire configured with 6.2.4's option (`[napoleon] reveal_on_contact`).
    reveal_on_contact: bool,
}

/// Names the game being played when a check fails in it.
struct Failing(Game);

impl Drop for Failing {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("in the random game {:?}", self.0);
        }
    }
}

/// One random game through raw sensed events, checked against the rules after every step and
/// against its journal at the end; its table.
fn random_game(game: Game, c: &mut Coverage) -> Played {
    let _failing = Failing(game);
    let choice = NapoleonChoice {
        reveal_on_contact: game.reveal_on_contact,
        ..menu_choice(game.variant)
    };
    let mut rng = SeededChance::new(game.seed ^ 0x1815);
    let config = RefereeConfig {
        napoleon_reveal_on_contact: game.reveal_on_contact,
        ..RefereeConfig::default()
    };
    let mut t = choose_configured(game.seed, game.variant, config, Secrets::default());
    // The players are told of the option before they set up, and only then: the note whole,
    // on the one page of the set-up screen (pages turn on their own, and a player may miss
    // the one with the prompt).
    assert_eq!(
        t.text().contains(REVEAL_ON_CONTACT_NOTE),
        game.reveal_on_contact,
        "{}",
        t.text()
    );
    assert_eq!(page_count(t.referee.screen()), 1, "{}", t.text());
    let allies = sampled(choice, ALLIES, &mut rng);
    let french = sampled(choice, FRENCH, &mut rng);
    let setup = if choice.historical {
        Setup::Historical
    } else {
        c.own_set_up += 1;
        Setup::Placed {
            allies: placements(choice, ALLIES, &allies),
            french: placements(choice, FRENCH, &french),
        }
    };
    place_groups(&mut t, ALLIES, allies);
    place_groups(&mut t, FRENCH, french);
    assert!(t.session().and_then(|s| s.game()).is_some(), "{}", t.text());
    let mut replay = Replay::start(choice, setup);
    assert_eq!(t.table().game().options(), replay.game.options());
    c.games += 1;
    assert_eq!(
        t.table().game().options().battle.reveal_on_contact,
        game.reveal_on_contact
    );
    c.three_players += usize::from(choice.players == Players::Three);
    // Once, at a random point, the umpire restarts: the power cut, it resumes from its
    // journal and the board as sensed, into the same game, and play goes on.
    let restart_at = rng.roll(game.max_actions.min(300) as u32).unwrap() as usize;
    let mut restarted = false;
    loop {
        for e in replay.sync(&t, c) {
            match e {
                Event::BattleBegan { .. } => c.battles += 1,
                Event::BattleEnded { .. } => c.battles_ended += 1,
                _ => {}
            }
        }
        let hidden = hidden_on_open_wings(t.table().game());
        assert!(
            game.reveal_on_contact || hidden == 0,
            "without 6.2.4's option a block on an open wing is hidden: {}",
            t.text()
        );
        c.hidden_on_open_wings += hidden;
        hands(&mut t, choice, c);
        if !restarted && replay.played.len() >= restart_at && !t.referee.is_over() {
            restarted = true;
            let before = t.table().clone();
            let (referee, _) =
                t.restarted(SeededChance::new(game.seed ^ 0xdead), Millis(t.t + 1000));
            t.t += 1000;
            t.referee = referee;
            assert_eq!(t.table(), &before, "the game resumed is the game played");
            assert!(!t.referee.hands_pending(), "{}", t.text());
            c.restarts += 1;
            c.restarts_in_battle += usize::from(before.game().battle().is_some());
        }
        if !replay.game.status().is_ongoing() || replay.played.len() >= game.max_actions {
            break;
        }
        let before = replay.played.len();
        match replay.game.to_act() {
            Actor::Chance => {
                assert!(t.table().die_button(), "a die nobody rolls: {}", t.text());
                t.press(Button::Die);
                c.die_button += 1;
            }
            Actor::Seat(_) => {
                if rng.roll(8).unwrap() == 0 && wrong_slide(&mut t, choice, &replay, &mut rng) {
                    c.refused += 1;
                }
                let action = seat_step(&mut t, &replay, &mut rng, c);
                // The umpire journals the very action the hands made.
                let bytes = t.referee.journal().unwrap().store().as_bytes();
                let mut pos = replay.pos;
                let first = records_from(bytes, &mut pos)
                    .into_iter()
                    .find_map(|r| match r {
                        Record::Action(b) => {
                            Some(postcard::from_bytes::<NapoleonAction>(&b).unwrap())
                        }
                        _ => None,
                    });
                assert_eq!(
                    first.map(|a| a.action),
                    Some(action.clone()),
                    "{}",
                    t.text()
                );
                match action {
                    Action::Move { .. } => c.moves += 1,
                    Action::Regroup { .. } => c.regroups += 1,
                    Action::SupplyLoss(_) => c.supply_losses += 1,
                    Action::Battle(BattleAction::Deploy { .. } | BattleAction::Move { .. }) => {
                        c.deployments += 1
                    }
                    Action::Battle(BattleAction::Fire { .. }) => c.fires += 1,
                    Action::Battle(BattleAction::TakeHit(_)) => c.hits_taken += 1,
                    Action::Battle(BattleAction::Retreat { .. }) => c.retreats += 1,
                    Action::Battle(BattleAction::Reinforce(_)) => c.reinforcements += 1,
                    _ => {}
                }
            }
            Actor::Nobody => panic!("an ongoing game with nobody to act: {}", t.text()),
        }
        assert!(
            t.actions() as usize > before,
            "nothing was played: {}",
            t.text()
        );
    }
    c.actions += replay.played.len();
    if let Some((who, why)) = t.table().result() {
        assert!(t.referee.is_over(), "{}", t.text());
        assert!(
            matches!(t.referee.screen(), Screen::GameOver { .. }),
            "{}",
            t.text()
        );
        *c.endings.entry(format!("{who}: {why}")).or_default() += 1;
    }
    // The journal rebuilds the same game.
    let records = t.records();
    let rebuilt = rebuild_table::<NapoleonTable>(choice, &records).expect("the journal rebuilds");
    assert_eq!(rebuilt.history.last(), Some(t.table()));
    c.screens += t.checks.screens;
    c.named += t.checks.named;
    t
}

/// The blocks of the battles begun (no skirmish, past the deployment) that stand on a wing
/// without woods and are hidden from the table: none but under 6.2.4's option, which shows a
/// block only once it fires or fights.
fn hidden_on_open_wings(game: &Napoleon) -> usize {
    use boards::napoleon::battle::{Place as BattlePlace, Step};
    use boards::napoleon::TerrainKind;
    game.battle()
        .into_iter()
        .chain(game.held_battles())
        .map(|b| b.view(None))
        .filter(|v| !v.skirmish && !matches!(v.step, Step::Terrain | Step::Deployment))
        .map(|v| {
            let woods = |z| v.terrain.contains(&(z, TerrainKind::Woods));
            v.blocks
                .iter()
                .filter(|b| {
                    matches!(b, BlockView::Hidden { place: Some(BattlePlace::Zone(z)), .. } if !woods(*z))
                })
                .count()
        })
        .sum()
}

/// How many random games each of the four menu entries plays: `UMPIRE_NAPOLEON_GAMES` (per
/// entry) raises it.
fn games_per_entry(default: usize) -> usize {
    std::env::var("UMPIRE_NAPOLEON_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Random Napoléon games, two and three players, historical and own set-up, played through
/// raw sensed events only: each checked against the rules after every step, every screen
/// audited for a block the table may not know, and each journal rebuilt at the end.
#[test]
fn random_games_through_sensed_events_match_the_rules_and_keep_secrets() {
    let full = cfg!(target_arch = "x86_64");
    let per_entry = games_per_entry(if full { 50 } else { 4 });
    let games: Vec<(usize, usize)> = (0..4)
        .flat_map(|variant| (0..per_entry).map(move |i| (variant, i)))
        .collect();
    // Each game stands alone (its seed decides it), so they are spread over the cores.
    let mut c = Coverage::default();
    for part in support::spread(&games, |&(variant, i), c: &mut Coverage| {
        let seed = (variant * 10_000 + i) as u64;
        // One game in ten played on to its end; the others stop after a few turns.
        let to_the_end = i % 10 == 0;
        let t = random_game(
            Game {
                seed,
                variant,
                max_actions: if to_the_end { 20_000 } else { 250 },
                reveal_on_contact: false,
            },
            c,
        );
        assert!(
            !to_the_end || t.referee.is_over(),
            "seed {seed}: the game does not end: {}",
            t.text()
        );
    }) {
        c.add(part);
    }
    println!("{c:#?}");
    let games = c.games;
    assert_eq!(games, 4 * per_entry);
    assert_eq!(c.three_players, 2 * per_entry);
    assert_eq!(c.own_set_up, 2 * per_entry);
    // Every game played to its end ended (one stopped early may have ended too).
    assert!(c.endings.values().sum::<usize>() >= 4 * per_entry.div_ceil(10));
    assert_eq!(c.restarts, games);
    assert_eq!(c.takebacks, c.corrections);
    if !full {
        return;
    }
    // Not vacuous: about 270 actions and 13 battles a game; battles fought out with terrain,
    // fire and losses, not only skirmishes; seat actions by hand and from the menu; dice on
    // the Die button; hand steps after the actions; revealed blocks named on some screens.
    for (what, n, least) in [
        ("actions", c.actions, 100 * games),
        ("battles", c.battles, 5 * games),
        ("battles ended", c.battles_ended, 5 * games),
        ("terrain drawn", c.terrain_drawn, games / 4),
        ("fires", c.fires, games),
        ("hits taken", c.hits_taken, games / 2),
        ("deployments", c.deployments, 2 * games),
        ("reinforcements", c.reinforcements, games / 2),
        ("retreats", c.retreats, games),
        ("moves", c.moves, 20 * games),
        ("forced marches", c.forced_marches, 5 * games),
        ("by hand", c.by_hand, 50 * games),
        ("by menu", c.by_menu, 50 * games),
        ("menus asking which", c.asked, 5 * games),
        ("Die", c.die_button, 20 * games),
        ("hand steps", c.hand_steps, 50 * games),
        ("screens naming a revealed block", c.named, games),
        ("restarts in a battle", c.restarts_in_battle, games / 10),
        ("slides refused", c.refused, 5 * games),
        ("moves corrected", c.corrections, 2 * games),
    ] {
        assert!(n >= least, "{what}: {n} < {least}: {c:#?}");
    }
    // Almost every legal action can be made at the table (a longer route to a town a shorter
    // one reaches aside: see `seat_step`).
    assert!(c.unexpressible * 100 < c.actions, "{c:#?}");
}

/// With `[napoleon] reveal_on_contact` the Napoléon game chosen at the table is played under
/// 6.2.4's option: the set-up screens say so, the blocks on a battle's open wings stay hidden
/// until they fire or fight (the game above, without it, shows them all), no screen names a
/// block the table may not see, and a game resumed after a power cut on an umpire
/// configured without the option keeps it. Fails on the old code: the option was never
/// offered, every wing shown at the battle's start.
#[test]
fn the_configured_6_2_4_option_hides_blocks_until_contact_and_survives_a_restart() {
    let mut c = Coverage::default();
    for variant in 0..4 {
        for i in 0..2 {
            random_game(
                Game {
                    seed: (variant * 10_000 + 500 + i) as u64,
                    variant,
                    max_actions: 300,
                    reveal_on_contact: true,
                },
                &mut c,
            );
        }
    }
    // Each game restarted once on an umpire without the option (`restarted`: the default
    // settings), into the same game, the option kept.
    assert_eq!(c.restarts, 8);
    assert!(c.battles >= 8, "{c:#?}");
    assert!(c.hidden_on_open_wings > 0, "{c:#?}");
    assert!(c.screens > 0);
}

/// The audit fails on a leak: a hidden block's name anywhere on a screen, a type or strength
/// told of no revealed block; it passes the words the table may read.
#[test]
fn the_screen_audit_catches_a_hidden_block() {
    let campaign = NapoleonSet::shipped().campaign();
    let names: Vec<(BlockId, String)> = campaign
        .order_of_battle()
        .blocks()
        .map(|(id, b)| (id, b.name.clone()))
        .collect();
    let id = |name: &str| names.iter().find(|(_, n)| n == name).unwrap().0;
    let told = |lines: &[&str]| Screen::Told {
        status: firmware::ui::StatusLine::default(),
        title: "board 1 attacker left 1 fires at board 1 defender left".to_string(),
        lines: lines.iter().map(|l| l.to_string()).collect(),
        hands: Vec::new(),
        places: firmware::ui::Places::default(),
    };
    let nobody = BTreeSet::new();
    let revealed = BTreeSet::from([id("PI-INF1")]);
    let plain =
        told(&["1 hit: the Prussian in board 1 defender left: the strongest block takes each"]);
    assert_eq!(audit(&plain, &names, &nobody), Ok(false));
    let step = told(&["board 1 defender left 2: turn the block one step down"]);
    assert_eq!(audit(&step, &names, &nobody), Ok(false));
    // A name, whole words only: PI-INF1 revealed does not reveal I-INF1.
    let named = told(&["board 1 defender left 2 (PI-INF1): turn the block one step down, to 2"]);
    assert_eq!(audit(&named, &names, &revealed), Ok(true));
    assert!(audit(&named, &names, &nobody).is_err());
    let other = told(&["board 1 defender left 2 (I-INF1): turn the block one step down"]);
    assert!(audit(&other, &names, &revealed).is_err());
    // A strength or a type without a revealed name.
    for leak in [
        "board 1 defender left 2: turn the block one step down, to 2",
        "board 1 defender left 2: strength 3",
        "board 1 defender left 2: cavalry",
    ] {
        assert!(audit(&told(&[leak]), &names, &nobody).is_err(), "{leak}");
    }
    // Anywhere on the screen, not only in told lines.
    let menu = Screen::Choice {
        title: "Which?".to_string(),
        entries: vec!["WELLINGTON to Nijvel slot 1".to_string()],
        selected: 0,
        secret: false,
    };
    assert!(audit(&menu, &names, &revealed).is_err());
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

/// From the game menu: Napoléon chosen, its fifth entry (after the four set-ups by hand)
/// highlighted.
fn to_fifth_napoleon_entry(t: &mut Table) {
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
}

/// The Napoléon menu as the OLED shows it with its fifth entry highlighted (after the four
/// set-ups by hand), then back to the game menu.
fn napoleon_menu(t: &mut Table) -> String {
    to_fifth_napoleon_entry(t);
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
    to_fifth_napoleon_entry(&mut t);
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
