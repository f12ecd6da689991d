//! The turn track as data: the time record printed on the map, read from an editable text file
//! ([`DEFAULT_TURN_TRACK`]).

use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::data::{entries, number, DataProblem, Report};
use crate::Problems;

/// The default turn track, embedded: the 4th edition's 23 boxes, 15 to 22 June 1815.
pub const DEFAULT_TURN_TRACK: &str = include_str!("turns.txt");

/// The most boxes a track may hold.
const MAX_TURNS: usize = u8::MAX as usize;

/// Who moves in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Mover {
    /// An "F" box: the French move two groups (5.1).
    French,
    /// An "A" box: the Allies move one Anglo-Dutch and one Prussian group (5.1).
    Allies,
}

impl fmt::Display for Mover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mover::French => "F",
            Mover::Allies => "A",
        })
    }
}

/// One box of the turn track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    /// The day of June 1815 printed on it.
    pub day: u8,
    /// Who moves.
    pub mover: Mover,
    /// A black box: no attack and no forced march (5.7).
    pub night: bool,
}

/// The validated turn track: at least one box, the first and the last French.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnTrack {
    turns: Vec<Turn>,
}

impl TurnTrack {
    /// The default track ([`DEFAULT_TURN_TRACK`]).
    ///
    /// # Errors
    /// None in practice: the embedded file is tested to be valid.
    pub fn standard() -> Result<TurnTrack, Problems<DataProblem>> {
        TurnTrack::parse(DEFAULT_TURN_TRACK)
    }

    /// Reads a turn-track file.
    ///
    /// # Errors
    /// Every problem, each with its line: unknown entries or movers, days out of range or out
    /// of order, no boxes, a first or last box that is not French.
    pub fn parse(text: &str) -> Result<TurnTrack, Problems<DataProblem>> {
        let mut report = Report::default();
        let mut turns: Vec<(Turn, usize)> = Vec::new();
        // Turn lines seen, good or not: the box number a problem names.
        let mut boxes = 0usize;
        for entry in entries(text) {
            let line = entry.line;
            let words = &entry.words;
            if words[0] != "turn" {
                report.at(
                    line,
                    format!(
                        "'{}' is not an entry: start the line with turn (or # for a comment)",
                        words[0]
                    ),
                );
                continue;
            }
            boxes += 1;
            let (day, mover, night) = match words.get(1..) {
                Some(&[day, mover]) => (day, mover, false),
                Some(&[day, mover, "night"]) => (day, mover, true),
                _ => {
                    report.at(
                        line,
                        "a turn is `turn <day> <F|A>`, with `night` after it for a black box: \
                         `turn 15 F night`"
                            .to_string(),
                    );
                    continue;
                }
            };
            let subject = format!("turn {boxes}");
            let day = number(&mut report, line, &subject, "the day of June", day, 1, 30);
            let mover = match mover {
                "F" | "f" => Some(Mover::French),
                "A" | "a" => Some(Mover::Allies),
                _ => {
                    report.at(
                        line,
                        format!(
                            "{subject}: '{mover}' is not a side: write F (French) or A (Allies)"
                        ),
                    );
                    None
                }
            };
            if let Some((last, last_line)) = turns.last() {
                if day.is_some_and(|d| d < u16::from(last.day)) {
                    report.at(
                        line,
                        format!(
                            "{subject}: day {} comes after day {} (line {last_line}): list the \
                             boxes in the order they are played",
                            words[1], last.day
                        ),
                    );
                }
            }
            if turns.len() == MAX_TURNS {
                report.at(
                    line,
                    format!("{subject}: at most {MAX_TURNS} turns fit; remove some"),
                );
                continue;
            }
            if let (Some(day), Some(mover)) = (day, mover) {
                let turn = Turn {
                    day: day as u8,
                    mover,
                    night,
                };
                turns.push((turn, line));
            }
        }
        match (turns.first(), turns.last()) {
            (None, _) | (_, None) => {
                report.at(0, "the track has no turns: add `turn` lines".to_string());
            }
            (Some((first, line)), Some((last, last_line))) => {
                if first.mover != Mover::French {
                    report.at(
                        *line,
                        "turn 1: the French move first (2): make it an F turn".to_string(),
                    );
                }
                if last.mover != Mover::French {
                    report.at(
                        *last_line,
                        format!(
                            "turn {boxes}: the game ends after a French turn (10.2: \"na de \
                             Franse beurt\"): end the track on an F turn"
                        ),
                    );
                }
            }
        }
        report.finish(TurnTrack {
            turns: turns.into_iter().map(|(t, _)| t).collect(),
        })
    }

    /// Every box, in play order; turn 1 is `turns()[0]`.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// Turn `number` (from 1), if the track has it.
    pub fn turn(&self, number: u8) -> Option<&Turn> {
        self.turns.get(usize::from(number).checked_sub(1)?)
    }

    /// How many turns; the last is the last turn of the game.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether the track is empty (never, for a parsed track).
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// The number of the last turn (from 1): the game ends after it (10.1, 10.2).
    pub fn last_turn(&self) -> u8 {
        // A parsed track has 1 to 255 turns.
        u8::try_from(self.turns.len()).unwrap_or(u8::MAX)
    }
}
