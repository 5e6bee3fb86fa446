/*
 * bcryptprimitives.c -- TEST-ONLY stand-in for Windows' bcryptprimitives.dll.
 *
 * Rust's standard library on Windows (1.78+) imports ProcessPrng from
 * bcryptprimitives.dll to seed HashMap keys.  Real Windows 10/11 has that
 * DLL; Debian bookworm's Wine 8 does not, so an unmodified Rust .exe dies at
 * load time under Wine.  scripts/ci-setup-windows.sh builds this file with
 * mingw-w64 and copies the DLL into the private Wine prefix used by
 * tests/wine_gomocup.rs.  It is NEVER shipped in the Gomocup ZIP
 * (scripts/package-gomocup.sh refuses a ZIP that contains it).
 *
 * ProcessPrng(PBYTE data, SIZE_T len) fills `data` with `len` random bytes
 * and always returns TRUE (Microsoft documents that it cannot fail).  We
 * forward to RtlGenRandom (advapi32!SystemFunction036), which Wine has
 * implemented for a long time; RtlGenRandom takes a ULONG length, so large
 * requests are split into chunks.
 */
#include <windows.h>

typedef BOOLEAN(WINAPI *RtlGenRandomFn)(PVOID, ULONG);

static RtlGenRandomFn load_rtl_gen_random(void)
{
    HMODULE advapi = LoadLibraryA("advapi32.dll");
    if (!advapi)
        return NULL;
    return (RtlGenRandomFn)(void *)GetProcAddress(advapi, "SystemFunction036");
}

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    RtlGenRandomFn gen = load_rtl_gen_random();
    while (len > 0) {
        ULONG chunk = len > 0x40000000u ? 0x40000000u : (ULONG)len;
        if (!gen || !gen(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst;
    (void)reason;
    (void)reserved;
    return TRUE;
}
