// The exchange ID pool (hba/exchange_id_pool.hpp), without SystemC: IDs 1, 2, ... round again, never
// 0xFFFF, never an open one, never a quarantined one until enough later ones were quarantined.
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>

#include "fcal/hba/exchange_id_pool.hpp"

using fcal::hba::ExchangeIdPool;

TEST_CASE("Exchange IDs are handed out 1, 2, ... and a released one comes round again", "[hba][exchange_id_pool]")
{
    ExchangeIdPool ids;
    CHECK(ids.acquire() == 1);
    CHECK(ids.acquire() == 2);
    CHECK(ids.acquire() == 3);
    CHECK(ids.open_count() == 3);
    ids.release(2);
    CHECK_FALSE(ids.open(2));
    CHECK(ids.open(1));
    // The next after the last handed out, not the lowest free one.
    CHECK(ids.acquire() == 4);
    CHECK(ids.open_count() == 3);
    ids.release(2);  // twice: no effect
    CHECK(ids.open_count() == 3);
}

TEST_CASE("Exchange IDs wrap round past 0xFFFF, skipping it and the open ones", "[hba][exchange_id_pool]")
{
    ExchangeIdPool ids;
    // Hand out 1 .. 0xFFFE and keep 1 and 2 open.
    for (std::uint32_t expected = 1; expected <= 0xFFFE; ++expected) {
        const std::uint16_t id = ids.acquire();
        REQUIRE(id == expected);
        if (id > 2) ids.release(id);
    }
    // 0xFFFF is the unassigned ID, 0 comes next, then 1 and 2 are open: 3.
    CHECK(ids.acquire() == 0);
    CHECK(ids.acquire() == 3);
}

TEST_CASE("A quarantined exchange ID stays out of use until `limit` later ones were quarantined", "[hba][exchange_id_pool]")
{
    ExchangeIdPool ids(2);
    const std::uint16_t a = ids.acquire();  // 1
    ids.quarantine(a);
    ids.release(a);
    CHECK(ids.quarantined(a));
    CHECK(ids.quarantined_count() == 1);
    // Go round the whole ID space once: 1 is skipped.
    for (std::uint32_t i = 0; i < 0xFFFD; ++i) ids.release(ids.acquire());  // 2 .. 0xFFFE
    CHECK(ids.acquire() == 0);
    ids.release(0);
    CHECK(ids.acquire() == 2);  // not 1
    ids.release(2);
    // Two later quarantines push 1 out of the quarantine (the limit is 2).
    ids.quarantine(100);
    CHECK(ids.quarantined(a));
    ids.quarantine(200);
    CHECK_FALSE(ids.quarantined(a));
    CHECK(ids.quarantined(100));
    CHECK(ids.quarantined(200));
    CHECK(ids.quarantined_count() == 2);
}

TEST_CASE("An exchange ID pool with every ID taken refuses with an exception, not a hang", "[hba][exchange_id_pool]")
{
    ExchangeIdPool ids;
    for (std::uint32_t i = 0; i < 0xFFFF; ++i) ids.acquire();  // every ID but 0xFFFF
    CHECK(ids.open_count() == 0xFFFF);
    CHECK_THROWS_AS(ids.acquire(), std::length_error);
    ids.release(77);
    CHECK(ids.acquire() == 77);
}
