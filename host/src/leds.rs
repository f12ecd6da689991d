//! The LED guidance on the simulated table: the firmware's [`LedGuidance`] fed the screens
//! the OLED shows, sending to a recording [`LedSink`] that encodes the colours to the SPI frame
//! a WS2812B chain would get and decodes them back; drawn as a text grid of the board with the
//! lit places marked and a legend (`play`, and `demo --frames` beside each frame).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use firmware::drivers::leds::{decode, encode_frame, Brightness, Rgb};
use firmware::guidance::{LedGuidance, LedMap, LedOrder, LedSink, Meaning, OrderError, Palette};
use firmware::sensing::{Millis, Place, SensorLayout};
use firmware::ui::Screen;

use crate::sim::SimTable;

/// A chain that records what it was sent, as it would read it off the wire: each LED's colour
/// decoded from the SPI frame its colours encode to.
#[derive(Clone, Debug, Default)]
pub struct RecordingSink(Rc<RefCell<Vec<Rgb>>>);

impl RecordingSink {
    /// A chain that has taken nothing yet.
    pub fn new() -> RecordingSink {
        RecordingSink::default()
    }

    /// The colours the chain shows, LED 0 first.
    pub fn colours(&self) -> Vec<Rgb> {
        self.0.borrow().clone()
    }
}

impl LedSink for RecordingSink {
    fn show(&mut self, colours: &[Rgb]) -> Result<(), String> {
        let frame = encode_frame(colours, Brightness::MAX);
        let decoded = decode::colours(&frame)
            .map_err(|e| format!("the chain could not read its frame: {e:?}"))?;
        *self.0.borrow_mut() = decoded;
        Ok(())
    }
}

/// The LEDs of a simulated table.
#[derive(Debug)]
pub struct SimLeds {
    /// The chain's order, read once from the pin map.
    order: LedOrder,
    /// The firmware's guidance over the recording chain, built for the table's layout (again
    /// when the table's layout changes).
    guidance: Option<(SensorLayout, LedGuidance)>,
    chain: RecordingSink,
    /// What the chain shows: each lit place's meaning, read back from the decoded frame.
    shown: BTreeMap<Place, Meaning>,
}

impl SimLeds {
    /// A chain laid as the schematic's pin map says, with every LED off.
    ///
    /// # Errors
    /// The pin map does not say how the chain runs.
    pub fn new() -> Result<SimLeds, OrderError> {
        Ok(SimLeds {
            order: LedOrder::schematic()?,
            guidance: None,
            chain: RecordingSink::new(),
            shown: BTreeMap::new(),
        })
    }

    /// Shows what the LEDs light while `table`'s OLED shows `screen`.
    ///
    /// # Errors
    /// The colours did not decode back from their frame.
    pub fn see(&mut self, table: &SimTable, screen: &Screen) -> Result<(), String> {
        let layout = table.pipeline().sensing().layout();
        if self.guidance.as_ref().map(|(l, _)| l) != Some(layout) {
            let map = LedMap::new(layout, self.order);
            let guidance = LedGuidance::new(Box::new(self.chain.clone()), map);
            self.guidance = Some((layout.clone(), guidance));
        }
        let Some((_, guidance)) = self.guidance.as_mut() else {
            return Ok(());
        };
        // The recording chain never fails, so no retry waits: any time will do.
        if let Some(result) = guidance.update(screen, true, Millis(0)) {
            result?;
        }
        let map = guidance.map();
        let palette = Palette::default();
        // What the chain read from the wire, turned back into meanings by colour.
        let meaning_of = |c: Rgb| {
            Meaning::ALL
                .into_iter()
                .find(|m| palette.colour(*m).scaled(Brightness::MAX) == c)
        };
        self.shown = self
            .chain
            .colours()
            .into_iter()
            .enumerate()
            .filter(|(_, c)| !c.is_off())
            .filter_map(|(i, c)| Some((map.place(i)?, meaning_of(c)?)))
            .collect();
        Ok(())
    }

    /// Each lit place and its meaning.
    pub fn shown(&self) -> &BTreeMap<Place, Meaning> {
        &self.shown
    }

    /// The board as a grid of LEDs (`.` dark, a meaning's mark lit), the lit tray slots, and a
    /// legend of the marks used; one line "LEDs: all off" when nothing is lit.
    pub fn draw(&self, table: &SimTable) -> Vec<String> {
        if self.shown.is_empty() {
            return vec!["LEDs: all off".into()];
        }
        let layout = table.pipeline().sensing().layout();
        let squares: Vec<_> = layout
            .iter()
            .filter_map(|(_, p)| match p {
                Place::Square(c) => Some(c),
                Place::Tray { .. } => None,
            })
            .collect();
        let cols = squares.iter().map(|c| c.col).max().map_or(0, |c| c + 1);
        let rows = squares.iter().map(|c| c.row).max().map_or(0, |r| r + 1);
        let mut lines = vec!["LEDs:".to_string()];
        for row in (0..rows).rev() {
            let mut line = format!("{:>2} ", row + 1);
            for col in 0..cols {
                let place = Place::Square(boards::geometry::grid::Cell::new(col, row));
                line.push(self.shown.get(&place).map_or('.', |m| m.mark()));
                line.push(' ');
            }
            lines.push(line.trim_end().to_string());
        }
        let letters: String = (0..cols)
            .map(|c| format!("{} ", char::from(b'a' + c)))
            .collect();
        lines.push(format!("   {}", letters.trim_end()));
        let names = table.referee().table();
        let trays: Vec<String> = self
            .shown
            .iter()
            .filter(|(p, _)| matches!(p, Place::Tray { .. }))
            .map(|(p, m)| {
                let name = names.map_or_else(|| p.to_string(), |v| v.place_name(p));
                format!("{} {name}", m.mark())
            })
            .collect();
        if !trays.is_empty() {
            lines.push(format!("   trays: {}", trays.join(", ")));
        }
        let legend: Vec<String> = Meaning::ALL
            .into_iter()
            .filter(|m| self.shown.values().any(|s| s == m))
            .map(|m| format!("{} {}", m.mark(), m.words()))
            .collect();
        lines.push(format!("   {}", legend.join("; ")));
        lines
    }
}
