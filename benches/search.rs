//! Fixed-depth search speed: runs the `bench` positions (`cargo bench --bench search [depth]`).

use lianzhu::tools::bench;

fn main() {
    let depth = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(bench::DEFAULT_DEPTH);
    lianzhu::rules::tables::init(lianzhu::types::Rule::Freestyle);
    lianzhu::rules::tables::init(lianzhu::types::Rule::Standard);
    lianzhu::rules::tables::init(lianzhu::types::Rule::Renju);
    let mut out = std::io::stdout();
    bench::run(depth, &mut out).expect("stdout");
}
