//! A battle or skirmish of Napoléon (rulebook sections 6, 7 and 8), as a self-contained
//! sub-state machine the campaign starts when a group attacks a town held by the enemy.
//!
//! The campaign builds a [`BattleSetup`] (the town, each side's blocks with their current
//! strength, and the neighbouring towns: who holds them, which friendly blocks stand there to
//! reinforce, where the attacker came from), starts a [`Battle`] with [`Battle::new`], and plays
//! it like a game: [`Battle::actor`] says who acts (an [`Army`], chance, or nobody once it is
//! over), [`Battle::legal_actions`] and [`Battle::check`] say what that actor may do,
//! [`Battle::chance_outcomes`] gives every die and terrain draw with its exact weight, and
//! [`Battle::play_unchecked`] applies an action and returns what happened. When
//! [`Battle::result`] is `Some`, the campaign reads each block's fate from it: still on the
//! field, retreated (disordered, 7.3) to a town, or eliminated.
//!
//! The battle keeps the whole truth; [`Battle::view`] gives what one army (or the public) may
//! see: its own blocks, and enemy blocks only while the rules reveal them (6.2.4); a hidden block
//! is shown only as "a block of this army in this zone".
//!
//! The rulings where the rulebook is silent are named in [`BattleOptions`] and listed in this
//! module's README.
#![doc = include_str!("README.md")]

mod rules;
mod view;

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::{Army, BlockId, TerrainKind, UnitType};
use crate::geometry::roads::TownId;

pub use view::{BattleView, BlockView};

/// The two sides of a battle: the active player who moved in is the attacker (6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Side {
    /// The side that moved into the town; it takes the first battle turn (6.3).
    Attacker,
    /// The side that held the town.
    Defender,
}

impl Side {
    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        })
    }
}

/// One of the three positions each side holds on its half of the battle board (6.2.2), named
/// as its owner sees it: the attacker's left faces the defender's right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Wing {
    /// "Links".
    Left,
    /// "Centrum".
    Centre,
    /// "Rechts".
    Right,
}

impl Wing {
    /// The three, in order.
    pub const ALL: [Wing; 3] = [Wing::Left, Wing::Centre, Wing::Right];

    /// The wing facing this one across the board: left faces right.
    pub const fn facing(self) -> Wing {
        match self {
            Wing::Left => Wing::Right,
            Wing::Centre => Wing::Centre,
            Wing::Right => Wing::Left,
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Wing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wing::Left => "left",
            Wing::Centre => "centre",
            Wing::Right => "right",
        })
    }
}

/// A zone of the battle board: a wing of one side's half. Units attacking move into the enemy's
/// zones; a zone "belongs" to the side whose half it is on (7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Zone {
    /// Whose half it is on.
    pub half: Side,
    /// Which wing, as that side sees it.
    pub wing: Wing,
}

impl Zone {
    /// The six zones, the attacker's first.
    pub const ALL: [Zone; 6] = [
        Zone::new(Side::Attacker, Wing::Left),
        Zone::new(Side::Attacker, Wing::Centre),
        Zone::new(Side::Attacker, Wing::Right),
        Zone::new(Side::Defender, Wing::Left),
        Zone::new(Side::Defender, Wing::Centre),
        Zone::new(Side::Defender, Wing::Right),
    ];

    /// The zone on `half`'s half at `wing`.
    pub const fn new(half: Side, wing: Wing) -> Zone {
        Zone { half, wing }
    }

    /// The zone facing this one across the board (the only forward step; 6.3.2 forbids
    /// diagonal moves).
    pub const fn facing(self) -> Zone {
        Zone::new(self.half.other(), self.wing.facing())
    }

    const fn index(self) -> usize {
        self.half.index() * 3 + self.wing.index()
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {}'s {}", self.half, self.wing)
    }
}

/// Where a block stands on the battle board: one of the six zones, or its own side's reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Place {
    /// Its own side's reserve: hidden, cannot fire or be fired at (6.3.3).
    Reserve,
    /// A zone.
    Zone(Zone),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Reserve => f.write_str("the reserve"),
            Place::Zone(z) => write!(f, "{z}"),
        }
    }
}

/// The named rulings where the rulebook is silent or offers a choice (the README lists each
/// with its reason). [`BattleOptions::default`] is the standard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattleOptions {
    /// 6.2.4's option: blocks are revealed only once they fire or are in combat, not all at
    /// the start of the battle.
    pub reveal_on_contact: bool,
    /// After this many battle turns of the attacker, the battle ends as a stalemate (6.7) even
    /// if the attacker keeps fighting: the rulebook sets no end, the referee needs one. 0: none.
    pub turn_limit: u16,
    /// Ruling R20's other reading: the hill's bonus (6.2.1, "Eén verdedigende
    /// artillerie-eenheid krijgt 1 extra vuurkracht") only for an artillery block of the battle's
    /// defending side. Off (the default): for the artillery that holds (defends) the hill, of
    /// either side, as 6.2.1 calls the holder "de eenheid die de hoeve of de heuvel verdedigt".
    pub hill_for_defenders_only: bool,
}

impl Default for BattleOptions {
    fn default() -> Self {
        BattleOptions {
            reveal_on_contact: false,
            turn_limit: 40,
            hill_for_defenders_only: false,
        }
    }
}

/// A block taking part, as the campaign holds it: which block and its current strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Unit {
    /// The block.
    pub block: BlockId,
    /// Its current strength, 1 to its full strength.
    pub strength: u8,
}

/// A town next to the battle, as the battle needs to know it (6.3.4 reinforcements, 7.1
/// retreats). The road and its width come from the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Approach {
    /// The neighbouring town.
    pub town: TownId,
    /// Which side holds it (has blocks there), if either. A side retreats only to towns the
    /// enemy does not hold (7.1).
    pub held_by: Option<Side>,
    /// Whether any of the attacker's blocks moved in from here: the attacker may retreat only
    /// to such towns and to those it was reinforced from (7.1).
    pub attacked_from: bool,
    /// Whether another battle is being fought there: no one retreats to it (7.1) and its
    /// blocks do not reinforce (6.3.4).
    pub battle: bool,
    /// Friendly blocks standing there that may reinforce the holder's side (not disordered,
    /// 7.3; not in another battle, 6.3.4).
    pub reinforcements: Vec<Unit>,
}

/// Everything a battle starts from; checked by [`Battle::new`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BattleSetup {
    /// The town fought over.
    pub town: TownId,
    /// The attacking blocks (all French, or all Allied).
    pub attackers: Vec<Unit>,
    /// The defending blocks (the other camp).
    pub defenders: Vec<Unit>,
    /// The towns next to `town`, each at most once; towns left out take no part.
    pub approaches: Vec<Approach>,
    /// The rulings.
    pub options: BattleOptions,
    /// The terrain blocks lying on other battlefields (the battles under way, 6.1: see
    /// [`Battle::terrain_held`]): this battle draws from the map's pool without them, since
    /// the physical blocks are on the other battle boards. Empty for a battle fought alone.
    pub terrain_elsewhere: Vec<TerrainKind>,
    /// Whether one player commands both Allied armies (the two-player game: "de andere speler
    /// neemt de leiding over de geallieerde [...] legers"); false when each Allied army has its
    /// own player (11). A skirmish's 1 to 4 shown blocks (6.6) are counted per player.
    pub one_allied_player: bool,
}

/// Why a set-up cannot start a battle; each says how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SetupProblem {
    /// The town is not on the map.
    UnknownTown,
    /// A side has no blocks.
    NoBlocks(Side),
    /// A block is not in the order of battle.
    UnknownBlock(BlockId),
    /// A block is given twice (on the field or among the reinforcements).
    Duplicate(BlockId),
    /// A block's strength is 0 or above its full strength.
    BadStrength(BlockId, u8),
    /// The blocks of a side are not all of one camp (the French, or the Allies), or both sides
    /// are of the same camp.
    MixedCamps,
    /// An approach town is not on the map or not joined to the battle's town by a road.
    NotAdjacent(TownId),
    /// An approach town is given twice.
    ApproachTwice(TownId),
    /// A reinforcement is not of the camp of the side holding its town.
    WrongReinforcement(BlockId),
    /// The map's terrain pool has fewer than the three blocks a battle draws (6.2.1).
    TerrainPool,
    /// [`Battle::resume`] was called while the battle was not between battle turns.
    NotBetweenRounds,
    /// [`Battle::resume`] named a town the battle was not set up with.
    NewApproach(TownId),
    /// `terrain_elsewhere` holds more blocks of this kind than the map's pool.
    TerrainElsewhere(TerrainKind),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::UnknownTown => f.write_str("the battle's town is not on the map"),
            SetupProblem::NoBlocks(side) => {
                write!(f, "the {side} has no blocks: give at least one")
            }
            SetupProblem::UnknownBlock(b) => {
                write!(f, "block #{} is not in the order of battle", b.index())
            }
            SetupProblem::Duplicate(b) => {
                write!(
                    f,
                    "block #{} is given twice: give each block once",
                    b.index()
                )
            }
            SetupProblem::BadStrength(b, s) => write!(
                f,
                "block #{} has strength {s}: give 1 up to its full strength",
                b.index()
            ),
            SetupProblem::MixedCamps => f.write_str(
                "each side must be all French or all Allied, and the two sides of different camps",
            ),
            SetupProblem::NotAdjacent(_) => f.write_str(
                "an approach town is not joined to the battle's town by a road: leave it out",
            ),
            SetupProblem::ApproachTwice(_) => f.write_str("an approach town is given twice"),
            SetupProblem::WrongReinforcement(b) => write!(
                f,
                "block #{} cannot reinforce: only blocks of the camp holding its town can",
                b.index()
            ),
            SetupProblem::TerrainPool => {
                f.write_str("the map's terrain pool has fewer than 3 blocks (6.2.1)")
            }
            SetupProblem::NotBetweenRounds => f.write_str(
                "the battle is not between battle turns: resume it only when is_between_rounds",
            ),
            SetupProblem::NewApproach(_) => f.write_str(
                "a neighbouring town the battle did not begin with: give the same towns as at \
                 its start",
            ),
            SetupProblem::TerrainElsewhere(kind) => write!(
                f,
                "the other battlefields hold more {kind} blocks than the map's terrain pool: \
                 give only the blocks the battles under way hold"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SetupProblem {}

/// Who must act in a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BattleActor {
    /// This army's player: the owner of the blocks decides, so Anglo-Dutch and Prussian
    /// blocks on one side are moved by their own players (11).
    Army(Army),
    /// A die or a terrain draw: see [`Battle::chance_outcomes`].
    Chance,
    /// The battle is over: see [`Battle::result`]; or, held between battle turns, it waits
    /// for [`Battle::resume`] (see [`Battle::is_between_rounds`]).
    Over,
}

/// What a square formation is fired at, or a fire's target group (6.5.1): the blocks of the
/// zone outside squares, or one square (with the unit it shelters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// The zone's blocks that are not in a square.
    Line,
    /// The square this infantry block forms, with the leader or artillery it shelters.
    Square(BlockId),
}

/// Something a player, or chance, does in a battle. It decodes from a journal only with a die
/// of 1 to 6 and hits no more than a volley's dice (its blocks and towns are checked by their
/// own types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawBattleAction")]
pub enum BattleAction {
    /// Chance: the terrain block drawn (6.2.1), weighted by how many of its kind are left.
    DrawTerrain(TerrainKind),
    /// Chance: one die for a morale check (6.3.1), 1 to 6, each weight 1.
    Die(u8),
    /// Chance: how many dice of the volley just fired hit, weighted by the exact binomial
    /// count of the dice faces (6.3.3).
    Hits(u8),
    /// Places the terrain block just drawn on one of the side's own wings (6.2.1).
    PlaceTerrain(Wing),
    /// Sets a block up before the battle, in the reserve or on one of its own side's zones
    /// (6.2.2, 6.2.3).
    Deploy {
        /// The block.
        block: BlockId,
        /// Where.
        to: Place,
    },
    /// Skirmish: shows this block for the round (6.6), 1 to 4 blocks a player (one Allied
    /// player with both armies shows 1 to 4 in all).
    Reveal(BlockId),
    /// Moves a block one step on the field: engage, disengage or regroup (6.3.2); or the forced
    /// step back of a block that lost its morale (6.3.1).
    Move {
        /// The block.
        block: BlockId,
        /// The place next to it that it moves to.
        to: Place,
    },
    /// Fires a block at the enemy in `at` (its own zone when in combat; the facing zone for
    /// artillery at long range) (6.3.3).
    Fire {
        /// The block firing.
        block: BlockId,
        /// The zone fired at.
        at: Zone,
        /// The group fired at there (6.5.1).
        target: Target,
    },
    /// The owner of several equally strong blocks picks the one that takes a hit (6.4); when
    /// the hit may fall on a block hidden from the firer, the owner places it on his strongest
    /// block even when there is one (ruling R25).
    TakeHit(BlockId),
    /// An infantry block forms a square (6.5): its action for the battle turn.
    FormSquare(BlockId),
    /// A leader or artillery block takes shelter in a square of its zone (6.5.2).
    Shelter {
        /// The leader or artillery block.
        block: BlockId,
        /// The infantry block in square.
        square: BlockId,
    },
    /// A block occupies the farm or hill of its zone, taking the place of the block holding
    /// it, or taking it when empty (6.2.1).
    Occupy(BlockId),
    /// Leaves the battle for a neighbouring town (7, 7.1), or, in a rout, is one of the blocks
    /// that get away (7.4).
    Retreat {
        /// The block.
        block: BlockId,
        /// The town.
        to: TownId,
    },
    /// Brings a block from a neighbouring town into the reserve (6.3.4).
    Reinforce(BlockId),
    /// Ends this army's part of the current step: deployment, skirmish reveal, fight or
    /// reinforcement.
    Done,
}

impl BattleAction {
    /// The block the action is taken with (deployed, moved, fired, hit, ...), if any.
    pub fn block(&self) -> Option<BlockId> {
        match *self {
            BattleAction::Deploy { block, .. }
            | BattleAction::Reveal(block)
            | BattleAction::Move { block, .. }
            | BattleAction::Fire { block, .. }
            | BattleAction::TakeHit(block)
            | BattleAction::FormSquare(block)
            | BattleAction::Shelter { block, .. }
            | BattleAction::Occupy(block)
            | BattleAction::Retreat { block, .. }
            | BattleAction::Reinforce(block) => Some(block),
            BattleAction::DrawTerrain(_)
            | BattleAction::Die(_)
            | BattleAction::Hits(_)
            | BattleAction::PlaceTerrain(_)
            | BattleAction::Done => None,
        }
    }
}

/// [`BattleAction`] as decoded, before its numbers are checked: the same variants in the same
/// order, so it reads exactly what a `BattleAction` writes (the round-trip tests hold them
/// together).
#[derive(Deserialize)]
#[serde(rename = "BattleAction")]
enum RawBattleAction {
    DrawTerrain(TerrainKind),
    Die(u8),
    Hits(u8),
    PlaceTerrain(Wing),
    Deploy {
        block: BlockId,
        to: Place,
    },
    Reveal(BlockId),
    Move {
        block: BlockId,
        to: Place,
    },
    Fire {
        block: BlockId,
        at: Zone,
        target: Target,
    },
    TakeHit(BlockId),
    FormSquare(BlockId),
    Shelter {
        block: BlockId,
        square: BlockId,
    },
    Occupy(BlockId),
    Retreat {
        block: BlockId,
        to: TownId,
    },
    Reinforce(BlockId),
    Done,
}

/// A morale die of this or more holds (6.3.1: 1-3 fails, 4-6 holds).
const MORALE_HOLDS: u8 = 4;
/// The highest face a volley hits on: F3 and one bonus (6.3.3). Fire values are capped here,
/// so every volley the battle writes decodes.
const MAX_HITS_ON: u8 = 4;
/// The highest die face.
const FACES: u8 = 6;

impl TryFrom<RawBattleAction> for BattleAction {
    type Error = crate::decode::OutOfRange;
    fn try_from(raw: RawBattleAction) -> Result<BattleAction, Self::Error> {
        use crate::decode::OutOfRange;
        type R = RawBattleAction;
        Ok(match raw {
            R::Die(face) if !(1..=FACES).contains(&face) => {
                return Err(OutOfRange::new("a morale die", face, "1 to 6"));
            }
            R::Hits(hits) if u16::from(hits) > super::oob::MAX_STRENGTH => {
                return Err(OutOfRange::new("a volley's hits", hits, "0 to 4"));
            }
            R::DrawTerrain(kind) => BattleAction::DrawTerrain(kind),
            R::Die(face) => BattleAction::Die(face),
            R::Hits(hits) => BattleAction::Hits(hits),
            R::PlaceTerrain(wing) => BattleAction::PlaceTerrain(wing),
            R::Deploy { block, to } => BattleAction::Deploy { block, to },
            R::Reveal(block) => BattleAction::Reveal(block),
            R::Move { block, to } => BattleAction::Move { block, to },
            R::Fire { block, at, target } => BattleAction::Fire { block, at, target },
            R::TakeHit(block) => BattleAction::TakeHit(block),
            R::FormSquare(block) => BattleAction::FormSquare(block),
            R::Shelter { block, square } => BattleAction::Shelter { block, square },
            R::Occupy(block) => BattleAction::Occupy(block),
            R::Retreat { block, to } => BattleAction::Retreat { block, to },
            R::Reinforce(block) => BattleAction::Reinforce(block),
            R::Done => BattleAction::Done,
        })
    }
}

/// Why an action is refused now. The wording never names a block the actor may not see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BattleIllegal {
    /// The battle is over.
    Over,
    /// Chance acts now; a player's action must wait.
    ChanceActs,
    /// A chance outcome was given while a player acts, or one that is impossible now.
    NotChance,
    /// Another army acts now.
    NotYourTurn(BattleActor),
    /// The block is not one of the acting army's blocks in this battle.
    NotYourBlock,
    /// This kind of action does not belong to the current step.
    WrongStep(Step),
    /// The block cannot go there now (a lateral or diagonal step, a zone of the wrong kind,
    /// woods for artillery, corps integrity at deployment, the stream's limit...).
    CannotGoThere,
    /// The block cannot fire at that target now.
    CannotFire,
    /// The block has already moved or fired this battle turn as far as the rules allow.
    AlreadyActed,
    /// The road to that town is full this battle turn, or the block may not retreat there.
    CannotRetreatThere,
    /// That block cannot take the hit: a stronger one must, or it is not in the group hit.
    NotStrongest,
    /// This step cannot end yet (a zone is still empty at deployment, no block revealed in a
    /// skirmish).
    NotFinished,
    /// The action is not allowed here for another reason the rules give.
    NotAllowed,
}

/// The steps of a battle, for [`BattleIllegal::WrongStep`] and the views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// Terrain is drawn and placed (6.2.1).
    Terrain,
    /// Blocks are set up (6.2.2).
    Deployment,
    /// A skirmish: blocks are chosen to be shown (6.6).
    SkirmishReveal,
    /// A skirmish's fire.
    SkirmishFire,
    /// Morale checks (6.3.1).
    Morale,
    /// Fight: move, fire, retreat (6.3.2, 6.3.3, 7).
    Fight,
    /// A hit's owner picks which of equally strong blocks takes it (6.4), or places it on his
    /// strongest block when it may fall on a block hidden from the firer (ruling R25).
    Losses,
    /// Reinforcements (6.3.4).
    Reinforcement,
    /// Blocks leave the field for neighbouring towns: a rout (7.4), a skirmish's loser (6.6)
    /// or a stalemated attacker (6.7).
    Rout,
    /// The battle is over.
    Over,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Step::Terrain => "terrain placement",
            Step::Deployment => "deployment",
            Step::SkirmishReveal => "the skirmish's reveal",
            Step::SkirmishFire => "the skirmish's fire",
            Step::Morale => "the morale checks",
            Step::Fight => "the fight",
            Step::Losses => "taking losses",
            Step::Reinforcement => "reinforcement",
            Step::Rout => "the rout",
            Step::Over => "the end",
        })
    }
}

impl fmt::Display for BattleIllegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BattleIllegal::Over => f.write_str("the battle is over"),
            BattleIllegal::ChanceActs => f.write_str("roll the dice first"),
            BattleIllegal::NotChance => f.write_str("no die or draw is due: a player acts"),
            BattleIllegal::NotYourTurn(BattleActor::Army(a)) => {
                write!(f, "the {a} player acts now: wait")
            }
            BattleIllegal::NotYourTurn(_) => {
                f.write_str("roll the dice first: it is not your turn")
            }
            BattleIllegal::NotYourBlock => {
                f.write_str("that is not one of your blocks in this battle: pick one of yours")
            }
            BattleIllegal::WrongStep(step) => {
                write!(f, "not during {step}: do what this step asks")
            }
            BattleIllegal::CannotGoThere => {
                f.write_str("it cannot go there: one step forward or back, no sideways step")
            }
            BattleIllegal::CannotFire => {
                f.write_str("it cannot fire at that: pick an enemy it can reach")
            }
            BattleIllegal::AlreadyActed => {
                f.write_str("it has already moved or fired this turn: pick another block")
            }
            BattleIllegal::CannotRetreatThere => {
                f.write_str("no retreat there now: pick another town or wait a turn")
            }
            BattleIllegal::NotStrongest => {
                f.write_str("a stronger block takes the hit: pick one of the strongest")
            }
            BattleIllegal::NotFinished => {
                f.write_str("not finished: fill each zone, or show at least one block")
            }
            BattleIllegal::NotAllowed => f.write_str("the rules do not allow that now"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BattleIllegal {}

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// `winner` holds the field: the other side retreated, routed or was destroyed.
    Won {
        /// The side that won.
        winner: Side,
        /// Why.
        how: Defeat,
    },
    /// Stalemate (6.7): the attacker withdrew; the defender keeps the town.
    Stalemate,
}

/// How the losing side left the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Defeat {
    /// Every block retreated or fell in good order (7).
    Retreated,
    /// It routed (7.4).
    Routed,
    /// Every block was eliminated.
    Destroyed,
    /// It had fewer units after a skirmish's round, or as many as the defender (6.6).
    Skirmish,
}

/// Where a block ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Fate {
    /// Still in the battle's town (on the field or in the reserve).
    Field,
    /// Retreated to this town, disordered until its player's turn ends (7.3).
    Retreated(TownId),
    /// Eliminated (a leader's counts as a lost unit, 8.3).
    Eliminated,
    /// A reinforcement that never joined: still in its town.
    Stayed(TownId),
}

/// One block's end in a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Outcome {
    /// The block.
    pub block: BlockId,
    /// Its side.
    pub side: Side,
    /// Where it is.
    pub fate: Fate,
    /// Its strength at the end (0 when eliminated).
    pub strength: u8,
}

/// How a battle ended and where every block is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BattleResult {
    /// How it ended.
    pub ending: Ending,
    /// Every block that was on the field or among the reinforcements.
    pub blocks: Vec<Outcome>,
}

impl BattleResult {
    /// The winning side, none in a stalemate (the defender then keeps the town).
    pub fn winner(&self) -> Option<Side> {
        match self.ending {
            Ending::Won { winner, .. } => Some(winner),
            Ending::Stalemate => None,
        }
    }
}

/// Something that happened, for the referee and its journal. These are the truth: a block they
/// name may be secret from the other side, so players are shown [`Battle::view`], never these.
/// It decodes from a journal only with its numbers in range (strengths, dice and hits up to 4,
/// a hit-on face of 1 to 6, a morale total of 1 to 8, a battle turn from 1; blocks, towns and
/// places are checked by their own types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawBattleEvent")]
pub enum BattleEvent {
    /// A side drew a terrain block (its kind is secret until placed).
    TerrainDrawn {
        /// Who drew.
        side: Side,
        /// What.
        kind: TerrainKind,
    },
    /// A terrain block was placed, face up.
    TerrainPlaced {
        /// Where.
        zone: Zone,
        /// What.
        kind: TerrainKind,
    },
    /// A block was set up.
    Deployed {
        /// The block.
        block: BlockId,
        /// Its side.
        side: Side,
        /// Where.
        to: Place,
    },
    /// A block was shown to the enemy (6.2.4, 6.6).
    Revealed {
        /// The block.
        block: BlockId,
        /// Its strength now.
        strength: u8,
    },
    /// A block moved on the field.
    Moved {
        /// The block.
        block: BlockId,
        /// Its side.
        side: Side,
        /// Where to.
        to: Place,
    },
    /// A block fired: `dice` dice hitting on `hits_on` or less.
    Fired {
        /// The block.
        block: BlockId,
        /// At what zone (in a skirmish, which has no zones, the defender's centre).
        at: Zone,
        /// How many dice.
        dice: u8,
        /// The highest face that hits.
        hits_on: u8,
    },
    /// A volley's hits were rolled.
    Hits {
        /// How many hit.
        hits: u8,
    },
    /// A block took a hit and has `strength` left (0: eliminated; see
    /// [`BattleEvent::Eliminated`]).
    Hit {
        /// The block.
        block: BlockId,
        /// Its strength now.
        strength: u8,
    },
    /// A hit had no effect: long-range artillery cannot eliminate (6.4), or no block of the
    /// group could take it (6.5.1 surplus, 6.2.1 farm against cavalry).
    HitLost,
    /// A block was eliminated.
    Eliminated {
        /// The block.
        block: BlockId,
        /// Its side.
        side: Side,
    },
    /// A morale die (6.3.1).
    Morale {
        /// The block checked.
        block: BlockId,
        /// The die and bonus.
        total: u8,
        /// Whether it held.
        held: bool,
    },
    /// A square formed.
    SquareFormed(BlockId),
    /// A block took shelter in a square.
    Sheltered {
        /// The block.
        block: BlockId,
        /// The square.
        square: BlockId,
    },
    /// A block occupied a farm or hill.
    Occupied(BlockId),
    /// A block joined the reserve from a neighbouring town.
    Reinforced {
        /// The block.
        block: BlockId,
        /// Its side.
        side: Side,
        /// Where from.
        from: TownId,
    },
    /// A block retreated to a town, disordered (7.3).
    Retreated {
        /// The block.
        block: BlockId,
        /// Its side.
        side: Side,
        /// Where to.
        to: TownId,
    },
    /// A side routs (7.4).
    Rout(Side),
    /// A battle turn began.
    TurnBegan {
        /// Whose.
        side: Side,
        /// The attacker's turns count 1, 2, ...; the defender's follow each.
        turn: u16,
    },
    /// The battle ended.
    Over(Ending),
}

/// [`BattleEvent`] as decoded, before its numbers are checked: the same variants in the same
/// order, so it reads exactly what a `BattleEvent` writes (the round-trip tests hold them
/// together).
#[derive(Deserialize)]
#[serde(rename = "BattleEvent")]
enum RawBattleEvent {
    TerrainDrawn {
        side: Side,
        kind: TerrainKind,
    },
    TerrainPlaced {
        zone: Zone,
        kind: TerrainKind,
    },
    Deployed {
        block: BlockId,
        side: Side,
        to: Place,
    },
    Revealed {
        block: BlockId,
        strength: u8,
    },
    Moved {
        block: BlockId,
        side: Side,
        to: Place,
    },
    Fired {
        block: BlockId,
        at: Zone,
        dice: u8,
        hits_on: u8,
    },
    Hits {
        hits: u8,
    },
    Hit {
        block: BlockId,
        strength: u8,
    },
    HitLost,
    Eliminated {
        block: BlockId,
        side: Side,
    },
    Morale {
        block: BlockId,
        total: u8,
        held: bool,
    },
    SquareFormed(BlockId),
    Sheltered {
        block: BlockId,
        square: BlockId,
    },
    Occupied(BlockId),
    Reinforced {
        block: BlockId,
        side: Side,
        from: TownId,
    },
    Retreated {
        block: BlockId,
        side: Side,
        to: TownId,
    },
    Rout(Side),
    TurnBegan {
        side: Side,
        turn: u16,
    },
    Over(Ending),
}

/// The highest morale total: a die of 6 with a leader's +1 (8.2) and a square's +1 (6.5).
const MAX_MORALE_TOTAL: u8 = FACES + 2;

impl TryFrom<RawBattleEvent> for BattleEvent {
    type Error = crate::decode::OutOfRange;
    fn try_from(raw: RawBattleEvent) -> Result<BattleEvent, Self::Error> {
        use crate::decode::OutOfRange;
        type R = RawBattleEvent;
        let max = super::oob::MAX_STRENGTH;
        let at_most = |what, n: u8, top: u16, allowed| {
            if u16::from(n) > top {
                Err(OutOfRange::new(what, n, allowed))
            } else {
                Ok(n)
            }
        };
        let from_one = |what, n: u8, top: u16, allowed| {
            if n == 0 {
                Err(OutOfRange::new(what, n, allowed))
            } else {
                at_most(what, n, top, allowed)
            }
        };
        Ok(match raw {
            R::TerrainDrawn { side, kind } => BattleEvent::TerrainDrawn { side, kind },
            R::TerrainPlaced { zone, kind } => BattleEvent::TerrainPlaced { zone, kind },
            R::Deployed { block, side, to } => BattleEvent::Deployed { block, side, to },
            R::Revealed { block, strength } => BattleEvent::Revealed {
                block,
                strength: from_one("a block's strength", strength, max, "1 to 4")?,
            },
            R::Moved { block, side, to } => BattleEvent::Moved { block, side, to },
            R::Fired {
                block,
                at,
                dice,
                hits_on,
            } => BattleEvent::Fired {
                block,
                at,
                dice: from_one("a volley's dice", dice, max, "1 to 4")?,
                hits_on: from_one("a hitting face", hits_on, MAX_HITS_ON.into(), "1 to 4")?,
            },
            R::Hits { hits } => BattleEvent::Hits {
                hits: at_most("a volley's hits", hits, max, "0 to 4")?,
            },
            R::Hit { block, strength } => BattleEvent::Hit {
                block,
                strength: at_most("a strength after a hit", strength, max - 1, "0 to 3")?,
            },
            R::HitLost => BattleEvent::HitLost,
            R::Eliminated { block, side } => BattleEvent::Eliminated { block, side },
            R::Morale { block, total, held } => {
                let total = from_one("a morale total", total, MAX_MORALE_TOTAL.into(), "1 to 8")?;
                // Held exactly when the total reaches the holding face (6.3.1).
                if held != (total >= MORALE_HOLDS) {
                    return Err(OutOfRange::new(
                        "a morale total for its held mark",
                        total,
                        if held {
                            "4 to 8 when held"
                        } else {
                            "1 to 3 when not held"
                        },
                    ));
                }
                BattleEvent::Morale { block, total, held }
            }
            R::SquareFormed(block) => BattleEvent::SquareFormed(block),
            R::Sheltered { block, square } => BattleEvent::Sheltered { block, square },
            R::Occupied(block) => BattleEvent::Occupied(block),
            R::Reinforced { block, side, from } => BattleEvent::Reinforced { block, side, from },
            R::Retreated { block, side, to } => BattleEvent::Retreated { block, side, to },
            R::Rout(side) => BattleEvent::Rout(side),
            R::TurnBegan { turn: 0, .. } => {
                return Err(OutOfRange::new("a battle turn", 0u8, "1 or more"));
            }
            R::TurnBegan { side, turn } => BattleEvent::TurnBegan { side, turn },
            R::Over(ending) => BattleEvent::Over(ending),
        })
    }
}

/// A participant as the battle keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct Fighter {
    block: BlockId,
    army: Army,
    side: Side,
    kind: UnitType,
    corps: Option<super::CorpsId>,
    /// Printed firepower: hits on this or less.
    fire: u8,
    strength: u8,
    at: Loc,
    /// Moves made this battle turn.
    moves: u8,
    fired: bool,
    engaged: bool,
    disengaged: bool,
    /// Took a farm or hill this turn, or formed a square: its action for the turn.
    busy: bool,
    /// Cavalry: its next fire has the shock bonus (6.3.3).
    shock: bool,
    /// Artillery: its next short-range fire has canister (6.3.3).
    canister: bool,
    /// Infantry in square (6.5).
    square: bool,
    /// The square it shelters in (6.5.2).
    sheltered_in: Option<BlockId>,
    /// Shown to the enemy (6.2.4).
    shown: bool,
}

/// Where a participant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
enum Loc {
    /// Waiting in a neighbouring town (index into the approaches).
    Waiting(usize),
    /// Not yet set up.
    Undeployed,
    /// On the battle board.
    Field(Place),
    /// Left for a town.
    Retreated(TownId),
    /// Gone.
    Eliminated,
}

/// A neighbouring town and its roads use this battle turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct Road {
    town: TownId,
    /// Units per battle turn: 2 broad, 1 narrow (6.3.4, 7.2).
    limit: u16,
    held_by: Option<Side>,
    attacked_from: bool,
    battle: bool,
    /// The attacker received reinforcements from here (7.1).
    reinforced_attacker: bool,
    /// Units that used it this battle turn, per side, to reinforce.
    reinforced: [u16; 2],
    /// Units that used it this battle turn, per side, to retreat.
    retreated: [u16; 2],
}

/// A terrain block on the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
struct Ground {
    kind: TerrainKind,
    /// The farm's infantry or the hill's artillery (6.2.1).
    holder: Option<BlockId>,
}

/// What the battle waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
enum Phase {
    /// `side` draws its `left`-th terrain block (chance), then places it.
    Terrain {
        side: Side,
        left: u8,
        drawn: Option<TerrainKind>,
    },
    /// `side` sets up.
    Deploy { side: Side },
    /// Skirmish: `army` of `side` picks the blocks it shows.
    SkirmishReveal { side: Side, army: Army },
    /// Skirmish: `side`'s shown blocks fire in turn; `next` indexes the fighters.
    SkirmishFire { side: Side, next: usize },
    /// `side`'s morale checks; the fighters still to check, in order.
    Morale {
        side: Side,
        queue: Vec<BlockId>,
        falling_back: Option<BlockId>,
    },
    /// `side` fights; `army` is the army acting.
    Fight { side: Side, army: Army },
    /// `side` reinforces; `army` acts.
    Reinforce { side: Side, army: Army },
    /// `side` routs: its armies pick which blocks get away.
    Rout { side: Side },
    /// Over.
    Over,
    /// Between two battle turns of the attacker, held there for the campaign to fight its
    /// other battles and bring the neighbouring towns up to date (6.1, 6.3.4); see
    /// [`Battle::resume`].
    Between,
}

/// Fire on its way: the dice are due, then the hits are placed one by one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct Volley {
    shooter: BlockId,
    at: Zone,
    target: Target,
    dice: u8,
    hits_on: u8,
    /// Long-range artillery cannot eliminate (6.4).
    long_range: bool,
    /// Cavalry cannot hit a farm's holder (6.2.1).
    cavalry: bool,
    /// Hits rolled and not yet placed; `None` before the roll.
    hits: Option<u8>,
}

/// A battle between two sides in one town: the truth, every secret included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Battle {
    town: TownId,
    options: BattleOptions,
    skirmish: bool,
    fighters: Vec<Fighter>,
    roads: Vec<Road>,
    /// Per zone ([`Zone::index`]).
    ground: [Option<Ground>; 6],
    /// Terrain blocks left to draw, per kind.
    pool: [u8; 4],
    phase: Phase,
    volley: Option<Volley>,
    /// The attacker's battle turns begun.
    turn: u16,
    /// Units that crossed a stream this battle turn, per zone pair (indexed by the defender's
    /// wing).
    stream_crossings: [u8; 3],
    /// The attacker's turns in a row without fire, engagement or retreat once no
    /// reinforcement was left (6.7).
    idle: u8,
    /// Whether the attacker fired, engaged or retreated this turn.
    active_this_turn: bool,
    /// Whether the attacker's current turn began with reinforcements still waiting (6.7).
    reinforcements_due: bool,
    ending: Option<Ending>,
    /// Whether it stops between battle turns for [`Battle::resume`].
    hold: bool,
    /// [`BattleSetup::one_allied_player`].
    one_allied_player: bool,
}

impl Battle {
    /// The town fought over.
    pub fn town(&self) -> TownId {
        self.town
    }

    /// The rulings in force.
    pub fn options(&self) -> &BattleOptions {
        &self.options
    }

    /// Whether this is a skirmish (6.6): a side had fewer than 3 units at the start.
    pub fn is_skirmish(&self) -> bool {
        self.skirmish
    }

    /// The current step.
    pub fn step(&self) -> Step {
        if self.volley.as_ref().is_some_and(|v| v.hits.is_some()) {
            return Step::Losses;
        }
        match &self.phase {
            Phase::Terrain { .. } => Step::Terrain,
            Phase::Deploy { .. } => Step::Deployment,
            Phase::SkirmishReveal { .. } => Step::SkirmishReveal,
            Phase::SkirmishFire { .. } => Step::SkirmishFire,
            Phase::Morale { .. } => Step::Morale,
            Phase::Fight { .. } => Step::Fight,
            Phase::Reinforce { .. } => Step::Reinforcement,
            Phase::Rout { .. } => Step::Rout,
            Phase::Over | Phase::Between => Step::Over,
        }
    }

    /// The battle turns the attacker has begun (0 before the first).
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// How the battle ended, and where every block is; `None` while it goes on.
    pub fn result(&self) -> Option<BattleResult> {
        let ending = self.ending?;
        let blocks = self
            .fighters
            .iter()
            .map(|f| {
                let (fate, strength) = match f.at {
                    Loc::Waiting(i) => (Fate::Stayed(self.roads[i].town), f.strength),
                    Loc::Undeployed | Loc::Field(_) => (Fate::Field, f.strength),
                    Loc::Retreated(t) => (Fate::Retreated(t), f.strength),
                    Loc::Eliminated => (Fate::Eliminated, 0),
                };
                Outcome {
                    block: f.block,
                    side: f.side,
                    fate,
                    strength,
                }
            })
            .collect();
        Some(BattleResult { ending, blocks })
    }

    /// `play_unchecked` after `check`.
    ///
    /// # Errors
    /// Why the action is not legal now; the battle is then unchanged.
    pub fn play(&mut self, action: &BattleAction) -> Result<Vec<BattleEvent>, BattleIllegal> {
        self.check(action)?;
        Ok(self.play_unchecked(action))
    }
}
