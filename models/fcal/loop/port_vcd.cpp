#include "fcal/loop/port_vcd.hpp"

namespace fcal::loop {

PortVcd::PortVcd(sc_core::sc_trace_file* tf, const std::string& p)
{
    sc_core::sc_trace(tf, state_, p + ".lpsm_state");
    sc_core::sc_trace(tf, access_, p + ".access");
    sc_core::sc_trace(tf, arbitrating_, p + ".arbitrating");
    sc_core::sc_trace(tf, word_, p + ".tx_word");
    sc_core::sc_trace(tf, credit_, p + ".credit");
    sc_core::sc_trace(tf, free_buffers_, p + ".free_buffers");
}

void PortVcd::sample(const Lpsm& lpsm, const Word& transmitting)
{
    state_ = static_cast<int>(lpsm.state());
    access_ = lpsm.access();
    arbitrating_ = lpsm.arbitrating();
    word_ = static_cast<int>(transmitting.kind);
    credit_ = lpsm.credit().credit();
    free_buffers_ = static_cast<int>(lpsm.credit().free_buffers());
}

}  // namespace fcal::loop
