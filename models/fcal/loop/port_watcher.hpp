#pragma once
// The port watcher: one text line for every change a watched port transmits,
//   <time ns> <AL_PA> <LPSM state> <words the previous word lasted> <previous>=><new>
// e.g. "1234.567 E8 ARBITRATING 12 IDLE=>ARB(E8)". Tests parse it; people debug with it.
#include <ostream>
#include <string>

#include "fcal/loop/lpsm_state.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::loop {

class PortWatcher {
public:
    explicit PortWatcher(std::ostream& out) : out_(out) {}
    void record(double time_ns, phy::AlPa port, LpsmState state, std::uint64_t previous_words,
                const std::string& previous, const std::string& next);

private:
    std::ostream& out_;
};

}  // namespace fcal::loop
