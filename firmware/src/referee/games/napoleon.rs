//! Napoléon 1815 at the table: the physical board as data ([`layout`]). The adapter follows.

pub mod layout;

pub use layout::{BattleBoard, LayoutProblems, NapoleonLayout, Spot, DEFAULT_LAYOUT};
