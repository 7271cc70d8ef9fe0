// Test main shared by every Catch2 executable: SystemC calls sc_main, which runs the Catch session.
// Any SystemC warning or error is thrown as an exception, so it fails the running test case
// (DESIGN.md, testing habits). Each TEST_CASE runs in its own process under ctest
// (catch_discover_tests), because SystemC elaborates only once per process.
#define CATCH_CONFIG_RUNNER
#include <cstdlib>
#include <catch2/catch.hpp>
#include <systemc>

// No SystemC banner, as in fcal-sim: SystemC 2.3.4 prints it from its own main(), before sc_main, unless
// SC_COPYRIGHT_MESSAGE is DISABLE, so a static initializer (run before any main) sets it. A value the
// user set is kept: SC_COPYRIGHT_MESSAGE=ENABLE brings the banner back.
namespace {
const bool g_no_banner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;
}

int sc_main(int argc, char* argv[])
{
    using namespace sc_core;
    sc_report_handler::set_actions(SC_WARNING, SC_DISPLAY | SC_THROW);
    sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY | SC_THROW);
    sc_report_handler::set_actions(SC_FATAL, SC_DISPLAY | SC_THROW);
    return Catch::Session().run(argc, argv);
}
