// The target HBA's recovery bookkeeping (docs/faults.md, "FCP recovery"), without SystemC.
#include <catch2/catch.hpp>

#include "fcal/hba/target_recovery.hpp"

using fcal::hba::TargetRecovery;

TEST_CASE("TargetRecovery: frames for a dropped exchange are late until its RX_ID is reused")
{
    TargetRecovery r;
    CHECK_FALSE(r.late(7));  // never aborted: not late (the HBA treats it as its own)
    r.abts_received();
    r.exchange_dropped(7);
    CHECK(r.was_aborted(7));
    CHECK(r.late(7));
    CHECK(r.late(7));
    CHECK_FALSE(r.was_aborted(8));
    r.exchange_opened(7);  // RX_ID 7 serves a new exchange
    CHECK_FALSE(r.was_aborted(7));
    CHECK_FALSE(r.late(7));
    CHECK(r.aborts_received() == 1);
    CHECK(r.late_frames() == 2);
}

TEST_CASE("TargetRecovery: a data frame out of sequence breaks the exchange for every later frame")
{
    TargetRecovery r;
    bool broken = false;
    CHECK(r.in_sequence(broken, 0, 0));
    CHECK(r.in_sequence(broken, 2048, 2048));
    CHECK_FALSE(r.in_sequence(broken, 6144, 4096));  // the frame at 4096 went missing
    CHECK(broken);
    CHECK_FALSE(r.in_sequence(broken, 8192, 8192));  // in place, but the burst cannot complete
    CHECK(r.sequence_errors() == 2);
    bool other = false;
    CHECK(r.in_sequence(other, 0, 0));  // another exchange is not touched
}

TEST_CASE("TargetRecovery: reports its counts")
{
    TargetRecovery r;
    bool broken = false;
    r.in_sequence(broken, 512, 0);
    r.data_timed_out();
    r.data_timed_out();
    r.exchange_dropped(3);
    r.late(3);
    nlohmann::json j;
    r.report(j);
    CHECK(j == nlohmann::json{{"late_frames", 1}, {"data_timeouts", 2}, {"sequence_errors", 1}});
}
