//! The strategic map as data: an editable text file ([`DEFAULT_MAP`]) read into a [`Map`], whose
//! road graph ([`RoadMap`]) is built from it.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::army::Army;
use super::data::{entries, good_code, number, DataProblem, Report};
use crate::geometry::roads::{RoadId, RoadMap, RoadMapSetup, TownId};
use crate::Problems;

/// The default map, embedded: a graded reconstruction of the 4th-edition board.
pub const DEFAULT_MAP: &str = include_str!("map.txt");

/// The most units a supply city may cost its army a turn (9).
pub(crate) const MAX_SUPPLY_LOSS: u8 = 9;

/// The width of a road, as drawn on the board: thick (broad) or thin (narrow) (rulebook 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Width {
    /// "Brede weg": a thick line.
    Broad,
    /// "Smalle weg": a thin line.
    Narrow,
}

impl Width {
    /// Both widths.
    pub const ALL: [Width; 2] = [Width::Broad, Width::Narrow];

    /// The word the map file uses.
    pub const fn word(self) -> &'static str {
        match self {
            Width::Broad => "broad",
            Width::Narrow => "narrow",
        }
    }

    fn parse(word: &str) -> Option<Width> {
        Width::ALL.into_iter().find(|w| w.word() == word)
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// What a road is, for the rules: its width and whether it crosses a river.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoadKind {
    /// Broad or narrow.
    pub width: Width,
    /// Whether the road crosses a river: attacking along it halves the limit (5.5).
    pub river: bool,
}

/// How many units may use one road of a width in one turn, by what they do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoadLimits {
    /// To move (5.4: broad 8, narrow 6).
    pub moving: u16,
    /// To attack along a road that crosses a river (5.5: broad 4, narrow 3).
    pub attacking_across_river: u16,
    /// To retreat, reinforce a battle or regroup, per battle turn (6.3.4, 7.2, 7.5: 2 and 1).
    pub retreating: u16,
}

/// What the map keeps about a town.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TownInfo {
    /// The short name the data files use (`BRU`).
    pub code: String,
    /// Who may set up here: the French in French towns (4.2), each Allied army on its side of
    /// the brown line, north of the border (4.1).
    pub area: Army,
    /// One of the major cities (rulebook 1: Brussel, Gent, Luik) rather than a town.
    pub city: bool,
}

/// An Allied supply city (rulebook 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SupplyCity {
    /// The city.
    pub town: TownId,
    /// The Allied army it supplies.
    pub army: Army,
    /// The units that army loses at the end of each French turn while the French hold it.
    pub loss: u8,
}

/// A kind of battle-board terrain block (6.2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TerrainKind {
    /// "Bos".
    Woods,
    /// "Versterkte hoeve": a fortified farm.
    Farm,
    /// "Stroom".
    Stream,
    /// "Heuvel".
    Hill,
}

impl TerrainKind {
    /// The four kinds, in order.
    pub const ALL: [TerrainKind; 4] = [
        TerrainKind::Woods,
        TerrainKind::Farm,
        TerrainKind::Stream,
        TerrainKind::Hill,
    ];

    /// The word the map file uses.
    pub const fn word(self) -> &'static str {
        match self {
            TerrainKind::Woods => "woods",
            TerrainKind::Farm => "farm",
            TerrainKind::Stream => "stream",
            TerrainKind::Hill => "hill",
        }
    }

    fn parse(word: &str) -> Option<TerrainKind> {
        TerrainKind::ALL.into_iter().find(|k| k.word() == word)
    }
}

/// The terrain blocks shuffled face down before each battle (6.2.1): how many of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TerrainPool {
    counts: [u8; 4],
}

impl TerrainPool {
    /// How many blocks of `kind`.
    pub const fn count(&self, kind: TerrainKind) -> u8 {
        self.counts[kind as usize]
    }

    /// How many blocks in all; at least 3 (a battle draws 1 + 2).
    pub fn total(&self) -> u16 {
        self.counts.iter().map(|&c| u16::from(c)).sum()
    }
}

/// The most terrain blocks of one kind.
const MAX_TERRAIN: u16 = 60;
/// The blocks one battle draws: one for the attacker, two for the defender (6.2.1).
const TERRAIN_PER_BATTLE: u16 = 3;

/// The validated strategic map. Build one with [`Map::parse`] or [`Map::standard`].
///
/// Town and road ids ([`TownId`], [`RoadId`]) come from its [`graph`](Map::graph), numbered in
/// file order; every id the map hands out (supply cities, neighbours, start towns of an order of
/// battle read against it) is one of its own. An id beyond its towns or roads gets `None` from
/// the accessors, never a panic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    graph: RoadMap<RoadKind, TownInfo>,
    /// Per road, the river it crosses.
    rivers: Vec<Option<String>>,
    /// Per [`Width`].
    limits: [RoadLimits; 2],
    supply: Vec<SupplyCity>,
    terrain: TerrainPool,
}

/// A road line as read, before its towns are known.
struct RawRoad<'a> {
    line: usize,
    from: &'a str,
    to: &'a str,
    width: Option<Width>,
    river: Option<&'a str>,
}

/// A supply line as read, before its town is known.
struct RawSupply<'a> {
    line: usize,
    town: &'a str,
    army: Option<Army>,
    loss: Option<u8>,
}

/// A map file read line by line, before the checks that need the whole file.
#[derive(Default)]
struct Draft<'a> {
    report: Report,
    /// Per width: the line it is given on, and its limits if they are sound.
    limits: [Option<(Option<RoadLimits>, usize)>; 2],
    /// The sound town lines, in file order: name, info, line.
    towns: Vec<(String, TownInfo, usize)>,
    /// Every well-formed code (upper-cased), even of a town line with other problems -> line.
    codes: BTreeMap<String, usize>,
    /// Every name (lower-cased) -> line.
    names: BTreeMap<String, usize>,
    roads: Vec<RawRoad<'a>>,
    supply: Vec<RawSupply<'a>>,
    /// Per [`TerrainKind`]: its count and line.
    terrain: [Option<(u8, usize)>; 4],
}

/// The roads of a draft, resolved to town positions.
struct Resolved {
    /// The graph's set-up: towns still to add, roads in file order.
    setup: RoadMapSetup<RoadKind, TownInfo>,
    /// Per road of `setup`, the river it crosses.
    rivers: Vec<Option<String>>,
}

impl<'a> Draft<'a> {
    /// Reads one entry.
    fn read(&mut self, line: usize, words: &[&'a str]) {
        match words[0] {
            "width" => self.width(line, words),
            "town" => self.town(line, words),
            "road" => self.road(line, words),
            "supply" => self.supply(line, words),
            "terrain" => self.terrain(line, words),
            other => self.report.at(
                line,
                format!(
                    "'{other}' is not an entry: start the line with width, town, road, supply \
                     or terrain (or # for a comment)"
                ),
            ),
        }
    }

    /// `width <broad|narrow> <move> <attack across a river> <retreat>`.
    fn width(&mut self, line: usize, words: &[&str]) {
        let report = &mut self.report;
        let Some(&[width, moving, river, retreat]) = words.get(1..) else {
            report.at(
                line,
                "a width needs a name and three limits (move, attack across a river, retreat): \
                 `width broad 8 4 2`"
                    .to_string(),
            );
            return;
        };
        let subject = format!("width {width}");
        let parsed = Width::parse(width);
        if parsed.is_none() {
            report.at(
                line,
                format!("{subject}: unknown road kind '{width}': write broad or narrow"),
            );
        }
        let moving = number(report, line, &subject, "the move limit", moving, 1, 99);
        let river = number(
            report,
            line,
            &subject,
            "the attack limit across a river",
            river,
            1,
            99,
        );
        let retreat = number(report, line, &subject, "the retreat limit", retreat, 1, 99);
        let Some(width) = parsed else { return };
        if let Some((_, first)) = self.limits[width.index()] {
            report.at(
                line,
                format!("{subject} is given twice (first on line {first}): keep one"),
            );
            return;
        }
        self.limits[width.index()] = Some((None, line));
        let (Some(moving), Some(river), Some(retreat)) = (moving, river, retreat) else {
            return;
        };
        if river > moving || retreat > moving {
            report.at(
                line,
                format!(
                    "{subject}: the limits across a river ({river}) and to retreat ({retreat}) \
                     may not exceed the move limit ({moving})"
                ),
            );
            return;
        }
        let limits = RoadLimits {
            moving,
            attacking_across_river: river,
            retreating: retreat,
        };
        self.limits[width.index()] = Some((Some(limits), line));
    }

    /// `town <CODE> <area> <city|town> <name...>`.
    fn town(&mut self, line: usize, words: &[&str]) {
        let report = &mut self.report;
        let Some(&[code, area, kind]) = words.get(1..4) else {
            report.at(
                line,
                "a town needs a code, an area, a kind and a name: `town BRU ad city Brussel`"
                    .to_string(),
            );
            return;
        };
        let name = words[4..].join(" ");
        let subject = format!("town {code}");
        let mut ok = true;
        if !good_code(code) {
            report.at(
                line,
                format!("{subject}: a code is 1 to 12 letters, digits, `-` or `_`"),
            );
            ok = false;
        } else if let Some(first) = self.codes.get(&code.to_ascii_uppercase()) {
            report.at(
                line,
                format!(
                    "{subject} is listed twice (first on line {first}): remove one or change \
                     its code"
                ),
            );
            ok = false;
        } else {
            // Known from now on, even if the rest of the line is wrong: roads to it then
            // report nothing more than this line does.
            self.codes.insert(code.to_ascii_uppercase(), line);
        }
        let parsed = Army::parse(area);
        if parsed.is_none() {
            report.at(
                line,
                format!(
                    "{subject}: unknown area '{area}': write french (south of the border), ad \
                     (west of the brown line) or pr (east of it)"
                ),
            );
        }
        let city = match kind {
            "city" => Some(true),
            "town" => Some(false),
            _ => {
                report.at(
                    line,
                    format!("{subject}: unknown kind '{kind}': write city or town"),
                );
                None
            }
        };
        if name.is_empty() {
            report.at(
                line,
                format!("{subject}: give the name printed on the board after `{kind}`"),
            );
            ok = false;
        } else if let Some(first) = self.names.get(&name.to_ascii_lowercase()) {
            report.at(
                line,
                format!(
                    "{subject}: the name \"{name}\" is already used on line {first}: rename one"
                ),
            );
            ok = false;
        } else {
            self.names.insert(name.to_ascii_lowercase(), line);
        }
        if let (true, Some(area), Some(city)) = (ok, parsed, city) {
            let info = TownInfo {
                code: code.to_string(),
                area,
                city,
            };
            self.towns.push((name, info, line));
        }
    }

    /// `road <CODE> <CODE> <broad|narrow> [river <name>]`.
    fn road(&mut self, line: usize, words: &[&'a str]) {
        let report = &mut self.report;
        let Some(&[from, to, width]) = words.get(1..4) else {
            report.at(
                line,
                "a road needs two town codes and a width: `road BRU WAT broad`".to_string(),
            );
            return;
        };
        let subject = format!("road {from}-{to}");
        let parsed = Width::parse(width);
        if parsed.is_none() {
            report.at(
                line,
                format!("{subject}: unknown road kind '{width}': write broad or narrow"),
            );
        }
        let river = match words.get(4..) {
            Some([]) | None => None,
            Some(&["river", name]) => Some(name),
            Some(rest) => {
                report.at(
                    line,
                    format!(
                        "{subject}: after the width write `river <name>` (one word) or \
                         nothing, not '{}'",
                        rest.join(" ")
                    ),
                );
                None
            }
        };
        self.roads.push(RawRoad {
            line,
            from,
            to,
            width: parsed,
            river,
        });
    }

    /// `supply <CODE> <ad|pr> <units>`.
    fn supply(&mut self, line: usize, words: &[&'a str]) {
        let report = &mut self.report;
        let Some(&[town, army, loss]) = words.get(1..) else {
            report.at(
                line,
                "a supply city needs a town code, an army and a loss: `supply GHE ad 1`"
                    .to_string(),
            );
            return;
        };
        let subject = format!("supply {town}");
        let parsed = match Army::parse(army) {
            Some(Army::French) => {
                report.at(
                    line,
                    format!("{subject}: the French have no supply cities (9): write ad or pr"),
                );
                None
            }
            Some(a) => Some(a),
            None => {
                report.at(
                    line,
                    format!("{subject}: unknown army '{army}': write ad or pr"),
                );
                None
            }
        };
        let loss = number(
            report,
            line,
            &subject,
            "the loss",
            loss,
            1,
            MAX_SUPPLY_LOSS.into(),
        )
        .map(|n| n as u8);
        self.supply.push(RawSupply {
            line,
            town,
            army: parsed,
            loss,
        });
    }

    /// `terrain <woods|farm|stream|hill> <blocks>`.
    fn terrain(&mut self, line: usize, words: &[&str]) {
        let report = &mut self.report;
        let Some(&[kind, count]) = words.get(1..) else {
            report.at(
                line,
                "a terrain line needs a kind and a number of blocks: `terrain woods 3`".to_string(),
            );
            return;
        };
        let subject = format!("terrain {kind}");
        let count = number(report, line, &subject, "the count", count, 0, MAX_TERRAIN);
        let Some(kind) = TerrainKind::parse(kind) else {
            report.at(
                line,
                format!("{subject}: unknown terrain '{kind}': write woods, farm, stream or hill"),
            );
            return;
        };
        match (self.terrain[kind as usize], count) {
            (Some((_, first)), _) => report.at(
                line,
                format!("{subject} is given twice (first on line {first}): keep one"),
            ),
            (None, Some(n)) => self.terrain[kind as usize] = Some((n as u8, line)),
            (None, None) => {}
        }
    }

    /// What the whole file must hold: both widths, towns, an area for each army.
    fn check_complete(&mut self) {
        for width in Width::ALL {
            if self.limits[width.index()].is_none() {
                let example = match width {
                    Width::Broad => "broad 8 4 2",
                    Width::Narrow => "narrow 6 3 1",
                };
                self.report.at(
                    0,
                    format!(
                        "no `width {}` line: add one, e.g. `width {example}` (rulebook 5.4, \
                         5.5, 7.2)",
                        width.word()
                    ),
                );
            }
        }
        if self.towns.is_empty() {
            self.report
                .at(0, "the map has no towns: add `town` lines".to_string());
            return;
        }
        for army in Army::ALL {
            if !self.towns.iter().any(|(_, info, _)| info.area == army) {
                self.report.at(
                    0,
                    format!(
                        "no town in the {army} set-up area: mark its towns `{}` (4.1, 4.2)",
                        army.word()
                    ),
                );
            }
        }
    }

    /// The position of the town with `code` among the sound towns. An unknown code is
    /// reported, one whose town line is wrong is not (that line already is).
    fn find(&mut self, code: &str, line: usize, subject: &str, hint: &str) -> Option<usize> {
        let upper = code.to_ascii_uppercase();
        let found = self
            .towns
            .iter()
            .position(|(_, info, _)| info.code.eq_ignore_ascii_case(code));
        if found.is_none() && !self.codes.contains_key(&upper) {
            self.report
                .at(line, format!("{subject}: no town {code}; {hint}"));
        }
        found
    }

    /// Resolves the roads to towns; reports unknown towns, roads to themselves, roads given
    /// twice, towns with no road and groups of towns cut off from the rest.
    fn resolve_roads(&mut self) -> Resolved {
        let mut resolved = Resolved {
            setup: RoadMapSetup::new(),
            rivers: Vec::new(),
        };
        // Each pair of joined towns (smaller position first) -> the road's line; roads per town.
        let mut pairs: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let mut degree = alloc::vec![0usize; self.towns.len()];
        // A road to a town whose own line was refused (reported there) still is a road: its
        // other end is not told it has none, nor a group cut off that the road may join.
        let mut to_refused = false;
        let roads = core::mem::take(&mut self.roads);
        for road in &roads {
            let subject = format!("road {}-{}", road.from, road.to);
            let hint = "add the town or fix the code";
            let a = self.find(road.from, road.line, &subject, hint);
            let b = self.find(road.to, road.line, &subject, hint);
            let refused = |code: &str| self.codes.contains_key(&code.to_ascii_uppercase());
            match (a, b) {
                (Some(a), None) if refused(road.to) => {
                    degree[a] += 1;
                    to_refused = true;
                }
                (None, Some(b)) if refused(road.from) => {
                    degree[b] += 1;
                    to_refused = true;
                }
                (None, None) if refused(road.from) || refused(road.to) => to_refused = true,
                _ => {}
            }
            let (Some(a), Some(b)) = (a, b) else { continue };
            if a == b {
                self.report.at(
                    road.line,
                    format!("{subject} joins a town to itself: change one end"),
                );
                continue;
            }
            if let Some(first) = pairs.get(&(a.min(b), a.max(b))) {
                self.report.at(
                    road.line,
                    format!(
                        "{subject}: these towns are already joined by the road on line \
                         {first}: remove one"
                    ),
                );
                continue;
            }
            pairs.insert((a.min(b), a.max(b)), road.line);
            degree[a] += 1;
            degree[b] += 1;
            if let Some(width) = road.width {
                let kind = RoadKind {
                    width,
                    river: road.river.is_some(),
                };
                let (from, to) = (self.towns[a].0.clone(), self.towns[b].0.clone());
                resolved.setup = core::mem::take(&mut resolved.setup).road(from, to, kind);
                resolved.rivers.push(road.river.map(str::to_string));
            }
        }
        if !to_refused {
            cut_off(&self.towns, &pairs, &degree, &mut self.report);
        }
        for (i, (_, info, line)) in self.towns.iter().enumerate() {
            if degree[i] == 0 {
                self.report.at(
                    *line,
                    format!("town {}: no road; add a road or remove the town", info.code),
                );
            }
        }
        resolved
    }

    /// Resolves the supply cities: (town position, army, loss) for each sound line. Reports
    /// unknown towns, towns that are not cities or are French, cities given twice, and fewer
    /// than two supply cities.
    fn resolve_supply(&mut self) -> Vec<(usize, Army, u8)> {
        let mut supplied: BTreeMap<usize, usize> = BTreeMap::new();
        let mut cities = Vec::new();
        let supply = core::mem::take(&mut self.supply);
        for s in &supply {
            let subject = format!("supply {}", s.town);
            let hint = "name a city from the town lines";
            let Some(t) = self.find(s.town, s.line, &subject, hint) else {
                continue;
            };
            if let Some(first) = supplied.get(&t) {
                self.report.at(
                    s.line,
                    format!("{subject} is listed twice (first on line {first}): keep one"),
                );
                continue;
            }
            supplied.insert(t, s.line);
            let info = &self.towns[t].1;
            if !info.city {
                self.report.at(
                    s.line,
                    format!(
                        "{subject}: {} is a town, not a city; supply cities are cities (9): \
                         mark it `city` or supply another",
                        info.code
                    ),
                );
            }
            if info.area == Army::French {
                self.report.at(
                    s.line,
                    format!(
                        "{subject}: {} is French at the start, so the Allies cannot draw supply \
                         from it: choose a city north of the border",
                        info.code
                    ),
                );
            }
            if let (Some(army), Some(loss)) = (s.army, s.loss) {
                cities.push((t, army, loss));
            }
        }
        if supply.is_empty() {
            self.report.at(
                0,
                "no supply cities: add `supply` lines (9: Gent and Brussel for the Anglo-Dutch, \
                 Luik for the Prussians)"
                    .to_string(),
            );
        } else if supplied.len() < 2 {
            self.report.at(
                0,
                "only one supply city: the French win by holding two (10.1), so list at least \
                 two `supply` lines"
                    .to_string(),
            );
        }
        cities
    }

    /// The terrain pool; reports one too small for a battle.
    fn pool(&mut self) -> TerrainPool {
        let mut pool = TerrainPool::default();
        for kind in TerrainKind::ALL {
            pool.counts[kind as usize] = self.terrain[kind as usize].map_or(0, |(n, _)| n);
        }
        if pool.total() < TERRAIN_PER_BATTLE {
            self.report.at(
                0,
                format!(
                    "the terrain pool holds {} block(s); a battle draws {TERRAIN_PER_BATTLE} \
                     (6.2.1): add `terrain` lines",
                    pool.total()
                ),
            );
        }
        pool
    }
}

impl Map {
    /// The default map ([`DEFAULT_MAP`]).
    ///
    /// # Errors
    /// None in practice: the embedded file is tested to be valid.
    pub fn standard() -> Result<Map, Problems<DataProblem>> {
        Map::parse(DEFAULT_MAP)
    }

    /// Reads a map file.
    ///
    /// # Errors
    /// Every problem, each with its line: unknown entries, widths, areas, kinds or terrain;
    /// towns, names, roads, widths, supply or terrain given twice; roads to unknown towns or to
    /// themselves; towns no road reaches, and groups cut off from the rest; supply cities that
    /// are not Allied cities, or fewer than two; an army with no set-up area; a terrain pool
    /// too small for a battle.
    pub fn parse(text: &str) -> Result<Map, Problems<DataProblem>> {
        let mut draft = Draft::default();
        for entry in entries(text) {
            draft.read(entry.line, &entry.words);
        }
        draft.check_complete();
        let Resolved { mut setup, rivers } = draft.resolve_roads();
        let cities = draft.resolve_supply();
        let terrain = draft.pool();
        let mut report = core::mem::take(&mut draft.report);
        if !report.0.is_empty() {
            return Err(report.into_problems());
        }

        // No problems: build the graph (one source: the file), towns in file order.
        for (name, info, _) in draft.towns {
            setup = setup.town_with(name, info);
        }
        let graph = match setup.build() {
            Ok(graph) => graph,
            Err(problems) => {
                for p in problems.0 {
                    report.at(0, p.to_string());
                }
                return Err(report.into_problems());
            }
        };
        // The graph numbers towns as the draft did.
        let supply = cities
            .into_iter()
            .filter_map(|(t, army, loss)| {
                let (town, _) = graph.towns().nth(t)?;
                Some(SupplyCity { town, army, loss })
            })
            .collect();
        let limits = draft
            .limits
            .map(|l| l.and_then(|(limits, _)| limits).unwrap_or(NO_LIMITS));
        report.finish(Map {
            graph,
            rivers,
            limits,
            supply,
            terrain,
        })
    }

    /// The road graph: towns (with their [`TownInfo`]) and roads (with their [`RoadKind`]), in
    /// file order. Searches, neighbours and road traffic go through it.
    pub fn graph(&self) -> &RoadMap<RoadKind, TownInfo> {
        &self.graph
    }

    /// The town with this code (`BRU`), ignoring ASCII case.
    pub fn town(&self, code: &str) -> Option<TownId> {
        self.graph
            .towns()
            .find(|(_, t)| t.info.code.eq_ignore_ascii_case(code))
            .map(|(id, _)| id)
    }

    /// What the map keeps about town `id`.
    pub fn info(&self, id: TownId) -> Option<&TownInfo> {
        self.graph.town(id).map(|t| &t.info)
    }

    /// The code of town `id` (`BRU`).
    pub fn code(&self, id: TownId) -> Option<&str> {
        self.info(id).map(|i| i.code.as_str())
    }

    /// The name of town `id` as printed on the board (`Brussel`).
    pub fn name(&self, id: TownId) -> Option<&str> {
        self.graph.name(id)
    }

    /// The towns where `army` may set up (4.1, 4.2).
    pub fn set_up_area(&self, army: Army) -> impl Iterator<Item = TownId> + '_ {
        self.graph
            .towns()
            .filter(move |(_, t)| t.info.area == army)
            .map(|(id, _)| id)
    }

    /// The limits for roads of `width`.
    pub const fn limits(&self, width: Width) -> RoadLimits {
        self.limits[width.index()]
    }

    /// How many units may move along `road` in a turn (5.4).
    pub fn move_limit(&self, road: RoadId) -> Option<u16> {
        let kind = self.graph.road(road)?.kind;
        Some(self.limits(kind.width).moving)
    }

    /// How many units may attack along `road` in a turn: the move limit, or the lower limit
    /// across a river (5.5).
    pub fn attack_limit(&self, road: RoadId) -> Option<u16> {
        let kind = self.graph.road(road)?.kind;
        let limits = self.limits(kind.width);
        Some(if kind.river {
            limits.attacking_across_river
        } else {
            limits.moving
        })
    }

    /// How many units may retreat, reinforce or regroup along `road` per battle turn (6.3.4,
    /// 7.2, 7.5); rivers do not matter.
    pub fn retreat_limit(&self, road: RoadId) -> Option<u16> {
        let kind = self.graph.road(road)?.kind;
        Some(self.limits(kind.width).retreating)
    }

    /// The name of the river `road` crosses, if it crosses one.
    pub fn river(&self, road: RoadId) -> Option<&str> {
        self.rivers.get(road.index())?.as_deref()
    }

    /// The Allied supply cities (9), in file order.
    pub fn supply_cities(&self) -> &[SupplyCity] {
        &self.supply
    }

    /// The supply city at `town`, if it is one.
    pub fn supply_city(&self, town: TownId) -> Option<&SupplyCity> {
        self.supply.iter().find(|s| s.town == town)
    }

    /// The battle-board terrain pool (6.2.1).
    pub const fn terrain(&self) -> &TerrainPool {
        &self.terrain
    }
}

/// Never used: every width has its line once the file has no problems.
const NO_LIMITS: RoadLimits = RoadLimits {
    moving: 0,
    attacking_across_river: 0,
    retreating: 0,
};

/// Reports each group of towns the roads do not join to the largest group, one problem per
/// group, on the line of its first town. Towns with no road at all are reported on their own.
fn cut_off(
    towns: &[(String, TownInfo, usize)],
    pairs: &BTreeMap<(usize, usize), usize>,
    degree: &[usize],
    report: &mut Report,
) {
    let mut links = alloc::vec![Vec::new(); towns.len()];
    for &(a, b) in pairs.keys() {
        links[a].push(b);
        links[b].push(a);
    }
    // Group number per town, by a search from each town not yet grouped.
    let mut group = alloc::vec![usize::MAX; towns.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for start in 0..towns.len() {
        if group[start] != usize::MAX || degree[start] == 0 {
            continue;
        }
        let number = groups.len();
        let mut members = alloc::vec![start];
        group[start] = number;
        let mut next = 0;
        while let Some(&town) = members.get(next) {
            next += 1;
            for &other in &links[town] {
                if group[other] == usize::MAX {
                    group[other] = number;
                    members.push(other);
                }
            }
        }
        groups.push(members);
    }
    let largest = (0..groups.len()).max_by_key(|&g| (groups[g].len(), usize::MAX - g));
    for (g, members) in groups.iter().enumerate() {
        if Some(g) == largest {
            continue;
        }
        let codes: Vec<&str> = members.iter().map(|&t| towns[t].1.code.as_str()).collect();
        report.at(
            towns[members[0]].2,
            format!(
                "towns {} are cut off from the rest of the map: add a road joining them",
                codes.join(", ")
            ),
        );
    }
}

impl fmt::Display for Width {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl fmt::Display for TerrainKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}
