//! Stratego: Waterloo at the table: the rules of [`boards::waterloo`] plus what the table adds,
//! which tray slot beside the board holds which reserve, withdrawn or waiting Prussian piece.
//!
//! # Physical play
//! - **Set-up**, behind a screen, the Allied player first (the rulebook: "the Allied player will
//!   start setting up his army"): one group per kind of unit, in the order of the piece pages.
//!   Each piece of a group goes on a square of the seat's set-up rows or on one of its reserve
//!   slots (commanders on the board); every piece goes somewhere sensed, so a group asks for all
//!   of its pieces. The Allied player then puts the 13 Prussians, kind by kind, on the Prussian
//!   staging slots. In "Start the battle early!" the 14 held-back French pieces wait on French
//!   reserve slots.
//! - **Move**: lift a piece, put it on the square it goes to.
//! - **Attack**: lift your piece and the enemy's (either first). When the attacker could make its
//!   last step from several sides, a menu asks which ("c4 attacks c6 from south").
//! - **Fire**: lift the artillery and put it back, then lift the target. Firing at a building
//!   or village rather than the unit in it is a menu choice (OK).
//! - **Entering** (a reserve, a withdrawn or a regenerated piece): lift it from its tray slot and
//!   put it on a free square of your back row (withdrawn Prussians too).
//! - **Taking weakened heavy cavalry off**: lift it onto a free withdrawn slot, or choose it from
//!   the menu.
//! - **The Pursuit** (Expert): lift the enemy piece your cavalry cuts down, or your own piece to
//!   save it; cavalry charges are menu choices.
//! - **Buttons**: OK opens the menu (end of turn, cards, the draft, Fighting spirit in defence,
//!   frenzy targets in a building, charges); Die rolls the battle die, in the open.
//! - **Chance nobody sees** (lines of retreat, the Prussian draw) is drawn by the umpire at once.
//!   A drawn Prussian, a withdrawn piece and everything a battle moves are then hand steps: the
//!   board the umpire expects already shows each piece where it goes, trays included.
//!
//! # Secrets
//! The OLED faces both players. A piece is named on it only as its opponent's
//! [`View`] shows it: its army and the symbol on its back ("French infantry*") until a battle or
//! a Reconnaissance reveals it ("French Old Guard"); off the board it is only "French piece".
//! Eliminated pieces are shown (public). Cavalry set aside for the Pursuit keeps its secret as
//! on the board (the rulebook sets it aside, it does not turn it over): the menus name it by its
//! back until a battle or a charge has shown it, one entry for pieces that look alike. Lines of
//! retreat and the drawn Prussians are never named; refusals that would name a hidden piece are
//! reworded.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use boards::geometry::grid::{Cell, Dir};
use boards::waterloo::{
    seat_name, seat_of, Action, Arm, Army, Back, BattleReport, BattleResult, Card, CardPlay,
    ChanceAction, Class, Event, Illegal, Layout, Options, Outcome, Phase, PursuitEvent, Seen,
    Setup, SetupProblem, Unit, Version, View, Waterloo, ALLIED, FRENCH,
};
use boards::{Actor, BySeat, Game, Seat, Status};
use serde::{Deserialize, Serialize};

use crate::referee::table::{Gesture, Group, Named, Placing, TableGame};
use crate::sensing::{LayoutSetup, Place, TrayKind};
use crate::ui::{ClockTime, Screen, StatusLine};

/// Reserve slots of the Allied player: the rulebook's "a maximum of 10 pieces in reserve".
pub const ALLIED_RESERVE_SLOTS: u8 = 10;
/// Reserve slots of the French player: 10, and the 14 pieces "Start the battle early!" holds
/// back ("The following 14 blue pieces will remain off the board during the army set-up").
pub const FRENCH_RESERVE_SLOTS: u8 = 24;
/// Prussian staging slots: one for each of the 13 Black pieces.
pub const STAGING_SLOTS: u8 = 13;
/// Withdrawn slots per seat: pieces withdrawn by an "R" and heavy cavalry regaining strength.
/// When they are all taken, a free reserve slot is used.
pub const WITHDRAWN_SLOTS: u8 = 20;

/// "Start the battle early!": the 14 French pieces that stay off the board at set-up.
const HELD_BACK: [(Unit, u8); 7] = [
    (Unit::FrenchLightInfantry, 1),
    (Unit::FrenchLineInfantry, 5),
    (Unit::MiddleGuard, 2),
    (Unit::OldGuard, 1),
    (Unit::Cuirassiers, 2),
    (Unit::EmpressDragoons, 1),
    (Unit::FrenchArtillery, 2),
];

/// An action at the table: the rules' action and the tray slot the hands used for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaterlooAction {
    /// The rules' action.
    pub action: Action,
    /// The slot the piece came from (an entry) or went to (a take-off); `None` for everything
    /// else, and for a take-off chosen from the menu (the first free slot is used).
    pub slot: Option<Place>,
}

impl WaterlooAction {
    /// `action` with no tray slot.
    pub const fn rules(action: Action) -> WaterlooAction {
        WaterlooAction { action, slot: None }
    }
}

/// One seat's set-up as the groups filled it: its pieces on the board, and the pieces on its
/// tray slots (reserve; for the Allied player also the Prussians on their staging slots).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaterlooArmy {
    /// Square and unit of each piece on the board.
    pub placements: Vec<(Cell, Unit)>,
    /// Tray slot and unit of each piece beside the board.
    pub trays: Vec<(Place, Unit)>,
}

/// Stratego: Waterloo at the table: the game and the tray slots. See the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaterlooTable {
    choice: WaterlooChoice,
    game: Waterloo,
    /// Which tray slot holds which piece (the umpire's eyes only).
    trays: BTreeMap<Place, Unit>,
    /// The last announcement (title, lines), carried into the secret draws that follow it at
    /// once so the players still read it.
    carry: Option<(String, Vec<String>)>,
    /// Turns begun so far (the Pursuit's included): changes with every new turn.
    turns: u32,
    /// Squares the last action left occupied by another piece than before.
    exchanged: Vec<Place>,
    /// What the last action's announcement told the table besides its label (for the record).
    told: Vec<String>,
    /// Expert: each seat's units its opponent has seen (revealed in battle before the Pursuit
    /// began, or in a charge since): the Pursuit's menus name a set-aside cavalry only so.
    seen: BySeat<Vec<Unit>>,
}

/// What the Waterloo menu chose: the version and the scenarios, on the umpire's board layout
/// (the rulings are the rulebook's numbers).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WaterlooChoice {
    /// Basic, Standard or Expert.
    pub version: boards::waterloo::Version,
    /// "Start the battle early!".
    pub early_start: bool,
    /// "Where are the Prussians?".
    pub prussians_uncertain: bool,
    /// The mud tiles.
    pub mud: bool,
    /// The board: the layout the umpire was started with. Not in the header (its bytes are
    /// unchanged): a Waterloo journal's first record is the layout's text
    /// ([`Record::Files`](crate::referee::Record::Files)), so a game resumes only on the board it began on, and replays on
    /// it anywhere. A journal written before that record holds no layout: it resumes and
    /// replays on the layout the umpire has now.
    #[serde(skip)]
    pub layout: BoardLayout,
}

/// The journaled fields as derived; the layout only when it is not the shipped one, so the
/// pinned Debug text of every journaled value (`tests/referee_schema.rs`) is unchanged.
impl fmt::Debug for WaterlooChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("WaterlooChoice");
        d.field("version", &self.version)
            .field("early_start", &self.early_start)
            .field("prussians_uncertain", &self.prussians_uncertain)
            .field("mud", &self.mud);
        if self.layout != BoardLayout::shipped() {
            d.field("layout", &self.layout);
        }
        d.finish()
    }
}

/// The game's name on the game menu.
pub const TITLE: &str = "Stratego: Waterloo";

/// The variants on the menu: each version, each with the battle started early, and the
/// Expert game with the Prussians uncertain, all on the shipped board.
pub fn variants() -> Vec<(String, WaterlooChoice)> {
    let choice = |version, early_start, prussians_uncertain| WaterlooChoice {
        version,
        early_start,
        prussians_uncertain,
        mud: false,
        layout: BoardLayout::shipped(),
    };
    vec![
        ("Basic".to_string(), choice(Version::Basic, false, false)),
        (
            "Standard".to_string(),
            choice(Version::Standard, false, false),
        ),
        ("Expert".to_string(), choice(Version::Expert, false, false)),
        (
            "Basic, start the battle early".to_string(),
            choice(Version::Basic, true, false),
        ),
        (
            "Standard, start the battle early".to_string(),
            choice(Version::Standard, true, false),
        ),
        (
            "Expert, start the battle early".to_string(),
            choice(Version::Expert, true, false),
        ),
        (
            "Expert, where are the Prussians?".to_string(),
            choice(Version::Expert, false, true),
        ),
    ]
}

/// The board a Stratego: Waterloo game is played on: the shipped layout, or one read from a
/// file when the umpire starts ([`crate::game_data`]), or from a journal that recorded it
/// ([`crate::referee::Record::Files`]). `Copy`, so the menu's choice carries it; each
/// distinct layout is kept once for the life of the process, with the text it was read from
/// (journaled with every Waterloo game, so a replay anywhere uses the board the game began on).
#[derive(Clone, Copy)]
pub struct BoardLayout(&'static Kept);

/// A layout kept for the life of the process: the board, its text, where it came from.
struct Kept {
    layout: Layout,
    text: String,
    source: LayoutSource,
}

/// Where a board layout was read from, for the words that name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LayoutSource {
    /// The shipped layout, compiled in (no `[waterloo] layout` set).
    Shipped,
    /// A layout file.
    File(std::path::PathBuf),
    /// The layout a journal recorded when its game began.
    Journal,
}

impl fmt::Display for LayoutSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutSource::Shipped => f.write_str("the shipped layout"),
            LayoutSource::File(path) => write!(f, "{}", path.display()),
            LayoutSource::Journal => f.write_str("the journal's layout"),
        }
    }
}

impl BoardLayout {
    /// The shipped layout ([`boards::waterloo::DEFAULT_LAYOUT`]).
    pub fn shipped() -> BoardLayout {
        static SHIPPED: OnceLock<Kept> = OnceLock::new();
        BoardLayout(SHIPPED.get_or_init(|| Kept {
            layout: Layout::standard(),
            text: boards::waterloo::DEFAULT_LAYOUT.to_string(),
            source: LayoutSource::Shipped,
        }))
    }

    /// The layout `text` reads as, read from `source`, kept for the life of the process (once,
    /// however often the same text is read again). The shipped layout's text is the shipped
    /// layout, wherever it was read.
    ///
    /// # Errors
    /// Every problem of the text, each with its line.
    pub fn read(
        text: &str,
        source: LayoutSource,
    ) -> Result<BoardLayout, boards::Problems<boards::waterloo::LayoutProblem>> {
        static KEPT: Mutex<Vec<&'static Kept>> = Mutex::new(Vec::new());
        let shipped = BoardLayout::shipped();
        if text == shipped.0.text {
            return Ok(shipped);
        }
        let mut kept = KEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(k) = kept.iter().find(|k| k.text == text && k.source == source) {
            return Ok(BoardLayout(k));
        }
        let layout = Layout::parse(text)?;
        let k: &'static Kept = Box::leak(Box::new(Kept {
            layout,
            text: text.to_string(),
            source,
        }));
        kept.push(k);
        Ok(BoardLayout(k))
    }

    /// The layout.
    pub fn layout(self) -> &'static Layout {
        &self.0.layout
    }

    /// The text it was read from (journaled with the game: [`crate::referee::Record::Files`]).
    pub fn text(self) -> &'static str {
        &self.0.text
    }

    /// Where it was read from.
    pub fn source(self) -> &'static LayoutSource {
        &self.0.source
    }
}

impl Default for BoardLayout {
    fn default() -> BoardLayout {
        BoardLayout::shipped()
    }
}

/// Two layouts are the same board when they read the same, whatever their text's comments
/// and wherever they were read.
impl PartialEq for BoardLayout {
    fn eq(&self, other: &BoardLayout) -> bool {
        self.0.layout == other.0.layout
    }
}

impl Eq for BoardLayout {}

impl std::hash::Hash for BoardLayout {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.layout.hash(state);
    }
}

impl fmt::Debug for BoardLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == BoardLayout::shipped() {
            f.write_str("BoardLayout(shipped)")
        } else {
            write!(
                f,
                "BoardLayout({}x{} from a file)",
                self.0.layout.columns, self.0.layout.rows
            )
        }
    }
}

/// The rules' options for a menu choice: the version, the scenarios, the board.
pub fn options(choice: WaterlooChoice) -> Options {
    let mut options = Options::new(choice.version);
    options.layout = choice.layout.layout().clone();
    options.early_start = choice.early_start;
    options.prussians_uncertain = choice.prussians_uncertain;
    options.mud = choice.mud;
    options
}

fn square(c: Cell) -> Place {
    Place::Square(c)
}

fn tray(tray: TrayKind, seat: Seat, slot: u8) -> Place {
    Place::Tray { tray, seat, slot }
}

/// The reserve slots of `seat`.
fn reserve_slots(seat: Seat) -> u8 {
    if seat == ALLIED {
        ALLIED_RESERVE_SLOTS
    } else {
        FRENCH_RESERVE_SLOTS
    }
}

/// The slots where `seat`'s pieces off the board wait: withdrawn slots first, then reserve.
fn waiting_places(seat: Seat) -> Vec<Place> {
    (0..WITHDRAWN_SLOTS)
        .map(|s| tray(TrayKind::Withdrawn, seat, s))
        .chain((0..reserve_slots(seat)).map(|s| tray(TrayKind::Reserve, seat, s)))
        .collect()
}

fn staging_places() -> Vec<Place> {
    (0..STAGING_SLOTS)
        .map(|s| tray(TrayKind::PrussianStaging, ALLIED, s))
        .collect()
}

/// Whether `place` is one of `seat`'s reserve or withdrawn slots.
fn is_waiting_place(place: &Place, seat: Seat) -> bool {
    match *place {
        Place::Tray {
            tray: TrayKind::Reserve,
            seat: s,
            slot,
        } => s == seat && slot < reserve_slots(seat),
        Place::Tray {
            tray: TrayKind::Withdrawn,
            seat: s,
            slot,
        } => s == seat && slot < WITHDRAWN_SLOTS,
        _ => false,
    }
}

fn held_back(choice: WaterlooChoice, unit: Unit) -> u8 {
    if !choice.early_start {
        return 0;
    }
    HELD_BACK
        .iter()
        .find(|(u, _)| *u == unit)
        .map_or(0, |(_, n)| *n)
}

fn is_commander(unit: Unit) -> bool {
    matches!(unit.class(), Class::Commander | Class::CommanderInChief)
}

fn army_of_seat(seat: Seat) -> Army {
    if seat == ALLIED {
        Army::Allied
    } else {
        Army::French
    }
}

/// Where a set-up group goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goes {
    /// The set-up rows, or the reserve slots.
    Board,
    /// The Prussian staging slots.
    Staging,
}

/// Where a piece of `seat`'s `unit`, set up as `goes`, may stand on `place`: a square (the
/// rules then judge it), its own reserve slot, or (a Prussian) a staging slot.
///
/// # Errors
/// Any other place, with the fix.
fn goes_on(seat: Seat, unit: Unit, goes: Goes, place: Place) -> Result<Place, String> {
    let name = seat_name(seat);
    match (goes, place) {
        (Goes::Board, Place::Square(_)) => Ok(place),
        (Goes::Board, p) if is_commander(unit) => Err(format!(
            "{name}: {} must always be placed on the board: move it from {} to your set-up rows",
            unit.name(),
            WaterlooTable::place_words(&p)
        )),
        (
            Goes::Board,
            Place::Tray {
                tray: TrayKind::Reserve,
                seat: s,
                slot,
            },
        ) if s == seat && slot < reserve_slots(seat) => Ok(place),
        (Goes::Board, p) => Err(format!(
            "{name}: {} is not one of your reserve slots: move the piece to your set-up rows or \
             a reserve slot",
            WaterlooTable::place_words(&p)
        )),
        (
            Goes::Staging,
            Place::Tray {
                tray: TrayKind::PrussianStaging,
                seat: s,
                slot,
            },
        ) if s == ALLIED && slot < STAGING_SLOTS => Ok(place),
        (Goes::Staging, p) => Err(format!(
            "{name}: the Prussians wait on the Prussian staging slots: move the piece on {} to \
             one",
            WaterlooTable::place_words(&p)
        )),
    }
}

/// `seat`'s set-up groups: each kind of unit of its army in piece-page order, then (Allied)
/// the Prussians.
fn group_units(seat: Seat) -> Vec<(Unit, Goes)> {
    let mut units: Vec<(Unit, Goes)> = Unit::of(army_of_seat(seat))
        .map(|u| (u, Goes::Board))
        .collect();
    if seat == ALLIED {
        units.extend(Unit::of(Army::Prussian).map(|u| (u, Goes::Staging)));
    }
    units
}

/// A unit's name with its army, once ("French Old Guard", "British Artillery" stays as it is
/// with "Allied" in front).
fn unit_name(unit: Unit) -> String {
    let army = unit.army().to_string();
    if unit.name().starts_with(&army) {
        unit.name().to_string()
    } else {
        format!("{army} {}", unit.name())
    }
}

/// "an Allied piece", "a French piece".
fn a_piece(army: Army) -> String {
    match army {
        Army::Allied => "an Allied piece".to_string(),
        other => format!("a {other} piece"),
    }
}

fn arm_word(arm: Arm) -> &'static str {
    match arm {
        Arm::Infantry => "infantry",
        Arm::Cavalry => "cavalry",
        Arm::Artillery => "artillery",
    }
}

/// What the back of a piece shows: "French infantry*".
fn back_words(back: Back) -> String {
    format!(
        "{} {}{}",
        back.army,
        arm_word(back.arm),
        if back.asterisk { "*" } else { "" }
    )
}

/// A tile's name as printed ("Hougoumont", "La Haye").
fn tile_title(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The compass side the last step of an attack comes from, row 1 to the south.
fn side(dir: Dir) -> &'static str {
    match dir {
        Dir::Up => "south",
        Dir::Down => "north",
        Dir::Left => "east",
        Dir::Right => "west",
    }
}

/// The direction from `from` towards `to`, for an attack the rules refuse (any will do).
fn towards(from: Cell, to: Cell) -> Dir {
    let dc = i16::from(to.col) - i16::from(from.col);
    let dr = i16::from(to.row) - i16::from(from.row);
    if dr.abs() >= dc.abs() {
        if dr >= 0 {
            Dir::Up
        } else {
            Dir::Down
        }
    } else if dc > 0 {
        Dir::Right
    } else {
        Dir::Left
    }
}

/// A set-up problem in words the whole table may read: squares without units, units without
/// squares, and the fix.
fn setup_problem_text(problem: &SetupProblem) -> String {
    let name = seat_name(problem.seat());
    match *problem {
        SetupProblem::TooMany {
            unit, placed, max, ..
        } => format!(
            "{name}: {placed} {unit} on the board (max {max}): put the rest on your reserve slots"
        ),
        SetupProblem::TooManyInReserve { reserve, max, .. } => {
            format!("{name}: {reserve} pieces in reserve (max {max}): put more on your set-up rows")
        }
        SetupProblem::CommanderOffBoard { unit, .. } => format!(
            "{name}: {unit} must always be placed on the board: move it to your set-up rows"
        ),
        SetupProblem::BarredFromBuilding { cell, .. } => format!(
            "{name}: {cell} is in a building: only infantry may stand there: move the piece"
        ),
        SetupProblem::HougoumontGarrison { infantry } => format!(
            "Allied: Hougoumont must hold two Allied infantry at the start (it holds \
             {infantry}): place two infantry there"
        ),
        other => other.to_string(),
    }
}

impl WaterlooTable {
    /// A table for a game started elsewhere (tests, puzzles, a position): its pieces off the
    /// board laid on the first free slots. `choice` must be the one `game` was started with.
    pub fn from_game(choice: WaterlooChoice, game: Waterloo) -> WaterlooTable {
        let mut table = WaterlooTable {
            choice,
            game,
            trays: BTreeMap::new(),
            carry: None,
            turns: 0,
            exchanged: Vec::new(),
            told: Vec::new(),
            seen: BySeat::default(),
        };
        table.fit_trays();
        table
    }

    /// The game as the umpire knows it (every secret: the umpire's eyes only).
    pub fn game(&self) -> &Waterloo {
        &self.game
    }

    /// Which tray slot holds which piece (the umpire's eyes only).
    pub fn trays(&self) -> &BTreeMap<Place, Unit> {
        &self.trays
    }

    /// The menu choice the game was started with.
    pub fn choice(&self) -> WaterlooChoice {
        self.choice
    }

    /// Makes the tray slots hold exactly the pieces the rules keep off the board: Prussians still
    /// to be drawn on the staging slots; each seat's reserve, held-back and waiting pieces on its
    /// reserve and withdrawn slots. Pieces still there keep their slot (the same unit on another
    /// of the seat's slots will do: they are alike); pieces that left free theirs; a piece that
    /// left the board takes the first free withdrawn slot (then reserve). A piece with no free
    /// slot waits beside the board, unsensed, until one frees.
    fn fit_trays(&mut self) {
        let pool = self.game.prussian_pool().to_vec();
        let staging = staging_places();
        self.fit(&staging, &staging, pool, &[]);
        for seat in [ALLIED, FRENCH] {
            let mut want: Vec<Unit> = self.game.reserve(seat).to_vec();
            if seat == FRENCH {
                want.extend_from_slice(self.game.held_back());
            }
            let off: Vec<Unit> = self.game.off_board(seat).collect();
            want.extend_from_slice(&off);
            let withdrawn_first = waiting_places(seat);
            let mut reserve_first = withdrawn_first.clone();
            reserve_first.rotate_left(usize::from(WITHDRAWN_SLOTS));
            self.fit(&withdrawn_first, &reserve_first, want, &off);
        }
    }

    /// Fits the slots among `places` to `want`; a unit missing goes to the first free place of
    /// `places` if it is among `off` (it left the board), else of `reserve_first`.
    fn fit(
        &mut self,
        places: &[Place],
        reserve_first: &[Place],
        mut want: Vec<Unit>,
        off: &[Unit],
    ) {
        let taken: Vec<(Place, Unit)> = self
            .trays
            .iter()
            .filter(|(p, _)| places.contains(p))
            .map(|(p, u)| (*p, *u))
            .collect();
        // The last slots of a unit keep it: one that leaves frees its unit's first slot.
        for (place, unit) in taken.into_iter().rev() {
            match want.iter().position(|w| *w == unit) {
                Some(k) => {
                    want.remove(k);
                }
                None => {
                    self.trays.remove(&place);
                }
            }
        }
        for unit in want {
            let order = if off.contains(&unit) {
                places
            } else {
                reserve_first
            };
            if let Some(free) = order.iter().find(|p| !self.trays.contains_key(p)) {
                self.trays.insert(*free, unit);
            }
        }
    }

    fn views(&self) -> BySeat<View> {
        BySeat::from_fn(|seat| self.game.view(seat))
    }

    /// The piece on `cell` as its opponent sees it: "French infantry*", "Allied Scots Greys".
    fn public_piece(&self, views: &BySeat<View>, cell: Cell) -> Option<String> {
        let piece = self.game.piece_at(cell)?;
        let seen = views[piece.seat().opponent()].at(cell);
        Some(match seen {
            Seen::Enemy {
                unit: Some(unit), ..
            } => unit.short().to_string(),
            Seen::Enemy { back, .. } => back_words(back),
            // A view never shows the opponent's piece as its own; say only the army.
            Seen::Own(_) | Seen::Empty => format!("{} piece", piece.unit.army()),
        })
    }

    /// The free slots where `seat` may put a piece it takes off: withdrawn slots, then reserve.
    fn free_waiting(&self, seat: Seat) -> Vec<Place> {
        waiting_places(seat)
            .into_iter()
            .filter(|p| !self.trays.contains_key(p))
            .collect()
    }

    /// `seat`'s slots holding `unit`, in slot order.
    fn slots_holding(&self, seat: Seat, unit: Unit) -> Vec<Place> {
        self.trays
            .iter()
            .filter(|(p, u)| **u == unit && is_waiting_place(p, seat))
            .map(|(p, _)| *p)
            .collect()
    }

    fn tile_words(&self, at: Cell) -> String {
        let layout = &self.game.options().layout;
        match layout.tile_at(at) {
            Some((_, t)) => format!("{} ({at})", tile_title(&t.name)),
            None => format!("the tile on {at}"),
        }
    }

    /// Keeps what `outcome` showed of the units the Pursuit sets aside: when it begins, the
    /// units `revealed` on the board before and those its battles revealed; each charge, both
    /// cavalries (a charge is a battle).
    fn see(&mut self, revealed: Vec<Unit>, outcome: &Outcome) {
        let mut shown = Vec::new();
        let mut began = false;
        for event in &outcome.events {
            match *event {
                Event::PursuitBegan { .. } => began = true,
                Event::Battle(r) => shown.extend([r.attacker.1, r.defender.1]),
                Event::Pursuit(PursuitEvent::Charge {
                    attacker, defender, ..
                }) => {
                    shown.extend([attacker, defender]);
                }
                _ => {}
            }
        }
        if began {
            shown.extend(revealed);
        } else if self.game.pursuit_victor().is_none() {
            return;
        }
        for unit in shown {
            let seen = &mut self.seen[seat_of(unit.army())];
            if !seen.contains(&unit) {
                seen.push(unit);
            }
        }
    }

    /// A set-aside cavalry of the Pursuit as the table may call it: by name once its opponent
    /// has seen it, else by its back ("French cavalry*"). The rulebook sets the cavalry aside
    /// next to the board; it does not turn it face up.
    fn pursuit_name(&self, unit: Unit) -> String {
        if self.seen[seat_of(unit.army())].contains(&unit) {
            unit.short().to_string()
        } else {
            back_words(unit.back())
        }
    }

    /// The set-aside cavalry of `unit`'s seat that stands for every one the table cannot tell
    /// from it (the same [`WaterlooTable::pursuit_name`]): the strongest, as the rules already
    /// take the strongest piece of a kind. Menus offer that one only, so no two entries read
    /// the same and none tells what a hidden piece is.
    fn stands_for(&self, unit: Unit) -> Unit {
        let name = self.pursuit_name(unit);
        self.game
            .pursuit_cavalry(seat_of(unit.army()))
            .iter()
            .filter(|(u, _)| self.pursuit_name(*u) == name)
            .map(|&(u, weakened)| (u.strength().saturating_sub(weakened), u))
            .fold(None, |best: Option<(u8, Unit)>, c| match best {
                Some(b) if b.0 >= c.0 => Some(b),
                _ => Some(c),
            })
            .map_or(unit, |(_, u)| u)
    }

    /// Whether `action` is the one a menu offers for what the table sees of it (see
    /// [`WaterlooTable::stands_for`]).
    fn offered(&self, action: &Action) -> bool {
        match *action {
            Action::Pursue { cavalry, .. } => self.stands_for(cavalry) == cavalry,
            Action::Charge { cavalry, target } => {
                self.stands_for(cavalry) == cavalry && self.stands_for(target) == target
            }
            _ => true,
        }
    }

    /// Whether the draft step now keeps the card (else it goes to the discard pile).
    fn draft_keeps(&self, card: Card) -> bool {
        let mut g = self.game.clone();
        g.play_unchecked(&Action::Draft(card))
            .events
            .iter()
            .any(|e| matches!(e, Event::Drafted { kept: true, .. }))
    }

    fn seat_acting(&self) -> Seat {
        match self.game.to_act() {
            Actor::Seat(s) => s,
            _ => self.game.current(),
        }
    }

    /// The rules' reason in words the table may read.
    fn public_reason(&self, illegal: Illegal) -> String {
        match illegal {
            Illegal::NotReady(_) => "that piece cannot come onto the board now (held back until \
                                     11:00, or it left the board this turn): put it back"
                .to_string(),
            Illegal::AwaitingChance => match self.game.phase() {
                Phase::BattleDie => "roll the battle die first: press Die".to_string(),
                Phase::PrussianDie => "roll the die for the Prussians first: press Die".to_string(),
                _ => "wait for the umpire's draw".to_string(),
            },
            Illegal::NotNow => format!("not now: {}", self.prompt()),
            other => other.to_string(),
        }
    }

    /// The table's own check of an action's slot.
    fn check_slot(&self, wa: &WaterlooAction) -> Result<(), String> {
        match (wa.action, wa.slot) {
            (Action::Enter { unit, .. }, Some(slot)) => {
                if let Place::Tray {
                    tray: TrayKind::PrussianStaging,
                    ..
                } = slot
                {
                    return Err(format!(
                        "the umpire draws the Prussians that arrive: put the piece back on {}",
                        Self::place_words(&slot)
                    ));
                }
                if let Place::Tray { seat, .. } = slot {
                    if seat != self.game.current() {
                        return Err(format!(
                            "{} holds {}: use your own",
                            Self::place_words(&slot),
                            a_piece(army_of_seat(seat))
                        ));
                    }
                }
                if !is_waiting_place(&slot, seat_of(unit.army())) {
                    return Err(format!(
                        "pieces come on from your reserve or withdrawn slots, not from {}",
                        Self::place_words(&slot)
                    ));
                }
                if self.trays.get(&slot) != Some(&unit) {
                    return Err(format!(
                        "{} does not hold that piece: take the piece from its slot",
                        Self::place_words(&slot)
                    ));
                }
                Ok(())
            }
            (Action::Enter { .. }, None) => {
                Err("take the piece from its reserve or withdrawn slot".to_string())
            }
            (Action::TakeOff { from }, Some(slot)) => {
                let seat = self
                    .game
                    .piece_at(from)
                    .map_or(self.game.current(), |p| p.seat());
                if !is_waiting_place(&slot, seat) {
                    return Err(format!(
                        "{} is not one of your withdrawn or reserve slots: put the piece on a \
                         free one",
                        Self::place_words(&slot)
                    ));
                }
                if self.trays.contains_key(&slot) {
                    return Err(format!(
                        "{} already holds a piece: use a free slot",
                        Self::place_words(&slot)
                    ));
                }
                Ok(())
            }
            (_, Some(slot)) => Err(format!(
                "that action uses no tray slot ({})",
                Self::place_words(&slot)
            )),
            (_, None) => Ok(()),
        }
    }

    /// What one battle looks like on the OLED: both pieces (revealed) with their strengths,
    /// and how it went.
    fn battle_words(r: &BattleReport) -> (String, String, String) {
        let (_, a) = r.attacker;
        let (_, d) = r.defender;
        let strength = |u: Unit, s: u8| match u.class() {
            Class::CommanderInChief | Class::Artillery => String::new(),
            _ => format!(" ({s})"),
        };
        let attacker = format!("{}{}", a.short(), strength(a, r.strengths.0));
        let defender = format!("{}{}", d.short(), strength(d, r.strengths.1));
        let result = match r.result {
            BattleResult::AttackerWon if d.class() == Class::Artillery => {
                format!("flank attack: {} wins", a.short())
            }
            BattleResult::AttackerWon if a.class() == Class::CommanderInChief => {
                format!("{} wins (commander)", a.short())
            }
            BattleResult::AttackerWon if d.class() == Class::CommanderInChief => {
                format!("{} falls (commander)", d.short())
            }
            BattleResult::AttackerWon => format!("{} wins", a.short()),
            BattleResult::DefenderWon if d.class() == Class::Artillery => {
                format!("frontal attack: {} is eliminated", a.short())
            }
            BattleResult::DefenderWon => format!("{} holds", d.short()),
            BattleResult::Die => "equal strength: press Die to roll the battle die".to_string(),
        };
        (attacker, defender, result)
    }

    /// The public lines of what happened, in order (battles as one line each). Moves, shots,
    /// entries, take-offs, card plays and the die's face are said by the screen's title.
    fn event_lines(&self, events: &[Event]) -> Vec<String> {
        let mut lines = Vec::new();
        for event in events {
            match *event {
                Event::Moved { .. }
                | Event::Rolled(_)
                | Event::Fired { .. }
                | Event::Entered { .. }
                | Event::TakenOff { .. }
                | Event::CardPlayed { .. } => {}
                Event::Battle(ref r) => {
                    let (a, d, result) = Self::battle_words(r);
                    let frenzy = if r.frenzy { "frenzy! " } else { "" };
                    lines.push(format!("{frenzy}{a} vs {d}: {result}"));
                }
                Event::Eliminated { cell, unit } => {
                    lines.push(format!("{} on {cell} is eliminated", unit.short()));
                }
                Event::Withdrawn { cell, unit } => {
                    // Always the loser of the battle just fought, which revealed it.
                    lines.push(format!(
                        "{} on {cell} withdraws off the board (R)",
                        unit.short()
                    ));
                }
                Event::Weakened { cell } => {
                    lines.push(format!("the cavalry on {cell} loses 1 strength"));
                }
                Event::TileHit { tile, left } => {
                    let name = self
                        .game
                        .options()
                        .layout
                        .tiles
                        .get(tile)
                        .map_or_else(|| "the tile".to_string(), |t| tile_title(&t.name));
                    if left == 0 {
                        lines.push(format!("{name} is destroyed: take its tile off"));
                    } else {
                        lines.push(format!("{name} is hit: strength {left} left"));
                    }
                }
                Event::RetreatDrawn { seat, .. } => {
                    lines.push(format!(
                        "{} line of retreat drawn (secret)",
                        seat_name(seat)
                    ));
                }
                Event::PrussiansDecided { coming: true } => {
                    let turn = self.game.options().prussian_turn;
                    lines.push(format!("the Prussians will come at game turn {turn}"));
                }
                Event::PrussiansDecided { coming: false } => {
                    lines.push("Grouchy holds the Prussians: they will not come".to_string());
                }
                Event::PrussianArrived { to, .. } => {
                    lines.push(format!("a Prussian arrives on {to}"));
                }
                Event::HeldBackJoin => {
                    lines.push("11:00: held-back French join the reserve".to_string())
                }
                Event::TurnBegan { seat, actions, .. } => {
                    let s = if actions == 1 { "" } else { "s" };
                    lines.push(format!("{} turn: {actions} action{s}", seat_name(seat)));
                }
                Event::PursuitBegan { victor } => lines.push(format!(
                    "{} retreat! {} pursues with its cavalry",
                    seat_name(victor.opponent()),
                    seat_name(victor)
                )),
                Event::Reconnoitred { cell, unit } => {
                    lines.push(format!("{cell}: {}", unit.short()));
                }
                Event::Drafted { seat, card, kept } => lines.push(format!(
                    "{} {} {card}",
                    seat_name(seat),
                    if kept { "keeps" } else { "discards" }
                )),
                Event::Pursuit(PursuitEvent::CutDown { cell, unit }) => {
                    lines.push(format!("{} on {cell} is cut down", unit.short()));
                }
                Event::Pursuit(PursuitEvent::Saved { cell }) => {
                    lines.push(format!("the piece on {cell} is saved"));
                }
                Event::Pursuit(PursuitEvent::Charge {
                    attacker,
                    defender,
                    attacker_won,
                }) => {
                    let winner = if attacker_won { attacker } else { defender };
                    lines.push(format!(
                        "{} charges {}: {} wins",
                        attacker.short(),
                        defender.short(),
                        winner.short()
                    ));
                }
                Event::Ended(status) => {
                    if let Some((result, reason)) = Self::result_words(status) {
                        lines.push(format!("{result}: {reason}"));
                    }
                }
            }
        }
        lines
    }

    fn result_words(status: Status<boards::waterloo::EndReason>) -> Option<(String, String)> {
        match status {
            Status::Ongoing => None,
            Status::Won { winner, reason } => Some((
                if winner == ALLIED {
                    "The Allies win".to_string()
                } else {
                    "The French win".to_string()
                },
                reason.to_string(),
            )),
            Status::Drawn { reason } => Some(("Draw".to_string(), reason.to_string())),
        }
    }

    /// The announcement of `wa` (called `label`), just played with `outcome`; `flags` says
    /// which buildings changed hands.
    fn announce(
        &mut self,
        wa: &WaterlooAction,
        label: String,
        outcome: &Outcome,
        flags: Vec<String>,
    ) -> Screen {
        let status = self.status_line();
        let mut lines = self.event_lines(&outcome.events);
        lines.extend(flags.iter().cloned());
        // What happened, for the record; what to do next is the prompt's.
        self.told.clone_from(&lines);
        // A decision the rules now wait for, said at once (the next announcement would hide
        // the prompt otherwise: the draft is a run of announced button actions).
        if matches!(
            self.game.phase(),
            Phase::Defence(_) | Phase::FrenzyChoice(_) | Phase::Draft(_) | Phase::PrussianCards
        ) {
            lines.push(self.prompt());
        }
        let battles: Vec<(usize, &BattleReport)> = outcome
            .events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                Event::Battle(r) => Some((i, r)),
                _ => None,
            })
            .collect();
        let secret = matches!(
            wa.action,
            Action::Chance(ChanceAction::Retreat(_) | ChanceAction::Prussian(_))
        );
        if secret {
            // Drawn at once after what the players were just told: keep that on the screen.
            let (title, mut all) = self.carry.clone().unwrap_or_else(|| {
                let title = if matches!(wa.action, Action::Chance(ChanceAction::Prussian(_))) {
                    "The Prussians arrive".to_string()
                } else {
                    "Lines of retreat".to_string()
                };
                (title, Vec::new())
            });
            all.append(&mut lines);
            self.carry = Some((title.clone(), all.clone()));
            return Screen::Told {
                status,
                title,
                lines: all,
                hands: Vec::new(),
                places: Default::default(),
            };
        }
        let screen = match wa.action {
            Action::Chance(ChanceAction::Die(face)) if battles.is_empty() => Screen::DieRoll {
                face: face.to_string(),
                meaning: lines.join("; "),
            },
            Action::Chance(ChanceAction::Die(face)) => Screen::Told {
                status,
                title: format!("Die: {face}"),
                lines: lines.clone(),
                hands: Vec::new(),
                places: Default::default(),
            },
            _ if battles.len() == 1 => {
                let (at, report) = battles[0];
                let (attacker, defender, result) = Self::battle_words(report);
                // What followed the battle; the loser's elimination is in the result.
                let after: Vec<Event> = outcome.events[at + 1..]
                    .iter()
                    .filter(|e| !matches!(e, Event::Eliminated { .. }))
                    .copied()
                    .collect();
                let mut more = self.event_lines(&after);
                more.extend(flags);
                Screen::Battle {
                    attacker,
                    defender,
                    result,
                    after: more,
                    hands: Vec::new(),
                    places: Default::default(),
                }
            }
            Action::Move { .. } if lines.is_empty() => Screen::MoveAccepted {
                status,
                mv: label.clone(),
                places: Default::default(),
            },
            _ => Screen::Told {
                status,
                title: label.clone(),
                lines: lines.clone(),
                hands: Vec::new(),
                places: Default::default(),
            },
        };
        self.carry = Some((label, lines));
        screen
    }
}

impl WaterlooTable {
    /// A place as the players read it (the game's [`TableGame::place_name`], which needs no
    /// choice here).
    pub fn place_words(place: &Place) -> String {
        match *place {
            Place::Square(c) => c.to_string(),
            Place::Tray { tray, seat, slot } => {
                let n = u16::from(slot) + 1;
                match tray {
                    TrayKind::PrussianStaging => format!("Prussian staging slot {n}"),
                    TrayKind::Reserve => format!("{} reserve slot {n}", seat_name(seat)),
                    TrayKind::Withdrawn => format!("{} withdrawn slot {n}", seat_name(seat)),
                    TrayKind::Eliminated => format!("{} eliminated slot {n}", seat_name(seat)),
                }
            }
        }
    }
}

impl TableGame for WaterlooTable {
    type Choice = WaterlooChoice;
    type Action = WaterlooAction;
    type Army = WaterlooArmy;

    fn title(choice: WaterlooChoice) -> String {
        let version = match choice.version {
            Version::Basic => "Basic",
            Version::Standard => "Standard",
            Version::Expert => "Expert",
        };
        let mut title = format!("Waterloo {version}");
        if choice.early_start {
            title.push_str(", early start");
        }
        if choice.prussians_uncertain {
            title.push_str(", where are the Prussians?");
        }
        if choice.mud {
            title.push_str(", mud");
        }
        title
    }

    fn layout(choice: WaterlooChoice) -> LayoutSetup {
        let layout = options(choice).layout;
        LayoutSetup::grid(layout.columns, layout.rows)
            .with_tray(TrayKind::Reserve, ALLIED, ALLIED_RESERVE_SLOTS)
            .with_tray(TrayKind::Reserve, FRENCH, FRENCH_RESERVE_SLOTS)
            .with_tray(TrayKind::PrussianStaging, ALLIED, STAGING_SLOTS)
            .with_tray(TrayKind::Withdrawn, ALLIED, WITHDRAWN_SLOTS)
            .with_tray(TrayKind::Withdrawn, FRENCH, WITHDRAWN_SLOTS)
    }

    fn sample_groups(
        choice: WaterlooChoice,
        seat: Seat,
        roll: &mut dyn FnMut(u32) -> u32,
    ) -> Option<Vec<Vec<Place>>> {
        let setup = Setup::random(&options(choice), |n| {
            usize::try_from(roll(u32::try_from(n).unwrap_or(u32::MAX))).unwrap_or(0)
        });
        let (mut slot, mut staging) = (0u8, 0u8);
        let groups = group_units(seat)
            .into_iter()
            .map(|(unit, goes)| {
                let mut places: Vec<Place> = setup.placements[seat]
                    .iter()
                    .filter(|(_, u)| *u == unit)
                    .map(|(c, _)| Place::Square(*c))
                    .collect();
                // The pieces the set-up leaves off the board wait on slots.
                while places.len() < usize::from(unit.count()) {
                    match goes {
                        Goes::Staging => {
                            places.push(tray(TrayKind::PrussianStaging, ALLIED, staging));
                            staging = staging.saturating_add(1);
                        }
                        Goes::Board => {
                            places.push(tray(TrayKind::Reserve, seat, slot));
                            slot = slot.saturating_add(1);
                        }
                    }
                }
                places
            })
            .collect();
        Some(groups)
    }

    fn setup_order(_choice: WaterlooChoice) -> [Seat; 2] {
        // "the Allied player will start setting up his army. Afterwards, the French player".
        [ALLIED, FRENCH]
    }

    fn seat_name(seat: Seat) -> &'static str {
        seat_name(seat)
    }

    fn place_name(_choice: WaterlooChoice, place: &Place) -> String {
        Self::place_words(place)
    }

    fn groups(choice: WaterlooChoice, seat: Seat) -> Vec<Group> {
        let layout = options(choice).layout;
        let rows = if seat == ALLIED {
            format!("rows 1-{}", layout.setup_rows)
        } else {
            format!(
                "rows {}-{}",
                layout
                    .rows
                    .saturating_sub(layout.setup_rows)
                    .saturating_add(1),
                layout.rows
            )
        };
        group_units(seat)
            .into_iter()
            .map(|(unit, goes)| {
                let count = unit.count();
                let label = match goes {
                    Goes::Staging => format!("{count} {} on Prussian staging slots", unit.short()),
                    Goes::Board if is_commander(unit) => {
                        format!("{count} {} ({rows})", unit.short())
                    }
                    Goes::Board => {
                        let held = held_back(choice, unit);
                        let garrison = choice.version == Version::Expert
                            && seat == ALLIED
                            && unit.class().is_infantry();
                        let r#where = if garrison {
                            format!("{rows}, Hougoumont or reserve slots")
                        } else {
                            format!("{rows} or reserve slots")
                        };
                        if held > 0 {
                            format!(
                                "{count} {} ({where}; {held} held back on reserve slots)",
                                unit.short()
                            )
                        } else {
                            format!("{count} {} ({where})", unit.short())
                        }
                    }
                };
                Group {
                    label,
                    count,
                    min: count,
                    counted: true,
                }
            })
            .collect()
    }

    fn may_place(
        choice: WaterlooChoice,
        seat: Seat,
        group: usize,
        place: &Place,
    ) -> Result<(), String> {
        let Some(&(unit, goes)) = group_units(seat).get(group) else {
            return Ok(());
        };
        let Place::Square(cell) = goes_on(seat, unit, goes, *place)? else {
            return Ok(());
        };
        // The rules' problems of this one piece on its square (outside the set-up rows, a
        // building or mud it may not stand on); those between pieces wait for the army.
        let mut setup = Setup::default();
        setup.placements[seat] = vec![(cell, unit)];
        let Err(rules) = Waterloo::start(options(choice), setup) else {
            return Ok(());
        };
        let mine = rules.as_slice().iter().find(|p| {
            matches!(
                p,
                SetupProblem::OutsideZone { cell: c, .. }
                | SetupProblem::BarredFromBuilding { cell: c, .. }
                | SetupProblem::ArtilleryOnMud { cell: c, .. } if *c == cell
            )
        });
        match mine {
            Some(problem) => Err(setup_problem_text(problem)),
            None => Ok(()),
        }
    }

    /// Besides [`WaterlooTable::may_place`]: the counts the rules set, judged as each piece goes
    /// down ("they can keep a maximum of 10 pieces in reserve", and no more of a unit on the
    /// board than may start there), so the piece too many is refused where it stands, with the
    /// fix, not after the last group.
    fn may_place_among(
        choice: WaterlooChoice,
        at: &Placing<'_, WaterlooTable>,
    ) -> Result<(), String> {
        Self::may_place(choice, at.seat, at.group, at.place)?;
        let units = group_units(at.seat);
        let Some(&(unit, Goes::Board)) = units.get(at.group) else {
            return Ok(());
        };
        let name = seat_name(at.seat);
        // The seat's earlier pieces, and this one, by unit and place.
        let all: Vec<(Unit, &Place)> = at
            .earlier
            .iter()
            .filter_map(|(g, p)| units.get(*g).map(|&(u, _)| (u, p)))
            .chain(std::iter::once((unit, at.place)))
            .collect();
        let on = |u: Unit, square: bool| {
            all.iter()
                .filter(|(v, p)| *v == u && matches!(p, Place::Square(_)) == square)
                .count()
        };
        match at.place {
            Place::Square(_) => {
                let max = unit.count() - held_back(choice, unit);
                let placed = on(unit, true);
                if placed > usize::from(max) {
                    return Err(format!(
                        "{name}: {placed} {} on the board (max {max}): put this one on a reserve \
                         slot",
                        unit.short()
                    ));
                }
            }
            Place::Tray {
                tray: TrayKind::Reserve,
                ..
            } => {
                // Held-back pieces wait on reserve slots too, but are not the reserve.
                let reserve: usize = Unit::of(army_of_seat(at.seat))
                    .map(|u| on(u, false).saturating_sub(usize::from(held_back(choice, u))))
                    .sum();
                let max = options(choice).max_reserve;
                if reserve > usize::from(max) {
                    return Err(format!(
                        "{name}: {reserve} pieces in reserve (max {max}): put this one on your \
                         set-up rows"
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn army(
        choice: WaterlooChoice,
        seat: Seat,
        filled: &[Vec<Place>],
    ) -> Result<WaterlooArmy, Vec<String>> {
        let name = seat_name(seat);
        let units = group_units(seat);
        let mut problems = Vec::new();
        if filled.len() != units.len() {
            return Err(vec![format!(
                "{name}: {} groups were placed, {} expected: press Back and place them again",
                filled.len(),
                units.len()
            )]);
        }
        let mut army = WaterlooArmy::default();
        for ((unit, goes), places) in units.iter().zip(filled) {
            for place in places {
                match goes_on(seat, *unit, *goes, *place) {
                    Ok(Place::Square(c)) => army.placements.push((c, *unit)),
                    Ok(tray) => army.trays.push((tray, *unit)),
                    Err(problem) => problems.push(problem),
                }
            }
        }
        // The rules' problems of this seat alone (the other seat's place is still empty).
        let mut setup = Setup::default();
        setup.placements[seat] = army.placements.clone();
        if let Err(rules) = Waterloo::start(options(choice), setup) {
            problems.extend(
                rules
                    .as_slice()
                    .iter()
                    .filter(|p| p.seat() == seat)
                    .map(setup_problem_text),
            );
        }
        if problems.is_empty() {
            Ok(army)
        } else {
            Err(problems)
        }
    }

    fn start(choice: WaterlooChoice, armies: &BySeat<WaterlooArmy>) -> Result<Self, Vec<String>> {
        let mut problems = Vec::new();
        let mut trays = BTreeMap::new();
        for seat in [ALLIED, FRENCH] {
            for &(place, unit) in &armies[seat].trays {
                let fits = match place {
                    Place::Tray {
                        tray: TrayKind::PrussianStaging,
                        seat: s,
                        slot,
                    } => {
                        seat == ALLIED
                            && s == ALLIED
                            && slot < STAGING_SLOTS
                            && unit.army() == Army::Prussian
                    }
                    Place::Tray {
                        tray: TrayKind::Reserve,
                        seat: s,
                        slot,
                    } => {
                        s == seat
                            && slot < reserve_slots(seat)
                            && unit.army() == army_of_seat(seat)
                            && !is_commander(unit)
                    }
                    _ => false,
                };
                if !fits {
                    problems.push(format!(
                        "{}: {} cannot hold that piece: set up again",
                        seat_name(seat),
                        Self::place_words(&place)
                    ));
                } else if trays.insert(place, unit).is_some() {
                    problems.push(format!(
                        "{}: two pieces on {}: set up again",
                        seat_name(seat),
                        Self::place_words(&place)
                    ));
                }
            }
        }
        let setup = Setup {
            placements: BySeat::from_fn(|seat| armies[seat].placements.clone()),
        };
        match Waterloo::start(options(choice), setup) {
            Ok(game) if problems.is_empty() => {
                let table = WaterlooTable {
                    choice,
                    game,
                    trays,
                    carry: None,
                    turns: 0,
                    exchanged: Vec::new(),
                    told: Vec::new(),
                    seen: BySeat::default(),
                };
                let mut fitted = table.clone();
                fitted.fit_trays();
                if fitted.trays == table.trays {
                    return Ok(table);
                }
                problems.push(
                    "the tray slots do not hold the pieces left off the board: set up again"
                        .to_string(),
                );
            }
            Ok(_) => {}
            Err(rules) => problems.extend(rules.as_slice().iter().map(setup_problem_text)),
        }
        Err(problems)
    }

    fn board(&self) -> BTreeMap<Place, String> {
        let views = self.views();
        let mut board = BTreeMap::new();
        for (cell, _) in self.game.pieces() {
            if let Some(words) = self.public_piece(&views, cell) {
                board.insert(square(cell), words);
            }
        }
        for (place, unit) in &self.trays {
            board.insert(*place, format!("{} piece", unit.army()));
        }
        board
    }

    /// `seat`'s own pieces by name, the enemy's as the table sees them (backs until revealed).
    fn seat_board(&self, seat: Seat) -> BTreeMap<Place, String> {
        let views = self.views();
        let mut board = BTreeMap::new();
        for (cell, piece) in self.game.pieces() {
            let words = if piece.seat() == seat {
                Some(unit_name(piece.unit))
            } else {
                self.public_piece(&views, cell)
            };
            if let Some(words) = words {
                board.insert(square(cell), words);
            }
        }
        for (place, unit) in &self.trays {
            let words = if seat_of(unit.army()) == seat {
                unit_name(*unit)
            } else {
                format!("{} piece", unit.army())
            };
            board.insert(*place, words);
        }
        board
    }

    fn sides(&self) -> BTreeMap<Place, Seat> {
        let mut sides: BTreeMap<Place, Seat> = self
            .game
            .pieces()
            .map(|(cell, piece)| (square(cell), piece.seat()))
            .collect();
        for (place, unit) in &self.trays {
            sides.insert(*place, seat_of(unit.army()));
        }
        sides
    }

    fn status_line(&self) -> StatusLine {
        let g = &self.game;
        let minutes = g.clock_minutes();
        let clock = ClockTime {
            hour: u8::try_from(minutes.div_euclid(60).rem_euclid(24)).unwrap_or(0),
            minute: u8::try_from(minutes.rem_euclid(60)).unwrap_or(0),
        };
        // Game turns played, from 1 (early start's 9:30 turn is the first; the clock says the
        // hour).
        let played = i32::from(g.turn()) + if g.options().early_start { 3 } else { 0 };
        let acting = g.phase() == Phase::Act && g.status().is_ongoing();
        StatusLine {
            turn: u32::try_from(played.max(1)).unwrap_or(1),
            clock: Some(clock),
            to_act: seat_name(self.seat_acting()).to_string(),
            actions_left: acting.then(|| g.actions().1),
            reinforcements_in: g
                .turns_until_prussians()
                .filter(|n| *n > 0 && !g.prussian_pool().is_empty())
                .map(|n| u8::try_from(n).unwrap_or(u8::MAX)),
            ..StatusLine::default()
        }
    }

    fn to_act(&self) -> Actor {
        self.game.to_act()
    }

    fn result(&self) -> Option<(String, String)> {
        Self::result_words(self.game.status())
    }

    fn gestures(&self) -> Vec<(Gesture, WaterlooAction)> {
        let Actor::Seat(seat) = self.game.to_act() else {
            return Vec::new();
        };
        if self.game.phase() != Phase::Act {
            return Vec::new();
        }
        let mut out = Vec::new();
        for action in self.game.legal_actions() {
            if !self.offered(&action) {
                continue;
            }
            let plain = WaterlooAction::rules(action);
            match action {
                Action::Move { from, to } => {
                    out.push((Gesture::slide(square(from), square(to)), plain));
                }
                Action::Attack { from, to, .. } => {
                    out.push((Gesture::lift_two(square(from), square(to)), plain));
                }
                // A tile with nobody on it to lift is fired at from the menu.
                Action::Fire { from, at, tile } if !tile || self.game.piece_at(at).is_some() => {
                    out.push((Gesture::select_then_lift(square(from), square(at)), plain));
                }
                Action::Enter { unit, to } => {
                    for slot in self.slots_holding(seat, unit) {
                        out.push((
                            Gesture::slide(slot, square(to)),
                            WaterlooAction {
                                action,
                                slot: Some(slot),
                            },
                        ));
                    }
                }
                Action::TakeOff { from } => {
                    for slot in self.free_waiting(seat) {
                        out.push((
                            Gesture::slide(square(from), slot),
                            WaterlooAction {
                                action,
                                slot: Some(slot),
                            },
                        ));
                    }
                }
                Action::Pursue { target, .. } => out.push((
                    Gesture {
                        lifted: vec![square(target)],
                        placed: Vec::new(),
                        selected: None,
                    },
                    plain,
                )),
                Action::Save { from } => out.push((
                    Gesture {
                        lifted: vec![square(from)],
                        placed: Vec::new(),
                        selected: None,
                    },
                    plain,
                )),
                _ => {}
            }
        }
        out.into_iter().map(|(g, a)| (g.normalized(), a)).collect()
    }

    fn choices(&self) -> Vec<(String, WaterlooAction)> {
        if !matches!(self.game.to_act(), Actor::Seat(_)) {
            return Vec::new();
        }
        let legal = self.game.legal_actions();
        let buttons =
            legal
                .into_iter()
                .filter(|a| self.offered(a))
                .filter(|a| match self.game.phase() {
                    Phase::Act => matches!(
                        a,
                        Action::EndTurn
                            | Action::PlayCard(_)
                            | Action::TakeOff { .. }
                            | Action::Fire { tile: true, .. }
                            | Action::Charge { .. }
                    ),
                    _ => true,
                });
        let mut out: Vec<(String, WaterlooAction)> = buttons
            .map(|a| {
                let wa = WaterlooAction::rules(a);
                (self.label(&wa), wa)
            })
            .collect();
        // The end of the turn first (the commonest choice); the cards played on one square
        // among many (Reconnaissance, Fighting spirit) last, so the others are a few presses
        // away.
        let acting = self.game.phase() == Phase::Act;
        out.sort_by_key(|(_, wa)| match wa.action {
            Action::EndTurn => 0,
            Action::PlayCard(CardPlay::Reconnaissance { .. } | CardPlay::FightingSpirit { .. })
                if acting =>
            {
                2
            }
            _ => 1,
        });
        out
    }

    fn held(&self, action: &WaterlooAction) -> bool {
        // An attack, a shot and a pursuit lift an enemy piece; saving a unit lifts one's own.
        matches!(
            action.action,
            Action::Attack { .. } | Action::Fire { .. } | Action::Pursue { .. }
        )
    }

    fn shaped(&self, gesture: &Gesture) -> Vec<WaterlooAction> {
        let shape = (
            gesture.lifted.as_slice(),
            gesture.placed.as_slice(),
            gesture.selected,
        );
        let action = match shape {
            ([Place::Square(from)], [Place::Square(to)], _) => Action::Move {
                from: *from,
                to: *to,
            },
            ([slot @ Place::Tray { .. }], [Place::Square(to)], _) => {
                let Some(unit) = self.trays.get(slot) else {
                    return Vec::new();
                };
                return vec![WaterlooAction {
                    action: Action::Enter {
                        unit: *unit,
                        to: *to,
                    },
                    slot: Some(*slot),
                }];
            }
            ([Place::Square(from)], [slot @ Place::Tray { .. }], _) => {
                return vec![WaterlooAction {
                    action: Action::TakeOff { from: *from },
                    slot: Some(*slot),
                }];
            }
            ([Place::Square(a), Place::Square(b)], [], _) => {
                let mine = |c: Cell| {
                    self.game
                        .piece_at(c)
                        .is_some_and(|p| p.seat() == self.game.current())
                };
                let (from, to) = if !mine(*a) && mine(*b) {
                    (*b, *a)
                } else {
                    (*a, *b)
                };
                Action::Attack {
                    from,
                    to,
                    dir: towards(from, to),
                }
            }
            ([Place::Square(at)], [], Some(Place::Square(from))) => Action::Fire {
                from,
                at: *at,
                tile: false,
            },
            _ => return Vec::new(),
        };
        vec![WaterlooAction::rules(action)]
    }

    fn check(&self, action: &WaterlooAction) -> Result<(), String> {
        self.check_slot(action)?;
        self.game
            .check(&action.action)
            .map_err(|e| self.public_reason(e))
    }

    fn play(&mut self, action: &WaterlooAction) -> Screen {
        let label = self.label(action);
        let taken_off = match action.action {
            Action::TakeOff { from } => self.game.piece_at(from).map(|p| p.unit),
            _ => None,
        };
        let occupied: Vec<Cell> = self.game.pieces().map(|(c, _)| c).collect();
        let revealed: Vec<Unit> = self
            .game
            .pieces()
            .filter(|(_, p)| p.revealed)
            .map(|(_, p)| p.unit)
            .collect();
        let owners = self.game.view(ALLIED).tile_owner().to_vec();
        let outcome = match self.game.play(&action.action) {
            Ok(outcome) => outcome,
            Err(e) => {
                return Screen::Error {
                    message: format!("{label}: {}", self.public_reason(e)),
                    fix: "put the pieces back as they were".to_string(),
                }
            }
        };
        match (action.action, action.slot) {
            (Action::Enter { unit, .. }, Some(slot)) if self.trays.get(&slot) == Some(&unit) => {
                self.trays.remove(&slot);
            }
            (Action::TakeOff { .. }, Some(slot)) if !self.trays.contains_key(&slot) => {
                if let Some(unit) = taken_off {
                    self.trays.insert(slot, unit);
                }
            }
            _ => {}
        }
        self.fit_trays();
        self.see(revealed, &outcome);
        // A winner on the square of a loser: the same occupancy, another piece.
        self.exchanged.clear();
        for event in &outcome.events {
            if let Event::Moved { to, .. } = *event {
                let place = square(to);
                if occupied.contains(&to)
                    && self.game.piece_at(to).is_some()
                    && !self.exchanged.contains(&place)
                {
                    self.exchanged.push(place);
                }
            }
        }
        let begun = outcome
            .events
            .iter()
            .filter(|e| matches!(e, Event::TurnBegan { .. }))
            .count();
        self.turns = self
            .turns
            .saturating_add(u32::try_from(begun).unwrap_or(u32::MAX));
        // "Once conquered, an Ownership flag with the flag of the owner, is placed on the
        // building."
        let mut flags = Vec::new();
        let now = self.game.view(ALLIED).tile_owner().to_vec();
        for (i, (was, is)) in owners.iter().zip(&now).enumerate() {
            if let (Some(seat), true) = (is, was != is) {
                if let Some(tile) = self.game.options().layout.tiles.get(i) {
                    flags.push(format!(
                        "{} is fortified: put the {} flag on it",
                        tile_title(&tile.name),
                        seat_name(*seat)
                    ));
                }
            }
        }
        self.announce(action, label, &outcome, flags)
    }

    fn exchanged(&self) -> Vec<Place> {
        self.exchanged.clone()
    }

    fn chance(&self) -> Vec<(WaterlooAction, u32)> {
        self.game
            .chance_outcomes()
            .into_iter()
            .map(|(a, w)| (WaterlooAction::rules(a), w))
            .collect()
    }

    fn die_button(&self) -> bool {
        // The battle die is rolled in the open; lines of retreat and Prussians are drawn unseen.
        matches!(self.game.phase(), Phase::BattleDie | Phase::PrussianDie)
    }

    fn label(&self, action: &WaterlooAction) -> String {
        let seat = self.seat_acting();
        match action.action {
            Action::Move { from, to } => format!("{from}-{to}"),
            Action::Attack { from, to, dir } => {
                format!("{from} attacks {to} from {}", side(dir))
            }
            Action::Fire {
                from,
                at,
                tile: false,
            } => format!("{from} fires at {at}"),
            Action::Fire {
                from,
                at,
                tile: true,
            } => format!("{from} fires at {}", self.tile_words(at)),
            Action::Enter { unit, to } => match action.slot {
                Some(slot) => format!("entry on {to} from {}", Self::place_words(&slot)),
                None => format!("{} enters on {to}", a_piece(unit.army())),
            },
            Action::TakeOff { from } => {
                format!("take {from} off to regain strength")
            }
            Action::EndTurn => {
                let left = self.game.actions().1;
                if left > 0 && self.game.pursuit_victor().is_none() {
                    let s = if left == 1 { "" } else { "s" };
                    format!("end the {} turn ({left} action{s} unused)", seat_name(seat))
                } else {
                    format!("end the {} turn", seat_name(seat))
                }
            }
            Action::Pursue { cavalry, target } => {
                format!(
                    "{} cuts down the piece on {target}",
                    self.pursuit_name(cavalry)
                )
            }
            Action::Charge { cavalry, target } => {
                format!(
                    "{} charges {}",
                    self.pursuit_name(cavalry),
                    self.pursuit_name(target)
                )
            }
            Action::Save { from } => format!("save the piece on {from}"),
            Action::Chance(ChanceAction::Die(face)) => format!("die: {face}"),
            Action::Chance(ChanceAction::Retreat(_)) => match self.game.phase() {
                Phase::DrawRetreat(drawing) => {
                    format!("{} draws a line of retreat", seat_name(drawing))
                }
                _ => "a line of retreat is drawn".to_string(),
            },
            Action::Chance(ChanceAction::Prussian(_)) => "a Prussian is drawn".to_string(),
            Action::PlayCard(play) => match play {
                CardPlay::Reconnaissance { at } => {
                    let corner = Cell::new(at.col.saturating_add(1), at.row.saturating_add(1));
                    format!("play Reconnaissance on {at}-{corner}")
                }
                CardPlay::Initiative => "play Initiative".to_string(),
                CardPlay::CombinedAttack => "play Combined attack".to_string(),
                CardPlay::FightingSpirit { on } => {
                    if matches!(self.game.phase(), Phase::Defence(_)) {
                        format!("play Fighting spirit on {on} in defence")
                    } else {
                        format!("play Fighting spirit on {on}")
                    }
                }
                CardPlay::GrandBattery { at } => format!("play Grand battery from {at}"),
            },
            Action::Draft(card) => match self.game.phase() {
                Phase::PrussianCards => format!("take {card} from the discard pile"),
                _ if self.draft_keeps(card) => format!("keep {card}"),
                _ => format!("discard {card}"),
            },
            Action::Decline => "decline Fighting spirit".to_string(),
            Action::Frenzy { at } => format!("frenzy: attack the piece on {at}"),
        }
    }

    fn label_places(&self, action: &WaterlooAction) -> crate::ui::Places {
        let sq = Place::Square;
        let (moved, target) = match action.action {
            Action::Move { from, to } | Action::Attack { from, to, .. } => {
                (vec![sq(from), sq(to)], None)
            }
            Action::Fire { from, at, .. } => (vec![sq(from), sq(at)], Some(sq(at))),
            Action::Enter { to, .. } => {
                (std::iter::once(sq(to)).chain(action.slot).collect(), None)
            }
            Action::TakeOff { from: at }
            | Action::Save { from: at }
            | Action::Pursue { target: at, .. }
            | Action::Frenzy { at }
            | Action::PlayCard(CardPlay::FightingSpirit { on: at })
            | Action::PlayCard(CardPlay::GrandBattery { at }) => (vec![sq(at)], None),
            Action::PlayCard(CardPlay::Reconnaissance { at }) => {
                let corner = Cell::new(at.col.saturating_add(1), at.row.saturating_add(1));
                (vec![sq(at), sq(corner)], None)
            }
            Action::EndTurn
            | Action::Charge { .. }
            | Action::Chance(_)
            | Action::PlayCard(CardPlay::Initiative | CardPlay::CombinedAttack)
            | Action::Draft(_)
            | Action::Decline => (Vec::new(), None),
        };
        crate::ui::Places {
            moved,
            target,
            ..crate::ui::Places::default()
        }
    }

    fn prompt(&self) -> String {
        let g = &self.game;
        let name = seat_name(self.seat_acting());
        match g.phase() {
            Phase::Over => "the game is over".to_string(),
            Phase::BattleDie => "equal strength: press Die to roll the battle die".to_string(),
            Phase::PrussianDie => "Where are the Prussians? Press Die to roll".to_string(),
            Phase::DrawRetreat(_) | Phase::PrussianDraw => "the umpire draws".to_string(),
            Phase::Draft(_) => {
                let keeps = g.legal_actions().into_iter().any(|a| match a {
                    Action::Draft(card) => self.draft_keeps(card),
                    _ => false,
                });
                if keeps {
                    format!("{name}: choose a card to keep (OK)")
                } else {
                    format!("{name}: choose a card to discard (OK)")
                }
            }
            Phase::PrussianCards => {
                format!("{name}: take a card from the discard pile (OK)")
            }
            Phase::Defence(_) => format!("{name}: play Fighting spirit in defence? (OK)"),
            Phase::FrenzyChoice(_) => {
                format!("{name}: frenzy: choose the piece to attack (OK)")
            }
            Phase::Act => match g.pursuit_victor() {
                Some(victor) if victor == self.seat_acting() => format!(
                    "{name} pursues: lift a piece to cut it down; OK: charge or end the turn"
                ),
                Some(_) => {
                    format!("{name}: lift a piece to save it; OK: charge or end the turn")
                }
                // The turn's actions are used, but the withdrawn commander may still come
                // back, paid with the action he is worth (rulebook 8): the turn waits.
                None if g.actions().1 == 0 && g.reinstatement_open() => {
                    format!("{name}: no action left; the commander may come back; OK: menu")
                }
                None => format!("{name}: move, attack, fire or enter; OK: menu"),
            },
        }
    }

    fn turn_key(&self) -> u32 {
        self.turns
    }

    fn revealed(&self, action: &WaterlooAction) -> String {
        let label = self.label(action);
        let on = |c: Cell| self.game.piece_at(c).map(|p| unit_name(p.unit));
        let named = match action.action {
            Action::Move { from, .. }
            | Action::Attack { from, .. }
            | Action::Fire { from, .. }
            | Action::TakeOff { from } => on(from),
            Action::Enter { unit, .. } => Some(unit_name(unit)),
            Action::Chance(ChanceAction::Retreat(flank)) => Some(format!("the {flank}")),
            Action::Chance(ChanceAction::Prussian(unit)) => Some(unit_name(unit)),
            _ => None,
        };
        match named {
            Some(named) => format!("{label} ({named})"),
            None => label,
        }
    }

    fn told(&self) -> Vec<String> {
        self.told.clone()
    }

    fn umpire_board(&self) -> BTreeMap<Place, Named> {
        let named = |unit: Unit| Named {
            code: format!("{}{}", army_letter(unit.army()), unit.code()),
            name: unit_name(unit),
        };
        let mut board: BTreeMap<Place, Named> = self
            .game
            .pieces()
            .map(|(cell, piece)| (square(cell), named(piece.unit)))
            .collect();
        for (place, unit) in &self.trays {
            board.insert(*place, named(*unit));
        }
        board
    }

    /// The seat's line of retreat, drawn in secret (Basic and Standard), as its own view holds
    /// it: "Before the game can start, both players randomly choose a Line of Retreat card of
    /// their own colour ... and make sure the opponent doesn't see it."
    fn seat_secrets(&self, seat: Seat) -> Vec<String> {
        let view = self.game.view(seat);
        view.line_of_retreat()
            .map(|flank| {
                let grids = match flank {
                    boards::waterloo::Flank::Left => "1-4",
                    boards::waterloo::Flank::Centre => "5-8",
                    boards::waterloo::Flank::Right => "9-12",
                };
                format!(
                    "Your line of retreat: your {flank} (grids {grids}). Two enemy units on it \
                     end the game: keep it defended; the enemy does not know it."
                )
            })
            .into_iter()
            .collect()
    }

    fn army_words(_choice: WaterlooChoice, _seat: Seat, army: &WaterlooArmy) -> Vec<String> {
        let mut places: BTreeMap<Unit, Vec<String>> = BTreeMap::new();
        for (cell, unit) in &army.placements {
            places.entry(*unit).or_default().push(cell.to_string());
        }
        for (place, unit) in &army.trays {
            places
                .entry(*unit)
                .or_default()
                .push(Self::place_words(place));
        }
        places
            .into_iter()
            .map(|(unit, at)| format!("{}: {}", unit_name(unit), at.join(", ")))
            .collect()
    }
}

/// The army's letter in a diagram's code: `f` French, `a` Allied, `p` Prussian.
fn army_letter(army: Army) -> char {
    match army {
        Army::French => 'f',
        Army::Allied => 'a',
        Army::Prussian => 'p',
    }
}

#[cfg(test)]
mod tests;
