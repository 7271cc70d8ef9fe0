// The disk's write cache (disk/write_cache.hpp), without SystemC: writes are cached while their data
// fit beside the dirty data; WRITE SAME and a disabled cache write through.
#include <catch2/catch.hpp>

#include "fcal/disk/write_cache.hpp"

using fcal::disk::WriteCache;

TEST_CASE("Write cache: cached while the dirty data fit, room again once written", "[disk][write_cache]")
{
    WriteCache cache(true, 10000);
    CHECK(cache.admit(6000, false));
    CHECK(cache.dirty() == 6000);
    CHECK_FALSE(cache.admit(4001, false));  // 10001 > 10000: written through
    CHECK(cache.admit(4000, false));        // exactly full
    CHECK(cache.dirty() == 10000);
    cache.written(6000);
    CHECK(cache.dirty() == 4000);
    CHECK(cache.admit(6000, false));
}

TEST_CASE("Write cache: a WRITE SAME and a disabled cache write through", "[disk][write_cache]")
{
    WriteCache on(true, 10000), off(false, 10000);
    CHECK_FALSE(on.admit(512, true));
    CHECK_FALSE(off.admit(512, false));
    CHECK(on.dirty() == 0);
    CHECK(off.dirty() == 0);
}
