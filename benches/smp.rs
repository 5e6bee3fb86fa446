//! Lazy SMP scaling (`cargo bench --bench smp [ms]`): nodes per second of a fixed-time search
//! with 1 and with 2 threads on the bench positions.

use lianzhu::notation::parse_moves;
use lianzhu::rules::{tables, Board};
use lianzhu::search::time::TimeControl;
use lianzhu::search::{Limits, Searcher};
use lianzhu::tools::bench::POSITIONS;
use std::sync::atomic::AtomicBool;

fn main() {
    let ms: i64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000);
    let stop = AtomicBool::new(false);
    let mut rates = Vec::new();
    for threads in [1, 2] {
        let (mut nodes, mut time_ms) = (0u64, 0u64);
        for &(size, rule, moves) in POSITIONS.iter().take(6) {
            tables::init(rule);
            let mut b = Board::square(size).unwrap();
            for p in parse_moves(moves).unwrap() {
                b.make(p);
            }
            let limits = Limits {
                time: Some(TimeControl {
                    // The budget keeps a reserve; ask for enough to search about `ms`.
                    turn_ms: ms * 2 + 100,
                    match_ms: 0,
                    time_left_ms: i64::from(i32::MAX),
                }),
                threads,
                ..Limits::default()
            };
            let mut s = Searcher::new(64 << 20);
            let r = s.think(&b, rule, &limits, &stop, &mut |_| {}).unwrap();
            nodes += r.nodes;
            time_ms += r.time_ms;
        }
        let nps = nodes as f64 * 1000.0 / time_ms.max(1) as f64;
        println!("threads {threads}: {nodes} nodes in {time_ms} ms = {nps:.0} nodes/s");
        rates.push(nps);
    }
    println!("2-thread / 1-thread nodes/s: {:.2}", rates[1] / rates[0]);
}
