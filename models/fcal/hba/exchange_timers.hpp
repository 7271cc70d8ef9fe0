#pragma once
// Deadlines of an HBA's exchanges (docs/model.md, "Faults and recovery: FCP recovery"): one SC_METHOD
// and one event for all of them, however many are running. A timer is started with a key (the
// HBA's own number for the exchange) and cancelled with the handle start() returned; when its
// deadline comes, the `expired` callback gets the key. With no timer running nothing is pending, so
// a simulation whose I/Os are stuck still ends (deadlock) instead of waiting for a stale deadline.
#include <cstdint>
#include <functional>
#include <map>
#include <systemc>

namespace fcal::hba {

class ExchangeTimers : public sc_core::sc_module {
public:
    using Handle = std::multimap<sc_core::sc_time, std::uint64_t>::iterator;

    SC_HAS_PROCESS(ExchangeTimers);
    ExchangeTimers(sc_core::sc_module_name name, std::function<void(std::uint64_t key)> expired);

    Handle start(const sc_core::sc_time& delay, std::uint64_t key);
    // Stops a running timer; none() (the handle of no timer, e.g. one that has expired) is ignored.
    void cancel(Handle handle);
    Handle none() { return due_.end(); }
    std::size_t running() const { return due_.size(); }

private:
    void fire();  // SC_METHOD on event_
    void rearm();

    std::multimap<sc_core::sc_time, std::uint64_t> due_;
    sc_core::sc_event event_;
    std::function<void(std::uint64_t)> expired_;
};

}  // namespace fcal::hba
