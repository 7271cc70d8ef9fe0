#pragma once
// The controller's sense of time (docs/model.md, "The storage controller: degraded mode and
// rebuild"): the current time, and one alarm, which the rebuild uses for its start delay and its rate
// cap. An interface so that the controller itself needs no SystemC kernel: the simulator gives it a
// KernelTimer (controller/kernel_timer.hpp), tests a clock of their own.
#include <functional>
#include <systemc>

namespace fcal::controller {

class VolumeTimer {
public:
    virtual ~VolumeTimer() = default;
    virtual sc_core::sc_time now() const = 0;
    // Calls `fire` once, `delay` from now, instead of any call still pending (at most one is).
    virtual void start(const sc_core::sc_time& delay, std::function<void()> fire) = 0;
    // The pending call, if any, will not happen.
    virtual void stop() = 0;
};

}  // namespace fcal::controller
