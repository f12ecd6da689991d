//! Phone views: the umpire serves a private page per seat and a public table page over the
//! local network (`[web]` in `umpire.toml`, off by default), beside the scan loop.
//!
//! **Secrecy lives here, in one place.** A seat's page is built by [`SeatPage::build`] from
//! that seat's [`SeatView`] (its own pieces named, the enemy's as the rules allow; its secrets
//! read from its own rules view, such as Waterloo's line of retreat; the story worded for it)
//! and the public screen words; the public page by [`PublicPage::build`] from the OLED's words
//! alone. Once the game is over both add the whole game revealed ([`Referee::replay`], `None`
//! while the game runs, so nothing of it can be shown before).
//!
//! A seat's secrets besides its pieces ([`TableGame::seat_secrets`]): Stratego: Waterloo
//! Basic and Standard, its line of retreat; none in Stratego Original and Duel, Waterloo Expert
//! (fixed lines), Piecepack at Waterloo and Sa Belle Alliance (nothing secret at all).
//!
//! [`TableGame::seat_secrets`]: crate::referee::table::TableGame::seat_secrets
//! The HTML ([`html`]) sees only these two structs, never the game. A seat's page is reached
//! with a [`Token`] of 128 bits from the OS's random source, fresh for each seat of each game
//! (a new game makes new ones and the old die), compared in constant time; a wrong or old token
//! gets 403 with an empty body.
//!
//! **A seat reaches its page through the OLED.** [`handout`] shows each seat its page's
//! address as a QR code, seat by seat, only after that seat pressed OK; [`link`] makes the
//! short address (the Pi's LAN address or `[web] url`, `/S/` and the token in base32, which
//! [`Token::matches`] takes in either case) and the code.
//!
//! **The scan loop never waits for a phone.** The service hands each changed state to a
//! [`Publisher`] once per step: it builds the pages and puts them in a latest-wins slot with a
//! `try_lock` (a slot busy for the moment keeps the snapshot for the next step); the server's
//! threads ([`server`]) read the slot, at most [`server::MAX_CONNECTIONS`] connections at once,
//! and push each new page to the browsers that listen (server-sent events). The turn clock
//! alone is no change ([`without_clock`]): a page ticks it on by itself from the seconds it
//! was published with ([`PageClock`]), served that much later as the snapshot ages, so an idle
//! turn neither re-sends the pages nor pushes the same screen into the last announcements.

pub mod handout;
pub mod html;
pub mod link;
pub mod server;

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, TryLockError};
use std::time::Instant;

use boards::Seat;

use crate::journal::Store;
use crate::referee::table::{Replay, SeatStory, SeatView};
use crate::referee::{screen_lines, Chance, Referee};
use crate::screens::{mm_ss, without_clock};
use crate::sensing::Place;
use crate::ui::{Screen, StatusLine};

/// How many earlier screens the pages list as the last announcements.
pub const ANNOUNCEMENTS: usize = 8;

/// A seat's key to its private page: 128 bits from the OS's random source.
#[derive(Clone, PartialEq, Eq)]
pub struct Token([u8; 16]);

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never in a log: a token is a key.
        f.write_str("Token(..)")
    }
}

/// The OS's random source failed: no token can be made, so no private page is served.
#[derive(Debug)]
pub struct TokenError(pub String);

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the OS random source failed ({}): the seats' pages are not served; restart the \
             umpire, and check the kernel's entropy source if it persists",
            self.0
        )
    }
}

impl std::error::Error for TokenError {}

impl Token {
    /// A fresh token from the OS's random source.
    ///
    /// # Errors
    /// The random source failed.
    pub fn fresh() -> Result<Token, TokenError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| TokenError(e.to_string()))?;
        Ok(Token(bytes))
    }

    /// The token as written in a page's address: 32 lowercase hex digits.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The token as the OLED's code writes it: 26 upper-case base32 letters and digits
    /// (RFC 4648, no padding), all 128 bits, in the QR code's compact alphanumeric mode.
    pub fn base32(&self) -> String {
        const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        let mut out = String::with_capacity(26);
        let (mut acc, mut bits) = (0u32, 0u32);
        for &b in &self.0 {
            acc = (acc << 8) | u32::from(b);
            bits += 8;
            while bits >= 5 {
                bits -= 5;
                out.push(char::from(ALPHABET[((acc >> bits) & 31) as usize]));
            }
            acc &= (1 << bits) - 1;
        }
        if bits > 0 {
            out.push(char::from(ALPHABET[((acc << (5 - bits)) & 31) as usize]));
        }
        out
    }

    /// Whether `text` is this token, written in hex ([`Token::hex`]) or in base32 in either
    /// case ([`Token::base32`]: a phone may lower-case a typed address), taking the same time
    /// whatever `text` holds up to its length (so timing tells a guesser nothing of the token).
    pub fn matches(&self, text: &str) -> bool {
        let text = text.as_bytes();
        let same = |mine: &[u8], fold: bool| {
            let mut diff = u8::from(text.len() != mine.len());
            for (i, &m) in mine.iter().enumerate() {
                let t = text.get(i).copied().unwrap_or(0);
                diff |= m ^ if fold { t.to_ascii_uppercase() } else { t };
            }
            diff == 0
        };
        let hex = same(self.hex().as_bytes(), false);
        let base32 = same(self.base32().as_bytes(), true);
        hex | base32
    }
}

/// The public table page: exactly the words the OLED may show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicPage {
    /// The OLED's current screen, paragraph by paragraph, as the OLED draws it.
    pub screen: Vec<String>,
    /// The hand steps the screen lists, each in full, as a list to tick off.
    pub hands: Vec<String>,
    /// The screens shown before it, newest first (at most [`ANNOUNCEMENTS`]).
    pub announcements: Vec<String>,
    /// Once the game is over: the whole game revealed ([`Referee::replay`]); never before.
    pub replay: Option<Arc<Replay>>,
    /// The turn clock in `screen`, which the page's script ticks on by itself: the clock
    /// alone never re-publishes the pages.
    pub clock: Option<PageClock>,
}

/// The status line's running time on a page: which lines of the screen show it (each page of
/// the screen repeats the status line), and the seconds it showed when published (the page
/// counts on from there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageClock {
    /// The indices in [`PublicPage::screen`] of the lines that are the time ("01:05").
    pub lines: Vec<usize>,
    /// Real seconds the side to act had used.
    pub elapsed_s: u32,
    /// The per-turn limit, past which the time is flagged ("!01:05").
    pub limit_s: Option<u32>,
}

impl PublicPage {
    /// The public page from the OLED's `screen` and the words of the screens before it.
    pub fn build(screen: &Screen, earlier: &VecDeque<String>) -> PublicPage {
        let hands = match screen {
            Screen::Battle { hands, .. } | Screen::Told { hands, .. } => hands.clone(),
            _ => Vec::new(),
        };
        let lines = screen_lines(screen);
        let clock = match screen {
            Screen::Play { status, .. }
            | Screen::MoveAccepted { status, .. }
            | Screen::Illegal { status, .. }
            | Screen::Told { status, .. } => {
                let time = mm_ss(status.elapsed_s);
                let flagged = format!("!{time}");
                let at: Vec<usize> = (0..lines.len())
                    .filter(|&i| lines[i] == time || lines[i] == flagged)
                    .collect();
                (!at.is_empty()).then_some(PageClock {
                    lines: at,
                    elapsed_s: status.elapsed_s,
                    limit_s: status.limit_s,
                })
            }
            _ => None,
        };
        PublicPage {
            screen: lines,
            hands,
            announcements: earlier.iter().cloned().collect(),
            replay: None,
            clock,
        }
    }

    /// The page with its clock `seconds` on (a snapshot served a while after it was made),
    /// the time line redrawn to match.
    pub fn aged(&self, seconds: u32) -> PublicPage {
        let mut page = self.clone();
        if let Some(clock) = &mut page.clock {
            clock.elapsed_s = clock.elapsed_s.saturating_add(seconds);
            let time = mm_ss(clock.elapsed_s);
            let over = clock.limit_s.is_some_and(|limit| clock.elapsed_s > limit);
            for &i in &clock.lines {
                if let Some(line) = page.screen.get_mut(i) {
                    *line = if over {
                        format!("!{time}")
                    } else {
                        time.clone()
                    };
                }
            }
        }
        page
    }

    /// The page with the finished game's `replay` ([`Referee::replay`], `None` while the
    /// game runs).
    pub fn with_replay(mut self, replay: Option<Arc<Replay>>) -> PublicPage {
        self.replay = replay;
        self
    }
}

/// A piece on a seat's page: where it stands and what the seat knows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PiecePage {
    /// The place.
    pub place: Place,
    /// The place as the players name it ("e4", "French reserve slot 2").
    pub place_name: String,
    /// The piece in the seat's words ("Red Scout", "Blue piece").
    pub piece: String,
    /// Whose it is, as the whole table sees it ([`SeatView::sides`]): the seat's index, if
    /// the piece is any seat's.
    pub side: Option<usize>,
}

/// A seat's private page: the seat's view and the public words, nothing else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPage {
    /// The seat's index.
    pub seat: usize,
    /// Each seat's name, in turn order.
    pub seat_names: Vec<String>,
    /// The game's name.
    pub title: String,
    /// The board's squares (columns, rows); 0 x 0 for a game without squares.
    pub grid: (u8, u8),
    /// The pieces, as the seat sees them.
    pub pieces: Vec<PiecePage>,
    /// The status line, once in play.
    pub status: Option<StatusLine>,
    /// During set-up, in words after "Set-up: " ([`SeatView::setup`]).
    pub setup: Option<String>,
    /// The result once over.
    pub result: Option<(String, String)>,
    /// What the rules let this seat alone know besides its pieces (its line of retreat).
    pub secrets: Vec<String>,
    /// The game's story worded for this seat, oldest first.
    pub story: Vec<SeatStory>,
    /// The public page (the OLED's words: the announcement, the hand steps).
    pub public: PublicPage,
}

impl SeatPage {
    /// The seat's page from its `view` and the `public` page: the only way one is made.
    pub fn build(view: SeatView, public: PublicPage) -> SeatPage {
        // The grid holds every square the game senses and every piece shown on one.
        let (mut cols, mut rows) = (0u8, 0u8);
        let shown = view.board.iter().map(|(place, _, _)| place);
        for place in view.places.iter().chain(shown) {
            if let Place::Square(cell) = place {
                cols = cols.max(cell.col.saturating_add(1));
                rows = rows.max(cell.row.saturating_add(1));
            }
        }
        // Whose each piece is comes from the view's sides, never from the piece's words (a
        // Piecepack leader is named for its general, not its seat).
        let sides = view.sides;
        SeatPage {
            seat: view.seat.index(),
            pieces: view
                .board
                .into_iter()
                .map(|(place, place_name, piece)| PiecePage {
                    side: sides.get(&place).map(|s| s.index()),
                    place,
                    place_name,
                    piece,
                })
                .collect(),
            seat_names: view.seat_names,
            title: view.title,
            grid: (cols, rows),
            status: view.status,
            setup: view.setup,
            result: view.result,
            secrets: view.secrets,
            story: view.story,
            public,
        }
    }

    /// The seat's own name.
    pub fn seat_name(&self) -> &str {
        self.seat_names.get(self.seat).map_or("", String::as_str)
    }

    /// The page with its clock `seconds` on ([`PublicPage::aged`]).
    pub fn aged(&self, seconds: u32) -> SeatPage {
        let mut page = self.clone();
        page.public = page.public.aged(seconds);
        page
    }
}

/// One seat's entry in a snapshot: its token and its page.
#[derive(Debug)]
pub struct SeatEntry {
    /// The key to the page.
    pub token: Token,
    /// The page.
    pub page: SeatPage,
}

/// What the pages show at one moment: the public page and each seat's, with their tokens.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Counts up with every published change (the event stream's id).
    pub version: u64,
    /// The public page; `None` before the first step.
    pub public: Option<PublicPage>,
    /// The seats' pages while a game is chosen; empty at the menu.
    pub seats: Vec<SeatEntry>,
    /// When it was made: the pages' clock is served this much on.
    pub at: Option<Instant>,
}

impl Snapshot {
    /// Whole seconds since the snapshot was made (0 without a time).
    pub fn age_s(&self) -> u32 {
        self.at.map_or(0, |at| {
            u32::try_from(at.elapsed().as_secs()).unwrap_or(u32::MAX)
        })
    }

    /// The seat page `token` opens, if it is a live token; every entry is compared, in
    /// constant time, whatever matches.
    pub fn seat(&self, token: &str) -> Option<&SeatEntry> {
        let mut found = None;
        for entry in &self.seats {
            if entry.token.matches(token) {
                found = Some(entry);
            }
        }
        found
    }
}

/// The latest-wins slot between the scan loop and the server: a snapshot and a signal.
#[derive(Debug, Default)]
pub struct Slot {
    current: Mutex<Arc<Snapshot>>,
    changed: Condvar,
}

impl Slot {
    /// A new, empty slot, shared.
    pub fn new() -> Arc<Slot> {
        Arc::new(Slot::default())
    }

    /// The snapshot now (a poisoned lock still holds a whole snapshot: it is only replaced).
    pub fn current(&self) -> Arc<Snapshot> {
        Arc::clone(&self.current.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Waits up to `timeout` for a snapshot newer than `version`; the newest then.
    pub fn wait_newer(&self, version: u64, timeout: std::time::Duration) -> Arc<Snapshot> {
        let guard = self.current.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |s| s.version <= version)
            .unwrap_or_else(|e| e.into_inner());
        Arc::clone(&guard)
    }

    /// [`Slot::wait_newer`], also returning as soon as `end` is set and [`Slot::wake`] called.
    pub fn wait_newer_or_end(
        &self,
        version: u64,
        timeout: std::time::Duration,
        end: &std::sync::atomic::AtomicBool,
    ) -> Arc<Snapshot> {
        let guard = self.current.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |s| {
                s.version <= version && !end.load(std::sync::atomic::Ordering::SeqCst)
            })
            .unwrap_or_else(|e| e.into_inner());
        Arc::clone(&guard)
    }

    /// Wakes every waiter (one whose `end` was just set returns). Holds the lock a moment, so
    /// a waiter between its check and its wait cannot miss it; a publish that finds it held
    /// waits for the next step, as ever.
    pub fn wake(&self) {
        let guard = self.current.lock().unwrap_or_else(|e| e.into_inner());
        self.changed.notify_all();
        drop(guard);
    }

    /// Puts `snapshot` in without waiting: `Err` gives it back when a reader holds the slot
    /// this instant.
    fn try_put(&self, snapshot: Arc<Snapshot>) -> Result<(), Arc<Snapshot>> {
        match self.current.try_lock() {
            Ok(mut current) => {
                *current = snapshot;
                drop(current);
                self.changed.notify_all();
                Ok(())
            }
            Err(TryLockError::Poisoned(e)) => {
                *e.into_inner() = snapshot;
                self.changed.notify_all();
                Ok(())
            }
            Err(TryLockError::WouldBlock) => Err(snapshot),
        }
    }
}

/// What the last publish was built from: a change of any of it makes new pages.
#[derive(Clone, Debug, PartialEq)]
struct Built {
    /// The screen without its running clock ([`without_clock`]): the clock alone changes
    /// nothing (the pages tick it themselves).
    screen: Screen,
    /// The screen as published, clock and all: its words become an announcement.
    shown: Screen,
    actions: Option<u32>,
    in_play: bool,
    chosen: bool,
    over: bool,
}

/// Builds the pages from the referee each step the table changed, and hands them to the
/// server's [`Slot`] without ever waiting. Owns the game's tokens.
#[derive(Debug)]
pub struct Publisher {
    slot: Arc<Slot>,
    tokens: Vec<Token>,
    built: Option<Built>,
    earlier: VecDeque<String>,
    version: u64,
    pending: Option<Arc<Snapshot>>,
    /// Snapshots a busy slot made wait for a later step (for tests and the log).
    deferred: u64,
    trouble: Option<String>,
    /// Counts the sets of tokens made: a new count is a new game's codes to hand out.
    generation: u64,
    /// The seats' names, in turn order, for the game the tokens belong to.
    seat_names: Vec<String>,
}

impl Publisher {
    /// A publisher into `slot`.
    pub fn new(slot: Arc<Slot>) -> Publisher {
        Publisher {
            slot,
            tokens: Vec::new(),
            built: None,
            earlier: VecDeque::new(),
            version: 0,
            pending: None,
            deferred: 0,
            trouble: None,
            generation: 0,
            seat_names: Vec::new(),
        }
    }

    /// How many sets of tokens have been made: it changes when a new game's tokens are made
    /// (the seats' codes must then be handed out, see [`handout`]).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The seats' names, in turn order, for the tokens of [`Publisher::tokens`].
    pub fn seat_names(&self) -> &[String] {
        &self.seat_names
    }

    /// The tokens of the game in progress, one per seat in turn order (empty at the menu):
    /// for the OLED's link screen and the simulator's printed addresses.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// How many times a snapshot waited for a later step because a reader held the slot.
    pub fn deferred(&self) -> u64 {
        self.deferred
    }

    /// What is wrong: the OS random source failed to make the game's tokens (the public page
    /// is still published; the seats' pages are not, until a later change makes them).
    pub fn trouble(&self) -> Option<&str> {
        self.trouble.as_deref()
    }

    /// Publishes the table as `referee` holds it and `screen` (what the OLED shows) says, if
    /// anything changed since the last call. Never blocks.
    pub fn update<S: Store, C: Chance>(&mut self, referee: &Referee<S, C>, screen: &Screen) {
        let chosen = referee.table().is_some();
        let actions = referee.table().and_then(|t| t.actions());
        let in_play = referee.in_play();
        let over = referee.is_over();
        let still = without_clock(screen);
        let same = self.built.as_ref().is_some_and(|b| {
            b.screen == still
                && b.actions == actions
                && b.in_play == in_play
                && b.chosen == chosen
                && b.over == over
        });
        if !same {
            if let Some(before) = &self.built {
                if before.screen != still {
                    self.earlier
                        .push_front(screen_lines(&before.shown).join(" "));
                    self.earlier.truncate(ANNOUNCEMENTS);
                }
                // A game left for the menu, or a finished game followed by a new set-up: its
                // story and its tokens die with it.
                let new_game = (before.chosen && !chosen) || (before.over && !over && !in_play);
                if new_game {
                    self.earlier.clear();
                    self.tokens.clear();
                }
            }
            if !chosen {
                self.tokens.clear();
                self.trouble = None;
            } else if self.tokens.is_empty() {
                // One token for each seat the chosen game has.
                let names = referee
                    .seat_view(Seat::FIRST)
                    .map(|v| v.seat_names)
                    .unwrap_or_default();
                match (0..names.len())
                    .map(|_| Token::fresh())
                    .collect::<Result<Vec<_>, _>>()
                {
                    Ok(tokens) => {
                        self.tokens = tokens;
                        self.trouble = None;
                        self.generation += 1;
                        self.seat_names = names;
                    }
                    Err(e) => self.trouble = Some(e.to_string()),
                }
            }
            self.version += 1;
            // The replay exists only once the game is over: `Referee::replay` says `None`
            // before.
            let replay = referee.replay().map(Arc::new);
            let public = PublicPage::build(screen, &self.earlier).with_replay(replay);
            let seats = self
                .tokens
                .iter()
                .enumerate()
                .filter_map(|(i, token)| {
                    let seat = Seat::new(u8::try_from(i).ok()?);
                    let view = referee.seat_view(seat)?;
                    Some(SeatEntry {
                        token: token.clone(),
                        page: SeatPage::build(view, public.clone()),
                    })
                })
                .collect();
            self.pending = Some(Arc::new(Snapshot {
                version: self.version,
                public: Some(public),
                seats,
                at: Some(Instant::now()),
            }));
            self.built = Some(Built {
                screen: still,
                shown: screen.clone(),
                actions,
                in_play,
                chosen,
                over,
            });
        }
        if let Some(snapshot) = self.pending.take() {
            if let Err(back) = self.slot.try_put(snapshot) {
                self.deferred += 1;
                self.pending = Some(back);
            }
        }
    }
}

#[cfg(test)]
mod tests;
