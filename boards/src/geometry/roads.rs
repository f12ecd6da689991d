//! Towns joined by roads of different kinds: Napoleon's point-to-point campaign map.
//!
//! A [`RoadMap`] is built from an untrusted [`RoadMapSetup`] (a layout file, or the builder
//! methods on it), which reports every problem at once. Towns then have compact [`TownId`]s and
//! roads [`RoadId`]s, both in the order the set-up lists them. Searches count road steps: moving
//! from one town to the next along one road is one step, whatever the road's length on the map.
//!
//! What a road *is* (broad or narrow, crossing a river or not) belongs to the game: the map is
//! generic over a road kind `K`, and over what a town carries `T` (city, supply city of which
//! army, French or not). How many units may use a road in a turn depends on the kind *and* on
//! what they are doing (Napoleon: 8 or 6 to move, half that to attack across a river, 2 or 1 to
//! retreat), so limits are given to [`Traffic`] by the game, call by call.

use alloc::collections::btree_map::Entry;
use alloc::collections::{BTreeMap, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::game::Problems;

/// A town of a [`RoadMap`], numbered from 0 in the order the set-up lists the towns.
/// It decodes only below [`MAX_ROAD_MAP_ITEMS`], the most towns a road map holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u16")]
pub struct TownId(u16);

impl TryFrom<u16> for TownId {
    type Error = crate::decode::OutOfRange;
    fn try_from(n: u16) -> Result<TownId, Self::Error> {
        if usize::from(n) < MAX_ROAD_MAP_ITEMS {
            Ok(TownId(n))
        } else {
            Err(crate::decode::OutOfRange::new(
                "a town number",
                n,
                "0 to 65534",
            ))
        }
    }
}

impl TownId {
    /// The town with this number. Only meaningful for the map it came from.
    pub const fn new(raw: u16) -> TownId {
        TownId(raw)
    }

    /// The number, usable to index per-town arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A road of a [`RoadMap`], numbered from 0 in the order the set-up lists the roads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RoadId(u16);

impl RoadId {
    /// The road with this number. Only meaningful for the map it came from.
    pub const fn new(raw: u16) -> RoadId {
        RoadId(raw)
    }

    /// The number, usable to index per-road arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A town: its name and whatever the game keeps about it (`T`: city or not, supply city...).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Town<T> {
    /// The name players know it by, e.g. `Quatre Bras`. Unique on a map, ignoring ASCII case.
    pub name: String,
    /// What the game keeps about this town.
    pub info: T,
}

/// A road of a built map: the two towns it joins and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Road<K> {
    /// The towns at either end, in the order the set-up gave them. Roads run both ways.
    pub ends: [TownId; 2],
    /// The game's kind of road.
    pub kind: K,
}

impl<K> Road<K> {
    /// The town at the other end from `town`, if `town` is an end of this road.
    pub fn other(&self, town: TownId) -> Option<TownId> {
        match self.ends {
            [a, b] if a == town => Some(b),
            [a, b] if b == town => Some(a),
            _ => None,
        }
    }

    /// Whether this road joins `a` and `b`, either way round.
    pub fn joins(&self, a: TownId, b: TownId) -> bool {
        self.ends == [a, b] || self.ends == [b, a]
    }
}

/// A road as an untrusted set-up names it: by its towns' names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoadSetup<K> {
    /// The name of one end.
    pub from: String,
    /// The name of the other end.
    pub to: String,
    /// The game's kind of road.
    pub kind: K,
}

/// One step out of a town: the road taken and the town it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Neighbour<K> {
    /// The town at the other end.
    pub town: TownId,
    /// The road taken.
    pub road: RoadId,
    /// That road's kind.
    pub kind: K,
}

/// An untrusted description of a road map, and a builder for one.
///
/// `K` is the game's road kind and `T` what it keeps per town. Both are the game's own types
/// rather than, say, a `RoadKind(u8)`: the game then matches on its kinds exhaustively when it
/// works out a capacity, a layout file names them as the game's serde names them (`"broad"`, not
/// `1`), and a kind may carry more than a width (whether the road crosses a river).
///
/// ```
/// use boards::geometry::roads::{any_road, RoadMapSetup};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// enum Width { Broad, Narrow }
///
/// let map = RoadMapSetup::<Width>::new()
///     .town("Brussel")
///     .town("Waterloo")
///     .town("Quatre Bras")
///     .road("Brussel", "Waterloo", Width::Broad)
///     .road("Waterloo", "Quatre Bras", Width::Broad)
///     .build()?;
/// let (brussel, qb) = (map.id("brussel").unwrap(), map.id("Quatre Bras").unwrap());
/// assert_eq!(map.distance(brussel, qb, any_road), Some(2));
/// # Ok::<(), boards::Problems<boards::geometry::roads::RoadProblem>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoadMapSetup<K, T = ()> {
    /// The towns; their order gives their [`TownId`]s.
    pub towns: Vec<Town<T>>,
    /// The roads; their order gives their [`RoadId`]s.
    pub roads: Vec<RoadSetup<K>>,
}

impl<K, T> Default for RoadMapSetup<K, T> {
    fn default() -> Self {
        RoadMapSetup {
            towns: Vec::new(),
            roads: Vec::new(),
        }
    }
}

impl<K, T> RoadMapSetup<K, T> {
    /// No towns and no roads yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a town that carries the default `T`.
    #[must_use]
    pub fn town(self, name: impl Into<String>) -> Self
    where
        T: Default,
    {
        self.town_with(name, T::default())
    }

    /// Adds a town carrying `info`.
    #[must_use]
    pub fn town_with(mut self, name: impl Into<String>, info: T) -> Self {
        self.towns.push(Town {
            name: name.into(),
            info,
        });
        self
    }

    /// Adds a road of `kind` between the towns named `from` and `to`.
    #[must_use]
    pub fn road(mut self, from: impl Into<String>, to: impl Into<String>, kind: K) -> Self {
        self.roads.push(RoadSetup {
            from: from.into(),
            to: to.into(),
            kind,
        });
        self
    }

    /// Validates this set-up into a map.
    ///
    /// # Errors
    /// Every [`RoadProblem`] found, all at once.
    pub fn build(self) -> Result<RoadMap<K, T>, Problems<RoadProblem>>
    where
        K: Copy,
    {
        RoadMap::try_from(self)
    }
}

/// The most towns, and the most roads, a map may have.
pub const MAX_ROAD_MAP_ITEMS: usize = u16::MAX as usize;

/// One problem with a [`RoadMapSetup`]. Positions (`index`, `road`) count from 0 and display
/// from 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoadProblem {
    /// The set-up lists no towns at all.
    NoTowns,
    /// More towns than a [`TownId`] can number.
    TooManyTowns {
        /// How many were listed.
        count: usize,
    },
    /// More roads than a [`RoadId`] can number.
    TooManyRoads {
        /// How many were listed.
        count: usize,
    },
    /// A town's name is empty or has spaces at either end.
    BadTownName {
        /// The town's position in the list.
        index: usize,
        /// The name as given.
        name: String,
    },
    /// Two towns have the same name (ignoring ASCII case).
    DuplicateTown {
        /// The repeated name.
        name: String,
    },
    /// A road names a town that is not in the list.
    UnknownTown {
        /// The road's position in the list.
        road: usize,
        /// The name it gives.
        name: String,
    },
    /// A road starts and ends in the same town.
    RoadToItself {
        /// The road's position in the list.
        road: usize,
        /// The town.
        town: String,
    },
    /// A second road joins the same two towns.
    DuplicateRoad {
        /// The repeated road's position in the list.
        road: usize,
        /// The earlier road joining the same towns.
        first: usize,
        /// One end, as named by the repeated road.
        from: String,
        /// The other end.
        to: String,
    },
    /// A town no road reaches: it can never be entered.
    IsolatedTown {
        /// The town.
        name: String,
    },
}

impl fmt::Display for RoadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoadProblem::NoTowns => f.write_str("the map has no towns; list at least two"),
            RoadProblem::TooManyTowns { count } => write!(
                f,
                "{count} towns listed, at most {MAX_ROAD_MAP_ITEMS} fit; remove some"
            ),
            RoadProblem::TooManyRoads { count } => write!(
                f,
                "{count} roads listed, at most {MAX_ROAD_MAP_ITEMS} fit; remove some"
            ),
            RoadProblem::BadTownName { index, name } => write!(
                f,
                "town {} is named \"{name}\": give it a name without spaces at either end",
                index + 1
            ),
            RoadProblem::DuplicateTown { name } => {
                write!(f, "town \"{name}\" is listed twice; remove or rename one")
            }
            RoadProblem::UnknownTown { road, name } => write!(
                f,
                "road {} names \"{name}\", which is not a town; fix the spelling or add the town",
                road + 1
            ),
            RoadProblem::RoadToItself { road, town } => write!(
                f,
                "road {} joins \"{town}\" to itself; change one end",
                road + 1
            ),
            RoadProblem::DuplicateRoad {
                road,
                first,
                from,
                to,
            } => write!(
                f,
                "road {} joins \"{from}\" and \"{to}\" again (as road {} does); remove one",
                road + 1,
                first + 1
            ),
            RoadProblem::IsolatedTown { name } => {
                write!(
                    f,
                    "no road reaches town \"{name}\"; add a road or remove the town"
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RoadProblem {}

/// A validated map of towns joined by roads. Build one with [`RoadMapSetup::build`].
///
/// Serializes as its [`RoadMapSetup`] and deserializes through the same validation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    try_from = "RoadMapSetup<K, T>",
    into = "RoadMapSetup<K, T>",
    bound(
        serialize = "K: Copy + Serialize, T: Clone + Serialize",
        deserialize = "K: Copy + Deserialize<'de>, T: Deserialize<'de>"
    )
)]
pub struct RoadMap<K, T = ()> {
    towns: Vec<Town<T>>,
    roads: Vec<Road<K>>,
    /// Per town, its roads in set-up order: (road, town at the other end).
    links: Vec<Vec<(RoadId, TownId)>>,
}

impl<K: Copy, T> TryFrom<RoadMapSetup<K, T>> for RoadMap<K, T> {
    type Error = Problems<RoadProblem>;

    fn try_from(setup: RoadMapSetup<K, T>) -> Result<Self, Self::Error> {
        let mut problems = Vec::new();
        if setup.towns.is_empty() {
            problems.push(RoadProblem::NoTowns);
        }
        if setup.towns.len() > MAX_ROAD_MAP_ITEMS {
            problems.push(RoadProblem::TooManyTowns {
                count: setup.towns.len(),
            });
        }
        if setup.roads.len() > MAX_ROAD_MAP_ITEMS {
            problems.push(RoadProblem::TooManyRoads {
                count: setup.roads.len(),
            });
        }

        // Lower-cased name -> position of the first town with it.
        let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
        // Whether each town is the first of its name with a good name (worth a degree check).
        let mut checked = alloc::vec![false; setup.towns.len()];
        for (index, town) in setup.towns.iter().enumerate() {
            let name = &town.name;
            if name.is_empty() || name.trim() != name {
                problems.push(RoadProblem::BadTownName {
                    index,
                    name: name.clone(),
                });
            } else if let Entry::Vacant(free) = by_name.entry(name.to_ascii_lowercase()) {
                free.insert(index);
                checked[index] = true;
            } else {
                problems.push(RoadProblem::DuplicateTown { name: name.clone() });
            }
        }

        let mut degree = alloc::vec![0usize; setup.towns.len()];
        let mut pairs: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let mut ends = Vec::with_capacity(setup.roads.len());
        for (road, r) in setup.roads.iter().enumerate() {
            let mut find = |name: &String| {
                let found = by_name.get(&name.to_ascii_lowercase()).copied();
                if found.is_none() {
                    problems.push(RoadProblem::UnknownTown {
                        road,
                        name: name.clone(),
                    });
                }
                found
            };
            let (Some(a), Some(b)) = (find(&r.from), find(&r.to)) else {
                continue;
            };
            if a == b {
                problems.push(RoadProblem::RoadToItself {
                    road,
                    town: r.from.clone(),
                });
                continue;
            }
            if let Some(&first) = pairs.get(&(a.min(b), a.max(b))) {
                problems.push(RoadProblem::DuplicateRoad {
                    road,
                    first,
                    from: r.from.clone(),
                    to: r.to.clone(),
                });
                continue;
            }
            pairs.insert((a.min(b), a.max(b)), road);
            degree[a] += 1;
            degree[b] += 1;
            ends.push((a, b));
        }

        for (i, town) in setup.towns.iter().enumerate() {
            if checked[i] && degree[i] == 0 {
                problems.push(RoadProblem::IsolatedTown {
                    name: town.name.clone(),
                });
            }
        }

        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        // No problems: every count fits in u16 and every road is in `ends`, in order.
        let id = |i: usize| TownId(i as u16);
        let mut links = alloc::vec![Vec::new(); setup.towns.len()];
        let roads = ends
            .iter()
            .zip(&setup.roads)
            .enumerate()
            .map(|(n, (&(a, b), r))| {
                links[a].push((RoadId(n as u16), id(b)));
                links[b].push((RoadId(n as u16), id(a)));
                Road {
                    ends: [id(a), id(b)],
                    kind: r.kind,
                }
            })
            .collect();
        Ok(RoadMap {
            towns: setup.towns,
            roads,
            links,
        })
    }
}

impl<K: Copy, T: Clone> From<RoadMap<K, T>> for RoadMapSetup<K, T> {
    fn from(map: RoadMap<K, T>) -> Self {
        map.to_setup()
    }
}

/// A road filter that lets every road through, for searches on the whole map.
pub fn any_road<K>(_kind: K) -> bool {
    true
}

impl<K: Copy, T> RoadMap<K, T> {
    /// How many towns.
    pub fn town_count(&self) -> usize {
        self.towns.len()
    }

    /// How many roads.
    pub fn road_count(&self) -> usize {
        self.roads.len()
    }

    /// The town numbered `id`, if this map has it.
    pub fn town(&self, id: TownId) -> Option<&Town<T>> {
        self.towns.get(id.index())
    }

    /// The name of town `id`, if this map has it.
    pub fn name(&self, id: TownId) -> Option<&str> {
        self.town(id).map(|t| t.name.as_str())
    }

    /// The town called `name`, ignoring ASCII case.
    pub fn id(&self, name: &str) -> Option<TownId> {
        self.towns
            .iter()
            .position(|t| t.name.eq_ignore_ascii_case(name))
            .map(|i| TownId(i as u16))
    }

    /// Every town with its id, in id order.
    pub fn towns(&self) -> impl Iterator<Item = (TownId, &Town<T>)> + '_ {
        self.towns
            .iter()
            .enumerate()
            .map(|(i, t)| (TownId(i as u16), t))
    }

    /// The road numbered `id`, if this map has it.
    pub fn road(&self, id: RoadId) -> Option<&Road<K>> {
        self.roads.get(id.index())
    }

    /// Every road with its id, in id order.
    pub fn roads(&self) -> impl Iterator<Item = (RoadId, &Road<K>)> + '_ {
        self.roads
            .iter()
            .enumerate()
            .map(|(i, r)| (RoadId(i as u16), r))
    }

    /// The road joining `a` and `b`, if there is one.
    pub fn road_between(&self, a: TownId, b: TownId) -> Option<RoadId> {
        self.links
            .get(a.index())?
            .iter()
            .find(|&&(_, t)| t == b)
            .map(|&(r, _)| r)
    }

    /// The steps out of `town`, one per road, in set-up order; none for a town not on this map.
    pub fn neighbours(&self, town: TownId) -> impl Iterator<Item = Neighbour<K>> + '_ {
        self.links
            .get(town.index())
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|&(road, t)| Neighbour {
                town: t,
                road,
                kind: self.roads[road.index()].kind,
            })
    }

    /// Every town reachable from `from` in at most `max_steps` steps along roads whose kind
    /// passes `road_ok`, by a breadth-first search.
    ///
    /// The search may *enter* any town but goes on *through* only `from` and towns for which
    /// `pass_through` is true: "units may pass through friendly towns but stop where the enemy
    /// stands". A `from` not on this map reaches nothing.
    pub fn reach(
        &self,
        from: TownId,
        max_steps: u16,
        mut road_ok: impl FnMut(K) -> bool,
        mut pass_through: impl FnMut(TownId) -> bool,
    ) -> Reach {
        let n = self.towns.len();
        let mut reach = Reach {
            from,
            steps: alloc::vec![None; n],
            came_from: alloc::vec![None; n],
            order: Vec::new(),
        };
        if from.index() >= n {
            return reach;
        }
        reach.steps[from.index()] = Some(0);
        reach.order.push(from);
        let mut queue = VecDeque::from([(from, 0u16)]);
        while let Some((town, steps)) = queue.pop_front() {
            if steps >= max_steps || (town != from && !pass_through(town)) {
                continue;
            }
            for &(road, next) in &self.links[town.index()] {
                if reach.steps[next.index()].is_some() || !road_ok(self.roads[road.index()].kind) {
                    continue;
                }
                reach.steps[next.index()] = Some(steps + 1);
                reach.came_from[next.index()] = Some(town);
                reach.order.push(next);
                queue.push_back((next, steps + 1));
            }
        }
        reach
    }

    /// The fewest road steps from `from` to `to` along roads whose kind passes `road_ok`.
    pub fn distance(
        &self,
        from: TownId,
        to: TownId,
        road_ok: impl FnMut(K) -> bool,
    ) -> Option<u16> {
        self.reach(from, u16::MAX, road_ok, |_| true).steps(to)
    }

    /// A shortest route from `from` to `to` along roads whose kind passes `road_ok`, both ends
    /// included. Among equally short routes, the one using earlier-listed roads first.
    pub fn shortest_path(
        &self,
        from: TownId,
        to: TownId,
        road_ok: impl FnMut(K) -> bool,
    ) -> Option<Vec<TownId>> {
        self.reach(from, u16::MAX, road_ok, |_| true).path(to)
    }

    /// The towns other than `from` reachable in 1 to `max_steps` steps along roads whose kind
    /// passes `road_ok`, nearest first.
    pub fn within(
        &self,
        from: TownId,
        max_steps: u16,
        road_ok: impl FnMut(K) -> bool,
    ) -> Vec<TownId> {
        let reach = self.reach(from, max_steps, road_ok, |_| true);
        reach.order.into_iter().skip(1).collect()
    }

    /// This map as a set-up, e.g. to save it as a layout file.
    pub fn to_setup(&self) -> RoadMapSetup<K, T>
    where
        T: Clone,
    {
        let name = |id: TownId| self.towns[id.index()].name.clone();
        RoadMapSetup {
            towns: self.towns.clone(),
            roads: self
                .roads
                .iter()
                .map(|r| RoadSetup {
                    from: name(r.ends[0]),
                    to: name(r.ends[1]),
                    kind: r.kind,
                })
                .collect(),
        }
    }
}

/// The result of [`RoadMap::reach`]: which towns a search reached, in how many steps, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    from: TownId,
    steps: Vec<Option<u16>>,
    came_from: Vec<Option<TownId>>,
    order: Vec<TownId>,
}

impl Reach {
    /// Where the search started.
    pub fn from(&self) -> TownId {
        self.from
    }

    /// The fewest steps to `to`, if it was reached (0 for the start).
    pub fn steps(&self, to: TownId) -> Option<u16> {
        self.steps.get(to.index()).copied().flatten()
    }

    /// A shortest route to `to`, start and `to` included, if it was reached.
    pub fn path(&self, to: TownId) -> Option<Vec<TownId>> {
        self.steps(to)?;
        let mut path = alloc::vec![to];
        let mut at = to;
        while let Some(prev) = self.came_from[at.index()] {
            path.push(prev);
            at = prev;
        }
        path.reverse();
        Some(path)
    }

    /// Every town reached with its steps, nearest first; the start comes first with 0 steps.
    pub fn towns(&self) -> impl Iterator<Item = (TownId, u16)> + '_ {
        self.order
            .iter()
            .map(|&t| (t, self.steps[t.index()].unwrap_or_default()))
    }
}

/// How many units have used each road this turn, against limits the game gives.
///
/// The limit depends on the road's kind and on what the units do, so it is an argument, not a
/// property of the map: Napoleon allows 8 along a broad road to move, 4 to attack across a river,
/// 2 to retreat. Roads are counted both ways together.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Traffic {
    used: Vec<u16>,
}

/// Why [`Traffic::try_use`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TrafficError {
    /// The road is not on the map this traffic counts.
    UnknownRoad {
        /// The road asked for.
        road: RoadId,
    },
    /// More units than the road has room for this turn.
    Full {
        /// The road asked for.
        road: RoadId,
        /// Units that already used it this turn.
        used: u16,
        /// The most allowed.
        limit: u16,
        /// Units that asked to use it.
        wanted: u16,
    },
}

impl fmt::Display for TrafficError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TrafficError::UnknownRoad { road } => write!(
                f,
                "road {} is not on this map; check the map the game was set up with",
                road.index() + 1
            ),
            TrafficError::Full {
                used,
                limit,
                wanted,
                ..
            } => {
                let room = limit.saturating_sub(used);
                write!(
                    f,
                    "only {room} more unit(s) may use this road this turn ({used} of {limit} \
                     already have); send {} fewer or go another way",
                    wanted - room
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TrafficError {}

impl Traffic {
    /// No road used yet on `map`.
    pub fn new<K, T>(map: &RoadMap<K, T>) -> Traffic {
        Traffic {
            used: alloc::vec![0; map.roads.len()],
        }
    }

    /// Units that used `road` this turn (0 for a road not on the map).
    pub fn used(&self, road: RoadId) -> u16 {
        self.used.get(road.index()).copied().unwrap_or(0)
    }

    /// How many more units may use `road` this turn under `limit`.
    pub fn room(&self, road: RoadId, limit: u16) -> u16 {
        limit.saturating_sub(self.used(road))
    }

    /// Counts `units` more along `road` if `limit` allows, and returns the room left.
    ///
    /// # Errors
    /// [`TrafficError::Full`] when they do not all fit (nothing is counted then), or
    /// [`TrafficError::UnknownRoad`].
    pub fn try_use(&mut self, road: RoadId, units: u16, limit: u16) -> Result<u16, TrafficError> {
        let Some(used) = self.used.get_mut(road.index()) else {
            return Err(TrafficError::UnknownRoad { road });
        };
        let room = limit.saturating_sub(*used);
        if units > room {
            return Err(TrafficError::Full {
                road,
                used: *used,
                limit,
                wanted: units,
            });
        }
        *used += units;
        Ok(room - units)
    }

    /// A new turn: every road unused again.
    pub fn clear(&mut self) {
        self.used.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Width {
        Broad,
        Narrow,
    }

    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    struct Info {
        supply: bool,
    }

    /// A corner of Napoleon's map (section 5.1 and 5.2 of the rulebook name these roads).
    fn belgium() -> RoadMapSetup<Width, Info> {
        use Width::*;
        RoadMapSetup::new()
            .town_with("Brussel", Info { supply: true })
            .town("Waterloo")
            .town("Quatre Bras")
            .town("Nijvel")
            .town("Ligny")
            .town("Waver")
            .town("Charleroi")
            .road("Brussel", "Waterloo", Broad)
            .road("Waterloo", "Quatre Bras", Broad)
            .road("Quatre Bras", "Charleroi", Broad)
            .road("Waterloo", "Nijvel", Narrow)
            .road("Nijvel", "Quatre Bras", Narrow)
            .road("Quatre Bras", "Ligny", Narrow)
            .road("Ligny", "Charleroi", Narrow)
            .road("Brussel", "Waver", Narrow)
            .road("Waver", "Ligny", Narrow)
    }

    fn ids(map: &RoadMap<Width, Info>, names: &[&str]) -> Vec<Option<TownId>> {
        names.iter().map(|n| map.id(n)).collect()
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let setup = RoadMapSetup::<Width>::new()
            .town("Namen")
            .town("Luik")
            .town("namen")
            .town(" Gent")
            .town("Dinant")
            .town("Givet")
            .road("Namen", "Luik", Width::Broad)
            .road("Luik", "NAMEN", Width::Narrow)
            .road("Namen", "Brusel", Width::Broad)
            .road("Luik", "Luik", Width::Narrow)
            .road("Dinant", "Givet", Width::Narrow);
        let Err(problems) = setup.build() else {
            panic!("a broken set-up was accepted");
        };
        assert_eq!(
            problems.0,
            vec![
                RoadProblem::DuplicateTown {
                    name: "namen".into()
                },
                RoadProblem::BadTownName {
                    index: 3,
                    name: " Gent".into()
                },
                RoadProblem::DuplicateRoad {
                    road: 1,
                    first: 0,
                    from: "Luik".into(),
                    to: "NAMEN".into()
                },
                RoadProblem::UnknownTown {
                    road: 2,
                    name: "Brusel".into()
                },
                RoadProblem::RoadToItself {
                    road: 3,
                    town: "Luik".into()
                },
            ]
        );
        assert_eq!(
            problems.to_string(),
            "5 problems: town \"namen\" is listed twice; remove or rename one; \
             town 4 is named \" Gent\": give it a name without spaces at either end; \
             road 2 joins \"Luik\" and \"NAMEN\" again (as road 1 does); remove one; \
             road 3 names \"Brusel\", which is not a town; fix the spelling or add the town; \
             road 4 joins \"Luik\" to itself; change one end"
        );
    }

    #[test]
    fn isolated_and_missing_towns_are_problems() {
        let lonely = RoadMapSetup::<Width>::new()
            .town("Gent")
            .town("Aalst")
            .town("Ath");
        let lonely = lonely.road("Gent", "Aalst", Width::Broad).build();
        assert_eq!(
            lonely.map_err(|p| p.0),
            Err(vec![RoadProblem::IsolatedTown { name: "Ath".into() }])
        );
        let empty = RoadMapSetup::<Width>::new().build();
        assert_eq!(empty.map_err(|p| p.0), Err(vec![RoadProblem::NoTowns]));
    }

    #[test]
    fn towns_are_found_by_name_and_id() -> Result<(), Problems<RoadProblem>> {
        let map = belgium().build()?;
        assert_eq!(map.town_count(), 7);
        assert_eq!(map.road_count(), 9);
        assert_eq!(map.id("QUATRE BRAS"), Some(TownId::new(2)));
        assert_eq!(map.id("Paris"), None);
        assert_eq!(map.name(TownId::new(3)), Some("Nijvel"));
        assert_eq!(map.town(TownId::new(0)).map(|t| t.info.supply), Some(true));
        assert_eq!(map.town(TownId::new(7)), None);
        let waterloo = TownId::new(1);
        let n: Vec<_> = map
            .neighbours(waterloo)
            .map(|n| (map.name(n.town), n.kind))
            .collect();
        assert_eq!(
            n,
            vec![
                (Some("Brussel"), Width::Broad),
                (Some("Quatre Bras"), Width::Broad),
                (Some("Nijvel"), Width::Narrow),
            ]
        );
        let road = map.road_between(TownId::new(2), waterloo);
        assert_eq!(road, Some(RoadId::new(1)));
        assert_eq!(
            map.road(RoadId::new(1)).map(|r| r.other(waterloo)),
            Some(Some(TownId::new(2)))
        );
        assert_eq!(map.road_between(waterloo, TownId::new(6)), None);
        assert_eq!(map.neighbours(TownId::new(99)).count(), 0);
        Ok(())
    }

    #[test]
    fn distances_and_paths_follow_allowed_roads() -> Result<(), Problems<RoadProblem>> {
        let map = belgium().build()?;
        let [Some(brussel), Some(charleroi), Some(ligny), Some(waver)] =
            ids(&map, &["Brussel", "Charleroi", "Ligny", "Waver"])[..]
        else {
            panic!("towns missing");
        };
        assert_eq!(map.distance(brussel, charleroi, any_road), Some(3));
        assert_eq!(map.distance(brussel, ligny, any_road), Some(2));
        assert_eq!(map.distance(brussel, brussel, any_road), Some(0));
        assert_eq!(
            map.shortest_path(brussel, ligny, any_road),
            Some(vec![brussel, waver, ligny])
        );
        // Only broad roads: Ligny is off the network, Charleroi is three steps.
        let broad = |k| k == Width::Broad;
        assert_eq!(map.distance(brussel, ligny, broad), None);
        assert_eq!(map.shortest_path(brussel, ligny, broad), None);
        assert_eq!(map.distance(brussel, charleroi, broad), Some(3));
        assert_eq!(map.distance(TownId::new(50), brussel, any_road), None);
        Ok(())
    }

    #[test]
    fn reach_stops_within_steps_and_at_towns_it_may_not_pass() -> Result<(), Problems<RoadProblem>>
    {
        let map = belgium().build()?;
        let name = |t| map.name(t).unwrap_or("?");
        let from = TownId::new(1); // Waterloo
        let near: Vec<_> = map
            .within(from, 1, any_road)
            .into_iter()
            .map(name)
            .collect();
        assert_eq!(near, ["Brussel", "Quatre Bras", "Nijvel"]);
        let two: Vec<_> = map
            .within(from, 2, any_road)
            .into_iter()
            .map(name)
            .collect();
        assert_eq!(
            two,
            [
                "Brussel",
                "Quatre Bras",
                "Nijvel",
                "Waver",
                "Charleroi",
                "Ligny"
            ]
        );
        // The enemy holds Quatre Bras: it may be entered but not crossed.
        let enemy = TownId::new(2);
        let reach = map.reach(from, 3, any_road, |t| t != enemy);
        assert_eq!(reach.steps(enemy), Some(1));
        assert_eq!(reach.steps(TownId::new(4)), Some(3)); // Ligny, round through Waver
        assert_eq!(reach.steps(TownId::new(6)), None); // Charleroi: 4 steps without crossing
        let all: Vec<_> = reach.towns().map(|(t, s)| (name(t), s)).collect();
        assert_eq!(
            all,
            [
                ("Waterloo", 0),
                ("Brussel", 1),
                ("Quatre Bras", 1),
                ("Nijvel", 1),
                ("Waver", 2),
                ("Ligny", 3)
            ]
        );
        let path = reach
            .path(TownId::new(4))
            .map(|p| p.into_iter().map(name).collect::<Vec<_>>());
        assert_eq!(path, Some(vec!["Waterloo", "Brussel", "Waver", "Ligny"]));
        Ok(())
    }

    #[test]
    fn traffic_counts_units_against_the_games_limit() -> Result<(), TrafficError> {
        let Ok(map) = belgium().build() else {
            panic!("the test map is valid");
        };
        let mut traffic = Traffic::new(&map);
        let road = RoadId::new(0);
        assert_eq!(traffic.try_use(road, 5, 8)?, 3);
        let full = traffic.try_use(road, 4, 8);
        assert_eq!(
            full,
            Err(TrafficError::Full {
                road,
                used: 5,
                limit: 8,
                wanted: 4
            })
        );
        assert_eq!(traffic.used(road), 5);
        assert_eq!(
            full.map_err(|e| e.to_string()),
            Err(
                "only 3 more unit(s) may use this road this turn (5 of 8 already have); \
                 send 1 fewer or go another way"
                    .to_string()
            )
        );
        // A tighter limit (attacking across a river) applies to the same count.
        assert_eq!(traffic.room(road, 4), 0);
        assert_eq!(
            traffic.try_use(RoadId::new(40), 1, 8),
            Err(TrafficError::UnknownRoad {
                road: RoadId::new(40)
            })
        );
        traffic.clear();
        assert_eq!(traffic.try_use(road, 8, 8)?, 0);
        Ok(())
    }

    #[test]
    fn a_map_round_trips_through_its_setup() -> Result<(), Problems<RoadProblem>> {
        let map = belgium().build()?;
        let again = RoadMap::try_from(RoadMapSetup::from(map.clone()))?;
        assert_eq!(again, map);
        Ok(())
    }
}
