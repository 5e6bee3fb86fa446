#!/usr/bin/env bash
# ci-setup-windows.sh -- install what the Windows build and its Wine test need.
#
# Idempotent: run it as often as you like; a second run on a prepared machine
# only checks and returns in about a second.
#   1. Debian packages: wine + wine64 (runs the .exe in tests/wine_gomocup.rs),
#      gcc-mingw-w64-x86-64 + binutils-mingw-w64-x86-64 (linker and objdump for
#      x86_64-pc-windows-gnu), zip/unzip (the Gomocup ZIP).
#   2. The rustup target x86_64-pc-windows-gnu.
#   3. The TEST-ONLY stub bcryptprimitives.dll (scripts/wine-stub/), built with
#      mingw into target/wine-stub/ and copied into the private Wine prefix
#      target/wine-prefix (Debian's Wine 8 lacks ProcessPrng, which Rust's std
#      needs), then checked there by scripts/wine-stub/selftest.c.  The stub is
#      never shipped: package-gomocup.sh rejects it.
# Needs root for apt-get (CI and the dev machines run as root).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

PACKAGES=(wine wine64 gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 zip unzip)

missing=()
for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
if ((${#missing[@]})); then
    echo "ci-setup-windows: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! rustup target list --installed | grep -qx x86_64-pc-windows-gnu; then
    echo "ci-setup-windows: rustup target add x86_64-pc-windows-gnu" >&2
    rustup target add x86_64-pc-windows-gnu
fi

# Test-only stub DLL.
STUB_DIR=$ROOT/target/wine-stub
STUB=$STUB_DIR/bcryptprimitives.dll
mkdir -p "$STUB_DIR"
if [[ ! -f $STUB || scripts/wine-stub/bcryptprimitives.c -nt $STUB || scripts/wine-stub/bcryptprimitives.def -nt $STUB ]]; then
    echo "ci-setup-windows: building $STUB" >&2
    x86_64-w64-mingw32-gcc -O2 -shared -s -o "$STUB" \
        scripts/wine-stub/bcryptprimitives.c scripts/wine-stub/bcryptprimitives.def
fi

# Private 64-bit Wine prefix with the stub in system32.
export WINEPREFIX=$ROOT/target/wine-prefix
export WINEARCH=win64
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=;bcryptprimitives=n"
SYS32=$WINEPREFIX/drive_c/windows/system32
if [[ ! -f $WINEPREFIX/system.reg ]]; then
    echo "ci-setup-windows: creating Wine prefix $WINEPREFIX" >&2
    wineboot --init >/dev/null 2>&1 || true
    wineserver --wait || true
fi
if [[ ! -d $SYS32 ]]; then
    echo "ci-setup-windows: Wine prefix $WINEPREFIX was not created" >&2
    exit 1
fi
cp -f "$STUB" "$SYS32/bcryptprimitives.dll"

# Check the stub where it will be used: load it by name under Wine and call ProcessPrng.
# The self-test lives in its own folder: LoadLibrary looks in the exe's folder first.
SELFTEST=$STUB_DIR/selftest/selftest.exe
mkdir -p "$STUB_DIR/selftest"
if [[ ! -f $SELFTEST || scripts/wine-stub/selftest.c -nt $SELFTEST ]]; then
    x86_64-w64-mingw32-gcc -O2 -s -o "$SELFTEST" scripts/wine-stub/selftest.c
fi
if ! wine "$SELFTEST" </dev/null >/dev/null; then
    echo "ci-setup-windows: the bcryptprimitives.dll stub does not work in $WINEPREFIX" >&2
    exit 1
fi
echo "ci-setup-windows: ready (wine $(wine --version 2>/dev/null), prefix $WINEPREFIX)" >&2
