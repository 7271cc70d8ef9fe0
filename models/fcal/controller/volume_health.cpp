#include "fcal/controller/volume_health.hpp"

#include <algorithm>
#include <stdexcept>

namespace fcal::controller {

std::string to_string(VolumeState state)
{
    switch (state) {
    case VolumeState::Optimal: return "optimal";
    case VolumeState::Degraded: return "degraded";
    case VolumeState::Rebuilding: return "rebuilding";
    case VolumeState::Failed: return "failed";
    }
    throw std::logic_error("unknown volume state");
}

VolumeHealth::VolumeHealth(RaidLevel level, unsigned members, unsigned spares)
    : level_(level), members_(members), disks_(members + spares, Role::Spare), member_at_(members + spares, 0), degradation_(members)
{
    for (unsigned m = 0; m < members; ++m) {
        disks_[m] = Role::Member;
        disk_of_.push_back(m);
        member_at_[m] = m;
    }
}

unsigned VolumeHealth::spares() const { return static_cast<unsigned>(std::count(disks_.begin(), disks_.end(), Role::Spare)); }

VolumeState VolumeHealth::state() const
{
    if (data_lost()) return VolumeState::Failed;
    if (rebuilding_) return VolumeState::Rebuilding;
    return degradation_.any_missing() ? VolumeState::Degraded : VolumeState::Optimal;
}

std::string VolumeHealth::name(unsigned disk) const
{
    const std::string d = "disk " + std::to_string(disk);
    switch (disks_.at(disk)) {
    case Role::Member: return d + " (member " + std::to_string(member_at_[disk]) + ")";
    case Role::Target: return d + " (spare being rebuilt as member " + std::to_string(member_at_[disk]) + ")";
    case Role::Spare: return d + " (spare)";
    case Role::Gone: return d;
    }
    return d;
}

std::vector<unsigned> VolumeHealth::missing_members() const
{
    std::vector<unsigned> out;
    for (unsigned m = 0; m < members_; ++m)
        if (degradation_.present_rows(m) != Degradation::kAllRows) out.push_back(m);
    return out;
}

DiskLoss VolumeHealth::disk_failed(unsigned disk, const std::string& why)
{
    if (disk >= disks_.size()) throw std::invalid_argument("volume: no disk " + std::to_string(disk));
    if (disks_[disk] == Role::Gone) throw std::invalid_argument("volume: disk " + std::to_string(disk) + " is already gone");
    failures_.push_back(name(disk) + ": " + why);
    blocked_ = false;
    const Role role = disks_[disk];
    disks_[disk] = Role::Gone;
    if (role == Role::Spare) return DiskLoss::Spare;
    const unsigned member = member_at_[disk];
    if (role == Role::Target) {
        // The member is missing again, first in line for the next spare.
        rebuilding_.reset();
        degradation_.set_present_rows(member, 0);
        failed_.push_front(member);
        return DiskLoss::RebuildTarget;
    }
    // A member in service: is there redundancy left for it?
    const std::vector<unsigned> before = missing_members();
    degradation_.set_present_rows(member, 0);
    std::optional<unsigned> fatal;
    for (unsigned m : before)
        if (level_ == RaidLevel::Raid5 || (level_ == RaidLevel::Raid1 && m == (member ^ 1u))) fatal = m;
    if (level_ != RaidLevel::Raid1 && level_ != RaidLevel::Raid5) {
        lost_ = to_string(level_) + " has no redundancy: member " + std::to_string(member) + " (disk " + std::to_string(disk) + ": " + why + ") is lost";
    } else if (fatal) {
        lost_ = to_string(level_) + " member " + std::to_string(member) + " (disk " + std::to_string(disk) + ": " + why + ") failed while member " +
                std::to_string(*fatal) + (rebuilding_ == fatal ? " was being rebuilt" : " was missing");
    }
    if (data_lost()) {
        rebuilding_.reset();
        failed_.clear();
        return DiskLoss::DataLost;
    }
    failed_.push_back(member);
    return DiskLoss::Member;
}

void VolumeHealth::disk_inserted(unsigned disk)
{
    if (disk >= disks_.size()) throw std::invalid_argument("volume: no disk " + std::to_string(disk));
    if (disks_[disk] != Role::Gone)
        throw std::invalid_argument("volume: disk " + std::to_string(disk) + " is in place (only a failed or removed disk can be replaced)");
    disks_[disk] = Role::Spare;
    blocked_ = false;
}

bool VolumeHealth::can_rebuild() const { return !data_lost() && !rebuilding_ && !blocked_ && !failed_.empty() && spares() > 0; }

unsigned VolumeHealth::start_rebuild()
{
    if (!can_rebuild()) throw std::logic_error("volume: no rebuild can start");
    const unsigned member = failed_.front();
    failed_.pop_front();
    const unsigned spare = static_cast<unsigned>(std::find(disks_.begin(), disks_.end(), Role::Spare) - disks_.begin());
    disks_[spare] = Role::Target;
    member_at_[spare] = member;
    disk_of_[member] = spare;
    degradation_.set_present_rows(member, 0);
    rebuilding_ = member;
    return member;
}

void VolumeHealth::rebuilt_rows(std::uint64_t rows)
{
    if (!rebuilding_) throw std::logic_error("volume: no rebuild under way");
    degradation_.set_present_rows(*rebuilding_, rows);
}

void VolumeHealth::rebuild_done()
{
    if (!rebuilding_) throw std::logic_error("volume: no rebuild under way");
    degradation_.set_present_rows(*rebuilding_, Degradation::kAllRows);
    disks_[disk_of_[*rebuilding_]] = Role::Member;
    rebuilding_.reset();
}

void VolumeHealth::rebuild_abandoned(const std::string& why)
{
    if (!rebuilding_) throw std::logic_error("volume: no rebuild under way");
    const unsigned member = *rebuilding_;
    disks_[disk_of_[member]] = Role::Spare;
    degradation_.set_present_rows(member, 0);
    failed_.push_front(member);
    rebuilding_.reset();
    rebuild_failure_ = "rebuild of member " + std::to_string(member) + " abandoned: " + why;
    blocked_ = true;
}

}  // namespace fcal::controller
