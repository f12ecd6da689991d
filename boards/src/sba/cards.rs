//! The corps cards and the map's tracks as data: a [`CardSet`], read from a TOML file the owner
//! keys in from their own cards ([`CardSet::parse`], with the `std` feature), validated with
//! every problem reported with its line. The publisher's numbers are not public; the embedded
//! [`EXAMPLE_CARDS`] is a set we wrote ourselves to play and test every rule.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::army::{Army, FRENCH};
use crate::decode::OutOfRange;
use crate::{BySeat, Seat};

/// Our example card set (TOML), clearly not the publisher's numbers: complete enough to play
/// and to exercise every rule.
pub const EXAMPLE_CARDS: &str = include_str!("example-cards.toml");

/// The most cards a set may hold (the game has 14); a decoded [`CardId`] is below it.
pub const MAX_CARDS: usize = 32;
/// The most actions one card may list; a decoded [`ActionId`] is below it.
pub const MAX_ACTIONS: usize = 8;
/// The most control boxes (the game has 3).
pub const MAX_CONTROLS: usize = 8;
/// The most boxes a casualty track may have.
pub const MAX_CASUALTY_BOXES: usize = 64;
/// The most division markers one card's box (or its waiting pool) may hold.
pub const MAX_DIVISIONS: u8 = 20;

/// A card of a [`CardSet`], numbered from 0 in the file's order.
///
/// Decodes only below [`MAX_CARDS`]; an id beyond the cards of the set in play is refused by
/// [`Game::check`](crate::Game::check) and ignored by the trusted path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct CardId(u8);

impl CardId {
    /// The card with this number (the file's order, from 0).
    pub const fn new(index: u8) -> CardId {
        CardId(index)
    }

    /// The number, usable to index per-card arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl TryFrom<u8> for CardId {
    type Error = OutOfRange;
    fn try_from(index: u8) -> Result<CardId, OutOfRange> {
        if usize::from(index) < MAX_CARDS {
            Ok(CardId(index))
        } else {
            Err(OutOfRange::new(
                "a Sa Belle Alliance card",
                index,
                "0 to 31",
            ))
        }
    }
}

/// One of a card's actions, numbered from 0 in the card's order. Decodes only below
/// [`MAX_ACTIONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct ActionId(u8);

impl ActionId {
    /// The action with this number on its card.
    pub const fn new(index: u8) -> ActionId {
        ActionId(index)
    }

    /// The number, usable to index a card's actions.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl TryFrom<u8> for ActionId {
    type Error = OutOfRange;
    fn try_from(index: u8) -> Result<ActionId, OutOfRange> {
        if usize::from(index) < MAX_ACTIONS {
            Ok(ActionId(index))
        } else {
            Err(OutOfRange::new("a card's action", index, "0 to 7"))
        }
    }
}

/// A control box (Hougoumont, La Haye Sainte, Plancenoit), numbered in the file's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct ControlId(u8);

impl ControlId {
    /// The control box with this number.
    pub const fn new(index: u8) -> ControlId {
        ControlId(index)
    }

    /// The number, usable to index per-box arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl TryFrom<u8> for ControlId {
    type Error = OutOfRange;
    fn try_from(index: u8) -> Result<ControlId, OutOfRange> {
        if usize::from(index) < MAX_CONTROLS {
            Ok(ControlId(index))
        } else {
            Err(OutOfRange::new("a control box", index, "0 to 7"))
        }
    }
}

/// What a box of the casualty track is marked with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mark {
    /// Nothing: a casualty placed here calls for nothing.
    Plain,
    /// "RT", "RT+1", "RT+2": a casualty placed here calls a rout test; while a casualty lies
    /// here, the highest such modifier on the track is added to the army's rout test rolls.
    RoutTest(u8),
    /// "B": a casualty placed here routs the army at once.
    Broken,
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mark::Plain => f.write_str("-"),
            Mark::RoutTest(0) => f.write_str("RT"),
            Mark::RoutTest(n) => write!(f, "RT+{n}"),
            Mark::Broken => f.write_str("B"),
        }
    }
}

/// One army's tracks: its morale track and its casualty track.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArmyTracks {
    /// The morale square the army starts on (the rulebook: 10).
    pub morale_start: i16,
    /// The morale square marked "B": reaching it routs the army at once.
    pub morale_broken: i16,
    /// The casualty boxes from top to bottom, each with its mark; the last is "B".
    pub casualties: Vec<Mark>,
}

/// The time track: its boxes and when the marker moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimeTrack {
    /// The boxes in order, e.g. "Midday", "2 pm".
    pub boxes: Vec<String>,
    /// The box the marker starts on (the rulebook: Midday).
    pub start: u8,
    /// The marker moves once when this many Prussian markers have come onto the battlefield
    /// (the rulebook: the 5th).
    pub prussian_arrivals: u8,
    /// The marker moves once when the two casualty tracks together hold this many markers (the
    /// rulebook: 10 or more).
    pub casualties: u8,
}

/// A control box and who holds it at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Control {
    /// The name on the map ("Hougoumont").
    pub name: String,
    /// Whose marker is in it at the start.
    pub held: Army,
}

/// When a die-roll modifier applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Condition {
    /// Always.
    Always,
    /// While the acting side (French; Allied or Prussian) holds this control box.
    Held(ControlId),
    /// While the acting side does not hold it.
    NotHeld(ControlId),
    /// While this card's box holds no marker (e.g. the Grand Battery silenced).
    Empty(CardId),
    /// From this box of the time track on.
    FromTime(u8),
}

/// A die-roll modifier printed on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Modifier {
    /// Added to the roll (negative to subtract).
    pub add: i8,
    /// When.
    pub when: Condition,
}

/// One outcome of a card's table: what the result does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Effects {
    /// FC: French casualties.
    pub french_casualties: u8,
    /// AC: Anglo-Allied casualties (Prussians included).
    pub allied_casualties: u8,
    /// FM: French morale loss.
    pub french_morale: u8,
    /// AM: Anglo-Allied morale loss.
    pub allied_morale: u8,
    /// CAP: the action's control box changes hands to the acting side.
    pub capture: bool,
    /// P: this many of the card's waiting divisions come onto the battlefield.
    pub arrive: u8,
}

impl Effects {
    /// The casualties `seat` suffers.
    pub fn casualties(&self, seat: Seat) -> u8 {
        if seat == FRENCH {
            self.french_casualties
        } else {
            self.allied_casualties
        }
    }

    /// The morale `seat` loses.
    pub fn morale(&self, seat: Seat) -> u8 {
        if seat == FRENCH {
            self.french_morale
        } else {
            self.allied_morale
        }
    }
}

impl fmt::Display for Effects {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut any = false;
        let mut put = |f: &mut fmt::Formatter<'_>, code: &str, n: u8| -> fmt::Result {
            if n > 0 {
                if any {
                    f.write_str(" ")?;
                }
                any = true;
                write!(f, "{code}{n}")?;
            }
            Ok(())
        };
        put(f, "FC", self.french_casualties)?;
        put(f, "AC", self.allied_casualties)?;
        put(f, "FM", self.french_morale)?;
        put(f, "AM", self.allied_morale)?;
        put(f, "P", self.arrive)?;
        if self.capture {
            f.write_str(if any { " CAP" } else { "CAP" })?;
            any = true;
        }
        if !any {
            f.write_str("-")?;
        }
        Ok(())
    }
}

/// One action printed on a card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardAction {
    /// Its name on the card ("Assault La Haye Sainte").
    pub name: String,
    /// The enemy cards it may target; the player picks one. Empty: no target (the enemy's
    /// casualties are then the owner's choice).
    pub targets: Vec<CardId>,
    /// A counter attack: only straight after the chosen target's own action.
    pub counter: bool,
    /// The control box a CAP result takes.
    pub captures: Option<ControlId>,
    /// The first box of the time track from which the action may be taken (0: from the start).
    pub from_time: u8,
    /// The die-roll modifiers.
    pub modifiers: Vec<Modifier>,
    /// The modified result read on the first row of the table; lower results read that row.
    pub first: i8,
    /// The table, one row per result from [`CardAction::first`] up; higher results read the
    /// last row. A single row: no die is rolled.
    pub results: Vec<Effects>,
}

impl CardAction {
    /// Whether a die is rolled (the table has more than one row).
    pub fn rolls(&self) -> bool {
        self.results.len() > 1
    }

    /// The row read for a modified result.
    pub fn row(&self, result: i16) -> Effects {
        let last = self.results.len().saturating_sub(1);
        let i = (result - i16::from(self.first)).clamp(0, i16::try_from(last).unwrap_or(0));
        self.results
            .get(usize::try_from(i).unwrap_or(0))
            .copied()
            .unwrap_or_default()
    }
}

/// A card: a corps (its divisions in its box), the Grand Battery, Blücher's Prussians (waiting
/// divisions), or a leader's once-a-game order (Wellington).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Card {
    /// The name on the card.
    pub name: String,
    /// Whose it is.
    pub army: Army,
    /// Division markers in its box at the start.
    pub divisions: u8,
    /// Division markers set aside at the start, to come on by P results (the Prussians).
    pub reserve: u8,
    /// May be used once a game only (Wellington's general advance).
    pub once: bool,
    /// Its actions, at least one.
    pub actions: Vec<CardAction>,
}

impl Card {
    /// Whether the card has markers at all (a corps, the Grand Battery, the Prussians), so that
    /// it cannot be activated once it has none left.
    pub fn has_markers(&self) -> bool {
        self.divisions > 0 || self.reserve > 0
    }
}

/// A validated card set: the cards, the tracks, the control boxes. Built only by
/// [`CardSet::parse`], so every name it refers to exists and every number is in range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardSet {
    pub(crate) title: String,
    pub(crate) napoleon: i8,
    pub(crate) tracks: BySeat<ArmyTracks>,
    pub(crate) time: TimeTrack,
    pub(crate) controls: Vec<Control>,
    pub(crate) cards: Vec<Card>,
}

impl CardSet {
    /// The set's title, which says whose numbers these are.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// What Napoleon adds to one French die roll, once a game.
    pub fn napoleon(&self) -> i8 {
        self.napoleon
    }

    /// `seat`'s morale and casualty tracks.
    pub fn tracks(&self, seat: Seat) -> &ArmyTracks {
        &self.tracks[seat]
    }

    /// The time track.
    pub fn time(&self) -> &TimeTrack {
        &self.time
    }

    /// The control boxes.
    pub fn controls(&self) -> &[Control] {
        &self.controls
    }

    /// Every card, in the file's order.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// The card `id`, if the set has it.
    pub fn card(&self, id: CardId) -> Option<&Card> {
        self.cards.get(id.index())
    }

    /// The card named `name` (ignoring ASCII case).
    pub fn card_id(&self, name: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(|i| CardId(i as u8))
    }

    /// The control box named `name` (ignoring ASCII case).
    pub fn control_id(&self, name: &str) -> Option<ControlId> {
        self.controls
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(|i| ControlId(i as u8))
    }

    /// The cards with their ids.
    pub fn ids(&self) -> impl Iterator<Item = (CardId, &Card)> + '_ {
        self.cards
            .iter()
            .enumerate()
            .map(|(i, c)| (CardId(i as u8), c))
    }

    /// The example set, [`EXAMPLE_CARDS`].
    ///
    /// # Panics
    /// Only if the embedded file were broken, which `tests/sba_cards.rs` rules out.
    #[cfg(feature = "std")]
    pub fn example() -> CardSet {
        match CardSet::parse(EXAMPLE_CARDS) {
            Ok(set) => set,
            // The embedded file is tested to parse; a broken build shows it at once.
            Err(p) => panic!("the embedded example card set is broken: {p}"),
        }
    }
}

/// One problem in a card file, with its line (from 1) and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardProblem {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for CardProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CardProblem {}

/// Whose marker is in control box `c`, read from the control boxes (for the game and its views).
pub(crate) fn control_in(control: &[Army], c: ControlId) -> Option<Army> {
    control.get(c.index()).copied()
}

/// Whether the once-a-game `card` is marked used (for the game and its views).
pub(crate) fn used_in(used: &[bool], card: CardId) -> bool {
    used.get(card.index()).copied().unwrap_or(false)
}
