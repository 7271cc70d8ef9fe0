#pragma once
// Test-only: the layer below a storage controller, on a FakeTime. Each disk serves its commands one at
// a time in arrival order, each taking the read or write service time set for the disk (`servers`
// unlimited: every command takes its service time from arrival, none waits). A disk marked dead
// holds what it gets and fails it all after `dead_after` (as the FCP timeouts would), or at once on
// release_dead(). Every command is recorded, and the account of sent and returned is kept.
#include <cstdint>
#include <string>
#include <vector>

#include "fake_time.hpp"
#include "fcal/hba/io_request.hpp"
#include "fcal/host/io_target.hpp"

namespace fcal::test {

class FakeDisks : public host::IoTarget {
public:
    struct Sent {
        unsigned disk;
        bool read;
        std::uint64_t lba;
        std::uint32_t bytes;
        sc_core::sc_time at;
    };

    FakeDisks(FakeTime& time, unsigned disks, sc_core::sc_time service, bool unlimited_servers)
        : time_(time), read_(disks, service), write_(disks, service), busy_until_(disks), dead_(disks, false), unlimited_(unlimited_servers)
    {
    }

    void set_service(unsigned disk, sc_core::sc_time read, sc_core::sc_time write)
    {
        read_.at(disk) = read;
        write_.at(disk) = write;
    }
    void kill(unsigned disk, sc_core::sc_time dead_after)
    {
        dead_.at(disk) = true;
        dead_after_ = dead_after;
    }

    void submit(hba::IoRequest* io) override
    {
        sent.push_back(Sent{io->disk, io->read, io->lba, io->bytes, time_.now()});
        ++out_;
        if (dead_.at(io->disk)) {
            time_.at(time_.now() + dead_after_, [this, io] { back(io, "disk " + std::to_string(io->disk) + " does not answer"); });
            return;
        }
        const sc_core::sc_time service = io->read ? read_.at(io->disk) : write_.at(io->disk);
        sc_core::sc_time& busy = busy_until_.at(io->disk);
        const sc_core::sc_time begin = unlimited_ || busy < time_.now() ? time_.now() : busy;
        if (!unlimited_) busy = begin + service;
        time_.at(begin + service, [this, io] { back(io, ""); });
    }
    void set_completion_callback(CompletionCallback callback) override { done_ = std::move(callback); }

    std::size_t out() const { return out_; }        // sent, not yet back
    std::uint64_t returned() const { return returned_; }
    std::vector<Sent> sent;

private:
    void back(hba::IoRequest* io, const std::string& failure)
    {
        --out_;
        ++returned_;
        io->failure = failure;
        done_(io);
    }

    FakeTime& time_;
    std::vector<sc_core::sc_time> read_, write_, busy_until_;
    std::vector<bool> dead_;
    bool unlimited_;
    sc_core::sc_time dead_after_;
    CompletionCallback done_;
    std::size_t out_ = 0;
    std::uint64_t returned_ = 0;
};

}  // namespace fcal::test
