#pragma once
// The state of a volume's disks (docs/model.md, "The storage controller: degraded mode and rebuild"):
// which disk serves each member, the pool of hot spares, the member being rebuilt and how far, and
// whether data have been lost. Pure bookkeeping with no SystemC and no I/O: the controller tells it
// what happened and asks it what to do.
//
// Disks are numbered as the controller's transport numbers them: members 0 .. n-1 first, then the
// spares. A member whose disk fails is missing until a spare has been rebuilt in its place; the
// volume loses its data when a member fails with no redundancy left for it (RAID 0: any member;
// RAID 1: the other copy missing; RAID 5: another member missing, or still being rebuilt).
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "fcal/controller/degradation.hpp"
#include "fcal/controller/raid_layout.hpp"

namespace fcal::controller {

enum class VolumeState { Optimal, Degraded, Rebuilding, Failed };

std::string to_string(VolumeState state);  // "optimal", "degraded", "rebuilding", "failed"

// What a lost disk was to the volume.
enum class DiskLoss { Spare, RebuildTarget, Member, DataLost };

class VolumeHealth {
public:
    VolumeHealth(RaidLevel level, unsigned members, unsigned spares);

    unsigned members() const { return members_; }
    unsigned disks() const { return static_cast<unsigned>(disks_.size()); }
    unsigned disk_of(unsigned member) const { return disk_of_.at(member); }  // its spare while rebuilding
    unsigned spares() const;                                                 // in the pool
    VolumeState state() const;
    bool data_lost() const { return !lost_.empty(); }
    const std::string& lost() const { return lost_; }  // why the data are lost (empty: they are not)
    const std::vector<std::string>& failures() const { return failures_; }  // every disk lost, named, in order
    const Degradation& degradation() const { return degradation_; }

    // A disk failed or was removed (`why` says which, and when). Throws std::invalid_argument for a
    // disk that does not exist or is already gone.
    DiskLoss disk_failed(unsigned disk, const std::string& why);
    // A new disk in the place of one that is gone: a spare. Throws std::invalid_argument otherwise.
    void disk_inserted(unsigned disk);

    // A failed member, a spare, no rebuild under way, no data lost, no rebuild abandoned since the
    // last disk event.
    bool can_rebuild() const;
    // The member failed first gets the lowest-numbered spare; returns the member.
    unsigned start_rebuild();
    std::optional<unsigned> rebuilding() const { return rebuilding_; }
    void rebuilt_rows(std::uint64_t rows);  // the spare holds the member's rows below `rows`
    void rebuild_done();                    // the spare is the member
    // The rebuild stopped for `why` (a rebuild command failed): the spare goes back to the pool, the
    // member stays missing, and no rebuild starts again until a disk fails or is inserted.
    void rebuild_abandoned(const std::string& why);
    const std::string& rebuild_failure() const { return rebuild_failure_; }

private:
    enum class Role { Member, Spare, Target, Gone };
    std::string name(unsigned disk) const;  // "disk 3 (member 3)"
    std::vector<unsigned> missing_members() const;

    RaidLevel level_;
    unsigned members_;
    std::vector<Role> disks_;
    std::vector<unsigned> disk_of_;     // by member
    std::vector<unsigned> member_at_;   // by disk (members and targets)
    std::deque<unsigned> failed_;       // members waiting for a spare, earliest failure first
    std::optional<unsigned> rebuilding_;
    Degradation degradation_;
    std::vector<std::string> failures_;
    std::string lost_;
    std::string rebuild_failure_;
    bool blocked_ = false;              // rebuild abandoned, no disk event since
};

}  // namespace fcal::controller
