#!/usr/bin/env bash
# ci-setup-windows.sh -- install what the Windows build and its Wine test need.
#
# Idempotent: run it as often as you like; a second run on a prepared machine
# only checks and returns in about a second.
#   1. Debian packages: wine + wine64 (runs the .exe in tests/suite/wine_gomocup.rs),
#      gcc-mingw-w64-x86-64 + binutils-mingw-w64-x86-64 (linker and objdump for
#      x86_64-pc-windows-gnu), zip/unzip (the Gomocup ZIP).
#   2. The rustup target x86_64-pc-windows-gnu.
#   3. The private 64-bit Wine prefix target/wine-prefix, plain: the exe needs no
#      extra DLL (docs/gomocup.md).  A prefix that an older version of this script
#      made, with a test-only bcryptprimitives.dll stub in it (its build folder
#      target/wine-stub/ still exists), is deleted and made again without it.
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

# Private 64-bit Wine prefix, as a fresh Wine makes it.
export WINEPREFIX=$ROOT/target/wine-prefix
export WINEARCH=win64
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="
if [[ -d $ROOT/target/wine-stub ]]; then
    echo "ci-setup-windows: deleting the old prefix with the stub DLL" >&2
    wineserver -k 2>/dev/null || true
    rm -rf "$WINEPREFIX" "$ROOT/target/wine-stub"
fi
if [[ ! -f $WINEPREFIX/system.reg ]]; then
    echo "ci-setup-windows: creating Wine prefix $WINEPREFIX" >&2
    wineboot --init >/dev/null 2>&1 || true
    wineserver --wait || true
fi
if [[ ! -d $WINEPREFIX/drive_c/windows/system32 ]]; then
    echo "ci-setup-windows: Wine prefix $WINEPREFIX was not created" >&2
    exit 1
fi
echo "ci-setup-windows: ready (wine $(wine --version 2>/dev/null), prefix $WINEPREFIX)" >&2
