//! Untrusted set-ups: deployments read from text, gestures or tags, validated with every problem
//! listed.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use super::rank::{Rank, Variant};
use super::square::Square;
use super::{seat_name, RED};
use crate::{BySeat, Problems, Seat};

/// One player's placement of their army, as given: it may be wrong in any way until validated.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deployment {
    /// Squares and the rank placed on each, in the order given.
    pub placements: Vec<(Square, Rank)>,
}

/// Both players' deployments: the input to [`Position`](super::Position)'s `Game::start`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Red's and Blue's deployments.
    pub deployments: BySeat<Deployment>,
}

/// One problem with a deployment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetupProblem {
    /// A piece stands outside the player's set-up rows (this includes the lakes and the middle).
    OutsideZone {
        /// Whose piece.
        seat: Seat,
        /// Where it was put.
        square: Square,
    },
    /// Two pieces were put on one square.
    SquareTwice {
        /// Whose pieces.
        seat: Seat,
        /// The square.
        square: Square,
    },
    /// The number of pieces of a rank differs from the army list.
    WrongCount {
        /// Whose army.
        seat: Seat,
        /// The rank.
        rank: Rank,
        /// How many were placed.
        placed: u8,
        /// How many the army has.
        required: u8,
    },
}

impl SetupProblem {
    /// The seat whose deployment has this problem.
    pub fn seat(&self) -> Seat {
        match *self {
            SetupProblem::OutsideZone { seat, .. }
            | SetupProblem::SquareTwice { seat, .. }
            | SetupProblem::WrongCount { seat, .. } => seat,
        }
    }
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = seat_name(self.seat());
        match *self {
            SetupProblem::OutsideZone { square, .. } => {
                write!(f, "{name}: {square} is outside {name}'s set-up rows")
            }
            SetupProblem::SquareTwice { square, .. } => write!(f, "{name}: two pieces on {square}"),
            SetupProblem::WrongCount {
                rank,
                placed,
                required,
                ..
            } => match (placed, required) {
                (0, 1) => write!(f, "{name}: no {rank}"),
                (0, _) => write!(f, "{name}: no {} (place {required})", rank.plural()),
                (p, r) if p > r => {
                    let noun = if p == 1 { rank.name() } else { rank.plural() };
                    write!(f, "{name}: {p} {noun} (max {r})")
                }
                (p, r) => {
                    let noun = if p == 1 { rank.name() } else { rank.plural() };
                    write!(f, "{name}: {p} {noun} (need {r})")
                }
            },
        }
    }
}

/// A problem reading a deployment or a board diagram from text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseProblem {
    /// 1-based line of the text.
    pub line: usize,
    /// What is wrong and how to write it instead.
    pub message: String,
}

impl fmt::Display for ParseProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A problem with a board diagram given to
/// [`Position::from_diagram`](super::Position::from_diagram).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DiagramProblem {
    /// The text could not be read.
    Parse(ParseProblem),
    /// A piece stands on a lake.
    OnLake(Square),
    /// More pieces of a rank than the variant's army has.
    TooMany {
        /// Whose pieces.
        seat: Seat,
        /// The rank.
        rank: Rank,
        /// How many are on the board.
        count: u8,
        /// The army's number.
        max: u8,
    },
}

impl fmt::Display for DiagramProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramProblem::Parse(p) => p.fmt(f),
            DiagramProblem::OnLake(s) => write!(f, "{s} is a lake: no piece may stand there"),
            DiagramProblem::TooMany {
                seat,
                rank,
                count,
                max,
            } => write!(
                f,
                "{}: {count} {} (the army has {max})",
                seat_name(*seat),
                rank.plural()
            ),
        }
    }
}

/// The rows (0-based) of `seat`'s set-up zone in `variant`.
pub(crate) fn zone_rows(variant: Variant, seat: Seat) -> core::ops::Range<u8> {
    let n = variant.setup_rows();
    if seat == RED {
        0..n
    } else {
        10 - n..10
    }
}

impl Deployment {
    /// An empty deployment.
    pub fn new() -> Deployment {
        Deployment::default()
    }

    /// Adds `rank` on `square`.
    pub fn place(&mut self, square: Square, rank: Rank) {
        self.placements.push((square, rank));
    }

    /// `seat`'s whole army placed uniformly at random over its set-up rows, the randomness
    /// supplied by `pick(n)`, which must return an index below `n` (so the rules stay free of
    /// any RNG).
    pub fn shuffled(
        variant: Variant,
        seat: Seat,
        mut pick: impl FnMut(usize) -> usize,
    ) -> Deployment {
        let mut squares: Vec<Square> = zone_rows(variant, seat)
            .flat_map(|row| (0..10).filter_map(move |col| Square::new(col, row)))
            .collect();
        // Fisher-Yates.
        for i in (1..squares.len()).rev() {
            squares.swap(i, pick(i + 1).min(i));
        }
        let army = Rank::ALL
            .iter()
            .flat_map(|&r| core::iter::repeat_n(r, usize::from(variant.count(r))));
        Deployment {
            placements: squares.into_iter().zip(army).collect(),
        }
    }

    /// Checks this deployment as `seat`'s army in `variant`.
    ///
    /// # Errors
    /// Every problem: pieces outside the set-up rows, squares used twice, and each rank whose
    /// count differs from the army list.
    pub fn validate(&self, variant: Variant, seat: Seat) -> Result<(), Problems<SetupProblem>> {
        let mut problems = Vec::new();
        self.collect_problems(variant, seat, &mut problems);
        Problems(problems).into_result(())
    }

    pub(crate) fn collect_problems(
        &self,
        variant: Variant,
        seat: Seat,
        problems: &mut Vec<SetupProblem>,
    ) {
        let rows = zone_rows(variant, seat);
        let mut used = [false; 100];
        let mut counts = [0u32; 13];
        for &(square, rank) in &self.placements {
            counts[usize::from(rank.code())] += 1;
            if !rows.contains(&square.row()) {
                problems.push(SetupProblem::OutsideZone { seat, square });
            } else if core::mem::replace(&mut used[square.index()], true) {
                problems.push(SetupProblem::SquareTwice { seat, square });
            }
        }
        // Flag and Bombs first, then Marshal down to Spy: the order a player checks an army in.
        for &rank in Rank::ALL.iter().rev() {
            let placed = counts[usize::from(rank.code())];
            let required = variant.count(rank);
            if placed != u32::from(required) {
                problems.push(SetupProblem::WrongCount {
                    seat,
                    rank,
                    placed: u8::try_from(placed).unwrap_or(u8::MAX),
                    required,
                });
            }
        }
    }

    /// Reads `seat`'s set-up rows as seen from above the board with Red at the bottom: one line
    /// per row, the row farthest from Red first, ten characters per line (`F B S 2`-`9 M`, `.` for
    /// an empty square; spaces are ignored).
    ///
    /// # Errors
    /// Every line with the wrong number of squares or a character that is not a rank.
    pub fn parse(
        variant: Variant,
        seat: Seat,
        text: &str,
    ) -> Result<Deployment, Problems<ParseProblem>> {
        let rows = zone_rows(variant, seat);
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        let mut problems = Vec::new();
        let mut deployment = Deployment::new();
        if lines.len() != rows.len() {
            problems.push(ParseProblem {
                line: lines.last().map_or(1, |l| l.0),
                message: alloc::format!(
                    "{} set-up needs {} rows, found {}",
                    seat_name(seat),
                    rows.len(),
                    lines.len()
                ),
            });
        }
        for (k, (line, text)) in lines.iter().enumerate().take(rows.len()) {
            let row = rows.end - 1 - k as u8;
            let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
            if chars.len() != 10 {
                problems.push(ParseProblem {
                    line: *line,
                    message: alloc::format!("a row has 10 squares, found {}", chars.len()),
                });
                continue;
            }
            for (col, &c) in chars.iter().enumerate() {
                if c == '.' {
                    continue;
                }
                match (Rank::from_char(c), Square::new(col as u8, row)) {
                    (Some(rank), Some(square)) => deployment.place(square, rank),
                    _ => problems.push(ParseProblem {
                        line: *line,
                        message: alloc::format!(
                            "'{c}' is not a rank: write F B S 2-9 M, or . for an empty square"
                        ),
                    }),
                }
            }
        }
        Problems(problems).into_result(deployment)
    }

    /// Writes the deployment in the form [`Deployment::parse`] reads.
    pub fn to_text(&self, variant: Variant, seat: Seat) -> String {
        let mut grid = [['.'; 10]; 10];
        for &(s, r) in &self.placements {
            grid[usize::from(s.row())][usize::from(s.col())] = r.to_char();
        }
        let mut out = String::new();
        for row in zone_rows(variant, seat).rev() {
            for (col, c) in grid[usize::from(row)].iter().enumerate() {
                if col > 0 {
                    out.push(' ');
                }
                out.push(*c);
            }
            out.push('\n');
        }
        out
    }
}

impl Setup {
    /// Both deployments read with [`Deployment::parse`].
    ///
    /// # Errors
    /// Every problem of both texts.
    pub fn parse(variant: Variant, red: &str, blue: &str) -> Result<Setup, Problems<ParseProblem>> {
        let r = Deployment::parse(variant, RED, red);
        let b = Deployment::parse(variant, RED.opponent(), blue);
        match (r, b) {
            (Ok(r), Ok(b)) => Ok(Setup {
                deployments: BySeat([r, b]),
            }),
            (r, b) => {
                let mut all = Vec::new();
                for result in [r, b] {
                    if let Err(p) = result {
                        all.extend(p.0);
                    }
                }
                Err(Problems(all))
            }
        }
    }

    /// Both armies placed uniformly at random, Red's first; see [`Deployment::shuffled`].
    pub fn shuffled(variant: Variant, mut pick: impl FnMut(usize) -> usize) -> Setup {
        let red = Deployment::shuffled(variant, RED, &mut pick);
        let blue = Deployment::shuffled(variant, RED.opponent(), &mut pick);
        Setup {
            deployments: BySeat([red, blue]),
        }
    }

    /// Checks both deployments.
    ///
    /// # Errors
    /// Every problem of both.
    pub fn validate(&self, variant: Variant) -> Result<(), Problems<SetupProblem>> {
        let mut problems = Vec::new();
        for (seat, d) in self.deployments.iter() {
            d.collect_problems(variant, seat, &mut problems);
        }
        Problems(problems).into_result(())
    }
}

/// A seat's letter in the diagram format: `r` for Red, `b` for Blue.
pub(crate) fn seat_letter(seat: Seat) -> char {
    if seat == RED {
        'r'
    } else {
        'b'
    }
}

/// Renders a 10x10 grid of two-character tokens with rank labels on the left and file letters
/// below: the diagram format of [`Position::from_diagram`](super::Position::from_diagram).
pub(crate) fn write_grid(out: &mut String, token: impl Fn(Square) -> [char; 2]) {
    for row in (0..10u8).rev() {
        let _ = write!(out, "{:>2} ", row + 1);
        for col in 0..10u8 {
            if let Some(s) = Square::new(col, row) {
                let [a, b] = token(s);
                out.push(a);
                out.push(b);
                if col < 9 {
                    out.push(' ');
                }
            }
        }
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h  i  j\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    const RED_TEXT: &str = "
        2 2 2 2 2 2 2 2 3 3
        3 3 3 4 4 4 4 5 5 5
        5 6 6 6 6 7 7 7 8 8
        9 M S F B B B B B B";

    #[test]
    fn a_full_army_parses_and_validates() {
        let d = Deployment::parse(Variant::Classic, RED, RED_TEXT).unwrap();
        assert_eq!(d.placements.len(), 40);
        assert_eq!(d.validate(Variant::Classic, RED), Ok(()));
        // The flag was on the fourth square of Red's back row.
        assert!(d
            .placements
            .contains(&(Square::parse("d1").unwrap(), Rank::Flag)));
        let again =
            Deployment::parse(Variant::Classic, RED, &d.to_text(Variant::Classic, RED)).unwrap();
        assert_eq!(again, d);
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        // A Scout where the Flag should be: no Flag, 9 Scouts.
        let text = RED_TEXT.replace('F', "2");
        let d = Deployment::parse(Variant::Classic, RED, &text).unwrap();
        let err = d.validate(Variant::Classic, RED).unwrap_err();
        assert_eq!(
            err.to_string(),
            "2 problems: Red: no Flag; Red: 9 Scouts (max 8)"
        );
    }

    #[test]
    fn squares_outside_the_zone_and_doubles_are_named() {
        let mut d = Deployment::new();
        d.place(Square::parse("e5").unwrap(), Rank::Flag);
        d.place(Square::parse("a1").unwrap(), Rank::Spy);
        d.place(Square::parse("a1").unwrap(), Rank::Scout);
        let err = d.validate(Variant::Duel, RED).unwrap_err();
        assert!(err.0.contains(&SetupProblem::OutsideZone {
            seat: RED,
            square: Square::parse("e5").unwrap()
        }));
        assert!(err.0.contains(&SetupProblem::SquareTwice {
            seat: RED,
            square: Square::parse("a1").unwrap()
        }));
        // Duel: a Marshal, a General, 2 Miners, 1 Scout of 2, 2 Bombs missing.
        assert_eq!(err.0.len(), 2 + 5);
    }

    #[test]
    fn parse_errors_name_the_line() {
        let err = Deployment::parse(Variant::Duel, RED, "..........\n...x......\n..........")
            .unwrap_err();
        assert_eq!(err.0.len(), 1);
        assert_eq!(err.0[0].line, 2);
        let err = Deployment::parse(Variant::Duel, RED, "..........").unwrap_err();
        assert!(err.to_string().contains("needs 3 rows, found 1"));
    }
}
