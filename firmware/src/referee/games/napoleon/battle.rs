//! Battles at the table (rulebook 6, 7 and 8): which battle board a battle is fought on, where
//! each of its blocks stands there, the gestures and menu entries of every battle action, and
//! what the table is told, never naming a block the public view of the battle hides.
//!
//! - **The board**: a battle takes the first free battle board of the layout when it begins,
//!   and keeps it while it is held between battle turns (6.1); its blocks go from the town's
//!   slots to their side's reserve ("Bergen slot 2 to board 1 attacker reserve 1"; a reserve
//!   that is full leaves the rest on the town's slots). When it ends, its blocks go back to the
//!   town's slots, the retreated ones to their town's, the eliminated ones to their army's tray.
//!   A battle that finds no free board is played from the OK menu, its blocks on the town's
//!   slots.
//! - **Gestures**: a block lifted from the reserve and put on a space of a wing deploys it
//!   there (moves it, once the battle turns begin); put on its side's reserve, it goes back to
//!   the reserve; a block lifted from the field and put on a slot of a town retreats there; a
//!   block lifted from a neighbouring town's slot and put on the reserve reinforces; the firing
//!   block lifted and put back, then a block of the zone fired at lifted, fires (at the square
//!   when the block lifted forms one); a terrain block put on a terrain spot of the drawer's
//!   half places the terrain drawn there.
//! - **The menu** (OK) lists every action of the army to act, each named by slots, in an
//!   order decided by the slots (never by the order of battle); a block the public may not see
//!   is offered every destination its place allows whatever its type or corps, in the fight
//!   every fire, square, shelter, farm or hill the public facts of its place allow (who stands
//!   in its zone and the facing one, the terrain face up), and its other actions are listed
//!   for every hidden block of its army in the same place, so the list says nothing of which
//!   block can do what (one the rules refuse is refused when chosen, in words that tell no
//!   type). A skirmish's pick is told as "the defender chooses a block": which
//!   blocks were chosen is shown only once both sides have chosen (6.6). A hit that may fall
//!   on a block the firer cannot see is its owner's to place whether one block is strongest
//!   or several tie (6.4, ruling R25): the menu, chosen unseen like a skirmish's pick, lists
//!   every block the hit may fall on, a wrong pick is refused in the same words whichever it
//!   was, and the pick is told as "Allies: a block takes the hit" with the slot to turn down.
//!   A rout's losses go by type (7.4.1), as do a retreat's from combat (7): a hidden block's
//!   is never told (foot artillery losing 2 would say what it is); the routing side is asked
//!   in one line to turn its hidden blocks down by type, and each one's loss, named, is on
//!   its owner's page.
//! - **The battle begins** with the last block set up: the table is told first, in one line
//!   on the OLED's first page, to lay the wing blocks flat but for those in woods (6.2.4), then
//!   each one by its slot, with its name, type and strength, in the order of the places; a
//!   block in woods or a reserve stays up and unnamed, and under 6.2.4's option none is laid
//!   flat until it fires or fights.
//! - **Chance**: terrain is drawn in secret at once (the drawer reads it on the phone page;
//!   the table learns it when it is placed face up); morale dice and volleys are rolled with
//!   the Die button.

use std::collections::{BTreeMap, BTreeSet};

use boards::geometry::roads::TownId;
use boards::napoleon::battle::{
    BattleAction, BattleActor, BattleEvent, BattleView, BlockView, Defeat, Ending, Place as Field,
    Side, Step, Target, Wing, Zone,
};
use boards::napoleon::{Action, Army, Battle, BlockId, TerrainKind, UnitType};
use boards::Game;

use super::layout::zone_words;
use super::{Known, NapoleonAction, NapoleonTable, SecretLoss, Sight, Spot};
use crate::referee::table::{Gesture, TableGame};
use crate::sensing::Place;

/// What the hands do when the battle begins (6.2.4), before the blocks are named: short, to
/// stand on the OLED's first page under the action's title.
pub(super) const LAY_FLAT: &str = "6.2.4: lay the wing blocks flat; woods and reserve stay up";

/// A place's rank in the table's public order ([`NapoleonTable::place_order`]).
pub(super) type PlaceOrder = (u8, usize, Option<(Side, Option<Zone>)>, u8, Option<Place>);

/// Where a block of a battle stands, as the whole truth has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stand {
    /// The battle's board, `None` when it has none.
    board: Option<usize>,
    /// The battle's town.
    town: TownId,
    /// The block's side.
    side: Side,
    /// Its place on the field; `None` before it is set up (it waits in the reserve).
    place: Option<Field>,
}

/// "attacker", "defender".
fn side_word(side: Side) -> &'static str {
    match side {
        Side::Attacker => "attacker",
        Side::Defender => "defender",
    }
}

impl NapoleonTable {
    /// The battles begun: the one fought now first, then those held between battle turns.
    fn battles(&self) -> impl Iterator<Item = &Battle> + '_ {
        self.game
            .battle()
            .into_iter()
            .chain(self.game.held_battles())
    }

    /// The battle board the battle in `town` is fought on.
    pub(super) fn board_of(&self, town: TownId) -> Option<usize> {
        self.boards.iter().position(|b| *b == Some(town))
    }

    /// Frees the boards of battles that ended and gives a free board to each battle begun
    /// without one.
    fn assign_boards(&mut self) {
        let towns: Vec<TownId> = self.battles().map(Battle::town).collect();
        for b in &mut self.boards {
            if b.is_some_and(|t| !towns.contains(&t)) {
                *b = None;
            }
        }
        for t in towns {
            if !self.boards.contains(&Some(t)) {
                if let Some(free) = self.boards.iter_mut().find(|b| b.is_none()) {
                    *free = Some(t);
                }
            }
        }
    }

    /// Every block of every battle begun, where the truth has it.
    pub(super) fn stands(&self) -> BTreeMap<BlockId, Stand> {
        let mut out = BTreeMap::new();
        for battle in self.battles() {
            let board = self.board_of(battle.town());
            for b in battle.view_of(&Army::ALL).blocks {
                if let BlockView::Known {
                    block, side, place, ..
                } = b
                {
                    out.insert(
                        block,
                        Stand {
                            board,
                            town: battle.town(),
                            side,
                            place,
                        },
                    );
                }
            }
        }
        out
    }

    /// The spaces of `place` (`None`: not yet set up, the reserve) for `side` on `board`.
    fn area(&self, board: usize, side: Side, place: Option<Field>) -> &'static [Place] {
        let Some(b) = self.choice.layout().boards().get(board) else {
            return &[];
        };
        match place {
            None | Some(Field::Reserve) => b.reserve(side),
            Some(Field::Zone(z)) => b.zone(z),
        }
    }

    /// Puts each block where the rules have it, keeping each on its slot while it stays in
    /// the same town, zone or reserve: a block in a battle on its board's zone or reserve
    /// (a full reserve leaves it on the town's slots), a block eliminated in a battle or off
    /// the map on its army's tray, any other on its town's slots.
    pub(super) fn follow(&mut self) {
        self.assign_boards();
        let stands = self.stands();
        let towns: Vec<TownId> = self.battles().map(Battle::town).collect();
        let layout = self.choice.layout();
        let oob = self.choice.campaign().order_of_battle();
        // Each block's spaces (first choice, then where it may wait when they are full).
        let mut wants: Vec<(BlockId, &'static [Place], &'static [Place])> = Vec::new();
        for (id, b) in oob.blocks() {
            let want = match (stands.get(&id), self.game.town_of(id)) {
                (Some(s), _) => match s.board {
                    Some(n) => (
                        self.area(n, s.side, s.place),
                        if matches!(s.place, None | Some(Field::Reserve)) {
                            layout.town(s.town)
                        } else {
                            &[][..]
                        },
                    ),
                    None => (layout.town(s.town), &[][..]),
                },
                // In a battle's town but not on its field: eliminated in the battle.
                (None, Some(town)) if towns.contains(&town) => (layout.eliminated(b.army), &[][..]),
                (None, Some(town)) => (layout.town(town), &[][..]),
                (None, None) => (layout.eliminated(b.army), &[][..]),
            };
            wants.push((id, want.0, want.1));
        }
        // Those already in place stay; the others move, those leaving a board first so a
        // battle beginning there finds its spaces free.
        let mut moving: Vec<(BlockId, &'static [Place], &'static [Place])> = wants
            .into_iter()
            .filter(|(id, primary, _)| {
                !self
                    .at
                    .get(id.index())
                    .copied()
                    .flatten()
                    .is_some_and(|p| primary.contains(&p))
            })
            .collect();
        // Then by where each stands now, never by which block it is: the free spaces are
        // given out in an order the table can see (the order of battle lists each army's
        // leader first, then corps by corps).
        moving.sort_by_key(|(id, primary, _)| {
            (
                primary.first().is_some_and(|p| {
                    matches!(
                        layout.spot(p),
                        Some(Spot::Zone { .. } | Spot::Reserve { .. })
                    )
                }),
                self.place_order(self.place_of(*id).as_ref()),
            )
        });
        for (id, primary, overflow) in moving {
            let here = self.at[id.index()];
            let free = |p: &&Place| !self.at.contains(&Some(**p));
            let to = primary
                .iter()
                .find(free)
                .or_else(|| here.as_ref().filter(|h| overflow.contains(h)))
                .or_else(|| overflow.iter().find(free))
                .copied();
            if let Some(to) = to {
                self.at[id.index()] = Some(to);
            }
        }
    }

    /// Where `place` comes in the table's public order: town slots by town and slot, then the
    /// battle boards' spaces by board, area and space, then the trays; no place last. Every
    /// order the table shows of blocks is decided by this, never by the blocks' ids.
    pub(super) fn place_order(&self, place: Option<&Place>) -> PlaceOrder {
        let Some(place) = place else {
            return (4, 0, None, 0, None);
        };
        match self.choice.layout().spot(place) {
            Some(Spot::Town { town, slot }) => (0, town.index(), None, slot, None),
            Some(Spot::Reserve { board, side, slot }) => {
                (1, usize::from(board), Some((side, None)), slot, None)
            }
            Some(Spot::Zone { board, zone, slot }) => (
                1,
                usize::from(board),
                Some((zone.half, Some(zone))),
                slot,
                None,
            ),
            Some(Spot::Terrain { board, zone }) => (
                2,
                usize::from(board),
                Some((zone.half, Some(zone))),
                0,
                None,
            ),
            Some(Spot::Eliminated { army, slot }) => (3, army as usize, None, slot, None),
            None => (4, 0, None, 0, Some(*place)),
        }
    }

    /// The terrain blocks standing on the battle boards, with their kind.
    pub(super) fn terrain_on_boards(&self) -> Vec<(Place, String)> {
        let mut out = Vec::new();
        for battle in self.battles() {
            let Some(n) = self.board_of(battle.town()) else {
                continue;
            };
            let Some(board) = self.choice.layout().boards().get(n) else {
                continue;
            };
            for (zone, kind) in battle.view(None).terrain {
                out.push((board.terrain(zone), format!("{kind} terrain block")));
            }
        }
        out
    }

    /// Each block's strength in the battles begun (the campaign's is brought up to date only
    /// when its battle ends).
    pub(super) fn battle_strengths(&self) -> BTreeMap<BlockId, u8> {
        let mut out = BTreeMap::new();
        for battle in self.battles() {
            for b in battle.view_of(&Army::ALL).blocks {
                if let BlockView::Known {
                    block, strength, ..
                } = b
                {
                    out.insert(block, strength);
                }
            }
        }
        out
    }

    /// The slot block `block` stands on, in words ("board 1 attacker left 2").
    pub(super) fn slot_words(&self, block: BlockId) -> String {
        self.place_of(block)
            .map_or_else(|| "a block".to_string(), |p| self.choice.place_name(&p))
    }

    /// "board 1 defender centre", or "the defender centre" for a battle without a board.
    fn zone_name(&self, zone: Zone) -> String {
        match self.game.battle().and_then(|b| self.board_of(b.town())) {
            Some(n) => format!("board {} {}", n + 1, zone_words(zone)),
            None => format!("the {}", zone_words(zone)),
        }
    }

    /// Where the blocks of `side` fired at in `zone` stand, in words: the zone, or in a
    /// skirmish (6.6), where no block leaves the reserve, the side's reserve.
    fn target_name(&self, zone: Zone, side: Side) -> String {
        if self.game.battle().is_some_and(Battle::is_skirmish) {
            self.reserve_name(side)
        } else {
            self.zone_name(zone)
        }
    }

    /// `side`'s reserve on the battle's board, in words.
    fn reserve_name(&self, side: Side) -> String {
        match self.game.battle().and_then(|b| self.board_of(b.town())) {
            Some(n) => format!("board {} {} reserve", n + 1, side_word(side)),
            None => format!("the {} reserve", side_word(side)),
        }
    }

    /// A place of the field in words.
    fn field_name(&self, side: Side, place: Field) -> String {
        match place {
            Field::Reserve => self.reserve_name(side),
            Field::Zone(z) => self.zone_name(z),
        }
    }

    /// The armies of the blocks of `side` in the battle fought now, in words ("French",
    /// "Anglo-Dutch and Prussian").
    fn side_armies(&self, side: Side) -> String {
        let Some(battle) = self.game.battle() else {
            return side_word(side).to_string();
        };
        let armies: Vec<String> = Army::ALL
            .into_iter()
            .filter(|a| battle.side_of(*a) == Some(side))
            .map(|a| a.to_string())
            .collect();
        if armies.is_empty() {
            side_word(side).to_string()
        } else {
            armies.join(" and ")
        }
    }

    /// The block's name when the public view of its battle shows it (a revealed block on
    /// the battle board), never otherwise.
    fn public_name(&self, block: BlockId) -> Option<String> {
        let battle = self.game.battle()?;
        let known = battle
            .view(None)
            .blocks
            .iter()
            .any(|b| matches!(b, BlockView::Known { block: k, .. } if *k == block));
        let b = self.choice.campaign().order_of_battle().block(block)?;
        known.then(|| b.name.clone())
    }

    /// A block revealed, in words, when the public view of its battle shows it: "board 1
    /// attacker left 1: G-INF, infantry, strength 4".
    fn revealed_words(&self, block: BlockId, strength: u8) -> Option<String> {
        let name = self.public_name(block)?;
        let kind = self
            .choice
            .campaign()
            .order_of_battle()
            .block(block)
            .map_or(UnitType::Infantry, |b| b.kind);
        Some(format!(
            "{}: {name}, {kind}, strength {strength}",
            self.slot_words(block)
        ))
    }

    /// What the hands do to the blocks an action showed or hid again (6.2.4), in the order of
    /// their places: a block shown (moved out of woods or the reserve onto an open wing, or,
    /// in woods or under the option, firing or in combat) is laid flat, named; a block hidden
    /// again (moved into woods or the reserve, or in woods out of combat) may stand up, told
    /// by its slot alone. The blocks a battle's start or a skirmish shows are told by their own
    /// events. Each line is short enough to stand whole on the OLED's first page under a
    /// move's title, where it is the first thing told.
    pub(super) fn sight_words(&self, events: &[BattleEvent], known: &Known) -> Vec<String> {
        let told: BTreeSet<BlockId> = events
            .iter()
            .filter_map(|e| match *e {
                BattleEvent::Revealed { block, .. } => Some(block),
                _ => None,
            })
            .collect();
        let order = |block: BlockId| self.place_order(self.place_of(block).as_ref());
        let mut flat: Vec<(PlaceOrder, String)> = known
            .laid_flat
            .iter()
            .filter(|b| !told.contains(b))
            .filter_map(|&block| {
                let name = self.public_name(block)?;
                Some((
                    order(block),
                    format!("{}: lay it flat (6.2.4): {name}", self.slot_words(block)),
                ))
            })
            .collect();
        let mut up: Vec<(PlaceOrder, String)> = known
            .stood_up
            .iter()
            .map(|&block| {
                (
                    order(block),
                    format!("{}: may stand up again (6.2.4)", self.slot_words(block)),
                )
            })
            .collect();
        flat.sort();
        up.sort();
        flat.into_iter().chain(up).map(|(_, words)| words).collect()
    }

    /// The legal battle actions the hands make, each with its gesture.
    pub(super) fn battle_gestures(&self, battle: &Battle) -> Vec<(Gesture, NapoleonAction)> {
        let Some(board) = self.board_of(battle.town()) else {
            return Vec::new();
        };
        let truth = battle.view_of(&Army::ALL);
        let stands = self.stands();
        let free = |area: &[Place]| -> Vec<Place> {
            area.iter()
                .filter(|p| !self.at.contains(&Some(**p)))
                .copied()
                .collect()
        };
        let mut out = Vec::new();
        let mut push = |g: Gesture, a: BattleAction, slot: Option<Place>| {
            out.push((
                g.normalized(),
                NapoleonAction {
                    action: Action::Battle(a),
                    slot,
                },
            ));
        };
        for a in battle.legal_actions() {
            match a {
                BattleAction::Deploy { block, to } | BattleAction::Move { block, to } => {
                    let (Some(from), Some(s)) = (self.place_of(block), stands.get(&block)) else {
                        continue;
                    };
                    let area = self.area(board, s.side, Some(to));
                    if area.contains(&from) {
                        continue;
                    }
                    for slot in free(area) {
                        push(Gesture::slide(from, slot), a, Some(slot));
                    }
                }
                BattleAction::Retreat { block, to } => {
                    let Some(from) = self.place_of(block) else {
                        continue;
                    };
                    for slot in self.free_slots(to) {
                        push(Gesture::slide(from, slot), a, Some(slot));
                    }
                }
                BattleAction::Reinforce(block) => {
                    let (Some(from), Some(army)) = (self.place_of(block), self.army_of(block))
                    else {
                        continue;
                    };
                    let Some(side) = battle.side_of(army) else {
                        continue;
                    };
                    for slot in free(self.area(board, side, Some(Field::Reserve))) {
                        push(Gesture::slide(from, slot), a, Some(slot));
                    }
                }
                BattleAction::Fire { block, at, target } => {
                    let (Some(from), Some(s)) = (self.place_of(block), stands.get(&block)) else {
                        continue;
                    };
                    for t in &truth.blocks {
                        let BlockView::Known {
                            block: tb,
                            side,
                            place,
                            square,
                            ..
                        } = *t
                        else {
                            continue;
                        };
                        let group = match target {
                            Target::Line => !square,
                            Target::Square(sq) => sq == tb,
                        };
                        if side != s.side && place == Some(Field::Zone(at)) && group {
                            if let Some(p) = self.place_of(tb) {
                                push(Gesture::select_then_lift(from, p), a, None);
                            }
                        }
                    }
                }
                BattleAction::PlaceTerrain(wing) => {
                    let BattleActor::Army(army) = battle.actor() else {
                        continue;
                    };
                    let (Some(side), Some(b)) = (
                        battle.side_of(army),
                        self.choice.layout().boards().get(board),
                    ) else {
                        continue;
                    };
                    let spot = b.terrain(Zone::new(side, wing));
                    push(
                        Gesture {
                            lifted: Vec::new(),
                            placed: vec![spot],
                            selected: None,
                        },
                        a,
                        None,
                    );
                }
                _ => {}
            }
        }
        out
    }

    /// The battle action a gesture looks like, legal or not, for the rules to say why not.
    pub(super) fn battle_shaped(&self, battle: &Battle, gesture: &Gesture) -> Vec<NapoleonAction> {
        let layout = self.choice.layout();
        let stands = self.stands();
        let with = |a: BattleAction, slot: Option<Place>| {
            vec![NapoleonAction {
                action: Action::Battle(a),
                slot,
            }]
        };
        match (
            gesture.lifted.as_slice(),
            gesture.placed.as_slice(),
            gesture.selected,
        ) {
            ([from], [to], _) => {
                let Some(block) = self.block_on(from) else {
                    return Vec::new();
                };
                let deploying = battle.step() == Step::Deployment;
                match layout.spot(to) {
                    Some(Spot::Zone { zone, .. }) => {
                        let to_place = Field::Zone(zone);
                        with(
                            if deploying {
                                BattleAction::Deploy {
                                    block,
                                    to: to_place,
                                }
                            } else {
                                BattleAction::Move {
                                    block,
                                    to: to_place,
                                }
                            },
                            Some(*to),
                        )
                    }
                    Some(Spot::Reserve { .. }) if !stands.contains_key(&block) => {
                        with(BattleAction::Reinforce(block), Some(*to))
                    }
                    Some(Spot::Reserve { .. }) => with(
                        if deploying {
                            BattleAction::Deploy {
                                block,
                                to: Field::Reserve,
                            }
                        } else {
                            BattleAction::Move {
                                block,
                                to: Field::Reserve,
                            }
                        },
                        Some(*to),
                    ),
                    Some(Spot::Town { town, .. }) if stands.contains_key(&block) => {
                        with(BattleAction::Retreat { block, to: town }, Some(*to))
                    }
                    _ => Vec::new(),
                }
            }
            ([target], [], Some(selected)) if selected != *target => {
                let (Some(shooter), Some(hit)) = (self.block_on(&selected), self.block_on(target))
                else {
                    return Vec::new();
                };
                let Some(Stand {
                    place: Some(Field::Zone(at)),
                    ..
                }) = stands.get(&hit).copied()
                else {
                    return Vec::new();
                };
                let square = battle.view_of(&Army::ALL).blocks.iter().any(
                    |b| matches!(b, BlockView::Known { block, square: true, .. } if *block == hit),
                );
                let target = if square {
                    Target::Square(hit)
                } else {
                    Target::Line
                };
                with(
                    BattleAction::Fire {
                        block: shooter,
                        at,
                        target,
                    },
                    None,
                )
            }
            ([], [spot], _) => match layout.spot(spot) {
                // The spot's board and half are checked with the action (`battle_check`).
                Some(Spot::Terrain { zone, .. }) => {
                    with(BattleAction::PlaceTerrain(zone.wing), Some(*spot))
                }
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// Refuses a terrain put on a spot that is not the drawer's, a menu move into a wing with
    /// no free space (the board could not follow it), then a battle action the rules refuse,
    /// in words that tell nothing the public view hides (a hidden block's refusal is the same
    /// whatever its type, strength or corps).
    ///
    /// # Errors
    /// Why not, and what to do instead.
    pub(super) fn battle_check(
        &self,
        action: &BattleAction,
        slot: Option<Place>,
    ) -> Result<(), String> {
        let Some(battle) = self.game.battle() else {
            return Ok(());
        };
        let board = self.board_of(battle.town());
        let acting_side = match battle.actor() {
            BattleActor::Army(a) => battle.side_of(a),
            _ => None,
        };
        if let (BattleAction::PlaceTerrain(_), Some(spot), Some(side)) = (action, slot, acting_side)
        {
            let board_name = board.map_or_else(
                || "the battle board".to_string(),
                |n| format!("board {}", n + 1),
            );
            let ours = match self.choice.layout().spot(&spot) {
                Some(Spot::Terrain { board: b, zone }) => {
                    Some(usize::from(b)) == board && zone.half == side
                }
                _ => false,
            };
            if !ours {
                return Err(format!(
                    "{} is not a terrain spot of your half of {board_name}: put the terrain \
                     on one of yours",
                    self.choice.place_name(&spot)
                ));
            }
        }
        // A wing holds as many blocks as its spaces; the reserve overflows onto the town's
        // slots. Asked before the rules: a full wing is public, while whether the rules would
        // let a hidden block go there tells its type (artillery never into woods), so every
        // block hears the same words.
        if let (
            BattleAction::Deploy {
                block,
                to: Field::Zone(zone),
            }
            | BattleAction::Move {
                block,
                to: Field::Zone(zone),
            },
            None,
            Some(n),
        ) = (*action, slot, board)
        {
            let area = self.area(n, zone.half, Some(Field::Zone(zone)));
            let here = self.place_of(block);
            let full = !area.is_empty()
                && area
                    .iter()
                    .all(|p| self.at.contains(&Some(*p)) && Some(*p) != here);
            if full {
                return Err(format!(
                    "{} is full: choose another place",
                    self.zone_name(zone)
                ));
            }
        }
        if let Err(boards::napoleon::Illegal::Battle(why)) =
            self.game.check(&Action::Battle(*action))
        {
            return Err(self.refusal(battle, action, why));
        }
        Ok(())
    }

    /// What the table is told when the rules refuse `action` for `why`.
    fn refusal(
        &self,
        battle: &Battle,
        action: &BattleAction,
        why: boards::napoleon::battle::BattleIllegal,
    ) -> String {
        use boards::napoleon::battle::BattleIllegal as Why;
        let hidden = action.block().is_some_and(|b| {
            !battle
                .view(None)
                .blocks
                .iter()
                .any(|v| matches!(v, BlockView::Known { block, .. } if *block == b))
        });
        let goes = matches!(
            action,
            BattleAction::Deploy { .. }
                | BattleAction::Move { .. }
                | BattleAction::Retreat { .. }
                | BattleAction::Reinforce(_)
        );
        match (action, why) {
            // A hit among hidden blocks: the same words whichever block was picked, hidden or
            // seen (ruling R25).
            (BattleAction::TakeHit(_), _) if battle.hit_among_hidden() => {
                "not a strongest block (6.4): choose one of the strongest".to_string()
            }
            // Deployment is no step: the reserve and the own wings, each wing one corps (two
            // with their leader), every wing filled as far as the blocks can (6.2.2, R23).
            (BattleAction::Deploy { block, to }, Why::CannotGoThere) => {
                let side = self
                    .army_of(*block)
                    .and_then(|a| battle.side_of(a))
                    .unwrap_or(Side::Attacker);
                match to {
                    Field::Zone(z) if z.half != side => {
                        "it cannot go there: deploy on your own wings or your reserve".to_string()
                    }
                    Field::Zone(z) => Self::deploy_refusal(battle, *z),
                    Field::Reserve => "that block cannot go there now: each wing needs a block \
                                       (6.2.2): deploy it on an empty wing"
                        .to_string(),
                }
            }
            (
                _,
                Why::CannotGoThere
                | Why::CannotFire
                | Why::AlreadyActed
                | Why::CannotRetreatThere
                | Why::NotStrongest
                | Why::NotAllowed,
            ) if hidden => {
                if goes {
                    "that block cannot go there now: choose another".to_string()
                } else {
                    "that block cannot do that now: choose another".to_string()
                }
            }
            _ => why.to_string(),
        }
    }

    /// Why a block of the reserve may not deploy on `zone`, and the fix, from what the whole
    /// table sees alone (the blocks already there, the woods, the wings still empty), never
    /// from the block's type or corps: the same words for every hidden block (6.2.1-6.2.3).
    fn deploy_refusal(battle: &Battle, zone: Zone) -> String {
        let view = battle.view(None);
        let stands = |z: Zone| {
            view.blocks.iter().any(|b| match b {
                BlockView::Known { place, .. } | BlockView::Hidden { place, .. } => {
                    *place == Some(Field::Zone(z))
                }
            })
        };
        let mut why = Vec::new();
        if stands(zone) {
            why.push("one corps a wing (6.2.3)");
        }
        if view
            .terrain
            .contains(&(zone, boards::napoleon::TerrainKind::Woods))
        {
            why.push("no guns in woods (6.2.1)");
        }
        let empty = Wing::ALL
            .iter()
            .map(|w| Zone::new(zone.half, *w))
            .any(|z| z != zone && !stands(z));
        if empty || why.is_empty() {
            why.push("each wing needs a block (6.2.2)");
        }
        format!(
            "that block cannot go there now: {}: put it on another wing or keep it in the \
             reserve",
            why.join(", ")
        )
    }

    /// Whether a block put on `slot` for `action` stands where the action takes it: a free
    /// space of the zone, reserve or town it goes to.
    pub(super) fn battle_slot_fits(&self, action: &BattleAction, slot: Place) -> bool {
        if self.at.contains(&Some(slot)) {
            return false;
        }
        let Some(battle) = self.game.battle() else {
            return false;
        };
        let stands = self.stands();
        let side_of = |block: BlockId| {
            stands
                .get(&block)
                .map(|s| s.side)
                .or_else(|| self.army_of(block).and_then(|army| battle.side_of(army)))
        };
        let Some(board) = self.board_of(battle.town()) else {
            return false;
        };
        let area = |block: BlockId, to: Option<Field>| {
            side_of(block).map_or(&[][..], |side| self.area(board, side, to))
        };
        match *action {
            BattleAction::Deploy { block, to } | BattleAction::Move { block, to } => {
                area(block, Some(to)).contains(&slot)
            }
            BattleAction::Reinforce(block) => area(block, Some(Field::Reserve)).contains(&slot),
            BattleAction::Retreat { to, .. } => self.town_of(&slot) == Some(to),
            _ => true,
        }
    }

    /// The menu of the battle fought now: every action of the army to act, named by slots.
    /// A block the public may not see is listed with every destination its place allows
    /// whatever its type (deployment: the reserve and the own wings; a move: one step forward
    /// or back; a retreat: every town a block of its army may retreat to; in the fight, every
    /// fire, square, shelter, farm or hill its place allows, [`fight_entries`]), and any other
    /// action of it is listed for each hidden block of its army in the same place; the rules
    /// refuse the wrong ones when chosen, in words that tell no type. The entries come in an
    /// order decided by the blocks' slots, never by which block stands there.
    pub(super) fn battle_choices(&self, battle: &Battle) -> Vec<(String, NapoleonAction)> {
        let BattleActor::Army(acting) = battle.actor() else {
            return Vec::new();
        };
        let public = battle.view(None);
        let truth = battle.view_of(&Army::ALL);
        let seen = |block: BlockId| {
            public
                .blocks
                .iter()
                .any(|b| matches!(b, BlockView::Known { block: k, .. } if *k == block))
        };
        // Where each block stands, for the hidden ones' twins: its army and its place (or the
        // town it waits in).
        let key = |block: BlockId| -> Option<(Army, Option<Field>, Option<TownId>)> {
            let army = self.army_of(block)?;
            for b in &truth.blocks {
                if let BlockView::Known {
                    block: k, place, ..
                } = b
                {
                    if *k == block {
                        return Some((army, *place, None));
                    }
                }
            }
            self.game.town_of(block).map(|t| (army, None, Some(t)))
        };
        let twins = |block: BlockId| -> Vec<BlockId> {
            if seen(block) {
                return vec![block];
            }
            let Some(k) = key(block) else {
                return vec![block];
            };
            let mut all: Vec<BlockId> = truth
                .blocks
                .iter()
                .filter_map(|b| match b {
                    BlockView::Known { block, .. } => Some(*block),
                    BlockView::Hidden { .. } => None,
                })
                .chain(truth.waiting.iter().map(|(b, _)| *b))
                .filter(|b| !seen(*b) && key(*b) == Some(k))
                .collect();
            if !all.contains(&block) {
                all.push(block);
            }
            all
        };
        // The acting army's blocks the public may not see, on the field or not yet set up,
        // with their side and place.
        let hidden: Vec<(BlockId, Side, Option<Field>)> = truth
            .blocks
            .iter()
            .filter_map(|b| match *b {
                BlockView::Known {
                    block,
                    army,
                    side,
                    place,
                    ..
                } if army == acting && !seen(block) => Some((block, side, place)),
                _ => None,
            })
            .collect();
        let mut actions: Vec<BattleAction> = Vec::new();
        let mut add = |a: BattleAction| {
            if !actions.contains(&a) {
                actions.push(a);
            }
        };
        let legal = battle.legal_actions();
        if legal.contains(&BattleAction::Done) {
            add(BattleAction::Done);
        }
        // Every structural destination of every hidden block, once any block of the army may
        // take the step: which of them can go where tells its type, corps or strength.
        let deploys = legal
            .iter()
            .any(|a| matches!(a, BattleAction::Deploy { .. }));
        let moves = legal.iter().any(|a| matches!(a, BattleAction::Move { .. }));
        let retreat_towns: Vec<TownId> = {
            let mut towns: Vec<TownId> = legal
                .iter()
                .filter_map(|a| match a {
                    BattleAction::Retreat { to, .. } => Some(*to),
                    _ => None,
                })
                .collect();
            towns.sort_unstable();
            towns.dedup();
            towns
        };
        let falling_back = battle.step() == Step::Morale;
        for &(block, side, place) in &hidden {
            match place {
                None if deploys => {
                    for to in own_places(side) {
                        add(BattleAction::Deploy { block, to });
                    }
                }
                Some(from) if moves => {
                    // Falling back (6.3.1) is the one block's move; in the fight, any block's.
                    let its_turn = !falling_back
                        || legal.iter().any(
                            |a| matches!(a, BattleAction::Move { block: b, .. } if *b == block),
                        );
                    if its_turn {
                        for to in steps(side, from) {
                            add(BattleAction::Move { block, to });
                        }
                    }
                }
                _ => {}
            }
            if place.is_some() && battle.step() == Step::Fight {
                for &to in &retreat_towns {
                    add(BattleAction::Retreat { block, to });
                }
            }
            if let (Some(Field::Zone(zone)), Step::Fight) = (place, battle.step()) {
                for a in fight_entries(&public, &truth, block, side, zone) {
                    add(a);
                }
            }
        }
        for a in legal {
            match a {
                BattleAction::Deploy { block, to } => {
                    twins(block)
                        .into_iter()
                        .for_each(|b| add(BattleAction::Deploy { block: b, to }));
                }
                BattleAction::Move { block, to } => {
                    twins(block)
                        .into_iter()
                        .for_each(|b| add(BattleAction::Move { block: b, to }));
                }
                BattleAction::Fire { block, at, target } => {
                    twins(block).into_iter().for_each(|b| {
                        add(BattleAction::Fire {
                            block: b,
                            at,
                            target,
                        })
                    });
                }
                BattleAction::Retreat { block, to } => {
                    twins(block)
                        .into_iter()
                        .for_each(|b| add(BattleAction::Retreat { block: b, to }));
                }
                BattleAction::Shelter { block, square } => {
                    twins(block)
                        .into_iter()
                        .for_each(|b| add(BattleAction::Shelter { block: b, square }));
                }
                // A hit among hidden blocks (ruling R25): every block it may fall on, whether
                // one is strongest or several tie, so the entries tell neither.
                BattleAction::TakeHit(_) if battle.hit_among_hidden() => battle
                    .hit_group()
                    .into_iter()
                    .for_each(|b| add(BattleAction::TakeHit(b))),
                BattleAction::TakeHit(block) => {
                    twins(block)
                        .into_iter()
                        .for_each(|b| add(BattleAction::TakeHit(b)));
                }
                BattleAction::FormSquare(block) => twins(block)
                    .into_iter()
                    .for_each(|b| add(BattleAction::FormSquare(b))),
                BattleAction::Occupy(block) => {
                    twins(block)
                        .into_iter()
                        .for_each(|b| add(BattleAction::Occupy(b)));
                }
                BattleAction::Reveal(_) => {
                    // Every block of the army in the skirmish, chosen or not: which were
                    // chosen stays hidden until the attacker has chosen (6.6).
                    for &(b, _, _) in &hidden {
                        add(BattleAction::Reveal(b));
                    }
                }
                BattleAction::Reinforce(block) => twins(block)
                    .into_iter()
                    .for_each(|b| add(BattleAction::Reinforce(b))),
                other => add(other),
            }
        }
        let mut entries: Vec<(String, NapoleonAction)> = actions
            .into_iter()
            .map(|a| {
                let na = NapoleonAction {
                    action: Action::Battle(a),
                    slot: None,
                };
                (self.menu_label(&na), na)
            })
            .collect();
        // The end of the step first (the commonest choice), then by kind, by the slot of the
        // block, then by the words.
        entries.sort_by_cached_key(|(label, na)| {
            let Action::Battle(a) = na.action else {
                return (0, self.place_order(None), label.clone());
            };
            (
                kind_rank(&a),
                self.place_order(a.block().and_then(|b| self.place_of(b)).as_ref()),
                label.clone(),
            )
        });
        entries
    }

    /// A battle action as its menu entry names it: as [`NapoleonTable::battle_label`], but a
    /// skirmish's pick and a hit's names its slot (the player choosing must see which entry is
    /// which).
    pub(super) fn menu_label(&self, action: &NapoleonAction) -> String {
        match action.action {
            Action::Battle(BattleAction::Reveal(block)) => {
                format!("show the block on {}", self.slot_words(block))
            }
            Action::Battle(BattleAction::TakeHit(block)) => {
                format!("{} takes the hit", self.slot_words(block))
            }
            _ => self.label(action),
        }
    }

    /// A battle action in words the whole table may read: blocks by their slots.
    pub(super) fn battle_label(&self, action: &BattleAction, slot: Option<Place>) -> String {
        let who = self.acting();
        let to_slot = |fallback: String| slot.map_or(fallback, |s| self.choice.place_name(&s));
        let side_of = |block: BlockId| {
            self.army_of(block)
                .and_then(|a| self.game.battle().and_then(|b| b.side_of(a)))
                .unwrap_or(Side::Attacker)
        };
        match *action {
            BattleAction::DrawTerrain(_) => "a terrain block drawn in secret".to_string(),
            BattleAction::Die(face) => format!("morale die: {face}"),
            BattleAction::Hits(0) => "the volley: no hit".to_string(),
            BattleAction::Hits(1) => "the volley: 1 hit".to_string(),
            BattleAction::Hits(n) => format!("the volley: {n} hits"),
            BattleAction::PlaceTerrain(wing) => {
                let side = match self.game.battle().map(Battle::actor) {
                    Some(BattleActor::Army(a)) => self
                        .game
                        .battle()
                        .and_then(|b| b.side_of(a))
                        .unwrap_or(Side::Attacker),
                    _ => Side::Attacker,
                };
                format!(
                    "{who}: the terrain drawn to {}",
                    self.zone_name(Zone::new(side, wing))
                )
            }
            BattleAction::Deploy { block, to } | BattleAction::Move { block, to } => format!(
                "{} to {}",
                self.slot_words(block),
                to_slot(self.field_name(side_of(block), to))
            ),
            // Which blocks were chosen stays hidden until the attacker has chosen (6.6): the
            // block is named only in the menu (`menu_label`).
            BattleAction::Reveal(block) => {
                format!("the {} chooses a block", side_word(side_of(block)))
            }
            BattleAction::Fire { block, at, target } => match target {
                Target::Line => {
                    format!("{} fires at {}", self.slot_words(block), self.zone_name(at))
                }
                Target::Square(sq) => format!(
                    "{} fires at the square on {}",
                    self.slot_words(block),
                    self.slot_words(sq)
                ),
            },
            // Which block a hit among hidden blocks was put on is told by the hands' step
            // (the slot turned down); a pick refused is told without its slot, which would
            // say that block is not among the strongest (ruling R25).
            BattleAction::TakeHit(_)
                if self.game.battle().is_some_and(Battle::hit_among_hidden) =>
            {
                format!("{who}: a block takes the hit")
            }
            BattleAction::TakeHit(block) => format!("{} takes the hit", self.slot_words(block)),
            BattleAction::FormSquare(block) => {
                format!("{} forms a square", self.slot_words(block))
            }
            BattleAction::Shelter { block, square } => format!(
                "{} shelters in the square on {}",
                self.slot_words(block),
                self.slot_words(square)
            ),
            BattleAction::Occupy(block) => {
                format!("{} takes the farm or hill", self.slot_words(block))
            }
            BattleAction::Retreat { block, to } => format!(
                "{} retreats to {}",
                self.slot_words(block),
                to_slot(self.choice.town_name(to).to_string())
            ),
            BattleAction::Reinforce(block) => format!(
                "{} to {}",
                self.slot_words(block),
                to_slot(self.reserve_name(side_of(block)))
            ),
            BattleAction::Done => match self.game.battle().map(Battle::step) {
                Some(Step::Deployment) => format!("{who}: deployment done"),
                Some(Step::SkirmishReveal) => format!("{who}: blocks shown"),
                Some(Step::Reinforcement) => format!("{who}: reinforcements done"),
                Some(Step::Rout) => format!("{who}: retreats done"),
                _ => format!("{who}: end the fight"),
            },
        }
    }

    /// The prompt while a battle is fought.
    pub(super) fn battle_prompt(&self, battle: &Battle) -> String {
        let who = self.acting();
        let board = self
            .board_of(battle.town())
            .map_or_else(|| "the OK menu".to_string(), |n| format!("board {}", n + 1));
        let view: BattleView = battle.view(None);
        if battle.actor() == BattleActor::Chance {
            return match view.volley {
                Some((dice, on)) => {
                    format!("press Die: the volley, {dice} dice hitting on {on} or less")
                }
                None => "press Die: the morale die".to_string(),
            };
        }
        match battle.step() {
            Step::Terrain => format!(
                "{who}: put the terrain drawn on a terrain spot of your half of {board}, or OK"
            ),
            Step::Deployment => format!("{who}: deploy on {board}: reserve to wings, then OK"),
            Step::SkirmishReveal => format!("{who}: skirmish: OK, show 1 to 4 blocks"),
            Step::Morale => format!("{who}: the block falls back: move it, or OK"),
            Step::Fight => format!(
                "{who}: move blocks, or fire: lift and put back the firer, lift its target; OK \
                 for more"
            ),
            Step::Losses => format!("{who}: OK, choose which block takes the hit"),
            Step::Reinforcement => format!(
                "{who}: reinforcements: a block from its town to your reserve; OK when done"
            ),
            Step::Rout => {
                format!("{who}: retreat: lift a block, put it on a town's slot; OK when done")
            }
            Step::SkirmishFire | Step::Over => format!("{who}: OK"),
        }
    }

    /// What the public view of the battle fought now shows and hides of its blocks on the
    /// field and in the reserves, built once: taken before an action (a rout may end the
    /// battle and the campaign begin another in the same action) and after it.
    pub(super) fn sight(&self) -> Sight {
        let Some(battle) = self.game.battle() else {
            return Sight::default();
        };
        let mut sight = Sight {
            town: Some(battle.town()),
            ..Sight::default()
        };
        for b in battle.view_of(&Army::ALL).blocks {
            if let BlockView::Known {
                block,
                side,
                place: Some(_),
                revealed,
                ..
            } = b
            {
                if revealed {
                    sight.shown.insert(block);
                } else {
                    sight.hidden.insert(block);
                    sight.hiding.insert(side);
                }
            }
        }
        sight
    }

    /// `sides` with their armies' names in the battle fought now.
    pub(super) fn named_sides(&self, sides: &BTreeSet<Side>) -> Vec<(Side, String)> {
        sides
            .iter()
            .map(|&side| (side, self.side_armies(side)))
            .collect()
    }

    /// The hidden blocks' losses by type that `events` (of `action`) tell, for their owners
    /// alone: each block not in `seen` (the blocks the public view showed before or after the
    /// action) that loses steps by its type (a rout's, 7.4.1, or a retreat's from combat, 7)
    /// and is not eliminated by them, with the steps and its strength after. The table is told none of them ([`NapoleonTable::battle_told`]).
    pub(super) fn hidden_losses(
        &self,
        events: &[BattleEvent],
        action: &Action,
        seen: &BTreeSet<BlockId>,
    ) -> Vec<SecretLoss> {
        let hits = hits_of(events, action);
        let mut out: Vec<SecretLoss> = Vec::new();
        for &(block, strength, by_type) in &hits {
            let eliminated = events
                .iter()
                .any(|e| matches!(*e, BattleEvent::Eliminated { block: b, .. } if b == block));
            if !by_type || seen.contains(&block) || eliminated {
                continue;
            }
            match out.iter_mut().find(|l| l.block == block) {
                Some(l) => {
                    l.steps += 1;
                    l.strength = strength;
                }
                None => out.push(SecretLoss {
                    block,
                    steps: 1,
                    strength,
                }),
            }
        }
        out
    }

    /// A hidden block's loss by type in words for its owner's eyes alone: "Loss by type (7.4.1):
    /// board 1 defender reserve 2 (PI-ART): turn it two steps down, to 1".
    pub(super) fn secret_loss_words(&self, loss: &SecretLoss) -> String {
        let name = self
            .choice
            .campaign()
            .order_of_battle()
            .block(loss.block)
            .map_or("", |b| b.name.as_str());
        format!(
            "Loss by type (7.4.1): {} ({name}): turn it {} down, to {}",
            self.slot_words(loss.block),
            steps_words(loss.steps),
            loss.strength
        )
    }

    /// What a battle's events tell the table, the blocks having stood on `before` when the
    /// action began and on `held` as the hands left them (a block lost by the move the hands
    /// just made is on its new slot). A block's losses are one hand step: the steps it turns
    /// down, or, eliminated, the tray alone. A hidden block's losses by type (a rout's, 7.4.1,
    /// or a retreat's from combat, 7) are never told, nor counted in its steps: the loss tells
    /// the type (foot artillery loses 2); only a block in `seen` (shown by the public view
    /// before or after the action) is told them. A rout asks its side, in one line, to take
    /// them on its hidden blocks (each block's loss is on the owner's page,
    /// [`NapoleonTable::hidden_losses`]), and tells the blocks it eliminates in the order of
    /// their places. The fire of `action`, whose own label names it with its target ("...
    /// fires at board 1 defender left"), is told as its volley alone, short enough to stand
    /// whole on the OLED under that label.
    pub(super) fn battle_told(
        &self,
        events: &[BattleEvent],
        before: &[Option<Place>],
        held: &[Option<Place>],
        ended: Option<TownId>,
        action: &Action,
        known: &Known,
    ) -> Vec<String> {
        let seen = &known.seen;
        let mut out = Vec::new();
        let fired = match *action {
            Action::Battle(BattleAction::Fire { block, .. }) => Some(block),
            _ => None,
        };
        let was_on = |block: BlockId| self.was_on(before, block);
        let held_on = |block: BlockId| self.was_on(held, block);
        let eliminated: BTreeSet<BlockId> = events
            .iter()
            .filter_map(|e| match *e {
                BattleEvent::Eliminated { block, .. } => Some(block),
                _ => None,
            })
            .collect();
        let hits = hits_of(events, action);
        // The steps the table may be told of a block: all of a seen block's, only the hits a
        // hidden block took from a volley.
        let told_steps = |block: BlockId| {
            hits.iter()
                .filter(|&&(b, _, by_type)| b == block && (!by_type || seen.contains(&block)))
                .count()
        };
        let mut told_hits: BTreeSet<BlockId> = BTreeSet::new();
        let mut told_eliminated: BTreeSet<BlockId> = BTreeSet::new();
        // The last block set up begins the battle: the blocks it reveals are laid flat.
        let deployed = matches!(*action, Action::Battle(BattleAction::Deploy { .. }));
        let mut told_flat = false;
        // What the action showed or hid again, told before the battle goes on to a new turn
        // or a rout (a battle that ends has nothing to tell: its blocks leave the board).
        let mut sight = self.sight_words(events, known);
        // The battle's town: the one fought now, or the one just ended.
        let town = self.game.battle().map(Battle::town).or(ended);
        // The volley whose hits come next: the last fire before this action (its dice are
        // rolled now), then each fire this action makes (a skirmish's next volley).
        let mut shot = self.shot.clone();
        for e in events {
            if let Some(fired) = self.fire_shot(e) {
                shot = Some(fired);
            }
            if matches!(*e, BattleEvent::TurnBegan { .. } | BattleEvent::Rout(_)) {
                out.append(&mut sight);
            }
            match *e {
                BattleEvent::TerrainDrawn { side, .. } => out.push(format!(
                    "the {} ({}) draws a terrain block in secret",
                    side_word(side),
                    self.side_armies(side)
                )),
                BattleEvent::TerrainPlaced { zone, kind } => {
                    out.push(format!("{kind} on {}, face up", self.zone_name(zone)));
                }
                // The battle begins (6.2.4): what the hands do first, then each block laid
                // flat, in the order of their places.
                BattleEvent::Revealed { .. } if deployed => {
                    if told_flat {
                        continue;
                    }
                    told_flat = true;
                    let mut flat: Vec<(PlaceOrder, String)> = events
                        .iter()
                        .filter_map(|e| match *e {
                            BattleEvent::Revealed { block, strength } => Some((
                                self.place_order(self.place_of(block).as_ref()),
                                self.revealed_words(block, strength)?,
                            )),
                            _ => None,
                        })
                        .collect();
                    if !flat.is_empty() {
                        flat.sort();
                        out.push(LAY_FLAT.to_string());
                        out.extend(flat.into_iter().map(|(_, words)| words));
                    }
                }
                BattleEvent::Revealed { block, strength } => {
                    out.extend(self.revealed_words(block, strength));
                }
                BattleEvent::Fired {
                    block,
                    dice,
                    hits_on,
                    ..
                } if Some(block) == fired => out.push(format!(
                    "the volley: {dice} dice hitting on {hits_on} or less"
                )),
                BattleEvent::Fired {
                    block,
                    at,
                    dice,
                    hits_on,
                } => {
                    let side = self
                        .army_of(block)
                        .and_then(|a| self.game.battle()?.side_of(a))
                        .map_or(at.half, Side::other);
                    out.push(format!(
                        "{} fires at {}: {dice} dice hitting on {hits_on} or less",
                        was_on(block),
                        self.target_name(at, side)
                    ));
                }
                BattleEvent::Hits { hits } => {
                    let Some(target) = &shot else {
                        continue;
                    };
                    let hits_words = match hits {
                        0 => {
                            out.push("no hit".to_string());
                            continue;
                        }
                        1 => "1 hit".to_string(),
                        n => format!("{n} hits"),
                    };
                    // Where the hits go, short enough to stand whole on the OLED under the
                    // volley's title: the zone says whose blocks, and the prompt asks the
                    // owner to choose between equals, or among blocks the firer cannot see.
                    out.push(format!(
                        "{hits_words} on {target}: the strongest block takes each"
                    ));
                }
                BattleEvent::Hit { block, .. }
                    if !eliminated.contains(&block)
                        && told_steps(block) > 0
                        && told_hits.insert(block) =>
                {
                    // Told once, with its strength after the last of them.
                    let strength = events
                        .iter()
                        .rev()
                        .find_map(|e| match *e {
                            BattleEvent::Hit { block: b, strength } if b == block => Some(strength),
                            _ => None,
                        })
                        .unwrap_or_default();
                    let steps = steps_words(told_steps(block));
                    match self.public_name(block) {
                        Some(name) => out.push(format!(
                            "{} ({name}): turn the block {steps} down, to {strength}",
                            held_on(block)
                        )),
                        None => {
                            out.push(format!("{}: turn the block {steps} down", held_on(block)))
                        }
                    }
                }
                BattleEvent::Hit { .. } => {}
                BattleEvent::HitLost => out.push("a hit is lost".to_string()),
                BattleEvent::Eliminated { block, .. } if told_eliminated.insert(block) => {
                    out.push(self.eliminated_words(held, block));
                }
                BattleEvent::Eliminated { .. } => {}
                BattleEvent::Morale { block, total, held } => out.push(format!(
                    "{}: morale {total}, {}",
                    was_on(block),
                    if held { "it holds" } else { "it falls back" }
                )),
                BattleEvent::SquareFormed(block) => {
                    out.push(format!("{} forms a square", was_on(block)));
                }
                BattleEvent::Sheltered { block, square } => out.push(format!(
                    "{} shelters in the square on {}",
                    was_on(block),
                    was_on(square)
                )),
                BattleEvent::Occupied(block) => {
                    out.push(format!("{} takes the farm or hill", was_on(block)));
                }
                BattleEvent::Reinforced { from, side, .. } => out.push(format!(
                    "a block from {} joins the {} reserve",
                    self.choice.town_name(from),
                    side_word(side)
                )),
                // Where to is the action's own label ("... retreats to Charleroi slot 6").
                BattleEvent::Retreated { block, .. } => {
                    out.push(format!("{} is disordered", was_on(block)));
                }
                // Short enough to stand whole on the OLED under a move's title.
                BattleEvent::Rout(side) => {
                    out.push(format!(
                        "the {} routs: losses by type, then retreats",
                        side_word(side)
                    ));
                    // Whether the side had hidden blocks is public; which of them lose what
                    // is not. Judged as the action began: it may end this battle.
                    if let Some((_, armies)) = known.hiding.iter().find(|(s, _)| *s == side) {
                        out.push(format!(
                            "{armies}: rout losses (7.4.1): turn your hidden blocks down by type"
                        ));
                    }
                    // The blocks the rout eliminates, by their places, never in the order of
                    // battle (which tells each army's leader and corps).
                    let mut lost: Vec<BlockId> = events
                        .iter()
                        .skip_while(|e| **e != BattleEvent::Rout(side))
                        .filter_map(|e| match *e {
                            BattleEvent::Eliminated { block, .. } => Some(block),
                            _ => None,
                        })
                        .filter(|b| !told_eliminated.contains(b))
                        .collect();
                    lost.sort_by_key(|b| {
                        self.place_order(held.get(b.index()).copied().flatten().as_ref())
                    });
                    for block in lost {
                        told_eliminated.insert(block);
                        out.push(self.eliminated_words(held, block));
                    }
                }
                BattleEvent::TurnBegan { side, turn } => out.push(format!(
                    "battle turn {turn}: the {} ({})",
                    side_word(side),
                    self.side_armies(side)
                )),
                BattleEvent::Over(ending) => {
                    // The battle that ended, not the next one begun by the same action.
                    let at = ended.or(town).map_or("", |t| self.choice.town_name(t));
                    out.push(match ending {
                        Ending::Won { winner, how } => format!(
                            "the {} wins at {at}: the {} {}",
                            side_word(winner),
                            side_word(winner.other()),
                            match how {
                                Defeat::Retreated => "retreated",
                                Defeat::Routed => "routed",
                                Defeat::Destroyed => "was destroyed",
                                Defeat::Skirmish => "lost the skirmish",
                            }
                        ),
                        Ending::Stalemate => {
                            format!("stalemate at {at}: the attacker withdraws")
                        }
                    });
                }
                BattleEvent::Deployed { .. } | BattleEvent::Moved { .. } => {}
            }
        }
        out.append(&mut sight);
        out
    }

    /// A block eliminated, from where the hands left it (`held`) to its army's tray: "board 1
    /// defender reserve 2: eliminated: put it on Prussian eliminated 1".
    fn eliminated_words(&self, held: &[Option<Place>], block: BlockId) -> String {
        let tray = self
            .place_of(block)
            .map_or_else(|| "its tray".to_string(), |p| self.choice.place_name(&p));
        format!("{}: eliminated: put it on {tray}", self.was_on(held, block))
    }

    /// The fire just made: the zone fired at and the side hit, for the volley's words.
    pub(super) fn shot_of(&self, events: &[BattleEvent]) -> Option<String> {
        events.iter().rev().find_map(|e| self.fire_shot(e))
    }

    /// Where one fire event aims, in words, named while its battle is fought (its hits may
    /// be rolled by the action that ends the battle); `None` for any other event.
    fn fire_shot(&self, e: &BattleEvent) -> Option<String> {
        match *e {
            BattleEvent::Fired { block, at, .. } => {
                let army = self.army_of(block)?;
                let side = self.game.battle()?.side_of(army)?;
                Some(self.target_name(at, side.other()))
            }
            _ => None,
        }
    }

    /// What the seat alone may know: the terrain block its side drew and has not placed.
    pub(super) fn drawn_terrain(&self, seats: &[boards::Seat]) -> Vec<String> {
        let mut out = Vec::new();
        for &s in seats {
            let Some(kind) = self.game.view(s).battle.and_then(|b| b.drawn) else {
                continue;
            };
            let line = format!(
                "You drew {kind}: put it face up on a terrain spot of one of your wings, or \
                 choose the wing from the OK menu."
            );
            if !out.contains(&line) {
                out.push(line);
            }
        }
        out
    }
}

/// The reserve and `side`'s own wings: where a block of `side` may deploy, as far as its
/// place says (6.2.2).
/// Every fight action of a hidden block of `side` standing in `zone` that the public facts
/// allow, whatever its type, strength or whether it has moved or fired (6.3.3, 6.5, 6.2.1):
/// fire at each enemy group in its zone and, across an open facing zone no block of its side
/// stands in, at each there; a square when its zone is its own side's and not woods; shelter
/// in each square of its side in its zone; the zone's farm or hill. Which of them the block
/// can take tells its type, so all are listed and the rules refuse the wrong ones.
fn fight_entries(
    public: &BattleView,
    truth: &BattleView,
    block: BlockId,
    side: Side,
    zone: Zone,
) -> Vec<BattleAction> {
    let terrain = |z: Zone| {
        public
            .terrain
            .iter()
            .find_map(|&(t, kind)| (t == z).then_some(kind))
    };
    // Who stands in a zone is public; so is a square (formed before the whole table).
    let stands = |z: Zone, s: Side| {
        truth.blocks.iter().filter_map(move |b| match *b {
            BlockView::Known {
                block,
                side: bs,
                place: Some(Field::Zone(bz)),
                square,
                ..
            } if bs == s && bz == z => Some((block, square)),
            _ => None,
        })
    };
    let groups = |z: Zone| {
        let mut out = Vec::new();
        if stands(z, side.other()).any(|(_, square)| !square) {
            out.push(Target::Line);
        }
        out.extend(
            stands(z, side.other())
                .filter(|&(_, square)| square)
                .map(|(b, _)| Target::Square(b)),
        );
        out
    };
    let mut out: Vec<BattleAction> = groups(zone)
        .into_iter()
        .map(|target| BattleAction::Fire {
            block,
            at: zone,
            target,
        })
        .collect();
    let far = zone.facing();
    if terrain(far) != Some(TerrainKind::Woods) && stands(far, side).next().is_none() {
        out.extend(groups(far).into_iter().map(|target| BattleAction::Fire {
            block,
            at: far,
            target,
        }));
    }
    if zone.half == side && terrain(zone) != Some(TerrainKind::Woods) {
        out.push(BattleAction::FormSquare(block));
    }
    out.extend(
        stands(zone, side)
            .filter(|&(b, square)| square && b != block)
            .map(|(square, _)| BattleAction::Shelter { block, square }),
    );
    if matches!(terrain(zone), Some(TerrainKind::Farm | TerrainKind::Hill)) {
        out.push(BattleAction::Occupy(block));
    }
    out
}

fn own_places(side: Side) -> [Field; 4] {
    [
        Field::Reserve,
        Field::Zone(Zone::new(side, Wing::Left)),
        Field::Zone(Zone::new(side, Wing::Centre)),
        Field::Zone(Zone::new(side, Wing::Right)),
    ]
}

/// Each hit `events` (of `action`) tell, in order: the block, its strength after, and whether
/// it is a loss by the block's type (7.4.1) rather than a volley's the table saw fall: every
/// hit after a rout (7.4.1), and every hit of a retreat, which costs a block in combat its
/// rout loss (7).
fn hits_of(events: &[BattleEvent], action: &Action) -> Vec<(BlockId, u8, bool)> {
    let retreating = matches!(action, Action::Battle(BattleAction::Retreat { .. }));
    let mut routed = false;
    let mut out = Vec::new();
    for e in events {
        match *e {
            BattleEvent::Rout(_) => routed = true,
            BattleEvent::Hit { block, strength } => {
                out.push((block, strength, routed || retreating))
            }
            _ => {}
        }
    }
    out
}

/// "one step", "two steps", "3 steps".
fn steps_words(steps: usize) -> String {
    match steps {
        1 => "one step".to_string(),
        2 => "two steps".to_string(),
        n => format!("{n} steps"),
    }
}

/// The places one step from `from` for a block of `side` (6.3.2): the reserve to any own
/// wing, an own wing back to the reserve or forward to the facing zone, an enemy zone back to
/// the facing own zone.
fn steps(side: Side, from: Field) -> Vec<Field> {
    match from {
        Field::Reserve => own_places(side)[1..].to_vec(),
        Field::Zone(z) if z.half == side => vec![Field::Reserve, Field::Zone(z.facing())],
        Field::Zone(z) => vec![Field::Zone(z.facing())],
    }
}

/// Where an action's kind comes in the battle's menu: the end of the step first.
fn kind_rank(action: &BattleAction) -> u8 {
    match action {
        BattleAction::Done => 0,
        BattleAction::PlaceTerrain(_) => 1,
        BattleAction::Deploy { .. } | BattleAction::Move { .. } => 2,
        BattleAction::Reveal(_) => 3,
        BattleAction::Fire { .. } => 4,
        BattleAction::TakeHit(_) => 5,
        BattleAction::FormSquare(_) => 6,
        BattleAction::Shelter { .. } => 7,
        BattleAction::Occupy(_) => 8,
        BattleAction::Retreat { .. } => 9,
        BattleAction::Reinforce(_) => 10,
        BattleAction::DrawTerrain(_) | BattleAction::Die(_) | BattleAction::Hits(_) => 11,
    }
}
