//! The referee state machine for Stratego Original and Duel.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io;

use boards::stratego::{
    seat_name, Battle, BattleResult, Deployment, EndReason, Illegal, Move, Options, Outcome, Piece,
    Position, Rank, Square, Variant, BLUE, RED,
};
use boards::{Actor, BySeat, Game, Seat, Status};

use super::chance::Chance;
use super::games;
use super::hands::{Hands, NotLanded};
use super::record::{
    check_schema, rebuild, start, take_back, GameKind, Header, RebuildError, Record, SetupMode,
    SCHEMA,
};
use super::table::session::{differences_between, AnySession, Ctx};
use crate::journal::{
    decode, records_after_damage, JournalError, JournalWriter, Recovered, Store, Tail,
};
use crate::sensing::{BoardEvent, Button, Millis, Place, SensingFault, TagUid};
use crate::ui::{Difference, Screen, StatusLine};

/// The referee's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefereeConfig {
    /// How long the sensed board may differ from every legal continuation, settled, before the
    /// differences are shown, in ms. Default 3000 (picochess waits 4 s, certabo-lichess 3 s;
    /// shorter nags a player still thinking with a piece in hand).
    pub mismatch_after_ms: u32,
    /// Tournament (ISF) repetition rules; `false` plays the rulebook's plain text.
    pub isf_rules: bool,
    /// The registered NFC tags, for set-up with tags.
    pub tags: TagRegistry,
    /// Optional limit on the real time a side may take for one move, in seconds: past it the
    /// status line's turn clock warns (nobody is penalised; the players agree what it means).
    pub turn_limit_s: Option<u32>,
    /// The places the board senses (its squares and tray slots), when known: a table game
    /// whose layout needs places the board lacks is refused with what to add. `None` (the
    /// simulator, which builds its board from the game) checks nothing.
    pub board: Option<BTreeSet<Place>>,
    /// How long the pieces of a gesture made of lifts only (an attack, a designation, a shot)
    /// must stay up before it is judged, in ms, counted from the last lift. Default 1500: ten
    /// settle windows. A brushed enemy piece put back within it reveals nothing; a deliberate
    /// attack, both pieces held up while the players look at the screen for the result, waits
    /// this long once. Moves (a piece put down) are judged at once.
    pub attack_hold_ms: u32,
}

impl Default for RefereeConfig {
    fn default() -> Self {
        RefereeConfig {
            mismatch_after_ms: 3000,
            isf_rules: true,
            tags: TagRegistry::default(),
            turn_limit_s: None,
            board: None,
            attack_hold_ms: 1500,
        }
    }
}

impl RefereeConfig {
    fn options(&self, variant: Variant) -> Options {
        if self.isf_rules {
            Options::isf(variant)
        } else {
            Options::plain(variant)
        }
    }
}

/// NFC tags registered to pieces: each tag is registered once, then read on placement.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagRegistry {
    tags: BTreeMap<TagUid, Piece>,
}

impl TagRegistry {
    /// An empty registry.
    pub fn new() -> TagRegistry {
        TagRegistry::default()
    }

    /// Registers `uid` as `piece` (replacing an earlier registration of the same tag).
    pub fn register(&mut self, uid: TagUid, piece: Piece) {
        self.tags.insert(uid, piece);
    }

    /// The piece `uid` is registered to.
    pub fn get(&self, uid: &TagUid) -> Option<Piece> {
        self.tags.get(uid).copied()
    }

    /// How many tags are registered.
    pub fn len(&self) -> usize {
        self.tags.len()
    }

    /// Whether no tag is registered.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }
}

/// What the referee decided: typed announcements for logs, tests and the simulator. They carry
/// nothing the table may not know, except [`Decision::Refused`]'s rules reason, which may name
/// a rank (an "immovable" piece): log it only where the umpire's eyes are allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A game and set-up method were chosen; the journal is started.
    GameChosen {
        /// The variant.
        variant: Variant,
        /// How the armies are set up.
        setup: SetupMode,
    },
    /// A rank group was taken: its squares now hold that rank.
    GroupPlaced {
        /// Whose group.
        seat: Seat,
        /// The rank.
        rank: Rank,
        /// How many squares filled.
        count: usize,
    },
    /// A set-up step was undone with Back.
    GroupUndone {
        /// Whose group.
        seat: Seat,
        /// The rank.
        rank: Rank,
    },
    /// A seat's army was validated and journaled.
    Deployed(Seat),
    /// The set-up has problems, every one listed.
    SetupProblems(Vec<String>),
    /// Both armies are placed: play begins.
    GameStarted,
    /// A move to an empty square was accepted and journaled.
    Moved {
        /// Who moved.
        seat: Seat,
        /// The move.
        mv: Move,
    },
    /// An attack was accepted, journaled and resolved.
    Battle(Battle),
    /// A move or attack was refused; the board must be put back.
    Refused {
        /// The move the board showed.
        mv: Move,
        /// Why the rules refuse it.
        reason: Illegal,
    },
    /// The hands finished what a battle asked of them.
    HandsDone,
    /// The board has differed for the settle time: these places differ.
    Mismatch(Vec<Difference>),
    /// The board matches the expected one again.
    BoardMatches,
    /// The board equals the position after `to_ply` moves: OK to take back.
    TakebackOffered {
        /// Moves that would remain played.
        to_ply: u32,
    },
    /// The last mover carried the piece on before the other side touched anything: the last
    /// move was taken back and replaced (both journaled).
    MoveCorrected {
        /// The move first read.
        was: Move,
        /// The move played instead.
        now: Move,
    },
    /// With NFC: a move whose placed piece's tag is not the piece lifted; refused.
    WrongPiece {
        /// The move the occupancy showed.
        mv: Move,
    },
    /// A takeback was confirmed and journaled.
    TookBack {
        /// Moves that remain played.
        to_ply: u32,
    },
    /// A takeback was declined with Back.
    TakebackDeclined,
    /// The game is over.
    GameOver(Status<EndReason>),
    /// A button did nothing here, and why.
    Ignored {
        /// The button.
        button: Button,
        /// Why nothing happened.
        why: String,
    },
    /// A tag could not be used (unknown, unread).
    TagProblem(String),
    /// The sensing layer reported a fault.
    Fault(SensingFault),
    /// The journal could not be written: nothing was decided; the message says how to fix it.
    JournalFailed(String),
    /// A table game (Waterloo, Piecepack) was chosen; the journal is started.
    TableChosen {
        /// The game and variant, as the menu names it.
        game: String,
    },
    /// A table game's set-up group was taken.
    GroupPlacedAs {
        /// Whose group.
        seat: Seat,
        /// The group, as the OLED asked for it.
        group: String,
        /// How many places it took.
        count: usize,
    },
    /// A table game's set-up group was undone with Back.
    GroupTakenBack {
        /// Whose group.
        seat: Seat,
        /// The group.
        group: String,
    },
    /// A table game's action (or chance outcome) was accepted, journaled and played.
    Acted {
        /// Who acted (chance for a die or a draw).
        actor: Actor,
        /// The action in words the table may read.
        action: String,
    },
    /// A table game's action was refused; the board must be put back.
    RefusedAction {
        /// The action the board showed, in public words.
        action: String,
        /// Why, in public words.
        reason: String,
    },
    /// A menu of actions opened (OK, or a gesture that means several actions).
    MenuOpened {
        /// Why it opened.
        title: String,
        /// Its entries.
        entries: Vec<String>,
    },
    /// A menu was closed with Back.
    MenuClosed,
    /// A table game is over.
    Ended {
        /// Who won, or "Draw".
        result: String,
        /// Why.
        reason: String,
    },
    /// A place reads a piece that no hand put there (a ghost or stuck switch, or a piece whose
    /// tag cannot be read): it is no move; the OLED names it until it is put right.
    Ghost {
        /// The place, as the OLED names it.
        place: String,
        /// The action read from it before the ghost showed, now taken back (journaled), in
        /// public words.
        undone: Option<String>,
    },
}

/// Why a journal could not be resumed.
#[derive(Debug)]
pub enum ResumeError {
    /// The journal could not be read or trusted.
    Journal(JournalError),
    /// Its records do not rebuild into a game.
    Rebuild(RebuildError),
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Journal(e) => e.fmt(f),
            ResumeError::Rebuild(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ResumeError {}

const GAMES: [(Variant, &str); 2] = [
    (Variant::Classic, "Stratego Original"),
    (Variant::Duel, "Stratego Duel"),
];
const MODES: [(SetupMode, &str); 2] = [
    (SetupMode::RankGroups, "By rank groups"),
    (SetupMode::Tags, "With NFC tags"),
];

/// Which menu is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Menu {
    Game,
    Mode(Variant),
    /// The variants of the table game at this index of [`games::menu`].
    Table(usize),
}

#[derive(Clone, Debug)]
struct SetupState {
    options: Options,
    mode: SetupMode,
    /// Whose rank groups (rank-group mode).
    seat: Seat,
    /// The next rank group, an index into `groups`.
    step: usize,
    groups: Vec<Rank>,
    /// The squares each finished group of `seat` took, in order.
    done: Vec<Vec<Square>>,
    /// What each square holds, as learned.
    assigned: BTreeMap<Square, Piece>,
    deployments: BySeat<Option<Deployment>>,
    problems: Option<Vec<String>>,
    tag_problem: Option<(String, String)>,
    /// With tags: the tag last read on each square, to catch one tag read on two squares
    /// (a reader picking up a neighbour's tag).
    read: BTreeMap<Square, TagUid>,
}

/// A set of squares, bit `i` for square index `i`.
type Bits = u128;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Diff {
    /// Places expected occupied but sensed empty.
    removed: Vec<Place>,
    /// Places sensed occupied but expected empty.
    added: Vec<Place>,
}

impl Diff {
    fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }
}

/// What a settled sensed board means.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Reading {
    Matches,
    Action(Move),
    /// The last mover moved the same piece on (a slow slide stopped on the way): take the last
    /// move back and play this one instead.
    Corrected {
        was: Move,
        now: Move,
    },
    Takeback(u32),
    Refused(Move, Illegal),
    /// An attack's shape, held until it is unmistakable (see `RefereeConfig::attack_hold_ms`):
    /// nothing is judged or shown but the question. The target square.
    Held(Square, Millis),
    /// `place` reads a piece no hand put there; `from` is the piece in hand, if one is.
    Ghost {
        place: Place,
        from: Option<Place>,
        why: NotLanded,
    },
    /// The last move was read from a ghost: its piece is back on its square and the target
    /// still reads a piece. Taken back, and the target named.
    GhostMove(Move),
    /// The board a ghost move would leave, but not yet for the hold: another hand sliding a
    /// piece onto the square just left lights it for a moment too. Judged when the hold ends.
    GhostHeld(Move, Millis),
    /// With NFC: the tag read on the target is not the piece that left the origin.
    WrongPiece(Move),
    InHand(Square),
    Unknown,
}

#[derive(Clone, Debug)]
struct PlayState {
    /// `history[k]`: the position after `k` moves, with its occupied squares; the last is now.
    history: Vec<(Position, Bits)>,
    /// After a battle: the square a piece must be put (back) on, and the battle screen.
    hands: Option<(Square, Screen)>,
    /// The last announcement, shown while the board matches.
    announcement: Option<Screen>,
    /// A refused move or attack and its screen, shown while the board stays so.
    refused: Option<(Diff, Screen)>,
    takeback: Option<u32>,
    /// The board on which a takeback was declined.
    declined: Option<BTreeSet<Place>>,
    unmatched_since: Option<Millis>,
    mismatch_shown: bool,
    prompt: Option<String>,
    over: bool,
    /// With NFC: the tag last read on each occupied place.
    tags_at: BTreeMap<Place, TagUid>,
    /// Something was shown as wrong (refusal, mismatch, takeback) since the board last matched.
    off: bool,
    /// After a resume: every difference is shown until the board matches once.
    must_match: bool,
    /// An attack held until it is unmistakable: when it is judged.
    hold_until: Option<Millis>,
    /// Places named as reading a piece no hand put there, until the board matches.
    ghosts: BTreeSet<Place>,
}

impl PlayState {
    fn new(position: Position) -> PlayState {
        let bits = occupancy(&position);
        PlayState {
            history: vec![(position, bits)],
            hands: None,
            announcement: None,
            refused: None,
            takeback: None,
            declined: None,
            unmatched_since: None,
            mismatch_shown: false,
            prompt: None,
            over: false,
            tags_at: BTreeMap::new(),
            off: false,
            must_match: false,
            hold_until: None,
            ghosts: BTreeSet::new(),
        }
    }

    fn position(&self) -> Option<&Position> {
        self.history.last().map(|(p, _)| p)
    }
}

#[derive(Debug)]
enum Phase {
    Select {
        menu: Menu,
        selected: usize,
    },
    Setup(Box<SetupState>),
    Play(Box<PlayState>),
    /// A game played through the generic table referee.
    Table(Box<dyn AnySession>),
}

/// Makes the store for each new game's journal.
type StoreMaker<S> = Box<dyn FnMut() -> io::Result<S>>;

/// The umpire's referee for Stratego Original and Duel. See the [module docs](super).
pub struct Referee<S: Store, C: Chance> {
    config: RefereeConfig,
    chance: C,
    new_store: StoreMaker<S>,
    journal: Option<JournalWriter<S, Record>>,
    header: Option<Header>,
    sensed: BTreeSet<Place>,
    now: Millis,
    phase: Phase,
    journal_error: Option<String>,
    /// The step whose journal write failed, run again on OK or by itself after a back-off.
    retry: Option<Retry>,
    /// At boot: the damaged newest journal, until the players choose what to do with it.
    recovery: Option<Recovery<S>>,
    notice: Option<Screen>,
    screen: Screen,
    /// The turn being timed: the number of moves played when it began, and when.
    turn_clock: Option<(u32, Millis)>,
    /// What the hands did since the board last matched (both engines read it).
    hands: Hands,
}

impl<S: Store, C: Chance> fmt::Debug for Referee<S, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Referee")
            .field("phase", &self.phase)
            .field("sensed", &self.sensed)
            .field("now", &self.now)
            .field("screen", &self.screen)
            .finish_non_exhaustive()
    }
}

/// Appends `record` to the journal, synced. On failure the writer stays usable (it cuts the
/// failed frame off before its next append) and the message says what the players can do.
fn append<S: Store>(
    journal: &mut Option<JournalWriter<S, Record>>,
    record: &Record,
) -> Result<(), String> {
    match journal {
        Some(j) => j.append(record).map_err(|e| journal_trouble(&e)),
        None => Err("no journal is open: choose the game again".to_string()),
    }
}

/// What a failed journal write asks of the players, honestly: the step is not recorded (and
/// was not announced), and OK tries it again.
fn journal_trouble(e: &JournalError) -> String {
    if e.is_storage_full() {
        "the SD card is full: free space on it, then press OK".to_string()
    } else if e.is_read_only() {
        "the SD card is read-only: check its lock switch, then press OK".to_string()
    } else if let JournalError::Io { doing, source } = e {
        format!("could not {doing} the journal on the SD card ({source}): check the card, then press OK")
    } else {
        e.to_string()
    }
}

/// At boot, a damaged newest journal waiting for the players' choice.
struct Recovery<S> {
    /// The damaged journal, to resume from; `None` when there is nothing to resume.
    resumable: Option<Resumable<S>>,
    found: String,
    detail: String,
    /// Resume (when there is something to resume), then New game.
    entries: Vec<String>,
    selected: usize,
}

/// A damaged journal that can be resumed from its intact records.
struct Resumable<S> {
    store: S,
    /// Keeps a copy of the damaged journal before it is cut; says where.
    keep_copy: Box<dyn FnMut() -> io::Result<String>>,
}

/// What a damaged journal still holds, in the players' words.
struct DamageReport {
    /// "36 of 37 moves intact".
    found: String,
    /// "Resume 36 moves".
    resume: String,
}

impl DamageReport {
    /// The report on a journal of `header` whose intact `records` stop at damage, followed by
    /// the records `after` it that still read (`None`: unknown).
    fn of(header: &Header, records: &[Record], after: Option<&[Record]>) -> DamageReport {
        let unit = match header.game {
            GameKind::Stratego { .. } => ("move", "moves"),
            _ => ("action", "actions"),
        };
        let word = |n: usize| if n == 1 { unit.0 } else { unit.1 };
        let is_setup = |r: &Record| matches!(r, Record::Deployed { .. } | Record::Army { .. });
        let armies = records.iter().filter(|r| is_setup(r)).count();
        let played = records.len() - armies;
        if armies < 2 {
            return DamageReport {
                found: format!("the set-up is damaged: {armies} of 2 armies intact"),
                resume: "Resume the set-up".to_string(),
            };
        }
        let found = match after {
            // The damaged record is one more step of play, as is every one after it.
            Some(after) => {
                let total = played + 1 + after.iter().filter(|r| !is_setup(r)).count();
                format!("{played} of {total} {} intact", word(total))
            }
            None => format!("{played} {} intact, then damage", word(played)),
        };
        DamageReport {
            found,
            resume: format!("Resume {played} {}", word(played)),
        }
    }
}

/// What ran a step whose journal write failed, to run it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The board as sensed: a settled board, or a held gesture judged once its hold passed.
    Board,
    /// A button press.
    Button(Button),
}

/// A step whose journal write failed: what ran it, to run again.
#[derive(Clone, Debug)]
struct Retry {
    step: Step,
    /// When to try again by itself.
    at: Millis,
    /// The wait before that, doubled at each failed try up to [`RETRY_MAX_MS`].
    wait_ms: u64,
}

/// The first automatic retry of a failed journal write comes this long after it.
const RETRY_FIRST_MS: u64 = 2_000;
/// Automatic retries slow down to one this often (a card that stays full is not hammered).
const RETRY_MAX_MS: u64 = 60_000;

impl Retry {
    fn new(step: Step, now: Millis) -> Retry {
        Retry {
            step,
            at: Millis(now.0.saturating_add(RETRY_FIRST_MS)),
            wait_ms: RETRY_FIRST_MS,
        }
    }

    /// The same step, tried again after a doubled wait.
    fn later(self, now: Millis) -> Retry {
        let wait_ms = (self.wait_ms * 2).min(RETRY_MAX_MS);
        Retry {
            at: Millis(now.0.saturating_add(wait_ms)),
            wait_ms,
            step: self.step,
        }
    }
}

/// Whether a journal write went through; a failure is decided and kept for the screen until
/// a write succeeds. Stratego and the table sessions share it.
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

fn place_of(square: Square) -> Place {
    Place::Square(square.cell())
}

fn square_of(place: &Place) -> Option<Square> {
    match place {
        Place::Square(cell) => Square::from_cell(*cell),
        Place::Tray { .. } => None,
    }
}

fn occupancy(position: &Position) -> Bits {
    position
        .pieces()
        .fold(0, |bits, (s, _)| bits | 1u128 << s.index())
}

/// The last move, when it was a plain move (one square emptied, another filled, no battle: a
/// plain move changes exactly two squares and keeps the piece count).
fn last_plain_move(play: &PlayState) -> Option<Move> {
    let n = play.history.len();
    let (_, before_bits) = play.history.get(n.checked_sub(2)?)?;
    let (_, now_bits) = play.history.get(n - 1)?;
    let from_bits = before_bits & !now_bits;
    let to_bits = now_bits & !before_bits;
    if from_bits.count_ones() != 1 || to_bits.count_ones() != 1 {
        return None;
    }
    let from = Square::from_index(u8::try_from(from_bits.trailing_zeros()).ok()?)?;
    let to = Square::from_index(u8::try_from(to_bits.trailing_zeros()).ok()?)?;
    Some(Move::new(from, to))
}

/// The screen naming a place that reads a piece no hand put there.
pub(crate) fn ghost_screen(
    status: StatusLine,
    place: &str,
    from: Option<&str>,
    why: NotLanded,
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
    }
}

fn status_line(position: &Position) -> StatusLine {
    StatusLine {
        turn: position.ply() + 1,
        to_act: seat_name(position.to_move()).to_string(),
        ..StatusLine::default()
    }
}

/// What the table may be told about the piece on `square`: "Red Scout" if its rank is public,
/// else "Red piece".
fn public_piece(position: &Position, square: Square) -> String {
    match position.piece_at(square) {
        Some(p) if position.is_revealed(square) => format!("{} {}", seat_name(p.owner), p.rank),
        Some(p) => format!("{} piece", seat_name(p.owner)),
        None => "empty".to_string(),
    }
}

/// The rules' reason, reworded where it would name a rank the table may not know.
fn public_reason(reason: &Illegal) -> String {
    match reason {
        Illegal::Immovable(s) => format!("the piece on {s} cannot move: move another"),
        Illegal::TooFar => "that piece moves one square at a time".to_string(),
        other => other.to_string(),
    }
}

fn rank_groups(variant: Variant) -> Vec<Rank> {
    Rank::ALL
        .iter()
        .rev()
        .copied()
        .filter(|&r| variant.count(r) > 0)
        .collect()
}

fn group_noun(variant: Variant, rank: Rank) -> String {
    match variant.count(rank) {
        1 => format!("1 {}", rank.name()),
        n => format!("{n} {}", rank.plural()),
    }
}

fn battle_screen(battle: &Battle) -> (Screen, Option<Square>) {
    let a = battle.attacker;
    let d = battle.defender;
    let att = format!("{} {}", seat_name(a.owner), a.rank);
    let def = format!("{} {}", seat_name(d.owner), d.rank);
    let to = battle.mv.to;
    let (result, hands, outstanding) = match battle.result {
        BattleResult::AttackerWon => (
            if d.rank == Rank::Flag {
                "the Flag is captured".to_string()
            } else {
                format!("{} wins", a.rank)
            },
            vec![
                format!("put the {att} on {to}"),
                format!("the {def} leaves the board"),
            ],
            Some(to),
        ),
        BattleResult::DefenderWon => (
            format!("{} wins", d.rank),
            vec![
                format!("put the {def} back on {to}"),
                format!("the {att} leaves the board"),
            ],
            Some(to),
        ),
        BattleResult::BothRemoved => (
            "both removed".to_string(),
            vec!["both pieces leave the board".to_string()],
            None,
        ),
    };
    (
        Screen::Battle {
            attacker: att,
            defender: def,
            result,
            hands,
        },
        outstanding,
    )
}

/// What to add to the configuration for `missing` places: the grid's size, or each tray's
/// slots (`[[board.tray]]`).
fn missing_places_fix(missing: &[Place]) -> String {
    let mut squares = (0u8, 0u8, false);
    let mut trays: BTreeMap<(String, usize), u16> = BTreeMap::new();
    for place in missing {
        match place {
            Place::Square(cell) => {
                squares = (
                    squares.0.max(cell.col + 1),
                    squares.1.max(cell.row + 1),
                    true,
                );
            }
            Place::Tray { tray, seat, slot } => {
                let n = trays
                    .entry((tray.to_string(), seat.index() + 1))
                    .or_insert(0);
                *n = (*n).max(u16::from(*slot) + 1);
            }
        }
    }
    let mut parts = Vec::new();
    if squares.2 {
        parts.push(format!(
            "a board of at least {} columns x {} rows ([board] columns, rows)",
            squares.0, squares.1
        ));
    }
    for ((kind, seat), slots) in trays {
        parts.push(format!(
            "seat {seat}'s {kind} tray of {slots} slots ([[board.tray]])"
        ));
    }
    format!("wire and configure {}", parts.join(", "))
}

fn game_over_screen(status: &Status<EndReason>) -> Screen {
    match status {
        Status::Won { winner, reason } => Screen::GameOver {
            result: format!("{} wins", seat_name(*winner)),
            reason: reason.to_string(),
        },
        Status::Drawn { reason } => Screen::GameOver {
            result: "Draw".to_string(),
            reason: reason.to_string(),
        },
        Status::Ongoing => Screen::GameOver {
            result: "none".to_string(),
            reason: "the game goes on".to_string(),
        },
    }
}

impl<S: Store, C: Chance> Referee<S, C> {
    /// A referee at the game-select menu. `new_store` makes the (empty) store of each new
    /// game's journal.
    pub fn new(
        config: RefereeConfig,
        chance: C,
        new_store: impl FnMut() -> io::Result<S> + 'static,
    ) -> Referee<S, C> {
        let mut referee = Referee {
            config,
            chance,
            new_store: Box::new(new_store),
            journal: None,
            header: None,
            sensed: BTreeSet::new(),
            now: Millis(0),
            phase: Phase::Select {
                menu: Menu::Game,
                selected: 0,
            },
            journal_error: None,
            retry: None,
            recovery: None,
            notice: None,
            turn_clock: None,
            hands: Hands::default(),
            screen: Screen::Boot {
                version: env!("CARGO_PKG_VERSION").to_string(),
                detail: String::new(),
            },
        };
        referee.refresh();
        referee
    }

    /// Resumes the game journaled in `store` after a restart, with the board as sensed now.
    /// When the board differs from the journaled one, the differences are shown at once.
    ///
    /// # Errors
    /// The journal cannot be read ([`ResumeError::Journal`]; a damaged record is
    /// [`JournalError::Corrupt`]: offer the players [`Referee::recover`]) or does not rebuild
    /// ([`ResumeError::Rebuild`]).
    pub fn resume(
        config: RefereeConfig,
        chance: C,
        new_store: impl FnMut() -> io::Result<S> + 'static,
        mut store: S,
        sensed: impl IntoIterator<Item = Place>,
        now: Millis,
    ) -> Result<(Referee<S, C>, Vec<Decision>), ResumeError> {
        // Another schema's header and records would not decode, or decode into something
        // else: name the schema before decoding anything.
        let bytes = store.read_all().map_err(|source| {
            ResumeError::Journal(JournalError::Io {
                doing: "read",
                source,
            })
        })?;
        check_schema(&bytes).map_err(ResumeError::Rebuild)?;
        drop(bytes);
        let (journal, recovered) =
            JournalWriter::<S, Record>::resume::<Header>(store).map_err(ResumeError::Journal)?;
        let mut referee = Referee::new(config, chance, new_store);
        referee.sensed = sensed.into_iter().collect();
        referee.now = now;
        let out = referee.load(journal, recovered)?;
        Ok((referee, out))
    }

    /// A referee at boot whose newest journal, in `store`, has a damaged record: the screen
    /// says how much of the game is intact, and the players choose to resume it (the damage is
    /// cut off once `keep_copy` has kept a copy of the damaged journal, and says where) or to
    /// start a new game (the journal is left as it is).
    ///
    /// # Errors
    /// The store cannot be read or its header cannot be trusted: there is nothing to resume
    /// (see [`Referee::nothing_to_resume`]).
    pub fn recover(
        config: RefereeConfig,
        chance: C,
        new_store: impl FnMut() -> io::Result<S> + 'static,
        mut store: S,
        keep_copy: impl FnMut() -> io::Result<String> + 'static,
        sensed: impl IntoIterator<Item = Place>,
        now: Millis,
    ) -> Result<Referee<S, C>, ResumeError> {
        let bytes = store.read_all().map_err(|source| {
            ResumeError::Journal(JournalError::Io {
                doing: "read",
                source,
            })
        })?;
        check_schema(&bytes).map_err(ResumeError::Rebuild)?;
        let recovered = decode::<Header, Record>(&bytes)
            .map_err(|e| ResumeError::Journal(JournalError::Header(e)))?;
        let after = match recovered.tail {
            Tail::Corrupt { offset, .. } => records_after_damage::<Record>(&bytes, offset),
            Tail::Clean | Tail::Torn { .. } => Some(Vec::new()),
        };
        let report = DamageReport::of(&recovered.header, &recovered.records, after.as_deref());
        let mut referee = Referee::new(config, chance, new_store);
        referee.sensed = sensed.into_iter().collect();
        referee.now = now;
        referee.recovery = Some(Recovery {
            resumable: Some(Resumable {
                store,
                keep_copy: Box::new(keep_copy),
            }),
            found: report.found,
            detail: "Resume cuts the damage off (a copy is kept)".to_string(),
            entries: vec![report.resume, "New game".to_string()],
            selected: 0,
        });
        referee.refresh();
        Ok(referee)
    }

    /// A referee at boot whose newest journal had nothing to resume (empty, cut inside its
    /// header, unreadable): the screen says `found` and `detail` (where the file is kept), and
    /// OK opens the game menu.
    pub fn nothing_to_resume(
        config: RefereeConfig,
        chance: C,
        new_store: impl FnMut() -> io::Result<S> + 'static,
        found: String,
        detail: String,
    ) -> Referee<S, C> {
        let mut referee = Referee::new(config, chance, new_store);
        referee.recovery = Some(Recovery {
            resumable: None,
            found,
            detail,
            entries: vec!["New game".to_string()],
            selected: 0,
        });
        referee.refresh();
        referee
    }

    /// Puts this referee, at the menu, into the game of `journal` (its header and records in
    /// `recovered`), with the board as sensed.
    fn load(
        &mut self,
        journal: JournalWriter<S, Record>,
        recovered: Recovered<Header, Record>,
    ) -> Result<Vec<Decision>, ResumeError> {
        let mut out = Vec::new();
        if !matches!(recovered.header.game, GameKind::Stratego { .. }) {
            let session =
                games::resume_session(recovered.header.game, &recovered.records, &self.sensed)
                    .map_err(ResumeError::Rebuild)?
                    .ok_or(ResumeError::Rebuild(RebuildError::Setup(
                        "this build cannot play the journal's game".to_string(),
                    )))?;
            self.journal = Some(journal);
            self.header = Some(recovered.header);
            self.phase = Phase::Table(session);
            self.with_table(&mut out, |session, ctx, out| session.settled(ctx, out));
            self.refresh();
            return Ok(out);
        }
        let rebuilt =
            rebuild(recovered.header, &recovered.records).map_err(ResumeError::Rebuild)?;
        let GameKind::Stratego { options } = rebuilt.header.game else {
            return Err(ResumeError::Rebuild(RebuildError::Setup(
                "not a Stratego journal".to_string(),
            )));
        };
        self.journal = Some(journal);
        self.header = Some(rebuilt.header);
        if rebuilt.history.is_empty() {
            let mut state = self.new_setup(options, rebuilt.header.setup);
            for (seat, d) in rebuilt.deployments.iter() {
                if let Some(d) = d {
                    for &(square, rank) in &d.placements {
                        state.assigned.insert(square, Piece { owner: seat, rank });
                    }
                }
            }
            state.deployments = rebuilt.deployments;
            if state.deployments[RED].is_some() {
                state.seat = BLUE;
            }
            self.phase = Phase::Setup(Box::new(state));
        } else {
            let mut play = PlayState::new(rebuilt.history[0].clone());
            play.history = rebuilt
                .history
                .into_iter()
                .map(|p| {
                    let bits = occupancy(&p);
                    (p, bits)
                })
                .collect();
            if let Some(p) = play.position() {
                play.over = !p.status().is_ongoing();
            }
            // A resumed board that differs is shown at once, every difference, no settle time.
            play.mismatch_shown = true;
            play.must_match = true;
            play.off = true;
            self.phase = Phase::Play(Box::new(play));
            self.evaluate(&mut out);
        }
        self.refresh();
        Ok(out)
    }

    /// A button on the boot's recovery screen: Die moves down, OK chooses.
    fn recovery_button(&mut self, button: Button, out: &mut Vec<Decision>) {
        let Some(recovery) = self.recovery.as_mut() else {
            return;
        };
        match button {
            Button::Die => recovery.selected = (recovery.selected + 1) % recovery.entries.len(),
            Button::Back => out.push(Decision::Ignored {
                button,
                why: "choose with Die and OK what to do with the last game".to_string(),
            }),
            Button::Ok if recovery.selected + 1 == recovery.entries.len() => {
                // New game: the journal stays as it is, and the next game gets a new file.
                self.recovery = None;
            }
            Button::Ok => {
                let Some(resumable) = recovery.resumable.as_mut() else {
                    self.recovery = None;
                    return;
                };
                let copy = match (resumable.keep_copy)() {
                    Ok(copy) => copy,
                    Err(e) => {
                        let msg = format!(
                            "the damaged journal could not be copied ({e}), so nothing was cut: \
                             free space on the SD card and choose Resume again, or New game"
                        );
                        recovery.detail = msg.clone();
                        out.push(Decision::JournalFailed(msg));
                        return;
                    }
                };
                let Some(Resumable { store, .. }) =
                    self.recovery.take().and_then(|recovery| recovery.resumable)
                else {
                    return;
                };
                let resumed =
                    JournalWriter::<S, Record>::resume_truncating_corruption::<Header>(store)
                        .map_err(ResumeError::Journal)
                        .and_then(|(journal, recovered)| self.load(journal, recovered));
                match resumed {
                    Ok(decisions) => out.extend(decisions),
                    Err(e) => {
                        let msg = format!(
                            "the last game could not be resumed ({e}); its damaged journal is \
                             kept as {copy}"
                        );
                        out.push(Decision::JournalFailed(msg.clone()));
                        self.notice = Some(Screen::Error {
                            message: msg,
                            fix: "press a button for the game menu, and start a new game"
                                .to_string(),
                        });
                    }
                }
            }
        }
    }

    /// What the OLED shows now.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The game as the umpire knows it (every rank: the umpire's eyes only), once play began.
    pub fn position(&self) -> Option<&Position> {
        match &self.phase {
            Phase::Play(p) => p.position(),
            _ => None,
        }
    }

    /// The journal of the current game, if one is started.
    pub fn journal(&self) -> Option<&JournalWriter<S, Record>> {
        self.journal.as_ref()
    }

    /// The places sensed occupied, as the events so far reported them.
    pub fn sensed(&self) -> &BTreeSet<Place> {
        &self.sensed
    }

    /// Whether a battle's hand instructions are still waiting for the board.
    pub fn hands_pending(&self) -> bool {
        match &self.phase {
            Phase::Play(p) => p.hands.is_some(),
            Phase::Table(session) => session.hands_pending(),
            _ => false,
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        match &self.phase {
            Phase::Play(p) => p.over,
            Phase::Table(session) => session.is_over(),
            _ => false,
        }
    }

    /// Whether a game is in play (set-up finished), Stratego or a table game.
    pub fn in_play(&self) -> bool {
        match &self.phase {
            Phase::Play(_) => true,
            Phase::Table(session) => session.in_play(),
            _ => false,
        }
    }

    /// The places where the board is expected to differ from what is sensed (empty when it
    /// matches or no game is in play).
    pub fn differences(&self) -> Vec<Difference> {
        match &self.phase {
            Phase::Play(p) => p
                .position()
                .map(|pos| self.differences_from(pos))
                .unwrap_or_default(),
            Phase::Table(session) => session.differences(&self.sensed),
            _ => Vec::new(),
        }
    }

    /// A button held down for the long-press time (see [`crate::drivers::buttons`]).
    ///
    /// **Back held confirms a takeback** the board offers (the pieces were put back as they
    /// stood some moves ago), as OK does: the deliberate gesture the button driver's docs
    /// intend, while a Back tap declines. Every other hold counts as a press of its button, so a
    /// slow press is never lost.
    pub fn hold(&mut self, button: Button, at: Millis) -> Vec<Decision> {
        let offered =
            matches!(&self.phase, Phase::Play(play) if play.takeback.is_some() && !play.over);
        let button = if button == Button::Back && offered && self.notice.is_none() {
            Button::Ok
        } else {
            button
        };
        self.handle(&BoardEvent::Button { button, at })
    }

    /// Takes one sensed event and returns what was decided.
    pub fn handle(&mut self, event: &BoardEvent) -> Vec<Decision> {
        let mut out = Vec::new();
        self.now = self.now.max(event.at());
        let records_before = self.records_written();
        match event {
            BoardEvent::Lifted { place, at, .. } => {
                self.hands.lifted(*place, *at);
                self.sensed.remove(place);
                if let Phase::Play(play) = &mut self.phase {
                    play.tags_at.remove(place);
                }
                if let Phase::Table(session) = &mut self.phase {
                    session.lifted(place);
                }
                self.setup_lifted(place);
            }
            BoardEvent::Placed { place, tag, at, .. } => {
                self.hands.placed(*place, *at);
                if tag.is_some() {
                    self.hands.tag_read(*place);
                }
                self.sensed.insert(*place);
                if let Phase::Table(session) = &mut self.phase {
                    session.placed(place);
                    if let Some(uid) = tag {
                        session.tag(place, *uid);
                    }
                }
                if let Phase::Setup(state) = &mut self.phase {
                    if state.mode == SetupMode::Tags {
                        state.problems = None;
                    }
                }
                if let Some(uid) = tag {
                    self.setup_tag(place, *uid, &mut out);
                    self.play_tag(place, *uid);
                }
            }
            BoardEvent::TagRead { place, uid, .. } => {
                self.hands.tag_read(*place);
                if let Phase::Table(session) = &mut self.phase {
                    session.tag(place, *uid);
                }
                self.setup_tag(place, *uid, &mut out);
                self.play_tag(place, *uid);
            }
            BoardEvent::TagFailed { place, failure, .. } => {
                // Only an empty field says no piece may stand there (a ghost); a reader fault
                // or a region's tags all seen before say nothing of it.
                if *failure == crate::sensing::TagFailure::NoTag {
                    self.hands.tag_failed(*place);
                }
                if let Phase::Setup(state) = &mut self.phase {
                    if state.mode == SetupMode::Tags {
                        let msg = format!("{place}: the tag was not read");
                        out.push(Decision::TagProblem(msg.clone()));
                        state.tag_problem = Some((msg, failure.to_string()));
                    }
                }
            }
            BoardEvent::Settled { .. } => self.settled(&mut out),
            BoardEvent::Button { button, .. } => {
                // A press that dismisses a notice does nothing else.
                if self.recovery.is_some() {
                    self.recovery_button(*button, &mut out);
                } else if self.notice.take().is_some() {
                    out.push(Decision::Ignored {
                        button: *button,
                        why: "the notice is dismissed".to_string(),
                    });
                } else if self.journal_error.is_some() && self.retry.is_some() {
                    // Until the step is recorded, OK tries it again and nothing else happens.
                    if *button == Button::Ok {
                        self.retry_now(&mut out);
                    } else {
                        out.push(Decision::Ignored {
                            button: *button,
                            why: "the last step is not recorded: press OK to try again".to_string(),
                        });
                    }
                    self.refresh();
                    return out;
                } else {
                    self.button(*button, &mut out);
                }
            }
            BoardEvent::Fault { fault, .. } => {
                out.push(Decision::Fault(*fault));
                self.notice = Some(Screen::Error {
                    message: "a sensor misbehaves".to_string(),
                    fix: fault.to_string(),
                });
            }
        }
        self.note_failure(event, records_before, &out);
        self.refresh();
        out
    }

    /// A settled board: the game reads it.
    fn settled(&mut self, out: &mut Vec<Decision>) {
        self.evaluate(out);
        self.with_table(out, |session, ctx, out| session.settled(ctx, out));
    }

    /// After `event` was handled: a journal write it made failed, so keep it to run again; or
    /// every write went through, so nothing waits.
    ///
    /// A step that journaled part of its work before a later write failed (a button that ended
    /// a turn, then the secret draw that follows) is not pressed again: what is owed is drawn
    /// and the board read again ([`Step::Board`]).
    fn note_failure(&mut self, event: &BoardEvent, records_before: usize, out: &[Decision]) {
        if self.journal_error.is_none() {
            self.retry = None;
        } else if out.iter().any(|d| matches!(d, Decision::JournalFailed(_))) {
            let partly_written = self.records_written() > records_before;
            let step = match event {
                BoardEvent::Settled { .. } => Some(Step::Board),
                BoardEvent::Button { .. } if partly_written => Some(Step::Board),
                BoardEvent::Button { button, .. } => Some(Step::Button(*button)),
                _ => None,
            };
            if let Some(step) = step {
                self.retry = Some(Retry::new(step, self.now));
            }
        }
    }

    /// How many records the journal holds (0 before a game's journal exists).
    fn records_written(&self) -> usize {
        self.journal.as_ref().map_or(0, JournalWriter::record_count)
    }

    /// Runs the step whose journal write failed again: first cuts off what the failed write
    /// left, then (in a table game) draws any secret chance still owed, then the step itself.
    /// Its decisions are the step's; on failure the same step waits again, twice as long.
    fn retry_now(&mut self, out: &mut Vec<Decision>) {
        let Some(retry) = self.retry.take() else {
            return;
        };
        if let Some(Err(e)) = self.journal.as_mut().map(JournalWriter::heal) {
            let msg = journal_trouble(&e);
            out.push(Decision::JournalFailed(msg.clone()));
            self.journal_error = Some(msg);
            self.retry = Some(retry.later(self.now));
            return;
        }
        self.journal_error = None;
        self.with_table(out, |session, ctx, out| session.owed_chance(ctx, out));
        if self.journal_error.is_none() {
            match retry.step {
                Step::Board => self.settled(out),
                Step::Button(button) => self.button(button, out),
            }
        }
        if self.journal_error.is_some() {
            self.retry = Some(retry.later(self.now));
        }
    }

    /// Lets time pass to `now`: shows the differences once the board has differed for the
    /// settle time, and tries a failed journal write again when its back-off is over.
    pub fn tick(&mut self, now: Millis) -> Vec<Decision> {
        let mut out = Vec::new();
        self.now = self.now.max(now);
        if self.journal_error.is_some() && self.retry.as_ref().is_some_and(|r| self.now >= r.at) {
            self.retry_now(&mut out);
        }
        let wait = u64::from(self.config.mismatch_after_ms);
        let mut show = false;
        let mut judge = false;
        if let Phase::Play(play) = &mut self.phase {
            if let Some(since) = play.unmatched_since {
                if !play.mismatch_shown && self.now.since(since) >= wait {
                    play.mismatch_shown = true;
                    play.off = true;
                    show = true;
                }
            }
            judge = play.hold_until.is_some_and(|until| self.now >= until);
        }
        if judge {
            self.evaluate(&mut out);
        }
        if show {
            self.stand_differences();
            out.push(Decision::Mismatch(self.differences()));
        }
        self.with_table(&mut out, |session, ctx, out| session.tick(ctx, out));
        // A held gesture judged now (its hold passed) whose write failed: kept to run again,
        // as a settled board's is.
        if self.retry.is_none()
            && self.journal_error.is_some()
            && out.iter().any(|d| matches!(d, Decision::JournalFailed(_)))
        {
            self.retry = Some(Retry::new(Step::Board, self.now));
        }
        self.refresh();
        out
    }

    /// Runs `f` on the table game's session (if one is in progress) with its context.
    fn with_table(
        &mut self,
        out: &mut Vec<Decision>,
        f: impl FnOnce(&mut dyn AnySession, &mut Ctx<'_>, &mut Vec<Decision>),
    ) {
        let Phase::Table(session) = &mut self.phase else {
            return;
        };
        let journal = &mut self.journal;
        let mut write = |record: &Record| append(journal, record);
        let mut ctx = Ctx {
            sensed: &self.sensed,
            now: self.now,
            mismatch_after_ms: self.config.mismatch_after_ms,
            chance: &mut self.chance,
            write: &mut write,
            journal_error: &mut self.journal_error,
            hands: &mut self.hands,
            attack_hold_ms: self.config.attack_hold_ms,
        };
        f(session.as_mut(), &mut ctx, out);
    }

    /// The table game in progress, as the simulator and tests may look at it; `None` outside
    /// a table game.
    pub fn table(&self) -> Option<&dyn super::table::TableView> {
        match &self.phase {
            Phase::Table(session) => Some(session.as_view()),
            _ => None,
        }
    }

    /// The table game's session (a [`Session`](super::table::Session) of its game), for the
    /// simulator to look at with the umpire's eyes; `None` outside a table game.
    pub fn table_session(&self) -> Option<&dyn std::any::Any> {
        match &self.phase {
            Phase::Table(session) => Some(session.as_any()),
            _ => None,
        }
    }

    fn differences_from(&self, position: &Position) -> Vec<Difference> {
        let expected: BTreeMap<Place, Square> =
            position.pieces().map(|(s, _)| (place_of(s), s)).collect();
        differences_between(&expected, &self.sensed, Place::to_string, |s| {
            public_piece(position, *s)
        })
    }

    /// The differences just shown on the mismatch screen are known faults until they change.
    fn stand_differences(&mut self) {
        if let Some(diff) = self.position().map(|p| self.diff(p)) {
            self.hands.stand(diff.removed.into_iter().chain(diff.added));
        }
    }

    fn diff(&self, position: &Position) -> Diff {
        let expected: BTreeSet<Place> = position.pieces().map(|(s, _)| place_of(s)).collect();
        Diff {
            removed: expected.difference(&self.sensed).copied().collect(),
            added: self.sensed.difference(&expected).copied().collect(),
        }
    }

    /// Appends `record` to the journal, synced. On failure, remembers the error for the screen.
    fn write(&mut self, record: &Record, out: &mut Vec<Decision>) -> bool {
        noted(
            append(&mut self.journal, record),
            &mut self.journal_error,
            out,
        )
    }

    // ---- game select ----------------------------------------------------------------------

    fn select_button(&mut self, button: Button, out: &mut Vec<Decision>) {
        let Phase::Select { menu, selected } = &mut self.phase else {
            return;
        };
        let tables = games::menu();
        let len = match menu {
            Menu::Game => GAMES.len() + tables.len(),
            Menu::Mode(_) => MODES.len(),
            Menu::Table(i) => tables.get(*i).map_or(1, |t| t.1.len().max(1)),
        };
        match (button, *menu) {
            (Button::Die, _) => *selected = (*selected + 1) % len,
            (Button::Back, Menu::Mode(_) | Menu::Table(_)) => {
                *menu = Menu::Game;
                *selected = 0;
            }
            (Button::Back, Menu::Game) => out.push(Decision::Ignored {
                button,
                why: "already at the first menu".to_string(),
            }),
            (Button::Ok, Menu::Game) => {
                *menu = match GAMES.get(*selected) {
                    Some(g) => Menu::Mode(g.0),
                    None => Menu::Table(*selected - GAMES.len()),
                };
                *selected = 0;
            }
            (Button::Ok, Menu::Table(i)) => {
                let chosen = tables.get(i).and_then(|(name, variants)| {
                    variants
                        .get(*selected)
                        .map(|(label, kind)| (format!("{name}: {label}"), *kind))
                });
                if let Some((label, kind)) = chosen {
                    self.choose_table(label, kind, out);
                }
            }
            (Button::Ok, Menu::Mode(variant)) => {
                let mode = MODES.get(*selected).map_or(SetupMode::RankGroups, |m| m.0);
                self.choose_game(variant, mode, out);
            }
        }
    }

    fn choose_game(&mut self, variant: Variant, mode: SetupMode, out: &mut Vec<Decision>) {
        if mode == SetupMode::Tags && self.config.tags.is_empty() {
            self.notice = Some(Screen::Error {
                message: "no NFC tags are registered".to_string(),
                fix: "register the pieces' tags first, or set up by rank groups".to_string(),
            });
            out.push(Decision::Ignored {
                button: Button::Ok,
                why: "no NFC tags are registered".to_string(),
            });
            return;
        }
        let options = self.config.options(variant);
        let header = Header {
            schema: SCHEMA,
            game: GameKind::Stratego { options },
            setup: mode,
        };
        if !self.open_journal(header, out) {
            return;
        }
        out.push(Decision::GameChosen {
            variant,
            setup: mode,
        });
        self.hands.new_game();
        let state = self.new_setup(options, mode);
        self.phase = Phase::Setup(Box::new(state));
    }

    /// Starts a table game's journal and its session.
    fn choose_table(&mut self, label: String, kind: GameKind, out: &mut Vec<Decision>) {
        if let (Some(board), Some(needed)) = (&self.config.board, games::layout(kind)) {
            let missing: Vec<Place> = needed
                .places
                .iter()
                .map(|(_, p)| *p)
                .filter(|p| !board.contains(p))
                .collect();
            if !missing.is_empty() {
                let why = format!("{label} needs places this board lacks");
                self.notice = Some(Screen::Error {
                    message: why.clone(),
                    fix: missing_places_fix(&missing),
                });
                out.push(Decision::Ignored {
                    button: Button::Ok,
                    why,
                });
                return;
            }
        }
        let Some(session) = games::new_session(kind) else {
            out.push(Decision::Ignored {
                button: Button::Ok,
                why: format!("{label} cannot be played by this build"),
            });
            return;
        };
        let header = Header {
            schema: SCHEMA,
            game: kind,
            setup: SetupMode::RankGroups,
        };
        if !self.open_journal(header, out) {
            return;
        }
        out.push(Decision::TableChosen { game: label });
        self.hands.new_game();
        self.phase = Phase::Table(session);
    }

    /// Creates the journal of a new game with `header`; on failure, says so.
    fn open_journal(&mut self, header: Header, out: &mut Vec<Decision>) -> bool {
        let journal = (self.new_store)()
            .map_err(|e| JournalError::Io {
                doing: "create",
                source: e,
            })
            .and_then(|store| JournalWriter::create(store, &header));
        match journal {
            Ok(j) => {
                self.journal = Some(j);
                self.header = Some(header);
                self.journal_error = None;
                true
            }
            Err(e) => {
                let msg = journal_trouble(&e);
                out.push(Decision::JournalFailed(msg.clone()));
                self.journal_error = Some(msg);
                false
            }
        }
    }

    // ---- set-up ---------------------------------------------------------------------------

    fn new_setup(&self, options: Options, mode: SetupMode) -> SetupState {
        SetupState {
            options,
            mode,
            seat: RED,
            step: 0,
            groups: rank_groups(options.variant),
            done: Vec::new(),
            assigned: BTreeMap::new(),
            deployments: BySeat::default(),
            problems: None,
            tag_problem: None,
            read: BTreeMap::new(),
        }
    }

    fn play_tag(&mut self, place: &Place, uid: TagUid) {
        if let Phase::Play(play) = &mut self.phase {
            if self.sensed.contains(place) {
                play.tags_at.insert(*place, uid);
            }
        }
    }

    fn setup_lifted(&mut self, place: &Place) {
        if let (Phase::Setup(state), Some(square)) = (&mut self.phase, square_of(place)) {
            if state.mode == SetupMode::Tags {
                state.assigned.remove(&square);
                state.read.remove(&square);
                state.tag_problem = None;
                state.problems = None;
            }
        }
    }

    fn setup_tag(&mut self, place: &Place, uid: TagUid, out: &mut Vec<Decision>) {
        let Phase::Setup(state) = &mut self.phase else {
            return;
        };
        if state.mode != SetupMode::Tags {
            return;
        }
        let Some(square) = square_of(place) else {
            return;
        };
        // One tag on two squares: one of the two reads picked up the other's tag, so neither
        // square is known until both are read again.
        let twin = state
            .read
            .iter()
            .find(|(s, u)| **s != square && **u == uid && self.sensed.contains(&place_of(**s)))
            .map(|(s, _)| *s);
        state.read.insert(square, uid);
        if let Some(other) = twin {
            state.assigned.remove(&square);
            state.assigned.remove(&other);
            let msg = format!("{square} and {other}: the same tag was read on both");
            out.push(Decision::TagProblem(msg.clone()));
            state.tag_problem = Some((
                msg,
                format!("lift the pieces on {square} and {other} and put them back to read their tags again"),
            ));
            return;
        }
        match self.config.tags.get(&uid) {
            Some(piece) => {
                state.assigned.insert(square, piece);
                state.tag_problem = None;
            }
            None => {
                let msg = format!("{place}: tag {uid} is not registered");
                out.push(Decision::TagProblem(msg.clone()));
                state.tag_problem = Some((
                    msg,
                    "lift it and put it back; if it stays unknown, register its tag or use \
                     another piece"
                        .to_string(),
                ));
            }
        }
    }

    /// The sensed squares not yet given a rank.
    fn unassigned(&self, state: &SetupState) -> Vec<Square> {
        self.sensed
            .iter()
            .filter_map(square_of)
            .filter(|s| !state.assigned.contains_key(s))
            .collect()
    }

    fn setup_button(&mut self, button: Button, out: &mut Vec<Decision>) {
        let Phase::Setup(state) = &self.phase else {
            return;
        };
        let mut state = state.clone();
        match (state.mode, button) {
            (_, Button::Die) => out.push(Decision::Ignored {
                button,
                why: "no die roll during set-up".to_string(),
            }),
            (SetupMode::RankGroups, Button::Ok) => {
                // Every group placed but the army not journaled (its write failed): check and
                // journal it again.
                if state.problems.is_some() || state.step >= state.groups.len() {
                    self.finish_seat(&mut state, out);
                } else if let Some(&rank) = state.groups.get(state.step) {
                    let squares = self.unassigned(&state);
                    for &s in &squares {
                        state.assigned.insert(
                            s,
                            Piece {
                                owner: state.seat,
                                rank,
                            },
                        );
                    }
                    out.push(Decision::GroupPlaced {
                        seat: state.seat,
                        rank,
                        count: squares.len(),
                    });
                    state.done.push(squares);
                    state.step += 1;
                    if state.step == state.groups.len() {
                        self.finish_seat(&mut state, out);
                    }
                }
            }
            (SetupMode::RankGroups, Button::Back) => {
                state.problems = None;
                match state.done.pop() {
                    Some(squares) => {
                        for s in squares {
                            state.assigned.remove(&s);
                        }
                        state.step = state.step.saturating_sub(1);
                        if let Some(&rank) = state.groups.get(state.step) {
                            out.push(Decision::GroupUndone {
                                seat: state.seat,
                                rank,
                            });
                        }
                    }
                    None => out.push(Decision::Ignored {
                        button,
                        why: "nothing to undo in this set-up".to_string(),
                    }),
                }
            }
            (SetupMode::Tags, Button::Ok) => self.finish_tags(&mut state, out),
            (SetupMode::Tags, Button::Back) => {
                state.problems = None;
                state.tag_problem = None;
            }
        }
        if let Phase::Setup(current) = &mut self.phase {
            *current = state;
        }
    }

    /// Validates the seat's rank groups; journals the army or lists every problem.
    fn finish_seat(&mut self, state: &mut SetupState, out: &mut Vec<Decision>) {
        let seat = state.seat;
        let deployment = Deployment {
            placements: state
                .assigned
                .iter()
                .filter(|(s, p)| p.owner == seat && self.sensed.contains(&place_of(**s)))
                .map(|(s, p)| (*s, p.rank))
                .collect(),
        };
        if let Err(problems) = deployment.validate(state.options.variant, seat) {
            let list: Vec<String> = problems.as_slice().iter().map(|p| p.to_string()).collect();
            out.push(Decision::SetupProblems(list.clone()));
            state.problems = Some(list);
            return;
        }
        let record = Record::Deployed {
            seat,
            deployment: deployment.clone(),
        };
        if !self.write(&record, out) {
            return;
        }
        state.problems = None;
        out.push(Decision::Deployed(seat));
        state.deployments[seat] = Some(deployment);
        if seat == RED {
            state.seat = BLUE;
            state.step = 0;
            state.done.clear();
        } else {
            self.start_play(state, out);
        }
    }

    /// Validates both tag-read armies; journals them or lists every problem.
    fn finish_tags(&mut self, state: &mut SetupState, out: &mut Vec<Decision>) {
        let mut list = Vec::new();
        for square in self.unassigned(state) {
            list.push(format!(
                "{square}: piece not identified: lift it and put it back so its tag is read"
            ));
        }
        if !list.is_empty() {
            // The armies are counted only once every piece is known: a count ("Red: no
            // Marshal") next to an unknown square would tell the table what stands there.
            out.push(Decision::SetupProblems(list.clone()));
            state.problems = Some(list);
            return;
        }
        let mut deployments = BySeat::from_fn(|_| Deployment::new());
        for (square, piece) in &state.assigned {
            if self.sensed.contains(&place_of(*square)) {
                deployments[piece.owner].place(*square, piece.rank);
            }
        }
        for (seat, d) in deployments.iter() {
            if let Err(p) = d.validate(state.options.variant, seat) {
                list.extend(p.as_slice().iter().map(|p| p.to_string()));
            }
        }
        if !list.is_empty() {
            out.push(Decision::SetupProblems(list.clone()));
            state.problems = Some(list);
            return;
        }
        for (seat, d) in deployments.iter() {
            if state.deployments[seat].is_some() {
                continue;
            }
            let record = Record::Deployed {
                seat,
                deployment: d.clone(),
            };
            if !self.write(&record, out) {
                return;
            }
            out.push(Decision::Deployed(seat));
            state.deployments[seat] = Some(d.clone());
        }
        state.problems = None;
        self.start_play(state, out);
    }

    fn start_play(&mut self, state: &mut SetupState, out: &mut Vec<Decision>) {
        let (Some(red), Some(blue)) = (&state.deployments[RED], &state.deployments[BLUE]) else {
            return;
        };
        match start(state.options, red, blue) {
            Ok(position) => {
                out.push(Decision::GameStarted);
                let status = position.status();
                let mut play = PlayState::new(position);
                if !status.is_ongoing() {
                    // A side that cannot move at all loses before the first move.
                    play.over = true;
                    out.push(Decision::GameOver(status));
                }
                self.phase = Phase::Play(Box::new(play));
                self.evaluate(out);
            }
            Err(problems) => {
                let list: Vec<String> = problems.as_slice().iter().map(|p| p.to_string()).collect();
                out.push(Decision::SetupProblems(list.clone()));
                state.problems = Some(list);
            }
        }
    }

    // ---- play -----------------------------------------------------------------------------

    fn classify(&self, play: &PlayState, diff: &Diff) -> Reading {
        let Some(position) = play.position() else {
            return Reading::Unknown;
        };
        if diff.is_empty() {
            return Reading::Matches;
        }
        let mover = position.to_move();
        let owner = |s: Square| position.piece_at(s).map(|p| p.owner);
        if let Some(ghost) = self.ghost(play, diff) {
            return ghost;
        }
        let shape = match (diff.removed.as_slice(), diff.added.as_slice()) {
            ([a], [b]) => match (square_of(a), square_of(b)) {
                (Some(a), Some(b)) => Some(Move::new(a, b)),
                _ => None,
            },
            ([x, y], []) => match (square_of(x), square_of(y)) {
                (Some(x), Some(y)) if owner(x) == Some(mover) && owner(y) != Some(mover) => {
                    Some(Move::new(x, y))
                }
                (Some(x), Some(y)) if owner(y) == Some(mover) && owner(x) != Some(mover) => {
                    Some(Move::new(y, x))
                }
                _ => None,
            },
            _ => None,
        };
        if let (Some(mv), true) = (shape, diff.added.is_empty()) {
            // Lifts only: an attack. Both lifts must belong to this gesture (not a switch that
            // failed open and was already named), and both pieces must stay up for the hold
            // before anything is judged: a brushed enemy piece is put back within it.
            let (from, to) = (place_of(mv.from), place_of(mv.to));
            if !self.hands.lifted_now(&from) || !self.hands.lifted_now(&to) {
                return Reading::Unknown;
            }
            if let Some(until) = self.hold_until() {
                return Reading::Held(mv.to, until);
            }
        }
        let checked = shape.map(|mv| (mv, position.check(&mv)));
        if let Some((mv, Ok(()))) = checked {
            if self.wrong_piece(play, position, mv) {
                return Reading::WrongPiece(mv);
            }
            return Reading::Action(mv);
        }
        // A repetition-rule refusal of the mover's own move is reported as such, even when the
        // board also looks like an earlier position (it does, after a back-and-forth).
        if let Some(corrected) = self.correction(play, diff) {
            return corrected;
        }
        if let Some((mv, Err(reason @ (Illegal::TwoSquares(_) | Illegal::MoreSquares)))) = checked {
            return Reading::Refused(mv, reason);
        }
        if let Some(to_ply) = self.takeback_match(play) {
            return Reading::Takeback(to_ply);
        }
        if let Some((mv, Err(reason))) = checked {
            return Reading::Refused(mv, reason);
        }
        if let ([a], []) = (diff.removed.as_slice(), diff.added.as_slice()) {
            if let Some(a) = square_of(a) {
                if owner(a) == Some(mover) {
                    return Reading::InHand(a);
                }
            }
        }
        Reading::Unknown
    }

    /// A place that reads a piece no hand put there: lit before the piece in hand was lifted,
    /// its tag unread, already named as wrong, or the target of the last move while that move's
    /// piece is back on its own square (a ghost read as the move).
    fn ghost(&self, play: &PlayState, diff: &Diff) -> Option<Reading> {
        match (diff.removed.as_slice(), diff.added.as_slice()) {
            ([a], [b]) => self.hands.landing(a, b).err().map(|why| Reading::Ghost {
                place: *b,
                from: Some(*a),
                why,
            }),
            ([], [x]) if play.ghosts.contains(x) => Some(Reading::Ghost {
                place: *x,
                from: None,
                why: NotLanded::LitBefore,
            }),
            ([], [x]) if self.hands.placed_now(x) => {
                let mv = last_plain_move(play)?;
                if place_of(mv.from) != *x {
                    return None;
                }
                Some(match self.hold_until() {
                    Some(until) => Reading::GhostHeld(mv, until),
                    None => Reading::GhostMove(mv),
                })
            }
            _ => None,
        }
    }

    /// When the hold that began at the hands' last change ends, if it has not yet (see
    /// [`RefereeConfig::attack_hold_ms`]).
    fn hold_until(&self) -> Option<Millis> {
        self.hands
            .last_change()
            .map(|at| at.plus(self.config.attack_hold_ms))
            .filter(|until| self.now < *until)
    }

    /// A plain last move A-C followed by the same piece lifted from C and put on B, nothing else
    /// touched, where A-B is legal: the hand had not finished (a slide that rested on C).
    fn correction(&self, play: &PlayState, diff: &Diff) -> Option<Reading> {
        let ([c], [b]) = (diff.removed.as_slice(), diff.added.as_slice()) else {
            return None;
        };
        let (c, b) = (square_of(c)?, square_of(b)?);
        let was = last_plain_move(play)?;
        if was.to != c || b == was.from {
            return None;
        }
        let (before, _) = play.history.get(play.history.len().checked_sub(2)?)?;
        let now = Move::new(was.from, b);
        before.check(&now).ok()?;
        Some(Reading::Corrected { was, now })
    }

    /// With NFC: whether the tag read on the move's target names another piece than the one
    /// standing on its origin. Pieces whose tags are unread or unknown are not judged.
    fn wrong_piece(&self, play: &PlayState, position: &Position, mv: Move) -> bool {
        let Some(uid) = play.tags_at.get(&place_of(mv.to)) else {
            return false;
        };
        match (self.config.tags.get(uid), position.piece_at(mv.from)) {
            (Some(read), Some(expected)) => read != expected,
            _ => false,
        }
    }

    /// The latest earlier position whose occupied squares are the sensed ones.
    fn takeback_match(&self, play: &PlayState) -> Option<u32> {
        let mut sensed: Bits = 0;
        for place in &self.sensed {
            sensed |= 1u128 << square_of(place)?.index();
        }
        let now = play.history.len().checked_sub(1)?;
        play.history[..now]
            .iter()
            .rposition(|(_, bits)| *bits == sensed)
            .and_then(|k| u32::try_from(k).ok())
    }

    /// Compares the settled sensed board with the expected one and acts on what it means.
    fn evaluate(&mut self, out: &mut Vec<Decision>) {
        let Phase::Play(play) = &self.phase else {
            return;
        };
        let Some(position) = play.position() else {
            return;
        };
        let diff = self.diff(position);
        if play.over && play.hands.is_none() {
            return;
        }
        // After a battle: the missing winner (or returning defender) is expected, not an error.
        if let Some((square, _)) = &play.hands {
            if diff.added.is_empty() && diff.removed == [place_of(*square)] {
                return;
            }
        }
        let reading = if diff.is_empty() {
            Reading::Matches
        } else if play.must_match {
            Reading::Unknown
        } else {
            self.classify(play, &diff)
        };
        let declined = play.declined.as_ref() == Some(&self.sensed);
        let now = self.now;
        // Changed in place, not cloned: the state holds every position of the game, and this
        // runs on every settled event.
        let Phase::Play(play) = &mut self.phase else {
            return;
        };
        let Some((position, _)) = play.history.last() else {
            return;
        };
        let mut act = None;
        let mut correct = None;
        let mut ghost_move = None;
        let mut matched = false;
        play.prompt = None;
        play.hold_until = None;
        match reading {
            Reading::Matches => {
                matched = true;
                play.ghosts.clear();
                let was_off = play.off;
                play.off = false;
                play.must_match = false;
                if let Some((_, screen)) = play.hands.take() {
                    out.push(Decision::HandsDone);
                    play.announcement = Some(screen);
                }
                if was_off {
                    out.push(Decision::BoardMatches);
                }
                play.refused = None;
                play.takeback = None;
                play.declined = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
            }
            Reading::Action(mv) => {
                play.refused = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.off = false;
                act = Some(mv);
            }
            Reading::Corrected { was, now } => {
                play.refused = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.off = false;
                correct = Some((was, now));
            }
            Reading::Takeback(to_ply) if !declined => {
                play.announcement = None;
                play.refused = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                if play.takeback != Some(to_ply) {
                    out.push(Decision::TakebackOffered { to_ply });
                }
                play.off = true;
                play.takeback = Some(to_ply);
            }
            Reading::Refused(mv, reason) => {
                play.announcement = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.off = true;
                if play.refused.as_ref().map(|(d, _)| d) != Some(&diff) {
                    out.push(Decision::Refused { mv, reason });
                    let fix = if diff.added.is_empty() {
                        format!("put both pieces back on {} and {}", mv.from, mv.to)
                    } else {
                        format!("put the piece back on {}", mv.from)
                    };
                    let why = match reason {
                        Illegal::NotYours(_) => format!(
                            "it is {}'s turn, not {}'s",
                            seat_name(position.to_move()),
                            seat_name(position.to_move().opponent())
                        ),
                        _ => public_reason(&reason),
                    };
                    let screen = Screen::Illegal {
                        status: status_line(position),
                        reason: format!("{mv}: {why}"),
                        fix,
                    };
                    play.refused = Some((diff, screen));
                }
            }
            Reading::WrongPiece(mv) => {
                play.announcement = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.off = true;
                if play.refused.as_ref().map(|(d, _)| d) != Some(&diff) {
                    out.push(Decision::WrongPiece { mv });
                    let screen = Screen::Illegal {
                        status: status_line(position),
                        reason: format!(
                            "{mv}: the piece put on {} is not the one lifted from {}",
                            mv.to, mv.from
                        ),
                        fix: format!(
                            "put the piece from {} on {}, the other back (if it is there, lift \
                             it and put it back to read its tag again)",
                            mv.from, mv.to
                        ),
                    };
                    play.refused = Some((diff, screen));
                }
            }
            Reading::Held(target, until) => {
                // Nothing is judged yet, so nothing is said that the attack would reveal.
                play.announcement = None;
                play.refused = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.hold_until = Some(until);
                play.prompt = Some(format!(
                    "Attack on {target}? keep both up, or put {target} back"
                ));
            }
            Reading::Ghost { place, from, why } => {
                play.announcement = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.off = true;
                play.ghosts.insert(place);
                if play.refused.as_ref().map(|(d, _)| d) != Some(&diff) {
                    out.push(Decision::Ghost {
                        place: place.to_string(),
                        undone: None,
                    });
                    let from = from.map(|p| p.to_string());
                    let screen = ghost_screen(
                        status_line(position),
                        &place.to_string(),
                        from.as_deref(),
                        why,
                    );
                    play.refused = Some((diff, screen));
                }
            }
            Reading::GhostHeld(mv, until) => {
                // Nothing is taken back yet: a slide onto the square just left passes.
                play.announcement = None;
                play.refused = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.hold_until = Some(until);
                play.prompt = Some(format!(
                    "{} and {} both read a piece: take off the one that does not belong",
                    mv.from, mv.to
                ));
            }
            Reading::GhostMove(mv) => {
                play.refused = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                ghost_move = Some(mv);
            }
            Reading::InHand(square) => {
                play.announcement = None;
                play.refused = None;
                play.takeback = None;
                play.unmatched_since = None;
                play.mismatch_shown = false;
                play.prompt = Some(format!(
                    "{}: {square} lifted: place it, or lift the piece it attacks",
                    seat_name(position.to_move())
                ));
            }
            Reading::Takeback(_) | Reading::Unknown => {
                play.announcement = None;
                play.refused = None;
                play.takeback = None;
                if declined || play.must_match {
                    play.mismatch_shown = true;
                    play.off = true;
                }
                if play.unmatched_since.is_none() {
                    play.unmatched_since = Some(now);
                }
            }
        }
        if matched {
            self.hands.reset();
        }
        if let Some(mv) = act {
            self.play_move(mv, out);
        }
        if let Some((was, now)) = correct {
            self.correct_move(was, now, out);
        }
        if let Some(mv) = ghost_move {
            self.undo_ghost_move(mv, out);
        }
    }

    /// Takes back the last move, read from a ghost switch (journaled), and names its target.
    fn undo_ghost_move(&mut self, mv: Move, out: &mut Vec<Decision>) {
        if !self.take_back_last(out) {
            return;
        }
        if let Phase::Play(play) = &mut self.phase {
            play.ghosts.insert(place_of(mv.to));
            let screen = ghost_screen(
                play.position().map(status_line).unwrap_or_default(),
                &mv.to.to_string(),
                None,
                NotLanded::LitBefore,
            );
            let diff = Diff {
                removed: Vec::new(),
                added: vec![place_of(mv.to)],
            };
            play.refused = Some((diff, screen));
            play.off = true;
        }
        out.push(Decision::Ghost {
            place: mv.to.to_string(),
            undone: Some(mv.to_string()),
        });
        self.evaluate(out);
    }

    /// Takes back the last move and plays `now` instead, both journaled.
    fn correct_move(&mut self, was: Move, now: Move, out: &mut Vec<Decision>) {
        if !self.take_back_last(out) {
            return;
        }
        out.push(Decision::MoveCorrected { was, now });
        self.play_move(now, out);
    }

    /// Takes back the last move (journaled first); false when there is none or the journal
    /// write failed (nothing changed).
    fn take_back_last(&mut self, out: &mut Vec<Decision>) -> bool {
        let Phase::Play(play) = &self.phase else {
            return false;
        };
        let Some(to_ply) = play.position().map(|p| p.ply().saturating_sub(1)) else {
            return false;
        };
        if !self.write(&Record::Takeback { to_ply }, out) {
            return false;
        }
        if let Phase::Play(play) = &mut self.phase {
            play.history.pop();
            play.announcement = None;
        }
        true
    }

    fn play_move(&mut self, mv: Move, out: &mut Vec<Decision>) {
        if !self.write(&Record::Move(mv), out) {
            return;
        }
        let Phase::Play(play) = &mut self.phase else {
            return;
        };
        let Some(position) = play.position() else {
            return;
        };
        let seat = position.to_move();
        let mut next = position.clone();
        let outcome = next.play_unchecked(&mv);
        let bits = occupancy(&next);
        match outcome {
            Outcome::Moved(_) => {
                out.push(Decision::Moved { seat, mv });
                play.announcement = Some(Screen::MoveAccepted {
                    status: status_line(&next),
                    mv: mv.to_string(),
                });
            }
            Outcome::Battle(battle) => {
                out.push(Decision::Battle(battle));
                let (screen, outstanding) = battle_screen(&battle);
                match outstanding {
                    Some(square) => play.hands = Some((square, screen)),
                    None => play.announcement = Some(screen),
                }
            }
        }
        let status = next.status();
        play.history.push((next, bits));
        // A new gesture begins: the hands' changes so far made this move.
        self.hands.reset();
        if !status.is_ongoing() {
            play.over = true;
            out.push(Decision::GameOver(status));
        }
        // The hands may already have done what the battle asks.
        self.evaluate(out);
    }

    fn play_button(&mut self, button: Button, out: &mut Vec<Decision>) {
        let Phase::Play(play) = &mut self.phase else {
            return;
        };
        if play.over {
            if button == Button::Ok {
                self.new_game();
            } else {
                out.push(Decision::Ignored {
                    button,
                    why: "the game is over: OK starts a new game".to_string(),
                });
            }
            return;
        }
        match (button, play.takeback) {
            (Button::Ok, Some(to_ply)) => {
                if !self.write(&Record::Takeback { to_ply }, out) {
                    return;
                }
                if let Phase::Play(play) = &mut self.phase {
                    take_back(&mut play.history, to_ply);
                    play.takeback = None;
                    play.off = false;
                    play.hands = None;
                    play.refused = None;
                    play.declined = None;
                    play.unmatched_since = None;
                    play.mismatch_shown = false;
                    play.announcement = None;
                    play.prompt = Some(format!("took back to move {}", to_ply + 1));
                }
                out.push(Decision::TookBack { to_ply });
                self.evaluate(out);
            }
            (Button::Back, Some(_)) => {
                play.takeback = None;
                play.declined = Some(self.sensed.clone());
                play.mismatch_shown = true;
                play.off = true;
                play.unmatched_since = Some(self.now);
                out.push(Decision::TakebackDeclined);
                self.stand_differences();
                out.push(Decision::Mismatch(self.differences()));
            }
            (Button::Die, _) => {
                let chance = play.position().is_some_and(|p| p.to_act() == Actor::Chance);
                // Stratego never calls for chance; Waterloo's battle die rolls here.
                let why = if chance {
                    "this game's chance is not wired yet"
                } else {
                    "the rules call for no die roll now"
                };
                out.push(Decision::Ignored {
                    button,
                    why: why.to_string(),
                });
                let _ = &mut self.chance;
            }
            (Button::Back, None) => {
                play.prompt = Some("to take back, put the pieces back as they were".to_string());
                out.push(Decision::Ignored {
                    button,
                    why: "to take back, put the pieces back as they were".to_string(),
                });
            }
            (Button::Ok, None) => out.push(Decision::Ignored {
                button,
                why: "nothing to confirm".to_string(),
            }),
        }
    }

    fn button(&mut self, button: Button, out: &mut Vec<Decision>) {
        match &self.phase {
            Phase::Select { .. } => self.select_button(button, out),
            Phase::Setup(_) => self.setup_button(button, out),
            Phase::Play(_) => self.play_button(button, out),
            Phase::Table(session) if session.is_over() && !session.hands_pending() => {
                if button == Button::Ok {
                    self.new_game();
                } else {
                    out.push(Decision::Ignored {
                        button,
                        why: "the game is over: OK starts a new game".to_string(),
                    });
                }
            }
            Phase::Table(_) => {
                self.with_table(out, |session, ctx, out| session.button(ctx, button, out));
            }
        }
    }

    /// Back to the game menu; the finished game's journal is closed.
    fn new_game(&mut self) {
        self.phase = Phase::Select {
            menu: Menu::Game,
            selected: 0,
        };
        self.journal = None;
        self.header = None;
    }

    // ---- the screen -----------------------------------------------------------------------

    fn refresh(&mut self) {
        let mut screen = self.compute_screen();
        // The turn clock: restarts whenever a move is played or taken back.
        let ply = match &self.phase {
            Phase::Play(play) => play.position().map(Position::ply),
            Phase::Table(session) => session.turn_key(),
            _ => None,
        };
        self.turn_clock = match (ply, self.turn_clock) {
            (Some(p), Some((q, since))) if p == q => Some((q, since)),
            (Some(p), _) => Some((p, self.now)),
            (None, _) => None,
        };
        if let (
            Some((_, since)),
            Screen::Play { status, .. }
            | Screen::MoveAccepted { status, .. }
            | Screen::Illegal { status, .. }
            | Screen::Told { status, .. },
        ) = (self.turn_clock, &mut screen)
        {
            status.elapsed_s = u32::try_from(self.now.since(since) / 1000).unwrap_or(u32::MAX);
            status.limit_s = self.config.turn_limit_s;
        }
        self.screen = screen;
    }

    fn compute_screen(&self) -> Screen {
        if let Some(r) = &self.recovery {
            return Screen::Recovery {
                found: r.found.clone(),
                detail: r.detail.clone(),
                entries: r.entries.clone(),
                selected: r.selected,
            };
        }
        if let Some(msg) = &self.journal_error {
            return Screen::Error {
                message: "the last step is not recorded: nothing is lost yet".to_string(),
                fix: msg.clone(),
            };
        }
        if let Some(notice) = &self.notice {
            return notice.clone();
        }
        match &self.phase {
            Phase::Select { menu, selected } => match menu {
                Menu::Game => Screen::Choice {
                    title: "Game".to_string(),
                    entries: GAMES
                        .iter()
                        .map(|g| g.1.to_string())
                        .chain(games::menu().iter().map(|t| t.0.to_string()))
                        .collect(),
                    selected: *selected,
                },
                Menu::Table(i) => {
                    let tables = games::menu();
                    let (title, entries) = tables
                        .get(*i)
                        .map(|(name, variants)| {
                            (
                                name.to_string(),
                                variants.iter().map(|v| v.0.clone()).collect(),
                            )
                        })
                        .unwrap_or_default();
                    Screen::Choice {
                        title,
                        entries,
                        selected: *selected,
                    }
                }
                Menu::Mode(variant) => Screen::Choice {
                    title: format!("{variant}: set-up"),
                    entries: MODES.iter().map(|m| m.1.to_string()).collect(),
                    selected: *selected,
                },
            },
            Phase::Setup(state) => self.setup_screen(state),
            Phase::Play(play) => self.play_screen(play),
            Phase::Table(session) => session.screen(&self.sensed),
        }
    }

    fn setup_screen(&self, state: &SetupState) -> Screen {
        if let Some(problems) = &state.problems {
            let title = match state.mode {
                SetupMode::RankGroups => format!("{} set-up", seat_name(state.seat)),
                SetupMode::Tags => "Set-up".to_string(),
            };
            return Screen::Problems {
                title,
                problems: problems.clone(),
            };
        }
        if let Some((message, fix)) = &state.tag_problem {
            return Screen::Error {
                message: message.clone(),
                fix: fix.clone(),
            };
        }
        let variant = state.options.variant;
        match state.mode {
            SetupMode::RankGroups => {
                let rank = state.groups.get(state.step).copied().unwrap_or(Rank::Spy);
                let placed = self.unassigned(state).len();
                Screen::Setup {
                    seat: seat_name(state.seat).to_string(),
                    instruction: format!(
                        "{}: place {}, then press OK",
                        seat_name(state.seat),
                        group_noun(variant, rank)
                    ),
                    placed: u16::try_from(placed).unwrap_or(u16::MAX),
                    needed: u16::from(variant.count(rank)),
                }
            }
            SetupMode::Tags => Screen::Setup {
                seat: "Red and Blue".to_string(),
                instruction: "place both armies (tags are read), then press OK".to_string(),
                placed: u16::try_from(
                    self.sensed
                        .iter()
                        .filter_map(square_of)
                        .filter(|s| state.assigned.contains_key(s))
                        .count(),
                )
                .unwrap_or(u16::MAX),
                needed: u16::from(variant.army_size()) * 2,
            },
        }
    }

    fn play_screen(&self, play: &PlayState) -> Screen {
        let Some(position) = play.position() else {
            return Screen::Error {
                message: "no game".to_string(),
                fix: "choose a game".to_string(),
            };
        };
        if play.over && play.hands.is_none() {
            return game_over_screen(&position.status());
        }
        if play.mismatch_shown {
            return Screen::Mismatch {
                differences: self.differences_from(position),
            };
        }
        if let Some(to_ply) = play.takeback {
            return Screen::Takeback {
                moves_back: position.ply().saturating_sub(to_ply),
                to_move_number: to_ply + 1,
            };
        }
        if let Some((_, screen)) = &play.refused {
            return screen.clone();
        }
        if let Some((_, screen)) = &play.hands {
            return screen.clone();
        }
        if let Some(screen) = &play.announcement {
            return screen.clone();
        }
        Screen::Play {
            status: status_line(position),
            prompt: play
                .prompt
                .clone()
                .unwrap_or_else(|| format!("{} to move", seat_name(position.to_move()))),
        }
    }
}
