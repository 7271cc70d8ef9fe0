#include "fcal/controller/volume_controller.hpp"

#include <stdexcept>

namespace fcal::controller {

std::string to_string(SplitMerge discipline) { return discipline == SplitMerge::Strict ? "strict" : "fork_join"; }

VolumeController::VolumeController(const VolumeParams& params, host::IoTarget& members)
    : params_(params), layout_(params.geometry), members_(members), outstanding_(params.geometry.disks, 0)
{
    if (params_.block_bytes == 0) throw std::invalid_argument("volume block_bytes must be >= 1");
    if (params_.member_al_pas.size() != params_.geometry.disks)
        throw std::invalid_argument("volume member_al_pas must name every member disk");
    members_.set_completion_callback([this](hba::IoRequest* sub) { member_done(sub); });
    if (params_.decode) {
        decode_ = std::make_unique<DecodeLayout>(params_.geometry, *params_.decode);
        loads_ = std::make_unique<DiskLoads>(params_.geometry.disks, params_.decode->drive);
    }
}

void VolumeController::submit(hba::IoRequest* request)
{
    if (params_.split_merge == SplitMerge::Strict && !(active_.empty() && waiting_.empty())) {
        waiting_.push_back(request);
        return;
    }
    start(request);
}

void VolumeController::start(hba::IoRequest* request)
{
    const std::uint64_t blocks = (request->bytes + params_.block_bytes - 1) / params_.block_bytes;
    Plan plan = decode_ ? decode_->plan(request->read, request->lba, blocks, *loads_)
                        : layout_.plan(request->read, request->lba, blocks, outstanding_);
    full_rows_ += plan.full_rows;
    read_modify_writes_ += plan.read_modify_writes;
    reconstruct_writes_ += plan.reconstruct_writes;
    if (on_started_) on_started_(*request);
    Active& a = active_[request->id];
    a.request = request;
    a.second = std::move(plan.second);
    send(request->id, a, plan.first);
}

hba::IoRequest* VolumeController::allocate()
{
    if (free_.empty()) {
        pool_.emplace_back();
        return &pool_.back();
    }
    hba::IoRequest* io = free_.back();
    free_.pop_back();
    return io;
}

void VolumeController::send(std::uint64_t key, Active& active, const std::vector<MemberIo>& ios)
{
    // Count them all before sending any: a completion may come back inside submit().
    active.pending = ios.size();
    std::vector<hba::IoRequest*> subs;
    for (const MemberIo& m : ios) {
        hba::IoRequest* sub = allocate();
        *sub = hba::IoRequest{};
        sub->id = member_ios_++;
        sub->disk = m.disk;
        sub->target = params_.member_al_pas.at(m.disk);
        sub->read = m.read;
        sub->bytes = static_cast<std::uint32_t>(m.blocks * params_.block_bytes);
        sub->lba = m.lba;
        sub->issued = sc_core::sc_time_stamp();
        owner_[sub] = key;
        ++outstanding_[m.disk];
        if (loads_) loads_->sent(sub->id, m);
        subs.push_back(sub);
    }
    for (hba::IoRequest* sub : subs) members_.submit(sub);
}

void VolumeController::member_done(hba::IoRequest* sub)
{
    const auto owner = owner_.find(sub);
    if (owner == owner_.end()) throw std::logic_error("volume: completion of a command it did not send");
    const std::uint64_t key = owner->second;
    owner_.erase(owner);
    --outstanding_.at(sub->disk);
    if (loads_) loads_->completed(sub->id);
    sub->completed = sc_core::sc_time_stamp();
    Active& a = active_.at(key);
    // A failed member command (docs/model.md, "Faults and recovery: FCP recovery") fails its request,
    // once the phase's other commands are back; a RAID 5 write's second phase is then not sent.
    if (sub->failed() && a.failure.empty()) a.failure = "member disk " + std::to_string(sub->disk) + ": " + sub->failure;
    if (!sub->failed() && on_member_) on_member_(*sub);
    free_.push_back(sub);

    if (--a.pending > 0) return;
    if (!a.second.empty() && a.failure.empty()) {
        const std::vector<MemberIo> writes = std::move(a.second);
        a.second.clear();
        send(key, a, writes);
        return;
    }
    hba::IoRequest* request = a.request;
    request->failure = a.failure;
    active_.erase(key);
    request->completed = sc_core::sc_time_stamp();
    if (on_complete_) on_complete_(request);
    if (params_.split_merge == SplitMerge::Strict && active_.empty() && !waiting_.empty()) {
        hba::IoRequest* next = waiting_.front();
        waiting_.pop_front();
        start(next);
    }
}

}  // namespace fcal::controller
