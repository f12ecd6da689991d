//! The order of battle as data: the blocks, read from an editable text file
//! ([`DEFAULT_ORDER_OF_BATTLE`]) and checked against a [`Map`].

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::army::Army;
use super::data::{entries, good_code, number, DataProblem, Report};
use super::map::Map;
use crate::geometry::roads::TownId;
use crate::Problems;

/// The default order of battle, embedded: 58 blocks, graded.
pub const DEFAULT_ORDER_OF_BATTLE: &str = include_str!("oob.txt");

/// The most blocks an order of battle may hold.
const MAX_BLOCKS: usize = u8::MAX as usize;
/// The most strength a block has: a block has four edges (3.4).
pub(crate) const MAX_STRENGTH: u16 = 4;

/// What a block is (3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum UnitType {
    /// Napoléon, Wellington or Blücher with his staff (3.6.1, 8).
    Leader,
    /// Crossed muskets (3.6.2).
    Infantry,
    /// Crossed sabres, F3 (3.6.3).
    HeavyCavalry,
    /// Crossed sabres, F2 (3.6.3), or F1 like 6.3.3's example's "4F1 cavalerie".
    LightCavalry,
    /// Artillery that moves like infantry (3.6.4).
    FootArtillery,
    /// Artillery that moves like cavalry and may move and fire in one battle turn (3.6.4).
    HorseArtillery,
}

impl UnitType {
    /// The six types, in order.
    pub const ALL: [UnitType; 6] = [
        UnitType::Leader,
        UnitType::Infantry,
        UnitType::HeavyCavalry,
        UnitType::LightCavalry,
        UnitType::FootArtillery,
        UnitType::HorseArtillery,
    ];

    /// The word the order-of-battle file uses.
    pub const fn word(self) -> &'static str {
        match self {
            UnitType::Leader => "leader",
            UnitType::Infantry => "infantry",
            UnitType::HeavyCavalry => "heavy-cavalry",
            UnitType::LightCavalry => "light-cavalry",
            UnitType::FootArtillery => "foot-artillery",
            UnitType::HorseArtillery => "horse-artillery",
        }
    }

    fn parse(word: &str) -> Option<UnitType> {
        UnitType::ALL.into_iter().find(|t| t.word() == word)
    }

    /// Heavy or light cavalry.
    pub const fn is_cavalry(self) -> bool {
        matches!(self, UnitType::HeavyCavalry | UnitType::LightCavalry)
    }

    /// Foot or horse artillery.
    pub const fn is_artillery(self) -> bool {
        matches!(self, UnitType::FootArtillery | UnitType::HorseArtillery)
    }

    /// Leaders, cavalry and horse artillery move two towns, the rest one (5.3).
    pub const fn is_fast(self) -> bool {
        matches!(
            self,
            UnitType::Leader
                | UnitType::HeavyCavalry
                | UnitType::LightCavalry
                | UnitType::HorseArtillery
        )
    }
}

impl fmt::Display for UnitType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A block's printed firepower: it hits on this number or less (3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Firepower {
    /// Hits on a 1.
    F1,
    /// Hits on 1 or 2.
    F2,
    /// Hits on 1, 2 or 3.
    F3,
}

impl Firepower {
    /// The highest die face that hits.
    pub const fn hits_on(self) -> u8 {
        match self {
            Firepower::F1 => 1,
            Firepower::F2 => 2,
            Firepower::F3 => 3,
        }
    }

    fn parse(word: &str) -> Option<Firepower> {
        match word {
            "F1" | "f1" => Some(Firepower::F1),
            "F2" | "f2" => Some(Firepower::F2),
            "F3" | "f3" => Some(Firepower::F3),
            _ => None,
        }
    }
}

impl fmt::Display for Firepower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "F{}", self.hits_on())
    }
}

/// A block of an [`OrderOfBattle`], numbered from 0 in file order. An order of battle hands
/// these out; one decoded from a journal may name no block, and every rule that reads it
/// (`OrderOfBattle::block`, the game's `check`) refuses it then. It decodes only below
/// 255, the most blocks any order of battle holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct BlockId(u8);

impl TryFrom<u8> for BlockId {
    type Error = crate::decode::OutOfRange;
    fn try_from(n: u8) -> Result<BlockId, Self::Error> {
        if usize::from(n) < MAX_BLOCKS {
            Ok(BlockId(n))
        } else {
            Err(crate::decode::OutOfRange::new(
                "a Napoléon block number",
                n,
                "0 to 254",
            ))
        }
    }
}

impl BlockId {
    /// The number, usable to index per-block arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A corps of an [`OrderOfBattle`] (6.2.3: only one corps per battle position, unless a leader
/// stands there). Only an order of battle hands these out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CorpsId(u8);

impl CorpsId {
    /// The number, usable to index per-corps arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A corps: its army and the name printed on its blocks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Corps {
    /// The army it belongs to.
    pub army: Army,
    /// Its name (`I`, `Garde`, `3CC`); unique within the army.
    pub name: String,
}

/// One block, as the order-of-battle card gives it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Block {
    /// Its unique short name (`G-INF`).
    pub name: String,
    /// Its army.
    pub army: Army,
    /// Its corps; `None` for a leader.
    pub corps: Option<CorpsId>,
    /// What it is.
    pub kind: UnitType,
    /// Its full strength, 1 to 4; a leader's is 1 (3.3, 8).
    pub strength: u8,
    /// Its printed firepower.
    pub firepower: Firepower,
    /// Where it historically starts (4.3), a town of its army's set-up area.
    pub start: TownId,
}

/// The validated order of battle. Build one with [`OrderOfBattle::parse`] against the map its
/// start towns come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderOfBattle {
    blocks: Vec<Block>,
    corps: Vec<Corps>,
}

impl OrderOfBattle {
    /// The default order of battle ([`DEFAULT_ORDER_OF_BATTLE`]) on `map`.
    ///
    /// # Errors
    /// None on the default map (tested); on another map, a start town it lacks.
    pub fn standard(map: &Map) -> Result<OrderOfBattle, Problems<DataProblem>> {
        OrderOfBattle::parse(DEFAULT_ORDER_OF_BATTLE, map)
    }

    /// Reads an order-of-battle file whose start towns are on `map`.
    ///
    /// # Errors
    /// Every problem, each with its line: unknown armies, types or firepower; strengths out of
    /// range; block names given twice; start towns not on the map or outside the army's set-up
    /// area; cavalry whose firepower contradicts its weight; not exactly one leader per army.
    pub fn parse(text: &str, map: &Map) -> Result<OrderOfBattle, Problems<DataProblem>> {
        let draft = Draft::read(text, Some(map));
        draft.report.finish(OrderOfBattle {
            blocks: draft.blocks,
            corps: draft.corps,
        })
    }

    /// The problems of an order-of-battle file read without a map (the map file has problems
    /// of its own): everything but the start towns is checked.
    pub(super) fn problems_without_map(text: &str) -> Vec<DataProblem> {
        match Draft::read(text, None).report.finish(()) {
            Ok(()) => Vec::new(),
            Err(problems) => problems.0,
        }
    }

    /// How many blocks.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Whether there are no blocks (never, for a parsed order of battle).
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Block `id`, if this order of battle has it.
    pub fn block(&self, id: BlockId) -> Option<&Block> {
        self.blocks.get(id.index())
    }

    /// Every block with its id, in file order.
    pub fn blocks(&self) -> impl Iterator<Item = (BlockId, &Block)> + '_ {
        self.blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (BlockId(i as u8), b))
    }

    /// The block with this name, ignoring ASCII case.
    pub fn find(&self, name: &str) -> Option<BlockId> {
        self.blocks()
            .find(|(_, b)| b.name.eq_ignore_ascii_case(name))
            .map(|(id, _)| id)
    }

    /// `army`'s blocks, in file order.
    pub fn army(&self, army: Army) -> impl Iterator<Item = (BlockId, &Block)> + '_ {
        self.blocks().filter(move |(_, b)| b.army == army)
    }

    /// `army`'s leader (every parsed order of battle has exactly one per army).
    pub fn leader(&self, army: Army) -> Option<&Block> {
        self.army(army)
            .find(|(_, b)| b.kind == UnitType::Leader)
            .map(|(_, b)| b)
    }

    /// Corps `id`, if this order of battle has it.
    pub fn corps(&self, id: CorpsId) -> Option<&Corps> {
        self.corps.get(id.index())
    }

    /// Every corps with its id, in order of first appearance.
    pub fn all_corps(&self) -> impl Iterator<Item = (CorpsId, &Corps)> + '_ {
        self.corps
            .iter()
            .enumerate()
            .map(|(i, c)| (CorpsId(i as u8), c))
    }
}

/// An order-of-battle file read line by line.
#[derive(Default)]
struct Draft {
    report: Report,
    /// The sound blocks, in file order.
    blocks: Vec<Block>,
    corps: Vec<Corps>,
    /// Every well-formed block name (upper-cased) -> line.
    names: BTreeMap<String, usize>,
    /// Per army, the lines of its leaders.
    leaders: [Vec<usize>; 3],
    /// Per army, whether any of its blocks was read.
    seen: [bool; 3],
}

impl Draft {
    /// Reads every entry of `text`, then checks the leaders.
    fn read(text: &str, map: Option<&Map>) -> Draft {
        let mut draft = Draft::default();
        for entry in entries(text) {
            if entry.words[0] == "block" {
                draft.block(entry.line, &entry.words, map);
            } else {
                draft.report.at(
                    entry.line,
                    format!(
                        "'{}' is not an entry: start the line with block (or # for a comment)",
                        entry.words[0]
                    ),
                );
            }
        }
        draft.check_leaders();
        draft
    }

    /// `block <ID> <army> <corps> <type> <strength> <firepower> <start>`.
    fn block(&mut self, line: usize, words: &[&str], map: Option<&Map>) {
        let Some(&[name, army, corps, kind, strength, fire, start]) = words.get(1..) else {
            self.report.at(
                line,
                "a block needs a name, army, corps, type, strength, firepower and start town: \
                 `block G-INF french Garde infantry 4 F2 BEA`"
                    .to_string(),
            );
            return;
        };
        let subject = format!("block {name}");
        let report = &mut self.report;
        let mut ok = true;
        if !good_code(name) {
            report.at(
                line,
                format!("{subject}: a name is 1 to 12 letters, digits, `-` or `_`"),
            );
            ok = false;
        } else if let Some(first) = self.names.get(&name.to_ascii_uppercase()) {
            report.at(
                line,
                format!("{subject} is listed twice (first on line {first}): rename one"),
            );
            ok = false;
        } else {
            self.names.insert(name.to_ascii_uppercase(), line);
        }
        let parsed_army = Army::parse(army);
        if parsed_army.is_none() {
            report.at(
                line,
                format!("{subject}: unknown army '{army}': write french, ad or pr"),
            );
        }
        let parsed_kind = UnitType::parse(kind);
        if parsed_kind.is_none() {
            report.at(
                line,
                format!(
                    "{subject}: unknown type '{kind}': write leader, infantry, heavy-cavalry, \
                     light-cavalry, foot-artillery or horse-artillery"
                ),
            );
        }
        let strength = number(
            report,
            line,
            &subject,
            "the strength",
            strength,
            1,
            MAX_STRENGTH,
        )
        .map(|n| n as u8);
        let firepower = Firepower::parse(fire);
        if firepower.is_none() {
            report.at(
                line,
                format!("{subject}: unknown firepower '{fire}': write F1, F2 or F3"),
            );
        }
        // Without a map (its file has problems of its own) start towns wait for a sound one.
        let town = map.and_then(|m| m.town(start));
        if map.is_some() && town.is_none() {
            report.at(
                line,
                format!("{subject}: no town {start} on the map; use a town code from the map file"),
            );
        }
        let (Some(army), Some(kind), Some(strength), Some(firepower)) =
            (parsed_army, parsed_kind, strength, firepower)
        else {
            return;
        };
        self.seen[army as usize] = true;
        let area = town.and_then(|t| map?.info(t)).map(|i| i.area);
        if let Some(area) = area.filter(|&a| a != army) {
            report.at(
                line,
                format!(
                    "{subject}: {start} is in the {}, but {army} units set up in the {} (4.1, \
                     4.2): choose another start town",
                    area_word(area),
                    area_word(army),
                ),
            );
            ok = false;
        }
        match kind {
            UnitType::Leader => {
                self.leaders[army as usize].push(line);
                if strength != 1 {
                    report.at(
                        line,
                        format!("{subject}: a leader has strength 1 (8), not {strength}"),
                    );
                    ok = false;
                }
            }
            // 3.6.3 marks heavy cavalry F3 and light F2, and 6.3.3's worked example fires a
            // "4F1 cavalerie" block at its printed F1: light cavalry is any cavalry below F3.
            UnitType::HeavyCavalry if firepower != Firepower::F3 => {
                report.at(
                    line,
                    format!(
                        "{subject}: heavy cavalry is F3 (3.6.3), not {firepower}: fix the \
                         firepower or make it light-cavalry"
                    ),
                );
                ok = false;
            }
            UnitType::LightCavalry if firepower == Firepower::F3 => {
                report.at(
                    line,
                    format!(
                        "{subject}: light cavalry is F2, or F1 as in 6.3.3's example (3.6.3), not \
                         F3: fix the firepower or make it heavy-cavalry"
                    ),
                );
                ok = false;
            }
            _ => {}
        }
        let corps = match (corps, kind) {
            ("-", UnitType::Leader) => None,
            ("-", _) => {
                self.report.at(
                    line,
                    format!(
                        "{subject}: every unit but a leader belongs to a corps (6.2.3): give its \
                         corps instead of `-`"
                    ),
                );
                ok = false;
                None
            }
            (name, _) => {
                let id = self.corps_id(army, name);
                if id.is_none() {
                    self.report.at(
                        line,
                        format!(
                            "{subject}: a corps is 1 to 12 letters, digits, `-` or `_`, not \
                             '{name}'"
                        ),
                    );
                    ok = false;
                }
                id
            }
        };
        let (true, Some(town)) = (ok, town) else {
            return;
        };
        if self.blocks.len() == MAX_BLOCKS {
            self.report.at(
                line,
                format!("{subject}: at most {MAX_BLOCKS} blocks fit; remove some"),
            );
            return;
        }
        self.blocks.push(Block {
            name: name.to_string(),
            army,
            corps,
            kind,
            strength,
            firepower,
            start: town,
        });
    }

    /// The corps of `army` called `name`, added if new; `None` for a name that cannot be one
    /// (or when there are more corps than blocks can number).
    fn corps_id(&mut self, army: Army, name: &str) -> Option<CorpsId> {
        let found = self
            .corps
            .iter()
            .position(|c| c.army == army && c.name.eq_ignore_ascii_case(name));
        let index = match found {
            Some(i) => i,
            None if good_code(name) && self.corps.len() < MAX_BLOCKS => {
                self.corps.push(Corps {
                    army,
                    name: name.to_string(),
                });
                self.corps.len() - 1
            }
            None => return None,
        };
        u8::try_from(index).ok().map(CorpsId)
    }

    /// Each army has exactly one leader (3.6.1).
    fn check_leaders(&mut self) {
        for army in Army::ALL {
            match self.leaders[army as usize].as_slice() {
                [_] => {}
                [] if !self.seen[army as usize] => self.report.at(
                    0,
                    format!("no {army} blocks: add the army's blocks, with its leader"),
                ),
                [] => self.report.at(
                    0,
                    format!("the {army} army has no leader: add one block of type leader (3.6.1)"),
                ),
                [_, more @ ..] => {
                    for &line in more {
                        self.report.at(
                            line,
                            format!(
                                "a second {army} leader: each army has one leader (3.6.1); \
                                 remove one"
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// How the map file names `army`'s set-up area.
fn area_word(army: Army) -> &'static str {
    match army {
        Army::French => "French area (south of the border)",
        Army::AngloDutch => "Anglo-Dutch area (west of the brown line)",
        Army::Prussian => "Prussian area (east of the brown line)",
    }
}
