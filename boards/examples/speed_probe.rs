use boards::stratego::{MoveList, Options, Position, Setup, Variant};
use boards::Game;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

fn main() {
    let opts = if std::env::args().any(|a| a == "rules") {
        Options::isf(Variant::Classic)
    } else {
        Options::plain(Variant::Classic)
    };
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let n = 5000;
    let t = Instant::now();
    let mut plies = 0u64;
    let mut list = MoveList::new();
    let mut ended = 0;
    for _ in 0..n {
        let setup = Setup::shuffled(Variant::Classic, |k| rng.random_range(0..k));
        let mut pos = Position::start(opts, setup).unwrap();
        for _ in 0..2000 {
            pos.legal_moves_into(&mut list);
            if list.is_empty() {
                ended += 1;
                break;
            }
            let m = list[rng.random_range(0..list.len())];
            pos.play_unchecked(&m);
            plies += 1;
        }
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{} games/s, {} plies/game, ended {}",
        n as f64 / dt,
        plies / n,
        ended
    );
}
