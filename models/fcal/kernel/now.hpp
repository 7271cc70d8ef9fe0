#pragma once
// The current simulated time, inline. sc_core::sc_time_stamp() is a call into the SystemC library
// for what is one load; the loop's ports ask for the time several hundred times per I/O
// (docs/kernel.md, "The current time").
#include <systemc>

namespace fcal::kernel {

inline const sc_core::sc_time& now() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

}  // namespace fcal::kernel
