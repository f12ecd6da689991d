//! What the hands did since the board last matched, for Stratego and the table games alike:
//! the order of lifts and placements, the placements whose tag could not be read, and the
//! places already shown as wrong. It keeps a ghost switch, a stuck one or a brushed piece from
//! becoming an action (see the [referee docs](super), *Careless hands and faulty switches*).

use std::collections::{BTreeMap, BTreeSet};

use crate::sensing::{Millis, Place, SensingConfig};

/// A place's last change since the tracking began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Change {
    lifted: bool,
    at: Millis,
}

/// Why a place sensed occupied is not where the lifted piece landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotLanded {
    /// It was lit before the piece was lifted (a stuck switch, a piece put there earlier).
    LitBefore,
    /// Its switch closed but its reader found no tag: no piece, or an unreadable one.
    Unread,
    /// Its difference was already shown on the mismatch screen: a known fault.
    Standing,
}

/// The lifts and placements since the board last matched or an action was played.
#[derive(Clone, Debug)]
pub(crate) struct Hands {
    changes: BTreeMap<Place, Change>,
    unread: BTreeSet<Place>,
    standing: BTreeSet<Place>,
    /// A tag was read on this game's pieces: they carry tags, so a placement whose reader finds
    /// none is suspect. (A board with readers may be played with untagged pieces.)
    tagged: bool,
    /// How long before the piece leaves its own square a slid piece may close the next one's
    /// switch and still be the piece that lands there, in ms: a magnet can reach two reeds at
    /// once for a moment, and the sensing model's settle window
    /// ([`SensingConfig::settle_ms`]) is the longest a pass-over may last.
    overlap_ms: u32,
}

impl Default for Hands {
    /// Hands timed by the default sensing model.
    fn default() -> Hands {
        Hands::timed(SensingConfig::DEFAULT.settle_ms)
    }
}

impl Hands {
    /// No hands yet, for a sensing model whose settle window is `settle_ms`.
    pub(crate) fn timed(settle_ms: u32) -> Hands {
        Hands {
            changes: BTreeMap::new(),
            unread: BTreeSet::new(),
            standing: BTreeSet::new(),
            tagged: false,
            overlap_ms: settle_ms,
        }
    }

    /// A piece left `place` at `at`.
    pub(crate) fn lifted(&mut self, place: Place, at: Millis) {
        self.changes.insert(place, Change { lifted: true, at });
        self.unread.remove(&place);
        self.standing.remove(&place);
    }

    /// A piece arrived on `place` at `at`.
    pub(crate) fn placed(&mut self, place: Place, at: Millis) {
        self.changes.insert(place, Change { lifted: false, at });
        self.unread.remove(&place);
        self.standing.remove(&place);
    }

    /// The reader under `place` found no tag on the piece just placed there.
    pub(crate) fn tag_failed(&mut self, place: Place) {
        if self.tagged && self.changes.get(&place).is_some_and(|c| !c.lifted) {
            self.unread.insert(place);
        }
    }

    /// A tag was read on `place`: a piece stands there after all.
    pub(crate) fn tag_read(&mut self, place: Place) {
        self.unread.remove(&place);
        self.tagged = true;
    }

    /// A new game begins: nothing is known of its pieces' tags yet.
    pub(crate) fn new_game(&mut self) {
        *self = Hands::timed(self.overlap_ms);
    }

    /// The board matched, or an action was played: a new gesture begins.
    pub(crate) fn reset(&mut self) {
        self.changes.clear();
        self.unread.clear();
        self.standing.clear();
    }

    /// The places the mismatch screen has just named: known faults until they change.
    pub(crate) fn stand(&mut self, places: impl IntoIterator<Item = Place>) {
        self.standing.extend(places);
    }

    /// Whether the piece lifted from `from` can be the one sensed on `to`: `to` closed after
    /// `from` opened (or a moment before, a slide), its tag (if it has a reader) was read, and
    /// it was not already shown as wrong.
    pub(crate) fn landing(&self, from: &Place, to: &Place) -> Result<(), NotLanded> {
        if self.standing.contains(to) {
            return Err(NotLanded::Standing);
        }
        if self.unread.contains(to) {
            return Err(NotLanded::Unread);
        }
        match (self.changes.get(from), self.changes.get(to)) {
            (Some(l), Some(p))
                if l.lifted
                    && !p.lifted
                    && p.at.0.saturating_add(u64::from(self.overlap_ms)) >= l.at.0 =>
            {
                Ok(())
            }
            // The piece was lifted before this gesture's tracking began (while the last
            // action's hands were still busy): any place lit since is a landing.
            (None, Some(p)) if !p.lifted => Ok(()),
            _ => Err(NotLanded::LitBefore),
        }
    }

    /// Whether `place` was seen lifted in this gesture (not a difference that stood before it,
    /// such as a switch that failed open and was already named).
    pub(crate) fn lifted_now(&self, place: &Place) -> bool {
        !self.standing.contains(place) && self.changes.get(place).is_some_and(|c| c.lifted)
    }

    /// When `place` was seen lifted in this gesture, if it was.
    pub(crate) fn lifted_at(&self, place: &Place) -> Option<Millis> {
        self.changes.get(place).filter(|c| c.lifted).map(|c| c.at)
    }

    /// Whether `place` was seen filled in this gesture.
    pub(crate) fn placed_now(&self, place: &Place) -> bool {
        self.changes.get(place).is_some_and(|c| !c.lifted)
    }

    /// When the hands last changed anything, if they did since the tracking began.
    pub(crate) fn last_change(&self) -> Option<Millis> {
        self.changes.values().map(|c| c.at).max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boards::geometry::grid::Cell;

    fn p(i: u8) -> Place {
        Place::Square(Cell { col: i, row: 0 })
    }

    #[test]
    fn a_place_lit_before_the_lift_is_no_landing() {
        let mut hands = Hands::default();
        hands.placed(p(1), Millis(100));
        hands.lifted(p(0), Millis(1000));
        assert_eq!(hands.landing(&p(0), &p(1)), Err(NotLanded::LitBefore));
        // Never lit in this gesture at all: lit before the tracking began.
        assert_eq!(hands.landing(&p(0), &p(2)), Err(NotLanded::LitBefore));
    }

    #[test]
    fn a_slide_may_close_the_next_square_a_moment_early() {
        let mut hands = Hands::default();
        hands.placed(p(1), Millis(900));
        hands.lifted(p(0), Millis(1000));
        assert_eq!(hands.landing(&p(0), &p(1)), Ok(()));
    }

    /// A builder's longer settle window (`[sensing] settle_ms`) lets a slid piece close the
    /// next square that much earlier, and a new game keeps the timing.
    #[test]
    fn the_overlap_a_slide_may_have_is_the_settle_window() {
        let slide = |hands: &mut Hands| {
            hands.reset();
            hands.placed(p(1), Millis(700));
            hands.lifted(p(0), Millis(1000));
            hands.landing(&p(0), &p(1))
        };
        assert_eq!(slide(&mut Hands::default()), Err(NotLanded::LitBefore));
        let mut slow = Hands::timed(400);
        assert_eq!(slide(&mut slow), Ok(()));
        slow.new_game();
        assert_eq!(slide(&mut slow), Ok(()));
        assert_eq!(slide(&mut Hands::timed(250)), Err(NotLanded::LitBefore));
    }

    #[test]
    fn an_unread_or_standing_place_is_no_landing_until_it_changes() {
        let mut hands = Hands::default();
        hands.lifted(p(0), Millis(0));
        hands.placed(p(1), Millis(500));
        // Untagged pieces on a board with readers: a failed read says nothing.
        hands.tag_failed(p(1));
        assert_eq!(hands.landing(&p(0), &p(1)), Ok(()));
        hands.tag_read(p(2));
        hands.tag_failed(p(1));
        assert_eq!(hands.landing(&p(0), &p(1)), Err(NotLanded::Unread));
        hands.tag_read(p(1));
        assert_eq!(hands.landing(&p(0), &p(1)), Ok(()));
        hands.stand([p(1)]);
        assert_eq!(hands.landing(&p(0), &p(1)), Err(NotLanded::Standing));
        hands.lifted(p(1), Millis(600));
        hands.placed(p(1), Millis(700));
        assert_eq!(hands.landing(&p(0), &p(1)), Ok(()));
        assert_eq!(hands.last_change(), Some(Millis(700)));
        hands.reset();
        assert_eq!(hands.last_change(), None);
        assert!(!hands.lifted_now(&p(0)));
    }
}
