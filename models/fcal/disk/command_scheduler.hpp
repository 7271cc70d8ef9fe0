#pragma once
// The disk's eligible commands (a read at once, a write once its data is in the buffer) and which the
// actuator serves next (docs/disk.md, "The zoned model", scheduling): `fcfs` the oldest,
// `sptf` the one whose positioning is estimated shortest, the oldest on a tie. The estimate is the
// disk's to give (its mechanism, from the head's position and the spindle's phase now), so this class
// needs no clock. SystemC-free; a template over the disk's command record.
#include <cstddef>
#include <utility>

#include "fcal/kernel/ring_queue.hpp"

namespace fcal::disk {

enum class Scheduler { Fcfs, Sptf };
const char* to_string(Scheduler scheduler);  // "fcfs", "sptf"

template <class Command>
class CommandScheduler {
public:
    explicit CommandScheduler(Scheduler policy) : policy_(policy) {}

    // `command` became eligible (after those already here).
    void push(const Command& command) { ready_.push_back(command); }
    bool empty() const { return ready_.empty(); }
    std::size_t size() const { return ready_.size(); }

    // Takes out the command to serve next; `estimate(const Command&)` gives a positioning time (SPTF
    // only). There must be one.
    template <class Estimate>
    Command take(Estimate&& estimate)
    {
        std::size_t best = 0;
        if (policy_ == Scheduler::Sptf && ready_.size() > 1) {
            double best_s = 0;
            for (std::size_t i = 0; i < ready_.size(); ++i) {
                const double s = estimate(ready_[i]);
                if (i == 0 || s < best_s) {
                    best = i;
                    best_s = s;
                }
            }
        }
        Command next = ready_[best];
        ready_.erase(best);
        return next;
    }

    // Removes the oldest command `match` holds for; false if there is none.
    template <class Match>
    bool remove(Match&& match)
    {
        for (std::size_t i = 0; i < ready_.size(); ++i)
            if (match(ready_[i])) {
                ready_.erase(i);
                return true;
            }
        return false;
    }

private:
    Scheduler policy_;
    kernel::RingQueue<Command> ready_;  // in the order they became eligible; no allocation in steady state
};

}  // namespace fcal::disk
