//! The LED guidance on the simulated table: the firmware's [`Guide`] fed the screens the OLED
//! shows, its colours encoded to the SPI frame a WS2812B chain would get and decoded back, and
//! drawn as a text grid of the board with the lit places marked and a legend (`play`, and
//! `demo --frames` beside each frame).

use std::collections::BTreeMap;

use firmware::drivers::leds::{decode, encode_frame, Brightness, Rgb};
use firmware::guidance::{Guide, LedMap, LedOrder, Meaning, Palette};
use firmware::sensing::Place;
use firmware::ui::Screen;

use crate::sim::SimTable;

/// The LEDs of a simulated table.
#[derive(Debug, Default)]
pub struct SimLeds {
    guide: Guide,
    /// What the chain shows: each lit place's meaning, read back from the decoded frame.
    shown: BTreeMap<Place, Meaning>,
}

impl SimLeds {
    /// A chain with every LED off.
    pub fn new() -> SimLeds {
        SimLeds::default()
    }

    /// Shows what the LEDs light while `table`'s OLED shows `screen`.
    pub fn see(&mut self, table: &SimTable, screen: &Screen) {
        let layout = table.pipeline().sensing().layout();
        let lit = self.guide.update(screen);
        let map = LedMap::new(layout, LedOrder::schematic().unwrap_or_default());
        let palette = Palette::default();
        let frame = encode_frame(&map.colours(&lit, &palette), Brightness::MAX);
        // What a chain reads from the wire, turned back into meanings by colour.
        let colours = decode::colours(&frame).unwrap_or_default();
        let meaning_of = |c: Rgb| {
            Meaning::ALL
                .into_iter()
                .find(|m| palette.colour(*m).scaled(Brightness::MAX) == c)
        };
        self.shown = colours
            .into_iter()
            .enumerate()
            .filter(|(_, c)| !c.is_off())
            .filter_map(|(i, c)| Some((map.place(i)?, meaning_of(c)?)))
            .collect();
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
