#pragma once
// The storage controller's RAID layer (docs/model.md, "The storage controller: volumes and RAID"):
// one volume over all member disks. Each request from the workload becomes the member commands of
// its plan (controller/raid_layout.hpp), sent as ordinary I/Os to the layer below (the device driver
// and HBA, or the ideal transport); the request completes when its last command completes.
//
// Split and merge: fork_join sends every request's commands at once, so those of different requests
// interleave in the disks' queues; strict serves one request at a time (the next starts when the
// previous has merged). A RAID 5 write's second phase (the writes) starts when its first (the reads)
// has completed.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <systemc>
#include <vector>

#include "fcal/controller/decode_layout.hpp"
#include "fcal/controller/disk_loads.hpp"
#include "fcal/controller/raid_layout.hpp"
#include "fcal/hba/io_request.hpp"
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
};

class VolumeController : public host::IoTarget {
public:
    using MemberCallback = std::function<void(const hba::IoRequest&)>;

    // `members`: where member commands go; their `disk` is the member index.
    VolumeController(const VolumeParams& params, host::IoTarget& members);

    void submit(hba::IoRequest* request) override;
    void set_completion_callback(CompletionCallback callback) override { on_complete_ = std::move(callback); }
    // Every completed member command (issued/completed timestamps are the controller's).
    void on_member_completed(MemberCallback callback) { on_member_ = std::move(callback); }
    // A request whose commands are about to be sent (for checking the split-merge discipline).
    void on_started(MemberCallback callback) { on_started_ = std::move(callback); }

    const RaidLayout& layout() const { return layout_; }
    std::uint64_t blocks() const { return decode_ ? decode_->blocks() : layout_.blocks(); }  // offered to the user
    const DecodeLayout* decode() const { return decode_.get(); }  // null unless params.decode
    const DiskLoads* loads() const { return loads_.get(); }      // DECODE's view of the members' loads
    std::size_t active() const { return active_.size(); }        // requests with commands out
    std::size_t waiting() const { return waiting_.size(); }      // strict: requests not yet started
    std::uint64_t outstanding(unsigned member) const { return outstanding_.at(member); }
    std::uint64_t member_ios() const { return member_ios_; }      // commands sent
    std::uint64_t full_rows() const { return full_rows_; }
    std::uint64_t read_modify_writes() const { return read_modify_writes_; }
    std::uint64_t reconstruct_writes() const { return reconstruct_writes_; }

private:
    struct Active {
        hba::IoRequest* request = nullptr;
        std::vector<MemberIo> second;  // sent once the first phase is done
        std::size_t pending = 0;       // commands of the current phase not yet complete
        std::string failure;           // a member command failed: so does the request
    };

    void start(hba::IoRequest* request);
    void send(std::uint64_t key, Active& active, const std::vector<MemberIo>& ios);
    void member_done(hba::IoRequest* sub);
    hba::IoRequest* allocate();

    VolumeParams params_;
    RaidLayout layout_;
    std::unique_ptr<DecodeLayout> decode_;
    std::unique_ptr<DiskLoads> loads_;
    host::IoTarget& members_;
    CompletionCallback on_complete_;
    MemberCallback on_member_, on_started_;

    std::map<std::uint64_t, Active> active_;             // by request id
    std::map<const hba::IoRequest*, std::uint64_t> owner_;  // member command -> request id
    std::deque<hba::IoRequest*> waiting_;
    std::deque<hba::IoRequest> pool_;  // deque: growing it keeps pointers valid
    std::vector<hba::IoRequest*> free_;
    std::vector<std::uint64_t> outstanding_;
    std::uint64_t member_ios_ = 0;
    std::uint64_t full_rows_ = 0, read_modify_writes_ = 0, reconstruct_writes_ = 0;
};

}  // namespace fcal::controller
