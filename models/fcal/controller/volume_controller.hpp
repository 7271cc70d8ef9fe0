#pragma once
// The storage controller's RAID layer (docs/controller.md, "Volumes and RAID"):
// one volume over all member disks. Each request from the workload becomes the member commands of
// its plan (controller/raid_layout.hpp), sent as ordinary I/Os to the layer below (the device driver
// and HBA, or the ideal transport); the request completes when its last command completes.
//
// Split and merge: fork_join sends every request's commands at once, so those of different requests
// interleave in the disks' queues; strict serves one request at a time (the next starts when the
// previous has merged). A RAID 5 write's second phase (the writes) starts when its first (the reads)
// has completed.
//
// Failures (docs/controller.md, "Degraded mode and rebuild"): disk_failed() and
// disk_inserted() tell it of disk events; it plans around missing members, rebuilds onto hot spares
// (controller/rebuild_engine.hpp) and fails every request once data are lost. The commands in flight
// to a disk that fails are lost with it: their requests plan again (reads) or go on without them
// (writes, whose data the parity or the other copy holds); the lost commands are still awaited from
// the layer below, and ignored when they come back, so none is lost or completed twice.
#include <cstdint>
#include <deque>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "fcal/controller/decode_layout.hpp"
#include "fcal/controller/disk_loads.hpp"
#include "fcal/controller/raid_layout.hpp"
#include "fcal/controller/rebuild_engine.hpp"
#include "fcal/controller/volume_health.hpp"
#include "fcal/controller/volume_statistics.hpp"
#include "fcal/controller/volume_timer.hpp"
#include "fcal/hba/io_request.hpp"
#include "fcal/kernel/pool_allocator.hpp"
#include "fcal/kernel/ring_queue.hpp"
#include "fcal/host/io_target.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::controller {

enum class SplitMerge { ForkJoin, Strict };

std::string to_string(SplitMerge discipline);  // "fork_join", "strict"

// No defaults: the simulator's parameter table holds them (volume.*).
struct VolumeParams {
    VolumeGeometry geometry;
    SplitMerge split_merge{};
    std::uint32_t block_bytes{};          // LBA unit, of the volume and of the members
    std::vector<phy::AlPa> member_al_pas; // member d has AL_PA member_al_pas[d]
    std::optional<DecodeParams> decode;   // set: a RAID 0 volume laid out and written the DECODE way
    // Hot spares: disks members .. members + spares - 1 of the layer below, with these AL_PAs.
    std::vector<phy::AlPa> spare_al_pas;
    // Rebuilds (RAID 1 and 5 with a timer): io_bytes 0 leaves them off (then no spares either).
    RebuildParams rebuild;
};

class VolumeController : public host::IoTarget {
public:
    using MemberCallback = std::function<void(const hba::IoRequest&)>;

    // `members`: where member commands go; their `disk` is the disk's index there (the members
    // first, then the spares). Without a timer the controller takes the kernel's time and cannot
    // rebuild (spares are refused).
    VolumeController(const VolumeParams& params, host::IoTarget& members);
    VolumeController(const VolumeParams& params, host::IoTarget& members, VolumeTimer& timer);

    void submit(hba::IoRequest* request) override;
    void set_completion_callback(CompletionCallback callback) override { on_complete_ = std::move(callback); }
    // Every completed member command, rebuild commands included (issued/completed timestamps are
    // the controller's).
    void on_member_completed(MemberCallback callback) { on_member_ = std::move(callback); }
    // A request whose commands are about to be sent for the first time (for checking the
    // split-merge discipline).
    void on_started(MemberCallback callback) { on_started_ = std::move(callback); }

    // Disk events, by the disk's index in the layer below. `why` names the event ("failed",
    // "removed"); the time is added. Throws std::invalid_argument for a disk that does not exist, is
    // already gone (failed), or is in place (inserted).
    void disk_failed(unsigned disk, const std::string& why);
    void disk_inserted(unsigned disk);  // a new disk where one is gone: a spare

    const RaidLayout& layout() const { return layout_; }
    std::uint64_t blocks() const { return decode_ ? decode_->blocks() : layout_.blocks(); }  // offered to the user
    const DecodeLayout* decode() const { return decode_.get(); }  // null unless params.decode
    const DiskLoads* loads() const { return loads_.get(); }      // DECODE's view of the members' loads
    std::size_t active() const { return active_.size(); }        // requests with commands out
    std::size_t waiting() const { return waiting_.size() + locked_.size(); }  // not started (strict) or held by a rebuild's lock
    std::uint64_t outstanding(unsigned member) const { return outstanding_.at(member); }
    std::uint64_t member_ios() const { return member_ios_; }      // host requests' commands sent
    std::uint64_t full_rows() const { return full_rows_; }
    std::uint64_t read_modify_writes() const { return read_modify_writes_; }
    std::uint64_t reconstruct_writes() const { return reconstruct_writes_; }

    VolumeState state() const { return health_.state(); }
    const VolumeHealth& health() const { return health_; }
    const VolumeStatistics& statistics() const { return stats_; }
    const RebuildEngine* rebuild() const { return engine_.get(); }  // null: rebuilds off
    std::uint64_t requests_completed() const { return completed_; }
    std::uint64_t requests_failed() const { return failed_; }
    std::size_t commands_out() const { return owner_.size(); }       // sent, not yet back (lost ones included)
    std::size_t lost_commands_out() const { return lost_out_; }      // sent to a disk since gone, not yet back
    // Whole run: member_ios, the RAID 5 write shapes, state, data_lost, data_lost_reason, failures,
    // spares, degraded reads and writes, phases, the rebuild's figures, lost_commands_out, and
    // DECODE's relocations.
    void report(nlohmann::json& volume) const;
    // One part of a diagnosis's line: " (volume: N requests active, M waiting)".
    void print_state(std::ostream& out) const;

private:
    enum class Kind { Host, Rebuild, Lost };
    struct Sent {  // a member command out
        std::uint64_t key = 0;  // request id, or rebuild round
        unsigned member = 0;
        unsigned disk = 0;
        Kind kind = Kind::Host;
    };
    struct Active {
        hba::IoRequest* request = nullptr;
        VolumePhase phase{};
        std::uint64_t first_row = 0, last_row = 0;
        std::vector<MemberIo> second;  // sent once the first phase is done
        bool writing = false;          // the second phase is out
        std::size_t pending = 0;       // commands of the current phase not yet complete
        std::string failure;           // a member command failed: so does the request
        bool lost = false;             // a command of this phase went with its disk
        bool lost_read = false;        // ... and it was a read: plan again
    };
    using ActiveMap = std::map<std::uint64_t, Active>;
    struct Held {
        hba::IoRequest* request = nullptr;
        VolumePhase phase{};
    };

    void start(hba::IoRequest* request, VolumePhase phase, bool again);
    void send(std::uint64_t key, Active& active, const std::vector<MemberIo>& ios);
    void dispatch(std::uint64_t key, Kind kind, const std::vector<MemberIo>& ios);
    void member_done(hba::IoRequest* sub);
    void phase_done(std::uint64_t key);
    void end(std::uint64_t key, std::string failure);  // by value: it may be the request's own
    void finish(hba::IoRequest* request, VolumePhase phase, const std::string& failure);
    void deliver(hba::IoRequest* request);
    void start_next_strict();
    void retry_held();
    void schedule_rebuild();
    void begin_rebuild();
    void health_changed();
    bool host_writing(std::uint64_t first_row, std::uint64_t last_row) const;
    hba::IoRequest* allocate();
    Active& open(std::uint64_t key);
    void close(ActiveMap::iterator it);

    VolumeParams params_;
    RaidLayout layout_;
    std::unique_ptr<DecodeLayout> decode_;
    std::unique_ptr<DiskLoads> loads_;
    host::IoTarget& members_;
    VolumeTimer& timer_;
    std::vector<phy::AlPa> al_pas_;  // by disk
    VolumeHealth health_;
    VolumeStatistics stats_;
    std::unique_ptr<RebuildEngine> engine_;
    CompletionCallback on_complete_;
    MemberCallback on_member_, on_started_;

    // What a request takes is kept for the next (docs/kernel.md, "No allocation per frame"): the
    // plan's lists, a finished request's entry with its list's capacity, the map nodes of the
    // commands out, the list of commands being submitted.
    Plan plan_;  // start()'s: read wholly before the first command is submitted
    ActiveMap active_;                             // by request id
    std::vector<ActiveMap::node_type> spare_active_;
    std::map<const hba::IoRequest*, Sent, std::less<const hba::IoRequest*>,
             kernel::PoolAllocator<std::pair<const hba::IoRequest* const, Sent>>>
        owner_;  // member commands out
    std::vector<hba::IoRequest*> spare_subs_;
    kernel::RingQueue<Held> waiting_;              // strict: not yet started
    std::deque<Held> locked_;                      // writes held by the rebuild's lock
    kernel::RingQueue<hba::IoRequest*> done_;      // finished, to be delivered
    bool delivering_ = false, retrying_ = false, retry_again_ = false;
    std::deque<hba::IoRequest> pool_;  // deque: growing it keeps pointers valid
    std::vector<hba::IoRequest*> free_;
    std::vector<std::uint64_t> outstanding_;  // by member
    std::uint64_t member_ios_ = 0, next_command_id_ = 0;
    std::uint64_t full_rows_ = 0, read_modify_writes_ = 0, reconstruct_writes_ = 0;
    std::uint64_t completed_ = 0, failed_ = 0;
    std::size_t lost_out_ = 0;
};

}  // namespace fcal::controller
