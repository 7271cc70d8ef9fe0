#pragma once
// Requests a disk refused with TASK SET FULL (docs/disk.md, "TASK SET FULL"): the initiator
// holds each for initiator.task_set_full_retry_us and then issues it again as a new exchange. The
// delay is the same for all, so they come due in the order they were refused: a FIFO, whose front is
// the one due when the HBA's next retry deadline expires. SystemC-free.
#include <cstddef>
#include <cstdint>

#include "fcal/kernel/ring_queue.hpp"

namespace fcal::hba {

struct IoRequest;

class TaskSetFullRetry {
public:
    // `io` was refused: it waits (one more retry).
    void hold(IoRequest* io)
    {
        waiting_.push_back(io);
        ++retries_;
    }
    // The oldest waiting request, whose delay has run out: to be issued again. Null if none waits.
    IoRequest* due()
    {
        if (waiting_.empty()) return nullptr;
        IoRequest* io = waiting_.front();
        waiting_.pop_front();
        return io;
    }

    // Requests refused and held, since the start.
    std::uint64_t retries() const { return retries_; }
    // Requests waiting now.
    std::size_t waiting() const { return waiting_.size(); }

private:
    kernel::RingQueue<IoRequest*> waiting_;
    std::uint64_t retries_ = 0;
};

}  // namespace fcal::hba
