#pragma once
// A disk behind its target HBA (docs/model.md, "The disks"): a TLM-2.0 target speaking the protocol of
// disk/disk_command.hpp.
//
// One actuator serves the accepted commands first come, first served, one at a time; each takes
// access time + bytes / media rate. A read is ready (disk_ready) when its service ends: the data is
// then in the buffer. A write arrives only after its data is in the buffer and is ready when its
// service ends: the data is on the medium (write-through). A command holds one of `queue_slots`
// slots from acceptance until its disk_ready call; a command finding every slot taken is refused.
//
// An annotated delay on a command (loosely timed initiator) is taken as its arrival time: service
// does not start before it. Buffer reads and writes are instantaneous here, because the target
// HBA's DMA engine accounts for moving the data; the disk keeps no data (reads return zeros).
#include <cstdint>
#include <deque>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "disk/disk_command.hpp"

namespace fcal::disk {

// No defaults of their own (the simulator's parameter table holds them, disk.*): a DiskParams{}
// fails validate() until every field is set.
struct DiskParams {
    double access_time_s{};                   // seek + rotational latency, per command
    double media_rate_bytes_per_s{};          // MB = 10^6 bytes
    unsigned queue_slots{};                   // commands in service + waiting
};

// Throws std::invalid_argument naming the offending field.
void validate(const DiskParams& params);

struct DiskStats {
    std::uint64_t commands_accepted = 0;
    std::uint64_t commands_rejected = 0;    // every queue slot was taken
    std::uint64_t commands_served = 0;      // disk_ready called
    std::uint64_t reads_served = 0;
    std::uint64_t writes_served = 0;
    sc_core::sc_time busy_time;             // sum of finished services
    std::size_t max_queue = 0;              // most commands held at once (in service + waiting)
    std::uint64_t buffer_bytes_in = 0;      // write data put into the buffer
    std::uint64_t buffer_bytes_out = 0;     // read data taken from the buffer
};

class Disk : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<Disk> socket;

    SC_HAS_PROCESS(Disk);
    Disk(sc_core::sc_module_name name, const DiskParams& params);

    const DiskParams& params() const { return params_; }
    const DiskStats& stats() const { return stats_; }
    // Commands held now: the one in service and the waiting ones.
    std::size_t queued() const { return queue_.size(); }
    bool busy() const { return busy_; }
    // How long the actuator works on a command of `bytes`.
    sc_core::sc_time service_time(std::uint32_t bytes) const;

private:
    struct Held {
        bool read = true;
        std::uint32_t bytes = 0;
        std::uint64_t tag = 0;
        disk::DiskReady* done = nullptr;
        sc_core::sc_time arrival;
    };

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    void accept_command(tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);
    void move_data(tlm::tlm_generic_payload& trans);
    void start_next();
    void service_done();  // SC_METHOD on done_event_

    DiskParams params_;
    sc_core::sc_time access_time_;
    DiskStats stats_;
    std::deque<Held> queue_;  // front is in service while busy_
    bool busy_ = false;
    sc_core::sc_time service_;  // of the command in service
    sc_core::sc_event done_event_;
};

}  // namespace fcal::disk
