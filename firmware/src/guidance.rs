//! LED guidance: which squares and tray slots light, and in which colour, computed from what
//! the OLED shows and nothing else.
//!
//! The guidance reads only [`Screen`]s (public by construction: the OLED faces the whole table)
//! and the places the referee put in them beside the words that name them
//! ([`crate::ui::Places`]), so a lit LED can never tell what the screen does not: its inputs
//! hold no rank, and no place the words do not name. It never reads places out of the words. [`Guide::update`] takes each new screen and returns the places to light:
//! - **Mismatch** (red): each place the mismatch screen lists as differing from the expected
//!   board.
//! - **Hand step** (blue): each place a hand must still change, as the battle, action or
//!   refusal screen lists it ("e5: put the Red Miner", "remove e4", "put the piece back on
//!   a4"); the list shrinks as the hands do it, and so do the LEDs.
//! - **Fire target** (orange): the place an action fires at ("c4 fires at c7").
//! - **Last move** (dim white): the places of the last move or action the OLED announced,
//!   while the game waits for the next one, for the player who looks up.
//!
//! A place named for two meanings takes the first in that order. Everything is off outside a
//! game (menus, set-up, faults, the end).
//!
//! # Which LED is which place
//! [`LedMap`] numbers the LEDs from the sensor layout (the one source of which cell is which
//! place) in the chain order the pin map states ([`LedOrder`], `schematics/pinmap.toml`
//! `[leds] order`): LED `i` over sensed cell `i`, or a strip laid in a serpentine over the rows.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::drivers::leds::Rgb;
use crate::faults::Backoff;
use crate::sensing::{Millis, Place, SensorLayout};
use crate::ui::Screen;

/// Why a place is lit, in order of precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Meaning {
    /// The sensed board differs from the expected one here.
    Mismatch,
    /// A hand must still change this place (a battle's winner, a piece that leaves).
    HandStep,
    /// An action fires at this place.
    FireTarget,
    /// The last move or action announced started or ended here.
    LastMove,
}

impl Meaning {
    /// Every meaning, in order of precedence.
    pub const ALL: [Meaning; 4] = [
        Meaning::Mismatch,
        Meaning::HandStep,
        Meaning::FireTarget,
        Meaning::LastMove,
    ];

    /// The meaning in a word or two, for the simulator's legend.
    pub const fn words(self) -> &'static str {
        match self {
            Meaning::Mismatch => "differs from the expected board",
            Meaning::HandStep => "a hand must still change it",
            Meaning::FireTarget => "fire target",
            Meaning::LastMove => "last move",
        }
    }

    /// One character for the simulator's text grid.
    pub const fn mark(self) -> char {
        match self {
            Meaning::Mismatch => '!',
            Meaning::HandStep => '*',
            Meaning::FireTarget => '@',
            Meaning::LastMove => '+',
        }
    }
}

/// A colour per meaning (before the chain's brightness cap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Palette {
    /// For [`Meaning::Mismatch`]: red.
    pub mismatch: Rgb,
    /// For [`Meaning::HandStep`]: blue.
    pub hand_step: Rgb,
    /// For [`Meaning::FireTarget`]: orange.
    pub fire_target: Rgb,
    /// For [`Meaning::LastMove`]: dim white.
    pub last_move: Rgb,
}

impl Default for Palette {
    fn default() -> Palette {
        Palette {
            mismatch: Rgb::new(255, 0, 0),
            hand_step: Rgb::new(0, 64, 255),
            fire_target: Rgb::new(255, 96, 0),
            last_move: Rgb::new(96, 96, 96),
        }
    }
}

impl Palette {
    /// The colour of `meaning`.
    pub const fn colour(&self, meaning: Meaning) -> Rgb {
        match meaning {
            Meaning::Mismatch => self.mismatch,
            Meaning::HandStep => self.hand_step,
            Meaning::FireTarget => self.fire_target,
            Meaning::LastMove => self.last_move,
        }
    }
}

/// The places lit, each with its meaning.
pub type Lit = BTreeMap<Place, Meaning>;

/// Turns the screens the OLED shows into the places to light. Remembers only the places of the
/// last move the OLED announced (public: it was on the screen).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Guide {
    last_move: Vec<Place>,
}

impl Guide {
    /// A guide with nothing to show yet.
    pub fn new() -> Guide {
        Guide::default()
    }

    /// The places to light while `screen` shows: the places the referee put in it beside the
    /// words that name them ([`crate::ui::Places`], [`crate::ui::Difference::at`]).
    pub fn update(&mut self, screen: &Screen) -> Lit {
        let mut lit = Lit::new();
        let light = |lit: &mut Lit, places: &[Place], meaning: Meaning| {
            for place in places {
                lit.entry(*place)
                    .and_modify(|m| *m = (*m).min(meaning))
                    .or_insert(meaning);
            }
        };
        match screen {
            Screen::Mismatch { differences } => {
                let places: Vec<Place> = differences.iter().filter_map(|d| d.at).collect();
                light(&mut lit, &places, Meaning::Mismatch);
            }
            Screen::Battle { places, .. } => {
                // The battle's places are the last move: its hand steps name them all at
                // first, and only fewer as the hands do them.
                if !places.hands.iter().all(|p| self.last_move.contains(p)) {
                    self.last_move.clone_from(&places.hands);
                }
                light(&mut lit, &places.hands, Meaning::HandStep);
                light(&mut lit, &self.last_move, Meaning::LastMove);
            }
            Screen::Told { places, .. } => {
                self.last_move.clone_from(&places.moved);
                light(&mut lit, &places.hands, Meaning::HandStep);
                light(&mut lit, places.target.as_slice(), Meaning::FireTarget);
                light(&mut lit, &self.last_move, Meaning::LastMove);
            }
            Screen::Illegal { places, .. } => {
                light(&mut lit, &places.hands, Meaning::HandStep);
            }
            Screen::MoveAccepted { places, .. } => {
                self.last_move.clone_from(&places.moved);
                light(&mut lit, &self.last_move, Meaning::LastMove);
            }
            // The phone codes cover the game for a moment: its last move stays lit.
            Screen::Play { .. }
            | Screen::DieRoll { .. }
            | Screen::Takeback { .. }
            | Screen::PhoneAsk { .. }
            | Screen::PhoneCode { .. } => {
                light(&mut lit, &self.last_move, Meaning::LastMove);
            }
            // Outside play: nothing lit, and the next game starts without a last move.
            Screen::Boot { .. }
            | Screen::Choice { .. }
            | Screen::Setup { .. }
            | Screen::Problems { .. }
            | Screen::GameOver { .. }
            | Screen::Error { .. }
            | Screen::Calibrate { .. }
            | Screen::Recovery { .. }
            | Screen::Fault { .. } => self.last_move.clear(),
        }
        lit
    }
}

/// How the LEDs are chained over the places.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LedOrder {
    /// LED `i` sits over sensed cell `i` (the sensor layout's numbering: row by row from a1,
    /// then the tray slots).
    #[default]
    Cells,
    /// A strip laid in a serpentine: the first row of squares a1 to the last file, the next
    /// row back from the last file to a, and so on; then the tray slots in cell order.
    Serpentine,
}

impl LedOrder {
    /// The order the schematic's strip runs in: `[leds] order` in the embedded pin map
    /// (`schematics/pinmap.toml`, [`crate::drivers::shift_chain::PIN_MAP`]).
    ///
    /// # Errors
    /// [`OrderError`] when the pin map has no such setting (a test keeps it there).
    pub fn schematic() -> Result<LedOrder, OrderError> {
        LedOrder::from_pin_map(crate::drivers::shift_chain::PIN_MAP)
    }

    /// Reads `[leds] order` from a pin map's text.
    ///
    /// # Errors
    /// [`OrderError`] naming what is missing.
    pub fn from_pin_map(text: &str) -> Result<LedOrder, OrderError> {
        use crate::drivers::shift_chain::{pin_map_table, take_str, take_table};
        let mut root = pin_map_table(text).map_err(OrderError)?;
        let order = take_table(&mut root, "leds").and_then(|mut leds| take_str(&mut leds, "order"));
        match order.as_deref() {
            Some("cells") => Ok(LedOrder::Cells),
            Some("serpentine") => Ok(LedOrder::Serpentine),
            Some(other) => Err(OrderError(format!(
                "the pin map's [leds] order = \"{other}\" is neither \"cells\" nor \"serpentine\""
            ))),
            None => Err(OrderError(
                "the pin map has no [leds] order (\"cells\" or \"serpentine\")".into(),
            )),
        }
    }
}

/// The pin map does not say how the LED chain runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderError(String);

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OrderError {}

impl fmt::Display for LedOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LedOrder::Cells => "cells",
            LedOrder::Serpentine => "serpentine",
        })
    }
}

/// Which LED lights which place: built from the sensor layout in the chain's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedMap {
    places: Vec<Option<Place>>,
}

impl LedMap {
    /// The chain over `layout`'s places in `order`. [`LedOrder::Cells`] has one LED per input
    /// the scanner reads (an unmapped input's LED stays dark); [`LedOrder::Serpentine`] one
    /// per mapped place.
    pub fn new(layout: &SensorLayout, order: LedOrder) -> LedMap {
        let places = match order {
            LedOrder::Cells => (0..layout.cell_count())
                .map(|n| layout.place(crate::sensing::SensedCell::new(n)))
                .collect(),
            LedOrder::Serpentine => {
                let mut squares: Vec<_> = layout
                    .iter()
                    .filter_map(|(_, p)| match p {
                        Place::Square(c) => Some(c),
                        Place::Tray { .. } => None,
                    })
                    .collect();
                squares.sort_by_key(|c| {
                    let along = if c.row % 2 == 0 {
                        i16::from(c.col)
                    } else {
                        -i16::from(c.col)
                    };
                    (c.row, along)
                });
                let trays = layout
                    .iter()
                    .map(|(_, p)| p)
                    .filter(|p| matches!(p, Place::Tray { .. }));
                squares
                    .into_iter()
                    .map(Place::Square)
                    .chain(trays)
                    .map(Some)
                    .collect()
            }
        };
        LedMap { places }
    }

    /// How many LEDs the chain has.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// Whether the chain has no LEDs.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// The place LED `index` sits over, if any.
    pub fn place(&self, index: usize) -> Option<Place> {
        self.places.get(index).copied().flatten()
    }

    /// The LED over `place`, if any.
    pub fn index(&self, place: Place) -> Option<usize> {
        self.places.iter().position(|p| *p == Some(place))
    }

    /// The colour of each LED, LED 0 first, for `lit`.
    pub fn colours(&self, lit: &Lit, palette: &Palette) -> Vec<Rgb> {
        self.places
            .iter()
            .map(|p| {
                p.and_then(|p| lit.get(&p))
                    .map_or(Rgb::OFF, |m| palette.colour(*m))
            })
            .collect()
    }
}

/// Where the service sends the LEDs' colours: the WS2812B chain on the Pi, a recorder in tests.
pub trait LedSink {
    /// Shows `colours`, LED 0 first.
    ///
    /// # Errors
    /// What failed, in words for the log and the fault screen.
    fn show(&mut self, colours: &[Rgb]) -> Result<(), String>;
}

impl<S: embedded_hal::spi::SpiBus> LedSink for crate::drivers::leds::LedChainReady<S> {
    fn show(&mut self, colours: &[Rgb]) -> Result<(), String> {
        crate::drivers::leds::LedChainReady::show(self, colours).map_err(|e| e.to_string())
    }
}

/// The LED guidance as the service runs it: a [`Guide`] fed each new screen, its colours sent
/// to the chain when they change; after a failed send, sent again on the OLED's back-off
/// ([`Backoff::OUTPUT`]), not on every step.
pub struct LedGuidance {
    guide: Guide,
    /// Which LED is which place: built once, when the chain opens.
    map: LedMap,
    palette: Palette,
    sink: Box<dyn LedSink>,
    /// The colours the current screen wants.
    wanted: Option<Vec<Rgb>>,
    /// What the chain took last; `None` after a failure or before the first send.
    sent: Option<Vec<Rgb>>,
    retry: Backoff,
}

impl fmt::Debug for LedGuidance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LedGuidance")
            .field("leds", &self.map.len())
            .field("sent", &self.sent.is_some())
            .finish_non_exhaustive()
    }
}

impl LedGuidance {
    /// Guidance on the chain `map` numbers (the map the chain was opened with, built once from
    /// the sensor layout), sending to `sink`, in the default colours.
    pub fn new(sink: Box<dyn LedSink>, map: LedMap) -> LedGuidance {
        LedGuidance {
            guide: Guide::new(),
            map,
            palette: Palette::default(),
            sink,
            wanted: None,
            sent: None,
            retry: Backoff::OUTPUT,
        }
    }

    /// Which LED is which place.
    pub fn map(&self) -> &LedMap {
        &self.map
    }

    /// Feeds the screen the OLED now shows (`new`: it just changed; its colours are worked out
    /// only then) and, at `now`, sends the colours when they differ from what the chain took
    /// and no retry is waiting out its back-off. The places lit are those the screen carries.
    ///
    /// Returns `None` when nothing was sent (nothing changed, or a retry is not due: the
    /// chain's fault stands as it was), else how the send went.
    pub fn update(
        &mut self,
        screen: &Screen,
        new: bool,
        now: Millis,
    ) -> Option<Result<(), String>> {
        if new || self.wanted.is_none() {
            let lit = self.guide.update(screen);
            self.wanted = Some(self.map.colours(&lit, &self.palette));
        }
        let wanted = self.wanted.as_ref()?;
        if self.sent.as_ref() == Some(wanted) || !self.retry.due(now.0) {
            return None;
        }
        Some(match self.sink.show(wanted) {
            Ok(()) => {
                self.retry.succeeded();
                self.sent = Some(wanted.clone());
                Ok(())
            }
            Err(e) => {
                self.retry.failed(now.0);
                self.sent = None;
                Err(e)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drivers::leds::{decode, encode_frame, Brightness};
    use crate::sensing::{LayoutSetup, TrayKind};
    use crate::ui::{Difference, Places, StatusLine};
    use boards::geometry::grid::Cell;
    use boards::Seat;

    fn layout() -> SensorLayout {
        LayoutSetup::grid(10, 10)
            .with_tray(TrayKind::Reserve, Seat::FIRST, 12)
            .validate()
            .unwrap()
    }

    fn sq(name: &str) -> Place {
        let b = name.as_bytes();
        let row: u8 = name[1..].parse().unwrap();
        Place::Square(Cell::new(b[0] - b'a', row - 1))
    }

    fn slot(n: u8) -> Place {
        Place::Tray {
            tray: TrayKind::Reserve,
            seat: Seat::FIRST,
            slot: n - 1,
        }
    }

    /// The colours a real chain would show: encoded to the SPI bitstream and decoded back.
    fn on_the_wire(map: &LedMap, lit: &Lit) -> BTreeMap<Place, Rgb> {
        let frame = encode_frame(&map.colours(lit, &Palette::default()), Brightness::FULL);
        decode::colours(&frame)
            .unwrap()
            .into_iter()
            .enumerate()
            .filter(|(_, c)| !c.is_off())
            .map(|(i, c)| (map.place(i).unwrap(), c))
            .collect()
    }

    fn status() -> StatusLine {
        StatusLine::default()
    }

    fn moved(places: &[Place]) -> Places {
        Places {
            moved: places.to_vec(),
            ..Places::default()
        }
    }

    fn hands(places: &[Place]) -> Places {
        Places {
            hands: places.to_vec(),
            ..Places::default()
        }
    }

    /// "c4 fires at c7".
    fn fire() -> Places {
        Places {
            target: Some(sq("c7")),
            ..moved(&[sq("c4"), sq("c7")])
        }
    }

    /// The places come from the referee, not the words: a title worded otherwise than "x fires
    /// at y", or naming no place at all, lights the same. Fails on the old matcher, which found
    /// a target only after the words " fires at " and the last move only in the title's words.
    #[test]
    fn the_places_light_whatever_the_words_say() {
        let mut guide = Guide::new();
        let told = |title: &str| Screen::Told {
            status: status(),
            title: title.into(),
            lines: vec![],
            hands: vec![],
            places: fire(),
        };
        let want = Lit::from([
            (sq("c4"), Meaning::LastMove),
            (sq("c7"), Meaning::FireTarget),
        ]);
        for title in [
            "c4 fires at c7",
            "c7 under fire from c4",
            "Grand battery: fire!",
        ] {
            assert_eq!(guide.update(&told(title)), want, "{title}");
        }
        // Words that name places the referee did not put in the screen light nothing.
        let lit = guide.update(&Screen::Illegal {
            status: status(),
            reason: "e4-e5: e5 is taken".into(),
            fix: "put the pieces back".into(),
            places: Places::default(),
        });
        assert!(lit.is_empty(), "{lit:?}");
    }

    #[test]
    fn a_mismatch_lights_each_differing_place_in_red() {
        let layout = layout();
        let map = LedMap::new(&layout, LedOrder::Cells);
        let mut guide = Guide::new();
        let lit = guide.update(&Screen::Mismatch {
            differences: vec![
                Difference {
                    place: "e4".into(),
                    belongs: "empty".into(),
                    at: Some(sq("e4")),
                },
                Difference {
                    place: "reserve slot 3".into(),
                    belongs: "Red piece".into(),
                    at: Some(slot(3)),
                },
            ],
        });
        let red = Palette::default().mismatch;
        assert_eq!(
            on_the_wire(&map, &lit),
            BTreeMap::from([(sq("e4"), red), (slot(3), red)])
        );
    }

    #[test]
    fn a_battle_lights_its_hand_steps_then_stays_the_last_move() {
        let layout = layout();
        let map = LedMap::new(&layout, LedOrder::Serpentine);
        let mut guide = Guide::new();
        guide.update(&Screen::MoveAccepted {
            status: status(),
            mv: "b4-b6".into(),
            places: moved(&[sq("b4"), sq("b6")]),
        });
        let lit = guide.update(&Screen::Battle {
            attacker: "Red Miner".into(),
            defender: "Blue Bomb".into(),
            result: "Miner wins".into(),
            after: Vec::new(),
            hands: vec!["remove e6".into(), "e5: put the Red Miner".into()],
            places: hands(&[sq("e6"), sq("e5")]),
        });
        let p = Palette::default();
        // The battle's squares are hand steps; the move before it is no longer the last.
        assert_eq!(
            on_the_wire(&map, &lit),
            BTreeMap::from([(sq("e6"), p.hand_step), (sq("e5"), p.hand_step)])
        );
        // One step done: its place is the last move now.
        let lit = guide.update(&Screen::Battle {
            attacker: "Red Miner".into(),
            defender: "Blue Bomb".into(),
            result: "Miner wins".into(),
            after: Vec::new(),
            hands: vec!["e5: put the Red Miner".into()],
            places: hands(&[sq("e5")]),
        });
        assert_eq!(lit.get(&sq("e6")), Some(&Meaning::LastMove));
        assert_eq!(lit.get(&sq("e5")), Some(&Meaning::HandStep));
        let lit = guide.update(&Screen::Play {
            status: status(),
            prompt: "Blue to move".into(),
        });
        assert_eq!(
            lit,
            Lit::from([(sq("e6"), Meaning::LastMove), (sq("e5"), Meaning::LastMove)])
        );
    }

    #[test]
    fn a_fire_lights_its_target_and_then_the_last_move_waits_for_the_next_player() {
        let layout = layout();
        let map = LedMap::new(&layout, LedOrder::Cells);
        let mut guide = Guide::new();
        let lit = guide.update(&Screen::Told {
            status: status(),
            title: "c4 fires at c7".into(),
            lines: vec!["hit".into()],
            hands: vec!["remove c7 to reserve slot 2".into()],
            places: Places {
                hands: vec![sq("c7"), slot(2)],
                ..fire()
            },
        });
        let p = Palette::default();
        assert_eq!(
            on_the_wire(&map, &lit),
            BTreeMap::from([
                (sq("c4"), p.last_move),
                (sq("c7"), p.hand_step), // a hand step outranks the target
                (slot(2), p.hand_step),
            ])
        );
        let lit = guide.update(&Screen::Told {
            status: status(),
            title: "c4 fires at c7".into(),
            lines: vec![],
            hands: vec![],
            places: fire(),
        });
        assert_eq!(
            on_the_wire(&map, &lit),
            BTreeMap::from([(sq("c4"), p.last_move), (sq("c7"), p.fire_target)])
        );
        let lit = guide.update(&Screen::Play {
            status: status(),
            prompt: "Blue to move".into(),
        });
        assert_eq!(
            on_the_wire(&map, &lit),
            BTreeMap::from([(sq("c4"), p.last_move), (sq("c7"), p.last_move)])
        );
        // A refusal lights where the hand must put the piece back.
        let lit = guide.update(&Screen::Illegal {
            status: status(),
            reason: "a4-b5: pieces move straight".into(),
            fix: "put the piece back on a4".into(),
            places: hands(&[sq("a4")]),
        });
        assert_eq!(lit, Lit::from([(sq("a4"), Meaning::HandStep)]));
    }

    #[test]
    fn everything_is_off_outside_play_and_a_new_game_forgets_the_last_move() {
        let mut guide = Guide::new();
        guide.update(&Screen::MoveAccepted {
            status: status(),
            mv: "b4-b6".into(),
            places: moved(&[sq("b4"), sq("b6")]),
        });
        let over = Screen::GameOver {
            result: "Red wins".into(),
            reason: "flag taken on e4".into(),
        };
        assert!(guide.update(&over).is_empty());
        let play = Screen::Play {
            status: status(),
            prompt: "Red to move".into(),
        };
        assert!(guide.update(&play).is_empty());
    }

    #[test]
    fn the_serpentine_order_reverses_every_other_row_and_puts_the_trays_last() {
        let layout = layout();
        let map = LedMap::new(&layout, LedOrder::Serpentine);
        assert_eq!(map.len(), 112);
        assert_eq!(map.place(0), Some(sq("a1")));
        assert_eq!(map.place(9), Some(sq("j1")));
        assert_eq!(map.place(10), Some(sq("j2")));
        assert_eq!(map.place(19), Some(sq("a2")));
        assert_eq!(map.place(100), Some(slot(1)));
        assert_eq!(map.index(sq("a2")), Some(19));
        let cells = LedMap::new(&layout, LedOrder::Cells);
        assert_eq!(cells.place(10), Some(sq("a2")));
        assert_eq!(cells.index(slot(12)), Some(111));
        // Every LED of both orders lights a different place.
        for map in [map, cells] {
            let mut seen: Vec<Place> = (0..map.len()).filter_map(|i| map.place(i)).collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 112);
        }
    }

    /// A sink that counts its sends and fails them all.
    struct Broken(std::rc::Rc<std::cell::Cell<usize>>);
    impl LedSink for Broken {
        fn show(&mut self, _: &[Rgb]) -> Result<(), String> {
            self.0.set(self.0.get() + 1);
            Err("/dev/spidev1.0: broken pipe".into())
        }
    }

    /// A chain that fails is sent again on the OLED's back-off (0.1 s doubling to 5 s): 7 sends
    /// in 10 s of steps 10 ms apart, not one per step (1,000 on the old code, which rebuilt and
    /// re-sent the whole chain each step after a failure). Each send says it failed; the steps
    /// between send nothing and report nothing (`None`: the fault stands).
    #[test]
    fn a_failing_chain_is_retried_on_the_back_off_not_every_step() {
        let layout = layout();
        let sends = std::rc::Rc::new(std::cell::Cell::new(0));
        let map = LedMap::new(&layout, LedOrder::Cells);
        let mut guidance = LedGuidance::new(Box::new(Broken(sends.clone())), map);
        let screen = Screen::Mismatch {
            differences: vec![Difference {
                place: "e4".into(),
                at: layout.iter().map(|(_, p)| p).next(),
                belongs: "Red piece".into(),
            }],
        };
        let mut results = Vec::new();
        for t in (0..10_000).step_by(10) {
            let new = t == 0;
            if let Some(result) = guidance.update(&screen, new, Millis(t)) {
                results.push((t, result.is_err()));
            }
        }
        assert_eq!(sends.get(), 7, "{results:?}");
        let at: Vec<u64> = results.iter().map(|(t, _)| *t).collect();
        assert_eq!(at, [0, 100, 300, 700, 1500, 3100, 6300]);
        assert!(results.iter().all(|(_, failed)| *failed));
    }
}
