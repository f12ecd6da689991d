//! What the umpire shows: typed screens, decided by the referee and drawn by `screens`.
//!
//! Announcements are values, rendered to pixels only at the screen (STYLE 8). Everything in a
//! [`Screen`] is already public: the OLED faces the whole table, so the referee must never put
//! into a screen what the rules keep from either seat. Texts are short plain ASCII; the renderer
//! wraps and, where it must, shortens them to fit 128x64.

use std::string::String;
use std::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::sensing::Place;

/// A time of day on a game's clock (Waterloo's 11:00, 11:30, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockTime {
    /// Hours, 0-23.
    pub hour: u8,
    /// Minutes, 0-59.
    pub minute: u8,
}

/// The status line shown at the top of every in-play screen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StatusLine {
    /// Game turn (Waterloo) or move number (Stratego), from 1.
    pub turn: u32,
    /// The game's clock time, for games that have one.
    pub clock: Option<ClockTime>,
    /// Short name of the side to act ("Red", "French").
    pub to_act: String,
    /// Actions the side to act has left this turn, for games with several.
    pub actions_left: Option<u8>,
    /// Turns until reinforcements (the Prussians) arrive, while they are due.
    pub reinforcements_in: Option<u8>,
    /// Real seconds the side to act has used this turn.
    pub elapsed_s: u32,
    /// Optional per-turn limit in seconds: past it the status line warns.
    pub limit_s: Option<u32>,
}

impl StatusLine {
    /// Whether the side to act has gone past the per-turn limit.
    pub fn over_time(&self) -> bool {
        self.limit_s.is_some_and(|limit| self.elapsed_s > limit)
    }
}

/// A square that differs from what the umpire expects, and what belongs there.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Difference {
    /// The place, as written on the board ("e4", "reserve 3").
    pub place: String,
    /// The place `place` names, for the LED guidance (none in frames written before it).
    #[serde(default)]
    pub at: Option<Place>,
    /// What belongs there: "empty", "Red piece", "Blue Scout" (only ranks both players know).
    pub belongs: String,
}

/// One instruction for the players' hands after a decision ("remove e5", "Red Miner to e5").
pub type HandStep = String;

/// The places a screen's words name, as the referee knows them: what the LED guidance lights
/// ([`crate::guidance`]), so it never reads places back out of the words. Never more than the
/// words on the screen name: the LEDs show only what the OLED may show. Empty in frames
/// written before it (`serde(default)`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Places {
    /// The places the hand steps (or a refusal's fix) name: a hand must still change them.
    #[serde(default)]
    pub hands: Vec<Place>,
    /// The places the announced move or action started or ended on, as its words name them.
    #[serde(default)]
    pub moved: Vec<Place>,
    /// The place the announced action fires at ("c4 fires at c7": c7).
    #[serde(default)]
    pub target: Option<Place>,
}

/// Everything the OLED can show.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Screen {
    /// Starting up.
    Boot {
        /// Firmware version.
        version: String,
        /// What is happening ("checking the board", "resuming game 12").
        detail: String,
    },
    /// Choosing a game or a variant: OK selects, Die moves down, Back goes up a level.
    Choice {
        /// What is being chosen ("Game", "Rules").
        title: String,
        /// The entries.
        entries: Vec<String>,
        /// The highlighted entry.
        selected: usize,
        /// The highlight is the chooser's alone (a pick the rules keep secret, such as a
        /// skirmish's): the OLED draws it for the chooser while the others look away, and
        /// the words read anywhere else (logs, the phone pages) highlight no entry.
        #[serde(default)]
        secret: bool,
    },
    /// Set-up guidance for one seat ("Red: place 6 Bombs, then press OK").
    Setup {
        /// Which seat is setting up.
        seat: String,
        /// What to do now.
        instruction: String,
        /// Pieces placed so far in this step.
        placed: u16,
        /// Pieces this step needs.
        needed: u16,
    },
    /// A set-up or a file has problems: each listed, with how to fix it.
    Problems {
        /// What was checked ("Red set-up").
        title: String,
        /// Every problem found.
        problems: Vec<String>,
    },
    /// In play, waiting for the side to act.
    Play {
        /// The status line.
        status: StatusLine,
        /// What the players should do ("Red to move", "lift the target").
        prompt: String,
    },
    /// A move was accepted.
    MoveAccepted {
        /// The status line after the move.
        status: StatusLine,
        /// The move as written ("b4-b6").
        mv: String,
        /// The places the move names.
        #[serde(default)]
        places: Places,
    },
    /// A move was refused.
    Illegal {
        /// The status line.
        status: StatusLine,
        /// Why ("a4-b5: pieces move straight, never diagonally").
        reason: String,
        /// What to do with the hands ("put the piece back on a4").
        fix: String,
        /// The places the fix names.
        #[serde(default)]
        places: Places,
    },
    /// A battle: both ranks as the rules reveal them, the winner, and what the hands must do.
    Battle {
        /// The attacker ("Red Miner").
        attacker: String,
        /// The defender ("Blue Bomb").
        defender: String,
        /// Who won ("Miner wins", "both removed").
        result: String,
        /// What followed, said after the verdict and the hand steps (a cavalry weakened, the
        /// turn's end, the game's end).
        #[serde(default)]
        after: Vec<String>,
        /// What to do with each piece.
        hands: Vec<HandStep>,
        /// The places the hand steps and the action name.
        #[serde(default)]
        places: Places,
    },
    /// What an action did, and what the hands must still do (a fire, an entry, a retreat,
    /// combat dice).
    Told {
        /// The status line after the action.
        status: StatusLine,
        /// What happened, in a few words ("c4 fires at c7").
        title: String,
        /// More about it ("hit: the French piece is eliminated").
        lines: Vec<String>,
        /// What the hands must still do, updated as they do it.
        hands: Vec<HandStep>,
        /// The places the hand steps and the action name.
        #[serde(default)]
        places: Places,
    },
    /// A die was rolled (by the umpire or entered from a physical die).
    DieRoll {
        /// The face ("Red+").
        face: String,
        /// What it means now.
        meaning: String,
    },
    /// The sensed board differs from every legal continuation.
    Mismatch {
        /// Each differing place and what belongs there.
        differences: Vec<Difference>,
    },
    /// The board matches an earlier position: confirm the takeback with OK, or Back to keep
    /// playing.
    Takeback {
        /// Moves that would be taken back.
        moves_back: u32,
        /// The turn play would return to, as the status line counts it.
        to_move_number: u32,
    },
    /// The game is over.
    GameOver {
        /// Who won, or "Draw".
        result: String,
        /// Why.
        reason: String,
    },
    /// Something is wrong outside the game (a sensor, a file): what and how to fix it.
    Error {
        /// What went wrong.
        message: String,
        /// How to fix it.
        fix: String,
    },
    /// `umpire calibrate`: the board as its switches read now, for a builder testing squares.
    Calibrate {
        /// Board columns.
        columns: u8,
        /// Board rows.
        rows: u8,
        /// Cells (row * columns + column) that read occupied now.
        occupied: Vec<u16>,
        /// The cell that read a piece last, lifted since or not: a board larger than the OLED
        /// shows the part holding it, so the window stays with the piece being walked while it
        /// is in the air. `None`: the part holding the first of `occupied`.
        focus: Option<u16>,
        /// Cells that have read occupied at least once this session.
        seen: Vec<u16>,
        /// Squares no place is asked for there (`umpire calibrate --game`: no slot of the
        /// game's map), drawn blank.
        idle: Vec<u16>,
        /// How many of the places asked for (tray slots included) have read a piece.
        walked: u16,
        /// How many places are asked for.
        places: u16,
        /// The tray drawn instead of the squares ("seat 2 reserve"), its slots as cells from
        /// slot 1 up, `columns` a row: the piece read last stands in it.
        tray: Option<String>,
        /// The latest event ("e4 on", "tag 04A1... on e4").
        note: String,
    },
    /// At boot the newest journal was damaged, empty or unreadable: what was found, and what
    /// the players may do (Die moves down, OK chooses).
    Recovery {
        /// What was found ("36 of 37 moves intact").
        found: String,
        /// What a choice does, or where the file is kept.
        detail: String,
        /// The choices ("Resume 36 moves", "New game").
        entries: Vec<String>,
        /// The highlighted choice.
        selected: usize,
    },
    /// The umpire cannot start or run: a part is missing or misconfigured. Shown from boot
    /// (before any game) and while a part is lost; the service keeps retrying and goes on by
    /// itself once the part answers.
    Fault {
        /// The part, in a word or two ("Sensors", "OLED", "Config"): the title.
        part: String,
        /// What is wrong, shortest first ("/dev/spidev0.1 missing").
        problem: String,
        /// How to fix it ("enable SPI: sudo umpire setup").
        fix: String,
        /// How many other faults wait behind this one.
        more: u16,
    },
    /// Handing out the phone pages' codes ([`crate::web::handout`]): asks one seat to press
    /// OK for its code while the others look away. Holds no code.
    PhoneAsk {
        /// The seat asked ("Red").
        seat: String,
        /// Whether other seats follow (Die moves on to them).
        more: bool,
    },
    /// One seat's phone code: its page's address as a QR code and in text. Shown only after
    /// that seat pressed OK, closed by the next button or a moved piece, and never logged:
    /// it is the one screen that holds a secret, the seat's own key.
    PhoneCode {
        /// The seat it belongs to ("Red").
        seat: String,
        /// The page's address.
        url: SeatUrl,
    },
}

/// A seat's page address (with its token), as the OLED's code shows it: never in a log, so
/// its `Debug` hides it.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatUrl(pub String);

impl core::fmt::Debug for SeatUrl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SeatUrl(..)")
    }
}

impl Screen {
    /// The screen announcing an action, with the places the action's words name (`moved`,
    /// `target` of `action`): the announcements that name an action keep them, the others are
    /// unchanged.
    #[must_use]
    pub fn naming(mut self, action: Places) -> Screen {
        if let Screen::MoveAccepted { places, .. }
        | Screen::Battle { places, .. }
        | Screen::Told { places, .. } = &mut self
        {
            places.moved = action.moved;
            places.target = action.target;
        }
        self
    }
}
