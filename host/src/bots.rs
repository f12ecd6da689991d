//! Computer players for the simulator.
//!
//! A bot sees exactly what a player at the table sees: its own seat's [`View`] and the list of
//! legal moves (which follows from the board and the public move history alone). It is never
//! handed the [`Position`](boards::stratego::Position), so it cannot peek at hidden ranks: the
//! type of [`Bot::choose`] is the guarantee.

use boards::stratego::{Battle, BattleResult, Move, Rank, Seen, Square, Variant, View, RED};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// What capturing the Flag is worth to the bot, in the units of [`value`]. Kept modest so that
/// the chance an unmoved piece is the Flag draws attacks without making every piece a kamikaze.
const FLAG_VALUE: f64 = 60.0;
/// How much learning an unknown rank is worth when an expendable piece finds it out.
const SCOUTING_BONUS: f64 = 2.0;
/// Random jitter added to every move's score; it breaks ties and makes "sometimes" happen.
const NOISE: f64 = 2.0;

/// How much a piece of `rank` is worth to its owner, roughly.
pub fn value(rank: Rank) -> f64 {
    match rank {
        Rank::Flag => FLAG_VALUE,
        Rank::Bomb => 5.0,
        Rank::Spy => 6.0,
        Rank::Scout => 2.0,
        Rank::Miner => 5.0,
        Rank::Sergeant => 3.0,
        Rank::Lieutenant => 4.0,
        Rank::Captain => 5.0,
        Rank::Major => 7.0,
        Rank::Colonel => 9.0,
        Rank::General => 12.0,
        Rank::Marshal => 16.0,
    }
}

/// A simple seeded Stratego player.
///
/// It prefers, in this order of weight: taking a revealed enemy piece it beats; keeping out of
/// reach of revealed pieces that beat it; attacking unknown pieces when the odds (worked out from
/// what is still unaccounted for in the enemy army) or the value of scouting favour it; and
/// otherwise marching forward and towards enemy pieces it may beat. Seeded randomness breaks ties,
/// so a game is the same for the same seed.
#[derive(Clone, Debug)]
pub struct Bot {
    rng: Pcg64Mcg,
}

impl Bot {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Bot {
        Bot {
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }

    /// Picks one of `legal`, judging only by `view` (its own seat's view of the game); `None` when
    /// `legal` is empty.
    ///
    /// Always returns a move from `legal`. Draws exactly one random number per legal move, so its
    /// sequence of choices depends only on the seed and what it was shown.
    pub fn choose(&mut self, view: &View, legal: &[Move]) -> Option<Move> {
        let odds = EnemyOdds::from_view(view);
        let mut best: Option<(f64, Move)> = None;
        for &mv in legal {
            let score = score(view, &odds, mv) + self.rng.random::<f64>() * NOISE;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }
}

/// What a seat can infer about the enemy's unrevealed pieces from its view: how many of each rank
/// are unaccounted for (neither lost nor revealed on the board), and how many unknown pieces have
/// or have not moved.
#[derive(Clone, Debug)]
struct EnemyOdds {
    /// Unaccounted-for enemy pieces by rank code.
    hidden: [f64; 13],
    /// Unknown enemy pieces that have never moved (only these can be Bombs or the Flag).
    unmoved: f64,
}

impl EnemyOdds {
    fn from_view(view: &View) -> EnemyOdds {
        let enemy = view.seat().opponent();
        let mut on_board = [0u32; 13];
        let mut unmoved = 0u32;
        for (_, seen) in view.squares() {
            if let Seen::Enemy(e) = seen {
                match e.rank {
                    Some(r) => on_board[usize::from(r.code())] += 1,
                    None if !e.has_moved => unmoved += 1,
                    None => {}
                }
            }
        }
        // The army list is public; lost pieces were revealed in their battles.
        let variant = army_variant(view);
        let mut hidden = [0.0; 13];
        for r in Rank::ALL {
            let code = usize::from(r.code());
            let left = i32::from(variant.count(r))
                - i32::from(view.lost(enemy, r))
                - on_board[code] as i32;
            hidden[code] = f64::from(left.max(0));
        }
        EnemyOdds {
            hidden,
            unmoved: f64::from(unmoved),
        }
    }

    /// The chance that an unknown enemy piece is of each rank, as (rank, probability).
    fn distribution(&self, has_moved: bool) -> impl Iterator<Item = (Rank, f64)> + '_ {
        let immovable: f64 = [Rank::Bomb, Rank::Flag]
            .iter()
            .map(|r| self.hidden[usize::from(r.code())])
            .sum();
        let movable: f64 = Rank::ALL
            .iter()
            .filter(|r| r.is_movable())
            .map(|r| self.hidden[usize::from(r.code())])
            .sum();
        // An unmoved piece is one of the hidden Bombs or the Flag with these odds, and otherwise
        // some movable rank in proportion to what is left.
        let p_immovable = if has_moved || self.unmoved <= 0.0 {
            0.0
        } else {
            (immovable / self.unmoved).min(1.0)
        };
        Rank::ALL.into_iter().filter_map(move |r| {
            let n = self.hidden[usize::from(r.code())];
            let p = if r.is_movable() {
                if movable > 0.0 {
                    (1.0 - p_immovable) * n / movable
                } else {
                    0.0
                }
            } else if immovable > 0.0 {
                p_immovable * n / immovable
            } else {
                0.0
            };
            (p > 0.0).then_some((r, p))
        })
    }
}

/// Which army list the game uses, from the seat's own army: the pieces it still has plus those
/// it lost add up to 40 in Classic and 10 in Duel.
fn army_variant(view: &View) -> Variant {
    let own = view
        .squares()
        .filter(|(_, s)| matches!(s, Seen::Own { .. }))
        .count();
    let own_lost: u32 = Rank::ALL
        .iter()
        .map(|&r| u32::from(view.lost(view.seat(), r)))
        .sum();
    if own as u32 + own_lost > u32::from(Variant::Duel.army_size()) {
        Variant::Classic
    } else {
        Variant::Duel
    }
}

/// The rank of the seat's own piece on `square`, if any.
fn own_rank(view: &View, square: Square) -> Option<Rank> {
    match view.at(square) {
        Seen::Own { rank, .. } => Some(rank),
        _ => None,
    }
}

/// The squares orthogonally next to `square`.
fn neighbours(square: Square) -> impl Iterator<Item = Square> {
    let (c, r) = (square.col(), square.row());
    [
        (c.checked_sub(1), Some(r)),
        (c.checked_add(1), Some(r)),
        (Some(c), r.checked_sub(1)),
        (Some(c), r.checked_add(1)),
    ]
    .into_iter()
    .filter_map(|(c, r)| Square::new(c?, r?))
}

/// The value of a battle's result for the attacker.
fn battle_value(mine: Rank, theirs: Rank) -> f64 {
    match Battle::resolve(mine, theirs) {
        BattleResult::AttackerWon => value(theirs),
        BattleResult::DefenderWon => -value(mine),
        BattleResult::BothRemoved => value(theirs) - value(mine),
    }
}

/// Whether a revealed enemy of rank `theirs` beats `mine` when it attacks.
fn threatened_by(mine: Rank, theirs: Rank) -> bool {
    theirs.is_movable() && Battle::resolve(theirs, mine) != BattleResult::DefenderWon
}

/// Whether `square` is next to a revealed enemy piece that would beat `mine` by attacking it,
/// ignoring the piece on `except` (the square being left).
fn in_danger(view: &View, mine: Rank, square: Square, except: Square) -> bool {
    neighbours(square).filter(|&n| n != except).any(
        |n| matches!(view.at(n), Seen::Enemy(e) if e.rank.is_some_and(|r| threatened_by(mine, r))),
    )
}

/// Manhattan distance from `square` to the nearest enemy piece worth going for with `mine`: any
/// unknown piece, or a revealed one it beats. `None` when there is none.
fn distance_to_prey(view: &View, mine: Rank, square: Square) -> Option<u32> {
    view.squares()
        .filter(|(_, seen)| match seen {
            Seen::Enemy(e) => e
                .rank
                .is_none_or(|r| Battle::resolve(mine, r) == BattleResult::AttackerWon),
            _ => false,
        })
        .map(|(s, _)| u32::from(s.col().abs_diff(square.col()) + s.row().abs_diff(square.row())))
        .min()
}

/// How good `mv` looks to the seat of `view`, before noise.
fn score(view: &View, odds: &EnemyOdds, mv: Move) -> f64 {
    let Some(mine) = own_rank(view, mv.from) else {
        return f64::NEG_INFINITY;
    };
    match view.at(mv.to) {
        Seen::Enemy(enemy) => match enemy.rank {
            // A known enemy: take it if it loses, stay away if it wins.
            Some(theirs) => match Battle::resolve(mine, theirs) {
                BattleResult::AttackerWon => 20.0 + value(theirs),
                BattleResult::BothRemoved => value(theirs) - value(mine),
                BattleResult::DefenderWon => -20.0 - value(mine),
            },
            // An unknown enemy: the expected result over what it might be.
            None => {
                let expected: f64 = odds
                    .distribution(enemy.has_moved)
                    .map(|(r, p)| p * battle_value(mine, r))
                    .sum();
                let scouting = if value(mine) <= 4.0 {
                    SCOUTING_BONUS
                } else {
                    0.0
                };
                expected + scouting
            }
        },
        _ => quiet_move_score(view, mine, mv),
    }
}

/// The score of a move to an empty square: forward and towards prey is good, into the reach of a
/// revealed stronger enemy is bad, out of it is good.
fn quiet_move_score(view: &View, mine: Rank, mv: Move) -> f64 {
    let forward = if view.seat() == RED { 1 } else { -1 };
    let gained = (i32::from(mv.to.row()) - i32::from(mv.from.row())) * forward;
    let mut score = f64::from(gained.clamp(-1, 2));
    if let (Some(before), Some(after)) = (
        distance_to_prey(view, mine, mv.from),
        distance_to_prey(view, mine, mv.to),
    ) {
        score += 0.5 * f64::from((before as i32 - after as i32).clamp(-2, 2));
    }
    let danger_now = in_danger(view, mine, mv.from, mv.from);
    let danger_then = in_danger(view, mine, mv.to, mv.from);
    if danger_then {
        score -= 0.8 * value(mine) + 4.0;
    } else if danger_now {
        score += 0.5 * value(mine) + 2.0;
    }
    score
}
