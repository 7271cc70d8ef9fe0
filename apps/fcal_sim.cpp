// fcal-sim, the installed simulator: the command line of apps/simulator_cli.cpp, with no test hooks
// (the test variant, fcal-sim-test, is tb/fcal_sim_test.cpp).
#include "simulator_cli.hpp"

int sc_main(int argc, char* argv[]) { return fcal::apps::run_simulator_cli(argc, argv); }
