//! Handing each seat its phone code on the OLED, seat by seat, so no other player catches it.
//!
//! When a game's tokens are made (a game chosen, before set-up; a game resumed after a
//! restart, whose old links died with the old tokens), and whenever a player picks "Phone
//! pages" in the OK menu ([`Decision::PhonePages`](crate::referee::Decision::PhonePages)), the
//! OLED goes seat by seat:
//!
//! | screen | OK | Die | Back |
//! |---|---|---|---|
//! | "Red: press OK to show your code (others look away)" ([`Screen::PhoneAsk`]) | shows Red's code | next seat | closes |
//! | Red's QR code and address ([`Screen::PhoneCode`]) | hides it, next seat | hides it, next seat | hides it, closes |
//!
//! A code left up for [`CODE_SHOWN_MS`] is hidden by itself, as by OK. After a code is hidden
//! the next seat's question ignores OK for [`ASK_CALM_MS`] (Die and Back still work): a bounce
//! or an impatient double press on the last code must not put the next seat's code up before
//! that seat is at the OLED. After the last seat the
//! game's own screen is back. A seat's code is built only when that
//! seat presses OK on its own question, and dropped as soon as anything happens: so no screen
//! before it holds it, and the next seat's question never does.
//!
//! **The table goes on.** The hand-out takes only the buttons; the scans reach the referee as
//! ever. A piece lifted or put down (the sensed board changes) closes the hand-out at once (a
//! code on the screen is hidden) and the move is handled as it would have been, its screen
//! shown. The buttons are the hand-out's only while it is open; the service closes it when the
//! sensors' fault takes the OLED (a code cannot be shown then, nor a press be seen).
//!
//! **Never logged.** The service logs the referee's screens only; a [`Screen::PhoneCode`]
//! lives only in the OLED's frame and in this struct, and its `Debug` hides the address.

use std::collections::BTreeSet;

use crate::sensing::{Button, Millis, Place};
use crate::ui::{Screen, SeatUrl};

use super::link::Address;
use super::Publisher;

/// How long a code stays up without a press: then it is hidden as by OK (the next seat is
/// asked), so a code left on the OLED is not there for whoever looks next.
pub const CODE_SHOWN_MS: u64 = 30_000;

/// How long the next seat's question ignores OK after a code was hidden: a quick second press
/// meant for the code just hidden never shows the next seat's.
pub const ASK_CALM_MS: u64 = 1_500;

/// The seat-by-seat hand-out of the phone codes: closed, or at one seat.
#[derive(Debug)]
pub struct Handout {
    address: Address,
    /// The publisher's token generation last followed.
    generation: u64,
    walk: Option<Walk>,
}

/// An open hand-out.
#[derive(Debug)]
struct Walk {
    seats: Vec<String>,
    at: usize,
    /// What the OLED shows for the seat at `at` after its OK: its code, or why there is none.
    shown: Option<Screen>,
    /// The sensed board when it opened: any change closes it.
    board: BTreeSet<Place>,
    /// The token generation its seats belong to.
    generation: u64,
    /// When the code on the screen was first seen up by [`Handout::tick`].
    since: Option<Millis>,
    /// A code was just hidden: OK is ignored until [`ASK_CALM_MS`] after [`Handout::tick`]
    /// first saw it (`Some(None)`: hidden, not yet seen by a tick).
    calm: Option<Option<Millis>>,
}

impl Walk {
    /// The next seat asked (the code on the screen, if any, hidden: OK is then calmed);
    /// `false` after the last.
    fn next_seat(&mut self) -> bool {
        if self.shown.take().is_some() {
            self.calm = Some(None);
        }
        self.since = None;
        self.at += 1;
        self.at < self.seats.len()
    }
}

impl Handout {
    /// A closed hand-out whose codes point at `address`.
    pub fn new(address: Address) -> Handout {
        Handout {
            address,
            generation: 0,
            walk: None,
        }
    }

    /// Follows the table after each publish: a new game's tokens (a new
    /// [`Publisher::generation`]) open the hand-out at the first seat; tokens gone (back at
    /// the game menu) or another game's close it; a sensed board other than the one it opened
    /// on (a piece moved) closes it.
    pub fn follow(&mut self, publisher: &Publisher, board: &BTreeSet<Place>) {
        let live = !publisher.tokens().is_empty();
        if live && publisher.generation() != self.generation {
            self.generation = publisher.generation();
            self.open(publisher, board);
            return;
        }
        let stale = self
            .walk
            .as_ref()
            .is_some_and(|w| !live || w.generation != publisher.generation() || w.board != *board);
        if stale {
            self.walk = None;
        }
    }

    /// Opens the hand-out at the first seat (the OK menu's "Phone pages"), if the game has
    /// tokens; the sensed board is `board`.
    pub fn open(&mut self, publisher: &Publisher, board: &BTreeSet<Place>) {
        if publisher.tokens().is_empty() || publisher.seat_names().is_empty() {
            return;
        }
        self.generation = publisher.generation();
        self.walk = Some(Walk {
            seats: publisher.seat_names().to_vec(),
            at: 0,
            shown: None,
            board: board.clone(),
            generation: publisher.generation(),
            since: None,
            calm: None,
        });
    }

    /// Whether the hand-out holds the OLED and the buttons.
    pub fn is_open(&self) -> bool {
        self.walk.is_some()
    }

    /// Closes it (the game's own screen is back).
    pub fn close(&mut self) {
        self.walk = None;
    }

    /// A button pressed while it is open (see the module's table); `false` when closed (the
    /// press is the referee's). The seat's code is built here, from `publisher`'s token for
    /// it and the address resolved now.
    pub fn press(&mut self, button: Button, publisher: &Publisher) -> bool {
        let Some(walk) = self.walk.as_mut() else {
            return false;
        };
        let showing = walk.shown.is_some();
        match (button, showing) {
            // Too soon after the last code was hidden: not this seat's OK yet.
            (Button::Ok, false) if walk.calm.is_some() => {}
            (Button::Ok, false) => {
                let seat = walk.seats.get(walk.at).cloned().unwrap_or_default();
                walk.shown = Some(match publisher.tokens().get(walk.at) {
                    Some(token) => match self.address.resolve() {
                        Ok(origin) => Screen::PhoneCode {
                            seat,
                            url: SeatUrl(origin.seat_url(token)),
                        },
                        Err(e) => Screen::Fault {
                            part: "Phone pages".into(),
                            problem: e.problem(),
                            fix: e.fix().into(),
                            more: 0,
                        },
                    },
                    None => Screen::Fault {
                        part: "Phone pages".into(),
                        problem: "No code for this game yet".into(),
                        fix: "press OK again in a moment; if it persists, restart the umpire"
                            .into(),
                        more: 0,
                    },
                });
            }
            (Button::Back, _) => self.walk = None,
            (Button::Ok | Button::Die, _) => {
                if !walk.next_seat() {
                    self.walk = None;
                }
            }
        }
        true
    }

    /// Time passes (every step): a code up for [`CODE_SHOWN_MS`] is hidden and the next seat
    /// asked, as OK would.
    pub fn tick(&mut self, now: Millis) {
        let Some(walk) = self.walk.as_mut() else {
            return;
        };
        match walk.calm {
            Some(None) => walk.calm = Some(Some(now)),
            Some(Some(since)) if now.0.saturating_sub(since.0) >= ASK_CALM_MS => walk.calm = None,
            _ => {}
        }
        if walk.shown.is_none() {
            walk.since = None;
            return;
        }
        match walk.since {
            None => walk.since = Some(now),
            Some(since) if now.0.saturating_sub(since.0) >= CODE_SHOWN_MS => {
                if !walk.next_seat() {
                    self.walk = None;
                }
            }
            Some(_) => {}
        }
    }

    /// What the OLED shows instead of the game's screen while open.
    pub fn screen(&self) -> Option<Screen> {
        let walk = self.walk.as_ref()?;
        if let Some(shown) = &walk.shown {
            return Some(shown.clone());
        }
        Some(Screen::PhoneAsk {
            seat: walk.seats.get(walk.at).cloned().unwrap_or_default(),
            more: walk.at + 1 < walk.seats.len(),
        })
    }
}
