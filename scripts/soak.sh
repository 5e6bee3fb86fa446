#!/usr/bin/env bash
# soak.sh -- nothing lost to the process: Lianzhu against the sparring kit's Rapfi and Wine
# and against itself, over freestyle 15 and 20, standard, renju and caro, at fast turns
# (100-300 ms) and under a tight match clock (15 s a game, time_left counting down), with
# lianzhu-match's 1 s tolerance. 1,060 games in all by default (an estimated 4 hours with
# concurrency 1 on 2 cores, from the 2-game smoke test; not run in full yet).
#
# Usage: scripts/soak.sh [SETTING...]        (default: every setting below)
# Environment:
#   SOAK_GAMES=N         games per setting instead of the table's (e.g. 2 for a smoke test)
#   SOAK_CONCURRENCY=N   games at once (default 1: keep 1 on a 2-core machine)
#   SPARRING=DIR         the kit's wrappers (default ~/.cache/lianzhu-sparring/bin; build them
#                        with `bash ../shared/sparring/build.sh`)
# Output: for each setting the game records (NAME.games) and the full log (NAME.log) in
# <cargo target dir>/soak/, and one line here:
#   NAME: G games, Result W-L-D forfeits F | lianzhu: forfeits (crash, illegal, late,
#   garbage, start), fouls, slowest reply against the turn | opponent: the same
# then the totals. Exit status 1 if Lianzhu forfeited or fouled any game, 2 on a setup error.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "soak: $*" >&2; exit 2; }

#        name               opponent rule      size turn-ms match-ms games openings
SETTINGS=(
    "rapfi-free15       rapfi    freestyle 15   300     0        100   freestyle15"
    "rapfi-free20       rapfi    freestyle 20   200     0        100   freestyle15"
    "rapfi-std15        rapfi    standard  15   300     0        100   standard15"
    "rapfi-renju15      rapfi    renju     15   300     0        100   renju15"
    "rapfi-free15-clock rapfi    freestyle 15   1000    15000    80    freestyle15"
    "wine-free15        wine     freestyle 15   200     0        100   freestyle15"
    "wine-free20        wine     freestyle 20   100     0        100   freestyle15"
    "self-free15        self     freestyle 15   100     0        80    freestyle15"
    "self-std15         self     standard  15   200     0        60    standard15"
    "self-renju15       self     renju     15   200     0        80    renju15"
    "self-caro15        self     caro      15   200     0        60    freestyle15"
    "self-caro5-15      self     caro5     15   200     0        40    freestyle15"
    "self-renju15-clock self     renju     15   1000    15000    60    renju15"
)

SPARRING=${SPARRING:-$HOME/.cache/lianzhu-sparring/bin}
CONCURRENCY=${SOAK_CONCURRENCY:-1}
OPENINGS=../shared/data/openings

cargo build --release --quiet
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[[ -n $TARGET_DIR ]] || die "cargo metadata gave no target directory"
E=$TARGET_DIR/release/pbrain-lianzhu
MATCH=$TARGET_DIR/release/lianzhu-match
OUT=$TARGET_DIR/soak
mkdir -p "$OUT"

wanted=("$@")
selected() {
    ((${#wanted[@]} == 0)) && return 0
    local w
    for w in "${wanted[@]}"; do [[ $w == "$1" ]] && return 0; done
    return 1
}
for w in "${wanted[@]}"; do
    printf '%s\n' "${SETTINGS[@]}" | awk '{print $1}' | grep -qx -- "$w" || die "no setting $w"
done

# The per-engine summary line of a log: "forfeits F (crash .., ...), fouls N, ... slowest S ms".
engine_line() { grep -E "^$1 +forfeits " "$2" | sed -E "s/^$1 +//"; }

total_games=0 lost=0
for row in "${SETTINGS[@]}"; do
    read -r name opp rule size turn match games book <<<"$row"
    selected "$name" || continue
    games=${SOAK_GAMES:-$games}
    case $opp in
        self) opp_cmd=$E opp_name=lianzhu-b ;;
        *)
            opp_cmd=$SPARRING/$opp opp_name=$opp
            [[ -x $opp_cmd ]] || die "$opp_cmd missing: run bash ../shared/sparring/build.sh"
            ;;
    esac
    [[ -f $OPENINGS/$book.txt ]] || die "$OPENINGS/$book.txt missing"
    log=$OUT/$name.log
    "$MATCH" --engine "$E" --name lianzhu --engine "$opp_cmd" --name "$opp_name" \
        --rule "$rule" --size "$size" --games "$games" --turn-ms "$turn" --match-ms "$match" \
        --tolerance-ms 1000 --concurrency "$CONCURRENCY" --openings "$OPENINGS/$book.txt" \
        --games-out "$OUT/$name.games" >"$log" 2>&1 || die "$name: lianzhu-match failed (see $log)"
    ours=$(engine_line lianzhu "$log")
    theirs=$(engine_line "$opp_name" "$log")
    played=$(grep -c . "$OUT/$name.games" || true)
    clock=$([[ $match == 0 ]] && echo "turn $turn ms" || echo "turn $turn ms, match $match ms")
    echo "$name ($rule ${size}x$size, $clock): $played games, $(tail -n 1 "$log") | lianzhu: $ours | $opp_name: $theirs"
    total_games=$((total_games + played))
    # Lianzhu lost nothing: no forfeit and no renju foul.
    if ! grep -qE '^forfeits 0 .*fouls 0,' <<<"$ours"; then
        lost=$((lost + 1))
        echo "soak: $name: Lianzhu forfeited or fouled (see $log)" >&2
    fi
done
echo "soak: $total_games games; settings where Lianzhu lost a game to the process: $lost"
((lost == 0))
