//! The rules of a battle: set-up, who acts, what is legal, and what each action does.

use alloc::vec;
use alloc::vec::Vec;

use super::{
    Approach, Battle, BattleAction, BattleActor, BattleEvent, BattleIllegal, BattleSetup, Defeat,
    Ending, Fighter, Ground, Loc, Phase, Place, Road, SetupProblem, Side, Step, Target, Volley,
    Wing, Zone, FACES, MAX_HITS_ON, MORALE_HOLDS,
};
use crate::napoleon::{Army, BlockId, Map, OrderOfBattle, TerrainKind, UnitType};
use crate::Problems;

/// The most blocks a side shows in a skirmish's round (6.6).
const SKIRMISH_SHOW: usize = 4;
/// Units that may cross a stream per battle turn (6.2.1).
const STREAM_LIMIT: u8 = 2;

/// Whether `to` is the reserve or a zone of `side`'s own half.
fn own_half(to: Place, side: Side) -> bool {
    match to {
        Place::Reserve => true,
        Place::Zone(z) => z.half == side,
    }
}

/// The camp of an army: the French, or the Allies.
const fn allied(army: Army) -> bool {
    army.is_allied()
}

impl Fighter {
    /// `unit` of `block`, taking part on `side`, at `at`, fresh.
    fn new(unit: super::Unit, block: &crate::napoleon::Block, side: Side, at: Loc) -> Fighter {
        Fighter {
            block: unit.block,
            army: block.army,
            side,
            kind: block.kind,
            corps: block.corps,
            fire: block.firepower.hits_on(),
            strength: unit.strength,
            at,
            moves: 0,
            fired: false,
            engaged: false,
            disengaged: false,
            busy: false,
            shock: false,
            canister: true,
            square: false,
            sheltered_in: None,
            shown: false,
        }
    }
}

impl Battle {
    /// Checks `setup` against the order of battle and the map and starts the battle: a
    /// skirmish (6.6) when a side has fewer than 3 units, else the terrain draw (6.2.1).
    ///
    /// # Errors
    /// Every problem with the set-up at once.
    pub fn new(
        oob: &OrderOfBattle,
        map: &Map,
        setup: BattleSetup,
    ) -> Result<Battle, Problems<SetupProblem>> {
        let mut problems = Vec::new();
        if map.graph().town(setup.town).is_none() {
            problems.push(SetupProblem::UnknownTown);
        }
        if map.terrain().total() < 3 {
            problems.push(SetupProblem::TerrainPool);
        }
        // The pool this battle draws from: the map's, less the blocks on other battlefields.
        let mut pool = TerrainKind::ALL.map(|k| map.terrain().count(k));
        for kind in TerrainKind::ALL {
            let elsewhere = setup
                .terrain_elsewhere
                .iter()
                .filter(|&&k| k == kind)
                .count();
            let left = &mut pool[kind as usize];
            match u8::try_from(elsewhere)
                .ok()
                .and_then(|n| left.checked_sub(n))
            {
                Some(n) => *left = n,
                None => problems.push(SetupProblem::TerrainElsewhere(kind)),
            }
        }
        let mut seen: Vec<BlockId> = Vec::new();
        let mut fighters = Vec::new();
        let mut camps: [Option<bool>; 2] = [None, None];
        let mut mixed = false;
        let mut add = |unit: &super::Unit,
                       side: Side,
                       at: Loc,
                       problems: &mut Vec<SetupProblem>,
                       fighters: &mut Vec<Fighter>| {
            let Some(block) = oob.block(unit.block) else {
                problems.push(SetupProblem::UnknownBlock(unit.block));
                return;
            };
            if seen.contains(&unit.block) {
                problems.push(SetupProblem::Duplicate(unit.block));
                return;
            }
            seen.push(unit.block);
            if unit.strength == 0 || unit.strength > block.strength {
                problems.push(SetupProblem::BadStrength(unit.block, unit.strength));
                return;
            }
            fighters.push(Fighter::new(*unit, block, side, at));
        };
        for (side, units) in [
            (Side::Attacker, &setup.attackers),
            (Side::Defender, &setup.defenders),
        ] {
            if units.is_empty() {
                problems.push(SetupProblem::NoBlocks(side));
            }
            for unit in units {
                if let Some(b) = oob.block(unit.block) {
                    match camps[side.index()] {
                        None => camps[side.index()] = Some(allied(b.army)),
                        Some(c) if c != allied(b.army) => mixed = true,
                        Some(_) => {}
                    }
                }
                add(unit, side, Loc::Undeployed, &mut problems, &mut fighters);
            }
        }
        if camps[0].is_some() && camps[0] == camps[1] {
            mixed = true;
        }
        if mixed {
            problems.push(SetupProblem::MixedCamps);
        }
        let mut roads: Vec<Road> = Vec::new();
        for (i, approach) in setup.approaches.iter().enumerate() {
            let Approach {
                town,
                held_by,
                attacked_from,
                battle,
                reinforcements,
            } = approach;
            if roads.iter().any(|r| r.town == *town) {
                problems.push(SetupProblem::ApproachTwice(*town));
                continue;
            }
            let Some(limit) = map
                .graph()
                .road_between(setup.town, *town)
                .and_then(|r| map.retreat_limit(r))
            else {
                problems.push(SetupProblem::NotAdjacent(*town));
                continue;
            };
            for unit in reinforcements {
                let camp_ok = match (held_by, oob.block(unit.block)) {
                    (Some(side), Some(b)) => {
                        !*battle && camps[side.index()] == Some(allied(b.army))
                    }
                    _ => false,
                };
                if !camp_ok {
                    problems.push(SetupProblem::WrongReinforcement(unit.block));
                    continue;
                }
                if let Some(side) = held_by {
                    add(unit, *side, Loc::Waiting(i), &mut problems, &mut fighters);
                }
            }
            roads.push(Road {
                town: *town,
                limit,
                held_by: *held_by,
                attacked_from: *attacked_from,
                battle: *battle,
                reinforced_attacker: false,
                reinforced: [0; 2],
                retreated: [0; 2],
            });
        }
        // Waiting blocks index the approaches as given; with a skipped approach the indexes
        // would shift, but a skipped approach is a problem, so no battle is built then.
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        let on_field = |side: Side| {
            fighters
                .iter()
                .filter(|f: &&Fighter| f.side == side && f.at == Loc::Undeployed)
                .count()
        };
        let skirmish = on_field(Side::Attacker) < 3 || on_field(Side::Defender) < 3;
        let mut battle = Battle {
            town: setup.town,
            options: setup.options,
            skirmish,
            fighters,
            roads,
            ground: [None; 6],
            pool,
            phase: Phase::Over,
            volley: None,
            turn: 0,
            stream_crossings: [0; 3],
            idle: 0,
            active_this_turn: false,
            reinforcements_due: false,
            ending: None,
            hold: false,
            one_allied_player: setup.one_allied_player,
        };
        if skirmish {
            for f in &mut battle.fighters {
                if f.at == Loc::Undeployed {
                    f.at = Loc::Field(Place::Reserve);
                }
            }
            let army = battle.first_army(Side::Defender, |b, i| b.is_on_field(i));
            battle.phase = match army {
                Some(army) => Phase::SkirmishReveal {
                    side: Side::Defender,
                    army,
                },
                None => Phase::Over,
            };
        } else {
            // The attacker draws one block, the defender two (6.2.1), as far as the pool goes
            // (ruling R24).
            battle.phase = battle.terrain_draw(Side::Attacker);
        }
        Ok(battle)
    }

    /// Holds the battle after each pair of battle turns (the defender's turn ends) until
    /// [`Battle::resume`]: the campaign fights its battles side by side (6.1) and brings each
    /// battle's neighbouring towns up to date between its turns (6.3.4). Without it a battle
    /// plays on by itself.
    pub fn hold_between_rounds(&mut self) {
        self.hold = true;
    }

    /// Whether the battle is held between battle turns, waiting for [`Battle::resume`].
    pub fn is_between_rounds(&self) -> bool {
        self.phase == Phase::Between && self.ending.is_none()
    }

    /// Begins the attacker's next battle turn with the neighbouring towns as they stand now
    /// (6.3.4: "Als laatste stap in iedere (slagveld) beurt mag de speler het slagveld
    /// versterken met bevriende eenheden die zich in naburige steden of gemeenten bevinden"):
    /// who holds each town given, whether a battle is fought there, and the blocks that may
    /// reinforce from it replace what the battle knew; towns left out stay as they were. The
    /// towns are among those it began with; a block that joined the battle stays in it.
    ///
    /// # Errors
    /// The battle is not between battle turns, a town is new or given twice, or a reinforcement
    /// is unknown, given twice, already in the battle (or waiting at a town not given), of the
    /// wrong camp or at a wrong strength; the battle is then unchanged.
    pub fn resume(
        &mut self,
        oob: &OrderOfBattle,
        approaches: &[Approach],
    ) -> Result<Vec<BattleEvent>, Problems<SetupProblem>> {
        let mut problems = Vec::new();
        if !self.is_between_rounds() {
            problems.push(SetupProblem::NotBetweenRounds);
        }
        let camp = |side: Side| {
            self.fighters
                .iter()
                .find(|f| f.side == side)
                .map(|f| allied(f.army))
        };
        let mut seen: Vec<BlockId> = Vec::new();
        let mut waiting: Vec<Fighter> = Vec::new();
        let mut roads = self.roads.clone();
        // The towns given: their waiting blocks are replaced by the ones listed now.
        let given: Vec<usize> = approaches
            .iter()
            .filter_map(|a| roads.iter().position(|r| r.town == a.town))
            .collect();
        let mut towns_seen: Vec<TownId> = Vec::new();
        for approach in approaches {
            if towns_seen.contains(&approach.town) {
                problems.push(SetupProblem::ApproachTwice(approach.town));
                continue;
            }
            towns_seen.push(approach.town);
            let Some(r) = roads.iter().position(|r| r.town == approach.town) else {
                problems.push(SetupProblem::NewApproach(approach.town));
                continue;
            };
            let road = &mut roads[r];
            road.held_by = approach.held_by;
            road.battle = approach.battle;
            road.attacked_from |= approach.attacked_from;
            for unit in &approach.reinforcements {
                let Some(block) = oob.block(unit.block) else {
                    problems.push(SetupProblem::UnknownBlock(unit.block));
                    continue;
                };
                // Already in the battle, or waiting at a town not given now (whose waiting
                // blocks stay): listing it again would make it twice.
                let joined = self.fighter(unit.block).is_some_and(
                    |i| !matches!(self.fighters[i].at, Loc::Waiting(w) if given.contains(&w)),
                );
                if seen.contains(&unit.block) || joined {
                    problems.push(SetupProblem::Duplicate(unit.block));
                    continue;
                }
                seen.push(unit.block);
                let side = match approach.held_by {
                    Some(side) if !approach.battle && camp(side) == Some(allied(block.army)) => {
                        side
                    }
                    _ => {
                        problems.push(SetupProblem::WrongReinforcement(unit.block));
                        continue;
                    }
                };
                if unit.strength == 0 || unit.strength > block.strength {
                    problems.push(SetupProblem::BadStrength(unit.block, unit.strength));
                    continue;
                }
                waiting.push(Fighter::new(*unit, block, side, Loc::Waiting(r)));
            }
        }
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        // The towns given replace their waiting blocks; the others keep theirs.
        self.roads = roads;
        self.fighters
            .retain(|f| !matches!(f.at, Loc::Waiting(r) if given.contains(&r)));
        self.fighters.extend(waiting);
        let mut ev = Vec::new();
        self.begin_turn(Side::Attacker, &mut ev);
        self.advance(&mut ev);
        Ok(ev)
    }

    // ---------------------------------------------------------------- queries

    pub(super) fn fighter(&self, block: BlockId) -> Option<usize> {
        self.fighters.iter().position(|f| f.block == block)
    }

    pub(super) fn place(&self, i: usize) -> Option<Place> {
        match self.fighters[i].at {
            Loc::Field(p) => Some(p),
            _ => None,
        }
    }

    pub(super) fn zone(&self, i: usize) -> Option<Zone> {
        match self.fighters[i].at {
            Loc::Field(Place::Zone(z)) => Some(z),
            _ => None,
        }
    }

    fn is_on_field(&self, i: usize) -> bool {
        matches!(self.fighters[i].at, Loc::Field(_))
    }

    /// The fighters of `side` standing in `zone`.
    fn in_zone(&self, zone: Zone, side: Side) -> impl Iterator<Item = usize> + '_ {
        self.fighters
            .iter()
            .enumerate()
            .filter(move |(_, f)| f.side == side && f.at == Loc::Field(Place::Zone(zone)))
            .map(|(i, _)| i)
    }

    fn any_in_zone(&self, zone: Zone, side: Side) -> bool {
        self.in_zone(zone, side).next().is_some()
    }

    /// Whether fighter `i` is in combat: in a zone where the enemy stands (6.3.2).
    pub(super) fn in_combat(&self, i: usize) -> bool {
        self.zone(i)
            .is_some_and(|z| self.any_in_zone(z, self.fighters[i].side.other()))
    }

    pub(super) fn terrain_at(&self, zone: Zone) -> Option<TerrainKind> {
        self.ground[zone.index()].map(|g| g.kind)
    }

    fn woods(&self, zone: Zone) -> bool {
        self.terrain_at(zone) == Some(TerrainKind::Woods)
    }

    /// The wing index of the stream between `a` and its facing zone, if one lies there.
    fn stream_between(&self, a: Zone, b: Zone) -> Option<usize> {
        if a.facing() != b {
            return None;
        }
        let stream = |z: Zone| self.terrain_at(z) == Some(TerrainKind::Stream);
        if stream(a) || stream(b) {
            let defender = if a.half == Side::Defender { a } else { b };
            Some(defender.wing.index())
        } else {
            None
        }
    }

    /// Whether the enemy of fighter `i`'s army can see it (6.2.4; 6.6 in a skirmish).
    pub(super) fn revealed(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        if self.skirmish {
            return f.shown && self.is_on_field(i);
        }
        // Nothing is laid flat before both sides have set up (6.2.2, 6.2.4).
        if matches!(self.phase, Phase::Terrain { .. } | Phase::Deploy { .. }) {
            return false;
        }
        self.face_up(i)
    }

    /// Whether fighter `i` of a battle (not a skirmish) lies flat once both sides have set up,
    /// whatever the phase: on a wing, unless in woods or under 6.2.4's option while it is not
    /// in combat and has not been seen since it last went into woods or the reserve (`shown`:
    /// it fired, or, under the option, was in combat on an open wing or came onto one seen).
    fn face_up(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        match f.at {
            Loc::Field(Place::Zone(z)) => {
                if self.options.reveal_on_contact || self.woods(z) {
                    f.shown || self.in_combat(i)
                } else {
                    true
                }
            }
            _ => false,
        }
    }

    /// The armies with fighters on `side`, in order.
    fn armies(&self, side: Side) -> Vec<Army> {
        let mut out: Vec<Army> = Vec::new();
        for army in Army::ALL {
            if self
                .fighters
                .iter()
                .any(|f| f.side == side && f.army == army)
            {
                out.push(army);
            }
        }
        out
    }

    /// The first army of `side` (in [`Army::ALL`] order) with a fighter for which `pick` holds.
    fn first_army(&self, side: Side, pick: impl Fn(&Battle, usize) -> bool) -> Option<Army> {
        self.first_army_after(side, None, pick)
    }

    /// The first army of `side` after `after` with a fighter for which `pick` holds.
    fn first_army_after(
        &self,
        side: Side,
        after: Option<Army>,
        pick: impl Fn(&Battle, usize) -> bool,
    ) -> Option<Army> {
        self.armies(side).into_iter().find(|&army| {
            after.is_none_or(|a| army > a)
                && (0..self.fighters.len()).any(|i| {
                    self.fighters[i].army == army && self.fighters[i].side == side && pick(self, i)
                })
        })
    }

    /// The army that makes a side's shared choices (terrain): the one with most blocks on the
    /// side, the first in order on a tie (ruling R3).
    fn lead_army(&self, side: Side) -> Army {
        let mut best = (0, Army::French);
        for army in self.armies(side) {
            let n = self
                .fighters
                .iter()
                .filter(|f| f.side == side && f.army == army)
                .count();
            if n > best.0 {
                best = (n, army);
            }
        }
        best.1
    }

    /// How many moves fighter `i` has per battle turn: cavalry, horse artillery and leaders
    /// two, the rest one (6.3.2).
    fn max_moves(&self, i: usize) -> u8 {
        if self.fighters[i].kind.is_fast() {
            2
        } else {
            1
        }
    }

    // ---------------------------------------------------------------- who acts

    /// Who must act now.
    pub fn actor(&self) -> BattleActor {
        if self.ending.is_some() {
            return BattleActor::Over;
        }
        if let Some(v) = &self.volley {
            return match v.hits {
                None => BattleActor::Chance,
                Some(_) => match self.pick_for_hit() {
                    Some((army, _)) => BattleActor::Army(army),
                    None => BattleActor::Over,
                },
            };
        }
        match &self.phase {
            Phase::Terrain { drawn: None, .. } => BattleActor::Chance,
            Phase::Terrain { side, .. } => BattleActor::Army(self.lead_army(*side)),
            Phase::Deploy { side } => self
                .first_army(*side, |b, i| b.fighters[i].at == Loc::Undeployed)
                .map_or(BattleActor::Over, BattleActor::Army),
            Phase::SkirmishReveal { army, .. }
            | Phase::Fight { army, .. }
            | Phase::Reinforce { army, .. } => BattleActor::Army(*army),
            Phase::SkirmishFire { .. } => BattleActor::Chance,
            Phase::Morale {
                falling_back: Some(b),
                ..
            } => self.fighter(*b).map_or(BattleActor::Over, |i| {
                BattleActor::Army(self.fighters[i].army)
            }),
            Phase::Morale { .. } => BattleActor::Chance,
            Phase::Rout { side } => self
                .withdraw_army(*side)
                .map_or(BattleActor::Over, BattleActor::Army),
            Phase::Over | Phase::Between => BattleActor::Over,
        }
    }

    /// The chance outcomes due now with their exact weights; empty unless chance acts.
    pub fn chance_outcomes(&self) -> Vec<(BattleAction, u32)> {
        if self.actor() != BattleActor::Chance {
            return Vec::new();
        }
        if let Some(v) = &self.volley {
            return binomial(v.dice, v.hits_on)
                .into_iter()
                .enumerate()
                .filter(|&(_, w)| w > 0)
                .map(|(k, w)| (BattleAction::Hits(k as u8), w))
                .collect();
        }
        match &self.phase {
            Phase::Terrain { .. } => TerrainKind::ALL
                .into_iter()
                .zip(self.pool)
                .filter(|&(_, n)| n > 0)
                .map(|(k, n)| (BattleAction::DrawTerrain(k), u32::from(n)))
                .collect(),
            Phase::Morale { .. } => (1..=FACES).map(|d| (BattleAction::Die(d), 1)).collect(),
            _ => Vec::new(),
        }
    }

    /// Every legal action of the army to act (or every chance outcome when chance acts).
    pub fn legal_actions(&self) -> Vec<BattleAction> {
        match self.actor() {
            BattleActor::Over => Vec::new(),
            BattleActor::Chance => self.chance_outcomes().into_iter().map(|(a, _)| a).collect(),
            BattleActor::Army(army) => self.army_actions(army),
        }
    }

    /// Whether `action` is legal now.
    ///
    /// # Errors
    /// Why it is not; the wording never names a block the actor may not see.
    pub fn check(&self, action: &BattleAction) -> Result<(), BattleIllegal> {
        let actor = self.actor();
        let chance = matches!(
            action,
            BattleAction::DrawTerrain(_) | BattleAction::Die(_) | BattleAction::Hits(_)
        );
        match actor {
            BattleActor::Over => return Err(BattleIllegal::Over),
            BattleActor::Chance if !chance => return Err(BattleIllegal::ChanceActs),
            BattleActor::Army(_) if chance => return Err(BattleIllegal::NotChance),
            _ => {}
        }
        if self.legal_actions().contains(action) {
            return Ok(());
        }
        Err(self.why_not(actor, action))
    }

    /// Whether `army` may play `action` now: [`Battle::check`], after checking that `army` is the
    /// one to act (in the three-player game each Allied player acts only for his own blocks,
    /// 11).
    ///
    /// # Errors
    /// [`BattleIllegal::NotYourTurn`] when another army or chance acts, else as
    /// [`Battle::check`].
    pub fn check_as(&self, army: Army, action: &BattleAction) -> Result<(), BattleIllegal> {
        match self.actor() {
            BattleActor::Army(a) if a != army => Err(BattleIllegal::NotYourTurn(self.actor())),
            BattleActor::Chance => Err(BattleIllegal::NotYourTurn(BattleActor::Chance)),
            _ => self.check(action),
        }
    }

    /// Why a well-kinded `action` of `actor` is not in the legal list.
    fn why_not(&self, actor: BattleActor, action: &BattleAction) -> BattleIllegal {
        let BattleActor::Army(army) = actor else {
            return BattleIllegal::NotChance;
        };
        let block = action.block();
        // A hit may land on a block of the ally's army (ruling R5); every other block named
        // must be the actor's own.
        if let Some(block) = block {
            let own = self
                .fighter(block)
                .is_some_and(|i| self.fighters[i].army == army);
            if !own && !matches!(action, BattleAction::TakeHit(_)) {
                return BattleIllegal::NotYourBlock;
            }
        }
        let step = self.step();
        let fits = match action {
            BattleAction::PlaceTerrain(_) => step == Step::Terrain,
            BattleAction::Deploy { .. } => step == Step::Deployment,
            BattleAction::Reveal(_) => step == Step::SkirmishReveal,
            BattleAction::TakeHit(_) => step == Step::Losses,
            BattleAction::Move { .. } => matches!(step, Step::Fight | Step::Morale),
            BattleAction::Fire { .. }
            | BattleAction::FormSquare(_)
            | BattleAction::Shelter { .. }
            | BattleAction::Occupy(_) => step == Step::Fight,
            BattleAction::Retreat { .. } => matches!(step, Step::Fight | Step::Rout),
            BattleAction::Reinforce(_) => step == Step::Reinforcement,
            BattleAction::Done => matches!(
                step,
                Step::Fight | Step::Reinforcement | Step::SkirmishReveal
            ),
            _ => false,
        };
        if !fits {
            return BattleIllegal::WrongStep(step);
        }
        match action {
            BattleAction::Move { block, .. } => {
                if self
                    .fighter(*block)
                    .is_some_and(|i| self.moves_left(i) == 0 && step == Step::Fight)
                {
                    BattleIllegal::AlreadyActed
                } else {
                    BattleIllegal::CannotGoThere
                }
            }
            BattleAction::Deploy { .. } | BattleAction::PlaceTerrain(_) => {
                BattleIllegal::CannotGoThere
            }
            BattleAction::Fire { block, .. } => {
                if self.fighter(*block).is_some_and(|i| self.fighters[i].fired) {
                    BattleIllegal::AlreadyActed
                } else {
                    BattleIllegal::CannotFire
                }
            }
            BattleAction::Retreat { .. } => BattleIllegal::CannotRetreatThere,
            BattleAction::TakeHit(_) => BattleIllegal::NotStrongest,
            BattleAction::Done => BattleIllegal::NotFinished,
            _ => BattleIllegal::NotAllowed,
        }
    }

    // ---------------------------------------------------------------- legal lists

    fn army_actions(&self, army: Army) -> Vec<BattleAction> {
        let mut out = Vec::new();
        if let Some(v) = &self.volley {
            if v.hits.is_some() {
                if let Some((_, strongest)) = self.pick_for_hit() {
                    out.extend(
                        strongest
                            .into_iter()
                            .map(|i| BattleAction::TakeHit(self.fighters[i].block)),
                    );
                }
            }
            return out;
        }
        match &self.phase {
            Phase::Terrain { side, .. } => {
                for wing in Wing::ALL {
                    if self.ground[Zone::new(*side, wing).index()].is_none() {
                        out.push(BattleAction::PlaceTerrain(wing));
                    }
                }
            }
            Phase::Deploy { side } => {
                for i in 0..self.fighters.len() {
                    let f = &self.fighters[i];
                    if f.army != army || f.side != *side || f.at != Loc::Undeployed {
                        continue;
                    }
                    let mut places = vec![Place::Reserve];
                    places.extend(Wing::ALL.map(|w| Place::Zone(Zone::new(*side, w))));
                    for to in places {
                        if self.can_deploy(i, to) {
                            out.push(BattleAction::Deploy { block: f.block, to });
                        }
                    }
                }
            }
            Phase::SkirmishReveal { side, .. } => {
                // 6.6: each player shows 1 to 4 blocks. One player commanding both Allied
                // armies (the two-player game) shows them from either army, 1 to 4 in all: an
                // army may show none while an army after it on the side can still show one.
                let together = self.one_allied_player && allied(army);
                let shown = if together {
                    self.armies(*side)
                        .into_iter()
                        .map(|a| self.picked(*side, a))
                        .sum()
                } else {
                    self.picked(*side, army)
                };
                for (i, f) in self.fighters.iter().enumerate() {
                    if f.army == army
                        && f.side == *side
                        && self.is_on_field(i)
                        && !f.busy
                        && shown < SKIRMISH_SHOW
                    {
                        out.push(BattleAction::Reveal(f.block));
                    }
                }
                let later = together
                    && self
                        .first_army_after(*side, Some(army), |b, i| b.is_on_field(i))
                        .is_some();
                if shown > 0 || later {
                    out.push(BattleAction::Done);
                }
            }
            Phase::Morale {
                falling_back: Some(b),
                ..
            } => {
                if let Some(i) = self.fighter(*b) {
                    for to in self.fall_back_places(i) {
                        out.push(BattleAction::Move { block: *b, to });
                    }
                }
            }
            Phase::Fight { side, .. } => {
                for i in 0..self.fighters.len() {
                    let f = &self.fighters[i];
                    if f.army != army || f.side != *side || !self.is_on_field(i) {
                        continue;
                    }
                    for to in self.move_targets(i) {
                        out.push(BattleAction::Move { block: f.block, to });
                    }
                    for (at, target) in self.fire_targets(i) {
                        out.push(BattleAction::Fire {
                            block: f.block,
                            at,
                            target,
                        });
                    }
                    if self.can_form_square(i) {
                        out.push(BattleAction::FormSquare(f.block));
                    }
                    for s in self.shelters(i) {
                        out.push(BattleAction::Shelter {
                            block: f.block,
                            square: self.fighters[s].block,
                        });
                    }
                    if self.can_occupy(i) {
                        out.push(BattleAction::Occupy(f.block));
                    }
                    if self.may_retreat(i) {
                        for r in self.retreat_roads(*side, true) {
                            out.push(BattleAction::Retreat {
                                block: f.block,
                                to: self.roads[r].town,
                            });
                        }
                    }
                }
                out.push(BattleAction::Done);
            }
            Phase::Reinforce { side, .. } => {
                for f in &self.fighters {
                    if let Loc::Waiting(r) = f.at {
                        if f.army == army
                            && f.side == *side
                            && self.roads[r].reinforced[side.index()] < self.roads[r].limit
                        {
                            out.push(BattleAction::Reinforce(f.block));
                        }
                    }
                }
                out.push(BattleAction::Done);
            }
            Phase::Rout { side } => {
                let limited = self.withdraw_limited();
                for (i, f) in self.fighters.iter().enumerate() {
                    if f.army == army && f.side == *side && self.is_on_field(i) {
                        for r in self.retreat_roads(*side, limited) {
                            out.push(BattleAction::Retreat {
                                block: f.block,
                                to: self.roads[r].town,
                            });
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// Whether fighter `i` may be set up at `to` (6.2.2, 6.2.3, 6.2.1).
    fn can_deploy(&self, i: usize, to: Place) -> bool {
        let f = &self.fighters[i];
        let side = f.side;
        if let Place::Zone(z) = to {
            if z.half != side || (f.kind.is_artillery() && self.woods(z)) || !self.corps_fit(z, i) {
                return false;
            }
        }
        // The blocks left must still be able to fill every empty zone, one each, artillery
        // never in woods (6.2.2 asks at least one block per zone); when they cannot fill them
        // all, as many as they can (ruling R23).
        let filled = |to: Option<Place>| {
            Wing::ALL
                .iter()
                .filter(|&&w| {
                    let z = Zone::new(side, w);
                    to == Some(Place::Zone(z)) || self.any_in_zone(z, side)
                })
                .count()
        };
        let before = filled(None) + self.fillable(side, None, None);
        let after = filled(Some(to)) + self.fillable(side, Some(i), Some(to));
        after == before
    }

    /// How many of `side`'s empty zones (`to` counted as taken) its undeployed blocks but
    /// `placed` can still fill, one block each, artillery never in woods (6.2.2, 6.2.1).
    fn fillable(&self, side: Side, placed: Option<usize>, to: Option<Place>) -> usize {
        let (mut artillery, mut others) = (0, 0);
        for (j, g) in self.fighters.iter().enumerate() {
            if Some(j) != placed && g.side == side && g.at == Loc::Undeployed {
                if g.kind.is_artillery() {
                    artillery += 1;
                } else {
                    others += 1;
                }
            }
        }
        let (mut woods, mut open) = (0, 0);
        for w in Wing::ALL {
            let z = Zone::new(side, w);
            if to == Some(Place::Zone(z)) || self.any_in_zone(z, side) {
                continue;
            }
            if self.woods(z) {
                woods += 1;
            } else {
                open += 1;
            }
        }
        // Woods take only non-artillery; the open zones take whatever is left.
        let in_woods = usize::min(others, woods);
        in_woods + usize::min(artillery + others - in_woods, open)
    }

    /// Whether zone `z` keeps corps integrity with fighter `i` added (6.2.3): one corps, or
    /// two with a leader of their army there (ruling R4).
    fn corps_fit(&self, z: Zone, i: usize) -> bool {
        let side = self.fighters[i].side;
        let members: Vec<usize> = self.in_zone(z, side).chain([i]).collect();
        let mut corps = Vec::new();
        for &m in &members {
            if let Some(c) = self.fighters[m].corps {
                if !corps.contains(&c) {
                    corps.push(c);
                }
            }
        }
        if corps.len() <= 1 {
            return true;
        }
        corps.len() == 2
            && members.iter().any(|&m| {
                let l = &self.fighters[m];
                l.kind == UnitType::Leader
                    && members.iter().all(|&o| {
                        self.fighters[o].corps.is_none() || self.fighters[o].army == l.army
                    })
            })
    }

    /// Moves left to fighter `i` this battle turn, as the fight step counts them.
    fn moves_left(&self, i: usize) -> u8 {
        let f = &self.fighters[i];
        if f.busy || f.square || f.sheltered_in.is_some() {
            return 0;
        }
        let used = f.moves + u8::from(f.fired);
        if f.fired && f.kind != UnitType::HorseArtillery {
            return 0;
        }
        self.max_moves(i).saturating_sub(used)
    }

    /// The places one step from `from` for a fighter of `side`: reserve to any own zone, an own
    /// zone back to the reserve or forward to the facing zone, an enemy zone back to the facing
    /// own zone (6.3.2: no sideways or diagonal step).
    fn steps(side: Side, from: Place) -> Vec<Place> {
        match from {
            Place::Reserve => Wing::ALL
                .into_iter()
                .map(|w| Place::Zone(Zone::new(side, w)))
                .collect(),
            Place::Zone(z) if z.half == side => {
                vec![Place::Reserve, Place::Zone(z.facing())]
            }
            Place::Zone(z) => vec![Place::Zone(z.facing())],
        }
    }

    /// Where fighter `i` may move now in the fight (6.3.2, 6.2.1).
    fn move_targets(&self, i: usize) -> Vec<Place> {
        let mut out = Vec::new();
        if self.moves_left(i) == 0 {
            return out;
        }
        let Some(from) = self.place(i) else {
            return out;
        };
        let f = &self.fighters[i];
        let combat = self.in_combat(i);
        for to in Battle::steps(f.side, from) {
            let enemies = match to {
                Place::Reserve => false,
                Place::Zone(z) => self.any_in_zone(z, f.side.other()),
            };
            let ok = if combat {
                // Disengage: to a place without enemies on the own half or the reserve (ruling
                // R6), not after engaging this turn.
                !enemies && !f.engaged && own_half(to, f.side)
            } else if enemies {
                // Engage: not foot artillery, not after disengaging this turn.
                f.kind != UnitType::FootArtillery && !f.disengaged
            } else {
                // Regroup: only within the own half and the reserve (ruling R6).
                own_half(to, f.side)
            };
            if ok && self.step_allowed(i, from, to) {
                out.push(to);
            }
        }
        out
    }

    /// The terrain limits of one step: artillery never into woods, horse artillery never
    /// across a stream, at most two units across a stream per battle turn (6.2.1).
    fn step_allowed(&self, i: usize, from: Place, to: Place) -> bool {
        let f = &self.fighters[i];
        if let Place::Zone(z) = to {
            if f.kind.is_artillery() && self.woods(z) {
                return false;
            }
        }
        if let (Place::Zone(a), Place::Zone(b)) = (from, to) {
            if let Some(w) = self.stream_between(a, b) {
                if f.kind == UnitType::HorseArtillery || self.stream_crossings[w] >= STREAM_LIMIT {
                    return false;
                }
            }
        }
        true
    }

    /// Where a fighter that lost its morale may fall back: a place next to it without enemies
    /// (6.3.1). A stream that is full does not stop it; crossing it then removes the unit
    /// (6.2.1), which [`Battle::fall_back`] applies.
    fn fall_back_places(&self, i: usize) -> Vec<Place> {
        let Some(from) = self.place(i) else {
            return Vec::new();
        };
        let f = &self.fighters[i];
        Battle::steps(f.side, from)
            .into_iter()
            .filter(|&to| match to {
                Place::Reserve => true,
                Place::Zone(z) => {
                    let blocked = self.any_in_zone(z, f.side.other())
                        || (f.kind.is_artillery() && self.woods(z));
                    !blocked && z.half == f.side
                }
            })
            .collect()
    }

    /// The groups fighter `i` may fire at now (6.3.3, 6.5.1).
    fn fire_targets(&self, i: usize) -> Vec<(Zone, Target)> {
        let mut out = Vec::new();
        let f = &self.fighters[i];
        if f.fired || f.busy || f.sheltered_in.is_some() {
            return out;
        }
        let moved_ok = f.moves == 0 || (f.kind == UnitType::HorseArtillery && f.moves == 1);
        if !moved_ok {
            return out;
        }
        let Some(z) = self.zone(i) else {
            return out;
        };
        if self.in_combat(i) {
            for target in self.groups(z, f.side.other()) {
                if self.fire_value(i, z, target).is_some_and(|v| v > 0)
                    && self.group_can_lose(i, z, target, false)
                {
                    out.push((z, target));
                }
            }
        } else if f.kind.is_artillery() {
            let far = z.facing();
            if !self.woods(far) && !self.any_in_zone(far, f.side) {
                for target in self.groups(far, f.side.other()) {
                    if self.fire_value(i, far, target).is_some_and(|v| v > 0)
                        && self.group_can_lose(i, far, target, true)
                    {
                        out.push((far, target));
                    }
                }
            }
        }
        out
    }

    /// The groups of `side` in `zone`: its line (if any block is outside squares) and each
    /// square.
    fn groups(&self, zone: Zone, side: Side) -> Vec<Target> {
        let mut out = Vec::new();
        let members: Vec<usize> = self.in_zone(zone, side).collect();
        if members
            .iter()
            .any(|&m| !self.fighters[m].square && self.fighters[m].sheltered_in.is_none())
        {
            out.push(Target::Line);
        }
        for &m in &members {
            if self.fighters[m].square {
                out.push(Target::Square(self.fighters[m].block));
            }
        }
        out
    }

    /// The fighters of `side` in the group `target` of `zone`.
    fn group_members(&self, zone: Zone, side: Side, target: Target) -> Vec<usize> {
        self.in_zone(zone, side)
            .filter(|&m| {
                let g = &self.fighters[m];
                match target {
                    Target::Line => !g.square && g.sheltered_in.is_none(),
                    Target::Square(b) => g.block == b || g.sheltered_in == Some(b),
                }
            })
            .collect()
    }

    /// Whether a hit from fighter `i` on `target` could take effect, as the firer can tell:
    /// cavalry cannot hit a farm's holder (6.2.1), long-range artillery cannot eliminate
    /// (6.4). Fire that cannot is not offered (ruling R7). A block the firer cannot see (6.2.4's
    /// option) counts as able to lose, for its strength is its owner's secret (3.2): a hit
    /// that cannot land on it is lost after the roll.
    fn group_can_lose(&self, i: usize, zone: Zone, target: Target, long: bool) -> bool {
        let f = &self.fighters[i];
        let members = self.hittable(zone, f.side.other(), target, f.kind.is_cavalry());
        members
            .iter()
            .any(|&m| !long || self.fighters[m].strength > 1 || !self.revealed(m))
    }

    /// The members of a group that can take hits from a volley.
    fn hittable(&self, zone: Zone, side: Side, target: Target, cavalry: bool) -> Vec<usize> {
        let holder = self.ground[zone.index()]
            .filter(|g| g.kind == TerrainKind::Farm)
            .and_then(|g| g.holder);
        self.group_members(zone, side, target)
            .into_iter()
            .filter(|&m| !(cavalry && Some(self.fighters[m].block) == holder))
            .collect()
    }

    /// Fighter `i`'s firepower against `target` in `at` (6.3.3, 6.2.1, 6.5.1); `None` if it
    /// cannot fire there.
    fn fire_value(&self, i: usize, at: Zone, target: Target) -> Option<u8> {
        let f = &self.fighters[i];
        let own = self.zone(i)?;
        let square = matches!(target, Target::Square(_));
        let holds = |kind: TerrainKind| {
            self.ground[own.index()].is_some_and(|g| g.kind == kind && g.holder == Some(f.block))
        };
        let value = match f.kind {
            UnitType::Infantry => {
                if at != own {
                    return None;
                }
                f.fire + u8::from(holds(TerrainKind::Farm)) + u8::from(square)
            }
            UnitType::HeavyCavalry | UnitType::LightCavalry => {
                if at != own {
                    return None;
                }
                if self.woods(own) {
                    1
                } else if square {
                    f.fire.saturating_sub(1)
                } else {
                    f.fire + u8::from(f.shock)
                }
            }
            UnitType::FootArtillery | UnitType::HorseArtillery => {
                if self.woods(at) {
                    return None;
                }
                if at == own {
                    f.fire + u8::from(f.canister) + u8::from(square)
                } else {
                    let hill = holds(TerrainKind::Hill)
                        && (!self.options.hill_for_defenders_only || f.side == Side::Defender);
                    f.fire + u8::from(hill) + u8::from(square)
                }
            }
            UnitType::Leader => {
                if at != own {
                    return None;
                }
                f.fire
            }
        };
        Some(value.min(MAX_HITS_ON))
    }

    /// Whether fighter `i` may form a square now (6.5).
    fn can_form_square(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        let Some(z) = self.zone(i) else {
            return false;
        };
        let holds_farm = self.ground[z.index()]
            .is_some_and(|g| g.kind == TerrainKind::Farm && g.holder == Some(f.block));
        f.kind == UnitType::Infantry
            && !f.square
            && !f.busy
            && !f.fired
            && f.moves == 0
            && z.half == f.side
            && !self.woods(z)
            && !holds_farm
    }

    /// The squares fighter `i` may shelter in (6.5.2).
    fn shelters(&self, i: usize) -> Vec<usize> {
        let f = &self.fighters[i];
        let mut out = Vec::new();
        let Some(z) = self.zone(i) else {
            return out;
        };
        if !(f.kind == UnitType::Leader || f.kind.is_artillery())
            || f.busy
            || f.fired
            || f.moves > 0
            || f.sheltered_in.is_some()
        {
            return out;
        }
        for s in self.in_zone(z, f.side) {
            let sq = &self.fighters[s];
            if sq.square
                && !self
                    .fighters
                    .iter()
                    .any(|g| g.sheltered_in == Some(sq.block) && g.at != Loc::Eliminated)
            {
                out.push(s);
            }
        }
        out
    }

    /// Whether fighter `i` may take its zone's farm or hill now (6.2.1).
    fn can_occupy(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        let Some(z) = self.zone(i) else {
            return false;
        };
        let Some(g) = self.ground[z.index()] else {
            return false;
        };
        let fits = match g.kind {
            TerrainKind::Farm => f.kind == UnitType::Infantry,
            TerrainKind::Hill => f.kind.is_artillery(),
            _ => false,
        };
        if !fits || f.busy || f.fired || f.moves > 0 || f.square || f.sheltered_in.is_some() {
            return false;
        }
        match g.holder.and_then(|h| self.fighter(h)) {
            None => true,
            Some(h) => {
                let holder = &self.fighters[h];
                h != i
                    && holder.side == f.side
                    && !holder.busy
                    && !holder.fired
                    && holder.moves == 0
            }
        }
    }

    /// Whether fighter `i` may retreat now: it has neither moved nor fired (7).
    fn may_retreat(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        self.is_on_field(i)
            && f.moves == 0
            && !f.fired
            && !f.busy
            && !f.square
            && f.sheltered_in.is_none()
    }

    /// The approaches `side` may retreat along now (7.1), with room this battle turn when
    /// `limited` (7.2).
    fn retreat_roads(&self, side: Side, limited: bool) -> Vec<usize> {
        (0..self.roads.len())
            .filter(|&r| {
                let road = &self.roads[r];
                let allowed = !road.battle
                    && road.held_by != Some(side.other())
                    && (side == Side::Defender || road.attacked_from || road.reinforced_attacker);
                allowed && (!limited || road.retreated[side.index()] < road.limit)
            })
            .collect()
    }

    /// Whether the current withdrawal counts road limits: a rout does (7.4), a skirmish's or a
    /// stalemate's retreat does not (rulings R9, R10).
    fn withdraw_limited(&self) -> bool {
        self.ending.is_none() && !self.skirmish && !self.stalemated()
    }

    fn stalemated(&self) -> bool {
        self.idle >= 2 || self.turn_limit_reached()
    }

    fn turn_limit_reached(&self) -> bool {
        self.options.turn_limit > 0 && self.turn > self.options.turn_limit
    }

    /// The army of `side` that still has a block to get away, in order.
    fn withdraw_army(&self, side: Side) -> Option<Army> {
        let limited = self.withdraw_limited();
        if self.retreat_roads(side, limited).is_empty() {
            return None;
        }
        self.first_army(side, |b, i| b.is_on_field(i))
    }

    /// How many blocks `army` of `side` has picked to show in a skirmish.
    fn picked(&self, side: Side, army: Army) -> usize {
        self.fighters
            .iter()
            .filter(|f| f.side == side && f.army == army && f.busy)
            .count()
    }

    /// The army whose player places the volley's next hit, and the blocks he may place it on
    /// (the strongest, 6.4); `None` when the hit is placed at once (one block is strongest and
    /// every block it may fall on is seen, or none can take it).
    ///
    /// Among equals the owner picks (6.4), the Anglo-Dutch player when both Allied armies'
    /// blocks are equal (ruling R5). When the hit may fall on two or more blocks and one of them
    /// is hidden from the firing side (3.2, 6.2.4), the owner places it even when one block is
    /// strongest (ruling R25): at the table he turns his own hidden block down, whether or not
    /// he had a choice, so nobody learns whether hidden blocks tie.
    fn pick_for_hit(&self) -> Option<(Army, Vec<usize>)> {
        let v = self.volley.as_ref()?;
        v.hits.filter(|&h| h > 0)?;
        let strongest = self.strongest(v)?;
        if strongest.len() < 2 && !self.hit_unseen(v) {
            return None;
        }
        let army = strongest.iter().map(|&i| self.fighters[i].army).min()?;
        Some((army, strongest))
    }

    /// The blocks the hit a player is asked to place now may fall on (6.4): the group fired at
    /// (in a skirmish, the shown blocks), the strongest of which must take it; empty unless a
    /// player places a hit ([`Step::Losses`]). Which blocks these are is public (where each
    /// stands), whatever their strengths.
    pub fn hit_group(&self) -> Vec<BlockId> {
        match (&self.volley, self.pick_for_hit()) {
            (Some(v), Some(_)) => self
                .hit_candidates(v)
                .into_iter()
                .map(|i| self.fighters[i].block)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the hit a player is asked to place now may fall on a block hidden from the firing
    /// side (3.2, 6.2.4): its owner is then asked whether one block is strongest or several tie
    /// (ruling R25), so that the wait tells nobody which. Public, as [`Battle::hit_group`] is:
    /// the blocks it may fall on, and which of them the firing side sees.
    pub fn hit_among_hidden(&self) -> bool {
        self.volley
            .as_ref()
            .is_some_and(|v| self.pick_for_hit().is_some() && self.hit_unseen(v))
    }

    /// Whether the volley's next hit may fall on two or more blocks, one of them hidden from
    /// the firing side (ruling R25).
    fn hit_unseen(&self, v: &Volley) -> bool {
        let candidates = self.hit_candidates(v);
        candidates.len() > 1 && candidates.iter().any(|&i| !self.revealed(i))
    }

    /// The blocks the volley's next hit may fall on: the group fired at, less the blocks it
    /// cannot reach (a farm's holder against cavalry, 6.2.1); in a skirmish, the enemy's shown
    /// blocks (6.6). The strongest of them takes it (6.4).
    fn hit_candidates(&self, v: &Volley) -> Vec<usize> {
        let Some(shooter) = self.fighter(v.shooter) else {
            return Vec::new();
        };
        let enemy = self.fighters[shooter].side.other();
        if self.skirmish {
            (0..self.fighters.len())
                .filter(|&m| {
                    let g = &self.fighters[m];
                    g.side == enemy && g.shown && self.is_on_field(m)
                })
                .collect()
        } else {
            self.hittable(v.at, enemy, v.target, v.cavalry)
        }
    }

    /// The strongest blocks that can take the volley's next hit; `None` when none can (the
    /// hit is lost).
    fn strongest(&self, v: &Volley) -> Option<Vec<usize>> {
        let members = self.hit_candidates(v);
        let top = members.iter().map(|&m| self.fighters[m].strength).max()?;
        if v.long_range && top <= 1 {
            return None;
        }
        Some(
            members
                .into_iter()
                .filter(|&m| self.fighters[m].strength == top)
                .collect(),
        )
    }

    // ---------------------------------------------------------------- playing

    /// Plays an action known to be legal (from [`Battle::legal_actions`] or a checked
    /// journal) and returns what happened. An illegal action has an unspecified effect, never
    /// a panic.
    pub fn play_unchecked(&mut self, action: &BattleAction) -> Vec<BattleEvent> {
        let mut ev = Vec::new();
        if self.ending.is_some() {
            return ev;
        }
        match *action {
            BattleAction::DrawTerrain(kind) => {
                if let Phase::Terrain { side, drawn, .. } = &mut self.phase {
                    *drawn = Some(kind);
                    let slot = &mut self.pool[kind as usize];
                    *slot = slot.saturating_sub(1);
                    ev.push(BattleEvent::TerrainDrawn { side: *side, kind });
                }
            }
            BattleAction::PlaceTerrain(wing) => self.place_terrain(wing, &mut ev),
            BattleAction::Die(face) => self.morale_die(face, &mut ev),
            BattleAction::Hits(k) => {
                if let Some(v) = &mut self.volley {
                    v.hits = Some(k);
                    ev.push(BattleEvent::Hits { hits: k });
                }
            }
            BattleAction::TakeHit(block) => {
                if let Some(i) = self.fighter(block) {
                    self.hit(i, &mut ev);
                    if let Some(v) = &mut self.volley {
                        v.hits = v.hits.map(|h| h.saturating_sub(1));
                    }
                }
            }
            BattleAction::Deploy { block, to } => self.deploy(block, to, &mut ev),
            BattleAction::Reveal(block) => {
                if let Some(i) = self.fighter(block) {
                    self.fighters[i].busy = true;
                }
            }
            BattleAction::Move { block, to } => {
                if let Some(i) = self.fighter(block) {
                    if matches!(self.phase, Phase::Morale { .. }) {
                        self.fall_back(i, to, &mut ev);
                    } else {
                        self.step_to(i, to, &mut ev);
                    }
                }
            }
            BattleAction::Fire { block, at, target } => self.fire(block, at, target, &mut ev),
            BattleAction::FormSquare(block) => {
                if let Some(i) = self.fighter(block) {
                    let f = &mut self.fighters[i];
                    f.square = true;
                    f.busy = true;
                    ev.push(BattleEvent::SquareFormed(block));
                }
            }
            BattleAction::Shelter { block, square } => {
                if let Some(i) = self.fighter(block) {
                    self.leave_ground(i);
                    let f = &mut self.fighters[i];
                    f.sheltered_in = Some(square);
                    f.busy = true;
                    ev.push(BattleEvent::Sheltered { block, square });
                }
            }
            BattleAction::Occupy(block) => self.occupy(block, &mut ev),
            BattleAction::Retreat { block, to } => self.retreat(block, to, &mut ev),
            BattleAction::Reinforce(block) => self.reinforce(block, &mut ev),
            BattleAction::Done => self.done(&mut ev),
        }
        self.advance(&mut ev);
        ev
    }

    fn place_terrain(&mut self, wing: Wing, ev: &mut Vec<BattleEvent>) {
        let Phase::Terrain {
            side,
            left,
            drawn: Some(kind),
        } = self.phase
        else {
            return;
        };
        let zone = Zone::new(side, wing);
        self.ground[zone.index()] = Some(Ground { kind, holder: None });
        ev.push(BattleEvent::TerrainPlaced { zone, kind });
        self.phase = if left > 1 {
            Phase::Terrain {
                side,
                left: left - 1,
                drawn: None,
            }
        } else if side == Side::Attacker {
            self.terrain_draw(Side::Defender)
        } else {
            Phase::Deploy {
                side: Side::Defender,
            }
        };
    }

    /// `side`'s terrain draw (6.2.1: the attacker draws one block, the defender two), or the
    /// next step when the pool has none left for it (ruling R24: the others lie on other
    /// battlefields).
    fn terrain_draw(&self, side: Side) -> Phase {
        let left: u16 = self.pool.iter().map(|&n| u16::from(n)).sum();
        let draws = match side {
            Side::Attacker => 1,
            Side::Defender => 2,
        };
        match (left.min(draws), side) {
            (0, Side::Attacker) => self.terrain_draw(Side::Defender),
            (0, Side::Defender) => Phase::Deploy {
                side: Side::Defender,
            },
            (n, _) => Phase::Terrain {
                side,
                left: n as u8,
                drawn: None,
            },
        }
    }

    /// The terrain blocks this battle holds: drawn, and placed or about to be. They return to
    /// the pool when the battle ends (6.1: another battle under way draws without them).
    pub fn terrain_held(&self) -> Vec<TerrainKind> {
        let mut held: Vec<TerrainKind> = self.ground.iter().flatten().map(|g| g.kind).collect();
        if let Phase::Terrain {
            drawn: Some(kind), ..
        } = self.phase
        {
            held.push(kind);
        }
        held
    }

    fn deploy(&mut self, block: BlockId, to: Place, ev: &mut Vec<BattleEvent>) {
        let Some(i) = self.fighter(block) else {
            return;
        };
        self.fighters[i].at = Loc::Field(to);
        let side = self.fighters[i].side;
        ev.push(BattleEvent::Deployed { block, side, to });
        if let Place::Zone(z) = to {
            // The first fitting unit set up on a farm or hill holds it (ruling R8).
            let kind = self.fighters[i].kind;
            if let Some(g) = &mut self.ground[z.index()] {
                let fits = match g.kind {
                    TerrainKind::Farm => kind == UnitType::Infantry,
                    TerrainKind::Hill => kind.is_artillery(),
                    _ => false,
                };
                if fits && g.holder.is_none() {
                    g.holder = Some(block);
                }
            }
        }
        let done = !self
            .fighters
            .iter()
            .any(|f| f.side == side && f.at == Loc::Undeployed);
        if done {
            if side == Side::Defender {
                self.phase = Phase::Deploy {
                    side: Side::Attacker,
                };
            } else {
                // Both sides lay their blocks flat, but those in woods or the reserve (6.2.4).
                for i in 0..self.fighters.len() {
                    if self.face_up(i) {
                        let f = &self.fighters[i];
                        ev.push(BattleEvent::Revealed {
                            block: f.block,
                            strength: f.strength,
                        });
                    }
                }
                self.begin_turn(Side::Attacker, ev);
            }
        }
    }

    /// Starts `side`'s battle turn (6.3): resets the turn's counts and queues the morale
    /// checks.
    fn begin_turn(&mut self, side: Side, ev: &mut Vec<BattleEvent>) {
        if side == Side::Attacker {
            self.turn += 1;
            if self.turn_limit_reached() {
                self.stalemate(ev);
                return;
            }
        }
        for f in &mut self.fighters {
            if f.side == side {
                f.moves = 0;
                f.fired = false;
                f.engaged = false;
                f.disengaged = false;
                f.busy = false;
            }
        }
        for r in &mut self.roads {
            r.reinforced = [0; 2];
            r.retreated = [0; 2];
        }
        self.stream_crossings = [0; 3];
        self.active_this_turn = false;
        if side == Side::Attacker {
            self.reinforcements_due = self
                .fighters
                .iter()
                .any(|f| f.side == Side::Attacker && matches!(f.at, Loc::Waiting(_)));
        }
        ev.push(BattleEvent::TurnBegan {
            side,
            turn: self.turn,
        });
        let queue = (0..self.fighters.len())
            .filter(|&i| self.must_check_morale(i, side))
            .map(|i| self.fighters[i].block)
            .collect();
        self.phase = Phase::Morale {
            side,
            queue,
            falling_back: None,
        };
    }

    /// Whether fighter `i` checks its morale at the start of `side`'s turn (6.3.1, 8.2,
    /// 6.5.2): in combat, strength 1, not sheltered; a leader only when alone in its zone.
    fn must_check_morale(&self, i: usize, side: Side) -> bool {
        let f = &self.fighters[i];
        if f.side != side || f.strength != 1 || f.sheltered_in.is_some() || !self.in_combat(i) {
            return false;
        }
        if f.kind == UnitType::Leader {
            let Some(z) = self.zone(i) else {
                return false;
            };
            return self.in_zone(z, side).count() == 1;
        }
        true
    }

    /// The morale bonus of fighter `i`: +1 with a leader of its army in its zone (8.2; a
    /// leader alone gives it to himself), +1 in a square (6.5).
    fn morale_bonus(&self, i: usize) -> u8 {
        let f = &self.fighters[i];
        let leader = self.zone(i).is_some_and(|z| {
            self.in_zone(z, f.side).any(|l| {
                self.fighters[l].kind == UnitType::Leader && self.fighters[l].army == f.army
            })
        });
        u8::from(leader) + u8::from(f.square)
    }

    fn morale_die(&mut self, face: u8, ev: &mut Vec<BattleEvent>) {
        let Phase::Morale { queue, .. } = &mut self.phase else {
            return;
        };
        if queue.is_empty() {
            return;
        }
        let block = queue.remove(0);
        let Some(i) = self.fighter(block) else {
            return;
        };
        let total = face + self.morale_bonus(i);
        let held = total >= MORALE_HOLDS;
        ev.push(BattleEvent::Morale { block, total, held });
        if held {
            return;
        }
        let f = &self.fighters[i];
        if f.square || f.kind == UnitType::FootArtillery {
            self.eliminate(i, ev);
            self.settle(ev);
            return;
        }
        // It must disengage and does nothing else this turn.
        self.fighters[i].busy = true;
        if let Phase::Morale { falling_back, .. } = &mut self.phase {
            *falling_back = Some(block);
        }
    }

    /// The forced step back of a block that lost its morale (6.3.1); across a full stream it
    /// is removed from the field (6.2.1, ruling R11: eliminated).
    fn fall_back(&mut self, i: usize, to: Place, ev: &mut Vec<BattleEvent>) {
        if let Phase::Morale { falling_back, .. } = &mut self.phase {
            *falling_back = None;
        }
        let from = self.place(i);
        if let (Some(Place::Zone(a)), Place::Zone(b)) = (from, to) {
            if let Some(w) = self.stream_between(a, b) {
                if self.stream_crossings[w] >= STREAM_LIMIT
                    || self.fighters[i].kind == UnitType::HorseArtillery
                {
                    self.eliminate(i, ev);
                    self.settle(ev);
                    return;
                }
                self.stream_crossings[w] += 1;
            }
        }
        self.relocate(i, to, ev);
        self.fighters[i].disengaged = true;
        self.settle(ev);
    }

    /// Moves fighter `i` to `to`, leaving its farm or hill and its shelter behind.
    fn relocate(&mut self, i: usize, to: Place, ev: &mut Vec<BattleEvent>) {
        self.leave_ground(i);
        // A block seen may stand up again only once placed in the reserve or woods (6.2.4);
        // moved onto an open wing it stays seen, even one seen only while in combat in woods.
        let hides = match to {
            Place::Reserve => true,
            Place::Zone(z) => self.woods(z),
        };
        let seen = !self.skirmish && self.face_up(i);
        let f = &mut self.fighters[i];
        f.at = Loc::Field(to);
        if hides {
            f.shown = false;
        } else if seen {
            f.shown = true;
        }
        let (block, side) = (f.block, f.side);
        ev.push(BattleEvent::Moved { block, side, to });
    }

    /// Fighter `i` gives up the farm or hill it holds.
    fn leave_ground(&mut self, i: usize) {
        let block = self.fighters[i].block;
        for g in self.ground.iter_mut().flatten() {
            if g.holder == Some(block) {
                g.holder = None;
            }
        }
    }

    fn step_to(&mut self, i: usize, to: Place, ev: &mut Vec<BattleEvent>) {
        let Some(from) = self.place(i) else {
            return;
        };
        let combat = self.in_combat(i);
        let engaging = match to {
            Place::Zone(z) => self.any_in_zone(z, self.fighters[i].side.other()),
            Place::Reserve => false,
        };
        if let (Place::Zone(a), Place::Zone(b)) = (from, to) {
            if let Some(w) = self.stream_between(a, b) {
                self.stream_crossings[w] += 1;
            }
        }
        self.relocate(i, to, ev);
        let woods = matches!(to, Place::Zone(z) if self.woods(z));
        let max = self.max_moves(i);
        let side = self.fighters[i].side;
        let f = &mut self.fighters[i];
        f.moves += 1;
        if combat {
            f.disengaged = true;
            f.shock = false;
            f.canister = true;
        }
        if engaging {
            f.engaged = true;
            f.shock = f.kind.is_cavalry();
            if side == Side::Attacker {
                self.active_this_turn = true;
            }
        }
        // Cavalry must stop on entering woods (6.2.1).
        if woods && f.kind.is_cavalry() {
            f.moves = max;
        }
        self.settle(ev);
    }

    fn fire(&mut self, block: BlockId, at: Zone, target: Target, ev: &mut Vec<BattleEvent>) {
        let Some(i) = self.fighter(block) else {
            return;
        };
        let Some(hits_on) = self.fire_value(i, at, target) else {
            return;
        };
        let own = self.zone(i);
        let long_range = own != Some(at);
        let f = &mut self.fighters[i];
        let dice = f.strength;
        f.fired = true;
        f.shown = true;
        f.shock = false;
        if !long_range && f.kind.is_artillery() {
            f.canister = false;
        }
        let cavalry = f.kind.is_cavalry();
        if f.side == Side::Attacker {
            self.active_this_turn = true;
        }
        ev.push(BattleEvent::Fired {
            block,
            at,
            dice,
            hits_on,
        });
        self.volley = Some(Volley {
            shooter: block,
            at,
            target,
            dice,
            hits_on,
            long_range,
            cavalry,
            hits: None,
        });
    }

    /// One hit on fighter `i` (6.4).
    fn hit(&mut self, i: usize, ev: &mut Vec<BattleEvent>) {
        let f = &mut self.fighters[i];
        f.strength = f.strength.saturating_sub(1);
        ev.push(BattleEvent::Hit {
            block: f.block,
            strength: f.strength,
        });
        if f.strength == 0 {
            self.eliminate(i, ev);
        }
    }

    /// Removes fighter `i`; a sheltered unit's loss takes its square with it (6.5.2).
    fn eliminate(&mut self, i: usize, ev: &mut Vec<BattleEvent>) {
        self.leave_ground(i);
        let f = &mut self.fighters[i];
        f.at = Loc::Eliminated;
        f.strength = 0;
        let (block, side, shelter) = (f.block, f.side, f.sheltered_in);
        f.sheltered_in = None;
        ev.push(BattleEvent::Eliminated { block, side });
        if let Some(sq) = shelter.and_then(|s| self.fighter(s)) {
            if self.is_on_field(sq) {
                self.eliminate(sq, ev);
            }
        }
        // A square's fall frees the unit it sheltered (ruling R12).
        for g in &mut self.fighters {
            if g.sheltered_in == Some(block) {
                g.sheltered_in = None;
            }
        }
    }

    fn occupy(&mut self, block: BlockId, ev: &mut Vec<BattleEvent>) {
        let Some(i) = self.fighter(block) else {
            return;
        };
        let Some(z) = self.zone(i) else {
            return;
        };
        let Some(g) = &mut self.ground[z.index()] else {
            return;
        };
        g.holder = Some(block);
        // Taking a farm or hill, or the holder's place, is the block's action for the turn
        // (6.2.1; ruling R8 for the swap).
        self.fighters[i].busy = true;
        ev.push(BattleEvent::Occupied(block));
    }

    fn retreat(&mut self, block: BlockId, to: TownId, ev: &mut Vec<BattleEvent>) {
        let Some(i) = self.fighter(block) else {
            return;
        };
        let Some(r) = self.roads.iter().position(|r| r.town == to) else {
            return;
        };
        let side = self.fighters[i].side;
        let routing = matches!(self.phase, Phase::Rout { .. });
        if !routing {
            // In combat, a retreat costs what a rout costs (7, 7.4.1).
            if self.in_combat(i) {
                self.rout_loss(i, ev);
                if !self.is_on_field(i) {
                    // Lost on the way out: it never takes the road.
                    self.settle(ev);
                    return;
                }
            }
            if side == Side::Attacker {
                self.active_this_turn = true;
            }
        }
        self.roads[r].retreated[side.index()] += 1;
        self.leave_ground(i);
        let f = &mut self.fighters[i];
        f.at = Loc::Retreated(to);
        f.square = false;
        f.sheltered_in = None;
        ev.push(BattleEvent::Retreated { block, side, to });
        for g in &mut self.fighters {
            if g.sheltered_in == Some(block) {
                g.sheltered_in = None;
            }
        }
        if !routing {
            self.settle(ev);
        }
    }

    /// A rout's loss for fighter `i` (7.4.1): infantry and horse artillery 1, foot artillery
    /// 2, cavalry 1 only when in combat with enemy cavalry, leaders none.
    fn rout_loss(&mut self, i: usize, ev: &mut Vec<BattleEvent>) {
        let f = &self.fighters[i];
        let loss = match f.kind {
            UnitType::Leader => 0,
            UnitType::Infantry | UnitType::HorseArtillery => 1,
            UnitType::FootArtillery => 2,
            UnitType::HeavyCavalry | UnitType::LightCavalry => {
                let enemy_cavalry = self.zone(i).is_some_and(|z| {
                    self.in_zone(z, f.side.other())
                        .any(|e| self.fighters[e].kind.is_cavalry())
                });
                u8::from(enemy_cavalry)
            }
        };
        for _ in 0..loss {
            if self.is_on_field(i) {
                self.hit(i, ev);
            }
        }
    }

    fn reinforce(&mut self, block: BlockId, ev: &mut Vec<BattleEvent>) {
        let Some(i) = self.fighter(block) else {
            return;
        };
        let Loc::Waiting(r) = self.fighters[i].at else {
            return;
        };
        let side = self.fighters[i].side;
        self.roads[r].reinforced[side.index()] += 1;
        if side == Side::Attacker {
            self.roads[r].reinforced_attacker = true;
        }
        let f = &mut self.fighters[i];
        f.at = Loc::Field(Place::Reserve);
        // It arrives to be used next turn (6.3.4).
        f.busy = true;
        ev.push(BattleEvent::Reinforced {
            block,
            side,
            from: self.roads[r].town,
        });
    }

    fn done(&mut self, ev: &mut Vec<BattleEvent>) {
        match self.phase.clone() {
            Phase::SkirmishReveal { side, army } => {
                let next = self.first_army_after(side, Some(army), |b, i| b.is_on_field(i));
                self.phase = match (next, side) {
                    (Some(army), _) => Phase::SkirmishReveal { side, army },
                    (None, Side::Defender) => {
                        match self.first_army(Side::Attacker, |b, i| b.is_on_field(i)) {
                            Some(army) => Phase::SkirmishReveal {
                                side: Side::Attacker,
                                army,
                            },
                            None => Phase::Over,
                        }
                    }
                    (None, Side::Attacker) => {
                        // Both have chosen: the chosen blocks are shown (6.6).
                        for f in &mut self.fighters {
                            if f.busy {
                                f.shown = true;
                                f.busy = false;
                                ev.push(BattleEvent::Revealed {
                                    block: f.block,
                                    strength: f.strength,
                                });
                            }
                        }
                        Phase::SkirmishFire {
                            side: Side::Defender,
                            next: 0,
                        }
                    }
                };
            }
            Phase::Fight { side, army } => {
                match self.first_army_after(side, Some(army), |b, i| b.is_on_field(i)) {
                    Some(army) => self.phase = Phase::Fight { side, army },
                    None => self.begin_reinforcement(side, None, ev),
                }
            }
            Phase::Reinforce { side, army } => self.begin_reinforcement(side, Some(army), ev),
            _ => {}
        }
    }

    /// The reinforcement step of `side` for the first army after `after` with a block waiting;
    /// the end of the turn if none.
    fn begin_reinforcement(&mut self, side: Side, after: Option<Army>, ev: &mut Vec<BattleEvent>) {
        match self.first_army_after(side, after, |b, i| {
            matches!(b.fighters[i].at, Loc::Waiting(_))
        }) {
            Some(army) => self.phase = Phase::Reinforce { side, army },
            None => self.end_turn(side, ev),
        }
    }

    /// Ends `side`'s turn: the stalemate count (6.7), then the other side's turn.
    fn end_turn(&mut self, side: Side, ev: &mut Vec<BattleEvent>) {
        if side == Side::Attacker {
            // Only turns begun with every reinforcement in count (6.7).
            if self.active_this_turn || self.reinforcements_due {
                self.idle = 0;
            } else {
                self.idle += 1;
            }
            if self.idle >= 2 {
                self.stalemate(ev);
                return;
            }
        }
        if side == Side::Defender && self.hold {
            // Both sides have ended their turn here: the campaign goes on to its other battles
            // and resumes this one with the map as it then stands (6.1, 6.3.4).
            self.phase = Phase::Between;
            return;
        }
        self.begin_turn(side.other(), ev);
    }

    /// Stalemate (6.7): the attacker withdraws all its units at once. The withdrawal is a
    /// retreat, so a block still in combat pays the rout loss of its type first (7: "Eenheden
    /// die in gevechten verwikkeld zijn tijdens hun terugtrekking zijn onderhevig aan dezelfde
    /// verliezen als bij vluchten"); the others go at no cost.
    fn stalemate(&mut self, ev: &mut Vec<BattleEvent>) {
        self.volley = None;
        for i in 0..self.fighters.len() {
            if self.fighters[i].side == Side::Attacker && self.is_on_field(i) && self.in_combat(i) {
                self.rout_loss(i, ev);
            }
        }
        self.phase = Phase::Rout {
            side: Side::Attacker,
        };
    }

    /// Checks for a rout (7.4) and for a side with nothing left on the field.
    fn settle(&mut self, ev: &mut Vec<BattleEvent>) {
        if self.skirmish {
            return;
        }
        if matches!(self.phase, Phase::Terrain { .. } | Phase::Deploy { .. }) {
            return;
        }
        // Under 6.2.4's option a block on an open wing is seen "van zodra" (from the moment) it
        // is in combat, and stays seen when the combat ends, until the reserve or woods; in a
        // rout too.
        if self.options.reveal_on_contact {
            for i in 0..self.fighters.len() {
                let open = self.zone(i).is_some_and(|z| !self.woods(z));
                if open && self.in_combat(i) {
                    self.fighters[i].shown = true;
                }
            }
        }
        if self.ending.is_some() || matches!(self.phase, Phase::Rout { .. }) {
            return;
        }
        for side in [Side::Defender, Side::Attacker] {
            let lost_zone = Wing::ALL.into_iter().any(|w| {
                let z = Zone::new(side, w);
                self.any_in_zone(z, side.other()) && !self.any_in_zone(z, side)
            });
            if lost_zone {
                self.rout(side, ev);
                return;
            }
        }
        for side in [Side::Defender, Side::Attacker] {
            if !(0..self.fighters.len())
                .any(|i| self.fighters[i].side == side && self.is_on_field(i))
            {
                let how = if self
                    .fighters
                    .iter()
                    .any(|f| f.side == side && matches!(f.at, Loc::Retreated(_)))
                {
                    Defeat::Retreated
                } else {
                    Defeat::Destroyed
                };
                self.finish(
                    Ending::Won {
                        winner: side.other(),
                        how,
                    },
                    ev,
                );
                return;
            }
        }
    }

    /// `side` routs (7.4): its losses (7.4.1), then its blocks get away as the roads allow.
    fn rout(&mut self, side: Side, ev: &mut Vec<BattleEvent>) {
        ev.push(BattleEvent::Rout(side));
        self.volley = None;
        for i in 0..self.fighters.len() {
            if self.fighters[i].side == side && self.is_on_field(i) {
                self.rout_loss(i, ev);
            }
        }
        self.phase = Phase::Rout { side };
    }

    fn finish(&mut self, ending: Ending, ev: &mut Vec<BattleEvent>) {
        self.volley = None;
        self.ending = Some(ending);
        self.phase = Phase::Over;
        ev.push(BattleEvent::Over(ending));
    }

    /// Plays every step that needs no decision, until a player or chance must act.
    fn advance(&mut self, ev: &mut Vec<BattleEvent>) {
        for _ in 0..10_000 {
            if self.ending.is_some() {
                return;
            }
            if let Some(v) = self.volley.clone() {
                match v.hits {
                    None => return,
                    Some(0) => {
                        self.volley = None;
                        self.settle(ev);
                        continue;
                    }
                    Some(h) => match self.strongest(&v) {
                        None => {
                            for _ in 0..h {
                                ev.push(BattleEvent::HitLost);
                            }
                            self.volley = None;
                            self.settle(ev);
                            continue;
                        }
                        // One strongest, and every block the hit may fall on seen: placed
                        // at once (6.4); else its owner places it (ruling R25).
                        Some(tied) if tied.len() == 1 && !self.hit_unseen(&v) => {
                            self.hit(tied[0], ev);
                            if let Some(v) = &mut self.volley {
                                v.hits = Some(h - 1);
                            }
                            continue;
                        }
                        Some(_) => return,
                    },
                }
            }
            match self.phase.clone() {
                Phase::Terrain { .. } | Phase::Deploy { .. } | Phase::SkirmishReveal { .. } => {
                    return
                }
                Phase::SkirmishFire { side, next } => {
                    let shooter = (next..self.fighters.len()).find(|&i| {
                        let f = &self.fighters[i];
                        f.side == side && f.shown && self.is_on_field(i)
                    });
                    match shooter {
                        Some(i) => {
                            self.phase = Phase::SkirmishFire { side, next: i + 1 };
                            let f = &self.fighters[i];
                            // 6.6: cavalry, horse artillery and leaders F2; the rest F1.
                            let hits_on = match f.kind {
                                UnitType::Leader
                                | UnitType::HeavyCavalry
                                | UnitType::LightCavalry
                                | UnitType::HorseArtillery => 2,
                                UnitType::Infantry | UnitType::FootArtillery => 1,
                            };
                            let any_target = self
                                .fighters
                                .iter()
                                .enumerate()
                                .any(|(m, g)| g.side != side && g.shown && self.is_on_field(m));
                            if !any_target {
                                continue;
                            }
                            let at = Zone::new(Side::Defender, Wing::Centre);
                            ev.push(BattleEvent::Fired {
                                block: f.block,
                                at,
                                dice: f.strength,
                                hits_on,
                            });
                            self.volley = Some(Volley {
                                shooter: f.block,
                                at,
                                target: Target::Line,
                                dice: f.strength,
                                hits_on,
                                long_range: false,
                                cavalry: false,
                                hits: None,
                            });
                            return;
                        }
                        None if side == Side::Defender => {
                            self.phase = Phase::SkirmishFire {
                                side: Side::Attacker,
                                next: 0,
                            };
                        }
                        None => self.end_skirmish(ev),
                    }
                }
                Phase::Morale {
                    side,
                    queue,
                    falling_back,
                } => {
                    if let Some(b) = falling_back {
                        let Some(i) = self.fighter(b) else {
                            self.phase = Phase::Morale {
                                side,
                                queue,
                                falling_back: None,
                            };
                            continue;
                        };
                        if !self.is_on_field(i) {
                            self.phase = Phase::Morale {
                                side,
                                queue,
                                falling_back: None,
                            };
                            continue;
                        }
                        if self.fall_back_places(i).is_empty() {
                            // Nowhere to go: it is lost (ruling R11).
                            self.eliminate(i, ev);
                            self.phase = Phase::Morale {
                                side,
                                queue,
                                falling_back: None,
                            };
                            self.settle(ev);
                            continue;
                        }
                        return;
                    }
                    // Skip checks of blocks no longer due (eliminated, no longer in combat).
                    let due: Vec<BlockId> = queue
                        .iter()
                        .copied()
                        .filter(|&b| {
                            self.fighter(b)
                                .is_some_and(|i| self.must_check_morale(i, side))
                        })
                        .collect();
                    if due.is_empty() {
                        match self.first_army(side, |b, i| b.is_on_field(i)) {
                            Some(army) => self.phase = Phase::Fight { side, army },
                            None => self.begin_reinforcement(side, None, ev),
                        }
                        continue;
                    }
                    if due != queue {
                        self.phase = Phase::Morale {
                            side,
                            queue: due,
                            falling_back: None,
                        };
                    }
                    return;
                }
                Phase::Fight { .. } => return,
                Phase::Reinforce { side, army } => {
                    let any = self.army_actions(army).len() > 1;
                    if any {
                        return;
                    }
                    self.begin_reinforcement(side, Some(army), ev);
                }
                Phase::Rout { side } => {
                    if self.withdraw_army(side).is_some() {
                        return;
                    }
                    for i in 0..self.fighters.len() {
                        if self.fighters[i].side == side && self.is_on_field(i) {
                            self.eliminate(i, ev);
                        }
                    }
                    let ending = if self.skirmish {
                        Ending::Won {
                            winner: side.other(),
                            how: Defeat::Skirmish,
                        }
                    } else if self.stalemated() {
                        Ending::Stalemate
                    } else {
                        Ending::Won {
                            winner: side.other(),
                            how: Defeat::Routed,
                        }
                    };
                    self.finish(ending, ev);
                }
                Phase::Over | Phase::Between => return,
            }
        }
    }

    /// After a skirmish's round the side with fewer units retreats; the attacker on a tie
    /// (6.6).
    fn end_skirmish(&mut self, ev: &mut Vec<BattleEvent>) {
        let count = |side: Side| {
            (0..self.fighters.len())
                .filter(|&i| self.fighters[i].side == side && self.is_on_field(i))
                .count()
        };
        let (a, d) = (count(Side::Attacker), count(Side::Defender));
        if a == 0 || d == 0 {
            let loser = if a == 0 {
                Side::Attacker
            } else {
                Side::Defender
            };
            self.finish(
                Ending::Won {
                    winner: loser.other(),
                    how: Defeat::Destroyed,
                },
                ev,
            );
            return;
        }
        let loser = if a <= d {
            Side::Attacker
        } else {
            Side::Defender
        };
        self.phase = Phase::Rout { side: loser };
    }
}

/// The exact weights of 0..=n hits from `n` dice hitting on `f` or less: C(n,k) f^k (6-f)^(n-k).
pub(super) fn binomial(n: u8, f: u8) -> Vec<u32> {
    let f = u32::from(f.min(FACES));
    let miss = u32::from(FACES) - f;
    let n32 = u32::from(n);
    let mut out = Vec::with_capacity(usize::from(n) + 1);
    let mut choose: u32 = 1;
    for k in 0..=n32 {
        out.push(choose * f.pow(k) * miss.pow(n32 - k));
        choose = choose * (n32 - k) / (k + 1);
    }
    out
}

use crate::geometry::roads::TownId;
