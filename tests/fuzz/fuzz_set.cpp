// Fuzz target: `--set KEY=VALUE` parsing (ParameterTable::set_assignment, then build_config), on
// arbitrary bytes read as one assignment per line, applied in order as the command line would.
// Invariants: config_invariants.hpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "config_invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace fcal::sim;
    const std::string text(reinterpret_cast<const char*>(data), size);
    ParameterTable table = fcal_parameters();
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        try {
            table.set_assignment(text.substr(start, end - start));
        } catch (const ConfigError& e) {
            fcal_fuzz::check_error(e);  // a bad assignment changes nothing; the next ones still apply
        }
        start = end + 1;
    }
    fcal_fuzz::check_table(table);
    return 0;
}
