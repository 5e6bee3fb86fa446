#!/usr/bin/env bash
# soak.sh -- Lianzhu against itself under all four rules, to catch crashes, illegal moves and
# late replies. Usage: scripts/soak.sh [GAMES_PER_RULE] [TURN_MS] [MATCH_MS] [CONCURRENCY]
# (defaults 50 300 6000 2: 200 games in all). Game records and logs go to target/soak/.
# Prints one `Result:` line per rule; a clean run has `forfeits 0` everywhere and `fouls 0`.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-50} turn=${2:-300} match=${3:-6000} conc=${4:-2}
cargo build --release --quiet
E=./target/release/pbrain-lianzhu
out=target/soak
mkdir -p "$out"
for spec in freestyle:freestyle15 standard:standard15 renju:renju15 caro:freestyle15; do
    rule=${spec%%:*} book=${spec#*:}
    ./target/release/lianzhu-match --engine "$E" --engine "$E" --rule "$rule" --size 15 \
        --games "$games" --turn-ms "$turn" --match-ms "$match" --concurrency "$conc" \
        --openings "../shared/data/openings/$book.txt" --games-out "$out/$rule.games" \
        > "$out/$rule.log"
    echo "$rule: $(grep -E 'forfeits .*fouls' "$out/$rule.log" | sed 's/^ *//' | paste -sd ';') | $(tail -n 1 "$out/$rule.log")"
done
