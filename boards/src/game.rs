//! The shape every game shares: who acts, what may be done, what happened, who sees what.
//!
//! A game is a value of a type implementing [`Game`]. Its immutable parameters (variant, named
//! rule options) are fixed when it is built from an untrusted [`Game::Setup`]; after that it only
//! changes by [`Game::play`] (checked) or [`Game::play_unchecked`] (trusted, for replaying a
//! journal). Chance is never rolled inside: when the rules call for a die or a draw,
//! [`Game::to_act`] answers [`Actor::Chance`] and the outcome arrives as an ordinary action, so a
//! game replays exactly from its action list.

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::seat::Seat;

/// Who must act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Actor {
    /// A player: only this seat's actions are legal now.
    Seat(Seat),
    /// The rules call for a chance outcome (a die face, a card drawn); see
    /// [`Game::chance_outcomes`].
    Chance,
    /// The game is over.
    Nobody,
}

/// Whether the game goes on, and if not, how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status<R> {
    /// The game goes on.
    Ongoing,
    /// `winner` won for `reason`.
    Won {
        /// The seat that won.
        winner: Seat,
        /// Why the game ended.
        reason: R,
    },
    /// Nobody won, for `reason`.
    Drawn {
        /// Why the game ended.
        reason: R,
    },
}

impl<R> Status<R> {
    /// True unless the game is over.
    pub fn is_ongoing(&self) -> bool {
        matches!(self, Status::Ongoing)
    }
}

/// Every problem found in an untrusted set-up, reported at once.
///
/// Displays as a count and a list, short enough for the OLED: "2 problems: no Flag; 9 Scouts (max
/// 8)".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problems<E>(pub Vec<E>);

impl<E> Problems<E> {
    /// The problems, in the order they were found.
    pub fn as_slice(&self) -> &[E] {
        &self.0
    }

    /// `Ok(ok)` when there are none.
    ///
    /// # Errors
    /// `self`, when it holds at least one problem.
    pub fn into_result<T>(self, ok: T) -> Result<T, Self> {
        if self.0.is_empty() {
            Ok(ok)
        } else {
            Err(self)
        }
    }
}

impl<E: fmt::Display> fmt::Display for Problems<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.len() {
            0 => return f.write_str("no problems"),
            1 => f.write_str("1 problem: ")?,
            n => write!(f, "{n} problems: ")?,
        }
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl<E: fmt::Display + fmt::Debug> std::error::Error for Problems<E> {}

/// A game's rules, state and per-seat views.
///
/// Implementations keep the whole truth, including every secret; only [`Game::view`] may be shown
/// to a seat, and it returns a different type that cannot carry what the rules keep from that
/// seat.
pub trait Game: Clone + PartialEq + fmt::Debug + Sized {
    /// Immutable parameters: variant and named rule options.
    type Options: Clone + fmt::Debug;
    /// Untrusted description of the starting position (a deployment, a layout).
    type Setup;
    /// One problem with a set-up.
    type SetupProblem: fmt::Debug + fmt::Display;
    /// Something a seat, or chance, does.
    type Action: Clone + PartialEq + fmt::Debug;
    /// Why an action was refused; typed so the referee can say how to fix it.
    type Illegal: fmt::Debug + fmt::Display;
    /// What happened when an action was played (a battle, a reveal), for the referee to announce.
    type Outcome: fmt::Debug;
    /// What one seat may see of the game.
    type View: fmt::Debug;
    /// Why a game ended.
    type EndReason: Clone + fmt::Debug + fmt::Display;

    /// Validates `setup` under `options` into a playable game.
    ///
    /// # Errors
    /// Every problem with the set-up, all at once.
    fn start(
        options: Self::Options,
        setup: Self::Setup,
    ) -> Result<Self, Problems<Self::SetupProblem>>;

    /// The parameters this game was started with.
    fn options(&self) -> &Self::Options;

    /// Who must act next.
    fn to_act(&self) -> Actor;

    /// Whether the game goes on.
    fn status(&self) -> Status<Self::EndReason>;

    /// Every legal action of the seat to act, or every chance outcome when chance acts.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// The chance outcomes possible now with their relative weights, empty unless
    /// [`Game::to_act`] is [`Actor::Chance`].
    fn chance_outcomes(&self) -> Vec<(Self::Action, u32)> {
        Vec::new()
    }

    /// Whether `action` is legal now.
    ///
    /// # Errors
    /// Why it is not.
    fn check(&self, action: &Self::Action) -> Result<(), Self::Illegal>;

    /// Plays an action known to be legal (from [`Game::legal_actions`] or a verified journal).
    ///
    /// The result of playing an illegal action is unspecified but never undefined behaviour.
    fn play_unchecked(&mut self, action: &Self::Action) -> Self::Outcome;

    /// Plays `action` if it is legal.
    ///
    /// # Errors
    /// Why it is not legal; the game is then unchanged.
    fn play(&mut self, action: &Self::Action) -> Result<Self::Outcome, Self::Illegal> {
        self.check(action)?;
        Ok(self.play_unchecked(action))
    }

    /// What `seat` may see now.
    fn view(&self, seat: Seat) -> Self::View;

    /// Every seat that won, in seat order: a side of several seats wins together (Napoléon's
    /// Allies with three players, rulebook 11), where [`Status::Won`] names one seat of it.
    /// Empty while the game goes on and after a draw.
    fn winners(&self) -> Vec<Seat> {
        match self.status() {
            Status::Won { winner, .. } => alloc::vec![winner],
            Status::Drawn { .. } | Status::Ongoing => Vec::new(),
        }
    }
}

/// Why a replay stopped.
#[derive(Debug)]
pub enum ReplayError<G: Game> {
    /// The set-up itself is not playable.
    Setup(Problems<G::SetupProblem>),
    /// Action number `index` (from 0) was refused.
    Illegal {
        /// Position of the refused action in the list.
        index: usize,
        /// Why it was refused.
        reason: G::Illegal,
    },
}

impl<G: Game> fmt::Display for ReplayError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Setup(p) => write!(f, "the set-up is not playable: {p}"),
            ReplayError::Illegal { index, reason } => {
                write!(f, "action {} is illegal: {reason}", index + 1)
            }
        }
    }
}

/// Replays `actions` from `setup`, checking each one.
///
/// # Errors
/// The set-up's problems, or the first refused action with its position.
pub fn replay<G: Game>(
    options: G::Options,
    setup: G::Setup,
    actions: &[G::Action],
) -> Result<G, ReplayError<G>> {
    let mut game = G::start(options, setup).map_err(ReplayError::Setup)?;
    for (index, action) in actions.iter().enumerate() {
        game.play(action)
            .map_err(|reason| ReplayError::Illegal { index, reason })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn problems_read_as_a_short_list() {
        let p = Problems(vec!["no Flag", "9 Scouts (max 8)"]);
        assert_eq!(p.to_string(), "2 problems: no Flag; 9 Scouts (max 8)");
        assert_eq!(Problems(vec!["x"]).to_string(), "1 problem: x");
        assert_eq!(Problems::<&str>(vec![]).into_result(3), Ok(3));
    }
}
