//! Helpers shared by the Piecepack test files (`mod support;` in each).

use boards::piecepack::{Action, Face, Square, Unit};

/// Every action of the Piecepack action space (of any phase): the universe the tests check
/// `legal_actions` against `check` over.
pub fn action_space() -> Vec<Action> {
    let mut all = vec![
        Action::EndMovement,
        Action::EndReinforcement,
        Action::Eliminate(None),
        Action::Advance(None),
    ];
    all.extend(Face::ALL.map(Action::Roll));
    for u in Unit::ALL {
        all.push(Action::Eliminate(Some(u)));
        all.push(Action::Advance(Some(u)));
        for s in Square::all() {
            all.push(Action::Move { unit: u, to: s });
            all.push(Action::Designate { unit: u, target: s });
            all.push(Action::Retreat { unit: u, to: s });
            all.push(Action::Enter { unit: u, at: s });
        }
    }
    all.extend(Square::all().map(|target| Action::Resolve { target }));
    all
}
