//! Sa Belle Alliance at the table: the [`TableGame`] adapter over [`boards::sba`].
//!
//! The map's boxes are sensed squares given by a layout data file ([`SbaLayout`], the shipped
//! one [`DEFAULT_LAYOUT`]): each corps box (the Grand Battery's and Blücher's too) has one
//! space per division marker it can hold, the markers standing on its first spaces in order;
//! each army's casualty track has one space per box; each control box one space for its
//! marker; a card with no markers (Wellington) may have a space for the card itself. Morale
//! and time cubes are the umpire's: the status line shows them.
//!
//! - **Choosing a card**: lift one of its markers (or the card) and put it back; an action
//!   with a target then lifts one of the target's markers (select, then lift the target). The
//!   OK menu lists every legal action, Napoleon's and passing included.
//! - **The die**: the Die button rolls an action's die and each rout test ("To execute a rout
//!   test the player must roll a d6"), or the menu takes a physical die's face; the umpire
//!   announces the test's result.
//! - **Hands**: each casualty moves the box's last marker to the army's next casualty space;
//!   arrivals fill the box's next spaces; a capture exchanges the control box's marker. The
//!   announcement names a casualty's two spaces ("Orange 4 to Allied casualty 1"), the
//!   arrivals' spaces ("Prussian marker to Blücher's Prussians 1", a line a marker) and the
//!   control box taken ("Hougoumont taken: French marker in"), so the hand steps do not list
//!   them again ([`TableGame::told_moves`]); they list the rest.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Mutex, OnceLock};

use boards::sba::{
    seat_name, seat_of, Action, Army, CardId, CardSet, ControlId, Event, Face, Options, Phase,
    SaBelleAlliance, ALLIED, EXAMPLE_CARDS, FRENCH,
};
use boards::{Actor, BySeat, Game, Seat, Status};
use serde::{Deserialize, Serialize};

use super::super::table::{Gesture, Group, Named, TableGame, ToldMove};
use super::squares::{self, SquareFile, SquareLine};
use crate::sensing::{LayoutSetup, Place};
use crate::ui::{Screen, StatusLine};

/// An army in the OLED's few words: "French", "Allied".
fn short_army(seat: Seat) -> &'static str {
    if seat == FRENCH {
        "French"
    } else {
        "Allied"
    }
}

/// The game's name on the menu.
pub const TITLE: &str = "Sa Belle Alliance";

/// The shipped layout: a 10 x 9 grid under the map, for the example card set.
pub const DEFAULT_LAYOUT: &str = include_str!("sba/layout.txt");

/// The name of a casualty track's line in the layout file.
fn track_line(seat: Seat) -> String {
    format!("{} casualties", seat_name(seat))
}

/// Which sensed square is each space of the map. Built only by [`SbaLayout::parse`] against a
/// card set, so every box the cards need has exactly its spaces, each square once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbaLayout {
    columns: u8,
    rows: u8,
    /// Each card's box spaces, by card index (empty: a card with no markers).
    boxes: Vec<Vec<Place>>,
    /// The space of a card with no markers, by card index.
    card_spaces: Vec<Option<Place>>,
    /// Each army's casualty spaces, top to bottom.
    casualties: BySeat<Vec<Place>>,
    /// Each control box's space, by control index.
    controls: Vec<Place>,
}

/// What a layout line names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Named_ {
    Box(CardId),
    Card(CardId),
    Track(Seat),
    Control(ControlId),
}

/// Reads the name of a layout line against `cards`: what it names, or the problem.
fn named(name: &str, cards: &CardSet) -> Result<Named_, String> {
    if let Some(id) = cards.card_id(name) {
        Ok(Named_::Box(id))
    } else if let Some(id) = name.strip_suffix(" card").and_then(|n| cards.card_id(n)) {
        Ok(Named_::Card(id))
    } else if let Some(id) = cards.control_id(name) {
        Ok(Named_::Control(id))
    } else if let Some(seat) = [FRENCH, ALLIED]
        .into_iter()
        .find(|&s| name == track_line(s))
    {
        Ok(Named_::Track(seat))
    } else {
        Err(format!(
            "\"{name}\" is no card, control box or casualty track of the card set: use a name \
             as the card file spells it, \"NAME card\", or \"{}\"",
            track_line(FRENCH)
        ))
    }
}

impl SbaLayout {
    /// Reads a layout file for `cards`.
    ///
    /// # Errors
    /// Every problem, each with its line (0: the whole file) and how to fix it.
    pub fn parse(text: &str, cards: &CardSet) -> Result<SbaLayout, Vec<(usize, String)>> {
        let SquareFile {
            columns,
            rows,
            lines,
            seen,
            mut problems,
        } = squares::read(text, "space", "10x9", |n| named(n, cards))?;
        let n = cards.cards().len();
        let mut layout = SbaLayout {
            columns,
            rows,
            boxes: vec![Vec::new(); n],
            card_spaces: vec![None; n],
            casualties: BySeat::default(),
            controls: Vec::new(),
        };
        let mut controls: Vec<Option<Place>> = vec![None; cards.controls().len()];
        let mut tracks: BySeat<bool> = BySeat::default();
        for SquareLine {
            line,
            what,
            name,
            places,
        } in lines
        {
            match what {
                Named_::Box(id) => {
                    let card = &cards.cards()[id.index()];
                    let need = usize::from(card.divisions) + usize::from(card.reserve);
                    if need == 0 {
                        problems.push((
                            line,
                            format!(
                                "{name} has no division markers: give it a card space instead \
                                 (\"{name} card: SQUARE\"), or leave it out"
                            ),
                        ));
                    } else if places.len() != need {
                        problems.push((
                            line,
                            format!(
                                "{name} needs {need} spaces ({} divisions, {} waiting), not {}: \
                                 list {need} squares",
                                card.divisions,
                                card.reserve,
                                places.len()
                            ),
                        ));
                    }
                    layout.boxes[id.index()] = places;
                }
                Named_::Card(id) => match places.as_slice() {
                    [one] => layout.card_spaces[id.index()] = Some(*one),
                    _ => problems.push((
                        line,
                        format!("{name} is one space, not {}: give one square", places.len()),
                    )),
                },
                Named_::Control(id) => match places.as_slice() {
                    [one] => controls[id.index()] = Some(*one),
                    _ => problems.push((
                        line,
                        format!(
                            "{name} holds one control marker, not {} spaces: give one square",
                            places.len()
                        ),
                    )),
                },
                Named_::Track(seat) => {
                    tracks[seat] = true;
                    let need = cards.tracks(seat).casualties.len();
                    if places.len() != need {
                        problems.push((
                            line,
                            format!(
                                "the card set's {name} track has {need} boxes, not {}: list \
                                 {need} squares, top to bottom",
                                places.len()
                            ),
                        ));
                    }
                    layout.casualties[seat] = places;
                }
            }
        }
        for card in cards.cards() {
            if card.has_markers() && !seen.contains_key(&card.name) {
                problems.push((
                    0,
                    format!(
                        "{} has no box: add a line \"{}: SQUARES\" with its spaces",
                        card.name, card.name
                    ),
                ));
            }
        }
        for (c, control) in cards.controls().iter().enumerate() {
            match controls[c] {
                Some(place) => layout.controls.push(place),
                // Named with a wrong count of squares: that line's problem says it.
                None if seen.contains_key(&control.name) => {}
                None => problems.push((
                    0,
                    format!(
                        "control box {} has no space: add a line \"{}: SQUARE\"",
                        control.name, control.name
                    ),
                )),
            }
        }
        for seat in [FRENCH, ALLIED] {
            if !tracks[seat] {
                problems.push((
                    0,
                    format!(
                        "the {} track has no spaces: add a line \"{}: SQUARES\", top to bottom",
                        track_line(seat),
                        track_line(seat)
                    ),
                ));
            }
        }
        squares::verdict(problems, layout)
    }

    /// The sensed places: every space of the map, on its grid.
    fn setup(&self) -> LayoutSetup {
        let mut setup = LayoutSetup::grid(self.columns, self.rows);
        let used: std::collections::BTreeSet<Place> = self.places().collect();
        setup.places.retain(|(_, p)| used.contains(p));
        setup
    }

    /// Every space of the map: the boxes, the card spaces, the casualty tracks, the control
    /// markers' spaces.
    fn places(&self) -> impl Iterator<Item = Place> + '_ {
        self.boxes
            .iter()
            .flatten()
            .chain(self.card_spaces.iter().flatten())
            .chain(self.casualties.iter().flat_map(|(_, places)| places))
            .chain(&self.controls)
            .copied()
    }

    /// The name of the space `place` as the players read it ("d'Erlon 3", "d'Erlon card",
    /// "French casualty 4", "Hougoumont"), with the cards `data` names; `None` off the map.
    fn name(&self, cards: &CardSet, place: &Place) -> Option<String> {
        let card = |i: usize| cards.card(CardId::new(i as u8));
        for (i, places) in self.boxes.iter().enumerate() {
            if let Some(k) = places.iter().position(|p| p == place) {
                let card = card(i).map_or("", |c| short(&c.name));
                return Some(format!("{card} {}", k + 1));
            }
        }
        if let Some(i) = self
            .card_spaces
            .iter()
            .position(|p| p.as_ref() == Some(place))
        {
            if let Some(card) = card(i) {
                return Some(format!("{} card", short(&card.name)));
            }
        }
        for seat in [FRENCH, ALLIED] {
            if let Some(k) = self.casualties[seat].iter().position(|p| p == place) {
                let army = if seat == FRENCH { "French" } else { "Allied" };
                return Some(format!("{army} casualty {}", k + 1));
            }
        }
        let c = self.controls.iter().position(|p| p == place)?;
        cards.controls().get(c).map(|control| control.name.clone())
    }
}

/// A card's short name: the commander in its parentheses ("d'Erlon"), else the whole name.
fn short(name: &str) -> &str {
    match (name.find('('), name.rfind(')')) {
        (Some(a), Some(b)) if a < b => &name[a + 1..b],
        _ => name,
    }
}

/// A card set and the layout of its map, checked against each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbaData {
    /// The cards and tracks.
    pub cards: CardSet,
    /// Which square is each space.
    pub layout: SbaLayout,
}

impl SbaData {
    /// Reads a card file and a layout file: every problem of each, with its line, the layout's
    /// only once the cards read.
    ///
    /// # Errors
    /// The file with problems, and every problem of it with its line.
    pub fn parse(cards: &str, layout: &str) -> Result<SbaData, SbaProblems> {
        let cards = CardSet::parse(cards).map_err(|p| SbaProblems {
            file: SbaFileKey::Cards,
            problems: p.0.into_iter().map(|p| (p.line, p.message)).collect(),
        })?;
        let layout = SbaLayout::parse(layout, &cards).map_err(|problems| SbaProblems {
            file: SbaFileKey::Layout,
            problems,
        })?;
        Ok(SbaData { cards, layout })
    }
}

/// One of the two files of a card set and map, by its `[sba]` key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SbaFileKey {
    /// `[sba] cards`: the card set.
    Cards,
    /// `[sba] layout`: the map layout.
    Layout,
}

impl SbaFileKey {
    /// Its `[sba]` key (the key a journal records it under).
    pub fn key(self) -> &'static str {
        match self {
            SbaFileKey::Cards => "cards",
            SbaFileKey::Layout => "layout",
        }
    }

    /// What it holds, for messages.
    pub fn what(self) -> &'static str {
        match self {
            SbaFileKey::Cards => "Sa Belle Alliance cards",
            SbaFileKey::Layout => "Sa Belle Alliance layout",
        }
    }

    /// The words for where the shipped file was read: the source a journal records for it.
    pub fn shipped_source(self) -> &'static str {
        match self {
            SbaFileKey::Cards => "the example cards",
            SbaFileKey::Layout => "the shipped layout",
        }
    }
}

/// The problems of the first file of a card set and map that does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbaProblems {
    /// The file.
    pub file: SbaFileKey,
    /// Each problem's line (0: the whole file) and what to do.
    pub problems: Vec<(usize, String)>,
}

impl fmt::Display for SbaProblems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = self.file.what();
        for (i, (line, m)) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{what} line {line}: {m}")?;
        }
        Ok(())
    }
}

/// One file of a card set and map, as read: where from (a path, or [`SbaFileKey::shipped_source`]), and
/// its whole text (journaled with every game: [`crate::referee::Record::Files`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbaFile {
    /// Where it was read, in words.
    pub source: String,
    /// Its whole text.
    pub text: String,
}

/// Every set read from files, kept for the life of the process.
static KEPT: Mutex<Vec<&'static Kept>> = Mutex::new(Vec::new());

/// A set kept for the life of the process: the cards and map, and the files they were read
/// from.
struct Kept {
    data: SbaData,
    cards: SbaFile,
    layout: SbaFile,
}

/// The card set and layout a game is played with: the shipped ones, files read when the
/// umpire starts, or the files a journal recorded. `Copy`, so the menu's choice carries it;
/// each distinct set is kept once for the life of the process, with the files it was read from.
#[derive(Clone, Copy)]
pub struct SbaSet(&'static Kept);

impl SbaSet {
    /// The example card set ([`EXAMPLE_CARDS`]) on the shipped layout ([`DEFAULT_LAYOUT`]).
    ///
    /// # Panics
    /// Never: both files are checked by this module's tests.
    pub fn shipped() -> SbaSet {
        static SHIPPED: OnceLock<Kept> = OnceLock::new();
        SbaSet(SHIPPED.get_or_init(|| {
            Kept {
                #[allow(clippy::expect_used)]
                data: SbaData::parse(EXAMPLE_CARDS, DEFAULT_LAYOUT)
                    .expect("the shipped files are checked"),
                cards: SbaFile {
                    source: SbaFileKey::Cards.shipped_source().to_string(),
                    text: EXAMPLE_CARDS.to_string(),
                },
                layout: SbaFile {
                    source: SbaFileKey::Layout.shipped_source().to_string(),
                    text: DEFAULT_LAYOUT.to_string(),
                },
            }
        }))
    }

    /// The card file `cards` and layout file `layout`, checked against each other, kept for
    /// the life of the process (once, however often the same files are read again: each
    /// resume of a journal reads its recorded ones).
    ///
    /// # Errors
    /// The file with problems, and every problem of it ([`SbaData::parse`]).
    pub fn read(cards: SbaFile, layout: SbaFile) -> Result<SbaSet, SbaProblems> {
        let shipped = SbaSet::shipped();
        if cards == shipped.0.cards && layout == shipped.0.layout {
            return Ok(shipped);
        }
        let mut kept = KEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(k) = kept.iter().find(|k| k.cards == cards && k.layout == layout) {
            return Ok(SbaSet(k));
        }
        let data = SbaData::parse(&cards.text, &layout.text)?;
        let k: &'static Kept = Box::leak(Box::new(Kept {
            data,
            cards,
            layout,
        }));
        kept.push(k);
        Ok(SbaSet(k))
    }

    /// The card set and layout.
    pub fn data(self) -> &'static SbaData {
        &self.0.data
    }

    /// The card file it was read from.
    pub fn cards_file(self) -> &'static SbaFile {
        &self.0.cards
    }

    /// The layout file it was read from.
    pub fn layout_file(self) -> &'static SbaFile {
        &self.0.layout
    }
}

impl Default for SbaSet {
    fn default() -> SbaSet {
        SbaSet::shipped()
    }
}

/// Two sets are the same game when their cards and map read the same, whatever their files'
/// comments and wherever they were read.
impl PartialEq for SbaSet {
    fn eq(&self, other: &SbaSet) -> bool {
        std::ptr::eq(self.0, other.0) || self.0.data == other.0.data
    }
}

impl Eq for SbaSet {}

impl std::hash::Hash for SbaSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.data.cards.title().hash(state);
    }
}

impl fmt::Debug for SbaSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == SbaSet::shipped() {
            f.write_str("SbaSet(shipped)")
        } else {
            write!(f, "SbaSet({} from files)", self.0.data.cards.title())
        }
    }
}

/// What the Sa Belle Alliance menu chose: the card set and layout the umpire was started
/// with. Not in the header (its bytes are unchanged): a journal's first record is both files'
/// text ([`crate::referee::Record::Files`]), so a game resumes only on the cards and map it
/// began on, and replays on them anywhere. A journal written before that record resumes and
/// replays on the files the umpire has now.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SbaChoice {
    /// The card set and layout.
    #[serde(skip)]
    pub set: SbaSet,
}

impl fmt::Debug for SbaChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.set == SbaSet::shipped() {
            f.write_str("SbaChoice")
        } else {
            write!(f, "SbaChoice {{ set: {:?} }}", self.set)
        }
    }
}

/// The one variant on the menu.
pub fn variants() -> Vec<(String, SbaChoice)> {
    vec![("Card set and map".to_string(), SbaChoice::default())]
}

/// One set-up group: a card's division markers in its box, a card on its space, or a control
/// marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Markers(CardId),
    Card(CardId),
    Control(ControlId),
}

/// `seat`'s set-up groups in order: its boxes, its cards' spaces, its control markers.
fn pieces(data: &SbaData, seat: Seat) -> Vec<Piece> {
    let mut out = Vec::new();
    for (id, card) in data.cards.ids() {
        if seat_of(card.army) != seat {
            continue;
        }
        if card.divisions > 0 {
            out.push(Piece::Markers(id));
        }
        if data.layout.card_spaces[id.index()].is_some() {
            out.push(Piece::Card(id));
        }
    }
    for (c, control) in data.cards.controls().iter().enumerate() {
        if seat_of(control.held) == seat {
            out.push(Piece::Control(ControlId::new(c as u8)));
        }
    }
    out
}

/// The spaces a set-up group fills.
fn piece_places(data: &SbaData, piece: Piece) -> Vec<Place> {
    match piece {
        Piece::Markers(id) => {
            let n = data.cards.card(id).map_or(0, |c| usize::from(c.divisions));
            data.layout.boxes[id.index()]
                .iter()
                .take(n)
                .copied()
                .collect()
        }
        Piece::Card(id) => data.layout.card_spaces[id.index()].into_iter().collect(),
        Piece::Control(c) => data
            .layout
            .controls
            .get(c.index())
            .copied()
            .into_iter()
            .collect(),
    }
}

fn piece_label(data: &SbaData, piece: Piece) -> String {
    let card = |id: CardId| data.cards.card(id).map_or("", |c| c.name.as_str());
    match piece {
        Piece::Markers(id) => {
            let n = piece_places(data, piece).len();
            format!("{n} markers, {}", short(card(id)))
        }
        Piece::Card(id) => format!("the {} card", short(card(id))),
        Piece::Control(c) => {
            let name = data
                .cards
                .controls()
                .get(c.index())
                .map_or("", |c| c.name.as_str());
            format!("a marker in {name}")
        }
    }
}

/// Names squares for a fix: "a1-d1" as a list "a1 b1 c1 d1".
fn squares(places: &[Place]) -> String {
    places
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// One seat's set-up: the spaces each group filled, checked to be its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SbaArmy {
    /// Each group's spaces, in group order.
    pub filled: Vec<Vec<Place>>,
}

/// Sa Belle Alliance at the table. See the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbaTable {
    set: SbaSet,
    game: SaBelleAlliance,
    /// What the last action told the table besides its label.
    told: Vec<String>,
    /// The moves those words ask of the hands ([`TableGame::told_moves`]): each casualty from
    /// the box's space to the casualty space, each arrival onto its box's space, each control
    /// box's marker exchanged; kept through the rout tests rolled after the action, as its
    /// lines are.
    told_moves: Vec<ToldMove>,
    /// Control boxes whose marker the last action changed.
    exchanged: Vec<Place>,
    /// The last announcement (title, lines), carried into the rout tests rolled after it, so
    /// the players still read what called them.
    carry: Option<(String, Vec<String>)>,
    /// The roll of the rout test that routed an army: the game over screen says it, for a test
    /// rolled once the hands had nothing left to do is shown on no other.
    routed: Option<String>,
}

impl SbaTable {
    /// The game by the rules.
    pub fn game(&self) -> &SaBelleAlliance {
        &self.game
    }

    fn data(&self) -> &'static SbaData {
        self.set.data()
    }

    fn card_name(&self, id: CardId) -> String {
        self.data()
            .cards
            .card(id)
            .map_or_else(|| format!("card {}", id.index() + 1), |c| c.name.clone())
    }

    /// The occupied spaces of `id`'s box: its first `divisions` spaces.
    fn markers(&self, id: CardId) -> Vec<Place> {
        let n = usize::from(self.game.divisions(id));
        self.data().layout.boxes[id.index()]
            .iter()
            .take(n)
            .copied()
            .collect()
    }

    /// The places that choose `id`: its markers, or its card's space.
    fn choosers(&self, id: CardId) -> Vec<Place> {
        let mut out = self.markers(id);
        out.extend(self.data().layout.card_spaces[id.index()]);
        out
    }

    /// The card whose box or card space `place` is (occupied or not).
    fn card_at(&self, place: &Place) -> Option<CardId> {
        let layout = &self.data().layout;
        (0..layout.boxes.len())
            .map(|i| CardId::new(i as u8))
            .find(|id| {
                layout.boxes[id.index()].contains(place)
                    || layout.card_spaces[id.index()] == Some(*place)
            })
    }

    /// The cards with an action with a target that may be taken now, of the `legal` actions
    /// (then choosing one alone is half a gesture). A card whose targeted actions are not open
    /// yet (Blücher's "Storm Plancenoit" before 3 pm) is chosen alone for its untargeted one.
    fn targeting(legal: &[Action]) -> BTreeSet<CardId> {
        legal
            .iter()
            .filter_map(|a| match a {
                Action::Activate {
                    card,
                    target: Some(_),
                    ..
                } => Some(*card),
                _ => None,
            })
            .collect()
    }

    fn phasing_word(&self) -> &'static str {
        if self.game.phasing() == FRENCH {
            "French"
        } else {
            "Allied"
        }
    }

    /// A face of the die in the menu's words.
    fn face_label(&self, face: Face) -> String {
        match self.game.phase() {
            Phase::RoutTest(seat) => format!("{} rout test: {face}", short_army(seat)),
            _ => format!("die: {face}"),
        }
    }
}

impl TableGame for SbaTable {
    type Choice = SbaChoice;
    type Action = Action;
    type Army = SbaArmy;

    /// No stack: each space holds one marker.
    const STACKS: bool = false;

    fn title(_choice: SbaChoice) -> String {
        TITLE.to_string()
    }

    fn layout(choice: SbaChoice) -> LayoutSetup {
        choice.set.data().layout.setup()
    }

    fn setup_order(_choice: SbaChoice) -> [Seat; 2] {
        [FRENCH, ALLIED]
    }

    fn seat_name(seat: Seat) -> &'static str {
        seat_name(seat)
    }

    /// A space as the map names it: "d'Erlon 3", "French casualty 4", "Hougoumont".
    fn place_name(choice: SbaChoice, place: &Place) -> String {
        let data = choice.set.data();
        data.layout
            .name(&data.cards, place)
            .unwrap_or_else(|| place.to_string())
    }

    fn groups(choice: SbaChoice, seat: Seat) -> Vec<Group> {
        let data = choice.set.data();
        pieces(data, seat)
            .into_iter()
            .map(|p| {
                let n = u8::try_from(piece_places(data, p).len()).unwrap_or(u8::MAX);
                Group {
                    label: piece_label(data, p),
                    count: n,
                    min: n,
                    counted: true,
                }
            })
            .collect()
    }

    fn may_place(choice: SbaChoice, seat: Seat, group: usize, at: &Place) -> Result<(), String> {
        let data = choice.set.data();
        let Some(&piece) = pieces(data, seat).get(group) else {
            return Ok(());
        };
        let places = piece_places(data, piece);
        if places.contains(at) {
            return Ok(());
        }
        Err(format!(
            "{} is not a space for {}: put it on {}",
            Self::place_name(choice, at),
            piece_label(data, piece),
            squares(&places)
        ))
    }

    fn army(choice: SbaChoice, seat: Seat, filled: &[Vec<Place>]) -> Result<SbaArmy, Vec<String>> {
        let data = choice.set.data();
        let order = pieces(data, seat);
        let mut problems = Vec::new();
        if filled.len() != order.len() {
            problems.push(format!(
                "{} of {} groups placed: place each, then press OK",
                filled.len(),
                order.len()
            ));
        }
        for (&piece, places) in order.iter().zip(filled) {
            let want: BTreeSet<Place> = piece_places(data, piece).into_iter().collect();
            let got: BTreeSet<Place> = places.iter().copied().collect();
            if want != got {
                problems.push(format!(
                    "{} stand on {}: put them on {}",
                    piece_label(data, piece),
                    squares(&places.clone()),
                    squares(&want.into_iter().collect::<Vec<_>>())
                ));
            }
        }
        if problems.is_empty() {
            Ok(SbaArmy {
                filled: filled.to_vec(),
            })
        } else {
            Err(problems)
        }
    }

    fn army_places(army: &SbaArmy) -> Option<BTreeSet<Place>> {
        Some(army.filled.iter().flatten().copied().collect())
    }

    fn start(choice: SbaChoice, armies: &BySeat<SbaArmy>) -> Result<SbaTable, Vec<String>> {
        let mut problems = Vec::new();
        for seat in [FRENCH, ALLIED] {
            if let Err(p) = Self::army(choice, seat, &armies[seat].filled) {
                problems.extend(p);
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let options = Options::new(choice.set.data().cards.clone());
        match SaBelleAlliance::start(options, ()) {
            Ok(game) => Ok(SbaTable {
                set: choice.set,
                game,
                told: Vec::new(),
                told_moves: Vec::new(),
                exchanged: Vec::new(),
                carry: None,
                routed: None,
            }),
            Err(_) => Err(vec!["the card set does not start a game".to_string()]),
        }
    }

    fn board(&self) -> BTreeMap<Place, String> {
        let data = self.data();
        let mut out = BTreeMap::new();
        // Markers by army only, as the rulebook names them (French, Anglo-Allied, Prussian):
        // occupancy cannot tell one corps' from another's, and the space names the box.
        for (id, card) in data.cards.ids() {
            for p in self.markers(id) {
                out.insert(p, marker_of(card.army));
            }
            if let Some(p) = data.layout.card_spaces[id.index()] {
                out.insert(p, format!("the {} card", short(&card.name)));
            }
        }
        for seat in [FRENCH, ALLIED] {
            for (p, &card) in data.layout.casualties[seat]
                .iter()
                .zip(self.game.casualties(seat))
            {
                out.insert(*p, self.marker(card));
            }
        }
        for (c, p) in data.layout.controls.iter().enumerate() {
            if let Some(army) = self.game.control(ControlId::new(c as u8)) {
                out.insert(*p, format!("{army} control marker"));
            }
        }
        out
    }

    /// The markers and cards by their army, the casualty boxes by their side, the control
    /// markers by the army holding the place.
    fn sides(&self) -> BTreeMap<Place, Seat> {
        let data = self.data();
        let mut out = BTreeMap::new();
        for (id, card) in data.cards.ids() {
            for p in self.markers(id) {
                out.insert(p, seat_of(card.army));
            }
            if let Some(p) = data.layout.card_spaces[id.index()] {
                out.insert(p, seat_of(card.army));
            }
        }
        for seat in [FRENCH, ALLIED] {
            for p in data.layout.casualties[seat]
                .iter()
                .take(self.game.casualties(seat).len())
            {
                out.insert(*p, seat);
            }
        }
        for (c, p) in data.layout.controls.iter().enumerate() {
            if let Some(army) = self.game.control(ControlId::new(c as u8)) {
                out.insert(*p, seat_of(army));
            }
        }
        out
    }

    /// The morale cubes ("M9-10": French, then Allied) and the time cube, kept by the umpire.
    fn status_line(&self) -> StatusLine {
        let g = &self.game;
        let who = match g.phase() {
            Phase::Over => "over",
            Phase::TakeFrom(s) | Phase::RoutTest(s) => {
                if s == FRENCH {
                    "French"
                } else {
                    "Allied"
                }
            }
            _ => self.phasing_word(),
        };
        StatusLine {
            turn: u32::from(g.turn()),
            to_act: format!(
                "{who} M{}-{} {}",
                g.morale(FRENCH),
                g.morale(ALLIED),
                g.time_name()
            ),
            ..StatusLine::default()
        }
    }

    fn to_act(&self) -> Actor {
        self.game.to_act()
    }

    fn result(&self) -> Option<(String, String)> {
        match self.game.status() {
            Status::Ongoing => None,
            Status::Won { winner, reason } => Some((
                format!("{} victory", seat_name(winner)),
                match &self.routed {
                    Some(roll) => format!("{reason}: {roll}"),
                    None => reason.to_string(),
                },
            )),
            Status::Drawn { reason } => Some(("Draw".to_string(), reason.to_string())),
        }
    }

    fn gestures(&self) -> Vec<(Gesture, Action)> {
        let mut out = Vec::new();
        let legal = self.game.legal_actions();
        let targeting = Self::targeting(&legal);
        for action in legal {
            match action {
                Action::Activate {
                    card,
                    target,
                    napoleon: false,
                    ..
                } => {
                    for sel in self.choosers(card) {
                        match target {
                            // A card with targets open now chooses its untargeted actions by
                            // the menu: choosing it alone is the first half of a targeted
                            // gesture.
                            None if !targeting.contains(&card) => out.push((
                                Gesture {
                                    selected: Some(sel),
                                    ..Gesture::default()
                                },
                                action,
                            )),
                            None => {}
                            Some(t) => {
                                for at in self.markers(t) {
                                    out.push((Gesture::select_then_lift(sel, at), action));
                                }
                            }
                        }
                    }
                }
                Action::TakeFrom(card) => {
                    for sel in self.markers(card) {
                        out.push((
                            Gesture {
                                selected: Some(sel),
                                ..Gesture::default()
                            },
                            action,
                        ));
                    }
                }
                _ => {}
            }
        }
        out.into_iter().map(|(g, a)| (g.normalized(), a)).collect()
    }

    fn choices(&self) -> Vec<(String, Action)> {
        match self.game.phase() {
            Phase::Roll | Phase::RoutTest(_) => Face::ALL
                .into_iter()
                .map(|f| (format!("die shows {f}"), Action::Roll(f)))
                .collect(),
            Phase::Over => Vec::new(),
            _ => self
                .game
                .legal_actions()
                .into_iter()
                .map(|a| (self.label(&a), a))
                .collect(),
        }
    }

    /// Only a gesture that lifts a target is held: a brushed marker chooses nothing.
    fn held(&self, action: &Action) -> bool {
        matches!(
            action,
            Action::Activate {
                target: Some(_),
                ..
            }
        )
    }

    fn shaped(&self, gesture: &Gesture) -> Vec<Action> {
        let Some(sel) = gesture.selected else {
            return Vec::new();
        };
        if !gesture.placed.is_empty() {
            return Vec::new();
        }
        let Some(card) = self.card_at(&sel) else {
            return Vec::new();
        };
        let Some(c) = self.data().cards.card(card) else {
            return Vec::new();
        };
        match (self.game.phase(), gesture.lifted.as_slice()) {
            (Phase::TakeFrom(_), []) => vec![Action::TakeFrom(card)],
            (Phase::Act, []) => {
                let any = Action::activate(card, 0, None);
                let card_level = self.game.check(&any).is_err_and(|e| {
                    !matches!(
                        e,
                        boards::sba::Illegal::TargetMissing(_)
                            | boards::sba::Illegal::NotATarget { .. }
                            | boards::sba::Illegal::NotImmediate { .. }
                            | boards::sba::Illegal::TooEarly { .. }
                    )
                });
                if card_level {
                    return vec![any];
                }
                let half = Self::targeting(&self.game.legal_actions()).contains(&card);
                (0..c.actions.len())
                    .filter(|&k| c.actions[k].targets.is_empty() && !half)
                    .map(|k| Action::activate(card, k as u8, None))
                    .collect()
            }
            (Phase::Act, [t]) => {
                let Some(target) = self.card_at(t) else {
                    return Vec::new();
                };
                // The actions that name this target first, so a refusal names the one meant.
                let mut out: Vec<Action> = (0..c.actions.len())
                    .map(|k| Action::activate(card, k as u8, Some(target)))
                    .collect();
                out.sort_by_key(|a| match a {
                    Action::Activate { action, .. } => {
                        !c.actions[action.index()].targets.contains(&target)
                    }
                    _ => true,
                });
                out
            }
            _ => Vec::new(),
        }
    }

    /// The rules' refusal; a counter attack's in the OLED's few words.
    fn check(&self, action: &Action) -> Result<(), String> {
        self.game.check(action).map_err(|e| match (e, action) {
            (
                boards::sba::Illegal::NotImmediate { .. },
                Action::Activate {
                    target: Some(t), ..
                },
            ) => {
                let t = self.card_name(*t);
                format!(
                    "a counter attack, only straight after {}'s own action",
                    short(&t)
                )
            }
            (e, _) => e.to_string(),
        })
    }

    /// A selection is never a takeback: its board is the one before, as every action's is.
    fn insists(&self, _action: &Action) -> bool {
        true
    }

    fn play(&mut self, action: &Action) -> Screen {
        let before = self.clone();
        let label = self.label(action);
        let outcome = match self.game.play(action) {
            Ok(outcome) => outcome,
            Err(e) => {
                return Screen::Error {
                    message: format!("{label}: {e}"),
                    fix: "put the markers back as they were".to_string(),
                }
            }
        };
        self.exchanged.clear();
        let (mut lines, mut told): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        let mut moves: Vec<ToldMove> = Vec::new();
        let mut left: BTreeMap<CardId, u8> = BTreeMap::new();
        for event in &outcome.events {
            let mut standing = 0;
            match event {
                Event::Activated { .. } => continue,
                Event::Casualty { from, .. } => {
                    let n = left
                        .entry(*from)
                        .or_insert_with(|| before.game.divisions(*from));
                    standing = *n;
                    *n = n.saturating_sub(1);
                }
                Event::Captured { control, .. } => {
                    if let Some(p) = self.data().layout.controls.get(control.index()) {
                        self.exchanged.push(*p);
                    }
                }
                Event::Arrived { card, .. } => standing = before.game.divisions(*card),
                _ => {}
            }
            let moved = self.told_move(event, standing);
            moves.extend_from_slice(&moved);
            told.push(before.game_announce(&self.game, event, &moved));
            if let Event::Read(e) = event {
                match lines.last_mut() {
                    Some(rolled) if rolled.starts_with("rolled") => {
                        rolled.push_str(&format!(": {e}"));
                    }
                    _ => lines.push(format!("the card reads {e}")),
                }
            } else if let (Event::Arrived { card, .. }, false) = (event, moved.is_empty()) {
                // One line a marker, as a casualty's: each names its space.
                let marker = self.marker(*card);
                let names = moved.iter().flat_map(ToldMove::places);
                lines.extend(names.map(|p| format!("{marker} to {}", self.name(&p))));
            } else {
                lines.push(self.screen_line(event, &moved));
            }
            if let Event::RoutTest { routed: true, .. } = event {
                self.routed = Self::rout_roll(event);
            }
        }
        self.told = told;
        // A rout test rolled after the action: the action's casualties may still stand to be
        // moved, told by the lines carried on.
        if matches!(before.game.phase(), Phase::RoutTest(_)) {
            self.told_moves.append(&mut moves);
        } else {
            self.told_moves = moves;
        }
        let mut title = label;
        if let (Phase::RoutTest(_), Some((t, mut said))) = (before.game.phase(), self.carry.take())
        {
            said.append(&mut lines);
            (title, lines) = (t, said);
        }
        if matches!(self.game.phase(), Phase::RoutTest(_)) {
            self.carry = Some((title.clone(), lines.clone()));
        }
        // What to do next, when it is not a corps to choose (the prompt says that).
        if matches!(
            self.game.phase(),
            Phase::Roll | Phase::TakeFrom(_) | Phase::RoutTest(_)
        ) {
            lines.push(self.prompt());
        }
        Screen::Told {
            status: self.status_line(),
            title,
            lines,
            hands: Vec::new(),
            places: Default::default(),
        }
    }

    fn exchanged(&self) -> Vec<Place> {
        self.exchanged.clone()
    }

    fn chance(&self) -> Vec<(Action, u32)> {
        self.game.chance_outcomes()
    }

    /// The action's die and each rout test are rolled in the open (Die, or a physical die's
    /// face from the menu).
    fn die_button(&self) -> bool {
        matches!(self.game.phase(), Phase::Roll | Phase::RoutTest(_))
    }

    fn label(&self, action: &Action) -> String {
        match *action {
            Action::Activate {
                card,
                action,
                target,
                napoleon,
            } => {
                let what = self
                    .data()
                    .cards
                    .card(card)
                    .and_then(|c| c.actions.get(action.index()))
                    .map_or("an action", |a| a.name.as_str());
                let mut s = format!("{}: {what}", short(&self.card_name(card)));
                if let Some(t) = target {
                    s.push_str(&format!(" vs {}", short(&self.card_name(t))));
                }
                if napoleon {
                    s.push_str(", Napoleon");
                }
                s
            }
            Action::Roll(face) => self.face_label(face),
            Action::TakeFrom(card) => format!("casualty from {}", short(&self.card_name(card))),
            Action::Pass => "pass: no card can act".to_string(),
        }
    }

    /// The labels name cards, never a space.
    fn label_places(&self, _: &Action) -> crate::ui::Places {
        crate::ui::Places::default()
    }

    fn prompt(&self) -> String {
        match self.game.phase() {
            Phase::Act => format!(
                "{}: lift a corps' marker, put it back, lift its target's. OK: menu",
                self.phasing_word()
            ),
            Phase::Roll => "Die: roll. OK: enter a die".to_string(),
            Phase::TakeFrom(seat) => format!(
                "{}: target box empty: lift and put back the marker to lose",
                seat_name(seat)
            ),
            Phase::RoutTest(seat) => {
                format!("{} rout test: Die: roll. OK: enter a die", short_army(seat))
            }
            Phase::Over => String::new(),
        }
    }

    fn turn_key(&self) -> u32 {
        u32::from(self.game.turn()) * 2 + u32::from(self.game.phasing() == ALLIED)
    }

    fn told(&self) -> Vec<String> {
        self.told.clone()
    }

    /// Each casualty, told as its marker's way ("Orange 4 to Allied casualty 1"), each
    /// arrival as its spaces ("Prussian marker to Blücher's Prussians 1"), each capture as its
    /// control box ("Hougoumont taken: French marker in").
    fn told_moves(&self) -> &[ToldMove] {
        &self.told_moves
    }

    fn umpire_board(&self) -> BTreeMap<Place, Named> {
        self.board()
            .into_iter()
            .map(|(p, name)| {
                let code = match self.card_at(&p) {
                    Some(id) => short(&self.card_name(id)).chars().take(3).collect(),
                    None => Named::from_words(name.clone()).code,
                };
                (p, Named { code, name })
            })
            .collect()
    }

    fn sample_groups(
        choice: SbaChoice,
        seat: Seat,
        _roll: &mut dyn FnMut(u32) -> u32,
    ) -> Option<Vec<Vec<Place>>> {
        let data = choice.set.data();
        Some(
            pieces(data, seat)
                .into_iter()
                .map(|p| piece_places(data, p))
                .collect(),
        )
    }

    fn army_words(choice: SbaChoice, seat: Seat, army: &SbaArmy) -> Vec<String> {
        let data = choice.set.data();
        pieces(data, seat)
            .into_iter()
            .zip(&army.filled)
            .map(|(p, places)| format!("{}: {}", piece_label(data, p), squares(places)))
            .collect()
    }
}

impl SbaTable {
    /// A rout test's roll in the OLED's few words ("Allied rout test 2+1 vs morale 9").
    fn rout_roll(event: &Event) -> Option<String> {
        let Event::RoutTest {
            seat,
            face,
            modifier,
            morale,
            ..
        } = *event
        else {
            return None;
        };
        let army = short_army(seat);
        let plus = match modifier {
            0 => String::new(),
            m => format!("+{m}"),
        };
        Some(format!("{army} rout test {face}{plus} vs morale {morale}"))
    }

    /// `event` in the OLED's few words (the record has them in full, [`TableGame::told`]); a
    /// casualty, an arrival or a capture as the spaces of `moved` (the hands' one instruction
    /// for it).
    fn screen_line(&self, event: &Event, moved: &[ToldMove]) -> String {
        let army = |seat: Seat| if seat == FRENCH { "French" } else { "Allied" };
        match *event {
            Event::Rolled {
                face,
                modifier,
                result,
            } => match modifier {
                0 => format!("rolled {face}"),
                m => format!("rolled {face}{m:+}={result}"),
            },
            Event::Casualty {
                from, index, mark, ..
            } => {
                let mark = match mark {
                    boards::sba::Mark::Plain => String::new(),
                    m => format!(" ({m})"),
                };
                match moved {
                    [m] => format!("{}{mark}", self.move_words(*m)),
                    _ => format!(
                        "{}: a division to casualty box {}{mark}",
                        short(&self.card_name(from)),
                        u16::from(index) + 1
                    ),
                }
            }
            Event::Captured { .. } if !moved.is_empty() => self.moves_words(moved, event),
            Event::LastMarker(card) => format!(
                "{} lost its last marker: morale -1",
                short(&self.card_name(card))
            ),
            Event::MoraleLost { seat, by, to } => format!("{} morale -{by}: {to}", army(seat)),
            Event::RoutTest { routed, .. } => {
                let verdict = if routed { "ROUTS" } else { "holds" };
                format!("{}: {verdict}", Self::rout_roll(event).unwrap_or_default())
            }
            _ => self.game.announce(event),
        }
    }

    /// `event` in words, as the rules say it; a casualty, an arrival or a capture names the
    /// spaces the hands use, `moved`.
    fn game_announce(&self, after: &SaBelleAlliance, event: &Event, moved: &[ToldMove]) -> String {
        let words = after.announce(event);
        if moved.is_empty() {
            return words;
        }
        format!("{words}: {}", self.moves_words(moved, event))
    }

    /// The hands' moves `event` asks for: a casualty, the box's last marker (`standing`
    /// markers in it before this one went) to the army's casualty space the event names; an
    /// arrival, a marker onto each of the box's next spaces (`standing` markers in it before);
    /// a capture, the control box's marker exchanged. None for another event, or when the map
    /// lacks a space.
    fn told_move(&self, event: &Event, standing: u8) -> Vec<ToldMove> {
        let layout = &self.data().layout;
        match *event {
            Event::Casualty {
                seat, from, index, ..
            } => {
                let from = standing
                    .checked_sub(1)
                    .and_then(|k| layout.boxes[from.index()].get(usize::from(k)));
                match (from, layout.casualties[seat].get(usize::from(index))) {
                    (Some(&from), Some(&to)) => vec![ToldMove::Move { from, to }],
                    _ => Vec::new(),
                }
            }
            Event::Arrived { card, count } => {
                let spaces = &layout.boxes[card.index()];
                let (k, n) = (usize::from(standing), usize::from(count));
                match spaces.get(k..k + n) {
                    Some(new) => new.iter().map(|p| ToldMove::Arrive(*p)).collect(),
                    None => Vec::new(),
                }
            }
            Event::Captured { control, .. } => layout
                .controls
                .get(control.index())
                .map(|p| vec![ToldMove::Exchange(*p)])
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// `place` as the map names it.
    fn name(&self, place: &Place) -> String {
        Self::place_name(SbaChoice { set: self.set }, place)
    }

    /// The marker of `card`'s army, as the board names it ("Prussian marker").
    fn marker(&self, card: CardId) -> String {
        self.data()
            .cards
            .card(card)
            .map_or_else(|| "marker".to_string(), |c| marker_of(c.army))
    }

    /// A move in the map's names: "Orange 4 to Allied casualty 1"; an arrival or exchange, its
    /// space.
    fn move_words(&self, m: ToldMove) -> String {
        let name = |p: &Place| self.name(p);
        match m {
            ToldMove::Move { from, to } => format!("{} to {}", name(&from), name(&to)),
            ToldMove::Arrive(at) | ToldMove::Exchange(at) => name(&at),
        }
    }

    /// `event`'s moves in the map's names: a casualty "Orange 4 to Allied casualty 1", an
    /// arrival "Prussian markers to Blücher's Prussians 1, Blücher's Prussians 2" (the record;
    /// the OLED has a line a marker), a capture "Hougoumont taken: French marker in".
    fn moves_words(&self, moved: &[ToldMove], event: &Event) -> String {
        let name = |p: &Place| self.name(p);
        match *event {
            Event::Arrived { card, .. } => {
                let marker = self.marker(card);
                let s = if moved.len() == 1 { "" } else { "s" };
                let spaces: Vec<String> = moved
                    .iter()
                    .flat_map(ToldMove::places)
                    .map(|p| name(&p))
                    .collect();
                format!("{marker}{s} to {}", spaces.join(", "))
            }
            Event::Captured { by, .. } => {
                let at: Vec<String> = moved
                    .iter()
                    .flat_map(ToldMove::places)
                    .map(|p| name(&p))
                    .collect();
                format!("{} taken: {by} marker in", at.join(", "))
            }
            _ => moved
                .iter()
                .map(|m| self.move_words(*m))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// A division marker of `army`, as the rulebook names it: "French marker", "Anglo-Allied
/// marker", "Prussian marker".
fn marker_of(army: Army) -> String {
    format!("{army} marker")
}

#[cfg(test)]
mod tests;
