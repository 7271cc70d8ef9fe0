#pragma once
// What every configuration source must guarantee, shared by the configuration fuzz targets: a table
// either gives a configuration or a one-line ConfigError, nothing else escapes (an escaping
// exception terminates, a crash for libFuzzer); an accepted configuration is within what the model
// can represent and its JSON echo (what --stats-json prints) loads back to the same configuration.
#include <string>

#include "fuzz_check.hpp"
#include "fcal/sim/config_limits.hpp"
#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"

namespace fcal_fuzz {

inline void check_error(const fcal::sim::ConfigError& e)
{
    const std::string message = e.what();
    FUZZ_CHECK(!message.empty());
    // One printable line: no newline, no terminal control sequence (user text is quoted and escaped),
    // of a readable length (user text is cut: a 10 000-character key is not printed whole).
    for (char c : message) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F);
    FUZZ_CHECK(message.size() <= 600);
}

inline void check_table(const fcal::sim::ParameterTable& table)
{
    using namespace fcal::sim;
    SimConfig config;
    try {
        config = build_config(table);
    } catch (const ConfigError& e) {
        check_error(e);
        return;
    }
    FUZZ_CHECK(config.workload.io_size_bytes <= largest_io_size(config));
    FUZZ_CHECK(config.time_limit_s < longest_delay_s());
    FUZZ_CHECK(config.initiator_port.al_pa != 0x00);
    FUZZ_CHECK(config.loop.nodes.size() >= config.disk_count + 1);

    const nlohmann::json echo = to_json(config);
    ParameterTable again = fcal_parameters();
    again.load_json(echo, "echo");  // must not throw: the echo is a valid configuration file
    FUZZ_CHECK(to_json(build_config(again)) == echo);
}

}  // namespace fcal_fuzz
