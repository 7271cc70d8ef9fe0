#pragma once
// The port watcher: one text line for every change a watched port transmits,
//   <time ns> <AL_PA> <LPSM state> <words the previous word lasted> <previous>=><new>
// e.g. "1234.567 E8 ARBITRATING 12 IDLE=>ARB(E8)". Tests parse it; people debug with it. A watcher
// given a loop's name writes it after the time ("1234.567 loop1 E8 ..."): with two loops the same
// AL_PAs are on both.
#include <ostream>
#include <string>
#include <utility>

#include "fcal/loop/lpsm_state.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::loop {

class PortWatcher {
public:
    explicit PortWatcher(std::ostream& out, std::string loop = "") : out_(out), loop_(std::move(loop)) {}
    void record(double time_ns, phy::AlPa port, LpsmState state, std::uint64_t previous_words,
                const std::string& previous, const std::string& next);

private:
    std::ostream& out_;
    std::string loop_;  // "": not named
};

}  // namespace fcal::loop
