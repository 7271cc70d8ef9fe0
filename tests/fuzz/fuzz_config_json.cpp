// Fuzz target: the JSON configuration loader (ParameterTable::load_json_file, then build_config), on
// arbitrary bytes as the file's text. Invariants: config_invariants.hpp.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include <unistd.h>

#include "config_invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace fcal::sim;
    // The loader reads a file, so that its own error paths (open, parse) are fuzzed too.
    static const std::string path = "/tmp/fcal_fuzz_config_" + std::to_string(::getpid()) + ".json";
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    ParameterTable table = fcal_parameters();
    try {
        table.load_json_file(path);
    } catch (const ConfigError& e) {
        fcal_fuzz::check_error(e);
        return 0;
    }
    fcal_fuzz::check_table(table);
    return 0;
}
