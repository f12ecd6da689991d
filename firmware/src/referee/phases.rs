//! The referee's phases, once for every game: game select, then the chosen game's session
//! (set-up, play, over) on the generic table referee, with the journal, its recovery and
//! retries, notices and the turn clock around them.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io;

use boards::stratego::{Options, Position, Variant};

use super::chance::Chance;
use super::decision::Decision;
use super::games::{self, stratego::StrategoTable, BoardLayout, MenuEntry};
use super::games::{GameKind, Header};
use super::hands::Hands;
use super::record::{check_schema, RebuildError, Record, SetupMode, SCHEMA};
use super::table::session::{AnySession, Ctx, Session};
use super::table::TableView;
use super::tags::TagRegistry;
use crate::journal::{
    decode, records_after_damage, JournalError, JournalWriter, Recovered, Store, Tail,
};
use crate::sensing::{BoardEvent, Button, Millis, Place, SensingConfig, TagFailure};
use crate::ui::{Difference, Screen};

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
    /// NFC readers are configured under the board (`[[nfc.reader]]`): the game menu offers
    /// Napoléon's set-up by tags. Off by default.
    pub nfc_readers: bool,
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
    /// The game menu's entries highlighted at start and after each game (`[game] name` and
    /// `variant`).
    pub menu_start: MenuStart,
    /// The board Stratego: Waterloo is played on (`[waterloo] layout`; the shipped layout by
    /// default).
    pub waterloo_layout: BoardLayout,
    /// The card set and map Sa Belle Alliance is played with (`[sba] cards` and `layout`; the
    /// shipped ones by default).
    pub sba_set: games::sba::SbaSet,
    /// The campaign (map, order of battle, turn track) and table layout Napoléon is played on
    /// (`[napoleon]`; the shipped files by default).
    pub napoleon_set: games::napoleon::NapoleonSet,
    /// Napoléon is chosen with 6.2.4's option (`[napoleon] reveal_on_contact`): a block in
    /// battle is seen only once it fires or fights. A resumed game keeps the option its
    /// journal began with. Off by default.
    pub napoleon_reveal_on_contact: bool,
    /// The phone pages are served (`[web]` on): the OK menu in play ends with "Phone pages"
    /// ([`Decision::PhonePages`]). Off by default.
    pub phone_pages: bool,
}

/// The entries the game menu highlights: the game, and its variant once the game is chosen
/// (OK then starts the configured game at once). `0, 0`: the first of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MenuStart {
    /// The game's entry: Stratego Original, Stratego Duel, then each table game of
    /// [`games::menu`].
    pub game: usize,
    /// The entry on the chosen game's second menu (a table game's variant).
    pub variant: usize,
}

impl Default for RefereeConfig {
    fn default() -> Self {
        RefereeConfig {
            mismatch_after_ms: 3000,
            isf_rules: true,
            tags: TagRegistry::default(),
            nfc_readers: false,
            turn_limit_s: None,
            board: None,
            attack_hold_ms: RefereeConfig::DEFAULT_ATTACK_HOLD_MS,
            menu_start: MenuStart::default(),
            waterloo_layout: BoardLayout::shipped(),
            sba_set: games::sba::SbaSet::shipped(),
            napoleon_set: games::napoleon::NapoleonSet::shipped(),
            napoleon_reveal_on_contact: false,
            phone_pages: false,
        }
    }
}

impl RefereeConfig {
    /// [`RefereeConfig::attack_hold_ms`] by default, in ms. The `[sensing]` timings of the
    /// configuration file are checked against it: a lift is heard only once the settle window
    /// is over, so the window must leave most of the hold to put a brushed piece back.
    pub const DEFAULT_ATTACK_HOLD_MS: u32 = 1500;

    fn options(&self, variant: Variant) -> Options {
        if self.isf_rules {
            Options::isf(variant)
        } else {
            Options::plain(variant)
        }
    }

    /// `kind` on the data files this umpire plays (the Waterloo layout, the Sa Belle Alliance
    /// and Napoléon sets) and with Napoléon's 6.2.4 option as configured.
    fn with_data(&self, kind: GameKind) -> GameKind {
        kind.on_layout(self.waterloo_layout)
            .on_sba(self.sba_set)
            .on_napoleon(self.napoleon_set)
            .on_napoleon_reveal_on_contact(self.napoleon_reveal_on_contact)
    }

    /// The places a game of `kind` senses that the board lacks (none without a board).
    fn missing_places(&self, kind: GameKind) -> Vec<Place> {
        let Some(board) = &self.board else {
            return Vec::new();
        };
        games::layout(kind)
            .places
            .iter()
            .map(|(_, p)| *p)
            .filter(|p| !board.contains(p))
            .collect()
    }

    /// Each entry of the game menu, in menu order: its name and the games its variants start.
    fn menu_games(&self) -> Vec<(&'static str, Vec<GameKind>)> {
        let stratego = GAMES.iter().map(|(variant, name)| {
            let kind = GameKind::Stratego {
                options: self.options(*variant),
            };
            (*name, vec![kind])
        });
        let tables = games::menu().into_iter().map(|(name, variants)| {
            let kinds = variants.into_iter().map(|(_, kind)| kind).collect();
            (name, kinds)
        });
        stratego.chain(tables).collect()
    }

    /// The places the game menu's entry `entry` senses, every variant's together, on the data
    /// files this umpire plays, with its name on the menu and, when the board lacks some, what
    /// would let it play the game: what `umpire calibrate --game` asks the builder to walk.
    /// `None` for an entry the menu does not have.
    pub fn places_of_game(
        &self,
        entry: usize,
    ) -> Option<(&'static str, BTreeSet<Place>, Option<BeyondTheBoard>)> {
        let (game, kinds) = self.menu_games().into_iter().nth(entry)?;
        Some(self.game_on_board(entry, game, kinds))
    }

    /// The games of the menu this board cannot play, in menu order: what the menu refuses when
    /// one is chosen, told before (`umpire check-config`, `umpire doctor`). Empty without a
    /// board.
    pub fn games_beyond_the_board(&self) -> Vec<BeyondTheBoard> {
        self.menu_games()
            .into_iter()
            .enumerate()
            .filter_map(|(entry, (game, kinds))| self.game_on_board(entry, game, kinds).2)
            .collect()
    }

    /// The places of the menu's entry `entry` (`game`, whose variants start `kinds`), and what
    /// the board lacks of them.
    fn game_on_board(
        &self,
        entry: usize,
        game: &'static str,
        kinds: Vec<GameKind>,
    ) -> (&'static str, BTreeSet<Place>, Option<BeyondTheBoard>) {
        let places: BTreeSet<Place> = kinds
            .into_iter()
            .flat_map(|kind| games::layout(self.with_data(kind)).places)
            .map(|(_, place)| place)
            .collect();
        let missing: Vec<Place> = match &self.board {
            Some(board) => places
                .iter()
                .filter(|p| !board.contains(p))
                .copied()
                .collect(),
            None => Vec::new(),
        };
        let beyond = (!missing.is_empty()).then(|| BeyondTheBoard {
            entry,
            game,
            fix: missing_places_fix(&missing, self.board.as_ref()),
        });
        (game, places, beyond)
    }
}

/// A game of the menu whose places the board lacks ([`RefereeConfig::games_beyond_the_board`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeyondTheBoard {
    /// Its entry on the game menu, as [`MenuStart::game`] counts.
    pub entry: usize,
    /// Its name on the game menu.
    pub game: &'static str,
    /// What would let the board play it.
    pub fix: String,
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

#[derive(Debug)]
enum Phase {
    Select {
        menu: Menu,
        selected: usize,
    },
    /// A game chosen: its session (set-up, play, over).
    Game(Box<dyn AnySession>),
}

/// Makes the store for each new game's journal.
type StoreMaker<S> = Box<dyn FnMut() -> io::Result<S>>;

/// The umpire's referee of every game. See the [module docs](super).
pub struct Referee<S: Store, C: Chance> {
    config: RefereeConfig,
    chance: C,
    new_store: StoreMaker<S>,
    journal: Option<JournalWriter<S, Record>>,
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
    /// What the hands did since the board last matched (the session reads it).
    hands: Hands,
    /// The settle window of the sensing model that reports to it, in ms (the session's
    /// [`Ctx::settle_ms`]): told by the pipeline that joins the two.
    settle_ms: u32,
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

/// The bytes of the journal in `store`, refused when another schema wrote them: its header and
/// records would not decode, or decode into something else, so the schema is named before
/// anything is decoded.
fn read_checked<S: Store>(store: &mut S) -> Result<Vec<u8>, ResumeError> {
    let bytes = store.read_all().map_err(|source| {
        ResumeError::Journal(JournalError::Io {
            doing: "read",
            source,
        })
    })?;
    check_schema(&bytes).map_err(ResumeError::Rebuild)?;
    Ok(bytes)
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
        let is_army = |r: &Record| matches!(r, Record::Deployed { .. } | Record::Army { .. });
        // The files a game began on are no step of play.
        let is_setup = |r: &Record| is_army(r) || matches!(r, Record::Files(_));
        let armies = records.iter().filter(|r| is_army(r)).count();
        let played = records.iter().filter(|r| !is_setup(r)).count();
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

/// What to add to the configuration for `missing` places: the grid's size, or each tray's
/// slots (`[[board.tray]]`).
fn missing_places_fix(missing: &[Place], board: Option<&BTreeSet<Place>>) -> String {
    let mut squares = (0u8, 0u8, false);
    let mut trays: BTreeMap<(String, usize), (u16, u16)> = BTreeMap::new();
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
                // The slots the board has of this tray already: its entry needs more, not a
                // second entry (which the configuration refuses).
                let has = || {
                    let same = |p: &&Place| matches!(p, Place::Tray { tray: t, seat: s, .. } if t == tray && s == seat);
                    let n = board.map_or(0, |b| b.iter().filter(same).count());
                    (0, u16::try_from(n).unwrap_or(u16::MAX))
                };
                let n = trays
                    .entry((tray.to_string(), seat.index() + 1))
                    .or_insert_with(has);
                n.0 = n.0.max(u16::from(*slot) + 1);
            }
        }
    }
    let (columns, rows) = (crate::sensing::MAX_COLUMNS, crate::sensing::MAX_ROWS);
    if squares.0 > columns || squares.1 > rows {
        // No configuration can give it: say so, not a fix the configuration would refuse.
        return format!(
            "it needs a grid of {} columns x {} rows, more than the {columns} x {rows} a board \
             is configured with: play it in the simulator (umpire-sim) for now",
            squares.0, squares.1
        );
    }
    let mut parts = Vec::new();
    if squares.2 {
        parts.push(format!(
            "a board of at least {} columns x {} rows ([board] columns, rows)",
            squares.0, squares.1
        ));
    }
    for ((kind, seat), (slots, has)) in trays {
        parts.push(if has == 0 {
            format!("seat {seat}'s {kind} tray of {slots} slots ([[board.tray]])")
        } else {
            format!("{slots} slots, not {has}, on seat {seat}'s {kind} tray ([[board.tray]] slots)")
        });
    }
    format!("wire and configure {}", parts.join(", "))
}

impl<S: Store, C: Chance> Referee<S, C> {
    /// A referee at the game-select menu. `new_store` makes the (empty) store of each new
    /// game's journal.
    pub fn new(
        config: RefereeConfig,
        chance: C,
        new_store: impl FnMut() -> io::Result<S> + 'static,
    ) -> Referee<S, C> {
        let start = config.menu_start.game;
        let mut referee = Referee {
            config,
            chance,
            new_store: Box::new(new_store),
            journal: None,
            sensed: BTreeSet::new(),
            now: Millis(0),
            phase: Phase::Select {
                menu: Menu::Game,
                selected: start,
            },
            journal_error: None,
            retry: None,
            recovery: None,
            notice: None,
            turn_clock: None,
            hands: Hands::default(),
            settle_ms: SensingConfig::DEFAULT.settle_ms,
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
        drop(read_checked(&mut store)?);
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
        let bytes = read_checked(&mut store)?;
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
        let header = recovered.header;
        // On the umpire's layout, which must be the one the journal recorded (when it did).
        let game = header
            .game
            .on_layout(self.config.waterloo_layout)
            .on_sba(self.config.sba_set)
            .on_napoleon(self.config.napoleon_set);
        let game = games::resumable_kind(game, &recovered.records).map_err(ResumeError::Rebuild)?;
        let session = games::resume_session(game, header.setup, &recovered.records, &self.sensed)
            .map_err(ResumeError::Rebuild)?;
        self.journal = Some(journal);
        self.phase = Phase::Game(session);
        self.with_game(&mut out, |session, ctx, out| session.settled(ctx, out));
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

    /// The Stratego game as the umpire knows it (every rank: the umpire's eyes only), once
    /// play began.
    pub fn position(&self) -> Option<&Position> {
        self.table_session()?
            .downcast_ref::<Session<StrategoTable>>()?
            .game()
            .map(StrategoTable::position)
    }

    /// The journal of the current game, if one is started.
    pub fn journal(&self) -> Option<&JournalWriter<S, Record>> {
        self.journal.as_ref()
    }

    /// The places sensed occupied, as the events so far reported them.
    pub fn sensed(&self) -> &BTreeSet<Place> {
        &self.sensed
    }

    /// Whether an action's hand instructions are still waiting for the board.
    pub fn hands_pending(&self) -> bool {
        self.session().is_some_and(|s| s.hands_pending())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.session().is_some_and(|s| s.result().is_some())
    }

    /// Whether a game is in play (set-up finished).
    pub fn in_play(&self) -> bool {
        self.session().is_some_and(|s| s.in_play())
    }

    /// The places where the board is expected to differ from what is sensed (empty when it
    /// matches or no game is in play).
    pub fn differences(&self) -> Vec<Difference> {
        self.session()
            .map(|s| s.differences(&self.sensed))
            .unwrap_or_default()
    }

    fn session(&self) -> Option<&dyn AnySession> {
        match &self.phase {
            Phase::Game(session) => Some(session.as_ref()),
            Phase::Select { .. } => None,
        }
    }

    /// A button held down for the long-press time (see [`crate::drivers::buttons`]).
    ///
    /// **Back held confirms a takeback** the board offers (the pieces were put back as they
    /// stood some moves ago), as OK does: the deliberate gesture the button driver's docs
    /// intend, while a Back tap declines. Every other hold counts as a press of its button, so a
    /// slow press is never lost.
    pub fn hold(&mut self, button: Button, at: Millis) -> Vec<Decision> {
        let offered = self
            .session()
            .is_some_and(|s| s.takeback_offered() && s.result().is_none());
        let button = if button == Button::Back && offered && self.notice.is_none() {
            Button::Ok
        } else {
            button
        };
        self.handle(&BoardEvent::Button { button, at })
    }

    /// Hears its events from a sensing model timed by `sensing`: a slide decided at once may
    /// be carried on into an attack within its settle window, and a slid piece may close the
    /// next square up to a settle window before it leaves its own. Until told, the default
    /// model's ([`SensingConfig::DEFAULT`]).
    pub(crate) fn reported_by(&mut self, sensing: &SensingConfig) {
        self.settle_ms = sensing.settle_ms;
        self.hands = Hands::timed(sensing.settle_ms);
    }

    /// Whether the changes the sensing model believes but has not reported (`waiting`: place,
    /// lifted, when; see [`Sensing::waiting`](crate::sensing::Sensing::waiting)) would be
    /// decided at once and beyond doubt if reported now: a plain move, or a slide carried on.
    /// Never while a notice, a recovery or a journal failure stands. The pipeline then reports
    /// them without waiting out the settle window.
    pub fn decides_at_once(&self, waiting: &[(Place, bool, Millis)]) -> bool {
        if waiting.is_empty()
            || self.notice.is_some()
            || self.recovery.is_some()
            || self.journal_error.is_some()
        {
            return false;
        }
        let Some(session) = self.session() else {
            return false;
        };
        let mut sensed = self.sensed.clone();
        let mut hands = self.hands.clone();
        let changes: Vec<(Place, bool)> = waiting.iter().map(|&(p, up, _)| (p, up)).collect();
        for &(place, lifted, at) in waiting {
            if lifted {
                sensed.remove(&place);
                hands.lifted(place, at);
            } else {
                sensed.insert(place);
                hands.placed(place, at);
            }
        }
        session.decides_at_once(&hands, &changes, &sensed)
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
                if let Phase::Game(session) = &mut self.phase {
                    session.lifted(place);
                }
            }
            BoardEvent::Placed { place, tag, at, .. } => {
                self.hands.placed(*place, *at);
                if tag.is_some() {
                    self.hands.tag_read(*place);
                }
                self.sensed.insert(*place);
                if let Phase::Game(session) = &mut self.phase {
                    session.placed(place);
                }
                if let Some(uid) = *tag {
                    self.with_game(&mut out, |session, ctx, out| {
                        session.tag(ctx, place, uid, out);
                    });
                }
            }
            BoardEvent::TagRead { place, uid, .. } => {
                self.hands.tag_read(*place);
                self.with_game(&mut out, |session, ctx, out| {
                    session.tag(ctx, place, *uid, out);
                });
            }
            BoardEvent::TagFailed { place, failure, .. } => {
                // Only an empty field says no piece may stand there (a ghost); a reader fault
                // or a region's tags all seen before say nothing of it.
                if *failure == TagFailure::NoTag {
                    self.hands.tag_failed(*place);
                }
                if let Phase::Game(session) = &mut self.phase {
                    session.tag_failed(place, *failure, &mut out);
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
        self.with_game(out, |session, ctx, out| session.settled(ctx, out));
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
        self.with_game(out, |session, ctx, out| session.owed_chance(ctx, out));
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
        let retried =
            self.journal_error.is_some() && self.retry.as_ref().is_some_and(|r| self.now >= r.at);
        if retried {
            self.retry_now(&mut out);
        }
        let changed = self
            .with_game(&mut out, |session, ctx, out| session.tick(ctx, out))
            .unwrap_or(false);
        // A held gesture judged now (its hold passed) whose write failed: kept to run again,
        // as a settled board's is.
        if self.retry.is_none()
            && self.journal_error.is_some()
            && out.iter().any(|d| matches!(d, Decision::JournalFailed(_)))
        {
            self.retry = Some(Retry::new(Step::Board, self.now));
        }
        if retried || changed || !out.is_empty() {
            self.refresh();
        } else {
            // Nothing but time passed: the screen stands, only its turn clock moves (it is
            // drawn again at every scan otherwise).
            self.stamp_clock();
        }
        out
    }

    /// Runs `f` on the game's session (if one is chosen) with its context.
    fn with_game<R>(
        &mut self,
        out: &mut Vec<Decision>,
        f: impl FnOnce(&mut dyn AnySession, &mut Ctx<'_>, &mut Vec<Decision>) -> R,
    ) -> Option<R> {
        let Phase::Game(session) = &mut self.phase else {
            return None;
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
            settle_ms: self.settle_ms,
            tags: &self.config.tags,
            phone_pages: self.config.phone_pages,
        };
        Some(f(session.as_mut(), &mut ctx, out))
    }

    /// The game in progress, as the simulator and tests may look at it; `None` at the menu.
    pub fn table(&self) -> Option<&dyn TableView> {
        self.session().map(|s| s as &dyn TableView)
    }

    /// What `seat` may see of the game in progress (its private web page's only source);
    /// `None` at the menu.
    pub fn seat_view(&self, seat: boards::Seat) -> Option<super::table::SeatView> {
        self.session().map(|s| s.seat_view(seat))
    }

    /// The game in progress revealed whole, once it is over (the pages' replay); `None` while
    /// it runs and at the menu.
    pub fn replay(&self) -> Option<super::table::Replay> {
        self.session().and_then(|s| s.replay())
    }

    /// The game's session (a [`Session`] of its game), for the simulator to look at with the
    /// umpire's eyes; `None` at the menu.
    pub fn table_session(&self) -> Option<&dyn std::any::Any> {
        self.session().map(|s| s as &dyn std::any::Any)
    }

    fn select_button(&mut self, button: Button, out: &mut Vec<Decision>) {
        let tables = Self::table_menu(&self.config);
        let Phase::Select { menu, selected } = &mut self.phase else {
            return;
        };
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
                let start = self.config.menu_start;
                *menu = match GAMES.get(*selected) {
                    Some(g) => Menu::Mode(g.0),
                    None => Menu::Table(*selected - GAMES.len()),
                };
                // The configured variant, when it is on the chosen game's menu (not the
                // game menu's length: a game may have more variants than there are games).
                let variants = |i: usize| tables.get(i).map_or(0, |t| t.1.len());
                *selected = match *menu {
                    Menu::Table(i)
                        if i + GAMES.len() == start.game && start.variant < variants(i) =>
                    {
                        start.variant
                    }
                    _ => 0,
                };
            }
            (Button::Ok, Menu::Table(i)) => {
                let chosen = tables.get(i).and_then(|(name, variants)| {
                    variants
                        .get(*selected)
                        .map(|(label, kind, setup)| (format!("{name}: {label}"), *kind, *setup))
                        .map(|(label, kind, setup)| (label, self.config.with_data(kind), setup))
                });
                if let Some((label, kind, setup)) = chosen {
                    self.choose(label, kind, setup, out);
                }
            }
            (Button::Ok, Menu::Mode(variant)) => {
                let (mode, how) = MODES
                    .get(*selected)
                    .copied()
                    .unwrap_or((SetupMode::RankGroups, MODES[0].1));
                let kind = GameKind::Stratego {
                    options: self.config.options(variant),
                };
                self.choose(format!("{variant}: {how}"), kind, mode, out);
            }
        }
    }

    /// The table games' menus: each game's name and its variants, each with its set-up
    /// ([`games::menu_entries`]).
    fn table_menu(config: &RefereeConfig) -> Vec<(&'static str, Vec<MenuEntry>)> {
        games::menu_entries(config.nfc_readers)
    }

    /// Starts the journal and the session of the game `label` of `kind`, set up by `setup`.
    fn choose(&mut self, label: String, kind: GameKind, setup: SetupMode, out: &mut Vec<Decision>) {
        let (registered, why, fix) = match kind {
            GameKind::Napoleon { .. } => (
                self.config.tags.has_blocks(),
                "no NFC tags are registered to Napoleon blocks",
                "register the blocks' tags first, or choose a set-up without NFC tags",
            ),
            _ => (
                self.config.tags.has_pieces(),
                "no NFC tags are registered",
                "register the pieces' tags first, or set up by rank groups",
            ),
        };
        if setup == SetupMode::Tags && !registered {
            self.notice = Some(Screen::Error {
                message: why.to_string(),
                fix: fix.to_string(),
            });
            out.push(Decision::Ignored {
                button: Button::Ok,
                why: why.to_string(),
            });
            return;
        }
        let missing = self.config.missing_places(kind);
        if !missing.is_empty() {
            let why = format!("{label} needs places this board lacks");
            self.notice = Some(Screen::Error {
                message: why.clone(),
                fix: missing_places_fix(&missing, self.config.board.as_ref()),
            });
            out.push(Decision::Ignored {
                button: Button::Ok,
                why,
            });
            return;
        }
        let Some(session) = games::new_session(kind, setup) else {
            out.push(Decision::Ignored {
                button: Button::Ok,
                why: format!("{label} cannot be played by this build"),
            });
            return;
        };
        let header = Header {
            schema: SCHEMA,
            game: kind,
            setup,
        };
        if !self.open_journal(header, out) {
            return;
        }
        for record in games::opening_records(kind) {
            if let Err(msg) = append(&mut self.journal, &record) {
                // Not begun: the next choice starts another journal.
                self.journal = None;
                out.push(Decision::JournalFailed(msg.clone()));
                self.journal_error = Some(msg);
                return;
            }
        }
        out.push(Decision::GameChosen { game: label });
        self.hands.new_game();
        self.phase = Phase::Game(session);
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

    // ---- buttons --------------------------------------------------------------------------

    fn button(&mut self, button: Button, out: &mut Vec<Decision>) {
        match &self.phase {
            Phase::Select { .. } => self.select_button(button, out),
            Phase::Game(session) if session.result().is_some() && !session.hands_pending() => {
                if button == Button::Ok {
                    self.new_game();
                } else {
                    out.push(Decision::Ignored {
                        button,
                        why: "the game is over: OK starts a new game".to_string(),
                    });
                }
            }
            Phase::Game(_) => {
                self.with_game(out, |session, ctx, out| session.button(ctx, button, out));
            }
        }
    }

    /// Back to the game menu; the finished game's journal is closed.
    fn new_game(&mut self) {
        self.phase = Phase::Select {
            menu: Menu::Game,
            selected: self.config.menu_start.game,
        };
        self.journal = None;
    }

    // ---- the screen -----------------------------------------------------------------------

    fn refresh(&mut self) {
        self.screen = self.compute_screen();
        self.stamp_clock();
    }

    /// The turn clock on the screen: restarts whenever a move is played or taken back.
    fn stamp_clock(&mut self) {
        let ply = self.session().and_then(|s| s.turn_key());
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
        ) = (self.turn_clock, &mut self.screen)
        {
            status.elapsed_s = u32::try_from(self.now.since(since) / 1000).unwrap_or(u32::MAX);
            status.limit_s = self.config.turn_limit_s;
        }
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
                    secret: false,
                },
                Menu::Table(i) => {
                    let tables = Self::table_menu(&self.config);
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
                        secret: false,
                    }
                }
                Menu::Mode(variant) => Screen::Choice {
                    title: format!("{variant}: set-up"),
                    entries: MODES.iter().map(|m| m.1.to_string()).collect(),
                    selected: *selected,
                    secret: false,
                },
            },
            Phase::Game(session) => session.screen(&self.sensed),
        }
    }
}

#[cfg(test)]
mod tests {
    use boards::geometry::grid::Cell;

    use super::*;
    use crate::sensing::TrayKind;

    /// A fix a board can be configured with names the grid and the trays to add (Napoléon's 26
    /// x 31 grid too, since a board may have 32 rows); a layout no configuration can sense (33
    /// rows) is not told to configure what the configuration refuses.
    #[test]
    fn the_fix_for_missing_places_is_one_the_configuration_takes() {
        let tray = Place::Tray {
            tray: TrayKind::Reserve,
            seat: boards::Seat::new(0),
            slot: 2,
        };
        let fix = missing_places_fix(&[Place::Square(Cell::new(11, 9)), tray], None);
        assert!(
            fix.starts_with("wire and configure a board of at least 12 columns x 10 rows"),
            "{fix}"
        );
        assert!(fix.contains("tray of 3 slots"), "{fix}");
        // A tray the board has too few slots of is given more, not a second entry (the
        // configuration refuses two entries for one tray).
        let board: BTreeSet<Place> = (0..2)
            .map(|slot| Place::Tray {
                tray: TrayKind::Reserve,
                seat: boards::Seat::new(0),
                slot,
            })
            .collect();
        let fix = missing_places_fix(&[tray], Some(&board));
        assert_eq!(
            fix,
            "wire and configure 3 slots, not 2, on seat 1's reserve tray ([[board.tray]] slots)"
        );
        let napoleon = games::menu()
            .into_iter()
            .flat_map(|(_, entries)| entries)
            .find_map(|(_, kind)| matches!(kind, GameKind::Napoleon { .. }).then_some(kind))
            .expect("Napoléon is on the menu");
        let places: Vec<Place> = games::layout(napoleon)
            .places
            .iter()
            .map(|(_, p)| *p)
            .collect();
        let fix = missing_places_fix(&places, None);
        assert_eq!(
            fix,
            "wire and configure a board of at least 26 columns x 31 rows ([board] columns, rows)"
        );
        // An owner's layout taller than any configured board.
        let fix = missing_places_fix(&[Place::Square(Cell::new(3, 32))], None);
        assert_eq!(
            fix,
            "it needs a grid of 4 columns x 33 rows, more than the 26 x 32 a board is configured \
             with: play it in the simulator (umpire-sim) for now"
        );
    }

    /// The builder hears before play which games the board cannot play, each with the fix the
    /// menu would give when it is chosen: a 12 x 10 board without trays plays Stratego and Sa
    /// Belle Alliance, not Waterloo (its trays), Piecepack (a staging tray) or Napoléon (its
    /// grid); trays added take Waterloo off the list, a 26 x 31 board Napoléon. Without a board
    /// nothing is judged.
    #[test]
    fn the_games_a_board_cannot_play_are_named_with_their_fix() {
        let board = |setup: crate::sensing::LayoutSetup| RefereeConfig {
            board: Some(setup.places.iter().map(|(_, p)| *p).collect()),
            ..RefereeConfig::default()
        };
        let bare = board(crate::sensing::LayoutSetup::grid(12, 10)).games_beyond_the_board();
        let named: Vec<(usize, &str)> = bare.iter().map(|b| (b.entry, b.game)).collect();
        assert_eq!(
            named,
            [
                (2, games::waterloo::TITLE),
                (3, games::piecepack::TITLE),
                (5, games::napoleon::TITLE)
            ]
        );
        let waterloo = &bare[0];
        assert!(waterloo.fix.contains("[[board.tray]]"), "{}", waterloo.fix);
        assert!(
            bare[2]
                .fix
                .contains("a board of at least 26 columns x 31 rows"),
            "{}",
            bare[2].fix
        );
        // Napoléon's map on a 26 x 31 board (a chain of 101 74HC165s).
        let map = board(crate::sensing::LayoutSetup::grid(26, 31)).games_beyond_the_board();
        assert!(
            map.iter().all(|b| b.game != games::napoleon::TITLE),
            "{map:?}"
        );

        // Every tray every Waterloo variant uses, wired.
        let mut wired = crate::sensing::LayoutSetup::grid(12, 10);
        for (_, kind) in games::waterloo::variants()
            .into_iter()
            .map(|(l, choice)| (l, GameKind::Waterloo { choice }))
        {
            for (_, place) in games::layout(kind).places {
                if matches!(place, Place::Tray { .. }) && !wired.places.iter().any(|p| p.1 == place)
                {
                    let cell = crate::sensing::SensedCell::new(wired.cell_count);
                    wired.places.push((cell, place));
                    wired.cell_count += 1;
                }
            }
        }
        let trays = board(wired).games_beyond_the_board();
        assert!(
            trays.iter().all(|b| b.game != games::waterloo::TITLE),
            "{trays:?}"
        );
        assert_eq!(RefereeConfig::default().games_beyond_the_board(), []);
    }
}
