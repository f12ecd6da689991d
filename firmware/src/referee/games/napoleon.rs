//! Napoléon 1815 at the table: the [`TableGame`] adapter over [`boards::napoleon`], on the
//! physical board of a [`layout`] file.
//!
//! - **Seats**: the table seats are the two sides, the French ([`FRENCH`]) and the Allies
//!   ([`ALLIES`]); with three players the Allied side is two players, and every prompt names
//!   the player who acts (French, Anglo-Dutch, Prussian).
//! - **Set-up** by groups behind a screen, one block a group, the Allies first (4): "Anglo-Dutch:
//!   place WELLINGTON in a slot of an Anglo-Dutch town, then press OK". A slot outside the
//!   army's set-up area (4.1, 4.2), or over a town's set-up cap (4 Allied, 12 French), is
//!   refused the moment the block settles; the army is then
//!   checked against every set-up rule of the rules, every problem at once. The historical
//!   set-up (4.3) is a choice: each block to its historical town.
//! - **Group moves**: lift a block from a town's slot and put it on a free slot of another
//!   town; each block of a group one hand after another, each move played as soon as it is
//!   unambiguous. A slide offers the routes to its town every block could take (one road at
//!   night, two by day) or, further, the shortest (several: a menu); a longer one is not made
//!   at the table, since a block's type decides which longer routes it may take and the menu
//!   would tell it (3.2). A move the rules refuse (road limits,
//!   distance, command control, night) is refused at once with the reason and the fix. OK
//!   opens the menu: end the moves, the leader's choice.
//! - **Battles** on the layout's battle boards (`napoleon/battle.rs`): the blocks to the board's
//!   reserves with each hand's move told, terrain drawn in secret and told once placed,
//!   deployment, moves, retreats and reinforcements as slides, fire as select-then-lift, every
//!   other battle action from the OK menu named by slots, morale dice and volleys on the Die
//!   button, hits told where they go, eliminations to the tray, the blocks back to the map.
//!   Regrouping is a slide to a neighbouring town's slot; supply losses a menu entry.
//! - **Secrets**: the OLED never names a block on the map ("the block on Bergen slot 2"), nor a
//!   block of a battle the battle's public view hides; a revealed block on a wing may be named.
//!   Two picks are made unseen ([`TableGame::secret_choice`]): a skirmish's blocks (6.6), and a
//!   hit among blocks the firer cannot see (6.4, ruling R25), asked whether or not they tie.
//!   A hidden block's loss by type (a rout's, 7.4.1, or a retreat's from combat, 7) is never
//!   told, as it tells the type: the routing side is asked to take its losses, and each
//!   block's is on its owner's page ([`TableGame::seat_secrets`]).
//! - **6.2.4's option** (`[napoleon] reveal_on_contact`, [`NapoleonChoice::reveal_on_contact`]):
//!   a block on a wing is seen only once it fires or fights; said on every set-up screen and
//!   in the title, journaled in the header.
//!
//! - **NFC**: each block's tag registered once to it ([`TagRegistry::register_block`]).
//!   Set up by tags ([`NapoleonChoice::tags`], offered with readers configured), both armies
//!   go down in any order, each block known by its tag, every problem listed at OK naming the
//!   slot, never the block on it. In play the tag read where a block lands must be the moved
//!   block's ([`TableGame::fits_tags`]); a tag naming another block of the same town, reserve
//!   or zone (alike to the switches) makes that block's action ([`TableGame::tag_matching`]),
//!   the other block then asked for on the slot the table had the moved one on.
//!
//! Not yet: a battle's areas overflowing (a full reserve leaves blocks on the town's
//! slots), a third battle at once (played from the menu, its blocks on the town's slots).

mod battle;
pub mod layout;
#[cfg(test)]
mod tests;

pub use layout::{BattleBoard, LayoutProblems, NapoleonLayout, Spot, DEFAULT_LAYOUT};

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use boards::geometry::roads::TownId;
use boards::napoleon::battle::{BattleAction, Side};
use boards::napoleon::{
    Action, Army, BlockId, Campaign, Event, Illegal, Mover, Napoleon, Options, Placement, Players,
    Setup, SetupProblem, SupplyLoss, ALLIED_SET_UP_CAP, FRENCH_SET_UP_CAP,
};
use boards::{Actor, BySeat, Game, Seat, Status};
use serde::{Deserialize, Serialize};

use super::super::table::{Gesture, Group, Placing, TableGame, ToldMove};
use super::super::tags::{Registered, TagRegistry};
use crate::sensing::{LayoutSetup, Place, TagUid};
use crate::ui::{Screen, StatusLine};

/// The game's name.
pub const TITLE: &str = "Napoleon 1815";

/// What the set-up screens tell the players when the game is played with 6.2.4's option
/// (`[napoleon] reveal_on_contact`): in the fewest words that say it, so the longest set-up
/// instruction and the note fit one page of the OLED.
pub const REVEAL_ON_CONTACT_NOTE: &str = "6.2.4: blocks show on fire/combat";

/// The French side's table seat (the rules' seat 0).
pub const FRENCH: Seat = Seat::FIRST;
/// The Allied side's table seat: both Allied armies (the rules' seats 1 and, with three
/// players, 2).
pub const ALLIES: Seat = Seat::SECOND;
/// With three players, the Anglo-Dutch player's own view (the table seat [`ALLIES`]'s number,
/// the rules' seat 1).
pub const ANGLO_DUTCH: Seat = Seat::SECOND;
/// With three players, the Prussian player's own view: a seat beyond the table's two (the
/// rules' seat 2), asked for only by [`TableGame::page_seats`].
pub const PRUSSIAN: Seat = Seat::THIRD;

/// One data file of the table, as read: where from, and its whole text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapoleonFile {
    /// Where it was read, in words.
    pub source: String,
    /// Its whole text.
    pub text: String,
}

/// Which of the four data files a Napoléon table is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NapoleonFileKey {
    /// The strategic map (`[napoleon] map`; [`boards::napoleon::DEFAULT_MAP`]'s shape).
    Map,
    /// The order of battle (`[napoleon] order_of_battle`).
    OrderOfBattle,
    /// The turn track (`[napoleon] turns`).
    TurnTrack,
    /// The physical board (`[napoleon] layout`; [`DEFAULT_LAYOUT`]'s shape).
    Layout,
}

impl NapoleonFileKey {
    /// Every file, in the order they are read and reported.
    pub const ALL: [NapoleonFileKey; 4] = [
        NapoleonFileKey::Map,
        NapoleonFileKey::OrderOfBattle,
        NapoleonFileKey::TurnTrack,
        NapoleonFileKey::Layout,
    ];

    /// What the file holds, for messages.
    pub const fn what(self) -> &'static str {
        match self {
            NapoleonFileKey::Map => "Napoleon map",
            NapoleonFileKey::OrderOfBattle => "Napoleon order of battle",
            NapoleonFileKey::TurnTrack => "Napoleon turn track",
            NapoleonFileKey::Layout => "Napoleon layout",
        }
    }

    /// The configuration key that names the file in `[napoleon]`.
    pub const fn key(self) -> &'static str {
        match self {
            NapoleonFileKey::Map => "map",
            NapoleonFileKey::OrderOfBattle => "order_of_battle",
            NapoleonFileKey::TurnTrack => "turns",
            NapoleonFileKey::Layout => "layout",
        }
    }

    /// The shipped file's text.
    pub const fn shipped_text(self) -> &'static str {
        match self {
            NapoleonFileKey::Map => boards::napoleon::DEFAULT_MAP,
            NapoleonFileKey::OrderOfBattle => boards::napoleon::DEFAULT_ORDER_OF_BATTLE,
            NapoleonFileKey::TurnTrack => boards::napoleon::DEFAULT_TURN_TRACK,
            NapoleonFileKey::Layout => DEFAULT_LAYOUT,
        }
    }

    /// The shipped file, as read.
    pub fn shipped(self) -> NapoleonFile {
        NapoleonFile {
            source: format!("the shipped {}", self.what()),
            text: self.shipped_text().to_string(),
        }
    }

    /// The key of the campaign's own file kind.
    fn of(file: boards::napoleon::DataFile) -> NapoleonFileKey {
        match file {
            boards::napoleon::DataFile::Map => NapoleonFileKey::Map,
            boards::napoleon::DataFile::OrderOfBattle => NapoleonFileKey::OrderOfBattle,
            boards::napoleon::DataFile::TurnTrack => NapoleonFileKey::TurnTrack,
        }
    }
}

/// The four data files of a Napoléon table: the campaign's map, order of battle and turn track,
/// and the physical board's layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapoleonFiles {
    /// The strategic map.
    pub map: NapoleonFile,
    /// The order of battle; its start towns are on the map.
    pub order_of_battle: NapoleonFile,
    /// The turn track.
    pub turn_track: NapoleonFile,
    /// The physical board; its towns are on the map.
    pub layout: NapoleonFile,
}

impl NapoleonFiles {
    /// The shipped files.
    pub fn shipped() -> NapoleonFiles {
        NapoleonFiles {
            map: NapoleonFileKey::Map.shipped(),
            order_of_battle: NapoleonFileKey::OrderOfBattle.shipped(),
            turn_track: NapoleonFileKey::TurnTrack.shipped(),
            layout: NapoleonFileKey::Layout.shipped(),
        }
    }

    /// The file `key`.
    pub fn get(&self, key: NapoleonFileKey) -> &NapoleonFile {
        match key {
            NapoleonFileKey::Map => &self.map,
            NapoleonFileKey::OrderOfBattle => &self.order_of_battle,
            NapoleonFileKey::TurnTrack => &self.turn_track,
            NapoleonFileKey::Layout => &self.layout,
        }
    }

    /// The file `key`, to replace.
    pub fn get_mut(&mut self, key: NapoleonFileKey) -> &mut NapoleonFile {
        match key {
            NapoleonFileKey::Map => &mut self.map,
            NapoleonFileKey::OrderOfBattle => &mut self.order_of_battle,
            NapoleonFileKey::TurnTrack => &mut self.turn_track,
            NapoleonFileKey::Layout => &mut self.layout,
        }
    }

    /// Whether every file holds the same text as `other`'s (where each was read from does
    /// not matter).
    fn same_texts(&self, other: &NapoleonFiles) -> bool {
        NapoleonFileKey::ALL
            .iter()
            .all(|&k| self.get(k).text == other.get(k).text)
    }
}

/// Every problem of a Napoléon table's files: per file with problems, each problem's line
/// (from 1; 0 for the file as a whole) and what to do, in file then line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapoleonFileProblems(pub Vec<(NapoleonFileKey, Vec<(usize, String)>)>);

impl fmt::Display for NapoleonFileProblems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (key, problems)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}: {}", key.what(), LayoutProblems(problems.clone()))?;
        }
        Ok(())
    }
}

impl std::error::Error for NapoleonFileProblems {}

/// A campaign and the layout of its table, kept for the life of the process.
struct Kept {
    campaign: Arc<Campaign>,
    layout: NapoleonLayout,
    files: NapoleonFiles,
}

/// Every set of files read, kept for the life of the process.
static KEPT: Mutex<Vec<&'static Kept>> = Mutex::new(Vec::new());

/// The campaign (map, order of battle and turn track) and the table's layout the game is
/// played on. `Copy`, so the choice carries it.
#[derive(Clone, Copy)]
pub struct NapoleonSet(&'static Kept);

impl NapoleonSet {
    /// The default campaign on the shipped layout ([`DEFAULT_LAYOUT`]).
    ///
    /// # Panics
    /// Never: the shipped files are checked by this module's tests.
    pub fn shipped() -> NapoleonSet {
        static SHIPPED: OnceLock<Kept> = OnceLock::new();
        NapoleonSet(SHIPPED.get_or_init(|| {
            #[allow(clippy::expect_used)]
            let campaign = Campaign::standard().expect("the default campaign is checked");
            #[allow(clippy::expect_used)]
            let layout = NapoleonLayout::parse(DEFAULT_LAYOUT, &campaign)
                .expect("the shipped layout is checked");
            Kept {
                campaign: Arc::new(campaign),
                layout,
                files: NapoleonFiles::shipped(),
            }
        }))
    }

    /// The campaign and layout of `files`, checked against each other and kept for the life of
    /// the process (once, however often the same files are read).
    ///
    /// # Errors
    /// Every problem of every file, each with its line. The layout is checked against the map,
    /// so while the campaign's files hold problems the layout's own wait until they are fixed.
    pub fn read(files: NapoleonFiles) -> Result<NapoleonSet, NapoleonFileProblems> {
        let shipped = NapoleonSet::shipped();
        if files.same_texts(&shipped.0.files) {
            return Ok(shipped);
        }
        let mut kept = KEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(k) = kept.iter().find(|k| k.files.same_texts(&files)) {
            return Ok(NapoleonSet(k));
        }
        let campaign = if files.map.text == shipped.0.files.map.text
            && files.order_of_battle.text == shipped.0.files.order_of_battle.text
            && files.turn_track.text == shipped.0.files.turn_track.text
        {
            shipped.0.campaign.clone()
        } else {
            let campaign = Campaign::parse(
                &files.map.text,
                &files.order_of_battle.text,
                &files.turn_track.text,
            )
            .map_err(|problems| {
                let mut by_file: Vec<(NapoleonFileKey, Vec<(usize, String)>)> = Vec::new();
                for p in problems.0 {
                    let key = NapoleonFileKey::of(p.file);
                    let line = (p.problem.line, p.problem.message);
                    match by_file.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, list)) => list.push(line),
                        None => by_file.push((key, vec![line])),
                    }
                }
                by_file.sort_by_key(|(k, _)| NapoleonFileKey::ALL.iter().position(|a| a == k));
                for (_, list) in &mut by_file {
                    list.sort_by_key(|p| p.0);
                }
                NapoleonFileProblems(by_file)
            })?;
            Arc::new(campaign)
        };
        let layout = NapoleonLayout::parse(&files.layout.text, &campaign)
            .map_err(|p| NapoleonFileProblems(vec![(NapoleonFileKey::Layout, p.0)]))?;
        let k: &'static Kept = Box::leak(Box::new(Kept {
            campaign,
            layout,
            files,
        }));
        kept.push(k);
        Ok(NapoleonSet(k))
    }

    /// The campaign.
    pub fn campaign(self) -> &'static Campaign {
        &self.0.campaign
    }

    /// The layout.
    pub fn layout(self) -> &'static NapoleonLayout {
        &self.0.layout
    }

    /// The files it was read from.
    pub fn files(self) -> &'static NapoleonFiles {
        &self.0.files
    }
}

impl Default for NapoleonSet {
    fn default() -> NapoleonSet {
        NapoleonSet::shipped()
    }
}

impl PartialEq for NapoleonSet {
    fn eq(&self, other: &NapoleonSet) -> bool {
        std::ptr::eq(self.0, other.0) || self.0.files.same_texts(&other.0.files)
    }
}

impl Eq for NapoleonSet {}

impl fmt::Debug for NapoleonSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NapoleonSet({})", self.0.files.layout.source)
    }
}

impl std::hash::Hash for NapoleonSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.files.layout.text.len().hash(state);
    }
}

/// What the menu chose: two or three players, the historical set-up or the players' own, on
/// the files the umpire was started with, with 6.2.4's option if `[napoleon]
/// reveal_on_contact` asked for it. The set is not in the header: a journal's first record is
/// the four files' texts ([`crate::referee::Record::Files`]), so a game resumes only on the
/// files it began on, and replays on them anywhere. The option is in the header (in the
/// set-up's byte, see `ChoiceWire`), so a game resumes with the option it began with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ChoiceWire", into = "ChoiceWire")]
pub struct NapoleonChoice {
    /// Two or three players.
    pub players: Players,
    /// Each block to its historical town (4.3) rather than where its owner chooses (4.1, 4.2).
    pub historical: bool,
    /// The campaign and layout (not journaled).
    #[serde(skip)]
    pub set: NapoleonSet,
    /// Set up by NFC tags registered to the blocks, every place read by a reader (not
    /// journaled here: the journal header's set-up mode says it).
    #[serde(skip)]
    pub tags: bool,
    /// 6.2.4's option ([`boards::napoleon::battle::BattleOptions::reveal_on_contact`]): a
    /// block on a battle's wing is seen only once it fires or is in combat. Journaled.
    #[serde(skip)]
    pub reveal_on_contact: bool,
    /// [`Options::every_leader_asked`]: on for every game begun from the menu; off for a
    /// journal written before it (its set-up byte lacks the bit), which resumes and replays
    /// as it was played. Journaled.
    #[serde(skip)]
    pub every_leader_asked: bool,
}

/// The journal encoding of a [`NapoleonChoice`] (postcard: a struct cannot grow a field
/// without breaking the header that holds it). `set_up`'s byte was the `historical` bool
/// before 6.2.4's option (0 or 1, the same bytes); bit 1 is the option, so a journal
/// written before it resumes with the option off, and a game without it writes the bytes
/// it always did. Bit 2 is [`NapoleonChoice::every_leader_asked`], set in every game begun
/// since: a journal written before it resumes with the leader asked as it was then.
#[derive(Serialize, Deserialize)]
#[serde(rename = "NapoleonChoice")]
struct ChoiceWire {
    players: Players,
    set_up: u8,
}

/// [`ChoiceWire::set_up`]'s bit for the historical set-up.
const HISTORICAL: u8 = 1;
/// [`ChoiceWire::set_up`]'s bit for 6.2.4's option.
const REVEAL_ON_CONTACT: u8 = 2;
/// [`ChoiceWire::set_up`]'s bit for [`NapoleonChoice::every_leader_asked`].
const EVERY_LEADER_ASKED: u8 = 4;

impl From<NapoleonChoice> for ChoiceWire {
    fn from(c: NapoleonChoice) -> ChoiceWire {
        let bit = |on: bool, bit: u8| if on { bit } else { 0 };
        ChoiceWire {
            players: c.players,
            set_up: bit(c.historical, HISTORICAL)
                | bit(c.reveal_on_contact, REVEAL_ON_CONTACT)
                | bit(c.every_leader_asked, EVERY_LEADER_ASKED),
        }
    }
}

impl TryFrom<ChoiceWire> for NapoleonChoice {
    type Error = String;

    fn try_from(w: ChoiceWire) -> Result<NapoleonChoice, String> {
        if w.set_up & !(HISTORICAL | REVEAL_ON_CONTACT | EVERY_LEADER_ASKED) != 0 {
            return Err(format!(
                "a Napoleon set-up of {:#04x}, which this build does not know",
                w.set_up
            ));
        }
        Ok(NapoleonChoice {
            players: w.players,
            historical: w.set_up & HISTORICAL != 0,
            set: NapoleonSet::shipped(),
            tags: false,
            reveal_on_contact: w.set_up & REVEAL_ON_CONTACT != 0,
            every_leader_asked: w.set_up & EVERY_LEADER_ASKED != 0,
        })
    }
}

impl fmt::Debug for NapoleonChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("NapoleonChoice");
        d.field("players", &self.players)
            .field("historical", &self.historical)
            .field("set", &self.set);
        // Set up by tags is the journal header's set-up mode, not the choice's: said only
        // when on, so a header reads as it always did.
        if self.tags {
            d.field("tags", &self.tags);
        }
        // 6.2.4's option, likewise only when on: the pinned Debug text of every journal
        // written before it (`tests/referee_schema.rs`) is unchanged.
        if self.reveal_on_contact {
            d.field("reveal_on_contact", &self.reveal_on_contact);
        }
        // On in every game begun since it came: said only then, as above.
        if self.every_leader_asked {
            d.field("every_leader_asked", &self.every_leader_asked);
        }
        d.finish()
    }
}

/// The menu's variants: two or three players, each with the historical set-up or the
/// players' own.
pub fn variants() -> Vec<(String, NapoleonChoice)> {
    let kind = |players, historical| NapoleonChoice {
        players,
        historical,
        set: NapoleonSet::shipped(),
        tags: false,
        reveal_on_contact: false,
        every_leader_asked: true,
    };
    vec![
        (
            "2 players, historical set-up".to_string(),
            kind(Players::Two, true),
        ),
        (
            "2 players, own set-up".to_string(),
            kind(Players::Two, false),
        ),
        (
            "3 players, historical set-up".to_string(),
            kind(Players::Three, true),
        ),
        (
            "3 players, own set-up".to_string(),
            kind(Players::Three, false),
        ),
    ]
}

/// `legal` with each block's moves to a town cut to the routes every block could take (one
/// road at night, 5.7; two by day, with a forced march for infantry and artillery, 5.3, 5.6)
/// and, when the town lies further, the shortest routes there: a slide offers those (the
/// "Which?" menu asks among several), and a longer route to a town a shorter one reaches is
/// not made at the table. Which longer routes are legal depends on how far the block may go
/// (5.3: its type), so neither the menu nor whether it opens tells the table what the block is
/// (3.2). Every other action is kept as it is.
fn table_routes(legal: Vec<Action>, night: bool) -> Vec<Action> {
    let anyone = if night { 1 } else { 2 };
    let mut shortest: BTreeMap<(BlockId, TownId), usize> = BTreeMap::new();
    for a in &legal {
        if let Action::Move { block, path } = a {
            if let Some(&to) = path.last() {
                let len = shortest.entry((*block, to)).or_insert(path.len());
                *len = (*len).min(path.len());
            }
        }
    }
    legal
        .into_iter()
        .filter(|a| match a {
            Action::Move { block, path } => {
                path.len() <= anyone
                    || path
                        .last()
                        .is_none_or(|to| shortest.get(&(*block, *to)) == Some(&path.len()))
            }
            _ => true,
        })
        .collect()
}

impl NapoleonChoice {
    /// The rules' options for this choice.
    fn options(self) -> Options {
        let mut options = Options {
            campaign: self.set.0.campaign.clone(),
            ..Options::new(self.set.campaign().clone(), self.players)
        };
        options.battle.reveal_on_contact = self.reveal_on_contact;
        options.every_leader_asked = self.every_leader_asked;
        options
    }

    fn campaign(self) -> &'static Campaign {
        self.set.campaign()
    }

    fn layout(self) -> &'static NapoleonLayout {
        self.set.layout()
    }

    /// The blocks `seat` sets up, in group order: the Allies' Anglo-Dutch then Prussian
    /// blocks, the French's own.
    fn blocks(self, seat: Seat) -> Vec<boards::napoleon::BlockId> {
        let armies: &[Army] = if seat == FRENCH {
            &[Army::French]
        } else {
            &[Army::AngloDutch, Army::Prussian]
        };
        let oob = self.campaign().order_of_battle();
        armies
            .iter()
            .flat_map(|&a| oob.army(a).map(|(id, _)| id))
            .collect()
    }

    /// A town's name on the map.
    fn town_name(self, town: TownId) -> &'static str {
        self.campaign().map().name(town).unwrap_or("?")
    }

    /// `place` as the players read it.
    fn place_name(self, place: &Place) -> String {
        self.layout()
            .name(self.campaign(), place)
            .unwrap_or_else(|| place.to_string())
    }
}

/// "a French town", "an Anglo-Dutch town", "a Prussian town".
fn area_words(army: Army) -> &'static str {
    match army {
        Army::French => "a French town",
        Army::AngloDutch => "an Anglo-Dutch town",
        Army::Prussian => "a Prussian town",
    }
}

/// The side's set-up cap in one town (4.1, 4.2).
const fn cap(army: Army) -> usize {
    if army.is_allied() {
        ALLIED_SET_UP_CAP
    } else {
        FRENCH_SET_UP_CAP
    }
}

/// One side's set-up: each block's slot, in group order. Journaled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NapoleonArmy {
    /// Each block's slot, in the side's group order.
    pub slots: Vec<Place>,
}

/// An action as the table plays it: the rules' action and, for a move, the slot the block was
/// put on. Journaled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NapoleonAction {
    /// The rules' action.
    pub action: Action,
    /// The slot a moved block stands on.
    pub slot: Option<Place>,
}

impl NapoleonAction {
    fn rules(action: Action) -> NapoleonAction {
        NapoleonAction { action, slot: None }
    }

    /// The block a hand moves and the slot it is put on: a move, a regrouping, or a battle's
    /// deployment, move, retreat or reinforcement made on the board.
    fn moved(&self) -> Option<(BlockId, Place)> {
        let block = match &self.action {
            Action::Move { block, .. } | Action::Regroup { block, .. } => *block,
            Action::Battle(
                BattleAction::Deploy { block, .. }
                | BattleAction::Move { block, .. }
                | BattleAction::Retreat { block, .. }
                | BattleAction::Reinforce(block),
            ) => *block,
            _ => return None,
        };
        Some((block, self.slot?))
    }
}

/// What the public view of the battle fought now shows of its blocks (those on the field or in
/// a reserve), taken as an action begins and as it ends ([`NapoleonTable::sight`]).
#[derive(Debug, Default)]
struct Sight {
    /// The battle's town; `None` when none is fought.
    town: Option<TownId>,
    /// The blocks the public view shows: the whole table knows their type.
    shown: BTreeSet<BlockId>,
    /// The blocks it hides.
    hidden: BTreeSet<BlockId>,
    /// Each side with a block it hides.
    hiding: BTreeSet<Side>,
}

/// What the table knew of a battle across one action: the words of the action are judged by
/// it, never by a battle the action began.
#[derive(Debug)]
struct Known {
    /// The blocks the public view showed before or after the action: their losses by type
    /// are told (their type is public).
    seen: BTreeSet<BlockId>,
    /// The sides that had a hidden block on the field as the action began, with their armies'
    /// names.
    hiding: Vec<(Side, String)>,
    /// The blocks of the same battle the action showed (hidden before it, shown after): the
    /// hands lay them flat (6.2.4).
    laid_flat: Vec<BlockId>,
    /// The blocks of the same battle the action hid again (shown before it, hidden after, as
    /// a block moved into woods or the reserve is): their owner may stand them up (6.2.4).
    stood_up: Vec<BlockId>,
}

impl Known {
    /// What the table knew across an action, from the public view before and after it;
    /// `hiding` names the before-sight's hiding sides, named as the action began (a battle's
    /// end forgets its armies).
    fn across(before: Sight, hiding: Vec<(Side, String)>, after: &Sight) -> Known {
        let same = before.town.is_some() && before.town == after.town;
        let (laid_flat, stood_up) = if same {
            (
                after
                    .shown
                    .iter()
                    .filter(|b| before.hidden.contains(b))
                    .copied()
                    .collect(),
                after
                    .hidden
                    .iter()
                    .filter(|b| before.shown.contains(b))
                    .copied()
                    .collect(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let mut seen = before.shown;
        seen.extend(after.shown.iter().copied());
        Known {
            seen,
            hiding,
            laid_flat,
            stood_up,
        }
    }
}

/// A hidden block's loss by its type (7.4.1) in one action: its owner's secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SecretLoss {
    /// The block.
    block: BlockId,
    /// The steps it lost.
    steps: usize,
    /// Its strength after them.
    strength: u8,
}

impl SecretLoss {
    /// The block.
    fn block(&self) -> BlockId {
        self.block
    }
}

/// Napoléon at the table. See the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapoleonTable {
    choice: NapoleonChoice,
    game: Napoleon,
    /// Per block: the place it stands on (a town's slot, or its army's eliminated tray).
    at: Vec<Option<Place>>,
    /// What the last action told the table.
    told: Vec<String>,
    /// The blocks' moves those words ask of the hands, each from the place it leaves to the
    /// place it goes ([`TableGame::told_moves`]).
    told_moves: Vec<ToldMove>,
    /// Per battle board of the layout: the town of the battle fought on it.
    boards: Vec<Option<TownId>>,
    /// The last fire: where it aims, in words (named while its battle was fought), for its
    /// volley's words.
    shot: Option<String>,
    /// The hidden blocks' losses by type the last action made (a rout's, 7.4.1): each
    /// owner's page gives his own ([`TableGame::seat_secrets`]); the table is told none.
    secret_losses: Vec<SecretLoss>,
}

impl NapoleonTable {
    /// The rules' game (every secret: the umpire's eyes only).
    pub fn game(&self) -> &Napoleon {
        &self.game
    }

    /// The place block `block` stands on.
    pub fn place_of(&self, block: boards::napoleon::BlockId) -> Option<Place> {
        self.at.get(block.index()).copied().flatten()
    }

    fn block_on(&self, place: &Place) -> Option<boards::napoleon::BlockId> {
        let i = self.at.iter().position(|p| p.as_ref() == Some(place))?;
        self.choice
            .campaign()
            .order_of_battle()
            .blocks()
            .nth(i)
            .map(|(id, _)| id)
    }

    /// The slot `block` stood on in `before` (the places as the action began), as the players
    /// read it; "a block" when it stood nowhere.
    fn was_on(&self, before: &[Option<Place>], block: BlockId) -> String {
        before
            .get(block.index())
            .copied()
            .flatten()
            .map_or_else(|| "a block".to_string(), |p| self.choice.place_name(&p))
    }

    /// Whether the view of `seat` (a table seat, or with three players a page seat) holds
    /// `army`'s blocks' faces: the French seat the French; with two players the Allied seat
    /// both Allied armies; with three the Anglo-Dutch and the Prussian player each his own.
    fn views(&self, seat: Seat, army: Army) -> bool {
        match (army, self.choice.players) {
            (Army::French, _) => seat == FRENCH,
            (_, Players::Two) => seat == ALLIES,
            (Army::AngloDutch, Players::Three) => seat == ANGLO_DUTCH,
            (Army::Prussian, Players::Three) => seat == PRUSSIAN,
        }
    }

    /// The block of this order of battle whose registered tag was read last on `place`, of
    /// `tags` (each with the place it was read on).
    fn tagged_block(
        &self,
        tags: &[(Place, TagUid)],
        registry: &TagRegistry,
        place: &Place,
    ) -> Option<BlockId> {
        let (_, uid) = tags.iter().rev().find(|(p, _)| p == place)?;
        let name = registry.block(uid)?;
        self.choice.campaign().order_of_battle().find(name)
    }

    /// Whether `a` and `b` are slots of one area: one town, one zone or one reserve of a
    /// battle board, one army's tray.
    fn same_area(&self, a: &Place, b: &Place) -> bool {
        let layout = self.choice.layout();
        match (layout.spot(a), layout.spot(b)) {
            (Some(Spot::Town { town: x, .. }), Some(Spot::Town { town: y, .. })) => x == y,
            (
                Some(Spot::Zone {
                    board: x, zone: z, ..
                }),
                Some(Spot::Zone {
                    board: y, zone: w, ..
                }),
            ) => x == y && z == w,
            (
                Some(Spot::Reserve {
                    board: x, side: s, ..
                }),
                Some(Spot::Reserve {
                    board: y, side: t, ..
                }),
            ) => x == y && s == t,
            _ => false,
        }
    }

    fn army_of(&self, block: boards::napoleon::BlockId) -> Option<Army> {
        self.choice
            .campaign()
            .order_of_battle()
            .block(block)
            .map(|b| b.army)
    }

    /// Whether this turn is a night turn (5.7).
    fn night(&self) -> bool {
        self.choice
            .campaign()
            .turn_track()
            .turn(self.game.turn())
            .is_some_and(|t| t.night)
    }

    /// The free slots of `town`.
    fn free_slots(&self, town: TownId) -> Vec<Place> {
        self.choice
            .layout()
            .town(town)
            .iter()
            .filter(|p| !self.at.contains(&Some(**p)))
            .copied()
            .collect()
    }

    /// The army acting now, by the rules' seat: the French, or the Allied army whose player
    /// acts (with two players the Allied player: "Allies").
    fn acting(&self) -> &'static str {
        match self.game.to_act() {
            Actor::Seat(s) if s == Seat::FIRST => "French",
            Actor::Seat(s) if s == Seat::THIRD => "Prussian",
            Actor::Seat(_) => match self.choice.players {
                Players::Three => "Anglo-Dutch",
                Players::Two => "Allies",
            },
            Actor::Chance => "the umpire",
            Actor::Nobody => "nobody",
        }
    }

    /// Whether the rules wait for a player or for the Die button: the prompt then says who
    /// acts and what to do (terrain is drawn at once, with no button).
    fn waiting(&self) -> bool {
        matches!(self.game.status(), Status::Ongoing)
            && (matches!(self.game.to_act(), Actor::Seat(_)) || self.die_button())
    }

    /// The town a place is a slot of.
    fn town_of(&self, place: &Place) -> Option<TownId> {
        match self.choice.layout().spot(place)? {
            Spot::Town { town, .. } => Some(town),
            _ => None,
        }
    }

    /// The path a slide from `from` to `to` looks like: the shortest by road.
    /// The shortest route for `block` from `from` to `to` passing no town its enemy holds
    /// (the last town may be held: an attack), without `from`.
    fn clear_route(&self, block: BlockId, from: TownId, to: TownId) -> Option<Vec<TownId>> {
        let allied = self.army_of(block)?.is_allied();
        let enemy_held = |t: TownId| {
            self.game
                .blocks_in(t)
                .any(|b| self.army_of(b).is_some_and(|a| a.is_allied() != allied))
        };
        let path = self
            .choice
            .campaign()
            .map()
            .graph()
            .reach(from, u16::MAX, |_| true, |t| t == from || !enemy_held(t))
            .path(to)?;
        Some(path.into_iter().filter(|t| *t != from).collect())
    }

    fn shortest(&self, from: TownId, to: TownId) -> Option<Vec<TownId>> {
        let path = self
            .choice
            .campaign()
            .map()
            .graph()
            .shortest_path(from, to, |_| true)?;
        Some(path.into_iter().filter(|t| *t != from).collect())
    }

    /// What `events` of `action` tell the table, the blocks having stood on `before` when the
    /// action began (a block's slot is named as the hands found it), then each block the
    /// hands must move, from its slot to its new one (all but the one `action` moved, which
    /// the hands moved to its slot). `known`: what the table knew of the battle (the blocks
    /// the public view showed before or after the action, whose losses are told whatever they
    /// tell of the type; the sides that hid blocks on the field when it began). With the words, each move they ask of the hands, from the place the block leaves to
    /// the place it goes ([`TableGame::told_moves`]).
    fn told_events(
        &self,
        events: &[Event],
        before: &[Option<Place>],
        action: &NapoleonAction,
        known: &Known,
    ) -> (Vec<String>, Vec<ToldMove>) {
        let moved = action.moved();
        let mut out = Vec::new();
        let mut moves = Vec::new();
        let gestured = moved.map(|(b, _)| b);
        let was_on = |block: BlockId| self.was_on(before, block);
        let eliminated = |block: BlockId| {
            events
                .iter()
                .any(|e| matches!(e, Event::Eliminated { block: b, .. } if *b == block))
        };
        let mut battle_events = Vec::new();
        for e in events {
            match e {
                Event::TurnBegan { turn, mover, night } => {
                    // With three players the Allied turn is each Allied player's in turn: the
                    // one moving first is named.
                    let who = match (mover, self.game.to_act()) {
                        (Mover::Allies, Actor::Seat(_)) => self.acting().to_string(),
                        _ => format!("{mover:?}"),
                    };
                    out.push(format!(
                        "turn {turn}: {who} move{}",
                        if *night { ", night" } else { "" }
                    ));
                }
                Event::ForcedMarch { block, lost, .. } => {
                    let on = was_on(*block);
                    out.push(if !*lost {
                        format!("{on}: no loss")
                    } else if eliminated(*block) {
                        // Its last step: the block leaves the map for its army's tray.
                        let from = before.get(block.index()).copied().flatten();
                        let to = self.place_of(*block);
                        if let (Some(from), Some(to)) = (from, to) {
                            moves.push(ToldMove::Move { from, to });
                        }
                        let tray = to
                            .map_or_else(|| "its tray".to_string(), |p| self.choice.place_name(&p));
                        format!("{on}: the block's last step is lost: put it on {tray}")
                    } else {
                        format!("{on}: turn the block one step down")
                    });
                }
                // Told by the block's way to its army's tray: "Namen slot 1 to Prussian
                // eliminated 3" (a forced march's loss, a battle's, a supply loss, a defeat).
                Event::Eliminated { .. } => {}
                Event::Defeated(army) => out.push(format!(
                    "the {army} army is defeated (10): its blocks are eliminated"
                )),
                Event::Battle(_) => {}
                Event::BattleBegan { town, skirmish } => {
                    let what = if *skirmish { "skirmish" } else { "battle" };
                    let name = self.choice.town_name(*town);
                    out.push(match self.board_of(*town) {
                        Some(n) => format!(
                            "{what} at {name} on board {}: each side's blocks to its reserve",
                            n + 1
                        ),
                        None => format!(
                            "{what} at {name}: no free battle board: play it from the OK menu, \
                             the blocks staying on {name}'s slots"
                        ),
                    });
                }
                Event::BattleEnded { town, .. } => out.push(format!(
                    "the battle at {} is over: the blocks back to the map",
                    self.choice.town_name(*town)
                )),
                Event::SupplyCut { city, army, loss } => out.push(format!(
                    "{} is cut off: the {army} loses {loss}",
                    self.choice.town_name(*city)
                )),
                Event::BattlePending { town, skirmish } => out.push(format!(
                    "{} at {}",
                    if *skirmish { "skirmish" } else { "battle" },
                    self.choice.town_name(*town)
                )),
                Event::LeaderShown { army, town } => out.push(format!(
                    "the {army} leader shows himself at {}",
                    self.choice.town_name(*town)
                )),
                Event::Ended(reason) => out.push(reason.to_string()),
                _ => {}
            }
            if let Event::Battle(b) = e {
                battle_events.push(*b);
            }
        }
        // A battle's events in order, before the campaign's closing words.
        let ended = events.iter().find_map(|e| match e {
            Event::BattleEnded { town, .. } => Some(*town),
            _ => None,
        });
        // Where the hands left each block: the one moved by this gesture on its new slot.
        let mut held = before.to_vec();
        if let Some(at) = moved.and_then(|(b, slot)| held.get_mut(b.index()).map(|p| (p, slot))) {
            *at.0 = Some(at.1);
        }
        let battle_words =
            self.battle_told(&battle_events, before, &held, ended, &action.action, known);
        let at = out
            .iter()
            .position(|l| l.contains("is over: the blocks back"))
            .unwrap_or(out.len());
        out.splice(at..at, battle_words);
        // Each block the hands must still move, from where it stood to where it goes.
        let told: Vec<BlockId> = events
            .iter()
            .filter_map(|e| match e {
                Event::ForcedMarch {
                    block, lost: true, ..
                } => Some(*block),
                Event::Battle(boards::napoleon::battle::BattleEvent::Eliminated {
                    block, ..
                }) => Some(*block),
                _ => None,
            })
            .collect();
        // A block eliminated in the battle: told from where the hands left it to its tray.
        for e in &battle_events {
            if let boards::napoleon::battle::BattleEvent::Eliminated { block, .. } = *e {
                let from = held.get(block.index()).copied().flatten();
                if let (Some(from), Some(to)) = (from, self.place_of(block)) {
                    moves.push(ToldMove::Move { from, to });
                }
            }
        }
        // In the order of the places they start from, never in block order (which tells each
        // army's leader and corps).
        let oob = self.choice.campaign().order_of_battle();
        let mut steps: Vec<(Place, Place)> = Vec::new();
        for (id, _) in oob.blocks() {
            let (was, now) = (before.get(id.index()).copied().flatten(), self.place_of(id));
            if was == now || Some(id) == gestured || told.contains(&id) {
                continue;
            }
            if let (Some(was), Some(now)) = (was, now) {
                steps.push((was, now));
            }
        }
        steps.sort_by_key(|(was, _)| self.place_order(Some(was)));
        for (from, to) in steps {
            out.push(format!(
                "{} to {}",
                self.choice.place_name(&from),
                self.choice.place_name(&to)
            ));
            moves.push(ToldMove::Move { from, to });
        }
        (out, moves)
    }
}

impl TableGame for NapoleonTable {
    type Choice = NapoleonChoice;
    type Action = NapoleonAction;
    type Army = NapoleonArmy;

    const STACKS: bool = false;

    fn title(choice: NapoleonChoice) -> String {
        let players = match choice.players {
            Players::Two => "2 players",
            Players::Three => "3 players",
        };
        let setup = if choice.historical {
            ", historical"
        } else {
            ""
        };
        let option = if choice.reveal_on_contact {
            ", option 6.2.4"
        } else {
            ""
        };
        format!("{TITLE}, {players}{setup}{option}")
    }

    fn setup_note(choice: NapoleonChoice) -> Option<String> {
        choice
            .reveal_on_contact
            .then(|| REVEAL_ON_CONTACT_NOTE.to_string())
    }

    fn layout(choice: NapoleonChoice) -> LayoutSetup {
        let setup = choice.layout().setup();
        if choice.tags {
            setup.with_tag_readers_everywhere()
        } else {
            setup
        }
    }

    fn setup_order(_choice: NapoleonChoice) -> [Seat; 2] {
        // The Allies set up first (4).
        [ALLIES, FRENCH]
    }

    fn seat_name(seat: Seat) -> &'static str {
        if seat == FRENCH {
            "French"
        } else {
            "Allies"
        }
    }

    fn page_seats(choice: NapoleonChoice) -> Vec<(Seat, String)> {
        match choice.players {
            Players::Two => vec![
                (FRENCH, "French".to_string()),
                (ALLIES, "Allies".to_string()),
            ],
            // Each Allied player his own view (11): the rules' seats.
            Players::Three => vec![
                (FRENCH, "French".to_string()),
                (ANGLO_DUTCH, "Anglo-Dutch".to_string()),
                (PRUSSIAN, "Prussian".to_string()),
            ],
        }
    }

    fn group_actor(choice: NapoleonChoice, seat: Seat, group: usize) -> String {
        let oob = choice.campaign().order_of_battle();
        let army = choice
            .blocks(seat)
            .get(group)
            .and_then(|&id| oob.block(id))
            .map(|b| b.army);
        match (army, choice.players) {
            (Some(Army::French), _) => "French".to_string(),
            (Some(Army::Prussian), Players::Three) => "Prussian".to_string(),
            (Some(Army::AngloDutch), Players::Three) => "Anglo-Dutch".to_string(),
            _ => Self::seat_name(seat).to_string(),
        }
    }

    fn place_name(choice: NapoleonChoice, place: &Place) -> String {
        choice.place_name(place)
    }

    fn groups(choice: NapoleonChoice, seat: Seat) -> Vec<Group> {
        let oob = choice.campaign().order_of_battle();
        choice
            .blocks(seat)
            .into_iter()
            .filter_map(|id| oob.block(id))
            .map(|b| {
                let town = if choice.historical {
                    choice.town_name(b.start).to_string()
                } else {
                    area_words(b.army).to_string()
                };
                Group {
                    label: format!("{} ({}) in a slot of {town}", b.name, b.army),
                    count: 1,
                    min: 1,
                    counted: true,
                }
            })
            .collect()
    }

    fn may_place(
        choice: NapoleonChoice,
        seat: Seat,
        group: usize,
        place: &Place,
    ) -> Result<(), String> {
        let name = choice.place_name(place);
        let oob = choice.campaign().order_of_battle();
        let Some(block) = choice.blocks(seat).get(group).and_then(|&id| oob.block(id)) else {
            return Err(format!("{name}: no block to place now: take it off"));
        };
        let Some(Spot::Town { town, .. }) = choice.layout().spot(place) else {
            return Err(format!(
                "{name} is no town's slot: put the block beside a town of the map"
            ));
        };
        if choice.historical && town != block.start {
            return Err(format!(
                "{name}: historical set-up: put it in {}",
                choice.town_name(block.start)
            ));
        }
        let area = choice.campaign().map().info(town).map(|i| i.area);
        if area != Some(block.army) {
            return Err(format!(
                "{name} is not {}: set up there (4.1, 4.2)",
                area_words(block.army)
            ));
        }
        Ok(())
    }

    /// Each block on a free slot of a town chosen by `roll`: its historical town, or (own
    /// set-up) any town of its army's set-up area still under the side's cap.
    fn sample_groups(
        choice: NapoleonChoice,
        seat: Seat,
        roll: &mut dyn FnMut(u32) -> u32,
    ) -> Option<Vec<Vec<Place>>> {
        let oob = choice.campaign().order_of_battle();
        let layout = choice.layout();
        let map = choice.campaign().map();
        let exempt = choice.historical && choice.options().historical_exempt_from_caps;
        let side_cap = cap(if seat == FRENCH {
            Army::French
        } else {
            Army::AngloDutch
        });
        let mut used: BTreeSet<Place> = BTreeSet::new();
        let mut per_town: BTreeMap<TownId, usize> = BTreeMap::new();
        let mut groups = Vec::new();
        for id in choice.blocks(seat) {
            let block = oob.block(id)?;
            let towns: Vec<TownId> = if choice.historical {
                vec![block.start]
            } else {
                map.set_up_area(block.army).collect()
            };
            let open: Vec<TownId> = towns
                .into_iter()
                .filter(|t| exempt || per_town.get(t).copied().unwrap_or(0) < side_cap)
                .filter(|&t| layout.town(t).iter().any(|p| !used.contains(p)))
                .collect();
            if open.is_empty() {
                return None;
            }
            let town = open[roll(open.len() as u32) as usize % open.len()];
            let slot = *layout.town(town).iter().find(|p| !used.contains(p))?;
            used.insert(slot);
            *per_town.entry(town).or_default() += 1;
            groups.push(vec![slot]);
        }
        Some(groups)
    }

    fn may_place_among(choice: NapoleonChoice, at: &Placing<'_, Self>) -> Result<(), String> {
        Self::may_place(choice, at.seat, at.group, at.place)?;
        if choice.historical && choice.options().historical_exempt_from_caps {
            return Ok(());
        }
        let layout = choice.layout();
        let town = match layout.spot(at.place) {
            Some(Spot::Town { town, .. }) => town,
            _ => return Ok(()),
        };
        let army = if at.seat == FRENCH {
            Army::French
        } else {
            Army::AngloDutch
        };
        let already = at
            .earlier
            .iter()
            .filter(
                |(_, p)| matches!(layout.spot(p), Some(Spot::Town { town: t, .. }) if t == town),
            )
            .count();
        if already >= cap(army) {
            return Err(format!(
                "{} holds {} blocks at set-up (4.1, 4.2): use another town",
                choice.town_name(town),
                cap(army)
            ));
        }
        Ok(())
    }

    fn army(
        choice: NapoleonChoice,
        seat: Seat,
        filled: &[Vec<Place>],
    ) -> Result<NapoleonArmy, Vec<String>> {
        let blocks = choice.blocks(seat);
        let mut problems = Vec::new();
        let mut slots = Vec::new();
        let oob = choice.campaign().order_of_battle();
        for (i, id) in blocks.iter().enumerate() {
            let name = oob.block(*id).map_or("?", |b| b.name.as_str());
            match filled.get(i).map(Vec::as_slice) {
                Some([one]) => slots.push(*one),
                _ => problems.push(format!("{name} is not placed: place it")),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let army = NapoleonArmy { slots };
        // Every set-up rule of the rules, this side's blocks beside the other side's
        // historical set-up (which is checked by the rules' own tests).
        let mine = placements(choice, seat, &army);
        let other_seat = if seat == FRENCH { ALLIES } else { FRENCH };
        let other = historical_placements(choice, other_seat);
        let setup = if seat == FRENCH {
            Setup::Placed {
                allies: other,
                french: mine,
            }
        } else {
            Setup::Placed {
                allies: mine,
                french: other,
            }
        };
        match Napoleon::start(choice.options(), setup) {
            Ok(_) => Ok(army),
            Err(p) => {
                let side_of = |p: &SetupProblem| -> bool {
                    let block = match p {
                        SetupProblem::UnknownBlock(b)
                        | SetupProblem::Twice(b)
                        | SetupProblem::Missing(b) => b,
                        SetupProblem::UnknownTown { block, .. }
                        | SetupProblem::WrongList { block, .. }
                        | SetupProblem::WrongArea { block, .. }
                        | SetupProblem::NotFullStrength { block, .. } => block,
                        SetupProblem::TooMany { cap, .. } => {
                            return (*cap == ALLIED_SET_UP_CAP) == (seat == ALLIES)
                        }
                    };
                    oob.find(block)
                        .and_then(|id| oob.block(id))
                        .is_some_and(|b| b.army.is_allied() == (seat == ALLIES))
                };
                // The historical set-up stands as printed under the rules' ruling.
                let exempt = choice.historical && choice.options().historical_exempt_from_caps;
                let words: Vec<String> =
                    p.0.iter()
                        .filter(|p| side_of(p))
                        .filter(|p| !(exempt && matches!(p, SetupProblem::TooMany { .. })))
                        .map(|p| public_problem(choice, p))
                        .collect();
                if words.is_empty() {
                    Ok(army)
                } else {
                    Err(words)
                }
            }
        }
    }

    fn tag_setup(choice: NapoleonChoice) -> Option<u16> {
        u16::try_from(choice.campaign().order_of_battle().len()).ok()
    }

    /// Each block known by the tag read on its slot: every problem of the tags (a tag not
    /// registered, or registered to no block of this order of battle, one block read twice),
    /// of each block's town (a slot off the map, a town outside its army's set-up area or,
    /// historical, not its own town) and of each block missing; then, once every block stands
    /// where it may, every set-up rule of the rules (a town's cap). A problem names the slot,
    /// never the block on it.
    fn armies_from_tags(
        choice: NapoleonChoice,
        registry: &TagRegistry,
        read: &BTreeMap<Place, TagUid>,
    ) -> Result<BySeat<NapoleonArmy>, Vec<String>> {
        let oob = choice.campaign().order_of_battle();
        let layout = choice.layout();
        let mut problems = Vec::new();
        let mut slot_of: Vec<Option<Place>> = vec![None; oob.len()];
        for (at, uid) in read {
            let name = choice.place_name(at);
            let id = match registry.registered(uid) {
                Some(Registered::NapoleonBlock(block)) => match oob.find(block) {
                    Some(id) => id,
                    None => {
                        problems.push(format!(
                            "{name}: tag {uid} is registered to {block}, no block of this order \
                             of battle: register the tag again, or use another block"
                        ));
                        continue;
                    }
                },
                Some(Registered::Stratego(_)) => {
                    problems.push(format!(
                        "{name}: tag {uid} is a Stratego piece's: take it off, put a Napoleon \
                         block there"
                    ));
                    continue;
                }
                None => {
                    problems.push(format!(
                        "{name}: tag {uid} is not registered: lift the block and put it back, \
                         or register its tag"
                    ));
                    continue;
                }
            };
            let Some(block) = oob.block(id) else {
                continue;
            };
            if let Some(first) = slot_of[id.index()] {
                problems.push(format!(
                    "{} and {name}: both tags are registered to one block: take one off and \
                     register its tag to its own block",
                    choice.place_name(&first)
                ));
                continue;
            }
            slot_of[id.index()] = Some(*at);
            let Some(Spot::Town { town, .. }) = layout.spot(at) else {
                problems.push(format!(
                    "{name} is no town's slot: put the block in a slot of {}",
                    area_words(block.army)
                ));
                continue;
            };
            if choice.historical {
                if town != block.start {
                    problems.push(format!(
                        "{name}: historical set-up: this block starts in {}: move it there",
                        choice.town_name(block.start)
                    ));
                }
            } else if choice.campaign().map().info(town).map(|i| i.area) != Some(block.army) {
                problems.push(format!(
                    "{name} is not {}: move this block to one (4.1, 4.2)",
                    area_words(block.army)
                ));
            }
        }
        // The blocks not placed, an army a line (which is public: they are not on the map).
        for army in [Army::French, Army::AngloDutch, Army::Prussian] {
            let all: Vec<&str> = oob.army(army).map(|(_, b)| b.name.as_str()).collect();
            let missing: Vec<&str> = oob
                .army(army)
                .filter(|(id, _)| slot_of[id.index()].is_none())
                .map(|(_, b)| b.name.as_str())
                .collect();
            match missing.len() {
                0 => {}
                n if n == all.len() => problems.push(format!(
                    "no {army} block is placed: place all {n}, each in a slot of {}",
                    if choice.historical {
                        "its own town"
                    } else {
                        area_words(army)
                    }
                )),
                1 => problems.push(format!("{army} {} is not placed: place it", missing[0])),
                _ => problems.push(format!(
                    "{army} {} are not placed: place them",
                    missing.join(", ")
                )),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let armies = BySeat::from_fn(|seat| NapoleonArmy {
            slots: choice
                .blocks(seat)
                .iter()
                .filter_map(|id| slot_of[id.index()])
                .collect(),
        });
        if choice.historical && choice.options().historical_exempt_from_caps {
            // The historical set-up stands as the rules print it, over the caps (the rules'
            // ruling): each block in its own town is all it asks.
            return Ok(armies);
        }
        let setup = Setup::Placed {
            allies: placements(choice, ALLIES, &armies[ALLIES]),
            french: placements(choice, FRENCH, &armies[FRENCH]),
        };
        match Napoleon::start(choice.options(), setup) {
            Ok(_) => Ok(armies),
            Err(p) => Err(p.0.iter().map(|p| public_problem(choice, p)).collect()),
        }
    }

    fn army_places(army: &NapoleonArmy) -> Option<BTreeSet<Place>> {
        Some(army.slots.iter().copied().collect())
    }

    fn start(choice: NapoleonChoice, armies: &BySeat<NapoleonArmy>) -> Result<Self, Vec<String>> {
        let setup = if choice.historical {
            Setup::Historical
        } else {
            Setup::Placed {
                allies: placements(choice, ALLIES, &armies[ALLIES]),
                french: placements(choice, FRENCH, &armies[FRENCH]),
            }
        };
        let game = Napoleon::start(choice.options(), setup).map_err(|p| {
            p.0.iter()
                .map(|p| public_problem(choice, p))
                .collect::<Vec<_>>()
        })?;
        let oob = choice.campaign().order_of_battle();
        let mut at = vec![None; oob.len()];
        for seat in [ALLIES, FRENCH] {
            for (id, slot) in choice.blocks(seat).into_iter().zip(&armies[seat].slots) {
                if choice.layout().spot(slot).is_none() {
                    return Err(vec![format!("{slot} is no slot of the layout")]);
                }
                at[id.index()] = Some(*slot);
            }
        }
        if at.iter().any(Option::is_none) {
            return Err(vec!["a block has no slot: set up every block".to_string()]);
        }
        // A slot given twice, or a slot in another town than the rules have (historical).
        let distinct: BTreeSet<_> = at.iter().flatten().collect();
        if distinct.len() != at.len() {
            return Err(vec!["two blocks on one slot: one block a slot".to_string()]);
        }
        let table = NapoleonTable {
            choice,
            game,
            at,
            told: Vec::new(),
            told_moves: Vec::new(),
            boards: vec![None; choice.layout().boards().len()],
            shot: None,
            secret_losses: Vec::new(),
        };
        for (id, _) in oob.blocks() {
            let town = table.place_of(id).and_then(|p| table.town_of(&p));
            if town != table.game.town_of(id) {
                return Err(vec![format!(
                    "{}: not in its set-up town",
                    table
                        .place_of(id)
                        .map_or_else(String::new, |p| choice.place_name(&p))
                )]);
            }
        }
        Ok(table)
    }

    fn board(&self) -> BTreeMap<Place, String> {
        let oob = self.choice.campaign().order_of_battle();
        let layout = self.choice.layout();
        let mut board: BTreeMap<Place, String> = oob
            .blocks()
            .filter_map(|(id, b)| {
                let place = self.place_of(id)?;
                let words = if matches!(layout.spot(&place), Some(Spot::Eliminated { .. })) {
                    format!("eliminated {} block", b.army)
                } else {
                    format!("{} block", b.army)
                };
                Some((place, words))
            })
            .collect();
        board.extend(self.terrain_on_boards());
        board
    }

    fn seat_board(&self, seat: Seat) -> BTreeMap<Place, String> {
        let mut board = self.board();
        let oob = self.choice.campaign().order_of_battle();
        let layout = self.choice.layout();
        let in_battle = self.battle_strengths();
        for (id, b) in oob.blocks() {
            let own = self.views(seat, b.army);
            let Some(place) = self.place_of(id) else {
                continue;
            };
            if own && !matches!(layout.spot(&place), Some(Spot::Eliminated { .. })) {
                let strength = in_battle
                    .get(&id)
                    .copied()
                    .unwrap_or_else(|| self.game.strength_of(id));
                board.insert(place, format!("{} {strength}", b.name));
            }
        }
        board
    }

    fn sides(&self) -> BTreeMap<Place, Seat> {
        let oob = self.choice.campaign().order_of_battle();
        oob.blocks()
            .filter_map(|(id, b)| {
                let seat = match (b.army, self.choice.players) {
                    (Army::French, _) => FRENCH,
                    (Army::Prussian, Players::Three) => PRUSSIAN,
                    _ => ALLIES,
                };
                Some((self.place_of(id)?, seat))
            })
            .collect()
    }

    fn status_line(&self) -> StatusLine {
        StatusLine {
            turn: u32::from(self.game.turn()),
            clock: None,
            to_act: self.acting().to_string(),
            actions_left: None,
            reinforcements_in: None,
            elapsed_s: 0,
            limit_s: None,
        }
    }

    fn to_act(&self) -> Actor {
        match self.game.to_act() {
            Actor::Seat(s) if s == Seat::FIRST => Actor::Seat(FRENCH),
            Actor::Seat(_) => Actor::Seat(ALLIES),
            other => other,
        }
    }

    fn result(&self) -> Option<(String, String)> {
        match self.game.status() {
            Status::Won { reason, .. } => {
                let who = if reason.winner() == Army::French {
                    "French"
                } else {
                    "Allies"
                };
                Some((who.to_string(), reason.to_string()))
            }
            Status::Ongoing => None,
            _ => Some(("Draw".to_string(), "the game ended".to_string())),
        }
    }

    fn gestures(&self) -> Vec<(Gesture, NapoleonAction)> {
        if let Some(battle) = self.game.battle() {
            return self.battle_gestures(battle);
        }
        let mut out = Vec::new();
        for action in table_routes(self.game.legal_actions(), self.night()) {
            let (block, to) = match &action {
                Action::Move { block, path } => match path.last() {
                    Some(to) => (*block, *to),
                    None => continue,
                },
                Action::Regroup { block, to } => (*block, *to),
                _ => continue,
            };
            let Some(from) = self.place_of(block) else {
                continue;
            };
            for slot in self.free_slots(to) {
                out.push((
                    Gesture::slide(from, slot),
                    NapoleonAction {
                        action: action.clone(),
                        slot: Some(slot),
                    },
                ));
            }
        }
        out
    }

    fn matching(&self, gesture: &Gesture) -> Vec<(Gesture, NapoleonAction)> {
        if self.game.battle().is_some()
            || self
                .game
                .legal_actions()
                .iter()
                .any(|a| matches!(a, Action::EndRegroup))
        {
            // The default: the legal gestures with the gesture's places.
            return super::super::table::matching_gestures(self.gestures(), gesture);
        }
        let ([from], [to]) = (gesture.lifted.as_slice(), gesture.placed.as_slice()) else {
            return Vec::new();
        };
        let (Some(block), Some(town)) = (self.block_on(from), self.town_of(to)) else {
            return Vec::new();
        };
        if !self.free_slots(town).contains(to) {
            return Vec::new();
        }
        table_routes(self.game.legal_actions(), self.night())
            .into_iter()
            .filter(|a| matches!(a, Action::Move { block: b, path } if *b == block && path.last() == Some(&town)))
            .map(|action| {
                (
                    Gesture::slide(*from, *to),
                    NapoleonAction {
                        action,
                        slot: Some(*to),
                    },
                )
            })
            .collect()
    }

    fn in_hand(&self, place: &Place) -> bool {
        // Any block of the side moving may be lifted: which can move is not said by a lift.
        let Some(block) = self.block_on(place) else {
            return false;
        };
        let Some(army) = self.army_of(block) else {
            return false;
        };
        if let Some(battle) = self.game.battle() {
            // In a battle, any block of the army to act in it, or waiting to reinforce it.
            return battle.actor() == boards::napoleon::battle::BattleActor::Army(army)
                && (self.stands().contains_key(&block)
                    || battle
                        .view(Some(army))
                        .waiting
                        .iter()
                        .any(|(b, _)| *b == block));
        }
        self.game.town_of(block).is_some()
            && self
                .game
                .legal_actions()
                .iter()
                .any(|a| matches!(a, Action::EndMoves))
            && self.to_act() == Actor::Seat(if army.is_allied() { ALLIES } else { FRENCH })
    }

    fn choices(&self) -> Vec<(String, NapoleonAction)> {
        if let Some(battle) = self.game.battle() {
            return self.battle_choices(battle);
        }
        let mut entries: Vec<(String, NapoleonAction)> = self
            .game
            .legal_actions()
            .into_iter()
            .filter_map(|a| {
                let label = match &a {
                    Action::EndMoves => "end the moves".to_string(),
                    Action::ShowLeader(true) => "the leader shows himself".to_string(),
                    Action::ShowLeader(false) => "the leader stays hidden".to_string(),
                    Action::Fight(town) => format!("fight at {}", self.choice.town_name(*town)),
                    Action::EndRegroup => "end regrouping".to_string(),
                    Action::Regroup { .. } | Action::SupplyLoss(_) => {
                        self.label(&NapoleonAction::rules(a.clone()))
                    }
                    _ => return None,
                };
                Some((label, NapoleonAction::rules(a)))
            })
            .collect();
        // A block's entries in the order of the slots the blocks stand on, never in block
        // order (the order of battle lists each army's leader first, then corps by corps).
        entries.sort_by_cached_key(|(label, na)| match na.action {
            Action::Regroup { block, .. } | Action::SupplyLoss(block) => (
                1,
                self.place_order(self.place_of(block).as_ref()),
                label.clone(),
            ),
            _ => (0, self.place_order(None), String::new()),
        });
        entries
    }

    /// The block put down is the one whose registered tag was read on its slot, when one
    /// was: a block read as another is not the one the move lifted.
    fn fits_tags(
        &self,
        action: &NapoleonAction,
        tags: &[(Place, TagUid)],
        registry: &TagRegistry,
    ) -> bool {
        let Some((block, slot)) = action.moved() else {
            return true;
        };
        match self.tagged_block(tags, registry, &slot) {
            Some(read) => read == block,
            None => true,
        }
    }

    /// A block lifted from a slot and put on another is the block whose tag was read there,
    /// when the table had that block on another slot of the same area (a town, a reserve, a
    /// zone): the switches cannot tell an area's blocks apart, so hands that put them back
    /// after a battle, or swapped them, leave the same slots filled. Its action is the one
    /// its own slide would make, when the rules allow it; the area's other block is then
    /// expected on the slot the table had the moved one on.
    fn tag_matching(
        &self,
        gesture: &Gesture,
        tags: &[(Place, TagUid)],
        registry: &TagRegistry,
    ) -> Vec<(Gesture, NapoleonAction)> {
        let ([from], [to]) = (gesture.lifted.as_slice(), gesture.placed.as_slice()) else {
            return Vec::new();
        };
        let (Some(read), Some(lifted)) =
            (self.tagged_block(tags, registry, to), self.block_on(from))
        else {
            return Vec::new();
        };
        let Some(read_at) = self.place_of(read) else {
            return Vec::new();
        };
        if read == lifted
            || self.army_of(read) != self.army_of(lifted)
            || !self.same_area(from, &read_at)
        {
            return Vec::new();
        }
        self.matching(&Gesture::slide(read_at, *to))
            .into_iter()
            .filter(|(_, a)| a.moved().is_some_and(|(b, _)| b == read))
            .map(|(_, a)| (Gesture::slide(*from, *to), a))
            .collect()
    }

    /// A skirmish's pick (6.6): the players choose which blocks they show, each side unseen
    /// by the other until both have chosen, so the chooser's menu is secret. And a hit among
    /// blocks hidden from the firer (6.4, ruling R25): its owner places it whether one block is
    /// strongest or several tie, and which he may choose is his alone.
    fn secret_choice(&self) -> bool {
        use boards::napoleon::battle::{BattleActor, Step};
        self.game.battle().is_some_and(|b| {
            matches!(b.actor(), BattleActor::Army(_))
                && match b.step() {
                    Step::SkirmishReveal => true,
                    Step::Losses => b.hit_among_hidden(),
                    _ => false,
                }
        })
    }

    fn held(&self, action: &NapoleonAction) -> bool {
        // A shot lifts an enemy block.
        matches!(action.action, Action::Battle(BattleAction::Fire { .. }))
    }

    fn shaped(&self, gesture: &Gesture) -> Vec<NapoleonAction> {
        if let Some(battle) = self.game.battle() {
            return self.battle_shaped(battle, gesture);
        }
        let ([from], [to]) = (gesture.lifted.as_slice(), gesture.placed.as_slice()) else {
            return Vec::new();
        };
        let (Some(block), Some(town), Some(start)) =
            (self.block_on(from), self.town_of(to), self.town_of(from))
        else {
            return Vec::new();
        };
        // The route the hands most likely meant: the shortest passing no town the enemy
        // holds (a public fact), else the shortest; so a move refused is refused for the
        // reason of the route the player had in mind (the night, a full road), not for an
        // enemy town on another route.
        let Some(path) = self
            .clear_route(block, start, town)
            .or_else(|| self.shortest(start, town))
        else {
            return Vec::new();
        };
        vec![NapoleonAction {
            action: Action::Move { block, path },
            slot: Some(*to),
        }]
    }

    fn check(&self, action: &NapoleonAction) -> Result<(), String> {
        if let Action::Battle(a) = &action.action {
            self.battle_check(a, action.slot)?;
        }
        self.game.check(&action.action).map_err(|why| {
            // How far a block may go tells its type (5.3), which only its owner may know: the
            // table hears that it is too far, never how far it could go.
            // At night every block is held to its normal distance (5.7), which is the same
            // words for every block: the refusal may say so without telling the type.
            if matches!(why, Illegal::TooFar { .. }) {
                return if self.night() {
                    "too far for this block: no forced marches at night: stop nearer, or put it \
                     back"
                } else {
                    "too far for this block: stop nearer, or put it back"
                }
                .to_string();
            }
            let fix = match &why {
                Illegal::NoAttackAtNight => ": put it back",
                Illegal::CommandControl | Illegal::NotYourBlock | Illegal::AlreadyMoved => {
                    ": put it back"
                }
                // A river halves what one road may carry into an attack (5.5): the block can
                // still attack by another road, or wait.
                Illegal::RiverLimit { .. } => ": put it back, or attack by another road",
                Illegal::NoGroupLeft { .. } => "",
                _ => "",
            };
            format!("{why}{fix}")
        })?;
        let fits = match (&action.action, action.slot) {
            (Action::Move { path, .. }, Some(slot)) => {
                self.town_of(&slot) == path.last().copied() && !self.at.contains(&Some(slot))
            }
            (Action::Regroup { to, .. }, Some(slot)) => {
                self.town_of(&slot) == Some(*to) && !self.at.contains(&Some(slot))
            }
            (Action::Battle(a), Some(slot)) => self.battle_slot_fits(a, slot),
            _ => true,
        };
        match action.slot {
            Some(slot) if !fits => Err(format!(
                "{}: not a free space there: use another",
                self.choice.place_name(&slot)
            )),
            _ => Ok(()),
        }
    }

    fn play(&mut self, action: &NapoleonAction) -> Screen {
        let title = self.label(action);
        let waited = self.waiting().then(|| self.prompt());
        let moved = action.moved();
        let before = self.at.clone();
        let sight = self.sight();
        let hiding = self.named_sides(&sight.hiding);
        let events = self.game.play_unchecked(&action.action);
        if let Some((block, slot)) = moved {
            if self.game.town_of(block).is_some() {
                self.at[block.index()] = Some(slot);
            }
        }
        self.follow();
        let known = Known::across(sight, hiding, &self.sight());
        let battle_events: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Battle(b) => Some(*b),
                _ => None,
            })
            .collect();
        self.secret_losses = self.hidden_losses(&battle_events, &action.action, &known.seen);
        // Told with the fire before this action: its hits may come before this action's fire.
        let (mut told, mut moves) = self.told_events(&events, &before, action, &known);
        if let Some(shot) = self.shot_of(&battle_events) {
            self.shot = Some(shot);
        }
        if matches!(action.action, Action::Battle(BattleAction::DrawTerrain(_))) {
            // Drawn at once after the battle began or a terrain was placed: what that asked of
            // the hands still stands.
            self.told.append(&mut told);
            self.told_moves.append(&mut moves);
        } else {
            self.told = told;
            self.told_moves = moves;
        }
        // What happened, for the record; then what the rules now wait for, said at once, as
        // the told lines hide the prompt until the next action: a die (the forced march's, a
        // morale die, a volley), or a new step for a player (terrain, deployment, fire or
        // move, a retreat, a regrouping, a supply loss, the blocks a skirmish shows).
        let mut lines = self.told.clone();
        if self.waiting() {
            let prompt = self.prompt();
            if self.die_button() || waited.as_ref() != Some(&prompt) {
                lines.push(prompt);
            }
        }
        Screen::Told {
            status: self.status_line(),
            title,
            lines,
            hands: Vec::new(),
            places: self.label_places(action),
        }
    }

    fn told(&self) -> Vec<String> {
        self.told.clone()
    }

    fn told_moves(&self) -> &[ToldMove] {
        &self.told_moves
    }

    /// A takeback within one battle turns faces as an action does (6.2.4): a block it shows
    /// again is laid flat, named; one it hides again may stand up, by its slot alone.
    fn taken_back_from(&self, from: &Self) -> Vec<String> {
        self.sight_words(&[], &Known::across(from.sight(), Vec::new(), &self.sight()))
    }

    fn chance(&self) -> Vec<(NapoleonAction, u32)> {
        self.game
            .chance_outcomes()
            .into_iter()
            .map(|(a, w)| (NapoleonAction::rules(a), w))
            .collect()
    }

    fn die_button(&self) -> bool {
        // The forced march's die, a morale die and a volley's dice are rolled in the open;
        // terrain is drawn in secret at once.
        self.game.chance_outcomes().iter().any(|(a, _)| {
            matches!(
                a,
                Action::Die(_) | Action::Battle(BattleAction::Die(_) | BattleAction::Hits(_))
            )
        })
    }

    fn label(&self, action: &NapoleonAction) -> String {
        match &action.action {
            Action::Move { block, path } => {
                let from = self
                    .place_of(*block)
                    .map_or_else(|| "a block".to_string(), |p| self.choice.place_name(&p));
                let to = action
                    .slot
                    .map(|s| self.choice.place_name(&s))
                    .or_else(|| path.last().map(|t| self.choice.town_name(*t).to_string()))
                    .unwrap_or_default();
                if path.len() > 1 {
                    let via: Vec<&str> = path[..path.len() - 1]
                        .iter()
                        .map(|t| self.choice.town_name(*t))
                        .collect();
                    format!("{from} to {to} via {}", via.join(", "))
                } else {
                    format!("{from} to {to}")
                }
            }
            Action::EndMoves => format!("{} end the moves", self.acting()),
            Action::Die(face) => format!("forced march die: {face}"),
            Action::ShowLeader(true) => "the leader shows himself".to_string(),
            Action::ShowLeader(false) => "the leader stays hidden".to_string(),
            Action::Fight(t) => format!("fight at {}", self.choice.town_name(*t)),
            Action::EndRegroup => "end regrouping".to_string(),
            Action::Regroup { block, to } => {
                let to = action.slot.map_or_else(
                    || self.choice.town_name(*to).to_string(),
                    |s| self.choice.place_name(&s),
                );
                format!("{} regroups to {to}", self.slot_words(*block))
            }
            // The ruling chosen decides what the loss takes (9); a hidden block's strength is
            // never said, so a step's loss does not say whether it is the last.
            Action::SupplyLoss(block) => match self.choice.options().supply_loss {
                SupplyLoss::Blocks => format!(
                    "{}: supply loss, the block is eliminated",
                    self.slot_words(*block)
                ),
                SupplyLoss::Steps => format!(
                    "{}: supply loss, the block one step down (its last: eliminated)",
                    self.slot_words(*block)
                ),
            },
            Action::Battle(a) => self.battle_label(a, action.slot),
        }
    }

    fn revealed(&self, action: &NapoleonAction) -> String {
        match &action.action {
            Action::Battle(BattleAction::DrawTerrain(kind)) => {
                format!("{kind} drawn in secret")
            }
            Action::Battle(BattleAction::Reveal(_) | BattleAction::TakeHit(_)) => {
                self.menu_label(action)
            }
            _ => self.label(action),
        }
    }

    fn seat_secrets(&self, seat: Seat) -> Vec<String> {
        // The rules' seats whose secrets the view holds: with three players each Allied
        // player's own; with two the Allied player's.
        let seats: &[Seat] = match (seat, self.choice.players) {
            (FRENCH, _) => &[Seat::FIRST],
            (ALLIES, Players::Two) => &[Seat::SECOND],
            (s, Players::Three) if s == ANGLO_DUTCH => &[Seat::SECOND],
            (s, Players::Three) if s == PRUSSIAN => &[Seat::THIRD],
            _ => &[],
        };
        let mut out = self.drawn_terrain(seats);
        // The losses of the seat's own hidden blocks, each named, which the table is not told.
        for loss in &self.secret_losses {
            if self
                .army_of(loss.block())
                .is_some_and(|army| self.views(seat, army))
            {
                out.push(self.secret_loss_words(loss));
            }
        }
        out
    }

    fn label_places(&self, action: &NapoleonAction) -> crate::ui::Places {
        let moved = match action.moved() {
            Some((block, slot)) => self.place_of(block).into_iter().chain([slot]).collect(),
            None => Vec::new(),
        };
        crate::ui::Places {
            moved,
            ..crate::ui::Places::default()
        }
    }

    fn prompt(&self) -> String {
        let who = self.acting();
        let legal = self.game.legal_actions();
        if legal.iter().any(|a| matches!(a, Action::EndMoves)) {
            format!("{who}: move blocks town to town, then OK")
        } else if legal.iter().any(|a| matches!(a, Action::ShowLeader(_))) {
            format!("{who}: OK, show the leader or not")
        } else if let Some(battle) = self.game.battle() {
            self.battle_prompt(battle)
        } else if self.to_act() == Actor::Chance {
            "press Die for the forced march".to_string()
        } else if legal.iter().any(|a| matches!(a, Action::Fight(_))) {
            format!("{who}: OK, choose the next battle")
        } else if legal.iter().any(|a| matches!(a, Action::EndRegroup)) {
            format!("{who}: regroup: move blocks to a neighbouring town, then OK")
        } else if legal.iter().any(|a| matches!(a, Action::SupplyLoss(_))) {
            format!("{who}: OK, choose the block that takes the supply loss")
        } else {
            format!("{who}: OK")
        }
    }

    fn turn_key(&self) -> u32 {
        let seat = match self.game.to_act() {
            Actor::Seat(s) => s.index() as u32,
            _ => 3,
        };
        u32::from(self.game.turn()) * 4 + seat
    }
}

/// `seat`'s set-up as the rules read it: each block in its slot's town at full strength.
fn placements(choice: NapoleonChoice, seat: Seat, army: &NapoleonArmy) -> Vec<Placement> {
    let oob = choice.campaign().order_of_battle();
    let map = choice.campaign().map();
    choice
        .blocks(seat)
        .into_iter()
        .zip(&army.slots)
        .filter_map(|(id, slot)| {
            let b = oob.block(id)?;
            let town = match choice.layout().spot(slot) {
                Some(Spot::Town { town, .. }) => map.code(town).unwrap_or("?"),
                _ => "?",
            };
            Some(Placement::new(&b.name, town, b.strength))
        })
        .collect()
}

/// `seat`'s historical set-up (4.3) as placements.
fn historical_placements(choice: NapoleonChoice, seat: Seat) -> Vec<Placement> {
    let oob = choice.campaign().order_of_battle();
    let map = choice.campaign().map();
    choice
        .blocks(seat)
        .into_iter()
        .filter_map(|id| {
            let b = oob.block(id)?;
            Some(Placement::new(&b.name, map.code(b.start)?, b.strength))
        })
        .collect()
}

/// A set-up problem in words the whole table may read: never a block with its town.
fn public_problem(choice: NapoleonChoice, p: &SetupProblem) -> String {
    let town = |code: &str| {
        choice
            .campaign()
            .map()
            .town(code)
            .map_or_else(|| code.to_string(), |t| choice.town_name(t).to_string())
    };
    match p {
        SetupProblem::WrongArea { town: t, army, .. } => {
            format!(
                "a block in {} is outside the {army} set-up area: move it",
                town(t)
            )
        }
        SetupProblem::TooMany {
            town: t,
            count,
            cap,
        } => {
            format!("{count} blocks in {} (max {cap}): move some", town(t))
        }
        SetupProblem::UnknownTown { .. } => "a block is on no town: move it".to_string(),
        other => other.to_string(),
    }
}
