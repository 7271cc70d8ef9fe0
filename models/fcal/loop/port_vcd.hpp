#pragma once
// A port's signals in a VCD file: plain integers GTKWave shows as numbers, sampled from the port
// after each of its steps (an observer: it never influences the protocol). Codes: traces/README.md,
// "Integer codes".
#include <string>
#include <systemc>

#include "fcal/loop/lpsm.hpp"
#include "fcal/loop/word.hpp"

namespace fcal::loop {

class PortVcd {
public:
    PortVcd(sc_core::sc_trace_file* tf, const std::string& port);
    void sample(const Lpsm& lpsm, const Word& transmitting);

private:
    int state_ = 0, word_ = 0, credit_ = 0, free_buffers_ = 0;
    int li_frame_ = 0;  // the LI frame transmitted: its LI_ID's low byte (1 LISM .. 7 LILP), else 0
    bool access_ = true, arbitrating_ = false;
};

}  // namespace fcal::loop
