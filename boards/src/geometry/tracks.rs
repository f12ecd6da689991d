//! Numbered tracks with a marker, and named boxes (Sa Belle Alliance; turn and morale tracks).
//!
//! A [`Track`] is a row of numbered spaces from `min` to `max` (a morale track, a casualty track,
//! a time track). The track is an immutable parameter; where its marker stands is game state, a
//! plain `i16` the game keeps and moves with [`Track::up`] and [`Track::down`], which clamp to the
//! ends and say in a [`Moved`] whether an end was hit and by how much the move overshot it.
//!
//! A [`BoxMap`] is a set of named boxes, each holding up to `capacity` markers (a corps and its
//! divisions, the Grand Battery, Hougoumont's control marker), optionally linked to each other.
//! It is built from an untrusted [`BoxMapSetup`] that reports every problem at once. Per-box
//! state (how many markers, who controls it) lives in a [`ByBox`].

use alloc::collections::btree_map::Entry;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::game::Problems;

/// An end of a [`Track`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum End {
    /// The lowest space, `min`.
    Low,
    /// The highest space, `max`.
    High,
}

/// What a marker move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Moved {
    /// Where the marker stood (brought onto the track first if it was off it).
    pub from: i16,
    /// Where it stands now.
    pub to: i16,
    /// The end it reached moving towards it, if any.
    pub hit: Option<End>,
    /// Steps asked for beyond that end: 0 when it just reached it. "The game ends when the
    /// marker moves off the map" is `overshoot > 0`.
    pub overshoot: u16,
}

/// A row of numbered spaces from `min` to `max`, both included.
///
/// ```
/// use boards::geometry::tracks::{End, Track};
///
/// let morale = Track::new("French morale", 0, 10)?;
/// let mut at = 10;
/// assert_eq!(morale.down(&mut at, 3).to, 7);
/// let moved = morale.down(&mut at, 9);
/// assert_eq!((at, moved.hit, moved.overshoot), (0, Some(End::Low), 2));
/// # Ok::<(), boards::Problems<boards::geometry::tracks::TrackProblem>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawTrack")]
pub struct Track {
    name: String,
    min: i16,
    max: i16,
}

#[derive(Deserialize)]
struct RawTrack {
    name: String,
    min: i16,
    max: i16,
}

impl TryFrom<RawTrack> for Track {
    type Error = Problems<TrackProblem>;
    fn try_from(raw: RawTrack) -> Result<Track, Self::Error> {
        Track::new(raw.name, raw.min, raw.max)
    }
}

/// One problem with a track, or with a marker's place on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TrackProblem {
    /// The name is empty or has spaces at either end.
    BadName {
        /// The name as given.
        name: String,
    },
    /// `min` is above `max`.
    Backwards {
        /// The track.
        name: String,
        /// The lowest space as given.
        min: i16,
        /// The highest space as given.
        max: i16,
    },
    /// A marker placed off the track.
    OffTrack {
        /// The track.
        name: String,
        /// Where the marker was placed.
        at: i16,
        /// The lowest space.
        min: i16,
        /// The highest space.
        max: i16,
    },
}

impl fmt::Display for TrackProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrackProblem::BadName { name } => write!(
                f,
                "a track is named \"{name}\": give it a name without spaces at either end"
            ),
            TrackProblem::Backwards { name, min, max } => write!(
                f,
                "track \"{name}\" runs from {min} up to {max}; swap them so the lowest comes first"
            ),
            TrackProblem::OffTrack { name, at, min, max } => write!(
                f,
                "{at} is off track \"{name}\"; place the marker on a space from {min} to {max}"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TrackProblem {}

impl Track {
    /// The track `name` with spaces `min` to `max`.
    ///
    /// # Errors
    /// Every problem: a bad name, `min` above `max`.
    pub fn new(
        name: impl Into<String>,
        min: i16,
        max: i16,
    ) -> Result<Track, Problems<TrackProblem>> {
        let name = name.into();
        let mut problems = Vec::new();
        if !good_name(&name) {
            problems.push(TrackProblem::BadName { name: name.clone() });
        }
        if min > max {
            problems.push(TrackProblem::Backwards {
                name: name.clone(),
                min,
                max,
            });
        }
        Problems(problems).into_result(Track { name, min, max })
    }

    /// The name players know it by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The lowest space.
    pub fn min(&self) -> i16 {
        self.min
    }

    /// The highest space.
    pub fn max(&self) -> i16 {
        self.max
    }

    /// How many spaces.
    pub fn spaces(&self) -> u32 {
        (i32::from(self.max) - i32::from(self.min) + 1).unsigned_abs()
    }

    /// Whether `at` is a space of this track.
    pub fn contains(&self, at: i16) -> bool {
        (self.min..=self.max).contains(&at)
    }

    /// The space nearest `at`.
    pub fn clamp(&self, at: i16) -> i16 {
        at.clamp(self.min, self.max)
    }

    /// The end `at` stands on, if any (a one-space track's only space is [`End::Low`]).
    pub fn end_at(&self, at: i16) -> Option<End> {
        match at {
            _ if at == self.min => Some(End::Low),
            _ if at == self.max => Some(End::High),
            _ => None,
        }
    }

    /// Checks a marker's place from untrusted data (a layout's starting space).
    ///
    /// # Errors
    /// [`TrackProblem::OffTrack`] when `at` is not a space of this track.
    pub fn place(&self, at: i16) -> Result<i16, TrackProblem> {
        if self.contains(at) {
            Ok(at)
        } else {
            Err(TrackProblem::OffTrack {
                name: self.name.clone(),
                at,
                min: self.min,
                max: self.max,
            })
        }
    }

    /// Where a marker at `at` ends up moved `by` spaces (up when positive), clamped to the ends.
    pub fn shift(&self, at: i16, by: i32) -> Moved {
        let from = self.clamp(at);
        let wanted = i32::from(from).saturating_add(by);
        let to = self.clamp(wanted.clamp(i16::MIN.into(), i16::MAX.into()) as i16);
        let hit = match by {
            0 => None,
            _ if by > 0 && to == self.max => Some(End::High),
            _ if by < 0 && to == self.min => Some(End::Low),
            _ => None,
        };
        let overshoot = (wanted - i32::from(to)).unsigned_abs();
        Moved {
            from,
            to,
            hit,
            overshoot: u16::try_from(overshoot).unwrap_or(u16::MAX),
        }
    }

    /// Moves the marker at `at` up `steps` spaces, stopping at `max`.
    pub fn up(&self, at: &mut i16, steps: u16) -> Moved {
        let moved = self.shift(*at, steps.into());
        *at = moved.to;
        moved
    }

    /// Moves the marker at `at` down `steps` spaces, stopping at `min`.
    pub fn down(&self, at: &mut i16, steps: u16) -> Moved {
        let moved = self.shift(*at, -i32::from(steps));
        *at = moved.to;
        moved
    }
}

fn good_name(name: &str) -> bool {
    !name.is_empty() && name.trim() == name
}

/// A box of a [`BoxMap`], numbered from 0 in the order the set-up lists the boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BoxId(u8);

impl BoxId {
    /// The box with this number. Only meaningful for the map it came from.
    pub const fn new(raw: u8) -> BoxId {
        BoxId(raw)
    }

    /// The number, usable to index per-box arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A named box: how many markers it holds and what the game keeps about it (`T`: whose it is).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NamedBox<T> {
    /// The name players know it by, e.g. `Hougoumont`. Unique on a map, ignoring ASCII case.
    pub name: String,
    /// The most markers it holds (a corps' divisions, one control marker); at least 1.
    pub capacity: u8,
    /// What the game keeps about this box.
    pub info: T,
}

/// An untrusted description of a [`BoxMap`], and a builder for one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxMapSetup<T = ()> {
    /// The boxes; their order gives their [`BoxId`]s.
    pub boxes: Vec<NamedBox<T>>,
    /// Pairs of linked boxes, by name. Links run both ways.
    pub links: Vec<[String; 2]>,
}

impl<T> Default for BoxMapSetup<T> {
    fn default() -> Self {
        BoxMapSetup {
            boxes: Vec::new(),
            links: Vec::new(),
        }
    }
}

impl<T> BoxMapSetup<T> {
    /// No boxes yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a box holding up to `capacity` markers and carrying the default `T`.
    #[must_use]
    pub fn add(self, name: impl Into<String>, capacity: u8) -> Self
    where
        T: Default,
    {
        self.add_with(name, capacity, T::default())
    }

    /// Adds a box holding up to `capacity` markers and carrying `info`.
    #[must_use]
    pub fn add_with(mut self, name: impl Into<String>, capacity: u8, info: T) -> Self {
        let name = name.into();
        self.boxes.push(NamedBox {
            name,
            capacity,
            info,
        });
        self
    }

    /// Links the boxes named `a` and `b`.
    #[must_use]
    pub fn link(mut self, a: impl Into<String>, b: impl Into<String>) -> Self {
        self.links.push([a.into(), b.into()]);
        self
    }

    /// Validates this set-up into a map.
    ///
    /// # Errors
    /// Every [`BoxProblem`] found, all at once.
    pub fn build(self) -> Result<BoxMap<T>, Problems<BoxProblem>> {
        BoxMap::try_from(self)
    }
}

/// The most boxes a map may have.
pub const MAX_BOXES: usize = u8::MAX as usize + 1;

/// One problem with a [`BoxMapSetup`]. Positions count from 0 and display from 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoxProblem {
    /// No boxes at all.
    NoBoxes,
    /// More boxes than a [`BoxId`] can number.
    TooManyBoxes {
        /// How many were listed.
        count: usize,
    },
    /// A box's name is empty or has spaces at either end.
    BadName {
        /// The box's position in the list.
        index: usize,
        /// The name as given.
        name: String,
    },
    /// Two boxes have the same name (ignoring ASCII case).
    DuplicateBox {
        /// The repeated name.
        name: String,
    },
    /// A box that holds no marker.
    NoRoom {
        /// The box.
        name: String,
    },
    /// A link names a box that is not in the list.
    UnknownBox {
        /// The link's position in the list.
        link: usize,
        /// The name it gives.
        name: String,
    },
    /// A link from a box to itself.
    LinkToItself {
        /// The link's position in the list.
        link: usize,
        /// The box.
        name: String,
    },
    /// A second link between the same two boxes.
    DuplicateLink {
        /// The repeated link's position.
        link: usize,
        /// The earlier link between the same boxes.
        first: usize,
    },
}

impl fmt::Display for BoxProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoxProblem::NoBoxes => f.write_str("the map has no boxes; list at least one"),
            BoxProblem::TooManyBoxes { count } => {
                write!(
                    f,
                    "{count} boxes listed, at most {MAX_BOXES} fit; remove some"
                )
            }
            BoxProblem::BadName { index, name } => write!(
                f,
                "box {} is named \"{name}\": give it a name without spaces at either end",
                index + 1
            ),
            BoxProblem::DuplicateBox { name } => {
                write!(f, "box \"{name}\" is listed twice; remove or rename one")
            }
            BoxProblem::NoRoom { name } => write!(
                f,
                "box \"{name}\" holds no markers; give it a capacity of at least 1"
            ),
            BoxProblem::UnknownBox { link, name } => write!(
                f,
                "link {} names \"{name}\", which is not a box; fix the spelling or add the box",
                link + 1
            ),
            BoxProblem::LinkToItself { link, name } => write!(
                f,
                "link {} joins \"{name}\" to itself; change one end",
                link + 1
            ),
            BoxProblem::DuplicateLink { link, first } => write!(
                f,
                "link {} repeats link {}; remove one",
                link + 1,
                first + 1
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BoxProblem {}

/// A validated set of named boxes, optionally linked. Build one with [`BoxMapSetup::build`].
///
/// Serializes as its [`BoxMapSetup`] and deserializes through the same validation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    try_from = "BoxMapSetup<T>",
    into = "BoxMapSetup<T>",
    bound(
        serialize = "T: Clone + Serialize",
        deserialize = "T: Deserialize<'de>"
    )
)]
pub struct BoxMap<T = ()> {
    boxes: Vec<NamedBox<T>>,
    links: Vec<[BoxId; 2]>,
}

impl<T> TryFrom<BoxMapSetup<T>> for BoxMap<T> {
    type Error = Problems<BoxProblem>;

    fn try_from(setup: BoxMapSetup<T>) -> Result<Self, Self::Error> {
        let mut problems = Vec::new();
        if setup.boxes.is_empty() {
            problems.push(BoxProblem::NoBoxes);
        }
        if setup.boxes.len() > MAX_BOXES {
            problems.push(BoxProblem::TooManyBoxes {
                count: setup.boxes.len(),
            });
        }
        let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
        for (index, b) in setup.boxes.iter().enumerate() {
            let name = &b.name;
            if !good_name(name) {
                let name = name.clone();
                problems.push(BoxProblem::BadName { index, name });
            } else if let Entry::Vacant(free) = by_name.entry(name.to_ascii_lowercase()) {
                free.insert(index);
            } else {
                problems.push(BoxProblem::DuplicateBox { name: name.clone() });
            }
            if b.capacity == 0 {
                problems.push(BoxProblem::NoRoom { name: name.clone() });
            }
        }
        let mut seen: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let mut links = Vec::new();
        for (link, [a, b]) in setup.links.iter().enumerate() {
            let mut find = |name: &String| {
                let found = by_name.get(&name.to_ascii_lowercase()).copied();
                if found.is_none() {
                    let name = name.clone();
                    problems.push(BoxProblem::UnknownBox { link, name });
                }
                found
            };
            let (Some(i), Some(j)) = (find(a), find(b)) else {
                continue;
            };
            if i == j {
                let name = a.clone();
                problems.push(BoxProblem::LinkToItself { link, name });
            } else if let Some(&first) = seen.get(&(i.min(j), i.max(j))) {
                problems.push(BoxProblem::DuplicateLink { link, first });
            } else {
                seen.insert((i.min(j), i.max(j)), link);
                links.push([BoxId(i as u8), BoxId(j as u8)]);
            }
        }
        Problems(problems).into_result(BoxMap {
            boxes: setup.boxes,
            links,
        })
    }
}

impl<T: Clone> From<BoxMap<T>> for BoxMapSetup<T> {
    fn from(map: BoxMap<T>) -> Self {
        map.to_setup()
    }
}

impl<T> BoxMap<T> {
    /// How many boxes.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// Always false: a map has at least one box.
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// The box numbered `id`, if this map has it.
    pub fn get(&self, id: BoxId) -> Option<&NamedBox<T>> {
        self.boxes.get(id.index())
    }

    /// The name of box `id`, if this map has it.
    pub fn name(&self, id: BoxId) -> Option<&str> {
        self.get(id).map(|b| b.name.as_str())
    }

    /// The box called `name`, ignoring ASCII case.
    pub fn id(&self, name: &str) -> Option<BoxId> {
        self.boxes
            .iter()
            .position(|b| b.name.eq_ignore_ascii_case(name))
            .map(|i| BoxId(i as u8))
    }

    /// Every box with its id, in id order.
    pub fn boxes(&self) -> impl Iterator<Item = (BoxId, &NamedBox<T>)> + '_ {
        self.boxes
            .iter()
            .enumerate()
            .map(|(i, b)| (BoxId(i as u8), b))
    }

    /// Every link, in set-up order.
    pub fn links(&self) -> &[[BoxId; 2]] {
        &self.links
    }

    /// The boxes linked to `id`, in link order.
    pub fn linked(&self, id: BoxId) -> impl Iterator<Item = BoxId> + '_ {
        self.links.iter().filter_map(move |&[a, b]| match id {
            _ if a == id => Some(b),
            _ if b == id => Some(a),
            _ => None,
        })
    }

    /// Whether `a` and `b` are linked.
    pub fn are_linked(&self, a: BoxId, b: BoxId) -> bool {
        self.links.iter().any(|&l| l == [a, b] || l == [b, a])
    }

    /// This map as a set-up, e.g. to save it as a layout file.
    pub fn to_setup(&self) -> BoxMapSetup<T>
    where
        T: Clone,
    {
        let name = |id: BoxId| self.boxes[id.index()].name.clone();
        BoxMapSetup {
            boxes: self.boxes.clone(),
            links: self
                .links
                .iter()
                .map(|&[a, b]| [name(a), name(b)])
                .collect(),
        }
    }
}

/// One value per box of a [`BoxMap`] (markers held, who controls it), indexed by [`BoxId`].
///
/// Indexing with a box of another, larger map panics, as a slice does; [`ByBox::get`] does not.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByBox<V>(Vec<V>);

impl<V> ByBox<V> {
    /// The value of each box of `map`, from the box.
    pub fn from_fn<T>(map: &BoxMap<T>, f: impl FnMut((BoxId, &NamedBox<T>)) -> V) -> Self {
        ByBox(map.boxes().map(f).collect())
    }

    /// The value of box `id`.
    pub fn get(&self, id: BoxId) -> Option<&V> {
        self.0.get(id.index())
    }

    /// The value of box `id`, to change.
    pub fn get_mut(&mut self, id: BoxId) -> Option<&mut V> {
        self.0.get_mut(id.index())
    }

    /// The boxes with their values, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (BoxId, &V)> + '_ {
        self.0.iter().enumerate().map(|(i, v)| (BoxId(i as u8), v))
    }
}

impl<V> Index<BoxId> for ByBox<V> {
    type Output = V;
    fn index(&self, id: BoxId) -> &V {
        &self.0[id.index()]
    }
}

impl<V> IndexMut<BoxId> for ByBox<V> {
    fn index_mut(&mut self, id: BoxId) -> &mut V {
        &mut self.0[id.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn a_marker_stops_at_the_ends_and_says_so() -> Result<(), Problems<TrackProblem>> {
        // Sa Belle Alliance: morale starts at 10, losses move it down.
        let morale = Track::new("French morale", 0, 10)?;
        let mut at = morale.place(10).map_err(|p| Problems(vec![p]))?;
        assert_eq!(
            morale.down(&mut at, 3),
            Moved {
                from: 10,
                to: 7,
                hit: None,
                overshoot: 0
            }
        );
        assert_eq!(
            morale.down(&mut at, 7),
            Moved {
                from: 7,
                to: 0,
                hit: Some(End::Low),
                overshoot: 0
            }
        );
        assert_eq!(morale.down(&mut at, 2).overshoot, 2);
        assert_eq!(
            morale.up(&mut at, 0),
            Moved {
                from: 0,
                to: 0,
                hit: None,
                overshoot: 0
            }
        );
        assert_eq!(morale.end_at(at), Some(End::Low));
        // Piecepack: the turn marker runs G-1 to G-10; moving off the map ends the game.
        let turns = Track::new("Turn", 1, 10)?;
        let mut turn = 9;
        assert_eq!(turns.up(&mut turn, 1).hit, Some(End::High));
        assert_eq!(turns.up(&mut turn, 1).overshoot, 1);
        assert_eq!(turns.spaces(), 10);
        // A marker found off the track is brought back onto it first.
        assert_eq!(
            turns.shift(40, -1),
            Moved {
                from: 10,
                to: 9,
                hit: None,
                overshoot: 0
            }
        );
        assert_eq!(turns.shift(1, i32::MIN).overshoot, u16::MAX);
        Ok(())
    }

    #[test]
    fn bad_tracks_and_places_say_how_to_fix_them() {
        let bad = Track::new("", 10, 0);
        assert_eq!(
            bad.map_err(|p| p.to_string()),
            Err(
                "2 problems: a track is named \"\": give it a name without spaces at either \
                 end; track \"\" runs from 10 up to 0; swap them so the lowest comes first"
                    .to_string()
            )
        );
        let Ok(time) = Track::new("Time", 0, 6) else {
            panic!("a good track was refused");
        };
        assert_eq!(
            time.place(7).map_err(|p| p.to_string()),
            Err("7 is off track \"Time\"; place the marker on a space from 0 to 6".to_string())
        );
    }

    /// Part of Sa Belle Alliance's map: whose each box is.
    fn battlefield() -> BoxMapSetup<char> {
        BoxMapSetup::new()
            .add_with("I Corps", 4, 'F')
            .add_with("II Corps", 3, 'F')
            .add_with("Grand Battery", 3, 'F')
            .add_with("Hougoumont", 1, 'A')
            .add_with("La Haye Sainte", 1, 'A')
            .link("II Corps", "Hougoumont")
            .link("I Corps", "La Haye Sainte")
    }

    #[test]
    fn boxes_are_found_by_name_and_linked() -> Result<(), Problems<BoxProblem>> {
        let map = battlefield().build()?;
        assert_eq!(map.len(), 5);
        let hougoumont = map.id("hougoumont");
        assert_eq!(hougoumont, Some(BoxId::new(3)));
        assert_eq!(
            map.get(BoxId::new(2)).map(|b| (b.capacity, b.info)),
            Some((3, 'F'))
        );
        assert_eq!(map.name(BoxId::new(9)), None);
        let linked: Vec<_> = map.linked(BoxId::new(1)).collect();
        assert_eq!(linked, [BoxId::new(3)]);
        assert!(map.are_linked(BoxId::new(3), BoxId::new(1)));
        assert!(!map.are_linked(BoxId::new(0), BoxId::new(1)));
        assert_eq!(BoxMap::try_from(map.to_setup())?, map);
        // Division markers left in each box.
        let mut left = ByBox::from_fn(&map, |(_, b)| b.capacity);
        left[BoxId::new(0)] -= 1;
        assert_eq!(left.get(BoxId::new(0)), Some(&3));
        assert_eq!(left.iter().map(|(_, &n)| u32::from(n)).sum::<u32>(), 11);
        Ok(())
    }

    #[test]
    fn every_box_problem_is_reported_at_once() {
        let setup = battlefield()
            .add_with("hougoumont", 1, 'A')
            .add_with("Plancenoit ", 0, 'F')
            .link("I Corps", "Papelotte")
            .link("Grand Battery", "grand battery")
            .link("Hougoumont", "II Corps");
        let Err(problems) = setup.build() else {
            panic!("a broken set-up was accepted");
        };
        assert_eq!(
            problems.0,
            vec![
                BoxProblem::DuplicateBox {
                    name: "hougoumont".into()
                },
                BoxProblem::BadName {
                    index: 6,
                    name: "Plancenoit ".into()
                },
                BoxProblem::NoRoom {
                    name: "Plancenoit ".into()
                },
                BoxProblem::UnknownBox {
                    link: 2,
                    name: "Papelotte".into()
                },
                BoxProblem::LinkToItself {
                    link: 3,
                    name: "Grand Battery".into()
                },
                BoxProblem::DuplicateLink { link: 4, first: 0 },
            ]
        );
        assert_eq!(
            problems
                .0
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            [
                "box \"hougoumont\" is listed twice; remove or rename one",
                "box 7 is named \"Plancenoit \": give it a name without spaces at either end",
                "box \"Plancenoit \" holds no markers; give it a capacity of at least 1",
                "link 3 names \"Papelotte\", which is not a box; fix the spelling or add the box",
                "link 4 joins \"Grand Battery\" to itself; change one end",
                "link 5 repeats link 1; remove one",
            ]
        );
        let none = BoxMapSetup::<()>::new().build();
        assert_eq!(none.map_err(|p| p.0), Err(vec![BoxProblem::NoBoxes]));
    }
}
