#include "fcal/loop/port_vcd.hpp"

#include "fcal/loop/loop_init_frame.hpp"

namespace fcal::loop {

PortVcd::PortVcd(sc_core::sc_trace_file* tf, const std::string& p)
{
    sc_core::sc_trace(tf, state_, p + ".lpsm_state");
    sc_core::sc_trace(tf, access_, p + ".access");
    sc_core::sc_trace(tf, arbitrating_, p + ".arbitrating");
    sc_core::sc_trace(tf, word_, p + ".tx_word");
    sc_core::sc_trace(tf, credit_, p + ".credit");
    sc_core::sc_trace(tf, free_buffers_, p + ".free_buffers");
    sc_core::sc_trace(tf, li_frame_, p + ".li_frame");
}

void PortVcd::sample(const Lpsm& lpsm, const Word& transmitting)
{
    state_ = static_cast<int>(lpsm.state());
    access_ = lpsm.access();
    arbitrating_ = lpsm.arbitrating();
    word_ = static_cast<int>(transmitting.kind);
    credit_ = lpsm.credit().credit();
    free_buffers_ = static_cast<int>(lpsm.credit().free_buffers());
    const bool li = transmitting.kind == WordKind::Frame && transmitting.frame->loop_init();
    li_frame_ = li ? static_cast<int>(static_cast<const LoopInitFrame&>(*transmitting.frame->content).id) & 0xFF : 0;
}

}  // namespace fcal::loop
