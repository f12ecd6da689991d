//! What one army, or the public, may see of a battle (3.2, 6.2.4, 6.6).

use alloc::vec::Vec;

use serde::Serialize;

use super::{Battle, BattleActor, Ending, Loc, Phase, Place, Side, Step, Zone};
use crate::geometry::roads::TownId;
use crate::napoleon::{Army, BlockId, TerrainKind, UnitType};

/// One block as a viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BlockView {
    /// The viewer's own block, or an enemy block the rules reveal now.
    Known {
        /// The block.
        block: BlockId,
        /// Its army.
        army: Army,
        /// Its side.
        side: Side,
        /// What it is.
        kind: UnitType,
        /// Its strength now.
        strength: u8,
        /// Where it stands; `None` before it is set up.
        place: Option<Place>,
        /// In a square (6.5).
        square: bool,
        /// Whether the enemy sees it now (for the viewer's own blocks).
        revealed: bool,
    },
    /// A block the viewer may not see: only its colour and where it stands.
    Hidden {
        /// Its army (the colour of the block).
        army: Army,
        /// Its side.
        side: Side,
        /// Where it stands; `None` before it is set up.
        place: Option<Place>,
    },
}

/// What one army (or the public) may see of a battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BattleView {
    /// The town fought over.
    pub town: TownId,
    /// Whose view this is; `None` for the public.
    pub viewer: Option<Army>,
    /// Whether it is a skirmish (6.6).
    pub skirmish: bool,
    /// The step.
    pub step: Step,
    /// The attacker's battle turns begun.
    pub turn: u16,
    /// Who acts.
    pub actor: BattleActor,
    /// The terrain placed, face up (6.2.1).
    pub terrain: Vec<(Zone, TerrainKind)>,
    /// A terrain block the viewer's side has drawn and not yet placed.
    pub drawn: Option<TerrainKind>,
    /// The blocks in the battle: the viewer's own and the revealed ones first, in block order,
    /// then the hidden ones by side, place and army (so their order says nothing).
    pub blocks: Vec<BlockView>,
    /// The viewer's own blocks waiting in neighbouring towns to reinforce, with their town.
    pub waiting: Vec<(BlockId, TownId)>,
    /// A volley being fired: dice and the highest face that hits.
    pub volley: Option<(u8, u8)>,
    /// How it ended, once it has.
    pub ending: Option<Ending>,
}

impl Battle {
    /// What `viewer` may see (`None`: the public): its own blocks in full, enemy blocks and
    /// the ally's only while the rules reveal them (6.2.4), the rest as blocks of a colour in
    /// a place.
    pub fn view(&self, viewer: Option<Army>) -> BattleView {
        self.view_of(viewer.as_slice())
    }

    /// What a player commanding all of `armies` may see: the Allied player of a two-player
    /// game sees both Allied armies' blocks.
    pub fn view_of(&self, armies: &[Army]) -> BattleView {
        let mine = |army: Army| armies.contains(&army);
        let mut known = Vec::new();
        let mut hidden = Vec::new();
        let mut waiting = Vec::new();
        for (i, f) in self.fighters.iter().enumerate() {
            let place = match f.at {
                Loc::Field(p) => Some(p),
                Loc::Undeployed => None,
                Loc::Waiting(r) => {
                    if mine(f.army) {
                        waiting.push((f.block, self.roads[r].town));
                    }
                    continue;
                }
                Loc::Retreated(_) | Loc::Eliminated => continue,
            };
            let revealed = self.revealed(i);
            if mine(f.army) || revealed {
                known.push(BlockView::Known {
                    block: f.block,
                    army: f.army,
                    side: f.side,
                    kind: f.kind,
                    strength: f.strength,
                    place,
                    square: f.square,
                    revealed,
                });
            } else {
                hidden.push(BlockView::Hidden {
                    army: f.army,
                    side: f.side,
                    place,
                });
            }
        }
        hidden.sort_by_key(|b| match *b {
            BlockView::Hidden { army, side, place } => (side, place, army),
            BlockView::Known {
                army, side, place, ..
            } => (side, place, army),
        });
        known.extend(hidden);
        let drawn = match self.phase {
            Phase::Terrain {
                side,
                drawn: Some(kind),
                ..
            } if armies.iter().any(|&a| self.side_of(a) == Some(side)) => Some(kind),
            _ => None,
        };
        BattleView {
            town: self.town,
            viewer: armies.first().copied().filter(|_| armies.len() == 1),
            skirmish: self.skirmish,
            step: self.step(),
            turn: self.turn,
            actor: self.actor(),
            terrain: Zone::ALL
                .into_iter()
                .filter_map(|z| self.terrain_at(z).map(|k| (z, k)))
                .collect(),
            drawn,
            blocks: known,
            waiting,
            volley: self.volley.as_ref().map(|v| (v.dice, v.hits_on)),
            ending: self.ending,
        }
    }

    /// The side `army` fights on, if it takes part.
    pub fn side_of(&self, army: Army) -> Option<Side> {
        self.fighters
            .iter()
            .find(|f| f.army == army)
            .map(|f| f.side)
    }
}
