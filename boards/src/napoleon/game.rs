//! The campaign rules of Napoléon: set-up (4), the turn track (2), group moves, command
//! control, distances, road limits, rivers, forced marches and night turns (5), battles begun
//! by moving into enemies (6.1, 6.6), regrouping (7.5), leaders (8), Allied supply (9) and
//! victory (10), for two or three players (11).
//!
//! The battles themselves (deployment, battle turns, fire, retreat, rout) are a sub-state
//! machine the campaign hands its actions to while a battle is fought.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::battle::{
    Approach, Battle, BattleAction, BattleActor, BattleEvent, BattleIllegal, BattleOptions,
    BattleResult, BattleSetup, Ending, Fate, Side, Unit,
};
use super::end::EndReason;
use super::view::{HiddenBlocks, OwnBlock, View};
use super::{Army, BlockId, Campaign, Mover, UnitType};
use crate::geometry::roads::{RoadId, TownId};
use crate::sba::Face;
use crate::{Actor, Game, Problems, Seat, Status};

/// Blocks an Allied army may set up in one town (4.1).
pub const ALLIED_SET_UP_CAP: usize = 4;
/// Blocks the French may set up in one town (4.2).
pub const FRENCH_SET_UP_CAP: usize = 12;
/// Groups each army may move in a turn (5.1): the French two, each Allied army one.
pub const fn groups_per_turn(army: Army) -> usize {
    match army {
        Army::French => 2,
        Army::AngloDutch | Army::Prussian => 1,
    }
}
/// Eliminated blocks that defeat an army (10.1, 10.2): Anglo-Dutch 8, Prussian 9, French 12.
pub const fn defeat_threshold(army: Army) -> u8 {
    match army {
        Army::French => 12,
        Army::AngloDutch => 8,
        Army::Prussian => 9,
    }
}
/// Supply cities the French must hold, undefeated, after the last French turn (10.1).
pub const SUPPLY_CITIES_TO_WIN: usize = 2;
/// A side with fewer units than this in a battle's town fights a skirmish (6.1, 6.6).
pub const SKIRMISH_BELOW: usize = 3;
/// A forced march's die (5.6): this or less, the bonus added, costs the unit 1 strength.
pub const STRAGGLERS_ON: u8 = 3;

/// How many players (rulebook Inleiding, 11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Players {
    /// The French and one Allied player who commands both Allied armies: seats 0 and 1.
    Two,
    /// The French, an Anglo-Dutch and a Prussian player: seats 0, 1 and 2 (11).
    Three,
}

/// Ruling: what a supply city's loss ("-1 eenheid", 9) takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SupplyLoss {
    /// A whole block, chosen by its owner, eliminated and counted toward the army's defeat
    /// (the default: 9 says the army is "verminderd" by units, and 10 counts units).
    Blocks,
    /// One strength step of a block chosen by its owner (a block of strength 1 is eliminated).
    Steps,
}

/// The data files and the named rulings (each listed with its reason in the README).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The map, order of battle and turn track, shared by every copy of the game.
    pub campaign: Arc<Campaign>,
    /// Two or three players.
    pub players: Players,
    /// Ruling: the historical set-up (4.3) stands as the cards print it, even where a town
    /// holds more than 4 Allied or 12 French blocks (`true`, the default: 4.3 calls the cards
    /// a guide and leaves spreading the blocks to the players); `false` checks the caps too.
    pub historical_exempt_from_caps: bool,
    /// Ruling: what a supply loss takes.
    pub supply_loss: SupplyLoss,
    /// Whether the owner of every army with a forced marcher is asked if its leader shows
    /// himself (8.1), wherever he stands (`true`, the default: the question tells the enemy
    /// nothing, 3.2). `false` asks only when he stands with one of them, as the builds before
    /// did: a game they journaled replays as it was played.
    pub every_leader_asked: bool,
    /// Every battle's options: 6.2.4's reveal on contact, the turn limit (ruling R1) and the
    /// hill's reading (ruling R20).
    pub battle: BattleOptions,
}

impl Options {
    /// `campaign` for `players`, with the default rulings.
    pub fn new(campaign: Campaign, players: Players) -> Options {
        Options {
            campaign: Arc::new(campaign),
            players,
            historical_exempt_from_caps: true,
            supply_loss: SupplyLoss::Blocks,
            every_leader_asked: true,
            battle: BattleOptions::default(),
        }
    }

    /// The seat that commands `army`: the French seat 0; the Anglo-Dutch seat 1; the Prussians
    /// seat 1 with two players, seat 2 with three.
    pub const fn seat_of(&self, army: Army) -> Seat {
        match (army, self.players) {
            (Army::French, _) => Seat::FIRST,
            (Army::AngloDutch, _) | (Army::Prussian, Players::Two) => Seat::SECOND,
            (Army::Prussian, Players::Three) => Seat::THIRD,
        }
    }

    /// Whether `seat` commands `army`.
    pub fn commands(&self, seat: Seat, army: Army) -> bool {
        self.seat_of(army) == seat
    }

    /// How many seats play.
    pub const fn seats(&self) -> usize {
        match self.players {
            Players::Two => 2,
            Players::Three => 3,
        }
    }
}

/// One block on the map in an untrusted set-up.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    /// The block's name on the order of battle (`G-INF`).
    pub block: String,
    /// The town's code on the map (`BEA`).
    pub town: String,
    /// The strength it stands at (its top edge, 3.3).
    pub strength: u8,
}

impl Placement {
    /// `block` in `town` at `strength`.
    pub fn new(block: &str, town: &str, strength: u8) -> Placement {
        Placement {
            block: block.into(),
            town: town.into(),
            strength,
        }
    }
}

/// Where the blocks start: the historical set-up of the order-of-battle cards (4.3), or the
/// players' own (the Allies first, 4).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Setup {
    /// Every block at full strength in its historical start town (4.3).
    Historical,
    /// The players' set-up: the Allies place theirs first, then the French (4).
    Placed {
        /// The Anglo-Dutch and Prussian blocks (4.1), placed first.
        allies: Vec<Placement>,
        /// The French blocks (4.2), placed after the Allies.
        french: Vec<Placement>,
    },
}

/// One problem with a set-up; every one is reported at once.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SetupProblem {
    /// No block has this name.
    UnknownBlock(String),
    /// No town has this code.
    UnknownTown {
        /// The block placed there.
        block: String,
        /// The code given.
        town: String,
    },
    /// The block is placed more than once.
    Twice(String),
    /// The block is not placed.
    Missing(String),
    /// An Allied block among the French placements, or a French one among the Allies'.
    WrongList {
        /// The block.
        block: String,
        /// Its army.
        army: Army,
    },
    /// The town is not in the block's army's set-up area: French towns for the French (4.2),
    /// north of the border on its side of the brown line for an Allied army (4.1).
    WrongArea {
        /// The block.
        block: String,
        /// The town.
        town: String,
        /// Its army.
        army: Army,
    },
    /// The block does not stand at full strength (4.1, 4.2).
    NotFullStrength {
        /// The block.
        block: String,
        /// The strength given.
        strength: u8,
        /// Its full strength.
        full: u8,
    },
    /// Too many blocks of one side in a town (4.1: 4 Allied, 4.2: 12 French).
    TooMany {
        /// The town.
        town: String,
        /// Blocks placed there.
        count: usize,
        /// The cap.
        cap: usize,
    },
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::UnknownBlock(b) => write!(f, "no block {b}: check its name"),
            SetupProblem::UnknownTown { block, town } => {
                write!(f, "{block}: no town {town}: check its code")
            }
            SetupProblem::Twice(b) => write!(f, "{b} placed twice: keep one"),
            SetupProblem::Missing(b) => write!(f, "{b} not placed: place it"),
            SetupProblem::WrongList { block, army } => match army {
                Army::French => write!(f, "{block} is French: the French place after the Allies"),
                _ => write!(f, "{block} is {army}: the Allies place before the French"),
            },
            SetupProblem::WrongArea { block, town, army } => match army {
                Army::French => write!(f, "{block} in {town}: French set up in French towns"),
                _ => write!(
                    f,
                    "{block} in {town}: {army} set up north of the border, on their side of \
                     the brown line"
                ),
            },
            SetupProblem::NotFullStrength {
                block,
                strength,
                full,
            } => write!(
                f,
                "{block} at {strength}: set it up at full strength {full}"
            ),
            SetupProblem::TooMany { town, count, cap } => {
                write!(f, "{count} blocks in {town} (max {cap}): move some")
            }
        }
    }
}

/// Something a seat, or chance, does. It decodes from a journal only with its numbers in range
/// (a block, town, die face or battle value outside its type's range is refused).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Move `block` from its town along `path` (the towns it enters, in order, the last where
    /// it stops); moving into enemies is an attack (5, 6.1). Beyond the block's distance it is
    /// a forced march (5.3, 5.6).
    Move {
        /// The block.
        block: BlockId,
        /// The towns entered.
        path: Vec<TownId>,
    },
    /// The seat ends its movement phase (2.1).
    EndMoves,
    /// The army's leader shows himself (`true`) for +1 on the forced-march dice of his town
    /// (8.1), or stays hidden.
    ShowLeader(bool),
    /// Chance: a die shows this face (a forced march, 5.6).
    Die(Face),
    /// The active side puts this battle next in its order (6.1: skirmishes first, 6.6); the
    /// battles begin once every one is in the order (the last needs no choice).
    Fight(TownId),
    /// The battle's winner moves `block` between the battle's town and a neighbouring town
    /// (7.5).
    Regroup {
        /// The block.
        block: BlockId,
        /// Where it goes.
        to: TownId,
    },
    /// The army ends its regrouping.
    EndRegroup,
    /// The Allied owner takes the supply loss from this block (9).
    SupplyLoss(BlockId),
    /// An action of the battle being fought (6, 7), by its army's seat or by chance.
    Battle(BattleAction),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move { block, path } => {
                write!(f, "block {} to", block.index())?;
                for t in path {
                    write!(f, " {}", t.index())?;
                }
                Ok(())
            }
            Action::EndMoves => f.write_str("end moves"),
            Action::ShowLeader(true) => f.write_str("show the leader"),
            Action::ShowLeader(false) => f.write_str("keep the leader hidden"),
            Action::Die(face) => write!(f, "die: {face}"),
            Action::Fight(t) => write!(f, "fight at town {}", t.index()),
            Action::Regroup { block, to } => {
                write!(f, "regroup block {} to town {}", block.index(), to.index())
            }
            Action::EndRegroup => f.write_str("end regrouping"),
            Action::SupplyLoss(b) => write!(f, "supply loss: block {}", b.index()),
            Action::Battle(a) => write!(f, "battle: {a:?}"),
        }
    }
}

/// Why an action was refused; each says how to fix it without naming a hidden enemy block.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// Another seat, or chance, acts now.
    NotYourTurn,
    /// That action belongs to another phase.
    WrongPhase,
    /// No block of yours with that number is on the map.
    NotYourBlock,
    /// The block has moved this turn already.
    AlreadyMoved,
    /// A move must enter at least one town.
    EmptyPath,
    /// The path is longer than the block may go (5.3, 5.6); at night its normal distance, for
    /// a night turn allows no forced march (5.7).
    TooFar {
        /// The most towns it may enter.
        max: u8,
    },
    /// Two towns of the path are not joined by a road (5.1).
    NoRoad,
    /// The path enters a town twice, or its start.
    Revisits,
    /// The path goes through a town the enemy holds (5, 5.3).
    ThroughEnemy,
    /// No attack in a night turn (5.7).
    NoAttackAtNight,
    /// The army has moved all its groups this turn (5.1).
    NoGroupLeft {
        /// The groups it may move.
        max: u8,
    },
    /// The road has carried its limit this turn (5.4).
    RoadFull {
        /// Its limit.
        limit: u16,
    },
    /// The attack road crosses a river: its limit is halved (5.5).
    RiverLimit {
        /// The halved limit.
        limit: u16,
    },
    /// Another group attacks this town and the two groups are not both next to it and joined
    /// by a road (5.2).
    CommandControl,
    /// The leader is not there, or there is nothing for him to help.
    NoLeaderChoice,
    /// That is not a pending battle that may be fought now (skirmishes come first, 6.6).
    NotAPendingBattle,
    /// The block may not regroup there (7.5).
    CannotRegroup,
    /// The block does not belong to the army owing the supply loss (9).
    NotOwingArmy,
    /// Chance acts now: only a die face may be played.
    NotAChanceOutcome,
    /// The battle being fought refuses the action.
    Battle(BattleIllegal),
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::NotYourTurn => f.write_str("not your turn: wait"),
            Illegal::WrongPhase => f.write_str("not now: finish this phase first"),
            Illegal::NotYourBlock => f.write_str("not one of your blocks on the map"),
            Illegal::AlreadyMoved => f.write_str("it moved this turn: move another"),
            Illegal::EmptyPath => f.write_str("say where it goes"),
            Illegal::TooFar { max } => write!(f, "too far: at most {max} towns"),
            Illegal::NoRoad => f.write_str("no road there: follow the roads"),
            Illegal::Revisits => f.write_str("the path goes back: take a shorter one"),
            Illegal::ThroughEnemy => f.write_str("enemies stop you: end the move there"),
            Illegal::NoAttackAtNight => f.write_str("no attacks at night"),
            Illegal::NoGroupLeft { max } => {
                write!(f, "{max} group(s) moved: move from a town already used")
            }
            Illegal::RoadFull { limit } => write!(f, "road full ({limit} a turn): take another"),
            Illegal::RiverLimit { limit } => {
                write!(f, "attack across a river: {limit} a road")
            }
            Illegal::CommandControl => {
                f.write_str("two groups may attack together only from next door, joined by road")
            }
            Illegal::NoLeaderChoice => f.write_str("no leader choice now"),
            Illegal::NotAPendingBattle => f.write_str("no battle to fight there now"),
            Illegal::CannotRegroup => f.write_str("cannot regroup there"),
            Illegal::NotOwingArmy => f.write_str("take the loss from the army that owes it"),
            Illegal::NotAChanceOutcome => f.write_str("roll the die"),
            Illegal::Battle(why) => write!(f, "{why}"),
        }
    }
}

/// Something that happened, for the referee to announce. Events name blocks: the referee tells
/// each seat only what its view may hold. It decodes from a journal only with its numbers in
/// range (a turn from 1, a supply loss of 1 to 9; blocks, towns, faces and battle events are
/// checked by their own types).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawEvent")]
pub enum Event {
    /// A turn began.
    TurnBegan {
        /// Its number, from 1.
        turn: u8,
        /// Who moves.
        mover: Mover,
        /// A night turn (5.7).
        night: bool,
    },
    /// A block moved (secret from the enemy: which block).
    Moved {
        /// The block.
        block: BlockId,
        /// Its old town.
        from: TownId,
        /// Its new town.
        to: TownId,
        /// Beyond its distance: a die follows (5.6).
        forced: bool,
        /// Into enemies (6.1).
        attack: bool,
    },
    /// A leader showed himself for the forced-march dice of his town (8.1).
    LeaderShown {
        /// His army.
        army: Army,
        /// Where.
        town: TownId,
    },
    /// A forced march's die (5.6).
    ForcedMarch {
        /// The block.
        block: BlockId,
        /// The face.
        face: Face,
        /// +1 from a leader who showed himself (8.1).
        bonus: bool,
        /// It lost 1 strength to stragglers.
        lost: bool,
    },
    /// A block was eliminated (counted toward its army's defeat, 8.3, 10).
    Eliminated {
        /// The block.
        block: BlockId,
        /// Its army.
        army: Army,
    },
    /// A battle (or a skirmish) is to be fought in `town` (6.1, 6.6).
    BattlePending {
        /// Where.
        town: TownId,
        /// Fewer than 3 units on a side: a skirmish.
        skirmish: bool,
    },
    /// Fighting began in `town`; the battle board is laid out.
    BattleBegan {
        /// Where.
        town: TownId,
        /// A skirmish.
        skirmish: bool,
    },
    /// A block regrouped after a victory (7.5).
    Regrouped {
        /// The block.
        block: BlockId,
        /// Where it goes.
        to: TownId,
    },
    /// A supply city held by the French costs its army (9).
    SupplyCut {
        /// The city.
        city: TownId,
        /// The army it supplies.
        army: Army,
        /// Units owed.
        loss: u8,
    },
    /// A supply loss was taken from a block (secret from the French: which block).
    SupplyLossTaken {
        /// The block.
        block: BlockId,
    },
    /// Something happened in the battle being fought (secret in part: see the battle's view).
    Battle(BattleEvent),
    /// The battle in `town` ended; the blocks are where its result says.
    BattleEnded {
        /// Where.
        town: TownId,
        /// How.
        ending: Ending,
    },
    /// The battle's set-up was refused (a fault of the program, never of the players): the
    /// battle is not fought and both sides stay in the town.
    BattleRefused {
        /// Where.
        town: TownId,
        /// The battle's problems, in words.
        problems: String,
    },
    /// An army is defeated: its last blocks are eliminated (10).
    Defeated(Army),
    /// The game ended.
    Ended(EndReason),
    /// The battle in `town` could not be brought up to date between its battle turns (a fault
    /// of the program, never of the players): it goes on with its neighbouring towns as it
    /// last knew them (6.3.4), so the game goes on. No words: the battle's problems name
    /// blocks, which the rules keep secret.
    BattleNotUpdated {
        /// Where.
        town: TownId,
    },
}

/// [`Event`] as decoded, before its numbers are checked: the same variants in the same order,
/// so it reads exactly what an `Event` writes (the round-trip tests hold them together).
#[derive(Deserialize)]
#[serde(rename = "Event")]
enum RawEvent {
    TurnBegan {
        turn: u8,
        mover: Mover,
        night: bool,
    },
    Moved {
        block: BlockId,
        from: TownId,
        to: TownId,
        forced: bool,
        attack: bool,
    },
    LeaderShown {
        army: Army,
        town: TownId,
    },
    ForcedMarch {
        block: BlockId,
        face: Face,
        bonus: bool,
        lost: bool,
    },
    Eliminated {
        block: BlockId,
        army: Army,
    },
    BattlePending {
        town: TownId,
        skirmish: bool,
    },
    BattleBegan {
        town: TownId,
        skirmish: bool,
    },
    Regrouped {
        block: BlockId,
        to: TownId,
    },
    SupplyCut {
        city: TownId,
        army: Army,
        loss: u8,
    },
    SupplyLossTaken {
        block: BlockId,
    },
    Battle(BattleEvent),
    BattleEnded {
        town: TownId,
        ending: Ending,
    },
    BattleRefused {
        town: TownId,
        problems: String,
    },
    Defeated(Army),
    Ended(EndReason),
    BattleNotUpdated {
        town: TownId,
    },
}

impl TryFrom<RawEvent> for Event {
    type Error = crate::decode::OutOfRange;
    fn try_from(raw: RawEvent) -> Result<Event, Self::Error> {
        use crate::decode::OutOfRange;
        type R = RawEvent;
        Ok(match raw {
            R::TurnBegan { turn: 0, .. } => {
                return Err(OutOfRange::new("a turn", 0u8, "1 to 255"));
            }
            R::SupplyCut { loss, .. } if !(1..=super::map::MAX_SUPPLY_LOSS).contains(&loss) => {
                return Err(OutOfRange::new("a supply loss", loss, "1 to 9"));
            }
            R::TurnBegan { turn, mover, night } => Event::TurnBegan { turn, mover, night },
            R::Moved {
                block,
                from,
                to,
                forced,
                attack,
            } => Event::Moved {
                block,
                from,
                to,
                forced,
                attack,
            },
            R::LeaderShown { army, town } => Event::LeaderShown { army, town },
            R::ForcedMarch {
                block,
                face,
                bonus,
                lost,
            } => Event::ForcedMarch {
                block,
                face,
                bonus,
                lost,
            },
            R::Eliminated { block, army } => Event::Eliminated { block, army },
            R::BattlePending { town, skirmish } => Event::BattlePending { town, skirmish },
            R::BattleBegan { town, skirmish } => Event::BattleBegan { town, skirmish },
            R::Regrouped { block, to } => Event::Regrouped { block, to },
            R::SupplyCut { city, army, loss } => Event::SupplyCut { city, army, loss },
            R::SupplyLossTaken { block } => Event::SupplyLossTaken { block },
            R::Battle(e) => Event::Battle(e),
            R::BattleEnded { town, ending } => Event::BattleEnded { town, ending },
            R::BattleRefused { town, problems } => Event::BattleRefused { town, problems },
            R::Defeated(army) => Event::Defeated(army),
            R::Ended(reason) => Event::Ended(reason),
            R::BattleNotUpdated { town } => Event::BattleNotUpdated { town },
        })
    }
}

/// A group move opened this turn (5.1): an army's blocks leaving one town.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Group {
    pub(crate) army: Army,
    pub(crate) origin: TownId,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Phase {
    /// `seat` moves its groups (2.1).
    Move(Seat),
    /// `army`'s owner decides whether its leader shows himself for the forced-march dice (8.1).
    ShowLeader(Army),
    /// Chance rolls the forced-march die of `forced[0]` (5.6).
    ForcedMarch,
    /// The active side puts the next battle in its order (6.1), all before the first begins.
    ChooseBattle,
    /// A battle is being fought in `town`.
    Battle {
        /// Where.
        town: TownId,
        /// Fewer than 3 units on a side.
        skirmish: bool,
    },
    /// `army`, of the winning side, regroups around `town` (7.5).
    Regroup {
        /// The battle's town.
        town: TownId,
        /// The army regrouping.
        army: Army,
    },
    /// `army`'s owner takes `owed` supply losses (9).
    Supply {
        /// The army.
        army: Army,
        /// Losses still owed.
        owed: u8,
    },
    /// The game is over.
    Over(EndReason),
}

/// A game of Napoléon: the whole truth, every secret included; show a seat only its
/// [`View`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Napoleon {
    pub(crate) options: Options,
    /// Per block: its town, `None` once eliminated.
    pub(crate) town: Vec<Option<TownId>>,
    /// Per block: its strength (0 once eliminated).
    pub(crate) strength: Vec<u8>,
    /// The turn, from 1.
    pub(crate) turn: u8,
    pub(crate) phase: Phase,
    /// Per block: moved this turn.
    pub(crate) moved: Vec<bool>,
    /// Per block: the town it last entered its present town from this turn (an attacker
    /// retreats only there or to where it was reinforced from, 7.1).
    pub(crate) entered_from: Vec<Option<TownId>>,
    /// Per block: retreated this turn, in disorder: it reinforces no battle (7.3).
    pub(crate) disordered: Vec<bool>,
    /// The group moves opened this turn.
    pub(crate) groups: Vec<Group>,
    /// Per road: units moved along it this turn (5.4).
    pub(crate) traffic: Vec<u16>,
    /// Per road: units that attacked along it this turn (5.5).
    pub(crate) attack_traffic: Vec<u16>,
    /// Per road: units regrouped along it in the current regrouping (7.5).
    pub(crate) regroup_traffic: Vec<u16>,
    /// The blocks regrouped in the current regrouping (7.5: each once).
    pub(crate) regrouped: Vec<BlockId>,
    /// The attacks of this turn: the town and the group index.
    pub(crate) attacks: Vec<(TownId, usize)>,
    /// Forced marchers still to roll for, in the order they moved.
    pub(crate) forced: Vec<BlockId>,
    /// Per army: its leader showed himself this turn (8.1).
    pub(crate) shown: [bool; 3],
    /// Towns where a battle waits: first the `ordered` ones in the attacker's order, then
    /// those the attacker has still to place in it.
    pub(crate) battles: Vec<TownId>,
    /// How many of `battles`, from the front, the attacker has put in order. The order is
    /// whole before the first battle begins (6.1: "in een sequentie bepaald door de
    /// aanvaller"), so no battle's terrain or volleys bear on it.
    pub(crate) ordered: usize,
    /// Per army: blocks eliminated.
    pub(crate) eliminated: [u8; 3],
    /// Per army: defeated (10).
    pub(crate) defeated: [bool; 3],
    /// Supply losses still to take this turn: army and units.
    pub(crate) supply_due: Vec<(Army, u8)>,
    /// The battle being fought, while the phase is [`Phase::Battle`].
    pub(crate) battle: Option<Box<Battle>>,
    /// The battles begun and held between battle turns, in the order they take their next
    /// turns (6.1: fought side by side in the attacker's order).
    pub(crate) live: Vec<Battle>,
}

/// The side of an army: French or Allied.
const fn side(army: Army) -> bool {
    army.is_allied()
}

const fn army_index(army: Army) -> usize {
    match army {
        Army::French => 0,
        Army::AngloDutch => 1,
        Army::Prussian => 2,
    }
}

impl Napoleon {
    fn campaign(&self) -> &Campaign {
        &self.options.campaign
    }

    /// The army of block `id`.
    pub(crate) fn army_of(&self, id: BlockId) -> Option<Army> {
        self.campaign().order_of_battle().block(id).map(|b| b.army)
    }

    /// The town block `id` stands in, `None` once eliminated.
    pub fn town_of(&self, id: BlockId) -> Option<TownId> {
        self.town.get(id.index()).copied().flatten()
    }

    /// Block `id`'s strength (0 once eliminated). The whole truth: for the referee only.
    pub fn strength_of(&self, id: BlockId) -> u8 {
        self.strength.get(id.index()).copied().unwrap_or(0)
    }

    /// The turn, from 1.
    pub const fn turn(&self) -> u8 {
        self.turn
    }

    /// Blocks `army` has lost (10).
    pub const fn eliminated(&self, army: Army) -> u8 {
        self.eliminated[army_index(army)]
    }

    /// Whether `army` is defeated (10).
    pub const fn is_defeated(&self, army: Army) -> bool {
        self.defeated[army_index(army)]
    }

    /// The towns where a battle waits to be fought.
    pub fn pending_battles(&self) -> &[TownId] {
        &self.battles
    }

    /// The towns of the battles begun and waiting for their next battle turn while another is
    /// fought (6.1), in the order they resume.
    pub fn battles_under_way(&self) -> Vec<TownId> {
        self.live.iter().map(Battle::town).collect()
    }

    /// The battle being fought now, if any: the whole truth, every secret included, for the
    /// referee only (a seat sees [`View::battle`](super::View::battle)).
    pub fn battle(&self) -> Option<&Battle> {
        self.battle.as_deref()
    }

    /// The battles begun and held between battle turns while another is fought (6.1), in the
    /// order they resume: the whole truth, for the referee only.
    pub fn held_battles(&self) -> &[Battle] {
        &self.live
    }

    /// The block ids on the map, with their army and town.
    pub(crate) fn on_map(&self) -> impl Iterator<Item = (BlockId, Army, TownId)> + '_ {
        self.campaign()
            .order_of_battle()
            .blocks()
            .filter_map(|(id, b)| Some((id, b.army, self.town_of(id)?)))
    }

    /// The blocks in `town`.
    pub fn blocks_in(&self, town: TownId) -> impl Iterator<Item = BlockId> + '_ {
        self.on_map()
            .filter(move |&(_, _, t)| t == town)
            .map(|(id, _, _)| id)
    }

    /// Whether blocks of the side of `allied` (true: Allied) stand in `town`.
    fn side_in(&self, town: TownId, allied: bool) -> bool {
        self.on_map()
            .any(|(_, a, t)| t == town && side(a) == allied)
    }

    fn units_of_side(&self, town: TownId, allied: bool) -> usize {
        self.on_map()
            .filter(|&(_, a, t)| t == town && side(a) == allied)
            .count()
    }

    fn current_turn(&self) -> Option<super::Turn> {
        self.campaign().turn_track().turn(self.turn).copied()
    }

    fn night(&self) -> bool {
        self.current_turn().is_some_and(|t| t.night)
    }

    /// Whether the Allies move this turn.
    fn allies_move(&self) -> bool {
        self.current_turn()
            .is_some_and(|t| t.mover == Mover::Allies)
    }

    /// The armies that move this turn, in the order they move.
    fn movers(&self) -> Vec<Army> {
        if self.allies_move() {
            [Army::AngloDutch, Army::Prussian]
                .into_iter()
                .filter(|&a| !self.is_defeated(a))
                .collect()
        } else {
            vec![Army::French]
        }
    }

    /// The seat of the active side's first mover (chooses the battle order, 6.1).
    fn active_seat(&self) -> Seat {
        let army = self.movers().first().copied().unwrap_or(Army::French);
        self.options.seat_of(army)
    }

    fn normal_distance(kind: UnitType) -> u8 {
        if kind.is_fast() {
            2
        } else {
            1
        }
    }

    /// Per town: whether French and whether Allied blocks stand there.
    fn occupancy(&self) -> Vec<[bool; 2]> {
        let mut occ = vec![[false; 2]; self.campaign().map().graph().town_count()];
        for (_, army, town) in self.on_map() {
            if let Some(o) = occ.get_mut(town.index()) {
                o[usize::from(side(army))] = true;
            }
        }
        occ
    }

    /// Checks a move and says whether it is forced and an attack.
    fn check_move(&self, seat: Seat, block: BlockId, path: &[TownId]) -> Result<Moving, Illegal> {
        self.check_move_in(&self.occupancy(), seat, block, path)
    }

    /// [`Napoleon::check_move`] with the towns' occupancy computed once.
    fn check_move_in(
        &self,
        occ: &[[bool; 2]],
        seat: Seat,
        block: BlockId,
        path: &[TownId],
    ) -> Result<Moving, Illegal> {
        let held = |town: TownId, allied: bool| {
            occ.get(town.index())
                .is_some_and(|o| o[usize::from(allied)])
        };
        let oob = self.campaign().order_of_battle();
        let map = self.campaign().map();
        let b = oob.block(block).ok_or(Illegal::NotYourBlock)?;
        let from = self.town_of(block).ok_or(Illegal::NotYourBlock)?;
        if !self.options.commands(seat, b.army) || !self.movers().contains(&b.army) {
            return Err(Illegal::NotYourBlock);
        }
        if self.moved.get(block.index()).copied().unwrap_or(true) {
            return Err(Illegal::AlreadyMoved);
        }
        let (&to, through) = path.split_last().ok_or(Illegal::EmptyPath)?;
        let normal = Self::normal_distance(b.kind);
        let night = self.night();
        let max = if night { normal } else { normal + 1 };
        // How far a block may go tells its type (5.3), which only its owner knows: a path too
        // long for every block is too far, and one wrong for a reason the whole table can see
        // is refused for that reason whatever the block; only then is it too far for this one.
        let fastest = Self::normal_distance(UnitType::LightCavalry);
        let reach = if night { fastest } else { fastest + 1 };
        let too_far = path.len() > usize::from(max);
        if path.len() > usize::from(reach) {
            return Err(Illegal::TooFar { max });
        }
        let forced = path.len() > usize::from(normal);
        let mut roads = Vec::with_capacity(path.len());
        let mut at = from;
        for (i, &next) in path.iter().enumerate() {
            let road = map.graph().road_between(at, next).ok_or(Illegal::NoRoad)?;
            if next == from || path[..i].contains(&next) {
                return Err(Illegal::Revisits);
            }
            roads.push(road);
            at = next;
        }
        let allied = side(b.army);
        if through.iter().any(|&t| held(t, !allied)) {
            return Err(Illegal::ThroughEnemy);
        }
        let attack = held(to, !allied);
        if attack && night {
            return Err(Illegal::NoAttackAtNight);
        }
        let group = self
            .groups
            .iter()
            .position(|g| g.army == b.army && g.origin == from);
        if group.is_none() {
            let opened = self.groups.iter().filter(|g| g.army == b.army).count();
            let max = groups_per_turn(b.army);
            if opened >= max {
                return Err(Illegal::NoGroupLeft { max: max as u8 });
            }
        }
        for &road in &roads {
            let limit = map.move_limit(road).unwrap_or(0);
            if self.traffic.get(road.index()).copied().unwrap_or(u16::MAX) >= limit {
                return Err(Illegal::RoadFull { limit });
            }
        }
        if attack {
            let last = *roads.last().ok_or(Illegal::EmptyPath)?;
            let limit = map.attack_limit(last).unwrap_or(0);
            if self
                .attack_traffic
                .get(last.index())
                .copied()
                .unwrap_or(u16::MAX)
                >= limit
            {
                return Err(Illegal::RiverLimit { limit });
            }
            // 5.2: another group attacking the same town must be next to it, as must this
            // one, and the two joined by a road.
            let graph = map.graph();
            for &(town, g) in &self.attacks {
                let Some(other) = self.groups.get(g) else {
                    continue;
                };
                if town != to || (other.army == b.army && other.origin == from) {
                    continue;
                }
                let ok = graph.road_between(from, to).is_some()
                    && graph.road_between(other.origin, to).is_some()
                    && graph.road_between(from, other.origin).is_some();
                if !ok {
                    return Err(Illegal::CommandControl);
                }
            }
        }
        if too_far {
            return Err(Illegal::TooFar { max });
        }
        let before = path.len().checked_sub(2).map_or(from, |i| path[i]);
        Ok(Moving {
            from,
            before,
            to,
            roads,
            forced,
            attack,
            army: b.army,
        })
    }

    /// Every legal move of `seat` now.
    fn legal_moves(&self, seat: Seat, out: &mut Vec<Action>) {
        let graph = self.campaign().map().graph();
        let movers = self.movers();
        let occ = self.occupancy();
        for (id, b) in self.campaign().order_of_battle().blocks() {
            if !movers.contains(&b.army)
                || !self.options.commands(seat, b.army)
                || self.moved.get(id.index()).copied().unwrap_or(true)
            {
                continue;
            }
            let Some(from) = self.town_of(id) else {
                continue;
            };
            let max = Self::normal_distance(b.kind) + u8::from(!self.night());
            // Depth-first over simple paths; each candidate goes through the one check.
            let mut stack: Vec<Vec<TownId>> =
                graph.neighbours(from).map(|n| vec![n.town]).collect();
            while let Some(path) = stack.pop() {
                let legal = self.check_move_in(&occ, seat, id, &path).is_ok();
                let Some(&last) = path.last() else {
                    continue;
                };
                // Going on needs a friendly (or empty) town to pass through.
                let enemy = occ
                    .get(last.index())
                    .is_some_and(|o| o[usize::from(!side(b.army))]);
                if path.len() < usize::from(max) && !enemy {
                    for n in graph.neighbours(last) {
                        if n.town != from && !path.contains(&n.town) {
                            let mut longer = path.clone();
                            longer.push(n.town);
                            stack.push(longer);
                        }
                    }
                }
                if legal {
                    out.push(Action::Move { block: id, path });
                }
            }
        }
    }

    fn play_move(&mut self, block: BlockId, path: &[TownId], events: &mut Vec<Event>) {
        let seat = match self.phase {
            Phase::Move(seat) => seat,
            _ => return,
        };
        let Ok(m) = self.check_move(seat, block, path) else {
            return;
        };
        let group = match self
            .groups
            .iter()
            .position(|g| g.army == m.army && g.origin == m.from)
        {
            Some(g) => g,
            None => {
                self.groups.push(Group {
                    army: m.army,
                    origin: m.from,
                });
                self.groups.len() - 1
            }
        };
        for &road in &m.roads {
            if let Some(t) = self.traffic.get_mut(road.index()) {
                *t += 1;
            }
        }
        if m.attack {
            if let Some(&last) = m.roads.last() {
                if let Some(t) = self.attack_traffic.get_mut(last.index()) {
                    *t += 1;
                }
            }
            if !self.attacks.contains(&(m.to, group)) {
                self.attacks.push((m.to, group));
            }
        }
        self.town[block.index()] = Some(m.to);
        self.moved[block.index()] = true;
        self.entered_from[block.index()] = Some(m.before);
        if m.forced {
            self.forced.push(block);
        }
        events.push(Event::Moved {
            block,
            from: m.from,
            to: m.to,
            forced: m.forced,
            attack: m.attack,
        });
    }

    /// After the last mover's `EndMoves`: the leaders' choices, then the forced-march dice,
    /// then the battles.
    fn after_moves(&mut self, events: &mut Vec<Event>) {
        if let Some(army) = self.next_leader_choice() {
            self.phase = Phase::ShowLeader(army);
        } else if !self.forced.is_empty() {
            self.phase = Phase::ForcedMarch;
        } else {
            self.begin_battles(events);
        }
    }

    /// The leader of `army` on the map, and his town.
    fn leader(&self, army: Army) -> Option<(BlockId, TownId)> {
        self.campaign()
            .order_of_battle()
            .army(army)
            .find(|(_, b)| b.kind == UnitType::Leader)
            .and_then(|(id, _)| Some((id, self.town_of(id)?)))
    }

    /// The next army (in order) with a forced marcher that has not yet decided whether its
    /// leader shows himself (8, 8.1: Wellington commands only the Anglo-Dutch, Blücher only the
    /// Prussians). Every such army is asked, wherever its leader stands and whether he still
    /// stands: a question asked only when he stands with a forced marcher would tell the table
    /// where he is (3.2: the enemy sees neither type nor strength), whatever the answer. Shown
    /// away from every forced marcher, or fallen, he helps none. (Without
    /// [`Options::every_leader_asked`], only a leader standing with one is asked.)
    fn next_leader_choice(&self) -> Option<Army> {
        let decided = match self.phase {
            Phase::ShowLeader(army) => army_index(army) + 1,
            _ => 0,
        };
        Army::ALL.into_iter().skip(decided).find(|&army| {
            let beside = match (self.options.every_leader_asked, self.leader(army)) {
                // Asked even of a fallen leader: his fall may be hidden (a forced march's last
                // step, a supply loss chosen by slot), and the question's absence would tell it.
                (true, _) => None,
                (false, Some((_, town))) => Some(town),
                (false, None) => return false,
            };
            self.forced.iter().any(|&b| {
                self.army_of(b) == Some(army) && beside.is_none_or(|t| self.town_of(b) == Some(t))
            })
        })
    }

    /// +1 on `block`'s forced-march die: its own army's leader showed himself and stands in
    /// its town (8.1).
    fn forced_bonus(&self, block: BlockId) -> bool {
        let Some(army) = self.army_of(block) else {
            return false;
        };
        self.shown[army_index(army)]
            && self
                .leader(army)
                .is_some_and(|(_, town)| self.town_of(block) == Some(town))
    }

    fn roll_forced(&mut self, face: Face, events: &mut Vec<Event>) {
        if self.forced.is_empty() {
            return;
        }
        let block = self.forced.remove(0);
        let bonus = self.forced_bonus(block);
        let lost = face.pips() + u8::from(bonus) <= STRAGGLERS_ON;
        events.push(Event::ForcedMarch {
            block,
            face,
            bonus,
            lost,
        });
        if lost {
            self.weaken(block, events);
        }
        if self.forced.is_empty() {
            self.begin_battles(events);
        }
    }

    /// Takes 1 strength from `block`, eliminating it at 0.
    pub(crate) fn weaken(&mut self, block: BlockId, events: &mut Vec<Event>) {
        let Some(s) = self.strength.get_mut(block.index()) else {
            return;
        };
        *s = s.saturating_sub(1);
        if *s == 0 {
            self.eliminate(block, events);
        }
    }

    /// Takes `block` off the map, counted toward its army's defeat (8.3, 10).
    pub(crate) fn eliminate(&mut self, block: BlockId, events: &mut Vec<Event>) {
        let Some(army) = self.army_of(block) else {
            return;
        };
        if self.town_of(block).is_none() {
            return;
        }
        self.town[block.index()] = None;
        self.strength[block.index()] = 0;
        self.forced.retain(|&b| b != block);
        self.eliminated[army_index(army)] = self.eliminated[army_index(army)].saturating_add(1);
        events.push(Event::Eliminated { block, army });
    }

    /// Finds the towns holding both sides and goes to the first battle, or on to supply.
    fn begin_battles(&mut self, events: &mut Vec<Event>) {
        let towns: Vec<TownId> = self
            .campaign()
            .map()
            .graph()
            .towns()
            .map(|(t, _)| t)
            .collect();
        for town in towns {
            if self.side_in(town, true)
                && self.side_in(town, false)
                && !self.battles.contains(&town)
            {
                let skirmish = self.is_skirmish(town);
                self.battles.push(town);
                events.push(Event::BattlePending { town, skirmish });
            }
        }
        self.next_battle(events);
    }

    fn is_skirmish(&self, town: TownId) -> bool {
        self.units_of_side(town, true) < SKIRMISH_BELOW
            || self.units_of_side(town, false) < SKIRMISH_BELOW
    }

    /// The battles the attacker may put next in the order: skirmishes first (6.6).
    fn fightable(&self) -> Vec<TownId> {
        let unordered = self.battles.get(self.ordered..).unwrap_or_default();
        let skirmishes: Vec<TownId> = unordered
            .iter()
            .copied()
            .filter(|&t| self.is_skirmish(t))
            .collect();
        if skirmishes.is_empty() {
            unordered.to_vec()
        } else {
            skirmishes
        }
    }

    /// Puts `town`'s battle next in the attacker's order (6.1).
    fn order_battle(&mut self, town: TownId) {
        let Some(at) = self.battles.iter().position(|&t| t == town) else {
            return;
        };
        if at < self.ordered {
            return;
        }
        let town = self.battles.remove(at);
        self.battles.insert(self.ordered, town);
        self.ordered += 1;
    }

    fn next_battle(&mut self, events: &mut Vec<Event>) {
        // A battle whose town no longer holds both sides (a forced march or a retreat emptied
        // it) is over; the order of the others stands.
        let mut kept_ordered = 0;
        let mut still = Vec::new();
        for (i, &t) in self.battles.iter().enumerate() {
            if self.side_in(t, true) && self.side_in(t, false) {
                still.push(t);
                if i < self.ordered {
                    kept_ordered += 1;
                }
            }
        }
        self.battles = still;
        self.ordered = kept_ordered;
        // The attacker orders every pending battle before the first begins (6.1); a choice of
        // one needs no question.
        loop {
            match self.fightable().as_slice() {
                [] => break,
                [only] => self.order_battle(*only),
                _ => {
                    self.phase = Phase::ChooseBattle;
                    return;
                }
            }
        }
        if let Some(&first) = self.battles.first() {
            self.ordered = self.ordered.saturating_sub(1);
            return self.fight(first, events);
        }
        // Every battle has begun: the next one in the attacker's order takes its turns (6.1),
        // with its neighbouring towns as they stand now (6.3.4).
        if self.live.is_empty() {
            return self.after_battles(events);
        }
        let mut battle = self.live.remove(0);
        let town = battle.town();
        let approaches = self.battle_setup(town).approaches;
        let oob = self.options.campaign.order_of_battle();
        let battle_events = match battle.resume(oob, &approaches) {
            Ok(battle_events) => battle_events,
            Err(_) => {
                // Not reached: the campaign gives the battle's own towns, each block in one.
                // Say so, without the problems' words (they name blocks), and go on with the
                // towns as the battle last knew them: the battle is between its turns, so that
                // resume is accepted, and the game never stops.
                events.push(Event::BattleNotUpdated { town });
                battle.resume(oob, &[]).unwrap_or_default()
            }
        };
        self.track(town, &battle_events);
        events.extend(battle_events.into_iter().map(Event::Battle));
        self.phase = Phase::Battle {
            town,
            skirmish: false,
        };
        self.battle = Some(Box::new(battle));
        self.battle_over(events);
    }

    /// Starts the battle in `town` (6.1): the active side attacks.
    fn fight(&mut self, town: TownId, events: &mut Vec<Event>) {
        self.battles.retain(|&t| t != town);
        let setup = self.battle_setup(town);
        let campaign = self.options.campaign.clone();
        match Battle::new(campaign.order_of_battle(), campaign.map(), setup) {
            Ok(mut battle) => {
                let skirmish = battle.is_skirmish();
                // Between its battle turns the battle waits for the map as it then stands
                // (6.3.4).
                battle.hold_between_rounds();
                events.push(Event::BattleBegan { town, skirmish });
                self.phase = Phase::Battle { town, skirmish };
                self.battle = Some(Box::new(battle));
                self.battle_over(events);
            }
            Err(problems) => {
                events.push(Event::BattleRefused {
                    town,
                    problems: alloc::format!("{problems}"),
                });
                self.next_battle(events);
            }
        }
    }

    /// The battle's starting point: each side's blocks in `town` with their strengths, and
    /// each neighbouring town with who holds it, whether the attacker came from it, and the
    /// blocks that may reinforce from it (6.3.4: not in another battle; 7.3: not disordered).
    pub(crate) fn battle_setup(&self, town: TownId) -> BattleSetup {
        let attacker_allied = self.allies_move();
        let unit = |id: BlockId| Unit {
            block: id,
            strength: self.strength_of(id),
        };
        let here = |allied: bool| -> Vec<Unit> {
            self.on_map()
                .filter(|&(_, a, t)| t == town && side(a) == allied)
                .map(|(id, _, _)| unit(id))
                .collect()
        };
        let mut approaches = Vec::new();
        for n in self.campaign().map().graph().neighbours(town) {
            let attackers_there = self.side_in(n.town, attacker_allied);
            let defenders_there = self.side_in(n.town, !attacker_allied);
            let battle = (attackers_there && defenders_there) || self.battles.contains(&n.town);
            let held_by = match (battle, attackers_there, defenders_there) {
                (false, true, false) => Some(Side::Attacker),
                (false, false, true) => Some(Side::Defender),
                _ => None,
            };
            let attacked_from = self.on_map().any(|(id, a, t)| {
                t == town
                    && side(a) == attacker_allied
                    && self.entered_from.get(id.index()).copied().flatten() == Some(n.town)
            });
            let reinforcements = match held_by {
                Some(holder) => {
                    let allied = (holder == Side::Attacker) == attacker_allied;
                    self.on_map()
                        .filter(|&(id, a, t)| {
                            t == n.town
                                && side(a) == allied
                                && !self.disordered.get(id.index()).copied().unwrap_or(true)
                        })
                        .map(|(id, _, _)| unit(id))
                        .collect()
                }
                None => Vec::new(),
            };
            approaches.push(Approach {
                town: n.town,
                held_by,
                attacked_from,
                battle,
                reinforcements,
            });
        }
        BattleSetup {
            town,
            attackers: here(attacker_allied),
            defenders: here(!attacker_allied),
            approaches,
            options: self.options.battle,
            // 6.1: the battles under way hold their terrain blocks on their own boards.
            terrain_elsewhere: self
                .live
                .iter()
                .chain(self.battle.as_deref())
                .flat_map(Battle::terrain_held)
                .collect(),
            one_allied_player: self.options.players == Players::Two,
        }
    }

    /// The campaign's side of a battle's events while it is fought: a block that joined it
    /// stands in its town (so no other battle counts it), a block that retreated stands,
    /// disordered, where it went (7.3).
    fn track(&mut self, town: TownId, battle_events: &[BattleEvent]) {
        for e in battle_events {
            match *e {
                BattleEvent::Reinforced { block, .. } => {
                    if let Some(t) = self.town.get_mut(block.index()) {
                        *t = Some(town);
                    }
                }
                BattleEvent::Retreated { block, to, .. } => {
                    if let Some(t) = self.town.get_mut(block.index()) {
                        *t = Some(to);
                    }
                    if let Some(d) = self.disordered.get_mut(block.index()) {
                        *d = true;
                    }
                }
                _ => {}
            }
        }
    }

    /// After a battle's action: between its battle turns it waits behind the other battles
    /// (6.1: "Beide spelers beëindigen hun beurt in een veldslag en gaan dan naar een andere
    /// veldslag"); once it has ended, its blocks go where its result puts them, then
    /// regrouping (7.5) and the next battle.
    fn battle_over(&mut self, events: &mut Vec<Event>) {
        let Phase::Battle { town, skirmish } = self.phase else {
            return;
        };
        if self.battle.as_ref().is_some_and(|b| b.is_between_rounds()) {
            if let Some(battle) = self.battle.take() {
                self.live.push(*battle);
            }
            return self.next_battle(events);
        }
        let Some(result) = self.battle.as_ref().and_then(|b| b.result()) else {
            return;
        };
        self.battle = None;
        self.apply_result(town, &result, events);
        events.push(Event::BattleEnded {
            town,
            ending: result.ending,
        });
        let attacker_allied = self.allies_move();
        let winner = result.winner().map(|s| match s {
            Side::Attacker => attacker_allied,
            Side::Defender => !attacker_allied,
        });
        self.after_battle(town, winner, skirmish, events);
    }

    /// Each block of a battle's result where it ended: on the field in `town`, retreated
    /// (disordered, 7.3) to a town, eliminated, or still in its own town.
    fn apply_result(&mut self, town: TownId, result: &BattleResult, events: &mut Vec<Event>) {
        for o in &result.blocks {
            let i = o.block.index();
            if i >= self.town.len() {
                continue;
            }
            match o.fate {
                Fate::Field => {
                    self.town[i] = Some(town);
                    self.strength[i] = o.strength;
                }
                Fate::Retreated(to) => {
                    self.town[i] = Some(to);
                    self.strength[i] = o.strength;
                    self.disordered[i] = true;
                }
                Fate::Eliminated => self.eliminate(o.block, events),
                Fate::Stayed(_) => {}
            }
        }
    }

    /// After the battles: supply at the end of a French turn (9), then the end of the turn.
    fn after_battles(&mut self, events: &mut Vec<Event>) {
        if !self.allies_move() {
            let map = self.campaign().map();
            let mut due = Vec::new();
            for city in map.supply_cities() {
                if self.side_in(city.town, false) && !self.side_in(city.town, true) {
                    events.push(Event::SupplyCut {
                        city: city.town,
                        army: city.army,
                        loss: city.loss,
                    });
                    match due.iter_mut().find(|(a, _)| *a == city.army) {
                        Some((_, n)) => *n += city.loss,
                        None => due.push((city.army, city.loss)),
                    }
                }
            }
            self.supply_due = due;
        }
        self.next_supply(events);
    }

    fn next_supply(&mut self, events: &mut Vec<Event>) {
        while let Some(&(army, owed)) = self.supply_due.first() {
            if owed > 0 && self.on_map().any(|(_, a, _)| a == army) {
                self.phase = Phase::Supply { army, owed };
                return;
            }
            self.supply_due.remove(0);
        }
        self.end_turn(events);
    }

    fn take_supply_loss(&mut self, block: BlockId, events: &mut Vec<Event>) {
        let Phase::Supply { owed, .. } = self.phase else {
            return;
        };
        events.push(Event::SupplyLossTaken { block });
        match self.options.supply_loss {
            SupplyLoss::Blocks => self.eliminate(block, events),
            SupplyLoss::Steps => self.weaken(block, events),
        }
        if let Some(first) = self.supply_due.first_mut() {
            first.1 = owed.saturating_sub(1);
        }
        self.next_supply(events);
    }

    /// Defeats, victory, then the next turn (10, 2).
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        let fallen_before = self.defeated;
        for army in Army::ALL {
            let i = army_index(army);
            if !self.defeated[i] && self.eliminated[i] >= defeat_threshold(army) {
                self.defeated[i] = true;
                events.push(Event::Defeated(army));
                // 10: the rest of a defeated army is eliminated.
                let rest: Vec<BlockId> = self
                    .on_map()
                    .filter(|&(_, a, _)| a == army)
                    .map(|(id, _, _)| id)
                    .collect();
                for b in rest {
                    self.eliminate(b, events);
                }
            }
        }
        let [french, ad, pr] = self.defeated;
        let end = if ad && pr && french {
            // 10.1's "gelijktijdig" is all three in this turn; one Allied army fallen earlier
            // is our ruling (see the reason).
            Some(if fallen_before.contains(&true) {
                EndReason::LastAllyFellWithTheFrench
            } else {
                EndReason::AllDefeated
            })
        } else if ad && pr {
            Some(EndReason::AlliesDefeated)
        } else if french {
            Some(EndReason::FrenchDefeated)
        } else if self.turn >= self.campaign().turn_track().last_turn() {
            let held = self
                .campaign()
                .map()
                .supply_cities()
                .iter()
                .filter(|c| self.side_in(c.town, false) && !self.side_in(c.town, true))
                .count();
            Some(if held >= SUPPLY_CITIES_TO_WIN {
                EndReason::SupplyCitiesHeld
            } else {
                EndReason::TimeRanOut
            })
        } else {
            None
        };
        if let Some(reason) = end {
            events.push(Event::Ended(reason));
            self.phase = Phase::Over(reason);
            return;
        }
        self.turn += 1;
        self.begin_turn(events);
    }

    fn begin_turn(&mut self, events: &mut Vec<Event>) {
        self.moved.iter_mut().for_each(|m| *m = false);
        self.entered_from.iter_mut().for_each(|m| *m = None);
        self.disordered.iter_mut().for_each(|m| *m = false);
        self.traffic.iter_mut().for_each(|t| *t = 0);
        self.attack_traffic.iter_mut().for_each(|t| *t = 0);
        self.groups.clear();
        self.attacks.clear();
        self.forced.clear();
        self.shown = [false; 3];
        if let Some(turn) = self.current_turn() {
            events.push(Event::TurnBegan {
                turn: self.turn,
                mover: turn.mover,
                night: turn.night,
            });
        }
        match self.movers().first() {
            Some(&army) => self.phase = Phase::Move(self.options.seat_of(army)),
            // Both Allied armies defeated: the game ended before this turn.
            None => self.end_turn(events),
        }
    }

    /// The next mover after `seat` ends its moves, if any.
    fn next_mover(&self, seat: Seat) -> Option<Seat> {
        let seats: Vec<Seat> = self
            .movers()
            .into_iter()
            .map(|a| self.options.seat_of(a))
            .collect();
        let at = seats.iter().position(|&s| s == seat)?;
        seats.get(at + 1..)?.iter().copied().find(|&s| s != seat)
    }

    /// Whether `block` of the regrouping `army` may regroup to `to` around battle `town` (7.5):
    /// from the town to a neighbouring town the army's side holds, or from a neighbouring town
    /// into the battle's town, within the 2/1 limit of the road; a town with a battle still to
    /// fight is no part of it.
    pub(crate) fn regroup_road(
        &self,
        town: TownId,
        army: Army,
        block: BlockId,
        to: TownId,
    ) -> Option<RoadId> {
        let map = self.campaign().map();
        let from = self.town_of(block)?;
        if self.army_of(block)? != army || from == to {
            return None;
        }
        let other = if from == town {
            to
        } else if to == town {
            from
        } else {
            return None;
        };
        let road = map.graph().road_between(from, to)?;
        if self.battles.contains(&other) || self.side_in(other, !side(army)) {
            return None;
        }
        if from == town && !self.side_in(to, side(army)) {
            return None;
        }
        let limit = map.retreat_limit(road)?;
        (self.regroup_traffic.get(road.index()).copied()? < limit).then_some(road)
    }

    fn legal_regroups(&self, town: TownId, army: Army, out: &mut Vec<Action>) {
        let graph = self.campaign().map().graph();
        let near: Vec<TownId> = graph.neighbours(town).map(|n| n.town).collect();
        for (id, a, at) in self.on_map() {
            if a != army || self.moved_in_regroup(id) {
                continue;
            }
            let targets: Vec<TownId> = if at == town {
                near.clone()
            } else if near.contains(&at) {
                vec![town]
            } else {
                continue;
            };
            for to in targets {
                if self.regroup_road(town, army, id, to).is_some() {
                    out.push(Action::Regroup { block: id, to });
                }
            }
        }
    }

    /// A block regroups once after a battle (7.5).
    fn moved_in_regroup(&self, block: BlockId) -> bool {
        self.regrouped.contains(&block)
    }

    /// After a battle won by the `winner` side (true: Allied), and not a skirmish: its armies
    /// regroup in order; then the next battle.
    pub(crate) fn after_battle(
        &mut self,
        town: TownId,
        winner: Option<bool>,
        skirmish: bool,
        events: &mut Vec<Event>,
    ) {
        self.regroup_traffic.iter_mut().for_each(|t| *t = 0);
        self.regrouped.clear();
        match winner {
            Some(allied) if !skirmish => {
                if let Some(army) = self.next_regrouper(town, allied, None) {
                    self.phase = Phase::Regroup { town, army };
                    return;
                }
                self.next_battle(events);
            }
            _ => self.next_battle(events),
        }
    }

    fn next_regrouper(&self, town: TownId, allied: bool, after: Option<Army>) -> Option<Army> {
        let start = after.map_or(0, |a| army_index(a) + 1);
        let mut out = Vec::new();
        Army::ALL
            .into_iter()
            .skip(start)
            .filter(|&a| side(a) == allied && !self.is_defeated(a))
            .find(|&a| {
                out.clear();
                self.legal_regroups(town, a, &mut out);
                !out.is_empty()
            })
    }

    fn status_now(&self) -> Status<EndReason> {
        match self.phase {
            Phase::Over(reason) => Status::Won {
                winner: self.options.seat_of(reason.winner()),
                reason,
            },
            _ => Status::Ongoing,
        }
    }

    /// The seats that command an army of the side of `allied`.
    fn owner(&self, army: Army) -> Seat {
        self.options.seat_of(army)
    }

    /// The problems of a placed set-up, all at once.
    fn setup_problems(
        options: &Options,
        setup: &Setup,
    ) -> (Vec<SetupProblem>, Vec<Option<(TownId, u8)>>) {
        let oob = options.campaign.order_of_battle();
        let map = options.campaign.map();
        let mut problems = Vec::new();
        let mut placed: Vec<Option<(TownId, u8)>> = vec![None; oob.len()];
        let mut twice: Vec<bool> = vec![false; oob.len()];
        match setup {
            Setup::Historical => {
                for (id, b) in oob.blocks() {
                    placed[id.index()] = Some((b.start, b.strength));
                }
            }
            Setup::Placed { allies, french } => {
                for (list, allied) in [(allies, true), (french, false)] {
                    for p in list {
                        let Some(id) = oob.find(&p.block) else {
                            problems.push(SetupProblem::UnknownBlock(p.block.clone()));
                            continue;
                        };
                        let Some(b) = oob.block(id) else { continue };
                        if side(b.army) != allied {
                            problems.push(SetupProblem::WrongList {
                                block: b.name.clone(),
                                army: b.army,
                            });
                        }
                        let Some(town) = map.town(&p.town) else {
                            problems.push(SetupProblem::UnknownTown {
                                block: b.name.clone(),
                                town: p.town.clone(),
                            });
                            continue;
                        };
                        if placed[id.index()].is_some() {
                            if !twice[id.index()] {
                                problems.push(SetupProblem::Twice(b.name.clone()));
                            }
                            twice[id.index()] = true;
                            continue;
                        }
                        placed[id.index()] = Some((town, p.strength));
                    }
                }
            }
        }
        let check_caps =
            !(matches!(setup, Setup::Historical) && options.historical_exempt_from_caps);
        for (id, b) in oob.blocks() {
            let Some((town, strength)) = placed[id.index()] else {
                if !twice[id.index()] {
                    problems.push(SetupProblem::Missing(b.name.clone()));
                }
                continue;
            };
            let code = map.code(town).unwrap_or("?");
            if map.info(town).map(|i| i.area) != Some(b.army) {
                problems.push(SetupProblem::WrongArea {
                    block: b.name.clone(),
                    town: code.into(),
                    army: b.army,
                });
            }
            if strength != b.strength {
                problems.push(SetupProblem::NotFullStrength {
                    block: b.name.clone(),
                    strength,
                    full: b.strength,
                });
            }
        }
        if check_caps {
            for (town, info) in map.graph().towns() {
                for allied in [true, false] {
                    let count = oob
                        .blocks()
                        .filter(|(id, b)| {
                            side(b.army) == allied
                                && placed[id.index()].map(|(t, _)| t) == Some(town)
                        })
                        .count();
                    let cap = if allied {
                        ALLIED_SET_UP_CAP
                    } else {
                        FRENCH_SET_UP_CAP
                    };
                    if count > cap {
                        problems.push(SetupProblem::TooMany {
                            town: info.info.code.clone(),
                            count,
                            cap,
                        });
                    }
                }
            }
        }
        (problems, placed)
    }
}

/// A checked move.
struct Moving {
    from: TownId,
    /// The town it enters `to` from.
    before: TownId,
    to: TownId,
    roads: Vec<RoadId>,
    forced: bool,
    attack: bool,
    army: Army,
}

impl Game for Napoleon {
    type Options = Options;
    type Setup = Setup;
    type SetupProblem = SetupProblem;
    type Action = Action;
    type Illegal = Illegal;
    type Outcome = Vec<Event>;
    type View = View;
    type EndReason = EndReason;

    fn start(options: Options, setup: Setup) -> Result<Napoleon, Problems<SetupProblem>> {
        let (problems, placed) = Napoleon::setup_problems(&options, &setup);
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        let roads = options.campaign.map().graph().road_count();
        let blocks = placed.len();
        let mut game = Napoleon {
            town: placed.iter().map(|p| p.map(|(t, _)| t)).collect(),
            strength: placed.iter().map(|p| p.map_or(0, |(_, s)| s)).collect(),
            options,
            turn: 1,
            phase: Phase::Move(Seat::FIRST),
            moved: vec![false; blocks],
            entered_from: vec![None; blocks],
            disordered: vec![false; blocks],
            groups: Vec::new(),
            traffic: vec![0; roads],
            attack_traffic: vec![0; roads],
            regroup_traffic: vec![0; roads],
            regrouped: Vec::new(),
            attacks: Vec::new(),
            forced: Vec::new(),
            shown: [false; 3],
            battles: Vec::new(),
            ordered: 0,
            eliminated: [0; 3],
            defeated: [false; 3],
            supply_due: Vec::new(),
            battle: None,
            live: Vec::new(),
        };
        let mut events = Vec::new();
        game.begin_turn(&mut events);
        Ok(game)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn to_act(&self) -> Actor {
        match self.phase {
            Phase::Move(seat) => Actor::Seat(seat),
            Phase::ShowLeader(army) | Phase::Regroup { army, .. } | Phase::Supply { army, .. } => {
                Actor::Seat(self.owner(army))
            }
            Phase::ForcedMarch => Actor::Chance,
            Phase::ChooseBattle => Actor::Seat(self.active_seat()),
            Phase::Battle { .. } => match self.battle.as_ref().map(|b| b.actor()) {
                Some(BattleActor::Army(army)) => Actor::Seat(self.owner(army)),
                Some(BattleActor::Chance) => Actor::Chance,
                // A battle is taken off as soon as it ends.
                Some(BattleActor::Over) | None => Actor::Nobody,
            },
            Phase::Over(_) => Actor::Nobody,
        }
    }

    fn status(&self) -> Status<EndReason> {
        self.status_now()
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Move(seat) => {
                self.legal_moves(seat, &mut out);
                out.push(Action::EndMoves);
            }
            Phase::ShowLeader(_) => {
                out.push(Action::ShowLeader(true));
                out.push(Action::ShowLeader(false));
            }
            Phase::ForcedMarch => out.extend(Face::ALL.into_iter().map(Action::Die)),
            Phase::ChooseBattle => out.extend(self.fightable().into_iter().map(Action::Fight)),
            Phase::Battle { .. } => {
                if let Some(b) = &self.battle {
                    out.extend(b.legal_actions().into_iter().map(Action::Battle));
                }
            }
            Phase::Over(_) => {}
            Phase::Regroup { town, army } => {
                self.legal_regroups(town, army, &mut out);
                out.push(Action::EndRegroup);
            }
            Phase::Supply { army, .. } => out.extend(
                self.on_map()
                    .filter(|&(_, a, _)| a == army)
                    .map(|(id, _, _)| Action::SupplyLoss(id)),
            ),
        }
        out
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        match self.phase {
            Phase::ForcedMarch => Face::ALL.into_iter().map(|f| (Action::Die(f), 1)).collect(),
            Phase::Battle { .. } => self.battle.as_ref().map_or(Vec::new(), |b| {
                b.chance_outcomes()
                    .into_iter()
                    .map(|(a, w)| (Action::Battle(a), w))
                    .collect()
            }),
            _ => Vec::new(),
        }
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        let wrong = Err(Illegal::WrongPhase);
        match (&self.phase, action) {
            (Phase::Over(_), _) => Err(Illegal::GameOver),
            (Phase::Battle { .. }, Action::Battle(a)) => match &self.battle {
                Some(b) => b.check(a).map_err(Illegal::Battle),
                None => wrong,
            },
            (Phase::ForcedMarch, Action::Die(_)) => Ok(()),
            (Phase::ForcedMarch, _) => Err(Illegal::NotAChanceOutcome),
            (_, Action::Die(_)) => wrong,
            (Phase::Move(seat), Action::Move { block, path }) => {
                self.check_move(*seat, *block, path).map(|_| ())
            }
            (Phase::Move(_), Action::EndMoves) => Ok(()),
            (Phase::ShowLeader(_), Action::ShowLeader(_)) => Ok(()),
            (Phase::ChooseBattle, Action::Fight(town)) => {
                if self.fightable().contains(town) {
                    Ok(())
                } else {
                    Err(Illegal::NotAPendingBattle)
                }
            }
            (Phase::Regroup { town, army }, Action::Regroup { block, to }) => {
                if !self.moved_in_regroup(*block)
                    && self.regroup_road(*town, *army, *block, *to).is_some()
                {
                    Ok(())
                } else {
                    Err(Illegal::CannotRegroup)
                }
            }
            (Phase::Regroup { .. }, Action::EndRegroup) => Ok(()),
            (Phase::Supply { army, .. }, Action::SupplyLoss(block)) => {
                if self.town_of(*block).is_some() && self.army_of(*block) == Some(*army) {
                    Ok(())
                } else {
                    Err(Illegal::NotOwingArmy)
                }
            }
            _ => wrong,
        }
    }

    fn play_unchecked(&mut self, action: &Action) -> Vec<Event> {
        let mut events = Vec::new();
        match (self.phase.clone(), action) {
            (Phase::Move(_), Action::Move { block, path }) => {
                self.play_move(*block, path, &mut events);
            }
            (Phase::Move(seat), Action::EndMoves) => match self.next_mover(seat) {
                Some(next) => self.phase = Phase::Move(next),
                None => self.after_moves(&mut events),
            },
            (Phase::ShowLeader(army), Action::ShowLeader(show)) => {
                if *show {
                    self.shown[army_index(army)] = true;
                    if let Some((_, town)) = self.leader(army) {
                        events.push(Event::LeaderShown { army, town });
                    }
                }
                match self.next_leader_choice() {
                    Some(next) => self.phase = Phase::ShowLeader(next),
                    None => self.phase = Phase::ForcedMarch,
                }
            }
            (Phase::ForcedMarch, Action::Die(face)) => self.roll_forced(*face, &mut events),
            (Phase::ChooseBattle, Action::Fight(town)) => {
                self.order_battle(*town);
                self.next_battle(&mut events);
            }
            (Phase::Regroup { town, army }, Action::Regroup { block, to }) => {
                if let Some(road) = self.regroup_road(town, army, *block, *to) {
                    self.regroup_traffic[road.index()] += 1;
                    self.regrouped.push(*block);
                    self.town[block.index()] = Some(*to);
                    events.push(Event::Regrouped {
                        block: *block,
                        to: *to,
                    });
                }
            }
            (Phase::Regroup { town, army }, Action::EndRegroup) => {
                match self.next_regrouper(town, side(army), Some(army)) {
                    Some(next) => self.phase = Phase::Regroup { town, army: next },
                    None => self.next_battle(&mut events),
                }
            }
            (Phase::Supply { .. }, Action::SupplyLoss(block)) => {
                self.take_supply_loss(*block, &mut events);
            }
            (Phase::Battle { town, .. }, Action::Battle(a)) => {
                if let Some(b) = self.battle.as_mut() {
                    let battle_events = b.play_unchecked(a);
                    self.track(town, &battle_events);
                    events.extend(battle_events.into_iter().map(Event::Battle));
                }
                self.battle_over(&mut events);
            }
            _ => {}
        }
        events
    }

    fn view(&self, seat: Seat) -> View {
        View::new(self, seat)
    }

    /// The seats of the winning side: with three players an Allied win is both Allied seats'.
    fn winners(&self) -> Vec<Seat> {
        let Phase::Over(reason) = self.phase else {
            return Vec::new();
        };
        let mut seats: Vec<Seat> = reason
            .winning_armies()
            .iter()
            .map(|&a| self.options.seat_of(a))
            .collect();
        seats.dedup();
        seats
    }
}

// A seat's view is built here, beside the game whose state it reads: view.rs stands below the
// game, which names the view as its `Game::View`.
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
