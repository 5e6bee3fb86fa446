#!/bin/sh
# A fake Gomocup engine for the arena tests. It answers START with OK (or with $FAKE_START)
# and every move request (BEGIN, BOARD ... DONE, TURN) with its next action, taken in order
# from its arguments; START goes back to the first action, so one process can play many games.
#   X,Y           play X,Y
#   msg:X,Y       print a MESSAGE and a DEBUG line, then X,Y
#   crlf:X,Y      play X,Y with a CR LF line ending
#   sleep:S:X,Y   sleep S seconds, then play X,Y
#   hang          sleep 60 s (a late reply)
#   exit          exit at once (a crash)
#   junk          print a line that is not a move
# With no action left it prints "ERROR out of moves" (garbage), which makes a test's mistake
# visible. FAKE_LOG=file appends every line received to that file. Exits on END or EOF.
actions="$*"
i=0
cr=$(printf '\r')

next_action() {
    n=0
    for a in $actions; do
        if [ "$n" -eq "$i" ]; then
            i=$((i + 1))
            act "$a"
            return
        fi
        n=$((n + 1))
    done
    echo "ERROR out of moves"
}

act() {
    case "$1" in
        msg:*) echo "MESSAGE thinking hard"; echo "DEBUG depth 1"; echo "${1#msg:}" ;;
        crlf:*) printf '%s\r\n' "${1#crlf:}" ;;
        sleep:*)
            rest=${1#sleep:}
            sleep "${rest%%:*}"
            echo "${rest#*:}"
            ;;
        hang) sleep 60 ;;
        exit) exit 0 ;;
        junk) echo "hello, referee" ;;
        *) echo "$1" ;;
    esac
}

while read -r line; do
    line=${line%"$cr"}
    [ -n "$FAKE_LOG" ] && echo "$line" >>"$FAKE_LOG"
    case "$line" in
        START*)
            i=0
            echo "${FAKE_START:-OK}"
            ;;
        BEGIN | TURN*) next_action ;;
        BOARD)
            while read -r row; do
                row=${row%"$cr"}
                [ -n "$FAKE_LOG" ] && echo "$row" >>"$FAKE_LOG"
                [ "$row" = DONE ] && break
            done
            next_action
            ;;
        END) exit 0 ;;
    esac
done
