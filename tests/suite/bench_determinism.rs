//! The bench prints the same node count and signature on every run in one process.

use lianzhu::tools::bench;

fn tail(out: &[u8]) -> (String, String) {
    let text = String::from_utf8(out.to_vec()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    assert!(lines[n - 3].starts_with("Nodes searched: "));
    assert!(lines[n - 2].starts_with("Nodes/second: "));
    assert!(lines[n - 1].starts_with("Signature: "));
    (lines[n - 3].to_string(), lines[n - 1].to_string())
}

#[test]
fn bench_is_deterministic() {
    let depth = 5;
    let mut a = Vec::new();
    let na = bench::run(depth, &mut a).unwrap();
    let mut b = Vec::new();
    let nb = bench::run(depth, &mut b).unwrap();
    assert_eq!(na, nb);
    assert!(na > 0);
    assert_eq!(tail(&a), tail(&b));
    eprintln!("{}", String::from_utf8_lossy(&a));
}
