//! The three armies ([`Army`]): the French and the two Allied armies, with the word the data
//! files name each by.

use core::fmt;

use serde::{Deserialize, Serialize};

/// One of the three armies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Army {
    /// The French (blue blocks).
    French,
    /// The Anglo-Dutch, Wellington's army (red blocks).
    AngloDutch,
    /// The Prussians, Blücher's army (black blocks).
    Prussian,
}

impl Army {
    /// All three, in order.
    pub const ALL: [Army; 3] = [Army::French, Army::AngloDutch, Army::Prussian];

    /// The word the data files use: `french`, `ad`, `pr`.
    pub const fn word(self) -> &'static str {
        match self {
            Army::French => "french",
            Army::AngloDutch => "ad",
            Army::Prussian => "pr",
        }
    }

    /// The army a data file's word names.
    pub fn parse(word: &str) -> Option<Army> {
        Army::ALL.into_iter().find(|a| a.word() == word)
    }

    /// Whether this is one of the two Allied armies.
    pub const fn is_allied(self) -> bool {
        !matches!(self, Army::French)
    }
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Army::French => "French",
            Army::AngloDutch => "Anglo-Dutch",
            Army::Prussian => "Prussian",
        })
    }
}
