#!/usr/bin/env python3
"""How long an engine thinks at a turn limit, on positions taken from match records.

Takes the positions after plies 12, 20, 28, 36 and 44 of `lianzhu-match --games-out` records
(games at least two plies longer), every k-th of them so that about `--positions` remain,
and gives each to a fresh game of the engine (`START 15`, `INFO timeout_turn T`,
`INFO timeout_match 0`, `INFO rule R`, `BOARD` ... `DONE`). Prints every reply's wall time in
milliseconds (order of the positions), then the mean, quartiles, 10th and 90th percentiles
and how many replies came under 100 and 200 ms. Run it on an idle machine.

Usage: scripts/think-times.py --engine target/release/pbrain-lianzhu --turn-ms 300
       data/match-records/freestyle15-rapfi-c0a3eb1.games
"""

import argparse
import statistics
import subprocess
import time

from match_records import games

PLIES = (12, 20, 28, 36, 44)
RULES = {"freestyle": 0, "standard": 1, "renju": 4}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="the engine command (split on spaces)")
    ap.add_argument("--turn-ms", type=int, default=300)
    ap.add_argument("--rule", choices=RULES, default="freestyle")
    ap.add_argument("--positions", type=int, default=120)
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()

    positions = []
    for moves, _, _, _ in games(args.records):
        positions += [moves[:n] for n in PLIES if len(moves) > n + 2]
    positions = positions[:: max(1, len(positions) // args.positions)]

    engine = subprocess.Popen(
        args.engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def reply():
        # Protocol lines only: OK, a move `x,y`, or an ERROR (which would be a bug here).
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("the engine exited")
            line = line.strip()
            if line == "OK" or line.startswith("ERROR") or "," in line and line[0].isdigit():
                return line

    times = []
    for moves in positions:
        send("START 15")
        reply()
        for info in (f"timeout_turn {args.turn_ms}", "timeout_match 0", f"rule {RULES[args.rule]}"):
            send(f"INFO {info}")
        send("BOARD")
        own = len(moves) % 2  # the engine moves next: black after an even number of stones
        for i, m in enumerate(moves):
            x, y = ord(m[0]) - ord("a"), int(m[1:]) - 1
            send(f"{x},{y},{1 if i % 2 == own else 2}")
        start = time.monotonic()
        send("DONE")
        answer = reply()
        if answer.startswith("ERROR"):
            raise SystemExit(f"engine error: {answer}")
        times.append((time.monotonic() - start) * 1000)
    send("END")

    print(" ".join(f"{t:.0f}" for t in times))
    s = sorted(times)

    def q(f):
        return s[int(f * (len(s) - 1))]

    print(
        f"{len(s)} positions: mean {statistics.mean(s):.0f} ms, p10 {q(0.1):.0f}, "
        f"p25 {q(0.25):.0f}, median {q(0.5):.0f}, p75 {q(0.75):.0f}, p90 {q(0.9):.0f}, "
        f"max {s[-1]:.0f}; under 100 ms {sum(t < 100 for t in s)}, "
        f"under 200 ms {sum(t < 200 for t in s)}"
    )


if __name__ == "__main__":
    main()
