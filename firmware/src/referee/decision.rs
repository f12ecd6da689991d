//! What the referee decided: typed announcements for logs, tests and the simulator.

use boards::stratego::{Battle, Move};
use boards::{Actor, Seat};

use crate::sensing::{Button, SensingFault};
use crate::ui::Difference;

/// What the referee decided. Every game speaks through the same decisions; Stratego reports its
/// moves and battles in its own terms ([`Decision::Moved`], [`Decision::Battle`]). They carry
/// nothing the table may not know: a battle's ranks are revealed by the battle itself, and a
/// refusal gives the public reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A game and its set-up were chosen from the menu; the journal is started.
    GameChosen {
        /// The game and variant, as the menu names it ("Stratego Duel: By rank groups").
        game: String,
    },
    /// A set-up group was taken: the places that filled now hold it.
    GroupPlaced {
        /// Whose group.
        seat: Seat,
        /// The group, as the OLED asked for it ("2 Bombs").
        group: String,
        /// How many places it took.
        count: usize,
    },
    /// A set-up group was undone with Back.
    GroupUndone {
        /// Whose group.
        seat: Seat,
        /// The group.
        group: String,
    },
    /// A seat's army was validated and journaled.
    Deployed(Seat),
    /// The set-up has problems, every one listed.
    SetupProblems(Vec<String>),
    /// Both armies are placed: play begins.
    GameStarted,
    /// A Stratego move to an empty square was accepted and journaled.
    Moved {
        /// Who moved.
        seat: Seat,
        /// The move.
        mv: Move,
    },
    /// A Stratego attack was accepted, journaled and resolved.
    Battle(Battle),
    /// An action (or chance outcome) was accepted, journaled and played.
    Acted {
        /// Who acted (chance for a die or a draw).
        actor: Actor,
        /// The action in words the table may read.
        action: String,
    },
    /// An action the board showed was refused; the board must be put back.
    Refused {
        /// The action, in public words.
        action: String,
        /// Why, in public words.
        reason: String,
    },
    /// With NFC: a move whose placed piece's tag is not the piece lifted; refused.
    WrongPiece {
        /// The action the occupancy showed, in public words.
        action: String,
    },
    /// The hands finished what an action asked of them.
    HandsDone,
    /// The board has differed for the settle time: these places differ.
    Mismatch(Vec<Difference>),
    /// The board matches the expected one again.
    BoardMatches,
    /// The board equals the game after `to_ply` actions: OK to take back.
    TakebackOffered {
        /// Actions that would remain played.
        to_ply: u32,
    },
    /// The last mover carried the piece on before the other side touched anything: the last
    /// action was taken back and replaced (both journaled).
    MoveCorrected {
        /// The action first read, in public words.
        was: String,
        /// The action played instead.
        now: String,
    },
    /// A takeback was confirmed and journaled.
    TookBack {
        /// Actions that remain played.
        to_ply: u32,
    },
    /// A takeback was declined with Back.
    TakebackDeclined,
    /// A menu of actions opened (OK, or a gesture that means several actions).
    MenuOpened {
        /// Why it opened.
        title: String,
        /// Its entries.
        entries: Vec<String>,
    },
    /// A menu was closed with Back.
    MenuClosed,
    /// The game is over.
    GameOver {
        /// Who won ("Red wins"), or "Draw".
        result: String,
        /// Why.
        reason: String,
    },
    /// A button did nothing here, and why.
    Ignored {
        /// The button.
        button: Button,
        /// Why nothing happened.
        why: String,
    },
    /// A tag could not be used (unknown, unread, read on two places).
    TagProblem(String),
    /// The sensing layer reported a fault.
    Fault(SensingFault),
    /// The journal could not be written: nothing was decided; the message says how to fix it.
    JournalFailed(String),
    /// A place reads a piece that no hand put there (a ghost or stuck switch, or a piece whose
    /// tag cannot be read): it is no move; the OLED names it until it is put right.
    Ghost {
        /// The place, as the OLED names it.
        place: String,
        /// The action read from it before the ghost showed, now taken back (journaled), in
        /// public words.
        undone: Option<String>,
    },
    /// "Phone pages" was chosen in the OK menu (`[web]` on): the OLED hands each seat its
    /// phone code again ([`crate::web::handout`]). Nothing is journaled.
    PhonePages,
}

/// The OK menu's last entry while the phone pages are served: hands out the seats' codes.
pub const PHONE_PAGES: &str = "Phone pages";
