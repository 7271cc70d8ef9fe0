#pragma once
// Test-only: a discrete-event time line without the SystemC kernel, for the storage controller. It
// is the controller's VolumeTimer (one alarm) and runs any other scheduled call (the fake disks'
// completions) in time order, calls at the same time in the order they were scheduled.
#include <functional>
#include <map>
#include <optional>
#include <systemc>
#include <utility>

#include "fcal/controller/volume_timer.hpp"

namespace fcal::test {

class FakeTime : public controller::VolumeTimer {
public:
    using Key = std::pair<sc_core::sc_time, std::uint64_t>;

    sc_core::sc_time now() const override { return now_; }
    void start(const sc_core::sc_time& delay, std::function<void()> fire) override
    {
        stop();
        alarm_ = at(now_ + delay, std::move(fire));
    }
    void stop() override
    {
        if (alarm_) calls_.erase(*alarm_);
        alarm_.reset();
    }

    Key at(const sc_core::sc_time& when, std::function<void()> call)
    {
        const Key key{when, seq_++};
        calls_.emplace(key, std::move(call));
        return key;
    }
    // Runs the next call; false when none is left.
    bool step()
    {
        if (calls_.empty()) return false;
        auto it = calls_.begin();
        const Key key = it->first;
        std::function<void()> call = std::move(it->second);
        calls_.erase(it);
        if (alarm_ && *alarm_ == key) alarm_.reset();
        now_ = key.first;
        call();
        return true;
    }
    void run() { while (step()) {} }
    // Runs every call due up to `until`, then moves the time there.
    void run_until(const sc_core::sc_time& until)
    {
        while (!calls_.empty() && calls_.begin()->first.first <= until) step();
        if (now_ < until) now_ = until;
    }
    bool alarm_pending() const { return alarm_.has_value(); }

private:
    sc_core::sc_time now_;
    std::uint64_t seq_ = 0;
    std::map<Key, std::function<void()>> calls_;
    std::optional<Key> alarm_;
};

}  // namespace fcal::test
