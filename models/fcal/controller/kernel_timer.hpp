#pragma once
// VolumeTimer on the SystemC kernel: sc_time_stamp() and one event with one SC_METHOD. Following the
// project's timer habit, a later start() does not cancel the event: the method re-arms itself for
// the time still due when it fires early, and an earlier start() simply notifies earlier. Only stop()
// cancels, and it is rare (a rebuild ends early).
#include <functional>
#include <systemc>

#include "fcal/controller/volume_timer.hpp"

namespace fcal::controller {

class KernelTimer : public sc_core::sc_module, public VolumeTimer {
public:
    SC_HAS_PROCESS(KernelTimer);
    explicit KernelTimer(sc_core::sc_module_name name);

    sc_core::sc_time now() const override { return sc_core::sc_time_stamp(); }
    void start(const sc_core::sc_time& delay, std::function<void()> fire) override;
    void stop() override;

private:
    void fire();  // SC_METHOD on event_

    sc_core::sc_event event_;
    sc_core::sc_time due_;
    std::function<void()> pending_;
};

}  // namespace fcal::controller
