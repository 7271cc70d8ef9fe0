#pragma once
// A disk behind its target HBA (docs/disk.md, "The disks"): a TLM-2.0 target speaking the protocol of
// disk/disk_command.hpp.
//
// A new command takes one of `queue_slots` slots, or is answered TASK SET FULL when all are taken;
// it keeps the slot until its Ready notice. One actuator serves the eligible commands (a read at
// once, a write once its data is in the buffer) one at a time, first come first served or shortest
// positioning time first (CommandScheduler). A Mechanism (fixed or zoned) positions for each and
// gives the media rate; ReadBuffer keeps the reads' bytes and WriteCache the write-back data.
//
// Fixed model: a read's data are announced when its service ends (no streaming), a write is
// written through; the disk's buffer has no limit. Zoned model: a read streams from the medium into
// the buffer (`buffer_bytes`), announced to the HBA whenever the bytes not yet announced reach
// `buffer_full_ratio` of the buffer or are the rest of the read; the medium pauses while the buffer
// is full, and then waits for its next sector to come round again. A write is written through, or
// with `write_cache` completes once its data is in the buffer (write-back) while the medium write
// follows as a background job; the write cache holds at most buffer_bytes of data not yet on the
// medium, and a write that does not fit is written through.
//
// Fixed model with `max_concurrent` above 1 (docs/disk.md, "Concurrent commands"): up to
// that many eligible commands are in service at once, first come first served, each running its own
// access time; the media transfers go one at a time at the media rate, in the order the accesses
// ended (ConcurrentService). With 1 the actuator above serves one command at a time.
//
// A WRITE SAME (DiskCommand::same_blocks) is written through: once positioned at its first sector,
// the medium passes the whole range (Mechanism::pass_seconds).
//
// An annotated delay on any transaction is its effective time: a command or a write's data do not
// count as arrived, and read bytes do not leave the buffer, before sc_time_stamp() + delay. The disk
// keeps no data (reads return zeros).
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "fcal/disk/command_scheduler.hpp"
#include "fcal/disk/concurrent_service.hpp"
#include "fcal/disk/disk_command.hpp"
#include "fcal/disk/disk_notifier.hpp"
#include "fcal/disk/disk_stats.hpp"
#include "fcal/disk/fixed_mechanism.hpp"
#include "fcal/disk/mechanism.hpp"
#include "fcal/disk/read_buffer.hpp"
#include "fcal/disk/write_cache.hpp"
#include "fcal/disk/zoned_mechanism.hpp"
#include "fcal/kernel/pool_allocator.hpp"
#include "fcal/kernel/timers.hpp"

namespace fcal::disk {

enum class DiskModel { Fixed, Zoned };
const char* to_string(DiskModel model);       // "fixed", "zoned"

// In SI units, with no defaults of their own (the simulator's parameter table holds them, disk.*):
// a DiskParams{} fails validate() until every field the model uses is set.
struct DiskParams {
    DiskModel model{};
    unsigned queue_slots{};              // commands in service + waiting
    // Fixed model: commands in service at once (disk.max_concurrent); 1, one at a time, unless set.
    unsigned max_concurrent = 1;
    std::uint64_t seed{};                // the disk's random stream (access times, stochastic positions)
    // The 8-byte port name of its FC port (disk.<i>.port_name; docs/loop_init.md, "Master selection");
    // unset: the system builder derives one from the disk's ring position.
    std::optional<std::uint64_t> port_name;
    // Fixed model.
    double access_time_s{};              // mean access time per command
    AccessDist access_dist{};
    double media_rate_bytes_per_s{};     // MB = 10^6 bytes
    double capacity_bytes{};             // 0 = no capacity (the LBA is not checked)
    // Zoned model.
    ZonedParams zoned;
    Scheduler scheduler{};
    bool write_cache{};
    std::uint64_t buffer_bytes{};
    double buffer_full_ratio{};          // (0, 1]
};

// Throws std::invalid_argument naming the offending field.
void validate(const DiskParams& params);

// A fixed disk's capacity in its 512-byte sectors, whole ones only (0: no capacity).
inline std::uint64_t fixed_capacity_sectors(const DiskParams& p)
{
    return static_cast<std::uint64_t>(p.capacity_bytes / kFixedSectorBytes);
}

class Disk : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<Disk, 32, DiskProtocol> socket;

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
    // Its buffer hands out a read's data whenever the HBA takes them: the read does not stream (the
    // fixed model), so the time of a take changes nothing (docs/disk.md).
    bool reads_whenever() const { return !streams(); }
    // Its model and its capacity in bytes (0 for the fixed model: no geometry); what its actuator
    // did is stats().report (the run's disk_mechanics sums them over the disks).
    void report_model(nlohmann::json& j) const;
    // One line of a diagnosis: "  name holds N commands".
    void print_state(std::ostream& out) const;

private:
    struct Task {
        bool read = true;
        std::uint32_t bytes = 0;
        std::uint64_t lba = 0;
        std::uint64_t tag = 0;
        std::uint32_t same_blocks = 0;  // WRITE SAME: sectors the one sector of data goes to
        bool holds_slot = true;     // false: a write-back's media write
        sc_core::sc_time arrival;   // eligible from
    };
    // Work due at a transaction's effective time (its annotated delay): a write-back's completion
    // (`write_back`), or read bytes leaving the buffer.
    // With max_concurrent > 1 also the end of a command's access or media transfer (`service`:
    // ConcurrentService's number).
    struct Deferred {
        enum class Kind : std::uint8_t { Release, WriteBack, AccessEnd, TransferEnd };
        Kind kind = Kind::Release;
        std::uint64_t tag = 0;
        std::uint32_t release = 0;
        std::uint64_t service = 0;
    };

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    void new_command(tlm::tlm_generic_payload& trans, DiskCommand& cmd, const sc_core::sc_time& delay);
    void write_data_in(tlm::tlm_generic_payload& trans, const DiskCommand& cmd, const sc_core::sc_time& delay);
    void abort_command(tlm::tlm_generic_payload& trans, const DiskCommand& cmd);
    void move_data(tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);
    void start_next();
    // Positions for `task` from `start`: the positioning, with the stats counted; returns the media seconds.
    double position(const Task& task, const sc_core::sc_time& start, Positioning& p);
    // max_concurrent > 1.
    bool concurrent() const { return params_.max_concurrent > 1; }
    void start_concurrent();
    void start_transfer();
    void transfer_done(std::uint64_t service);
    void end_busy_if_idle();
    void actuator_event();      // SC_METHOD on done_event_; abort_command takes a due end through it too
    void arm_actuator(const sc_core::sc_time& delay);  // the operation under way ends after `delay`
    void service_done();
    void media_step();
    void schedule_step();
    void announce();            // the current read's bytes in the buffer, to the HBA
    void release(std::uint32_t bytes);
    void deferred(Deferred& d);
    bool streams() const { return params_.model == DiskModel::Zoned; }

    DiskParams params_;
    std::unique_ptr<Mechanism> mechanism_;
    DiskStats stats_;
    std::size_t slots_used_ = 0;
    // Accepted writes whose data is not all in yet, by tag, their nodes from a pool (no allocation per
    // command in steady state).
    std::map<std::uint64_t, Task, std::less<std::uint64_t>, kernel::PoolAllocator<std::pair<const std::uint64_t, Task>>> writes_waiting_;
    CommandScheduler<Task> scheduler_;  // eligible commands
    ReadBuffer buffer_;                 // reads with data (to come) in the buffer
    WriteCache cache_;
    ConcurrentService<Task> concurrent_;  // max_concurrent > 1
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
    sc_core::sc_time actuator_due_;  // when the operation under way ends
    kernel::Timers<Deferred> timers_;
    DiskNotifier notifier_;  // the backward path
};

}  // namespace fcal::disk
