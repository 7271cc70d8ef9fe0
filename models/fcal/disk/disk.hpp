#pragma once
// A disk behind its target HBA (docs/model.md, "The disks"): a TLM-2.0 target speaking the protocol of
// disk/disk_command.hpp.
//
// A new command takes one of `queue_slots` slots, or is answered TASK SET FULL when all are taken;
// it keeps the slot until its disk_ready call. One actuator serves the eligible commands (a read at
// once, a write once its data is in the buffer) one at a time, first come first served or shortest
// positioning time first. A Mechanism (fixed or zoned) positions for each and gives the media rate.
//
// Fixed model: a read's data are announced when its service ends (no streaming), a write is
// written through; the disk's buffer has no limit. Zoned model: a read streams from the medium into
// the buffer (`buffer_bytes`), announced to the HBA whenever the bytes not yet announced reach
// `buffer_full_ratio` of the buffer or are the rest of the read; the medium pauses while the buffer
// is full, and then waits for its next sector to come round again. A write is written through, or with `write_cache` completes once its data is in the
// buffer (write-back) while the medium write follows as a background job; the write cache holds at
// most buffer_bytes of data not yet on the medium, and a write that does not fit is written through.
//
// A WRITE SAME (DiskCommand::same_blocks) is written through: once positioned at its first sector,
// the medium passes the whole range (Mechanism::pass_seconds).
//
// An annotated delay on any transaction is its effective time: a command or a write's data do not
// count as arrived, and read bytes do not leave the buffer, before sc_time_stamp() + delay. The disk
// keeps no data (reads return zeros).
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "fcal/disk/disk_command.hpp"
#include "fcal/disk/fixed_mechanism.hpp"
#include "fcal/disk/mechanism.hpp"
#include "fcal/disk/zoned_mechanism.hpp"
#include "fcal/kernel/pool_allocator.hpp"
#include "fcal/kernel/timers.hpp"

namespace fcal::disk {

enum class DiskModel { Fixed, Zoned };
enum class Scheduler { Fcfs, Sptf };
const char* to_string(DiskModel model);       // "fixed", "zoned"
const char* to_string(Scheduler scheduler);   // "fcfs", "sptf"

// No defaults of their own (the simulator's parameter table holds them, disk.*): a DiskParams{}
// fails validate() until every field the model uses is set.
struct DiskParams {
    DiskModel model{};
    unsigned queue_slots{};              // commands in service + waiting
    std::uint64_t seed{};                // the disk's random stream (access times, stochastic positions)
    // Fixed model.
    double access_time_s{};              // mean access time per command
    AccessDist access_dist{};
    double media_rate_bytes_per_s{};     // MB = 10^6 bytes
    std::uint64_t capacity_sectors{};    // 512-byte sectors; 0 = no capacity (the LBA is not checked)
    // Zoned model.
    ZonedParams zoned;
    Scheduler scheduler{};
    bool write_cache{};
    std::uint64_t buffer_bytes{};
    double buffer_full_ratio{};          // (0, 1]
};

// Throws std::invalid_argument naming the offending field.
void validate(const DiskParams& params);

struct DiskStats {
    std::uint64_t commands_accepted = 0;
    std::uint64_t commands_rejected = 0;    // TASK SET FULL: every queue slot was taken
    std::uint64_t commands_served = 0;      // disk_ready called
    std::uint64_t commands_aborted = 0;     // dropped while holding a slot (CommandKind::Abort)
    std::uint64_t reads_served = 0;
    std::uint64_t writes_served = 0;
    std::uint64_t writes_cached = 0;        // write-back: complete before their media write
    sc_core::sc_time busy_time;             // actuator: positioning + media transfer (+ pauses)
    std::size_t max_queue = 0;              // most slots held at once
    std::uint64_t buffer_bytes_in = 0;      // write data put into the buffer
    std::uint64_t buffer_bytes_out = 0;     // read data taken from the buffer
    std::uint64_t media_bytes = 0;          // moved to or from the medium (a WRITE SAME: its whole range)
    std::uint64_t announcements = 0;        // read_data calls (partial reads handed to the HBA)
    std::uint64_t media_pauses = 0;         // the medium waited for buffer room
    // Sums over every positioning, seconds.
    std::uint64_t positionings = 0;
    double overhead_s = 0, seek_s = 0, rotation_s = 0, transfer_s = 0;
};

class Disk : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<Disk> socket;

    SC_HAS_PROCESS(Disk);
    Disk(sc_core::sc_module_name name, const DiskParams& params);

    const DiskParams& params() const { return params_; }
    const DiskStats& stats() const { return stats_; }
    // Slots held now.
    std::size_t queued() const { return slots_used_; }
    bool busy() const { return busy_; }
    // Sectors the workload may address; 0 for the fixed model (no geometry).
    std::uint64_t capacity_sectors() const { return mechanism_->capacity_sectors(); }
    const Mechanism& mechanism() const { return *mechanism_; }

private:
    struct Task {
        bool read = true;
        std::uint32_t bytes = 0;
        std::uint64_t lba = 0;
        std::uint64_t tag = 0;
        std::uint32_t same_blocks = 0;  // WRITE SAME: sectors the one sector of data goes to
        DiskReady* done = nullptr;  // nullptr: a write-back's media write (holds no slot)
        sc_core::sc_time arrival;   // eligible from
    };
    // Work due at a transaction's effective time (its annotated delay): a write-back's completion
    // (`done` set), or read bytes leaving the buffer.
    struct Deferred {
        DiskReady* done = nullptr;
        std::uint64_t tag = 0;
        std::uint32_t release = 0;
    };
    // A read's bytes in the buffer.
    struct ReadBuffer {
        std::uint32_t total = 0;
        std::uint32_t media = 0;      // read from the medium
        std::uint32_t announced = 0;  // handed to the HBA
        std::uint32_t taken = 0;      // read out by the HBA
    };

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    void new_command(tlm::tlm_generic_payload& trans, DiskCommand& cmd, const sc_core::sc_time& delay);
    void write_data_in(tlm::tlm_generic_payload& trans, const DiskCommand& cmd, const sc_core::sc_time& delay);
    void abort_command(tlm::tlm_generic_payload& trans, const DiskCommand& cmd);
    void move_data(tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);
    void start_next();
    std::size_t pick() const;
    void actuator_event();      // SC_METHOD on done_event_
    void service_done();
    void media_step();
    void schedule_step();
    void announce(ReadBuffer& b);
    void release(std::uint32_t bytes);
    void deferred(Deferred& d);
    bool streams() const { return params_.model == DiskModel::Zoned; }

    DiskParams params_;
    std::unique_ptr<Mechanism> mechanism_;
    DiskStats stats_;
    std::size_t slots_used_ = 0;
    // By tag, their nodes from a pool (no allocation per command in steady state).
    template <class Value>
    using ByTag = std::map<std::uint64_t, Value, std::less<std::uint64_t>, kernel::PoolAllocator<std::pair<const std::uint64_t, Value>>>;
    ByTag<Task> writes_waiting_;                      // accepted writes whose data is not all in yet
    std::deque<Task> ready_;                          // eligible, in the order they became so
    ByTag<ReadBuffer> buffers_;                       // reads with data (to come) in the buffer
    std::uint64_t buffer_used_ = 0;                   // read data in the buffer, not yet taken
    std::uint64_t dirty_ = 0;                         // write-back data not yet on the medium
    // The actuator.
    bool busy_ = false;
    Task current_;
    sc_core::sc_time service_;       // fixed-length service: its length
    sc_core::sc_time started_;       // when positioning began
    double media_rate_ = 0;          // streaming read: bytes per second
    std::uint32_t step_bytes_ = 0;   // streaming read: the media step under way
    bool paused_ = false;            // streaming read: waiting for buffer room
    sc_core::sc_time paused_at_;
    bool streaming_ = false;
    sc_core::sc_event done_event_;
    kernel::Timers<Deferred> timers_;
};

}  // namespace fcal::disk
