#pragma once
// A check that holds in every build type (assert() vanishes with NDEBUG): on failure it prints what
// failed and aborts, which libFuzzer reports as a crash and the corpus replay as a failed test.
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                       \
    do {                                                                                            \
        if (!(condition)) {                                                                         \
            std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #condition); \
            std::abort();                                                                           \
        }                                                                                           \
    } while (false)
