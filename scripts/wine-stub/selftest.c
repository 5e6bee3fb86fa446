/*
 * selftest.c -- checks the stub bcryptprimitives.dll inside the Wine prefix.
 *
 * scripts/ci-setup-windows.sh builds this with mingw and runs it under Wine
 * after installing the stub: it loads bcryptprimitives.dll the way Rust's std
 * does (by name, from system32), calls ProcessPrng twice on 64 bytes and
 * exits 0 only if both calls succeed and give different, not-all-zero bytes.
 */
#include <windows.h>
#include <stdio.h>
#include <string.h>

typedef BOOL(WINAPI *ProcessPrngFn)(PBYTE, SIZE_T);

int main(void)
{
    BYTE a[64], b[64], zero[64];
    HMODULE dll = LoadLibraryA("bcryptprimitives.dll");
    ProcessPrngFn prng;
    if (!dll) {
        fprintf(stderr, "selftest: bcryptprimitives.dll not found\n");
        return 1;
    }
    prng = (ProcessPrngFn)(void *)GetProcAddress(dll, "ProcessPrng");
    if (!prng) {
        fprintf(stderr, "selftest: ProcessPrng not exported\n");
        return 2;
    }
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    memset(zero, 0, sizeof zero);
    if (!prng(a, sizeof a) || !prng(b, sizeof b)) {
        fprintf(stderr, "selftest: ProcessPrng returned FALSE\n");
        return 3;
    }
    if (!memcmp(a, zero, sizeof a) || !memcmp(a, b, sizeof a)) {
        fprintf(stderr, "selftest: ProcessPrng gave zero or repeated bytes\n");
        return 4;
    }
    printf("ProcessPrng ok\n");
    return 0;
}
