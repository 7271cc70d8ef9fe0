// Replays fuzz inputs without libFuzzer: every file in the folders given (the committed corpus and
// the regressions) goes through LLVMFuzzerTestOneInput once. A failed check aborts, failing the test.
#include <cstdlib>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

// No SystemC banner, as in fcal-sim: SystemC 2.3.4 prints it from its own main(), before sc_main, unless
// SC_COPYRIGHT_MESSAGE is DISABLE, so a static initializer (run before any main) sets it. A value the
// user set is kept: SC_COPYRIGHT_MESSAGE=ENABLE brings the banner back.
namespace {
const bool g_no_banner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

extern "C" int sc_main(int argc, char* argv[])
{
    std::size_t inputs = 0;
    for (int i = 1; i < argc; ++i) {
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(argv[i]))
            if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            std::ifstream in(file, std::ios::binary);
            const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++inputs;
        }
    }
    std::printf("replayed %zu inputs\n", inputs);
    return inputs > 0 ? 0 : 1;  // an empty corpus is a mistake
}
