// The Verilated block's VCD (issue 24): a pins-only dump holds cmdf_top's ports and nothing else, on
// the same time axis as the full dump, and the time a report names (vcd_time_ps) is the same whether
// or not a VCD is open.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fcal/cosim/command_first_rtl.hpp"

using namespace fcal;
using hba::CommandFifo;
using hba::CommandFirst;

namespace {

constexpr double kClockMhz = 212.5;

// cmdf_top's ports, from its port list in rtl/cmdf_top.v.
const std::set<std::string> kPins = {
    "clk",        "rst",       "cfg_fifo",  "cfg_arbitration", "cfg_preempt",     "push",             "push_tag",
    "push_dest",  "push_class", "push_len", "pop",             "q_dest",          "head_valid",       "head_tag",
    "head_dest",  "head_class", "head_len", "head_unfair_arb", "head_unfair_xfer", "sel_valid",       "sel_tag",
    "sel_class",  "sel_len",   "preempt_req", "cmd_count",     "frame_count",     "cmd_full",         "frame_full",
    "empty"};

struct Vcd {
    std::vector<std::string> names;     // every $var, in order (a signal may appear in several scopes)
    std::set<std::string> top_codes;    // the codes of the top scope's signals (the pins)
    std::vector<std::uint64_t> times;   // every #timestamp
    std::vector<std::string> body;      // every line after the definitions
    std::uintmax_t bytes = 0;
};

Vcd read_vcd(const std::filesystem::path& path)
{
    Vcd v;
    std::ifstream in(path);
    std::string line;
    int depth = 0;
    bool body = false;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (body) {
            v.body.push_back(line);
            if (!first.empty() && first[0] == '#') v.times.push_back(std::stoull(first.substr(1)));
        } else if (first == "$scope") {
            ++depth;
        } else if (first == "$upscope") {
            --depth;
        } else if (first == "$var") {
            std::string type, width, code, name;
            words >> type >> width >> code >> name;
            v.names.push_back(name);
            if (depth == 1) v.top_codes.insert(code);
        } else if (first == "$enddefinitions") {
            body = true;
        }
    }
    v.bytes = std::filesystem::file_size(path);
    return v;
}

// The body's lines that change one of `codes` (value changes: "b0101 <code>" or "1<code>"), and
// every other line (timestamps).
std::vector<std::string> changes_of(const std::vector<std::string>& body, const std::set<std::string>& codes)
{
    std::vector<std::string> out;
    for (const auto& l : body) {
        if (l.empty() || l[0] == '#' || l[0] == '$') {
            out.push_back(l);
            continue;
        }
        const std::string code = (l[0] == 'b' || l[0] == 'r') ? l.substr(l.find(' ') + 1) : l.substr(1);
        if (codes.count(code)) out.push_back(l);
    }
    return out;
}

std::filesystem::path temp_vcd(const char* what)
{
    return std::filesystem::temp_directory_path() / ("fcal_command_first_rtl_test_" + std::to_string(::getpid()) + "_" + what + ".vcd");
}

// The same traffic for every model: pushes, questions, pops, some in the same cycle.
void drive(cosim::CommandFirstRtl& rtl, std::vector<std::uint64_t>* vcd_times = nullptr)
{
    const double period = rtl.clock_period_ps();
    double now = 0;
    std::uint16_t tag = 0;
    for (int i = 0; i < 12; ++i) {
        cosim::Descriptor d;
        d.tag = tag++;
        d.dest = static_cast<phy::AlPa>(0xE0 + i % 3);
        d.frame_class = i % 4 == 1 ? loop::FrameClass::Command : loop::FrameClass::Data;
        d.words = static_cast<std::uint16_t>(20 + i);
        rtl.cycle(&d, std::nullopt, now);
        now += 0.4 * period;  // sometimes two pushes fall on one edge's time: the second takes the next
        rtl.select(d.dest, now);
        if (vcd_times) vcd_times->push_back(rtl.vcd_time_ps(now));
        if (i % 3 == 2) {
            rtl.cycle(nullptr, static_cast<phy::AlPa>(0xE0), now);
            if (vcd_times) vcd_times->push_back(rtl.vcd_time_ps(now));
        }
        now += 1.7 * period;
    }
}

}  // namespace

TEST_CASE("a pins-only RTL VCD holds cmdf_top's ports only, on the full dump's time axis", "[cosim]")
{
    const CommandFirst policy{CommandFifo::Reorder, true, true};
    const auto full_path = temp_vcd("full");
    const auto pins_path = temp_vcd("pins");
    {
        cosim::CommandFirstRtl full(policy, kClockMhz);
        full.open_vcd(full_path.string());
        drive(full);
    }
    {
        cosim::CommandFirstRtl pins(policy, kClockMhz);
        pins.open_vcd(pins_path.string(), cosim::VcdScope::PinsOnly);
        drive(pins);
    }
    const Vcd full = read_vcd(full_path);
    const Vcd pins = read_vcd(pins_path);
    std::filesystem::remove(full_path);
    std::filesystem::remove(pins_path);

    CHECK(std::set<std::string>(pins.names.begin(), pins.names.end()) == kPins);
    CHECK(pins.names.size() == kPins.size());  // each once: not also cmdf_top's own copies
    const std::set<std::string> all(full.names.begin(), full.names.end());
    for (const auto& p : kPins) CHECK(all.count(p) == 1);
    CHECK(all.count("slots_q") == 1);  // the storage, traced in the full dump only
    CHECK(full.names.size() > 2 * kPins.size());
    CHECK(pins.times == full.times);
    CHECK(!pins.times.empty());
    // Nothing of the pins is lost: every change of a pin in the full dump, and only those.
    CHECK(pins.body == changes_of(full.body, full.top_codes));
    CHECK(pins.bytes < full.bytes);
}

TEST_CASE("the VCD time a report names does not depend on whether a VCD is open", "[cosim]")
{
    const CommandFirst policy{CommandFifo::CommandQueue, false, true};
    const auto path = temp_vcd("times");
    std::vector<std::uint64_t> traced, untraced;
    {
        cosim::CommandFirstRtl rtl(policy, kClockMhz);
        rtl.open_vcd(path.string(), cosim::VcdScope::PinsOnly);
        drive(rtl, &traced);
    }
    {
        cosim::CommandFirstRtl rtl(policy, kClockMhz);
        drive(rtl, &untraced);
    }
    std::filesystem::remove(path);
    CHECK(traced == untraced);
    CHECK(std::is_sorted(traced.begin(), traced.end()));
}

TEST_CASE("the RTL's clock edges are at whole periods, and its assertion edge is reported", "[cosim]")
{
    cosim::CommandFirstRtl rtl(CommandFirst{CommandFifo::Off, false, false}, kClockMhz);
    const double period = 1e6 / kClockMhz;
    cosim::Descriptor d;
    d.dest = 0xE8;
    rtl.cycle(&d, std::nullopt, 3.2 * period);  // the first edge at or after 3.2 periods: the 4th
    CHECK(rtl.last_edge_ps() == static_cast<std::uint64_t>(std::llround(4 * period)));
    d.tag = 1;
    rtl.cycle(&d, std::nullopt, 3.2 * period);  // the same time: the next edge
    CHECK(rtl.last_edge_ps() == static_cast<std::uint64_t>(std::llround(5 * period)));
    // The state after that edge is drawn at least until the falling edge half a period later.
    CHECK(rtl.vcd_time_ps(3.2 * period) == static_cast<std::uint64_t>(std::llround(5.5 * period)));
    CHECK(rtl.vcd_time_ps(9 * period) == static_cast<std::uint64_t>(std::llround(9 * period)));
}
