"""Drives pbrain-lianzhu with pygomo-lib (https://pypi.org/project/pygomo-lib/) as a user of
that library would, and prints what pygomo parsed, one fact per line, for tests/suite/pygomo_client.rs
to check:

    about <the ABOUT text pygomo returned>
    ok <step> <True|False>
    record <command> cb|all depth=D sel=S multipv=M eval=V nodes=N time=T pv=x,y;x,y;...
    move <command> x,y
    exit <status>

`cb` records are the ones pygomo handed to the info callback while the engine thought, `all`
the ones in the PlayResult (pygomo parses every MESSAGE line it collects; the lines that arrive
together with the move go only into the PlayResult).

Usage: python pygomo_session.py PATH_TO_ENGINE
"""

import sys

from pygomo import EngineClient
from pygomo.protocol.models import Move


def say(*words):
    print(" ".join(str(w) for w in words), flush=True)


def record(command, kind, info):
    pv = ";".join(m.to_numeric() for m in info.pv)
    say(
        "record", command, kind,
        f"depth={info.depth}", f"sel={info.sel_depth}", f"multipv={info.multipv}",
        f"eval={info.eval.raw_value}", f"nodes={info.nodes}", f"time={info.time_ms}",
        f"pv={pv}",
    )


def think(command, call):
    result = call(lambda info: record(command, "cb", info))
    if result is None:
        say("move", command, "none")
        return None
    for info in result.all_info:
        record(command, "all", info)
    say("move", command, result.move.to_numeric())
    return result.move


def main():
    client = EngineClient(sys.argv[1])
    client.connect()
    # pygomo keeps the process private; we need it only to read the exit status after END.
    process = client._transport._process
    say("about", client.about(timeout=10))
    say("ok", "start", client.start(15, timeout=10))
    client.set_time(turn_time_ms=700, match_time_ms=120000, time_left_ms=120000)
    client.set_rule(0)
    client.set_threads(1)
    client.set_memory(128 * 1024 * 1024)

    # Black h8 (7,7) by the "user"; the engine answers as white.
    think("TURN", lambda cb: client.turn("h8", timeout=20, on_info=cb))
    # Two best moves for the user's side (black), as Yixin-Board asks for them.
    best = think("YXNBEST", lambda cb: client.nbest(2, timeout=20, on_info=cb))
    # The engine played the first line's move on its board: take it back, then a point that
    # is not the last stone (refused; pygomo reports False after its timeout).
    say("ok", "takeback", client.takeback(best, timeout=10))
    say("ok", "takeback-wrong", client.takeback(Move((0, 0)), timeout=1))
    # The game goes on from the position before the n-best move.
    think("TURN", lambda cb: client.turn(best, timeout=20, on_info=cb))

    client.execute("END")
    say("exit", process.wait(timeout=10))
    client.quit()


if __name__ == "__main__":
    main()
