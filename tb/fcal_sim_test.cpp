// fcal-sim-test: fcal-sim with its test-only hooks (tb/test_hooks.hpp), for the tests that provoke
// what no configuration reaches (a deadlock, an exception inside the run, lost frames). Built, not
// installed; the installed fcal-sim refuses these options (tools/tests/cli/test_install_embed.py).
#include "simulator_cli.hpp"
#include "test_hooks.hpp"

int sc_main(int argc, char* argv[])
{
    fcal::tb::TestHooks hooks;
    return fcal::apps::run_simulator_cli(argc, argv, &hooks);
}
