use boards::stratego::{MoveList, Options, Position, Setup, Variant};
use boards::Game;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn main() {
    for (name, opts) in [("isf classic", Options::isf(Variant::Classic)), ("plain classic", Options::plain(Variant::Classic)), ("isf duel", Options::isf(Variant::Duel))] {
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let n = 2000;
    let mut lens = vec![];
    let mut list = MoveList::new();
    for _ in 0..n {
        let setup = Setup::shuffled(opts.variant, |k| rng.random_range(0..k));
        let mut pos = Position::start(opts, setup).unwrap();
        let mut plies = 0;
        loop {
            pos.legal_moves_into(&mut list);
            if list.is_empty() || plies >= 100000 { break; }
            let m = list[rng.random_range(0..list.len())];
            pos.play_unchecked(&m);
            plies += 1;
        }
        lens.push(plies);
    }
    lens.sort();
    println!("{name}: median {} p90 {} p99 {} max {} mean {}", lens[n/2], lens[n*9/10], lens[n*99/100], lens[n-1], lens.iter().sum::<usize>()/n);
    }
}
