//! The generic set-up and play machine over a [`TableGame`].

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use boards::{Actor, BySeat, Seat};

use super::{Gesture, Group, Journaled, Named, Placing, TableGame, TableView, ToldMove};
use crate::referee::chance::{pick_weighted, Chance};
use crate::referee::decision::Decision;
use crate::referee::hands::{Hands, NotLanded};
use crate::referee::record::{RebuildError, Record};
use crate::referee::tags::TagRegistry;
use crate::sensing::{Button, Millis, Place, TagFailure, TagUid};
use crate::ui::{Difference, HandStep, Places, Screen, StatusLine};

/// What a session needs from the referee around it for one step.
pub(crate) struct Ctx<'a> {
    /// The places sensed occupied.
    pub sensed: &'a BTreeSet<Place>,
    /// Now.
    pub now: Millis,
    /// The settle time before differences are shown, in ms.
    pub mismatch_after_ms: u32,
    /// The umpire's chance.
    pub chance: &'a mut dyn Chance,
    /// Appends a record to the journal, synced.
    pub write: &'a mut dyn FnMut(&Record) -> Result<(), String>,
    /// The journal's last failure, shown until a write succeeds.
    pub journal_error: &'a mut Option<String>,
    /// What the hands did since the board last matched.
    pub hands: &'a mut Hands,
    /// How long a gesture of lifts only is held before it is judged, in ms.
    pub attack_hold_ms: u32,
    /// The sensing model's settle window, in ms
    /// ([`SensingConfig::settle_ms`](crate::sensing::SensingConfig::settle_ms)): how long
    /// after a slide decided at once its piece may be lifted again and still be the same hand
    /// carrying it on into an attack, the time the decision no longer waits for.
    pub settle_ms: u32,
    /// The NFC tags registered to pieces.
    pub tags: &'a TagRegistry,
    /// The OK menu ends with "Phone pages" ([`RefereeConfig::phone_pages`](crate::referee::RefereeConfig::phone_pages)).
    pub phone_pages: bool,
}

impl Ctx<'_> {
    fn write(&mut self, record: &Record, out: &mut Vec<Decision>) -> bool {
        noted((self.write)(record), self.journal_error, out)
    }

    /// Journals `record`, or says why it could not be encoded.
    fn write_encoded(&mut self, record: Result<Record, String>, out: &mut Vec<Decision>) -> bool {
        match record {
            Ok(record) => self.write(&record, out),
            Err(e) => {
                out.push(Decision::JournalFailed(e));
                false
            }
        }
    }
}

/// Whether a journal write went through; a failure is decided and kept for the screen until
/// a write succeeds. The referee and its session share it.
pub(crate) fn noted(
    written: Result<(), String>,
    journal_error: &mut Option<String>,
    out: &mut Vec<Decision>,
) -> bool {
    match written {
        Ok(()) => {
            *journal_error = None;
            true
        }
        Err(msg) => {
            out.push(Decision::JournalFailed(msg.clone()));
            *journal_error = Some(msg);
            false
        }
    }
}

/// The screen naming a place that reads a piece no hand put there.
///
/// `at` holds the places `place` and `from` name.
fn ghost_screen(
    status: StatusLine,
    place: &str,
    from: Option<&str>,
    why: NotLanded,
    at: Vec<Place>,
) -> Screen {
    let reason = match (why, from) {
        (NotLanded::Unread, _) => format!("{place}: no tag could be read"),
        (_, Some(from)) => {
            format!("{place} reads a piece, but the piece from {from} was not put there")
        }
        (_, None) => format!("{place} reads a piece, but none was put there"),
    };
    let mut fix = match why {
        NotLanded::Unread => format!(
            "lift the piece on {place} and put it back; if {place} is empty, its switch misfires: check it"
        ),
        _ => format!(
            "take any piece off {place}; if it is empty, its switch is faulty: check it"
        ),
    };
    if let Some(from) = from {
        fix.push_str(&format!(", then put the {from} piece down"));
    }
    Screen::Illegal {
        status,
        reason,
        fix,
        places: Places {
            hands: at,
            ..Places::default()
        },
    }
}

/// A table game's session as the referee holds it (object safe, so one referee holds any game;
/// it upcasts to the [`TableView`] the simulator reads and to [`Any`] for the umpire's eyes).
pub(crate) trait AnySession: TableView + fmt::Debug + Any {
    fn lifted(&mut self, place: &Place);
    fn placed(&mut self, place: &Place);
    fn tag(&mut self, ctx: &mut Ctx<'_>, place: &Place, uid: TagUid, out: &mut Vec<Decision>);
    /// A tag that could not be read on `place` (a set-up by tags names it).
    fn tag_failed(&mut self, place: &Place, failure: TagFailure, out: &mut Vec<Decision>);
    fn settled(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>);
    /// Whether the board `sensed`, with the hands' changes `hands`, would be decided at once
    /// and beyond doubt if it settled now (see [`Session::decides_at_once`]).
    fn decides_at_once(
        &self,
        hands: &Hands,
        waiting: &[(Place, bool)],
        sensed: &BTreeSet<Place>,
    ) -> bool;
    /// Time passing; whether anything changed (a hold judged, the differences shown).
    fn tick(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>) -> bool;
    /// Draws the secret chance the game still owes (after a journal write failed mid-way).
    fn owed_chance(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>);
    fn button(&mut self, ctx: &mut Ctx<'_>, button: Button, out: &mut Vec<Decision>);
    fn screen(&self, sensed: &BTreeSet<Place>) -> Screen;
    fn hands_pending(&self) -> bool;
    fn differences(&self, sensed: &BTreeSet<Place>) -> Vec<Difference>;
    fn turn_key(&self) -> Option<u32>;
    /// Whether a takeback is offered (Back held confirms it).
    fn takeback_offered(&self) -> bool;
}

#[derive(Clone, Debug)]
struct SetupState<T: TableGame> {
    /// Index into the set-up order.
    turn: usize,
    step: usize,
    groups: Vec<Group>,
    /// The places each finished group of this seat took.
    filled: Vec<Vec<Place>>,
    /// The finished groups' pieces of this seat as (group, place), in the order they went
    /// down: a piece moved to correct it goes last ([`Placing::earlier`]).
    arrived: Vec<(usize, Place)>,
    /// The tags read on each finished group's places while it was placed.
    filled_tags: Vec<Vec<TagUid>>,
    /// The tags read during this step, with their places.
    read: Vec<(Place, TagUid)>,
    /// Places given to a group (either seat).
    assigned: BTreeSet<Place>,
    /// Places the seat that set up first took: still taken when a later group is undone.
    earlier: BTreeSet<Place>,
    /// Assigned places lifted and put back during this step (a piece put on a stack).
    touched: BTreeSet<Place>,
    lifted: BTreeSet<Place>,
    armies: BySeat<Option<T::Army>>,
    problems: Option<Vec<String>>,
    /// Set up by NFC tags registered to pieces: both armies at once, in any order.
    by_tags: bool,
    /// With tags: the tag last read on each place.
    read_at: BTreeMap<Place, TagUid>,
    /// With tags: a tag that could not be used, and the fix.
    tag_problem: Option<(String, String)>,
    /// A place of one of this seat's finished groups lifted while nothing else was: put down
    /// on a free place, the piece moved there (a placed piece moved is the correction).
    moving: Option<Place>,
    /// The pieces standing where their group may not go, each with the fix
    /// ([`TableGame::may_place`]), as last decided.
    misplaced: Vec<String>,
    /// Places of groups undone with Back whose pieces still stand: no part of the group being
    /// placed until lifted (they are counted, so the screen says to take them off).
    undone: BTreeSet<Place>,
}

impl<T: TableGame> SetupState<T> {
    /// Says the set-up's `problems` and lists them on the screen until the set-up changes.
    fn show_problems(&mut self, problems: Vec<String>, out: &mut Vec<Decision>) {
        out.push(Decision::SetupProblems(problems.clone()));
        self.problems = Some(problems);
    }

    /// The places of the group being placed: those sensed that no group holds, and (in a game
    /// with stacks) those a group holds that were lifted and put back during this step.
    fn placing<'a>(&'a self, sensed: &'a BTreeSet<Place>) -> impl Iterator<Item = &'a Place> {
        sensed
            .iter()
            .filter(|p| !self.assigned.contains(p) || self.touched.contains(p))
    }

    /// Every piece of `seat` standing where its group may not go, or may not go beside the
    /// pieces that went down before it, with the fix: the finished groups' pieces in the order
    /// they went down, then the group being placed.
    fn misplaced_now(
        &self,
        choice: T::Choice,
        seat: Seat,
        sensed: &BTreeSet<Place>,
    ) -> Vec<String> {
        let mut found = Vec::new();
        let standing = self.standing(sensed);
        for (i, (group, place)) in standing.iter().enumerate() {
            let at = Placing {
                seat,
                group: *group,
                place,
                earlier: &standing[..i],
                armies: &self.armies,
            };
            if let Err(why) = T::may_place_among(choice, &at) {
                found.push(why);
            }
        }
        if self.step < self.groups.len() {
            for place in self.placing(sensed).filter(|p| !self.undone.contains(p)) {
                let at = Placing {
                    seat,
                    group: self.step,
                    place,
                    earlier: &standing,
                    armies: &self.armies,
                };
                if let Err(why) = T::may_place_among(choice, &at) {
                    found.push(why);
                }
            }
        }
        found
    }

    /// The finished groups' pieces standing, in the order they went down.
    fn standing(&self, sensed: &BTreeSet<Place>) -> Vec<(usize, Place)> {
        self.arrived
            .iter()
            .filter(|(_, p)| sensed.contains(p))
            .copied()
            .collect()
    }

    /// A piece of the group being placed that was refused on a stack and then put on a free
    /// place was taken off the stack (a switch under a stack cannot tell): the stack is no
    /// longer this group's, when the group counts more pieces than it holds with it.
    fn taken_off_stacks(&mut self, choice: T::Choice, seat: Seat, sensed: &BTreeSet<Place>) {
        let Some(group) = self.groups.get(self.step) else {
            return;
        };
        let placed = self.placing(sensed).count();
        if placed <= usize::from(group.count) {
            return;
        }
        let standing = self.standing(sensed);
        let refused: Vec<Place> = self
            .touched
            .iter()
            .filter(|p| sensed.contains(p))
            .filter(|p| {
                let at = Placing {
                    seat,
                    group: self.step,
                    place: p,
                    earlier: &standing,
                    armies: &self.armies,
                };
                T::may_place_among(choice, &at).is_err()
            })
            .copied()
            .collect();
        if !refused.is_empty() && placed - refused.len() <= usize::from(group.count) {
            for p in &refused {
                self.touched.remove(p);
            }
        }
    }

    /// The piece of a finished group lifted from `from` went down on `to`, a free place: it
    /// stands there now, in its own group (moving a placed piece corrects it; nothing after
    /// it is undone).
    fn relocate(&mut self, from: Place, to: Place) {
        for places in &mut self.filled {
            for p in places.iter_mut().filter(|p| **p == from) {
                *p = to;
            }
            places.sort();
        }
        // Moved, the piece went down last: it joins the pieces standing, not they it.
        let (moved, stayed): (Vec<_>, Vec<_>) =
            self.arrived.drain(..).partition(|(_, p)| *p == from);
        self.arrived = stayed;
        self.arrived
            .extend(moved.into_iter().map(|(group, _)| (group, to)));
        self.assigned.remove(&from);
        self.assigned.insert(to);
        self.lifted.remove(&from);
        self.moving = None;
    }

    /// The problem of a group given more pieces than it has, with the fix.
    fn too_many(group: &Group, placed: usize) -> Option<String> {
        let extra = placed
            .checked_sub(usize::from(group.count))
            .filter(|&n| n > 0)?;
        Some(format!(
            "{placed} placed for {}: take {extra} off",
            group.label
        ))
    }
}

#[derive(Clone, Debug)]
struct Menu<A> {
    title: String,
    entries: Vec<(String, A)>,
    selected: usize,
    /// Opened because a gesture meant several actions: the sensed board it was opened on.
    board: Option<BTreeSet<Place>>,
    /// Ends with "Take back", after the actions: a "Which?" whose board is also an earlier
    /// one (the takeback to that ply), asked rather than chosen by what is hidden
    /// ([`TableGame::askable`]).
    takeback: Option<u32>,
    /// Ends with "Phone pages", after the actions (and "Take back").
    phone: bool,
    /// A secret pick ([`TableGame::secret_choice`]): the others look away.
    secret: bool,
}

/// What OK on a menu's highlighted entry does.
enum Pick<'a, A> {
    Action(&'a A),
    TakeBack(u32),
    PhonePages,
}

/// The menu entry that takes back instead of acting.
const TAKE_BACK: &str = "Take back";

impl<A> Menu<A> {
    /// The entries' labels as shown: the actions, then "Take back" and "Phone pages" when they
    /// are there.
    fn labels(&self) -> Vec<String> {
        let mut labels: Vec<String> = self.entries.iter().map(|e| e.0.clone()).collect();
        if self.takeback.is_some() {
            labels.push(TAKE_BACK.to_string());
        }
        if self.phone {
            labels.push(crate::referee::PHONE_PAGES.to_string());
        }
        labels
    }

    /// How many entries are shown.
    fn len(&self) -> usize {
        self.entries.len() + usize::from(self.takeback.is_some()) + usize::from(self.phone)
    }

    /// Highlights the next entry, round to the first.
    fn next(&mut self) {
        self.selected = (self.selected + 1) % self.len().max(1);
    }

    /// What the highlighted entry does.
    fn pick(&self) -> Option<Pick<'_, A>> {
        if let Some((_, action)) = self.entries.get(self.selected) {
            return Some(Pick::Action(action));
        }
        let extra = self.selected.checked_sub(self.entries.len())?;
        self.takeback
            .map(Pick::TakeBack)
            .into_iter()
            .chain(self.phone.then_some(Pick::PhonePages))
            .nth(extra)
    }
}

/// One action in words, kept as it is played (`PlayState::story`): what the seats' pages tell
/// of it, and the action revealed for the replay once the game is over.
#[derive(Clone, Debug)]
struct Said {
    /// The action in public words ([`TableGame::label`]).
    public: String,
    /// What the table was told besides ([`TableGame::told`]).
    told: Vec<String>,
    /// The piece that acted as each seat's own view named it, where the public board did not.
    own: BySeat<Option<String>>,
    /// The action with every secret named ([`TableGame::revealed`]): the replay's only.
    revealed: String,
}

impl Said {
    /// `action`, played on `before` and giving `after`, in words.
    fn of<T: TableGame>(before: &T, action: &T::Action, after: &T) -> Said {
        let from = before.label_places(action).moved.first().copied();
        let public = from.and_then(|place| before.board().remove(&place));
        // Only the acting seat's own piece: a piece another seat's view names beyond the
        // public board (one it was shown) is not "yours".
        let actor = before.to_act();
        let own = BySeat::from_fn(|seat| {
            if actor != Actor::Seat(seat) {
                return None;
            }
            let mine = before.seat_board(seat).remove(&from?)?;
            (public.as_ref() != Some(&mine)).then_some(mine)
        });
        Said {
            public: before.label(action),
            told: after.told(),
            own,
            revealed: before.revealed(action),
        }
    }
}

#[derive(Clone, Debug)]
struct PlayState<T: TableGame> {
    /// `history[k]`: the game after `k` actions with its occupied places; the last is now.
    history: Vec<(T, BTreeSet<Place>)>,
    /// `story[k]`: action `k + 1` in words (one fewer than `history`).
    story: Vec<Said>,
    /// The public board of the game now ([`TableGame::board`]), listed when first read and
    /// kept until the game changes: the screen reads it at every scan while the hands work.
    expected: std::cell::RefCell<Option<BTreeMap<Place, String>>>,
    /// The hands' steps last listed, and the sensed board they were listed for: the screen is
    /// drawn at every scan, the steps change only with the board.
    steps: std::cell::RefCell<Option<(BTreeSet<Place>, Steps)>>,
    announcement: Option<Screen>,
    /// The board still owes what the announcement asks of the hands.
    hands: bool,
    /// Places whose piece must still be lifted and replaced by another (occupancy cannot see it).
    swaps: BTreeSet<Place>,
    /// The board sensed when the last action was played: while the hands owe steps, seeing it
    /// again is no takeback (a menu choice that removes a piece leaves the board as it was).
    acted_on: Option<BTreeSet<Place>>,
    refused: Option<(BTreeSet<Place>, Screen)>,
    takeback: Option<u32>,
    declined: Option<BTreeSet<Place>>,
    unmatched_since: Option<Millis>,
    mismatch_shown: bool,
    prompt: Option<String>,
    menu: Option<Menu<T::Action>>,
    /// A menu closed with Back on this board: not reopened until the board changes.
    menu_declined: Option<BTreeSet<Place>>,
    /// The piece lifted and put back since the last action.
    selected: Option<Place>,
    /// The tags read since the last action, each with the place it was last read on.
    tags: Vec<(Place, TagUid)>,
    lifted: BTreeSet<Place>,
    /// The piece lifted while nothing else was: put back before anything else is lifted, it
    /// is selected (pieces put back to mend the board select nothing).
    first_lift: Option<Place>,
    off: bool,
    must_match: bool,
    chance_failed: Option<String>,
    /// A gesture of lifts only, held until it is unmistakable: when it is judged.
    hold_until: Option<Millis>,
    /// The last action, when the hands made it by sliding one piece: (actions played after
    /// it, from, to, when it was played). Its target reading a piece while its origin is filled
    /// again is a ghost.
    last_slide: Option<(u32, Place, Place, Millis)>,
    /// The last action, when the hands made it by putting one piece down and lifting none (a
    /// coin off a stack, a marker from the box): (actions played after it, the gesture). A
    /// hand that carries that piece on corrects it, as a slide carried on does.
    last_drop: Option<(u32, Gesture)>,
    /// Places named as reading a piece no hand put there, until the board matches.
    ghosts: BTreeSet<Place>,
    /// The last action a hand made was taken with the buttons (a menu choice, a roll): Back
    /// may offer to undo it.
    by_button: bool,
}

impl<T: TableGame> PlayState<T> {
    /// Nothing is judged or said yet but `prompt`, until `until` (see
    /// [`RefereeConfig::attack_hold_ms`](crate::referee::RefereeConfig::attack_hold_ms)).
    fn hold(&mut self, until: Millis, prompt: String) {
        self.announcement = None;
        self.refused = None;
        self.menu = None;
        self.unmatched_since = None;
        self.mismatch_shown = false;
        self.hold_until = Some(until);
        self.prompt = Some(prompt);
    }
}

/// The last action, a slide from `from` (or a piece put down, `made`), corrected: `was` (the
/// action first read) becomes `now`, the same piece carried on to `to`.
struct Correction<A> {
    was: A,
    now: A,
    from: Option<Place>,
    made: Gesture,
}

/// The correction of the action `was` made on `before` into the one `made` makes, when each
/// gesture reads as exactly one action there.
fn one_correction<T: TableGame>(
    before: &T,
    was: &Gesture,
    made: Gesture,
    from: Option<Place>,
) -> Option<Correction<T::Action>> {
    let mut was = before.matching(was);
    let mut now = before.matching(&made);
    // For a game that asks by what the table sees, only when no other piece could have made
    // the new gesture as far as the table can tell: which is legal is the hidden pieces' say.
    if before
        .askable(&made, &now)
        .is_some_and(|asked| asked.len() != 1)
    {
        return None;
    }
    match (was.len(), now.len()) {
        (1, 1) => Some(Correction {
            was: was.remove(0).1,
            now: now.remove(0).1,
            from,
            made,
        }),
        _ => None,
    }
}

/// The actions of `list` whose pieces are the ones the NFC tags read (`tags`, by `registry`).
fn fitting_tags<T: TableGame>(
    game: &T,
    list: &[(Gesture, T::Action)],
    tags: &[(Place, TagUid)],
    registry: &TagRegistry,
) -> Vec<(Gesture, T::Action)> {
    list.iter()
        .filter(|(_, a)| game.fits_tags(a, tags, registry))
        .cloned()
        .collect()
}

/// When the hold that began at the hands' last change ends, if it has not yet.
fn hold_until(ctx: &Ctx<'_>) -> Option<Millis> {
    ctx.hands
        .last_change()
        .map(|at| at.plus(ctx.attack_hold_ms))
        .filter(|until| ctx.now < *until)
}

/// The places whose piece the actions since the last seat's action, and that action, exchanged
/// ([`TableGame::exchanged`]: a battle die's winner on its loser's square, a captured control
/// box, a battle settled after a menu's answer) and that read a piece in `sensed`: what a
/// restart asks the hands again, since occupancy cannot tell whether they made the exchange
/// before the power went (one made already costs a lift and a put). No seat's action is
/// taken while an exchange is owed (gestures wait for the hands; the OK menu refuses), so
/// those before the last one were made. A place a gesture of that action lifts is left out:
/// its hands lifted what it exchanged, and put the pieces down themselves. `history[k]` is the
/// game after `k` of `actions`.
fn exchanges_since_the_last_choice<T: TableGame>(
    history: &[T],
    actions: &[T::Action],
    sensed: &BTreeSet<Place>,
) -> BTreeSet<Place> {
    let mut owed = BTreeSet::new();
    for (pair, action) in history.windows(2).zip(actions).rev() {
        let (before, after) = (&pair[0], &pair[1]);
        let exchanged = after.exchanged().into_iter().filter(|p| sensed.contains(p));
        if before.to_act() == Actor::Chance {
            owed.extend(exchanged);
            continue;
        }
        let lifted: BTreeSet<Place> = before
            .gestures()
            .into_iter()
            .filter(|(_, a)| a == action)
            .flat_map(|(g, _)| g.lifted)
            .collect();
        owed.extend(exchanged.filter(|p| !lifted.contains(p)));
        break;
    }
    owed
}

impl<T: TableGame> PlayState<T> {
    /// Play from `history[k]`, the game after `k` actions, `actions[k]` taking it to the next.
    fn new(history: Vec<T>, actions: &[T::Action]) -> PlayState<T> {
        let story = history
            .windows(2)
            .zip(actions)
            .map(|(games, action)| Said::of(&games[0], action, &games[1]))
            .collect();
        PlayState {
            story,
            expected: std::cell::RefCell::new(None),
            steps: std::cell::RefCell::new(None),
            history: history
                .into_iter()
                .map(|g| {
                    let board = g.occupied();
                    (g, board)
                })
                .collect(),
            announcement: None,
            hands: false,
            swaps: BTreeSet::new(),
            acted_on: None,
            refused: None,
            takeback: None,
            declined: None,
            unmatched_since: None,
            mismatch_shown: false,
            prompt: None,
            menu: None,
            menu_declined: None,
            selected: None,
            tags: Vec::new(),
            lifted: BTreeSet::new(),
            first_lift: None,
            off: false,
            must_match: false,
            chance_failed: None,
            hold_until: None,
            last_slide: None,
            last_drop: None,
            ghosts: BTreeSet::new(),
            by_button: false,
        }
    }

    fn game(&self) -> Option<&T> {
        self.history.last().map(|(g, _)| g)
    }

    /// The public board of the game now.
    fn expected(&self) -> std::cell::Ref<'_, BTreeMap<Place, String>> {
        {
            let mut cache = self.expected.borrow_mut();
            if cache.is_none() {
                *cache = Some(self.game().map(TableGame::board).unwrap_or_default());
            }
        }
        static NONE: BTreeMap<Place, String> = BTreeMap::new();
        std::cell::Ref::map(self.expected.borrow(), |e| e.as_ref().unwrap_or(&NONE))
    }

    /// Goes back to the game after `to` actions (see [`take_back`]).
    fn back_to(&mut self, to: u32) -> bool {
        let done = take_back(&mut self.history, to);
        if done {
            self.story
                .truncate(usize::try_from(to).unwrap_or(usize::MAX));
        }
        *self.expected.get_mut() = None;
        *self.steps.get_mut() = None;
        done
    }

    fn board(&self) -> Option<&BTreeSet<Place>> {
        self.history.last().map(|(_, b)| b)
    }

    fn actions(&self) -> u32 {
        u32::try_from(self.history.len().saturating_sub(1)).unwrap_or(u32::MAX)
    }

    /// The players' actions a takeback to the game after `to` actions undoes: chance outcomes
    /// (a die, a secret draw) are no one's move.
    fn moves_back(&self, to: u32) -> u32 {
        let from = usize::try_from(to).unwrap_or(usize::MAX);
        let undone = self.history.get(from..self.history.len().saturating_sub(1));
        let moves = undone.map_or(0, |games| {
            games
                .iter()
                .filter(|(g, _)| matches!(g.to_act(), Actor::Seat(_)))
                .count()
        });
        u32::try_from(moves).unwrap_or(u32::MAX)
    }

    /// The turn the status line shows in the game after `to` actions: the one counter every
    /// screen uses (the status line, the takeback offer, what a takeback says).
    fn turn_after(&self, to: u32) -> u32 {
        usize::try_from(to)
            .ok()
            .and_then(|k| self.history.get(k))
            .map_or(to + 1, |(g, _)| g.status_line().turn)
    }

    fn calm(&mut self) {
        self.refused = None;
        self.takeback = None;
        self.unmatched_since = None;
        self.mismatch_shown = false;
    }

    /// The game changed (an action played or taken back): what was offered, refused, selected
    /// or read for the game before is forgotten, and its board is listed anew.
    fn forget(&mut self) {
        self.calm();
        self.announcement = None;
        self.menu = None;
        self.selected = None;
        self.tags.clear();
        self.last_slide = None;
        self.last_drop = None;
        *self.expected.get_mut() = None;
        *self.steps.get_mut() = None;
    }

    /// Draws an outcome of the chance the game calls for; a failure is kept (and shown) until a
    /// draw succeeds.
    fn draw(&mut self, chance: &mut dyn Chance) -> Result<Option<T::Action>, String> {
        let outcomes = self.game().map(TableGame::chance).unwrap_or_default();
        match pick_weighted(chance, &outcomes) {
            Ok(drawn) => {
                if drawn.is_some() {
                    self.chance_failed = None;
                }
                Ok(drawn)
            }
            Err(e) => Err(self.chance_failed.insert(e.to_string()).clone()),
        }
    }

    /// Takes back to the game after `to` actions (see [`take_back`]), whose board the hands
    /// owe nothing.
    fn took_back(&mut self, to: u32) {
        self.back_to(to);
        self.forget();
        self.hands = false;
        self.swaps.clear();
    }
}

#[derive(Clone, Debug)]
enum Stage<T: TableGame> {
    Setup(Box<SetupState<T>>),
    Play(Box<PlayState<T>>),
}

/// One game of a [`TableGame`] at the table: set-up by groups, then play. Driven by the
/// referee; see the [module docs](super).
#[derive(Clone, Debug)]
pub struct Session<T: TableGame> {
    choice: T::Choice,
    stage: Stage<T>,
}

/// A table game rebuilt from its journal records.
#[derive(Clone, Debug)]
pub struct TableRebuilt<T: TableGame> {
    /// The armies journaled so far.
    pub armies: BySeat<Option<T::Army>>,
    /// Once both armies are placed: `history[k]` is the game after `k` actions.
    pub history: Vec<T>,
    /// `actions[k]` took `history[k]` to `history[k + 1]`.
    pub actions: Vec<T::Action>,
    /// What happened, in journal order.
    pub entries: Vec<TableEntry>,
}

/// One journal record of a rebuilt table game, as the referee announced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEntry {
    /// The action's number from 1; for a takeback, the actions that remain played; 0 for an
    /// army.
    pub number: u32,
    /// Who acted: the army's seat, the action's actor, [`Actor::Nobody`] for a takeback.
    pub actor: Actor,
    /// [`Decision::Deployed`], the action's [`TableGame::acted`] (a Stratego battle with both
    /// ranks), or [`Decision::TookBack`].
    pub decision: Decision,
    /// The action in full (the umpire's eyes, [`TableGame::revealed`]); empty for an army or
    /// a takeback.
    pub full: String,
    /// The action in public words; empty for an army or a takeback.
    pub public: String,
    /// What the table was told besides ([`TableGame::told`]): battles, results, the die's
    /// meaning. Public.
    pub told: Vec<String>,
}

/// Rebuilds a table game from its records, checking each against the rules: the one journal
/// reader of every game, for resuming and for the replay.
///
/// # Errors
/// The first record that cannot be trusted.
pub fn rebuild_table<T: TableGame>(
    choice: T::Choice,
    records: &[Record],
) -> Result<TableRebuilt<T>, RebuildError> {
    let mut out = TableRebuilt {
        armies: BySeat::default(),
        history: Vec::new(),
        actions: Vec::new(),
        entries: Vec::new(),
    };
    for (index, record) in records.iter().enumerate() {
        let bad = |problem: String| RebuildError::Record { index, problem };
        if index == 0 && matches!(record, Record::Files(_)) {
            // The files the game began on, checked before (`games::journaled_kind`).
            continue;
        }
        let entry = match T::read_record(record).map_err(bad)? {
            Journaled::Army(seat, army) => {
                if out.armies.get(seat).is_none() {
                    return Err(bad(format!(
                        "an army for {seat}, which this game does not have"
                    )));
                }
                if !out.history.is_empty() {
                    return Err(bad("a set-up after the game began".into()));
                }
                out.armies[seat] = Some(army);
                if let BySeat([Some(a), Some(b)]) = &out.armies {
                    let armies: BySeat<T::Army> = BySeat([T::Army::clone(a), T::Army::clone(b)]);
                    let game =
                        T::start(choice, &armies).map_err(|p| RebuildError::Setup(p.join("; ")))?;
                    out.history.push(game);
                }
                TableEntry {
                    number: 0,
                    actor: Actor::Seat(seat),
                    decision: Decision::Deployed(seat),
                    full: String::new(),
                    public: String::new(),
                    told: Vec::new(),
                }
            }
            Journaled::Action(action) => {
                let Some(game) = out.history.last() else {
                    return Err(bad("an action before both armies were placed".into()));
                };
                game.check(&action)
                    .map_err(|e| bad(format!("{action:?}: {e}")))?;
                let mut next = game.clone();
                next.play(&action);
                let entry = TableEntry {
                    number: u32::try_from(out.history.len()).unwrap_or(u32::MAX),
                    actor: game.to_act(),
                    decision: game.acted(&action, &next),
                    full: game.revealed(&action),
                    public: game.label(&action),
                    told: next.told(),
                };
                out.history.push(next);
                out.actions.push(action);
                entry
            }
            Journaled::Takeback(to_ply) => {
                if !take_back(&mut out.history, to_ply) {
                    return Err(bad(format!("a takeback to action {to_ply}")));
                }
                out.actions
                    .truncate(usize::try_from(to_ply).unwrap_or(usize::MAX));
                TableEntry {
                    number: to_ply,
                    actor: Actor::Nobody,
                    decision: Decision::TookBack { to_ply },
                    full: String::new(),
                    public: String::new(),
                    told: Vec::new(),
                }
            }
        };
        out.entries.push(entry);
    }
    Ok(out)
}

/// Goes back to the game after `to_ply` actions, where `history[k]` is the game after `k`
/// actions: live and on rebuild. `false`, and `history` as it was, when there is no such game.
fn take_back<G>(history: &mut Vec<G>, to_ply: u32) -> bool {
    let keep = usize::try_from(to_ply).unwrap_or(usize::MAX);
    if keep >= history.len() {
        return false;
    }
    history.truncate(keep + 1);
    true
}

/// A table game's journal told for people: what `umpire-sim replay` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRecord {
    /// The game and variant.
    pub title: String,
    /// Each seat's name as the game calls it ("French", "Allied").
    pub seat_names: BySeat<&'static str>,
    /// The armies journaled, in journal order: whose, and the army in words
    /// ([`TableGame::army_words`]: the umpire's eyes).
    pub armies: Vec<(Seat, Vec<String>)>,
    /// Each action and takeback, in journal order (armies left out).
    pub entries: Vec<TableEntry>,
    /// The result, once over.
    pub result: Option<(String, String)>,
    /// The final board as the table knows it: each place by its name, and what stands there.
    pub board: Vec<(String, String)>,
    /// The final board with every piece named (the umpire's eyes).
    pub umpire_board: Vec<(String, String)>,
}

/// Rebuilds a table game's journal into a [`TableRecord`].
///
/// # Errors
/// The first record that cannot be trusted.
pub fn table_record<T: TableGame>(
    choice: T::Choice,
    records: &[Record],
) -> Result<TableRecord, RebuildError> {
    let rebuilt = rebuild_table::<T>(choice, records)?;
    let mut armies = Vec::new();
    for entry in &rebuilt.entries {
        if let Decision::Deployed(seat) = entry.decision {
            let words = rebuilt.armies[seat]
                .as_ref()
                .map(|army| T::army_words(choice, seat, army))
                .unwrap_or_default();
            armies.push((seat, words));
        }
    }
    let last = rebuilt.history.last();
    let named = |board: BTreeMap<Place, String>| -> Vec<(String, String)> {
        board
            .into_iter()
            .map(|(place, words)| (T::place_name(choice, &place), words))
            .collect()
    };
    Ok(TableRecord {
        title: T::title(choice),
        seat_names: BySeat::from_fn(T::seat_name),
        armies,
        entries: rebuilt
            .entries
            .iter()
            .filter(|e| !matches!(e.decision, Decision::Deployed(_)))
            .cloned()
            .collect(),
        result: last.and_then(TableGame::result),
        board: last.map(|g| named(g.board())).unwrap_or_default(),
        umpire_board: last
            .map(|g| {
                named(
                    g.umpire_board()
                        .into_iter()
                        .map(|(place, n)| (place, n.name))
                        .collect(),
                )
            })
            .unwrap_or_default(),
    })
}

/// Who places `seat`'s set-up group `step` as the prompts name them
/// ([`TableGame::group_actor`]), or after the last group the one who placed it.
fn setup_actor<T: TableGame>(choice: T::Choice, seat: Seat, step: usize) -> String {
    let last = T::groups(choice, seat).len().saturating_sub(1);
    T::group_actor(choice, seat, step.min(last))
}

/// `names` in words: "French", "French and Allies", "French, Anglo-Dutch and Prussian".
fn words_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The hands' steps as the screen lists them, with the place each names (the LED guidance
/// lights those, never reading them back out of the words).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Steps {
    words: Vec<HandStep>,
    places: Vec<Place>,
    /// Per step, the place it names and what it asks there.
    asks: Vec<(Place, Ask)>,
}

/// What a hand step asks of its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// A piece on it.
    Put,
    /// The piece on it off.
    TakeOff,
    /// The piece on it exchanged for the right one.
    Swap,
}

impl Steps {
    /// One more step, naming `place`.
    fn push(&mut self, place: Place, ask: Ask, words: String) {
        self.words.push(words);
        self.asks.push((place, ask));
        if !self.places.contains(&place) {
            self.places.push(place);
        }
    }

    /// The steps without those the announcement's words already ask for
    /// ([`TableGame::told_moves`]): for each move told, the piece off the place it leaves and
    /// a piece on the place it goes; for an arrival, a piece on its place; for an exchange,
    /// the swap at its place and a piece on it (when the old one is off). Their places stay
    /// named: the LEDs light what the told words name, while the hands have it to do.
    fn without_told(self, moves: &[ToldMove]) -> Steps {
        let tells = |m: &ToldMove, place: &Place, ask: &Ask| match (*m, ask) {
            (ToldMove::Move { from, .. }, Ask::TakeOff) => from == *place,
            (ToldMove::Move { to, .. }, Ask::Put)
            | (ToldMove::Arrive(to), Ask::Put)
            | (ToldMove::Exchange(to), Ask::Put | Ask::Swap) => to == *place,
            _ => false,
        };
        let told = |(place, ask): &(Place, Ask)| moves.iter().any(|m| tells(m, place, ask));
        let (words, asks) = self
            .words
            .into_iter()
            .zip(self.asks)
            .filter(|(_, ask)| !told(ask))
            .unzip();
        Steps {
            words,
            places: self.places,
            asks,
        }
    }

    fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The steps as one refusal's fix, and the places they name.
    fn fix(self) -> (String, Places) {
        let places = Places {
            hands: self.places,
            ..Places::default()
        };
        (self.words.join("; "), places)
    }
}

/// The hands' steps that take `sensed` to `expected`.
fn hand_steps<T: TableGame>(
    choice: T::Choice,
    expected: &std::collections::BTreeMap<Place, String>,
    sensed: &BTreeSet<Place>,
) -> Steps {
    let mut steps = Steps::default();
    for d in differences::<T>(choice, expected, sensed) {
        let Some(at) = d.at else { continue };
        if d.belongs == "empty" {
            steps.push(at, Ask::TakeOff, format!("{}: take the piece off", d.place));
        } else {
            steps.push(at, Ask::Put, format!("{}: put the {}", d.place, d.belongs));
        }
    }
    steps
}

fn differences<T: TableGame>(
    choice: T::Choice,
    expected: &std::collections::BTreeMap<Place, String>,
    sensed: &BTreeSet<Place>,
) -> Vec<Difference> {
    differences_between(
        expected,
        sensed,
        |p| T::place_name(choice, p),
        String::clone,
    )
}

/// Where `sensed` differs from `expected` (each place and what stands there), in place order:
/// first each place missing its piece, with what belongs there, then each piece where none
/// belongs ("empty"). Places are named by `name`. The table games and Stratego share it.
pub(crate) fn differences_between<B>(
    expected: &std::collections::BTreeMap<Place, B>,
    sensed: &BTreeSet<Place>,
    name: impl Fn(&Place) -> String,
    belongs: impl Fn(&B) -> String,
) -> Vec<Difference> {
    let mut diffs = Vec::new();
    for (place, what) in expected {
        if !sensed.contains(place) {
            diffs.push(Difference {
                place: name(place),
                belongs: belongs(what),
                at: Some(*place),
            });
        }
    }
    for place in sensed {
        if !expected.contains_key(place) {
            diffs.push(Difference {
                place: name(place),
                belongs: "empty".to_string(),
                at: Some(*place),
            });
        }
    }
    diffs
}

/// `screen` with the live hand steps (announcements that ask nothing of the hands unchanged),
/// keeping the places the action names.
fn with_hands(screen: &Screen, status: StatusLine, steps: Steps) -> Screen {
    if steps.is_empty() && steps.places.is_empty() {
        return screen.clone();
    }
    let Steps {
        words: hands,
        places: at,
        ..
    } = steps;
    let named = |places: Places| Places {
        hands: at.clone(),
        ..places
    };
    match screen.clone() {
        Screen::Battle {
            attacker,
            defender,
            result,
            after,
            places,
            ..
        } => Screen::Battle {
            attacker,
            defender,
            result,
            after,
            hands,
            places: named(places),
        },
        Screen::Told {
            status,
            title,
            lines,
            places,
            ..
        } => Screen::Told {
            status,
            title,
            lines,
            hands,
            places: named(places),
        },
        Screen::MoveAccepted { mv, places, .. } => Screen::Told {
            status,
            title: mv,
            lines: Vec::new(),
            hands,
            places: named(places),
        },
        Screen::DieRoll { face, meaning } => Screen::Told {
            status,
            title: format!("Die: {face}"),
            lines: vec![meaning],
            hands,
            places: named(Places::default()),
        },
        other => other,
    }
}

impl<T: TableGame> Session<T> {
    /// A new session at the start of set-up by groups.
    pub fn new(choice: T::Choice) -> Session<T> {
        let order = T::setup_order(choice);
        Session {
            choice,
            stage: Stage::Setup(Box::new(SetupState {
                turn: 0,
                step: 0,
                groups: T::groups(choice, order[0]),
                filled: Vec::new(),
                arrived: Vec::new(),
                filled_tags: Vec::new(),
                read: Vec::new(),
                assigned: BTreeSet::new(),
                earlier: BTreeSet::new(),
                touched: BTreeSet::new(),
                lifted: BTreeSet::new(),
                armies: BySeat::default(),
                problems: None,
                by_tags: false,
                read_at: BTreeMap::new(),
                tag_problem: None,
                moving: None,
                misplaced: Vec::new(),
                undone: BTreeSet::new(),
            })),
        }
    }

    /// Whether the set-up in progress is by tags (every army at once), not by groups.
    fn setting_up_by_tags(&self) -> bool {
        matches!(&self.stage, Stage::Setup(state) if state.by_tags)
    }

    /// The set-up in progress in the words the umpire's eyes and the phone pages use after
    /// "Set-up: ": who places which group, or, set up by tags, that every army goes down at
    /// once; `None` in play.
    fn setup_words(&self) -> Option<String> {
        if self.setting_up_by_tags() {
            return Some("every army is placed at once, each piece known by its tag".to_string());
        }
        let (seat, step) = self.setup_step()?;
        Some(format!(
            "{} places group {}",
            setup_actor::<T>(self.choice, seat, step),
            step + 1
        ))
    }

    /// A new session at the start of a set-up by NFC tags registered to pieces (both armies
    /// at once, in any order); `None` when the game has no such set-up
    /// ([`TableGame::tag_setup`]).
    pub fn by_tags(choice: T::Choice) -> Option<Session<T>> {
        T::tag_setup(choice)?;
        let mut session = Session::new(choice);
        if let Stage::Setup(state) = &mut session.stage {
            state.by_tags = true;
        }
        Some(session)
    }

    /// A session resumed from its rebuilt journal with the board as sensed now: during set-up,
    /// at the first seat without an army; in play, showing every difference at once.
    /// With `by_tags`, the set-up is by tags (see [`Session::by_tags`]).
    pub fn resume(
        choice: T::Choice,
        by_tags: bool,
        rebuilt: TableRebuilt<T>,
        sensed: &BTreeSet<Place>,
    ) -> Session<T> {
        let mut session = match by_tags {
            true => Session::by_tags(choice).unwrap_or_else(|| Session::new(choice)),
            false => Session::new(choice),
        };
        if rebuilt.history.is_empty() {
            if let Stage::Setup(state) = &mut session.stage {
                let order = T::setup_order(choice);
                state.armies = rebuilt.armies;
                if state.armies[order[0]].is_some() && !state.by_tags {
                    state.turn = 1;
                    state.groups = T::groups(choice, order[1]);
                    // The first army's places are taken: those its journaled army names, when
                    // the game can say (a piece of the second seat already standing then
                    // joins its group), else every place that reads a piece now.
                    let taken = state.armies[order[0]]
                        .as_ref()
                        .and_then(T::army_places)
                        .unwrap_or_else(|| sensed.clone());
                    state.assigned = taken.clone();
                    state.earlier = taken;
                }
            }
        } else {
            let owed = exchanges_since_the_last_choice(&rebuilt.history, &rebuilt.actions, sensed);
            let mut play = PlayState::new(rebuilt.history, &rebuilt.actions);
            play.swaps = owed;
            play.hands = !play.swaps.is_empty();
            play.mismatch_shown = true;
            play.must_match = true;
            play.off = true;
            session.stage = Stage::Play(Box::new(play));
        }
        session
    }

    /// What the menu chose (with Stratego: Waterloo, the board layout played on).
    pub fn choice(&self) -> T::Choice {
        self.choice
    }

    /// The game as the umpire knows it (every secret: the umpire's eyes only), once play began.
    pub fn game(&self) -> Option<&T> {
        match &self.stage {
            Stage::Play(p) => p.game(),
            Stage::Setup(_) => None,
        }
    }

    /// Actions played so far (chance outcomes included), once play began.
    pub fn actions(&self) -> Option<u32> {
        match &self.stage {
            Stage::Play(p) => Some(p.actions()),
            Stage::Setup(_) => None,
        }
    }

    // ---- set-up ---------------------------------------------------------------------------

    fn setup_button(&mut self, ctx: &mut Ctx<'_>, button: Button, out: &mut Vec<Decision>) {
        let Stage::Setup(state) = &mut self.stage else {
            return;
        };
        let order = T::setup_order(self.choice);
        let seat = order[state.turn.min(1)];
        match button {
            Button::Die => out.push(Decision::Ignored {
                button,
                why: "no die roll during set-up".to_string(),
            }),
            Button::Back if state.by_tags => {
                state.problems = None;
                state.tag_problem = None;
            }
            Button::Ok if state.by_tags => self.finish_tags(ctx, out),
            Button::Back => {
                state.problems = None;
                state.touched.clear();
                state.read.clear();
                state.filled_tags.pop();
                match state.filled.pop() {
                    Some(places) => {
                        // A place an earlier group still holds stays taken (a piece undone off
                        // a stack leaves the piece under it).
                        for p in &places {
                            let held = state.earlier.contains(p)
                                || state.filled.iter().any(|g| g.contains(p));
                            if !held {
                                state.assigned.remove(p);
                                state.undone.insert(*p);
                            }
                        }
                        state.step = state.step.saturating_sub(1);
                        let undone = state.filled.len();
                        state.arrived.retain(|(group, _)| *group != undone);
                        state.misplaced = state.misplaced_now(self.choice, seat, ctx.sensed);
                        let group = state
                            .groups
                            .get(state.step)
                            .map(|g| g.label.clone())
                            .unwrap_or_default();
                        out.push(Decision::GroupUndone { seat, group });
                    }
                    None => out.push(Decision::Ignored {
                        button,
                        why: "nothing to undo in this set-up".to_string(),
                    }),
                }
            }
            Button::Ok => {
                if state.step >= state.groups.len() {
                    // Problems were shown after the last group: check again.
                    self.finish_seat(ctx, out);
                    return;
                }
                let Some(group) = state.groups.get(state.step).cloned() else {
                    return;
                };
                let misplaced = state.misplaced_now(self.choice, seat, ctx.sensed);
                if !misplaced.is_empty() {
                    // A piece where its group may not go is never counted: put it right first.
                    state.misplaced = misplaced.clone();
                    return state.show_problems(misplaced, out);
                }
                let mut places: Vec<Place> = state.placing(ctx.sensed).copied().collect();
                places.sort();
                let n = places.len();
                if let Some(problem) = SetupState::<T>::too_many(&group, n) {
                    return state.show_problems(vec![problem], out);
                }
                let outside = n < usize::from(group.min) || n > usize::from(group.count);
                if group.counted && outside {
                    let wanted = if group.min == group.count {
                        format!("{}", group.count)
                    } else {
                        format!("{} to {}", group.min, group.count)
                    };
                    let problem = format!(
                        "{n} placed for {}: place {wanted}, then press OK (lift a piece of \
                         this group and put it down again if it went on a stack)",
                        group.label
                    );
                    state.show_problems(vec![problem], out);
                    state.touched.clear();
                    state.read.clear();
                    return;
                }
                state.problems = None;
                for p in &places {
                    state.assigned.insert(*p);
                }
                state.touched.clear();
                state.lifted.clear();
                let tags = state
                    .read
                    .drain(..)
                    .filter(|(p, _)| places.contains(p))
                    .map(|(_, uid)| uid)
                    .collect();
                state.filled_tags.push(tags);
                out.push(Decision::GroupPlaced {
                    seat,
                    group: group.label.clone(),
                    count: n,
                });
                state
                    .arrived
                    .extend(places.iter().map(|p| (state.step, *p)));
                state.filled.push(places);
                state.step += 1;
                if state.step == state.groups.len() {
                    self.finish_seat(ctx, out);
                }
            }
        }
    }

    fn finish_seat(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>) {
        let Stage::Setup(state) = &mut self.stage else {
            return;
        };
        let order = T::setup_order(self.choice);
        let seat = order[state.turn.min(1)];
        if state.armies[seat].is_none() {
            match T::army_tagged(self.choice, seat, &state.filled, &state.filled_tags) {
                Ok(army) => {
                    // The second army is journaled only once the two start a game: a journal
                    // must never hold a set-up the rules refuse (it could not be resumed).
                    let mut both = state.armies.clone();
                    both[seat] = Some(army.clone());
                    if let BySeat([Some(a), Some(b)]) = both {
                        if let Err(problems) = T::start(self.choice, &BySeat([a, b])) {
                            return state.show_problems(problems, out);
                        }
                    }
                    if !ctx.write_encoded(T::army_record(seat, &army), out) {
                        return;
                    }
                    out.push(Decision::Deployed(seat));
                    state.armies[seat] = Some(army);
                    state.problems = None;
                }
                Err(problems) => return state.show_problems(problems, out),
            }
        }
        if state.turn == 0 {
            state.turn = 1;
            state.step = 0;
            state.earlier = state.assigned.clone();
            state.filled.clear();
            state.arrived.clear();
            state.filled_tags.clear();
            state.groups = T::groups(self.choice, order[1]);
            return;
        }
        let (Some(a), Some(b)) = (&state.armies[Seat::FIRST], &state.armies[Seat::SECOND]) else {
            return;
        };
        match T::start(self.choice, &BySeat([a.clone(), b.clone()])) {
            Ok(game) => self.begin(ctx, game, out),
            Err(problems) => {
                // Both armies stand; the second seat's last group can be undone with Back.
                state.armies[seat] = None;
                state.show_problems(problems, out);
            }
        }
    }

    /// Both armies are journaled: play begins with `game`.
    fn begin(&mut self, ctx: &mut Ctx<'_>, game: T, out: &mut Vec<Decision>) {
        out.push(Decision::GameStarted);
        let over = game.result();
        self.stage = Stage::Play(Box::new(PlayState::new(vec![game], &[])));
        if let Some((result, reason)) = over {
            out.push(Decision::GameOver { result, reason });
        }
        self.run_chance(ctx, out);
        self.evaluate(ctx, out);
    }

    /// With tags: validates both armies read from the tags; journals them or lists every
    /// problem.
    fn finish_tags(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>) {
        let choice = self.choice;
        let Stage::Setup(state) = &mut self.stage else {
            return;
        };
        let unknown: Vec<String> = ctx
            .sensed
            .iter()
            .filter(|p| !state.assigned.contains(p))
            .map(|p| {
                format!(
                    "{}: piece not identified: lift it and put it back so its tag is read",
                    T::place_name(choice, p)
                )
            })
            .collect();
        if !unknown.is_empty() {
            // The armies are counted only once every piece is known: a count ("Red: no
            // Marshal") next to an unknown place would tell the table what stands there.
            return state.show_problems(unknown, out);
        }
        let read: BTreeMap<Place, TagUid> = state
            .read_at
            .iter()
            .filter(|(p, _)| ctx.sensed.contains(p))
            .map(|(p, u)| (*p, *u))
            .collect();
        let mut armies = match T::armies_from_tags(self.choice, ctx.tags, &read) {
            Ok(armies) => armies,
            Err(problems) => return state.show_problems(problems, out),
        };
        // An army journaled before a failed write stands as journaled.
        for (seat, journaled) in state.armies.iter() {
            if let Some(army) = journaled {
                armies[seat] = army.clone();
            }
        }
        let game = match T::start(self.choice, &armies) {
            Ok(game) => game,
            Err(problems) => return state.show_problems(problems, out),
        };
        for seat in T::setup_order(self.choice) {
            if state.armies[seat].is_some() {
                continue;
            }
            if !ctx.write_encoded(T::army_record(seat, &armies[seat]), out) {
                return;
            }
            out.push(Decision::Deployed(seat));
            state.armies[seat] = Some(armies[seat].clone());
        }
        state.problems = None;
        self.begin(ctx, game, out);
    }

    /// With tags: a tag read on `place` during set-up. One tag read on two places (a reader
    /// that picked up a neighbour's tag) leaves neither place known until both are read again.
    fn setup_tag(
        choice: T::Choice,
        state: &mut SetupState<T>,
        ctx: &mut Ctx<'_>,
        place: Place,
        uid: TagUid,
        out: &mut Vec<Decision>,
    ) {
        let twin = state
            .read_at
            .iter()
            .find(|(p, u)| **p != place && **u == uid && ctx.sensed.contains(*p))
            .map(|(p, _)| *p);
        state.read_at.insert(place, uid);
        let name = T::place_name(choice, &place);
        if let Some(other) = twin {
            state.assigned.remove(&place);
            state.assigned.remove(&other);
            let other = T::place_name(choice, &other);
            let msg = format!("{name} and {other}: the same tag was read on both");
            out.push(Decision::TagProblem(msg.clone()));
            state.tag_problem = Some((
                msg,
                format!(
                    "lift the pieces on {name} and {other} and put them back to read their tags \
                     again"
                ),
            ));
            return;
        }
        if ctx.tags.registered(&uid).is_some() {
            state.assigned.insert(place);
            state.tag_problem = None;
        } else {
            state.assigned.remove(&place);
            let msg = format!("{name}: tag {uid} is not registered");
            out.push(Decision::TagProblem(msg.clone()));
            state.tag_problem = Some((
                msg,
                "lift it and put it back; if it stays unknown, register its tag or use another \
                 piece"
                    .to_string(),
            ));
        }
    }

    fn setup_screen(&self, state: &SetupState<T>, sensed: &BTreeSet<Place>) -> Screen {
        let mut screen = self.setup_screen_unnoted(state, sensed);
        // The rule the players must know before they set up, after what to do.
        if let (Screen::Setup { instruction, .. }, Some(note)) =
            (&mut screen, T::setup_note(self.choice))
        {
            instruction.push_str(". ");
            instruction.push_str(&note);
        }
        screen
    }

    fn setup_screen_unnoted(&self, state: &SetupState<T>, sensed: &BTreeSet<Place>) -> Screen {
        let order = T::setup_order(self.choice);
        if state.by_tags {
            return Self::tags_screen(state, order, sensed, self.choice);
        }
        // Who acts: the player placing this group, or after the last the one who placed it
        // (a seat set up by several players names the player, not the seat).
        let seat = setup_actor::<T>(self.choice, order[state.turn.min(1)], state.step);
        if let Some(problems) = &state.problems {
            let mut problems = problems.clone();
            if state.step >= state.groups.len() {
                // After the last group: moving a piece puts it right; Back is the other way.
                if let Some(last) = state.groups.last() {
                    problems.push(format!(
                        "move a piece to put it right, then OK; Back undoes {}",
                        last.label
                    ));
                }
            }
            return Screen::Problems {
                title: format!("{seat} set-up"),
                problems,
            };
        }
        if !state.misplaced.is_empty() {
            return Screen::Problems {
                title: format!("{seat} set-up"),
                problems: state.misplaced.clone(),
            };
        }
        match state.groups.get(state.step) {
            Some(group) => {
                let placed = state.placing(sensed).count();
                if let Some(problem) = SetupState::<T>::too_many(group, placed) {
                    return Screen::Problems {
                        title: format!("{seat} set-up"),
                        problems: vec![problem],
                    };
                }
                let more = if group.min < group.count {
                    " (fewer: the rest in reserve)"
                } else {
                    ""
                };
                let seat = T::group_actor(self.choice, order[state.turn.min(1)], state.step);
                Screen::Setup {
                    seat: seat.clone(),
                    instruction: format!("{seat}: place {}{more}, then press OK", group.label),
                    placed: u16::try_from(placed).unwrap_or(u16::MAX),
                    needed: u16::from(group.count),
                }
            }
            None => Screen::Setup {
                seat: seat.clone(),
                instruction: format!("{seat}: press OK to check the set-up"),
                placed: 0,
                needed: 0,
            },
        }
    }

    fn tags_screen(
        state: &SetupState<T>,
        order: [Seat; 2],
        sensed: &BTreeSet<Place>,
        choice: T::Choice,
    ) -> Screen {
        if let Some(problems) = &state.problems {
            return Screen::Problems {
                title: "Set-up".to_string(),
                problems: problems.clone(),
            };
        }
        if let Some((message, fix)) = &state.tag_problem {
            return Screen::Error {
                message: message.clone(),
                fix: fix.clone(),
            };
        }
        let placed = sensed.iter().filter(|p| state.assigned.contains(p)).count();
        // Every player places his army at once. Two, the seats, are named by the title; more
        // (three-player Napoléon's Allied seat is two players) each by the prompt.
        let players: Vec<String> = T::page_seats(choice)
            .into_iter()
            .map(|(_, name)| name)
            .collect();
        let (seat, instruction) = if players.len() > 2 {
            (
                "All armies".to_string(),
                format!(
                    "{}: place every army (tags are read), then press OK",
                    words_list(&players)
                ),
            )
        } else {
            (
                format!("{} and {}", T::seat_name(order[0]), T::seat_name(order[1])),
                "place both armies (tags are read), then press OK".to_string(),
            )
        };
        Screen::Setup {
            seat,
            instruction,
            placed: u16::try_from(placed).unwrap_or(u16::MAX),
            needed: T::tag_setup(choice).unwrap_or(0),
        }
    }

    // ---- play -----------------------------------------------------------------------------

    /// Rolls the chance nobody sees rolled (secret draws) at once, each journaled.
    fn run_chance(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>) {
        for _ in 0..64 {
            let Stage::Play(play) = &mut self.stage else {
                return;
            };
            let Some(game) = play.game() else {
                return;
            };
            if game.to_act() != Actor::Chance || game.die_button() || game.result().is_some() {
                return;
            }
            match play.draw(ctx.chance) {
                Ok(Some(action)) if self.play_action(ctx, &action, out) => {}
                _ => return,
            }
        }
    }

    /// Journals and plays `action`; says what happened. `false` when the journal failed.
    fn play_action(
        &mut self,
        ctx: &mut Ctx<'_>,
        action: &T::Action,
        out: &mut Vec<Decision>,
    ) -> bool {
        if !ctx.write_encoded(T::action_record(action), out) {
            return false;
        }
        let Stage::Play(play) = &mut self.stage else {
            return false;
        };
        let Some(game) = play.game() else {
            return false;
        };
        let mut next = game.clone();
        let screen = next.play(action).naming(game.label_places(action));
        out.push(game.acted(action, &next));
        let said = Said::of(game, action, &next);
        let board = next.occupied();
        // A swap the hands still owe stays owed: a die rolled before they made it (Sa Belle
        // Alliance's rout test after a capture) changes no piece.
        let owed = std::mem::take(&mut play.swaps);
        play.swaps = next
            .exchanged()
            .into_iter()
            .filter(|p| ctx.sensed.contains(p))
            .chain(owed)
            .collect();
        play.hands = &board != ctx.sensed || !play.swaps.is_empty();
        play.acted_on = Some(ctx.sensed.clone());
        let over = next.result();
        play.story.push(said);
        play.history.push((next, board));
        play.forget();
        play.announcement = Some(screen);
        play.menu_declined = None;
        play.lifted.clear();
        play.first_lift = None;
        play.hold_until = None;
        // A new gesture begins: the hands' changes so far made this action.
        ctx.hands.reset();
        // The board the action was played on is no takeback: a button action (a die rolled
        // with the pieces put back, an end of turn before a draw) leaves it as it was before.
        play.declined = Some(ctx.sensed.clone());
        play.off = false;
        if let Some((result, reason)) = over {
            out.push(Decision::GameOver { result, reason });
        }
        true
    }

    /// Plays `action`, made by the hands or `by_button`, then the chance it calls for.
    fn act(
        &mut self,
        ctx: &mut Ctx<'_>,
        action: &T::Action,
        by_button: bool,
        out: &mut Vec<Decision>,
    ) {
        if self.play_action(ctx, action, out) {
            if let Stage::Play(play) = &mut self.stage {
                play.by_button = by_button;
            }
            self.run_chance(ctx, out);
            self.evaluate(ctx, out);
        }
    }

    /// The latest earlier game whose board is the sensed one, the side to act a seat.
    fn takeback_match(play: &PlayState<T>, sensed: &BTreeSet<Place>) -> Option<u32> {
        let now = play.history.len().checked_sub(1)?;
        play.history[..now]
            .iter()
            .rposition(|(g, b)| b == sensed && matches!(g.to_act(), Actor::Seat(_)))
            .and_then(|k| u32::try_from(k).ok())
    }

    /// Compares the settled sensed board with the expected one and acts on what it means.
    fn evaluate(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>) {
        let choice = self.choice;
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        // Borrowed, not cloned: this runs on every settled event.
        let Some((game, board)) = play.history.last() else {
            return;
        };
        let over = game.result().is_some();
        let sensed = ctx.sensed;
        play.prompt = None;
        play.hold_until = None;
        // A piece lifted and put back that alone makes an action, or the shape of one the rules
        // refuse (Sa Belle Alliance: a corps chosen by one of its markers), is judged as any
        // gesture though the board is as expected.
        let chosen = !over
            && !play.hands
            && !play.must_match
            && play.selected.is_some_and(|s| {
                let alone = Gesture {
                    selected: Some(s),
                    ..Gesture::default()
                };
                !game.matching(&alone).is_empty() || !game.shaped(&alone).is_empty()
            });
        if board == sensed {
            // Every piece is where it belongs and nothing else is down: no lift is pending,
            // even when a choice alone is judged below. A place kept as lifted (a piece carried
            // off and back) would stop every later lift and put back from selecting anything.
            play.lifted.clear();
            play.first_lift = None;
        }
        if board == sensed && !chosen {
            // Every piece is back where it belongs (the lifts cleared above). A "Which?" of
            // another board, declined, no longer stands: the same piece put down again asks
            // again. (One asked of a marker put back stands until the next action.)
            play.menu_declined = None;
            play.ghosts.clear();
            ctx.hands.reset();
            if play.hands && play.swaps.is_empty() {
                play.hands = false;
                out.push(Decision::HandsDone);
            }
            if play.off {
                out.push(Decision::BoardMatches);
            }
            play.off = false;
            play.must_match = false;
            play.calm();
            play.declined = None;
            if play.menu.as_ref().is_some_and(|m| m.board.is_some()) {
                play.menu = None;
            }
            return;
        }
        // The board changed since an ambiguous menu opened: the menu no longer applies.
        if let Some(m) = &play.menu {
            if m.board.as_ref().is_some_and(|b| b != sensed) {
                play.menu = None;
            }
        }
        if over && !play.hands {
            return;
        }
        let gesture = Gesture {
            lifted: board.difference(sensed).copied().collect(),
            placed: sensed.difference(board).copied().collect(),
            selected: play.selected,
        }
        .normalized();
        // The legal actions this gesture makes (none while the board must match).
        let judging = !play.hands && !play.must_match;
        let mut matching: Vec<(Gesture, T::Action)> = if judging {
            game.matching(&gesture)
        } else {
            Vec::new()
        };
        // With NFC: the actions of the pieces the tags read that the switches cannot tell
        // from the one the table expected (pieces a game keeps interchangeable).
        if judging && !play.tags.is_empty() {
            for found in game.tag_matching(&gesture, &play.tags, ctx.tags) {
                if !matching.contains(&found) {
                    matching.push(found);
                }
            }
        }
        // For a game that asks by what the table can see (`TableGame::askable`), the actions
        // the table would be asked about; the takebacks, below, hang on these, not on the legal
        // ones, which would tell whether a hidden piece can make the move. With NFC, those of
        // the pieces the tags read.
        let looks = if judging {
            game.askable(&gesture, &matching)
        } else {
            None
        };
        let widened = looks.as_ref().map(|asked| {
            if play.tags.is_empty() {
                asked.clone()
            } else {
                fitting_tags(game, asked, &play.tags, ctx.tags)
            }
        });
        // Nothing the table could be asked about: as far as it can tell, no action.
        let none_askable = widened.as_ref().map_or(matching.is_empty(), Vec::is_empty);
        // Every legal gesture, listed only when a lone lift needs it.
        let all = std::cell::OnceCell::new();
        let legal = || all.get_or_init(|| game.gestures());
        let declined = play.declined.as_ref() == Some(sensed);
        // The last mover's piece, lifted again before the hand could have let it go, with an
        // enemy piece: the slide was carried on into an attack. It outranks the opponent's
        // reading of the same two lifts (their piece attacking it), which no one could make
        // that soon after the move.
        if judging && !over {
            if let Some(correction) = Self::carried_into_attack(play, &gesture, ctx) {
                play.calm();
                play.off = false;
                self.correct(ctx, correction, out);
                return;
            }
        }
        // The last mover carried the piece on (a hand that rested on the square it first put
        // it on) before anything else was touched: the last action is corrected.
        if judging && matching.is_empty() && !over {
            if let Some(correction) = Self::carried_on(play, &gesture, ctx.hands) {
                play.calm();
                play.off = false;
                self.correct(ctx, correction, out);
                return;
            }
        }
        // A legal continuation is preferred to a takeback when both fit (Back then offers to
        // take it back; a game that asks by what the table sees asks, below): a piece moved
        // back within a turn is a move, and with occupancy only an earlier board comes back
        // whenever a square empties and another fills again. While the hands owe steps, the
        // board the action was played on is no takeback either; nor is a move back a
        // repetition rule refuses (the rule forbids exactly that move).
        let untouched = play.hands && play.acted_on.as_ref() == Some(sensed);
        let insisted =
            judging && matching.is_empty() && game.shaped(&gesture).iter().any(|a| game.insists(a));
        if !play.must_match && !declined && none_askable && !untouched && !insisted && !over {
            if let Some(to) = Self::takeback_match(play, sensed) {
                play.announcement = None;
                play.refused = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.menu = None;
                if play.takeback != Some(to) {
                    out.push(Decision::TakebackOffered { to_ply: to });
                }
                play.takeback = Some(to);
                play.off = true;
                return;
            }
        }
        if play.takeback.is_some() && judging && none_askable && !over {
            // An offered takeback stays while the board is neither put right nor a legal
            // action: OK still confirms it, Back declines it.
            play.off = true;
            return;
        }
        play.takeback = None;
        if !judging || over {
            if play.must_match {
                play.mismatch_shown = true;
                play.off = true;
            }
            return;
        }
        // A place that reads a piece no hand put there is no part of any action.
        if let Some((place, from, why)) = Self::ghost(play, &gesture, none_askable, ctx.hands) {
            play.announcement = None;
            play.unmatched_since = None;
            play.mismatch_shown = false;
            play.menu = None;
            play.off = true;
            play.ghosts.insert(place);
            if play.refused.as_ref().map(|(b, _)| b) != Some(sensed) {
                let name = T::place_name(choice, &place);
                out.push(Decision::Ghost {
                    place: name.clone(),
                    undone: None,
                });
                let at = std::iter::once(place).chain(from).collect();
                let from = from.map(|p| T::place_name(choice, &p));
                let screen = ghost_screen(game.status_line(), &name, from.as_deref(), why, at);
                play.refused = Some((sensed.clone(), screen));
            }
            return;
        }
        // A board both an earlier one and a move some piece could make as far as the table can
        // tell (a piece taken back off a stack, where a hidden coin there might make the same
        // trip), every piece landed where a hand put it: which is meant is asked, "Take back"
        // among the entries. Choosing by the legal moves would tell whether the hidden piece
        // can; and the hand may mean either.
        if let (Some(asked), false) = (&widened, none_askable) {
            if !declined && !untouched {
                if let Some(to) = Self::takeback_match(play, sensed) {
                    if play.menu.is_none() && play.menu_declined.as_ref() != Some(sensed) {
                        let entries: Vec<(String, T::Action)> = asked
                            .iter()
                            .map(|(_, a)| (game.label(a), a.clone()))
                            .collect();
                        Self::ask_which(play, entries, Some(to), sensed, out);
                    }
                    return;
                }
            }
        }
        if none_askable && gesture.lifted.is_empty() {
            if let ([x], Some((n, from, to, _))) = (gesture.placed.as_slice(), play.last_slide) {
                if *x == from && n == play.actions() && ctx.hands.placed_now(x) {
                    // Not before the hold: another hand sliding a piece onto the place just
                    // left lights it for a moment too.
                    if let Some(until) = hold_until(ctx) {
                        play.hold(
                            until,
                            format!(
                                "{} and {} both read a piece: take off the one that does not \
                                 belong",
                                T::place_name(choice, &from),
                                T::place_name(choice, &to)
                            ),
                        );
                        return;
                    }
                    self.undo_ghost_slide(ctx, from, to, out);
                    return;
                }
            }
        }
        // One piece lifted that begins a legal gesture (or that the game says is in hand) is a
        // piece in hand. A piece whose every gesture is held (an attack's target, a shot's)
        // lifted alone is not: like any piece knocked off, it is named after the settle time,
        // and once named it is no lift of a later attack (a switch that failed open under it).
        let lone = (gesture.placed.is_empty() && gesture.lifted.len() == 1 && matching.is_empty())
            .then(|| gesture.lifted[0]);
        let in_hand = lone.is_some_and(|place| {
            game.in_hand(&place)
                || legal().iter().any(|(g, a)| {
                    let held = g.placed.is_empty() && game.held(a);
                    (g.lifted.contains(&place) && !held) || g.selected == Some(place)
                })
        });
        let lone_in_hand = lone.is_some_and(|place| {
            in_hand
                || legal()
                    .iter()
                    .any(|(g, _)| g.lifted.contains(&place) || g.selected == Some(place))
        });
        // Lifts only (an attack, a designation, a shot, a piece taken up): every lift must
        // belong to this gesture, and the pieces must stay up for the hold before anything is
        // judged or said, so a brushed piece put back reveals nothing.
        let lifts_only = gesture.placed.is_empty() && !gesture.lifted.is_empty();
        let held = lifts_only
            && !lone_in_hand
            && if matching.is_empty() {
                game.shaped(&gesture).iter().any(|a| game.held(a))
            } else {
                matching.iter().any(|(_, a)| game.held(a))
            };
        if held {
            if !gesture.lifted.iter().all(|p| ctx.hands.lifted_now(p)) {
                // A piece already named as missing (a switch that failed open) is no lift.
                if play.unmatched_since.is_none() {
                    play.unmatched_since = Some(ctx.now);
                }
                return;
            }
            if let Some(until) = hold_until(ctx) {
                let names: Vec<String> = gesture
                    .lifted
                    .iter()
                    .map(|p| T::place_name(choice, p))
                    .collect();
                play.hold(
                    until,
                    format!(
                        "{} up: keep {} up to act, or put back what you did not mean to lift",
                        names.join(" and "),
                        if names.len() > 1 { "both" } else { "it" }
                    ),
                );
                return;
            }
        }
        // With NFC: the pieces whose tags were read tell the actions apart, and a piece put
        // down whose tag names another piece than the one lifted is refused. (For a game that
        // asks by what the table sees, "the one lifted" is the one piece that could have made
        // the move as far as the table can tell, whatever the legal moves are.)
        if !play.tags.is_empty() {
            let judged = looks.as_deref().unwrap_or(&matching);
            let fitting = fitting_tags(game, judged, &play.tags, ctx.tags);
            if let (true, [(made, action)]) = (fitting.is_empty(), judged) {
                if let ([from], [to]) = (made.lifted.as_slice(), made.placed.as_slice()) {
                    let at = vec![*from, *to];
                    let (label, from, to) = (
                        game.label(action),
                        T::place_name(choice, from),
                        T::place_name(choice, to),
                    );
                    play.announcement = None;
                    play.unmatched_since = None;
                    play.mismatch_shown = false;
                    play.off = true;
                    if play.refused.as_ref().map(|(b, _)| b) != Some(sensed) {
                        out.push(Decision::WrongPiece {
                            action: label.clone(),
                        });
                        let screen = Screen::Illegal {
                            status: game.status_line(),
                            reason: format!(
                                "{label}: the piece put on {to} is not the one lifted from {from}"
                            ),
                            fix: format!(
                                "put the piece from {from} on {to}, the other back (if it is \
                                 there, lift it and put it back to read its tag again)"
                            ),
                            places: Places {
                                hands: at,
                                ..Places::default()
                            },
                        };
                        play.refused = Some((sensed.clone(), screen));
                    }
                    return;
                }
            }
            if looks.is_none() && !fitting.is_empty() {
                matching = fitting;
            }
        }
        // What the table is asked about: the legal actions, or for a game whose secrets decide
        // which piece can make a move, every piece that could as far as the table can tell
        // (with NFC, of the pieces the tags read).
        let asked = widened.unwrap_or_else(|| matching.clone());
        if asked.len() > 1 {
            if play.menu.is_none() && play.menu_declined.as_ref() != Some(sensed) {
                let entries: Vec<(String, T::Action)> = asked
                    .into_iter()
                    .map(|(_, a)| (game.label(&a), a))
                    .collect();
                Self::ask_which(play, entries, None, sensed, out);
            }
            return;
        }
        // Asked by what the table sees, one piece or none could have made it: that piece's
        // action is played if the rules allow it and refused with their reason if not, as a
        // "Which?" pick is. No other legal reading is played in its place: which one the rules
        // allow is the hidden pieces' secret.
        let mut refuse = None;
        if looks.is_some() {
            match asked.as_slice() {
                [(_, action)] => match matching.iter().position(|(_, a)| a == action) {
                    Some(i) => matching = vec![matching.swap_remove(i)],
                    None => {
                        matching.clear();
                        refuse = Some(action.clone());
                    }
                },
                _ => matching.clear(),
            }
        }
        if matching.len() == 1 {
            let (made, action) = matching.remove(0);
            let before = play.actions();
            self.act(ctx, &action, false, out);
            if let (Stage::Play(play), [from], [to]) = (
                &mut self.stage,
                made.lifted.as_slice(),
                made.placed.as_slice(),
            ) {
                let emptied = play.board().is_some_and(|b| !b.contains(from));
                if play.actions() == before + 1 && emptied {
                    play.last_slide = Some((play.actions(), *from, *to, ctx.now));
                }
            }
            if let Stage::Play(play) = &mut self.stage {
                if let ([], [_]) = (made.lifted.as_slice(), made.placed.as_slice()) {
                    if play.actions() == before + 1 {
                        play.last_drop = Some((play.actions(), made));
                    }
                }
            }
            return;
        }
        // The shape of an action the rules refuse (with NFC, of the pieces the tags read when
        // any of them fits). For a game that asks by what the table sees, none that some piece
        // could make as far as the table can tell, but the one piece asked: which of those the
        // rules refuse is the hidden pieces' secret (a tag that names none of them leaves the
        // board to be named after the settle time, the same whatever they are).
        let shapes = if let Some(action) = refuse {
            vec![action]
        } else if in_hand {
            Vec::new()
        } else {
            let mut shapes = game.shaped(&gesture);
            if let Some(looks) = &looks {
                shapes.retain(|a| !looks.iter().any(|(_, l)| l == a));
            }
            if !play.tags.is_empty()
                && shapes
                    .iter()
                    .any(|a| game.fits_tags(a, &play.tags, ctx.tags))
            {
                shapes.retain(|a| game.fits_tags(a, &play.tags, ctx.tags));
            }
            shapes
        };
        let refusal = shapes
            .into_iter()
            .find_map(|a| game.check(&a).err().map(|reason| (a, reason)));
        if let Some((action, reason)) = refusal {
            play.announcement = None;
            play.unmatched_since = None;
            play.mismatch_shown = false;
            play.off = true;
            if play.refused.as_ref().map(|(b, _)| b) != Some(sensed) {
                let label = game.label(&action);
                out.push(Decision::Refused {
                    action: label.clone(),
                    reason: reason.clone(),
                });
                let steps = hand_steps::<T>(choice, &play.expected(), sensed);
                let (fix, places) = if steps.is_empty() {
                    ("put the pieces back".to_string(), Places::default())
                } else {
                    steps.fix()
                };
                let screen = Screen::Illegal {
                    status: game.status_line(),
                    reason: format!("{label}: {reason}"),
                    fix,
                    places,
                };
                play.refused = Some((sensed.clone(), screen));
            }
            return;
        }
        let lone_lift = in_hand && lone.is_some();
        if play.refused.is_some() && !lone_lift {
            // A refusal stays until the board is put right or a legal action is made: another
            // piece moved meanwhile changes only the hand steps it lists. (A piece of the side
            // to act taken up alone, the board otherwise right, is the hand putting it right.)
            play.off = true;
            play.unmatched_since = None;
            play.mismatch_shown = false;
            return;
        }
        play.refused = None;
        if let (true, Some(place)) = (in_hand, lone) {
            // A piece in hand: a gesture in progress (a piece no legal gesture lifts was
            // knocked off, and is named after the settle time).
            play.unmatched_since = None;
            play.mismatch_shown = false;
            let name = T::place_name(choice, &place);
            // A piece selected first (a gun lifted and put back, even one with no shot left)
            // and then this one lifted is the shape of a shot: when the rules refuse it, the
            // reason is said with the way on, never a wait for a target that cannot come.
            let shot = gesture.selected.filter(|s| *s != place).and_then(|_| {
                game.shaped(&gesture)
                    .into_iter()
                    .find_map(|a| game.check(&a).err().map(|why| (game.label(&a), why)))
            });
            play.prompt = Some(match shot {
                // Said, not decided: a hand that straightened a gun and now moves another
                // piece is making that move, and must not read a refusal in the record.
                Some((label, why)) => {
                    format!("{label}: {why}; put {name} back or move it")
                }
                None => format!("{name} lifted: put it down, or lift its target"),
            });
            return;
        }
        if declined {
            play.mismatch_shown = true;
            play.off = true;
        }
        if play.unmatched_since.is_none() {
            play.unmatched_since = Some(ctx.now);
        }
    }

    /// Whether `sensed`, once the changes `waiting` (place, lifted) are heard (the hands'
    /// changes with them in `hands`), would be decided at once and beyond doubt, so it need
    /// not wait out the settle window (see the [sensing docs](crate::sensing), *Deciding
    /// early*). In play, with no menu, takeback or tag read pending, one of:
    /// - the board is the expected one again after a piece was put down (the hands' steps
    ///   done), unless the piece put back selects an action; then only when exactly one
    ///   action, not held, is selected;
    /// - with nothing owed, refused or held: one piece gone from A and one come to B, where B
    ///   closed as a landing of A's piece, and exactly one action, not held, makes it (a plain
    ///   move) or it carries the last action's piece on (the carried-on correction);
    /// - likewise one piece put down with none lifted (off a stack), exactly one action;
    /// - in both, never when the table will be asked which piece ([`TableGame::askable`] holds
    ///   more than one action, or one beside a takeback that fits the same board).
    ///
    /// Every other board waits, above all one with a second piece lifted (a brushed enemy, an
    /// attack, two pieces in hand): its gesture is not complete.
    fn decides_at_once(
        &self,
        hands: &Hands,
        waiting: &[(Place, bool)],
        sensed: &BTreeSet<Place>,
    ) -> bool {
        let Stage::Play(play) = &self.stage else {
            return false;
        };
        let Some((game, board)) = play.history.last() else {
            return false;
        };
        if !play.tags.is_empty() || play.menu.is_some() || play.takeback.is_some() {
            return false;
        }
        // The piece selected once the waiting changes are heard (a lift and replace), as
        // `AnySession::lifted` and `placed` would leave it.
        let (mut lifted, mut first, mut selected) =
            (play.lifted.clone(), play.first_lift, play.selected);
        for &(place, up) in waiting {
            if up {
                first = lifted.is_empty().then_some(place);
                lifted.insert(place);
            } else {
                if lifted.remove(&place)
                    && first == Some(place)
                    && lifted.is_empty()
                    && board.contains(&place)
                {
                    selected = Some(place);
                }
                first = None;
            }
        }
        let over = game.result().is_some();
        let calm = !play.hands && !play.must_match && !over;
        let unheld = |matching: Vec<(Gesture, T::Action)>| match matching.as_slice() {
            [(_, action)] => !game.held(action),
            _ => false,
        };
        let open = calm && play.refused.is_none() && play.hold_until.is_none();
        if board == sensed {
            // Every piece back where it belongs after a piece was put down: the board matches
            // (the hands' steps after a battle done), or the piece put back selects an action,
            // decided at once when exactly one, not held, is selected.
            let alone = Gesture {
                selected,
                ..Gesture::default()
            };
            let selecting = if calm && selected.is_some() {
                game.matching(&alone)
            } else {
                Vec::new()
            };
            let chosen = !selecting.is_empty()
                || (calm && selected.is_some() && !game.shaped(&alone).is_empty());
            return waiting.iter().any(|&(_, up)| !up) && (!chosen || (open && unheld(selecting)));
        }
        if !open {
            return false;
        }
        let gesture = Gesture {
            lifted: board.difference(sensed).copied().collect(),
            placed: sensed.difference(board).copied().collect(),
            selected,
        }
        .normalized();
        // Whether the table will be asked which piece (see `TableGame::askable`): more than one
        // to ask about, or a takeback beside one asked by what the table sees.
        let asks = |matching: &[(Gesture, T::Action)]| match game.askable(&gesture, matching) {
            None => matching.len() > 1,
            Some(asked) => {
                asked.len() > 1
                    || (!asked.is_empty() && Self::takeback_match(play, sensed).is_some())
            }
        };
        match (gesture.lifted.as_slice(), gesture.placed.as_slice()) {
            // A piece lifted and landed, by a slide or a lift: one action, or a correction.
            ([a], [b]) if hands.landing(a, b).is_ok() => {
                let matching = game.matching(&gesture);
                if asks(&matching) {
                    false
                } else if matching.is_empty() {
                    Self::carried_on(play, &gesture, hands).is_some()
                } else {
                    unheld(matching)
                }
            }
            // A piece put down with none lifted (off a stack, from the box): one action.
            ([], [_]) => {
                let matching = game.matching(&gesture);
                !asks(&matching) && unheld(matching)
            }
            _ => false,
        }
    }

    /// The last action was a slide A-C made by the hands (or a piece put down on C, none
    /// lifted), and now C is empty and B filled, nothing else changed: when A-B (the piece put
    /// down on B) was legal instead, the hand had not finished (a slide that rested on C, or
    /// was decided at once as it crossed C).
    fn carried_on(
        play: &PlayState<T>,
        gesture: &Gesture,
        hands: &Hands,
    ) -> Option<Correction<T::Action>> {
        let ([c], [b]) = (gesture.lifted.as_slice(), gesture.placed.as_slice()) else {
            return None;
        };
        let (before, _) = play.history.get(play.history.len().checked_sub(2)?)?;
        if hands.landing(c, b).is_err() {
            return None;
        }
        let (from, was, made) = match (play.last_slide, &play.last_drop) {
            (Some((n, from, to, _)), _) if n == play.actions() && to == *c && from != *b => (
                Some(from),
                Gesture::slide(from, to),
                Gesture::slide(from, *b),
            ),
            // A piece put down (off a stack) and carried on: the same gesture, landing on b.
            (_, Some((n, dropped))) if *n == play.actions() && dropped.placed == [*c] => {
                let made = Gesture {
                    placed: vec![*b],
                    ..dropped.clone()
                };
                (None, dropped.clone(), made)
            }
            _ => return None,
        };
        one_correction(before, &was, made, from)
    }

    /// The last action was a slide A-C decided as the piece touched C (see
    /// [`Sensing::early_ready`](crate::sensing::Sensing::early_ready)), and now C and an enemy
    /// piece T are both lifted, C within the settle window of that decision ([`Ctx::settle_ms`]:
    /// no opponent reads the move and answers it that soon): when A attacking T (the
    /// lifts of A and T) was legal instead, the hand never let the piece go on C: a Scout run
    /// that ends in an attack, slid slowly enough that a crossed square was believed.
    fn carried_into_attack(
        play: &PlayState<T>,
        gesture: &Gesture,
        ctx: &Ctx<'_>,
    ) -> Option<Correction<T::Action>> {
        let (n, from, c, at) = play.last_slide?;
        if n != play.actions() || !gesture.placed.is_empty() || gesture.selected.is_some() {
            return None;
        }
        let [x, y] = gesture.lifted.as_slice() else {
            return None;
        };
        let target = match (*x == c, *y == c) {
            (true, false) => *y,
            (false, true) => *x,
            _ => return None,
        };
        let lifted = ctx.hands.lifted_at(&c)?;
        if lifted.0 > at.0.saturating_add(u64::from(ctx.settle_ms)) || target == from {
            return None;
        }
        let (before, _) = play.history.get(play.history.len().checked_sub(2)?)?;
        one_correction(
            before,
            &Gesture::slide(from, c),
            Gesture::lift_two(from, target),
            None,
        )
    }

    /// Takes back the last action (journaled) and plays `now`, the slide `from`-`to`, instead.
    fn correct(
        &mut self,
        ctx: &mut Ctx<'_>,
        Correction {
            was,
            now,
            from,
            made,
        }: Correction<T::Action>,
        out: &mut Vec<Decision>,
    ) {
        let Stage::Play(play) = &self.stage else {
            return;
        };
        let Some(to_ply) = play.actions().checked_sub(1) else {
            return;
        };
        let Some((before, _)) = play.history.get(play.history.len().saturating_sub(2)) else {
            return;
        };
        let (was, label) = (before.label(&was), before.label(&now));
        if !ctx.write(&Record::Takeback { to_ply }, out) {
            return;
        }
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        play.back_to(to_ply);
        play.announcement = None;
        play.last_slide = None;
        play.last_drop = None;
        out.push(Decision::MoveCorrected { was, now: label });
        let before = play.actions();
        self.act(ctx, &now, false, out);
        if let Stage::Play(play) = &mut self.stage {
            if play.actions() == before + 1 {
                match (from, made.placed.as_slice()) {
                    (Some(from), [to]) => {
                        play.last_slide = Some((play.actions(), from, *to, ctx.now));
                    }
                    _ => play.last_drop = Some((play.actions(), made)),
                }
            }
        }
    }

    /// Opens the "Which?" menu of the board `sensed`: `entries`, then "Take back" (to the ply
    /// `takeback`) when it is one.
    fn ask_which(
        play: &mut PlayState<T>,
        entries: Vec<(String, T::Action)>,
        takeback: Option<u32>,
        sensed: &BTreeSet<Place>,
        out: &mut Vec<Decision>,
    ) {
        let menu = Menu {
            title: "Which?".to_string(),
            entries,
            selected: 0,
            board: Some(sensed.clone()),
            takeback,
            phone: false,
            secret: false,
        };
        out.push(Decision::MenuOpened {
            title: menu.title.clone(),
            entries: menu.labels(),
        });
        play.menu = Some(menu);
        play.refused = None;
        play.unmatched_since = None;
        play.mismatch_shown = false;
    }

    /// A place of `gesture` that reads a piece no hand put there: lit before the piece in
    /// hand was lifted, its tag unread, already named as wrong, or named as a ghost before.
    /// A gesture that puts a piece down without lifting one (off a stack) is no ghost when it
    /// could be an action (`none_askable` false: a legal one, or for a game that asks by what
    /// the table sees, one the table would be asked about).
    fn ghost(
        play: &PlayState<T>,
        gesture: &Gesture,
        none_askable: bool,
        hands: &Hands,
    ) -> Option<(Place, Option<Place>, NotLanded)> {
        match (gesture.lifted.as_slice(), gesture.placed.as_slice()) {
            ([a], [b]) => hands.landing(a, b).err().map(|why| (*b, Some(*a), why)),
            ([], [x]) if play.ghosts.contains(x) && none_askable => {
                Some((*x, None, NotLanded::LitBefore))
            }
            _ => None,
        }
    }

    /// Takes back the last action, a slide from `from` read from a ghost switch on `to`
    /// (journaled), and names `to`.
    fn undo_ghost_slide(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: Place,
        to: Place,
        out: &mut Vec<Decision>,
    ) {
        let choice = self.choice;
        let Stage::Play(play) = &self.stage else {
            return;
        };
        let Some(to_ply) = play.actions().checked_sub(1) else {
            return;
        };
        let undone = play
            .history
            .get(play.history.len().saturating_sub(2))
            .and_then(|(g, _)| {
                g.gestures()
                    .into_iter()
                    .find(|(gesture, _)| gesture.placed == [to] && gesture.lifted == [from])
                    .map(|(_, a)| g.label(&a))
            });
        if !ctx.write(&Record::Takeback { to_ply }, out) {
            return;
        }
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        play.took_back(to_ply);
        play.ghosts.insert(to);
        out.push(Decision::Ghost {
            place: T::place_name(choice, &to),
            undone,
        });
        self.evaluate(ctx, out);
    }

    fn play_button(&mut self, ctx: &mut Ctx<'_>, button: Button, out: &mut Vec<Decision>) {
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        let Some((game, board)) = play.history.last() else {
            return;
        };
        if play.refused.is_some() && board == ctx.sensed && play.lifted.is_empty() {
            // A choice made by one piece alone was refused (Sa Belle Alliance: the other
            // side's corps) and every piece is back where it belongs: nothing stands, so the
            // button goes on, the refused choice forgotten.
            play.refused = None;
            play.selected = None;
        }
        if play.mismatch_shown && matches!(button, Button::Ok | Button::Die) {
            // The differences fill the screen: a menu or a roll would act unseen.
            out.push(Decision::Ignored {
                button,
                why: "the board differs: put it right first".to_string(),
            });
            return;
        }
        if play.refused.is_some()
            && play.menu.is_none()
            && play.takeback.is_none()
            && matches!(button, Button::Ok | Button::Die)
        {
            // A refused gesture stands: no other action until the pieces are put back.
            out.push(Decision::Ignored {
                button,
                why: "a refused move stands: put the pieces back first".to_string(),
            });
            return;
        }
        // "Take back" picked in a "Which?": as OK on an offered takeback, below.
        if let (Button::Ok, Some(Pick::TakeBack(to))) =
            (button, play.menu.as_ref().and_then(Menu::pick))
        {
            play.menu = None;
            play.takeback = Some(to);
        }
        if let Some(menu) = &mut play.menu {
            match button {
                Button::Die => menu.next(),
                Button::Back => {
                    play.menu_declined = menu.board.clone();
                    play.menu = None;
                    out.push(Decision::MenuClosed);
                    if play.menu_declined.is_some() {
                        play.unmatched_since = Some(ctx.now);
                    }
                }
                Button::Ok => {
                    let action = match menu.pick() {
                        Some(Pick::Action(action)) => action.clone(),
                        Some(Pick::PhonePages) => {
                            // Not an action of the game: the service hands out the phone
                            // codes.
                            play.menu = None;
                            out.push(Decision::PhonePages);
                            return;
                        }
                        // (Taken above.)
                        Some(Pick::TakeBack(_)) | None => {
                            play.menu = None;
                            return;
                        }
                    };
                    match game.check(&action) {
                        Ok(()) => self.act(ctx, &action, true, out),
                        Err(_) if menu.secret => {
                            // A secret pick refused must leave no trace the others could
                            // read: a refusal's words, or that one was made at all, would
                            // tell them what the pick keeps secret (that hidden blocks do not
                            // tie, say). The pick is not taken, and the highlight moves on,
                            // which the chooser alone sees; the menu stays open.
                            menu.next();
                        }
                        Err(reason) => {
                            // Refused on the screen too, with its reason. A menu of the board
                            // (Which?) leaves the board unmatched: after the settle time the
                            // differences are named, and the piece lifted and put back down
                            // asks again.
                            let action = game.label(&action);
                            if menu.board.is_some() {
                                play.unmatched_since = Some(ctx.now);
                            }
                            play.menu = None;
                            play.prompt = Some(format!("{action}: {reason}"));
                            out.push(Decision::Refused { action, reason });
                        }
                    }
                }
            }
            return;
        }
        match (button, play.takeback) {
            (Button::Ok, Some(to)) => {
                if !ctx.write(&Record::Takeback { to_ply: to }, out) {
                    return;
                }
                let Stage::Play(play) = &mut self.stage else {
                    return;
                };
                let faces = match (play.history.get(to as usize), play.game()) {
                    (Some((back, _)), Some(now)) => back.taken_back_from(now),
                    _ => Vec::new(),
                };
                play.took_back(to);
                play.off = false;
                play.declined = None;
                out.push(Decision::TookBack { to_ply: to });
                self.evaluate(ctx, out);
                // Said once the board is judged (judging clears the prompt); the faces to turn
                // are told with it, until the next action.
                if let Stage::Play(play) = &mut self.stage {
                    if play.prompt.is_none() && play.board() == Some(ctx.sensed) {
                        if let Some(game) = play.game() {
                            let title = format!("taken back to turn {}", game.status_line().turn);
                            if faces.is_empty() {
                                play.prompt = Some(title);
                            } else {
                                play.announcement = Some(Screen::Told {
                                    status: game.status_line(),
                                    title,
                                    lines: faces,
                                    hands: Vec::new(),
                                    places: Places::default(),
                                });
                            }
                        }
                    }
                }
            }
            (Button::Back, Some(_)) if play.board() == Some(ctx.sensed) => {
                // Offered by Back on a board that matches: declining leaves play as it was,
                // nothing to put right.
                play.takeback = None;
                play.off = false;
                out.push(Decision::TakebackDeclined);
            }
            (Button::Back, Some(_)) => {
                play.takeback = None;
                play.declined = Some(ctx.sensed.clone());
                play.mismatch_shown = true;
                play.off = true;
                play.unmatched_since = Some(ctx.now);
                out.push(Decision::TakebackDeclined);
                self.stand_differences(ctx);
                out.push(Decision::Mismatch(self.differences(ctx.sensed)));
            }
            (Button::Back, None) => {
                // Undo, when the board allows, an action the hands did not make (a menu choice,
                // a roll), or the actions of this turn that left the board as it was (a piece
                // moved and moved back). Actions of earlier turns the hands made are taken back
                // by putting the pieces back: a board that only looks like an earlier one (two
                // pieces that swapped squares over a few turns) is never undone by a button.
                let now = game.turn_key();
                let undo = (play.board() == Some(ctx.sensed))
                    .then(|| Self::takeback_match(play, ctx.sensed))
                    .flatten()
                    .filter(|&to| {
                        let turn = play.history.get(to as usize).map(|(g, _)| g.turn_key());
                        play.by_button || turn == Some(now)
                    });
                match undo {
                    Some(to) => {
                        play.takeback = Some(to);
                        play.off = true;
                        out.push(Decision::TakebackOffered { to_ply: to });
                    }
                    None => {
                        let why = "to take back, put the pieces back as they were".to_string();
                        play.prompt = Some(why.clone());
                        out.push(Decision::Ignored { button, why });
                    }
                }
            }
            (Button::Ok, None)
                if !play.swaps.is_empty()
                    && game.to_act() != Actor::Chance
                    && game.result().is_none() =>
            {
                // An exchange the switches cannot see is still owed: no seat's action before
                // it is made (a die, a chance, may still be rolled or entered).
                let why = "the hands first: make the exchange the screen asks for".to_string();
                play.prompt = Some(why.clone());
                out.push(Decision::Ignored { button, why });
            }
            (Button::Ok, None) => {
                let entries = game.choices();
                if entries.is_empty() && !ctx.phone_pages {
                    let why = "nothing to choose now".to_string();
                    play.prompt = Some(why.clone());
                    out.push(Decision::Ignored { button, why });
                } else {
                    // A pick the rules keep secret (a skirmish's, a hit's among hidden
                    // blocks): one screen faces the whole table and every press of a button
                    // is seen, so, as with the phone codes, the others look away while the
                    // chooser picks. The highlight starts on an entry the clock's
                    // milliseconds decide, so counting the Die presses tells nothing either;
                    // and the words read off the OLED (logs, phone pages) highlight no entry
                    // ([`Screen::Choice`]'s `secret`).
                    let secret = game.secret_choice();
                    let (title, logged, selected) = if secret {
                        let len = entries.len() + usize::from(ctx.phone_pages);
                        let start = usize::try_from(ctx.now.0).unwrap_or(0) % len.max(1);
                        ("Others: look away", "Secret pick", start)
                    } else {
                        ("Die: next, OK: do it", "Actions", 0)
                    };
                    let menu = Menu {
                        title: title.to_string(),
                        entries,
                        selected,
                        board: None,
                        takeback: None,
                        phone: ctx.phone_pages,
                        secret,
                    };
                    out.push(Decision::MenuOpened {
                        title: logged.to_string(),
                        entries: menu.labels(),
                    });
                    play.menu = Some(menu);
                }
            }
            (Button::Die, None) => {
                if game.to_act() != Actor::Chance {
                    let why = "the rules call for no die roll now".to_string();
                    play.prompt = Some(why.clone());
                    out.push(Decision::Ignored { button, why });
                    return;
                }
                match play.draw(ctx.chance) {
                    Ok(Some(action)) => self.act(ctx, &action, true, out),
                    Ok(None) => out.push(Decision::Ignored {
                        button,
                        why: "no outcome can be rolled".to_string(),
                    }),
                    Err(why) => out.push(Decision::Ignored { button, why }),
                }
            }
            (Button::Die, Some(_)) => out.push(Decision::Ignored {
                button,
                why: "confirm or decline the takeback first".to_string(),
            }),
        }
    }

    /// The differences just shown on the mismatch screen are known faults until they change.
    fn stand_differences(&self, ctx: &mut Ctx<'_>) {
        if let Stage::Play(play) = &self.stage {
            let board = &play.expected();
            let wrong = board
                .keys()
                .filter(|p| !ctx.sensed.contains(p))
                .chain(ctx.sensed.iter().filter(|p| !board.contains_key(p)));
            ctx.hands.stand(wrong.copied());
        }
    }

    fn differences(&self, sensed: &BTreeSet<Place>) -> Vec<Difference> {
        match &self.stage {
            Stage::Play(p) => differences::<T>(self.choice, &p.expected(), sensed),
            Stage::Setup(_) => Vec::new(),
        }
    }

    fn play_screen(&self, play: &PlayState<T>, sensed: &BTreeSet<Place>) -> Screen {
        let choice = self.choice;
        let Some(game) = play.game() else {
            return Screen::Error {
                message: "no game".to_string(),
                fix: "choose a game".to_string(),
            };
        };
        let steps = || {
            let mut cache = play.steps.borrow_mut();
            if let Some((board, steps)) = cache.as_ref() {
                if board == sensed {
                    return steps.clone();
                }
            }
            let expected = &play.expected();
            let mut steps = hand_steps::<T>(choice, expected, sensed);
            for place in &play.swaps {
                if let Some(belongs) = expected.get(place) {
                    steps.push(
                        *place,
                        Ask::Swap,
                        format!(
                            "{}: lift the piece and put the {belongs} there",
                            T::place_name(choice, place)
                        ),
                    );
                }
            }
            *cache = Some((sensed.clone(), steps.clone()));
            steps
        };
        if let Some((result, reason)) = game.result() {
            if !play.hands {
                return Screen::GameOver { result, reason };
            }
        }
        if play.mismatch_shown {
            return Screen::Mismatch {
                differences: differences::<T>(choice, &play.expected(), sensed),
            };
        }
        if let Some(menu) = &play.menu {
            return Screen::Choice {
                title: menu.title.clone(),
                entries: menu.labels(),
                selected: menu.selected,
                secret: menu.secret,
            };
        }
        if let Some(to) = play.takeback {
            return Screen::Takeback {
                moves_back: play.moves_back(to),
                to_move_number: play.turn_after(to),
            };
        }
        if let Some((board, screen)) = &play.refused {
            if let (Screen::Illegal { status, reason, .. }, false) = (screen, board == sensed) {
                // The board changed since the refusal: the fix is what the hands must do now.
                let steps = steps();
                if !steps.is_empty() {
                    let (fix, places) = steps.fix();
                    return Screen::Illegal {
                        status: status.clone(),
                        reason: reason.clone(),
                        fix,
                        places,
                    };
                }
            }
            return screen.clone();
        }
        if let Some(msg) = &play.chance_failed {
            return Screen::Error {
                message: format!("the random source failed: {msg}"),
                fix: "press Die to try again".to_string(),
            };
        }
        if let Some(screen) = &play.announcement {
            if play.hands {
                // A move the announcement's words ask for is one instruction: not again here.
                let steps = steps().without_told(game.told_moves());
                return with_hands(screen, game.status_line(), steps);
            }
            if play.prompt.is_none() {
                return screen.clone();
            }
        } else if play.hands {
            // No announcement carries the steps: a restart asks again for an exchange the
            // power may have cut before the hands made it.
            let steps = steps();
            if !steps.is_empty() {
                let check = Screen::Told {
                    status: game.status_line(),
                    title: "Check the board".to_string(),
                    lines: Some(game.prompt())
                        .filter(|p| !p.is_empty())
                        .into_iter()
                        .collect(),
                    hands: Vec::new(),
                    places: Places::default(),
                };
                return with_hands(&check, game.status_line(), steps);
            }
        }
        Screen::Play {
            status: game.status_line(),
            prompt: play.prompt.clone().unwrap_or_else(|| game.prompt()),
        }
    }
}

impl<T: TableGame> AnySession for Session<T> {
    fn lifted(&mut self, place: &Place) {
        match &mut self.stage {
            Stage::Setup(state) => {
                let holders = state.filled.iter().filter(|g| g.contains(place)).count();
                state.moving =
                    (state.lifted.is_empty() && holders == 1 && !state.by_tags).then_some(*place);
                state.lifted.insert(*place);
                state.undone.remove(place);
                state.problems = None;
                if state.by_tags {
                    state.read_at.remove(place);
                    state.assigned.remove(place);
                    state.tag_problem = None;
                }
            }
            Stage::Play(play) => {
                play.first_lift = play.lifted.is_empty().then_some(*place);
                play.lifted.insert(*place);
                // Nothing stands there now: a tag read there named a piece that has gone.
                play.tags.retain(|(at, _)| at != place);
                if play.swaps.remove(place) {
                    *play.steps.get_mut() = None;
                }
            }
        }
    }

    fn placed(&mut self, place: &Place) {
        match &mut self.stage {
            Stage::Setup(state) => {
                let moved = state.moving.filter(|from| {
                    from != place
                        && !state.assigned.contains(place)
                        && state.lifted.len() == 1
                        && state.lifted.contains(from)
                });
                if let Some(from) = moved {
                    state.relocate(from, *place);
                } else {
                    if state.moving == Some(*place) {
                        state.moving = None;
                    }
                    if state.lifted.remove(place) && state.assigned.contains(place) && T::STACKS {
                        state.touched.insert(*place);
                    }
                }
                state.problems = None;
            }
            Stage::Play(play) => {
                if play.lifted.remove(place)
                    && play.first_lift == Some(*place)
                    && play.lifted.is_empty()
                    && play.board().is_some_and(|b| b.contains(place))
                {
                    play.selected = Some(*place);
                }
                play.first_lift = None;
            }
        }
    }

    fn tag(&mut self, ctx: &mut Ctx<'_>, place: &Place, uid: TagUid, out: &mut Vec<Decision>) {
        match &mut self.stage {
            Stage::Setup(state) if state.by_tags => {
                Self::setup_tag(self.choice, state, ctx, *place, uid, out);
            }
            Stage::Setup(state) => state.read.push((*place, uid)),
            Stage::Play(play) => {
                // A tag is where it was last read: a piece taken off the top of a stack leaves
                // its switch closed, so only its next read says it has gone.
                play.tags.retain(|(_, read)| *read != uid);
                play.tags.push((*place, uid));
            }
        }
    }

    fn tag_failed(&mut self, place: &Place, failure: TagFailure, out: &mut Vec<Decision>) {
        let choice = self.choice;
        if let Stage::Setup(state) = &mut self.stage {
            if state.by_tags {
                let msg = format!("{}: the tag was not read", T::place_name(choice, place));
                out.push(Decision::TagProblem(msg.clone()));
                state.tag_problem = Some((msg, failure.to_string()));
            }
        }
    }

    fn settled(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>) {
        if let Stage::Setup(state) = &mut self.stage {
            if !state.by_tags {
                // A piece put where its group may not go is refused the moment it settles.
                let seat = T::setup_order(self.choice)[state.turn.min(1)];
                state.taken_off_stacks(self.choice, seat, ctx.sensed);
                let misplaced = state.misplaced_now(self.choice, seat, ctx.sensed);
                if misplaced != state.misplaced && !misplaced.is_empty() {
                    out.push(Decision::SetupProblems(misplaced.clone()));
                }
                state.misplaced = misplaced;
            }
            return;
        }
        self.evaluate(ctx, out);
    }

    fn decides_at_once(
        &self,
        hands: &Hands,
        waiting: &[(Place, bool)],
        sensed: &BTreeSet<Place>,
    ) -> bool {
        Session::decides_at_once(self, hands, waiting, sensed)
    }

    fn tick(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>) -> bool {
        let wait = u64::from(ctx.mismatch_after_ms);
        let mut show = false;
        let mut judge = false;
        if let Stage::Play(play) = &mut self.stage {
            if let Some(since) = play.unmatched_since {
                if !play.mismatch_shown && ctx.now.since(since) >= wait {
                    play.mismatch_shown = true;
                    play.off = true;
                    play.menu_declined = None;
                    show = true;
                }
            }
            judge = play.hold_until.is_some_and(|until| ctx.now >= until);
        }
        if judge {
            self.evaluate(ctx, out);
        }
        if show {
            self.stand_differences(ctx);
            out.push(Decision::Mismatch(self.differences(ctx.sensed)));
        }
        judge || show
    }

    fn owed_chance(&mut self, ctx: &mut Ctx<'_>, out: &mut Vec<Decision>) {
        self.run_chance(ctx, out);
    }

    fn button(&mut self, ctx: &mut Ctx<'_>, button: Button, out: &mut Vec<Decision>) {
        match &self.stage {
            Stage::Setup(_) => self.setup_button(ctx, button, out),
            Stage::Play(_) => self.play_button(ctx, button, out),
        }
    }

    fn screen(&self, sensed: &BTreeSet<Place>) -> Screen {
        match &self.stage {
            Stage::Setup(state) => self.setup_screen(state, sensed),
            Stage::Play(play) => self.play_screen(play, sensed),
        }
    }

    fn hands_pending(&self) -> bool {
        matches!(&self.stage, Stage::Play(p) if p.hands)
    }

    fn differences(&self, sensed: &BTreeSet<Place>) -> Vec<Difference> {
        Session::differences(self, sensed)
    }

    fn turn_key(&self) -> Option<u32> {
        match &self.stage {
            Stage::Play(p) => p.game().map(TableGame::turn_key),
            Stage::Setup(_) => None,
        }
    }

    fn takeback_offered(&self) -> bool {
        matches!(&self.stage, Stage::Play(p) if p.takeback.is_some())
    }
}

impl<T: TableGame> TableView for Session<T> {
    fn in_play(&self) -> bool {
        matches!(&self.stage, Stage::Play(_))
    }

    fn setup_step(&self) -> Option<(Seat, usize)> {
        match &self.stage {
            Stage::Setup(state) => {
                let order = T::setup_order(self.choice);
                Some((order[state.turn.min(1)], state.step))
            }
            Stage::Play(_) => None,
        }
    }

    fn sample_groups(
        &self,
        seat: Seat,
        roll: &mut dyn FnMut(u32) -> u32,
    ) -> Option<Vec<Vec<Place>>> {
        T::sample_groups(self.choice, seat, roll)
    }

    fn expected(&self) -> std::collections::BTreeMap<Place, String> {
        match &self.stage {
            Stage::Play(p) => p.expected().clone(),
            Stage::Setup(_) => BTreeMap::new(),
        }
    }

    fn seat_board(&self, seat: Seat) -> std::collections::BTreeMap<Place, String> {
        self.game().map(|g| g.seat_board(seat)).unwrap_or_default()
    }

    fn swaps(&self) -> Vec<Place> {
        match &self.stage {
            Stage::Play(p) => p.swaps.iter().copied().collect(),
            Stage::Setup(_) => Vec::new(),
        }
    }

    fn to_act(&self) -> Option<Actor> {
        self.game().map(TableGame::to_act)
    }

    fn result(&self) -> Option<(String, String)> {
        self.game().and_then(TableGame::result)
    }

    fn actions(&self) -> Option<u32> {
        Session::actions(self)
    }

    fn gestures(&self) -> Vec<(Gesture, String)> {
        self.game()
            .map(|g| {
                g.gestures()
                    .into_iter()
                    .map(|(gesture, a)| (gesture, g.label(&a)))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn choices(&self) -> Vec<String> {
        self.game()
            .map(|g| {
                g.choices()
                    .into_iter()
                    .filter(|(_, a)| g.check(a).is_ok())
                    .map(|(label, _)| label)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn die_button(&self) -> bool {
        self.game()
            .is_some_and(|g| g.to_act() == Actor::Chance && g.die_button())
    }

    fn menu(&self) -> Option<(Vec<String>, usize)> {
        match &self.stage {
            Stage::Play(p) => p.menu.as_ref().map(|m| (m.labels(), m.selected)),
            Stage::Setup(_) => None,
        }
    }

    fn umpire_eyes(&self) -> String {
        let Some(g) = self.game() else {
            return match (self.setup_words(), self.setup_step()) {
                (Some(words), Some((seat, step))) if !self.setting_up_by_tags() => {
                    let group = T::groups(self.choice, seat)
                        .get(step)
                        .map_or_else(String::new, |g| format!(": {}", g.label));
                    format!("Set-up: {words}{group}")
                }
                (Some(words), _) => format!("Set-up: {words}"),
                (None, _) => "Set-up".to_string(),
            };
        };
        let status = g.status_line();
        let mut lines = Vec::new();
        let clock = status
            .clock
            .map(|c| format!(", {:02}:{:02}", c.hour, c.minute))
            .unwrap_or_default();
        let left = status
            .actions_left
            .map(|n| format!(", {n} action{} left", if n == 1 { "" } else { "s" }))
            .unwrap_or_default();
        lines.push(format!(
            "Turn {}{clock}; to act: {}{left}",
            status.turn, status.to_act
        ));
        if let Some(n) = status.reinforcements_in {
            lines.push(format!(
                "Reinforcements in {n} turn{}",
                if n == 1 { "" } else { "s" }
            ));
        }
        match g.result() {
            Some((result, why)) => lines.push(format!("Over: {result}: {why}")),
            None => lines.push(format!("Asked: {}", g.prompt())),
        }
        let board = g.umpire_board();
        let on_squares = board
            .keys()
            .filter(|p| matches!(p, Place::Square(_)))
            .count();
        lines.push(format!(
            "Actions played: {}; places holding pieces: {on_squares} squares, {} tray slots",
            Session::actions(self).unwrap_or(0),
            board.len() - on_squares
        ));
        lines.join("\n")
    }

    fn umpire_board(&self) -> BTreeMap<Place, Named> {
        self.game().map(TableGame::umpire_board).unwrap_or_default()
    }

    fn place_name(&self, place: &Place) -> String {
        T::place_name(self.choice, place)
    }

    fn seat_view(&self, seat: Seat) -> super::SeatView {
        let seats = T::page_seats(self.choice);
        let board = TableView::seat_board(self, seat);
        // Only the places the seat sees a piece on.
        let sides = self
            .game()
            .map(TableGame::sides)
            .unwrap_or_default()
            .into_iter()
            .filter(|(place, _)| board.contains_key(place))
            .collect();
        super::SeatView {
            seat,
            seat_names: seats.into_iter().map(|(_, name)| name).collect(),
            title: T::title(self.choice),
            places: T::layout(self.choice)
                .places
                .into_iter()
                .map(|(_, p)| p)
                .collect(),
            board: board
                .into_iter()
                .map(|(place, piece)| (place, T::place_name(self.choice, &place), piece))
                .collect(),
            sides,
            status: self.game().map(TableGame::status_line),
            setup: self.setup_words(),
            result: TableView::result(self),
            secrets: self
                .game()
                .map(|g| g.seat_secrets(seat))
                .unwrap_or_default(),
            story: match &self.stage {
                Stage::Play(p) => (1u32..)
                    .zip(&p.story)
                    .map(|(number, said)| super::SeatStory {
                        number,
                        public: said.public.clone(),
                        // A player beyond the table's seats (a page seat) acts through
                        // his table seat: his own piece is that seat's to name.
                        own: said.own.get(seat).cloned().flatten(),
                        told: said.told.clone(),
                    })
                    .collect(),
                Stage::Setup(_) => Vec::new(),
            },
        }
    }

    fn replay(&self) -> Option<super::Replay> {
        let Stage::Play(p) = &self.stage else {
            return None;
        };
        let (last, _) = p.history.last()?;
        let result = last.result()?;
        let named = |game: &T| -> Vec<(String, String)> {
            game.umpire_board()
                .into_iter()
                .map(|(place, n)| (T::place_name(self.choice, &place), n.name))
                .collect()
        };
        Some(super::Replay {
            title: T::title(self.choice),
            result,
            start: p.history.first().map(|(g, _)| named(g)).unwrap_or_default(),
            actions: (1u32..)
                .zip(&p.story)
                .map(|(number, said)| (number, said.revealed.clone(), said.told.clone()))
                .collect(),
            end: named(last),
        })
    }
}
