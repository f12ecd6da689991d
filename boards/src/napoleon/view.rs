//! What one seat may see (3.2): its own blocks' type and strength; of every other block only
//! its colour and its town, counted per town, never which block it is.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::battle::BattleView;
use super::game::{EndReason, Napoleon, Phase};
use super::{Army, BlockId, Mover, UnitType};
use crate::geometry::roads::{RoadId, TownId};
use crate::{Actor, Game, Seat, Status};

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

impl View {
    /// `seat`'s view of `game`.
    pub(crate) fn new(game: &Napoleon, seat: Seat) -> View {
        let options = game.options();
        let oob = options.campaign.order_of_battle();
        let armies: Vec<Army> = Army::ALL
            .into_iter()
            .filter(|&a| options.commands(seat, a))
            .collect();
        let mut own = Vec::new();
        let mut others: Vec<HiddenBlocks> = Vec::new();
        for (id, b) in oob.blocks() {
            let Some(town) = game.town_of(id) else {
                continue;
            };
            if armies.contains(&b.army) {
                own.push(OwnBlock {
                    block: id,
                    name: b.name.clone(),
                    army: b.army,
                    kind: b.kind,
                    strength: game.strength_of(id),
                    town,
                    moved: game.moved.get(id.index()).copied().unwrap_or(false),
                });
            } else {
                match others
                    .iter_mut()
                    .find(|h| h.town == town && h.army == b.army)
                {
                    Some(h) => h.count = h.count.saturating_add(1),
                    None => others.push(HiddenBlocks {
                        town,
                        army: b.army,
                        count: 1,
                    }),
                }
            }
        }
        // In town order, so the order says nothing of which blocks they are.
        others.sort_by_key(|h| (h.town, h.army));
        let turn = options.campaign.turn_track().turn(game.turn()).copied();
        View {
            seat,
            battle: game.battle.as_ref().map(|b| b.view_of(&armies)),
            armies,
            turn: game.turn(),
            mover: turn.map(|t| t.mover),
            night: turn.is_some_and(|t| t.night),
            last_turn: options.campaign.turn_track().last_turn(),
            to_act: game.to_act(),
            own,
            others,
            traffic: game
                .traffic
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(i, &n)| (RoadId::new(i as u16), n))
                .collect(),
            eliminated: Army::ALL.map(|a| game.eliminated(a)),
            defeated: Army::ALL.map(|a| game.is_defeated(a)),
            battles: game.pending_battles().to_vec(),
            under_way: game.battles_under_way(),
            fighting: match game.phase {
                Phase::Battle { town, skirmish } => Some((town, skirmish)),
                _ => None,
            },
            ended: match game.status() {
                Status::Won { reason, .. } | Status::Drawn { reason } => Some(reason),
                Status::Ongoing => None,
            },
        }
    }
}
