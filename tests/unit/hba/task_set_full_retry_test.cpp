// The requests refused with TASK SET FULL (hba/task_set_full_retry.hpp), without SystemC: with one
// delay for all they come due in the order refused, and each refusal counts one retry.
#include <catch2/catch.hpp>

#include "fcal/hba/io_request.hpp"
#include "fcal/hba/task_set_full_retry.hpp"

using fcal::hba::IoRequest;
using fcal::hba::TaskSetFullRetry;

TEST_CASE("TASK SET FULL retries come due in the order refused and are counted", "[hba][task_set_full]")
{
    TaskSetFullRetry retry;
    IoRequest a, b, c;
    CHECK(retry.due() == nullptr);
    retry.hold(&a);
    retry.hold(&b);
    CHECK(retry.waiting() == 2);
    CHECK(retry.due() == &a);
    retry.hold(&a);  // refused again
    retry.hold(&c);
    CHECK(retry.due() == &b);
    CHECK(retry.due() == &a);
    CHECK(retry.due() == &c);
    CHECK(retry.due() == nullptr);
    CHECK(retry.waiting() == 0);
    CHECK(retry.retries() == 4);
}
