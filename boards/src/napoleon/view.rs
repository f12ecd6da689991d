//! What one seat may see (3.2): its own blocks' type and strength; of every other block only
//! its colour and its town, counted per town, never which block it is.
//!
//! The type is here; it is built by `View::new` in `game.rs`, beside the state it reads
//! (the game names this view as its `Game::View`, so this file stands below the game).

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::battle::BattleView;
use super::end::EndReason;
use super::{Army, BlockId, Mover, UnitType};
use crate::geometry::roads::{RoadId, TownId};
use crate::{Actor, Seat};

/// One of the seat's own blocks, face towards it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnBlock {
    /// The block.
    pub block: BlockId,
    /// Its name.
    pub name: String,
    /// Its army.
    pub army: Army,
    /// What it is.
    pub kind: UnitType,
    /// Its strength now.
    pub strength: u8,
    /// Where it stands.
    pub town: TownId,
    /// It has moved this turn.
    pub moved: bool,
}

/// Blocks the seat does not command in one town: their colour and how many, nothing more
/// (3.2: the blocks stand on edge, their faces away).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HiddenBlocks {
    /// Where.
    pub town: TownId,
    /// Whose (the colour of the blocks).
    pub army: Army,
    /// How many.
    pub count: u8,
}

/// What a seat may know of a Napoléon game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Whose view.
    pub seat: Seat,
    /// The armies the seat commands.
    pub armies: Vec<Army>,
    /// The turn, from 1, with who moves and whether it is night.
    pub turn: u8,
    /// Who moves this turn.
    pub mover: Option<Mover>,
    /// A night turn (5.7).
    pub night: bool,
    /// The last turn (10).
    pub last_turn: u8,
    /// Who acts now.
    pub to_act: Actor,
    /// The seat's own blocks.
    pub own: Vec<OwnBlock>,
    /// Every other block on the map, counted per town and colour.
    pub others: Vec<HiddenBlocks>,
    /// Units moved along each road this turn (5.4), roads used only: the moves are seen.
    pub traffic: Vec<(RoadId, u16)>,
    /// Per army (French, Anglo-Dutch, Prussian): blocks eliminated (10).
    pub eliminated: [u8; 3],
    /// Per army: defeated (10).
    pub defeated: [bool; 3],
    /// Battles waiting, by town.
    pub battles: Vec<TownId>,
    /// Battles begun and waiting for their next battle turn while another is fought (6.1), by
    /// town, in the order they resume.
    pub under_way: Vec<TownId>,
    /// The battle being fought, and whether it is a skirmish.
    pub fighting: Option<(TownId, bool)>,
    /// What the seat may see of the battle being fought (6.2.4): its own blocks, enemy and
    /// allied blocks only while revealed.
    pub battle: Option<BattleView>,
    /// How the game ended, if it did.
    pub ended: Option<EndReason>,
}
