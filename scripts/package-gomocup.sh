#!/usr/bin/env bash
# package-gomocup.sh -- build the Gomocup/Piskvork package dist/lianzhu-gomocup.zip.
#
# One command (after scripts/ci-setup-windows.sh once):
#     bash scripts/package-gomocup.sh
# Cross-compiles the release engine for x86_64-pc-windows-gnu with Debian's
# mingw-w64 (linker settings in .cargo/config.toml, +crt-static) into cargo's
# target directory (target/, or $CARGO_TARGET_DIR when set), checks that
# the exe is a 64-bit console program importing only Windows' own DLLs, and
# writes
#     dist/pbrain-lianzhu64.exe       (also used by tests/suite/wine_gomocup.rs)
#     dist/lianzhu-gomocup.zip        (pbrain-lianzhu64.exe at the root, nothing else)
# Fails if the ZIP is over Gomocup's 8 MB limit or holds the test-only stub DLL.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-pc-windows-gnu
EXE_NAME=pbrain-lianzhu64.exe
ZIP=dist/lianzhu-gomocup.zip
MAX_BYTES=$((8 * 1024 * 1024))
OBJDUMP=x86_64-w64-mingw32-objdump

die() { echo "package-gomocup: $*" >&2; exit 1; }

command -v x86_64-w64-mingw32-gcc >/dev/null || die "mingw-w64 missing: run scripts/ci-setup-windows.sh"
command -v "$OBJDUMP" >/dev/null || die "$OBJDUMP missing: run scripts/ci-setup-windows.sh"
command -v zip >/dev/null || die "zip missing: run scripts/ci-setup-windows.sh"
rustup target list --installed | grep -qx "$TARGET" || die "rustup target $TARGET missing: run scripts/ci-setup-windows.sh"

cargo build --release --locked --target "$TARGET" --bin pbrain-lianzhu
# Where cargo put it: target/ unless CARGO_TARGET_DIR (or a cargo config) says otherwise.
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps --locked |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[[ -n $TARGET_DIR ]] || die "cargo metadata gave no target directory"
BUILT=$TARGET_DIR/$TARGET/release/pbrain-lianzhu.exe
[[ -f $BUILT ]] || die "build produced no $BUILT"

# A 64-bit console (CUI) program: Piskvork and GomocupJudge talk to it over pipes.
header=$("$OBJDUMP" -p "$BUILT")
grep -q 'file format pei-x86-64' <<<"$header" || die "$BUILT is not a PE32+ x86-64 image"
grep -Eq '^Subsystem[[:space:]]+0*3[[:space:]]' <<<"$header" || die "$BUILT is not a console (CUI) program"

# Only Windows' own DLLs: no libgcc_s / libwinpthread / libstdc++ next to the exe.
bad=()
while read -r dll; do
    case "${dll,,}" in
        kernel32.dll | ntdll.dll | msvcrt.dll | bcryptprimitives.dll | bcrypt.dll | advapi32.dll | \
            userenv.dll | ws2_32.dll | user32.dll | shell32.dll | ole32.dll | oleaut32.dll | \
            psapi.dll | secur32.dll | crypt32.dll | synchronization.dll | api-ms-win-*.dll) ;;
        *) bad+=("$dll") ;;
    esac
done < <(sed -n 's/^[[:space:]]*DLL Name: //p' <<<"$header")
((${#bad[@]} == 0)) || die "$BUILT imports non-system DLLs: ${bad[*]}"

mkdir -p dist
cp -f "$BUILT" "dist/$EXE_NAME"
rm -f "$ZIP"
# Zipped from inside dist/ so the exe sits at the ZIP root; -X: no extra Unix attributes.
(cd dist && zip -q -X -9 "$(basename "$ZIP")" "$EXE_NAME")

listing=$(unzip -Z1 "$ZIP")
[[ $listing == "$EXE_NAME" ]] || die "$ZIP must hold exactly $EXE_NAME at its root, holds: $listing"
if grep -qi bcryptprimitives <<<"$listing"; then die "$ZIP holds the test-only stub DLL"; fi

exe_bytes=$(stat -c %s "dist/$EXE_NAME")
zip_bytes=$(stat -c %s "$ZIP")
((zip_bytes <= MAX_BYTES)) || die "$ZIP is $zip_bytes bytes, over Gomocup's 8 MB ($MAX_BYTES)"
((exe_bytes <= MAX_BYTES)) || die "dist/$EXE_NAME is $exe_bytes bytes, over 8 MB ($MAX_BYTES)"
echo "package-gomocup: dist/$EXE_NAME $exe_bytes bytes; $ZIP $zip_bytes bytes" >&2
echo "package-gomocup: imports: $(sed -n 's/^[[:space:]]*DLL Name: //p' <<<"$header" | tr '\n' ' ')" >&2
