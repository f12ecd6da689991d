//! The referee of every game: one generic state machine ([`Session`]) over a [`TableGame`]
//! adapter per game (Stratego Original and Duel, Stratego: Waterloo, Piecepack at Waterloo).
//!
//! The adapter says, for the game as it stands, which places of the table hold a piece (squares
//! and tray slots) and what the table may be told about each; which physical gestures stand for
//! which legal actions; which actions are taken with the buttons (a menu); and what to announce
//! after each action. The machine does the rest, the same way for every game:
//!
//! - **Set-up** by groups behind a screen: each seat, in the game's order, places one group of
//!   pieces at a time ("Allied: place 3 Line infantry, then press OK"); the places that filled
//!   (or were lifted and put back, for a piece put on a stack, in a game with
//!   [`TableGame::STACKS`]) since the last OK get that group. A group may allow fewer (the rest
//!   stay in reserve); its count is checked at OK, or with the whole army
//!   ([`Group::counted`]), and more than it has is said at once. A piece put where its group
//!   may not go ([`TableGame::may_place`]), or may not go beside the pieces placed before it
//!   ([`TableGame::may_place_among`]: a stack over its limits, a piece next to the enemy), is
//!   refused the moment it settles, with the fix, and not counted; a piece of a finished group moved to a free place is the correction (it
//!   stays in its group, nothing after it undone). Back undoes a group. After the seat's last group its army is built
//!   and every problem listed, or it is journaled. A game whose pieces carry tags registered
//!   beforehand may instead be set up **by tags** ([`TableGame::tag_setup`]): both armies in
//!   any order, each piece known by the tag read as it is placed.
//! - **Gestures**. Each time the sensed board settles it is compared with the expected board:
//!   the places emptied and the places filled, plus the *selected* place (a piece lifted while
//!   nothing else was and put back before anything else was lifted, since the last action:
//!   "select/fire = lift and replace, then lift the target"). A gesture that matches exactly one
//!   legal action plays it; several (the same hands, different meanings: which piece of a stack,
//!   which side an attack comes from) open a menu of them; one piece lifted that some legal
//!   gesture lifts (or selects) is a piece in hand, waited for; a shape the rules refuse is
//!   refused with the public reason and the fix, which stays until the board is put right or a
//!   legal action made (its fix follows the board) (a refusal a repetition rule makes is said even
//!   when the board also looks like an earlier position, [`TableGame::insists`]); an earlier
//!   position is a takeback, offered until it is confirmed, declined or the board matches, and
//!   counted in the status line's turns; the last slide carried on (the piece lifted again from where it
//!   was put and put further, before anything else was touched) corrects it; anything else is
//!   named after the settle time. A gesture of lifts only that [`TableGame::held`] says
//!   lifts another side's piece waits for the attack hold before it is judged, and a place that
//!   reads a piece no hand put there is named, never played (see the
//!   [referee docs](super), *Careless hands and faulty switches*).
//! - **Buttons**. OK opens the menu of the actions taken by button (end of turn, cards, a die
//!   entered from a physical die); Die moves down a menu, and when the rules call for a die the
//!   game rolls in the open (its [`TableGame::die_button`]) it rolls it; Back closes a menu,
//!   declines a takeback, or offers to take back the last action when the board allows it.
//!   While the board's differences fill the screen, OK and Die wait for it to be put right.
//! - **Chance** the players do not roll (secret draws) is drawn at once from the
//!   [`Chance`](crate::referee::Chance) source and journaled as the action it chose.
//! - **Tags**. With NFC, the tags read while a group is placed go to
//!   [`TableGame::army_tagged`] (a game may register each piece's tag), and the tags read
//!   since the last action narrow a gesture that means several actions
//!   ([`TableGame::fits_tags`]) before a menu asks, and a slide whose one action they disagree
//!   with is refused: the piece put down is not the one lifted. A game whose places of one
//!   area are alike to the switches adds the actions of the piece the tag names
//!   ([`TableGame::tag_matching`]).
//! - **Hands**. After an action, whatever the board must still change (the loser off, the winner
//!   on, a Prussian onto its entry square) is listed live on the announcement, and play waits
//!   for the board to match. A move the announcement's own words ask for
//!   ([`TableGame::told_moves`]: "Namen slot 1 to Prussian eliminated 3") is not listed
//!   again as the place it empties and the place it fills.
//!
//! Every action, and every chance outcome, is journaled
//! ([`Record::Action`]) before the players are told.

pub(crate) mod session;
#[cfg(test)]
mod tests;

pub use session::{rebuild_table, table_record, Session, TableEntry, TableRebuilt, TableRecord};

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use boards::{Actor, BySeat, Seat};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::decision::Decision;
use super::record::Record;
use super::tags::TagRegistry;
use crate::sensing::{LayoutSetup, Place, TagUid};
use crate::ui::{Screen, StatusLine};

/// A change of the board that an announcement's own words ask of the hands, naming its places
/// ([`TableGame::told_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToldMove {
    /// A piece moved from one place to another ("Orange 4 to Allied casualty 1").
    Move {
        /// The place the piece leaves.
        from: Place,
        /// The place it goes to.
        to: Place,
    },
    /// A piece brought onto a place from off the board ("Prussian marker to Blücher's Prussians 1").
    Arrive(Place),
    /// The piece on a place exchanged for another ("Hougoumont taken: French marker in").
    Exchange(Place),
}

impl ToldMove {
    /// The places it names: where a piece leaves, then where one goes.
    pub fn places(&self) -> Vec<Place> {
        match *self {
            ToldMove::Move { from, to } => vec![from, to],
            ToldMove::Arrive(at) | ToldMove::Exchange(at) => vec![at],
        }
    }
}

/// What the hands do for one action: the places emptied and filled, and the place selected
/// first (lifted and put back), compared with the expected board.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Gesture {
    /// Places expected occupied that are now empty.
    pub lifted: Vec<Place>,
    /// Places expected empty that are now occupied.
    pub placed: Vec<Place>,
    /// The piece lifted and put back first, for a select-then-target gesture (fire).
    pub selected: Option<Place>,
}

impl Gesture {
    /// Lift `from`, put it on `to`.
    pub fn slide(from: Place, to: Place) -> Gesture {
        Gesture {
            lifted: vec![from],
            placed: vec![to],
            selected: None,
        }
    }

    /// Lift both pieces (an attack: your own, then the enemy's, in either order).
    pub fn lift_two(a: Place, b: Place) -> Gesture {
        let mut lifted = vec![a, b];
        lifted.sort();
        Gesture {
            lifted,
            placed: Vec::new(),
            selected: None,
        }
    }

    /// Lift and replace `selected`, then lift `target`.
    pub fn select_then_lift(selected: Place, target: Place) -> Gesture {
        Gesture {
            lifted: vec![target],
            placed: Vec::new(),
            selected: Some(selected),
        }
    }

    /// Puts the place lists in order, so gestures compare as sets.
    pub fn normalized(mut self) -> Gesture {
        self.lifted.sort();
        self.lifted.dedup();
        self.placed.sort();
        self.placed.dedup();
        self
    }
}

/// One step of a group set-up: what to place, and how many.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// What the OLED asks for ("3 Line infantry", "Wellington (red pawn)").
    pub label: String,
    /// The most pieces of the group.
    pub count: u8,
    /// The fewest (the rest stay off the board, in reserve).
    pub min: u8,
    /// Whether OK refuses a count outside `min..=count` at once. Otherwise the army's check
    /// counts the group with every other problem of the set-up, listed together.
    pub counted: bool,
}

/// A piece of a group set-up as it is judged ([`TableGame::may_place_among`]): where it stands,
/// and what stood before it.
#[derive(Debug)]
pub struct Placing<'a, T: TableGame> {
    /// The seat setting up.
    pub seat: Seat,
    /// The piece's group: its index in [`TableGame::groups`].
    pub group: usize,
    /// Where it stands.
    pub place: &'a Place,
    /// The seat's pieces that went down before it and still stand, each as (its group, its
    /// place), in the order they went down (a piece moved to correct it went down when it was
    /// moved). The piece that joins them is the one refused, never a piece already standing.
    pub earlier: &'a [(usize, Place)],
    /// The armies already set up (the seat that set up first, once its army is built).
    pub armies: &'a BySeat<Option<T::Army>>,
}

/// A journal record as a game reads it back.
#[derive(Clone, Debug, PartialEq)]
pub enum Journaled<T: TableGame> {
    /// A seat's army.
    Army(Seat, T::Army),
    /// An action (or chance outcome).
    Action(T::Action),
    /// Play went back to the game after `to_ply` actions.
    Takeback(u32),
}

/// `bytes` decoded as a `V` that uses every one of them: bytes left over mean another layout.
pub(crate) fn decode_whole<V: DeserializeOwned>(bytes: &[u8]) -> Result<V, String> {
    match postcard::take_from_bytes::<V>(bytes) {
        Ok((value, [])) => Ok(value),
        Ok((_, rest)) => Err(format!(
            "{} bytes are left over: it was written with another layout",
            rest.len()
        )),
        Err(postcard::Error::SerdeDeCustom) => Err(crate::journal::OUT_OF_RANGE.into()),
        Err(e) => Err(e.to_string()),
    }
}

/// Of `gestures` (each with its action), those `gesture` makes: the same places lifted and
/// placed, and the selected place where the gesture needs one. A gesture that selects outranks
/// the same lifts without the selection.
pub(crate) fn matching_gestures<A>(
    gestures: Vec<(Gesture, A)>,
    gesture: &Gesture,
) -> Vec<(Gesture, A)> {
    let mut matching: Vec<(Gesture, A)> = gestures
        .into_iter()
        .filter(|(g, _)| {
            g.lifted == gesture.lifted
                && g.placed == gesture.placed
                && (g.selected.is_none() || g.selected == gesture.selected)
        })
        .collect();
    if matching.iter().any(|(g, _)| g.selected.is_some()) {
        matching.retain(|(g, _)| g.selected.is_some());
    }
    matching
}

/// A game played through the generic referee: the game state plus whatever the table adds to
/// it (which tray slot holds which piece). See the [module docs](self).
pub trait TableGame: Clone + fmt::Debug + Sized + 'static {
    /// What the menu chose: version, scenario. Journaled in the header.
    type Choice: Copy + fmt::Debug + PartialEq;
    /// An action of the game (chance outcomes included). Journaled, so its encoding is stable.
    type Action: Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned;
    /// One seat's set-up as learned from the groups. Journaled.
    type Army: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;

    /// Whether a piece may be put on a place that holds one (a stack): during set-up, a piece
    /// of a group put on a stack is placed by lifting and putting back the stack's place. Without
    /// stacks, a place given to a group stays that group's.
    const STACKS: bool = true;

    /// The game's name on the OLED ("Waterloo Basic").
    fn title(choice: Self::Choice) -> String;
    /// A rule the game is played with that the players must know before they set up (an
    /// option of the rulebook the umpire's configuration turned on), said on every set-up
    /// screen after what to do. Default: none.
    fn setup_note(choice: Self::Choice) -> Option<String> {
        let _ = choice;
        None
    }
    /// The sensed places the game needs: its grid of squares and its tray slots (the
    /// simulator builds its board from this; a real board's configuration must provide them).
    fn layout(choice: Self::Choice) -> LayoutSetup;
    /// The seats in set-up order.
    fn setup_order(choice: Self::Choice) -> [Seat; 2];
    /// A seat's name ("Allied").
    fn seat_name(seat: Seat) -> &'static str;
    /// The players who each get a private view ([`TableView::seat_view`], a phone page), by
    /// the seat their view is asked for and their name. Default: the table's seats. A game
    /// whose table seat is several players who may not share their secrets (three-player
    /// Napoléon: the Allied seat is the Anglo-Dutch and the Prussian player) lists each.
    fn page_seats(choice: Self::Choice) -> Vec<(Seat, String)> {
        let mut seats = Self::setup_order(choice).to_vec();
        seats.sort();
        seats
            .into_iter()
            .map(|s| (s, Self::seat_name(s).to_string()))
            .collect()
    }
    /// Who places `seat`'s set-up group `group`, as the prompt names them: by default the
    /// seat's name. A game whose seat sets up for several players (Napoléon's Allies, two
    /// players with three at the table) names the player.
    fn group_actor(choice: Self::Choice, seat: Seat, group: usize) -> String {
        let _ = (choice, group);
        Self::seat_name(seat).to_string()
    }
    /// A place as the players read it in hand steps and differences ("a5", "Allied reserve
    /// slot 3"); by default the sensing layer's name, which can only number the seats.
    fn place_name(_choice: Self::Choice, place: &Place) -> String {
        place.to_string()
    }
    /// `seat`'s set-up groups, in order.
    fn groups(choice: Self::Choice, seat: Seat) -> Vec<Group>;
    /// Whether a piece of `seat`'s set-up group `group` (its index in [`TableGame::groups`])
    /// may stand on `place`, judged the moment it is put there: a place no piece of the group
    /// may take (outside the seat's set-up area, a slot of another kind, a terrain the piece is
    /// barred from) is refused at once with the rule and the fix, naming only the place and the
    /// seat's own piece. Problems between pieces are [`TableGame::may_place_among`]'s. By
    /// default every place is allowed.
    ///
    /// # Errors
    /// The refusal: the place, the rule, the fix ("e5 is outside Red's rows 1-4: move it there").
    fn may_place(
        choice: Self::Choice,
        seat: Seat,
        group: usize,
        place: &Place,
    ) -> Result<(), String> {
        let _ = (choice, seat, group, place);
        Ok(())
    }
    /// Whether the piece being judged in `at` may stand where it is beside the pieces that
    /// went down before it ([`Placing::earlier`]) and the armies already set up: the problems
    /// *between* pieces (a stack over its limits, a piece next to the enemy) refused the
    /// moment the offending piece settles, with the fix, naming only the place and the seat's
    /// own piece. By default [`TableGame::may_place`], the piece alone.
    ///
    /// # Errors
    /// The refusal: the place, the rule, the fix.
    fn may_place_among(choice: Self::Choice, at: &Placing<'_, Self>) -> Result<(), String> {
        Self::may_place(choice, at.seat, at.group, at.place)
    }
    /// Builds `seat`'s army from the places each group filled (`filled[i]` for group `i`, in the
    /// order they filled); every problem, each with its fix.
    ///
    /// # Errors
    /// Every problem of the army alone.
    fn army(
        choice: Self::Choice,
        seat: Seat,
        filled: &[Vec<Place>],
    ) -> Result<Self::Army, Vec<String>>;
    /// With NFC: builds `seat`'s army as [`TableGame::army`] does, knowing also the tags read
    /// on each group's places while it was placed (`tags[i]` for group `i`, in the order
    /// read), so the army can register each piece's tag. By default the tags are not used.
    ///
    /// # Errors
    /// Every problem of the army alone.
    fn army_tagged(
        choice: Self::Choice,
        seat: Seat,
        filled: &[Vec<Place>],
        tags: &[Vec<TagUid>],
    ) -> Result<Self::Army, Vec<String>> {
        let _ = tags;
        Self::army(choice, seat, filled)
    }
    /// With NFC tags registered to pieces ([`TagRegistry`]): how many pieces both armies have,
    /// when the game may be set up by tags, both armies in any order. `None`: no such set-up.
    fn tag_setup(choice: Self::Choice) -> Option<u16> {
        let _ = choice;
        None
    }
    /// With a set-up by tags: both armies from the tag read on each place, every tag
    /// registered. Every problem of each army.
    ///
    /// # Errors
    /// Every problem; by default, that the game has no set-up by tags.
    fn armies_from_tags(
        choice: Self::Choice,
        registry: &TagRegistry,
        read: &BTreeMap<Place, TagUid>,
    ) -> Result<BySeat<Self::Army>, Vec<String>> {
        let _ = (choice, registry, read);
        Err(vec![
            "this game is set up by groups, not by tags".to_string()
        ])
    }
    /// The places `army` stands on, when the game can say: after a restart during set-up,
    /// the first seat's journaled army takes exactly these (the second seat's pieces already
    /// standing then join its groups). `None`: every place that reads a piece is taken.
    fn army_places(army: &Self::Army) -> Option<BTreeSet<Place>> {
        let _ = army;
        None
    }
    /// Starts the game from both armies.
    ///
    /// # Errors
    /// Every problem of the two armies together.
    fn start(choice: Self::Choice, armies: &BySeat<Self::Army>) -> Result<Self, Vec<String>>;

    /// The journal record of `seat`'s army: by default [`Record::Army`], postcard-encoded.
    ///
    /// # Errors
    /// The army does not encode.
    fn army_record(seat: Seat, army: &Self::Army) -> Result<Record, String> {
        let army = postcard::to_allocvec(army).map_err(|e| e.to_string())?;
        Ok(Record::Army { seat, army })
    }
    /// The journal record of `action`: by default [`Record::Action`], postcard-encoded.
    ///
    /// # Errors
    /// The action does not encode.
    fn action_record(action: &Self::Action) -> Result<Record, String> {
        postcard::to_allocvec(action)
            .map(Record::Action)
            .map_err(|e| e.to_string())
    }
    /// A journal record read back (the inverse of [`TableGame::army_record`] and
    /// [`TableGame::action_record`]).
    ///
    /// # Errors
    /// A record this game does not write, or that does not decode.
    fn read_record(record: &Record) -> Result<Journaled<Self>, String> {
        match record {
            Record::Army { seat, army } => decode_whole(army)
                .map(|a| Journaled::Army(*seat, a))
                .map_err(|e| format!("the army does not decode: {e}")),
            Record::Action(bytes) => decode_whole(bytes)
                .map(Journaled::Action)
                .map_err(|e| format!("the action does not decode: {e}")),
            Record::Takeback { to_ply } => Ok(Journaled::Takeback(*to_ply)),
            Record::Deployed { .. } | Record::Move(_) | Record::Chance { .. } => {
                Err("a Stratego record in another game's journal".to_string())
            }
            // The journal's first record, read before the game's (`rebuild_table`).
            Record::Files(_) => Err("data files after the game's first record".to_string()),
        }
    }

    /// The places that hold a piece now, each with what the whole table may be told about it
    /// ("French piece", "Allied Guard").
    fn board(&self) -> BTreeMap<Place, String>;
    /// The places that hold a piece now: the keys of [`TableGame::board`], which a game may
    /// list without naming the pieces.
    fn occupied(&self) -> std::collections::BTreeSet<Place> {
        self.board().into_keys().collect()
    }
    /// The status line.
    fn status_line(&self) -> StatusLine;
    /// Who acts now.
    fn to_act(&self) -> Actor;
    /// The result once the game is over: (who won or "Draw", why).
    fn result(&self) -> Option<(String, String)>;
    /// The legal actions the hands make, each with its gesture (normalized).
    fn gestures(&self) -> Vec<(Gesture, Self::Action)>;
    /// The legal actions `gesture` (normalized) makes, with their gestures: those of
    /// [`TableGame::gestures`] whose places are the gesture's (a gesture's selected place, when
    /// it has one, must be the one selected). A game may answer faster than listing every
    /// action.
    fn matching(&self, gesture: &Gesture) -> Vec<(Gesture, Self::Action)> {
        matching_gestures(self.gestures(), gesture)
    }
    /// The actions the table is asked to choose among for `gesture`, given `matching`, the legal
    /// ones it makes ([`TableGame::matching`]): more than one opens the "Which?" menu, and a
    /// choice the rules refuse is refused then, with its reason; exactly one is played if the
    /// rules allow it and refused with their reason if not, never replaced by another legal
    /// reading. `None`, the default, asks about `matching`. A game whose secrets decide which
    /// piece can make a move (a Piecepack coin's hidden value is its reach) answers `Some`:
    /// every piece that could make it as far as the table can tell, in an order that tells
    /// nothing either. Whether the umpire asks,
    /// and what, must not tell which hidden piece can; so where a takeback fits the same board
    /// as such a list, the session asks "Which?" with "Take back" among the entries rather than
    /// choose between them by the legal moves.
    fn askable(
        &self,
        gesture: &Gesture,
        matching: &[(Gesture, Self::Action)],
    ) -> Option<Vec<(Gesture, Self::Action)>> {
        let _ = (gesture, matching);
        None
    }
    /// Whether `place`, lifted alone, is a piece in hand whatever the legal actions are: a game
    /// whose secrets include which pieces can move (Stratego's Bombs and Flag) says so for every
    /// piece of the side to act, so lifting an immovable piece looks like lifting any other.
    /// By default a piece in hand is one some legal gesture lifts or selects.
    fn in_hand(&self, place: &Place) -> bool {
        let _ = place;
        false
    }
    /// The legal actions taken with the buttons, each with its public menu label.
    fn choices(&self) -> Vec<(String, Self::Action)>;
    /// Whether the OK menu's choice now is one the rules keep from the rest of the table
    /// until later (a skirmish's pick, Napoléon 6.6; a hit placed among hidden blocks, 6.4), so
    /// its highlight must be the chooser's alone: see [`Screen::Choice`]'s `secret`. By default
    /// no choice is secret.
    fn secret_choice(&self) -> bool {
        false
    }
    /// With NFC: whether `action` agrees with the tags read since the last action (each with
    /// the place it was read on). When a gesture means several actions, those that agree are
    /// kept, if any do; for a game that answers [`TableGame::askable`], those that agree are
    /// all that is asked, and none agreeing asks nothing. By default every action agrees.
    /// A piece lifted and put down that makes one action only (or, asked by what the table
    /// sees, that one piece alone could have made), whose tags disagree, is refused as the
    /// wrong piece. `registry` holds the tags registered to pieces before the game (if any).
    fn fits_tags(
        &self,
        action: &Self::Action,
        tags: &[(Place, TagUid)],
        registry: &TagRegistry,
    ) -> bool {
        let _ = (action, tags, registry);
        true
    }
    /// With NFC: the legal actions `gesture` (normalized) makes when the pieces are the ones
    /// the tags read since the last action say (each with the place it was read on), beyond
    /// [`TableGame::matching`]'s: a game whose places of one area are interchangeable to the
    /// switches (Napoléon's slots of a town) names the piece whose tag was read, wherever in
    /// the area the table had it. [`TableGame::fits_tags`] then keeps the one the tags name.
    /// By default none.
    fn tag_matching(
        &self,
        gesture: &Gesture,
        tags: &[(Place, TagUid)],
        registry: &TagRegistry,
    ) -> Vec<(Gesture, Self::Action)> {
        let _ = (gesture, tags, registry);
        Vec::new()
    }
    /// Whether the gesture for `action` lifts a piece of another side (an attack, a
    /// designation, a shot), so a hand brushing that piece could make it: such a gesture, made
    /// of lifts only, must stay up for the attack hold before it is judged. By default every
    /// gesture of lifts only is held.
    fn held(&self, action: &Self::Action) -> bool {
        let _ = action;
        true
    }
    /// Actions a gesture looks like, legal or not, for the rules to say why they are refused.
    fn shaped(&self, gesture: &Gesture) -> Vec<Self::Action>;
    /// Whether `action` is legal; the refusal in words the whole table may read.
    ///
    /// # Errors
    /// The public reason.
    fn check(&self, action: &Self::Action) -> Result<(), String>;
    /// Whether the refusal of `action` is said even when the board also looks like an earlier
    /// position (a repetition rule refuses exactly the move back). By default a takeback is
    /// offered instead.
    fn insists(&self, action: &Self::Action) -> bool {
        let _ = action;
        false
    }
    /// Plays a legal action and says what to announce (the hands' steps are added live).
    fn play(&mut self, action: &Self::Action) -> Screen;
    /// The decision that reports `action`, played on `self` (the game before it) and giving
    /// `after`: by default [`Decision::Acted`] with its public label.
    fn acted(&self, action: &Self::Action, after: &Self) -> Decision {
        let _ = after;
        Decision::Acted {
            actor: self.to_act(),
            action: self.label(action),
        }
    }
    /// The places the last [`TableGame::play`] left occupied by another piece than before (a
    /// battle's winner on the square of a loser the hands did not lift): occupancy cannot see
    /// the change, so the hands must lift what stands there and put the right piece on.
    fn exchanged(&self) -> Vec<Place> {
        Vec::new()
    }
    /// The weighted chance outcomes when [`TableGame::to_act`] is [`Actor::Chance`].
    fn chance(&self) -> Vec<(Self::Action, u32)>;
    /// Whether the pending chance is a die the players see rolled (the Die button rolls it, or
    /// the face of a physical die is entered from the menu) rather than a secret draw.
    fn die_button(&self) -> bool;
    /// The action in words the whole table may read ("c4 fires at c7", "a piece enters on a1").
    fn label(&self, action: &Self::Action) -> String;
    /// The places [`TableGame::label`] names for `action`, as the LED guidance lights them:
    /// where it starts and ends (`moved`) and what it fires at (`target`); never a place the
    /// label does not name. `hands` stays empty (the session lists the hands' steps).
    fn label_places(&self, action: &Self::Action) -> crate::ui::Places;
    /// What the side to act is asked to do.
    fn prompt(&self) -> String;
    /// Changes whenever a new side's turn begins (restarts the turn clock).
    fn turn_key(&self) -> u32;

    /// The board as `seat` sees it: its own pieces named, the enemy's as [`TableGame::board`]
    /// names them. Default: the public board.
    fn seat_board(&self, seat: Seat) -> BTreeMap<Place, String> {
        let _ = seat;
        self.board()
    }

    /// Whose piece stands on each place, as the whole table sees it (a piece's colour or
    /// army is public): a seat's page marks its own pieces by it and colours the enemy's.
    /// Places of no seat (a card, a neutral marker) are left out. Default: none known.
    fn sides(&self) -> BTreeMap<Place, Seat> {
        BTreeMap::new()
    }

    /// A legal set-up for `seat` drawn with `roll` (a number in `0..n`): the places of each
    /// group, in group order. For demonstrations and tests; `None` when the game has none.
    fn sample_groups(
        choice: Self::Choice,
        seat: Seat,
        roll: &mut dyn FnMut(u32) -> u32,
    ) -> Option<Vec<Vec<Place>>> {
        let _ = (choice, seat, roll);
        None
    }

    /// `action` (legal here) with every secret named, for the umpire's eyes and `replay
    /// --reveal`: which piece moved, what was drawn. By default its public
    /// [`TableGame::label`].
    fn revealed(&self, action: &Self::Action) -> String {
        self.label(action)
    }

    /// What the last [`TableGame::play`] told the whole table besides the action's label, in
    /// full words for the record: battles and their results, the die's meaning, eliminations,
    /// turns begun. Public, as the announcement is. By default nothing.
    fn told(&self) -> Vec<String> {
        Vec::new()
    }

    /// What the table is told, besides the pieces to put back, when a takeback returns play
    /// from `from` (the game as it stood) to this game: a piece's face to turn (Napoléon: a
    /// block the takeback shows again is laid flat, one it hides may stand up, 6.2.4).
    /// Public, as an announcement is. By default nothing.
    fn taken_back_from(&self, _from: &Self) -> Vec<String> {
        Vec::new()
    }

    /// The moves of pieces the last [`TableGame::play`]'s own words ask the hands for ("Namen
    /// slot 1 to Prussian eliminated 3"): the live hand steps leave out the changes each
    /// makes (a move's piece off the place it leaves and a piece on the place it goes, an
    /// arrival's piece on its place, an exchange at its place), so one act is one
    /// instruction, the told one; the LEDs still light the places while they differ. By
    /// default none: every change the board needs is a hand step.
    fn told_moves(&self) -> &[ToldMove] {
        &[]
    }

    /// The places that hold a piece, each with every piece named (the umpire's eyes): a
    /// short code for a board diagram and the full words. By default the public board.
    fn umpire_board(&self) -> BTreeMap<Place, Named> {
        self.board()
            .into_iter()
            .map(|(place, name)| (place, Named::from_words(name)))
            .collect()
    }

    /// `army` in words, a line for each kind of piece and where it stands (the umpire's eyes:
    /// `replay --reveal`). By default nothing.
    fn army_words(choice: Self::Choice, seat: Seat, army: &Self::Army) -> Vec<String> {
        let _ = (choice, seat, army);
        Vec::new()
    }

    /// What the rules let `seat` alone know besides its own pieces (Waterloo's line of
    /// retreat), in words, read from the seat's own view of the game and nothing else: the
    /// seat's private page lists it. By default nothing (the game has no such secret).
    fn seat_secrets(&self, seat: Seat) -> Vec<String> {
        let _ = seat;
        Vec::new()
    }
}

/// A piece (or a stack) named for the umpire's eyes: a short code for a board diagram and the
/// full words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// A few characters for a diagram's square ("fI6", "r5", "R5/RP").
    pub code: String,
    /// The piece in full ("French Old Guard", "Red Scout").
    pub name: String,
}

impl Named {
    /// `name`, its code the first letters of its first two words.
    pub fn from_words(name: String) -> Named {
        let code = name
            .split_whitespace()
            .filter_map(|w| w.chars().find(char::is_ascii_alphanumeric))
            .take(2)
            .collect();
        Named { code, name }
    }
}

/// What a table game's session shows of itself to the simulator and to tests: public
/// descriptions only, except [`TableView::umpire_eyes`].
pub trait TableView {
    /// Whether set-up is finished.
    fn in_play(&self) -> bool;
    /// The seat whose groups are being placed, and the group's index, during set-up.
    fn setup_step(&self) -> Option<(Seat, usize)>;
    /// A legal set-up's places for `seat`, group by group (see [`TableGame::sample_groups`]).
    fn sample_groups(
        &self,
        seat: Seat,
        roll: &mut dyn FnMut(u32) -> u32,
    ) -> Option<Vec<Vec<Place>>>;
    /// The expected board: each occupied place and what the table may be told about it.
    fn expected(&self) -> BTreeMap<Place, String>;
    /// The board as `seat` sees it (its own pieces named).
    fn seat_board(&self, seat: Seat) -> BTreeMap<Place, String>;
    /// Places whose piece the hands must still lift and replace by another (occupancy cannot
    /// see such an exchange; see [`TableGame::exchanged`]).
    fn swaps(&self) -> Vec<Place>;
    /// Who acts now, once in play.
    fn to_act(&self) -> Option<Actor>;
    /// The result once over: (who won or "Draw", why).
    fn result(&self) -> Option<(String, String)>;
    /// Actions played (chance outcomes included), once in play.
    fn actions(&self) -> Option<u32>;
    /// The legal actions the hands can make now: each gesture with its public label.
    fn gestures(&self) -> Vec<(Gesture, String)>;
    /// The actions the buttons can take now (the OK menu), by public label: those the rules
    /// accept (Napoléon's menu also lists a hidden block's twins, which the owner tells apart).
    fn choices(&self) -> Vec<String>;
    /// Whether the pending chance is rolled with the Die button.
    fn die_button(&self) -> bool;
    /// The open menu's entries and the highlighted one.
    fn menu(&self) -> Option<(Vec<String>, usize)>;
    /// The table's state in words for the umpire's own eyes (`show umpire`): the turn and the
    /// clock, who acts and what they are asked, the actions played, the pieces on squares and
    /// on tray slots, the result once over. The board itself is [`TableView::umpire_board`].
    fn umpire_eyes(&self) -> String;
    /// Every piece named, for the umpire's own eyes (spoils the game); empty during set-up.
    fn umpire_board(&self) -> BTreeMap<Place, Named>;
    /// A place as this game names it to the players ([`TableGame::place_name`], with the
    /// game's choice): how the simulator names the lit tray slots in its LED legend.
    fn place_name(&self, place: &Place) -> String;
    /// What `seat` may see of the game, for its private page ([`crate::web`]): nothing the
    /// seat's own view ([`TableGame::seat_board`]) and the public status do not hold.
    fn seat_view(&self, seat: Seat) -> SeatView;
    /// The whole game revealed, once it is over (`None` while it runs or before it began):
    /// every piece where it started, each action with every secret named, the final board.
    fn replay(&self) -> Option<Replay>;
}

/// One action of the game's story as `seat` may read it: the public words, what the table was
/// told besides, and the seat's own piece that acted when the public words do not name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatStory {
    /// The action's number from 1.
    pub number: u32,
    /// The action in the words the whole table reads ("a2-a3").
    pub public: String,
    /// The seat's own piece that made it, as the seat's view names it ("Red Scout"), when
    /// the public board names it otherwise; `None` for an enemy's or a public piece.
    pub own: Option<String>,
    /// What the table was told besides (battles, results, the die's meaning): public.
    pub told: Vec<String>,
}

impl SeatStory {
    /// The entry in one line of full words.
    pub fn words(&self) -> String {
        let mut s = format!("{}. {}", self.number, self.public);
        if let Some(own) = &self.own {
            s.push_str(&format!(" (your {own})"));
        }
        for told in &self.told {
            s.push_str("; ");
            s.push_str(told);
        }
        s
    }
}

/// A finished game with everything revealed, for the pages' replay (the umpire's eyes: built
/// only once the game is over, [`TableView::replay`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The game's name.
    pub title: String,
    /// The result: (who won or "Draw", why).
    pub result: (String, String),
    /// Every piece where it stood when play began, each place by its name, every piece named.
    pub start: Vec<(String, String)>,
    /// Each action in order: its number, the action with every secret named, and what the
    /// table was told besides.
    pub actions: Vec<(u32, String, Vec<String>)>,
    /// The final board, every piece named.
    pub end: Vec<(String, String)>,
}

/// What one seat may see of the game in progress: the only thing its private web page is
/// built from ([`crate::web::SeatPage`]), so a page can hold no secret the seat's view does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// Each seat's name, in turn order ("Red", "Blue").
    pub seat_names: Vec<String>,
    /// The game's name ("Stratego Duel").
    pub title: String,
    /// Every place of the game's layout (the board's geometry, public).
    pub places: Vec<Place>,
    /// The places holding a piece as the seat sees them, each with the place's name and the
    /// piece in words: the seat's own pieces named, the enemy's as the rules allow.
    pub board: Vec<(Place, String, String)>,
    /// Whose piece stands on each place of `board`, as the whole table sees it
    /// ([`TableGame::sides`]): the page marks the seat's own by it, never by the words.
    pub sides: BTreeMap<Place, Seat>,
    /// The status line, once in play (public: the OLED shows it).
    pub status: Option<StatusLine>,
    /// During set-up, in words after "Set-up: ": who places which group ("Red places group
    /// 2"), or, set up by tags, that every army goes down at once.
    pub setup: Option<String>,
    /// The result once over: (who won or "Draw", why); public.
    pub result: Option<(String, String)>,
    /// What the rules let this seat alone know besides its pieces
    /// ([`TableGame::seat_secrets`]); empty when the game has no such secret.
    pub secrets: Vec<String>,
    /// The game's story since play began, worded for this seat, oldest first.
    pub story: Vec<SeatStory>,
}
