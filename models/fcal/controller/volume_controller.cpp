#include "fcal/controller/volume_controller.hpp"

#include <algorithm>
#include <ostream>
#include <set>
#include <stdexcept>

namespace fcal::controller {

std::string to_string(SplitMerge discipline) { return discipline == SplitMerge::Strict ? "strict" : "fork_join"; }

namespace {

// The kernel's time and no alarm: a controller built without a timer never rebuilds.
class KernelTime : public VolumeTimer {
public:
    sc_core::sc_time now() const override { return sc_core::sc_time_stamp(); }
    void start(const sc_core::sc_time&, std::function<void()>) override { throw std::logic_error("volume: no timer"); }
    void stop() override {}
};

KernelTime kernel_time;

bool redundant(RaidLevel level) { return level == RaidLevel::Raid1 || level == RaidLevel::Raid5; }

}  // namespace

VolumeController::VolumeController(const VolumeParams& params, host::IoTarget& members)
    : VolumeController(params, members, kernel_time)
{
}

VolumeController::VolumeController(const VolumeParams& params, host::IoTarget& members, VolumeTimer& timer)
    : params_(params), layout_(params.geometry), members_(members), timer_(timer),
      health_(params.geometry.level, params.geometry.disks, static_cast<unsigned>(params.spare_al_pas.size())),
      outstanding_(params.geometry.disks, 0)
{
    if (params_.block_bytes == 0) throw std::invalid_argument("volume block_bytes must be >= 1");
    if (params_.member_al_pas.size() != params_.geometry.disks)
        throw std::invalid_argument("volume member_al_pas must name every member disk");
    al_pas_ = params_.member_al_pas;
    al_pas_.insert(al_pas_.end(), params_.spare_al_pas.begin(), params_.spare_al_pas.end());
    const bool rebuilds = redundant(params_.geometry.level) && params_.rebuild.io_bytes > 0 && &timer != &kernel_time;
    if (!params_.spare_al_pas.empty() && !rebuilds)
        throw std::invalid_argument("volume spares need a raid1 or raid5 volume, the rebuild parameters and a timer");
    members_.set_completion_callback([this](hba::IoRequest* sub) { member_done(sub); });
    if (params_.decode) {
        decode_ = std::make_unique<DecodeLayout>(params_.geometry, *params_.decode);
        loads_ = std::make_unique<DiskLoads>(params_.geometry.disks, params_.decode->drive);
    }
    if (rebuilds) {
        RebuildEngine::Hooks hooks;
        hooks.send = [this](std::uint64_t round, const std::vector<MemberIo>& ios) { dispatch(round, Kind::Rebuild, ios); };
        hooks.host_writing = [this](std::uint64_t first, std::uint64_t last) { return host_writing(first, last); };
        hooks.progress = [this](std::uint64_t rows) {
            health_.rebuilt_rows(rows);
            retry_held();
        };
        hooks.finished = [this] {
            health_.rebuild_done();
            health_changed();
        };
        hooks.failed = [this](const std::string& why) {
            health_.rebuild_abandoned(why);
            health_changed();
        };
        engine_ = std::make_unique<RebuildEngine>(params_.geometry, params_.rebuild, params_.block_bytes, timer_, std::move(hooks));
    }
}

void VolumeController::submit(hba::IoRequest* request)
{
    const VolumePhase phase = stats_.phase();
    if (params_.split_merge == SplitMerge::Strict && !(active_.empty() && waiting_.empty() && locked_.empty())) {
        waiting_.push_back(Held{request, phase});
        return;
    }
    start(request, phase, false);
}

void VolumeController::start(hba::IoRequest* request, VolumePhase phase, bool again)
{
    if (health_.data_lost()) {
        finish(request, phase, "volume failed: " + health_.lost());
        return;
    }
    const std::uint64_t blocks = (request->bytes + params_.block_bytes - 1) / params_.block_bytes;
    // The rows matter only to a rebuild's locks.
    const auto [first_row, last_row] = engine_ ? layout_.rows_of(request->lba, blocks) : std::pair<std::uint64_t, std::uint64_t>{0, 0};
    if (!request->read && engine_ && engine_->locks(first_row, last_row)) {
        locked_.push_back(Held{request, phase});
        return;
    }
    if (decode_)
        plan_ = decode_->plan(request->read, request->lba, blocks, *loads_);
    else
        layout_.plan(request->read, request->lba, blocks, outstanding_, health_.degradation(), plan_);
    const Plan& plan = plan_;
    if (!plan.unavailable.empty()) {
        finish(request, phase, "volume failed: " + plan.unavailable);
        return;
    }
    full_rows_ += plan.full_rows;
    read_modify_writes_ += plan.read_modify_writes;
    reconstruct_writes_ += plan.reconstruct_writes;
    if (plan.degraded > 0) stats_.planned_degraded(request->read);
    if (on_started_ && !again) on_started_(*request);
    Active& a = open(request->id);
    a.request = request;
    a.phase = phase;
    a.first_row = first_row;
    a.last_row = last_row;
    a.second.assign(plan.second.begin(), plan.second.end());
    send(request->id, a, plan.first);
}

VolumeController::Active& VolumeController::open(std::uint64_t key)
{
    auto it = active_.find(key);
    if (it == active_.end()) {
        if (spare_active_.empty()) {
            it = active_.try_emplace(key).first;
        } else {
            ActiveMap::node_type node = std::move(spare_active_.back());
            spare_active_.pop_back();
            node.key() = key;
            it = active_.insert(std::move(node)).position;
        }
    }
    Active& a = it->second;
    std::vector<MemberIo> second = std::move(a.second);  // its capacity only
    second.clear();
    a = Active{};
    a.second = std::move(second);
    return a;
}

void VolumeController::close(ActiveMap::iterator it) { spare_active_.push_back(active_.extract(it)); }

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
    // Counted before any is sent: a completion may come back inside submit().
    active.pending = ios.size();
    active.lost = active.lost_read = false;
    member_ios_ += ios.size();
    dispatch(key, Kind::Host, ios);
}

void VolumeController::dispatch(std::uint64_t key, Kind kind, const std::vector<MemberIo>& ios)
{
    // Every command is counted before any is submitted (a completion may come back inside submit()).
    // The list's storage is kept for the next dispatch; one nested in a submit() finds it taken.
    std::vector<hba::IoRequest*> subs;
    subs.swap(spare_subs_);
    subs.clear();
    for (const MemberIo& m : ios) {
        const unsigned disk = health_.disk_of(m.disk);
        hba::IoRequest* sub = allocate();
        *sub = hba::IoRequest{};
        sub->id = next_command_id_++;
        sub->disk = disk;
        sub->target = al_pas_.at(disk);
        sub->read = m.read;
        sub->bytes = static_cast<std::uint32_t>(m.blocks * params_.block_bytes);
        sub->lba = m.lba;
        sub->issued = timer_.now();
        owner_[sub] = Sent{key, m.disk, disk, kind};
        ++outstanding_[m.disk];
        if (loads_) loads_->sent(sub->id, m);
        subs.push_back(sub);
    }
    for (hba::IoRequest* sub : subs) members_.submit(sub);
    if (subs.capacity() > spare_subs_.capacity()) spare_subs_.swap(subs);
}

void VolumeController::member_done(hba::IoRequest* sub)
{
    const auto owner = owner_.find(sub);
    if (owner == owner_.end()) throw std::logic_error("volume: completion of a command it did not send");
    const Sent sent = owner->second;
    owner_.erase(owner);
    sub->completed = timer_.now();
    if (sent.kind == Kind::Lost) {  // accounted for when its disk went
        --lost_out_;
        free_.push_back(sub);
        return;
    }
    --outstanding_.at(sent.member);
    if (loads_) loads_->completed(sub->id);
    if (!sub->failed() && on_member_) on_member_(*sub);
    const bool ok = !sub->failed();
    const std::string failure = ok ? std::string() : "member disk " + std::to_string(sub->disk) + ": " + sub->failure;
    free_.push_back(sub);
    if (sent.kind == Kind::Rebuild) {
        engine_->completed(sent.key, ok, failure);
        return;
    }
    Active& a = active_.at(sent.key);
    // A failed member command (docs/faults.md, "FCP recovery") fails its request,
    // once the phase's other commands are back; a RAID 5 write's second phase is then not sent.
    if (!ok && a.failure.empty()) a.failure = failure;
    if (--a.pending == 0) phase_done(sent.key);
}

void VolumeController::phase_done(std::uint64_t key)
{
    Active& a = active_.at(key);
    if (!a.failure.empty()) return end(key, a.failure);
    if (a.lost_read) {
        // A read went with its disk: plan the request again around it (nothing has been written).
        const Held again{a.request, a.phase};
        const bool write = !a.request->read;
        close(active_.find(key));
        if (write && engine_) engine_->host_write_ended();
        start(again.request, again.phase, true);
        start_next_strict();  // (if it failed at once)
        return;
    }
    const bool more = !a.writing && !a.second.empty();
    if ((a.lost || more) && health_.data_lost()) return end(key, "volume failed: " + health_.lost());
    if (!more) return end(key, "");
    // The reads are in, so the new contents of every member are known: a write to a member missing
    // since the plan was made is left out (the parity, or the other copy, holds its data).
    a.writing = true;
    std::vector<MemberIo>& writes = a.second;
    const Degradation& missing = health_.degradation();
    if (missing.any_missing())
        writes.erase(std::remove_if(writes.begin(), writes.end(),
                                    [&](const MemberIo& m) { return missing.missing(m.disk, m.lba / params_.geometry.unit_blocks); }),
                     writes.end());
    if (writes.empty()) return end(key, "");
    send(key, a, writes);
}

void VolumeController::end(std::uint64_t key, std::string failure)
{
    const auto it = active_.find(key);
    if (it == active_.end()) throw std::out_of_range("volume: no active request " + std::to_string(key));
    hba::IoRequest* const request = it->second.request;
    const VolumePhase phase = it->second.phase;
    close(it);
    finish(request, phase, failure);
    if (!request->read && engine_) engine_->host_write_ended();
    start_next_strict();
}

void VolumeController::finish(hba::IoRequest* request, VolumePhase phase, const std::string& failure)
{
    request->failure = failure;
    request->completed = timer_.now();
    if (failure.empty()) {
        ++completed_;
        stats_.completed(phase, request->completed - request->issued);
    } else {
        ++failed_;
        stats_.failed(phase);
    }
    deliver(request);
}

void VolumeController::deliver(hba::IoRequest* request)
{
    // A request failed at once may bring the next one back inside the callback: they queue here
    // rather than recursing as deep as the workload is long.
    done_.push_back(request);
    if (delivering_) return;
    delivering_ = true;
    struct Reset {
        bool& flag;
        ~Reset() { flag = false; }
    } reset{delivering_};
    while (!done_.empty()) {
        hba::IoRequest* r = done_.front();
        done_.pop_front();
        if (on_complete_) on_complete_(r);
    }
}

// One request at a time: the next waiting one starts once nothing is active or locked; one that ends
// at once (the volume failed) lets the one behind it start.
void VolumeController::start_next_strict()
{
    if (params_.split_merge != SplitMerge::Strict) return;
    while (active_.empty() && locked_.empty() && !waiting_.empty()) {
        const Held next = waiting_.front();
        waiting_.pop_front();
        start(next.request, next.phase, false);
    }
}

void VolumeController::retry_held()
{
    if (retrying_) {
        retry_again_ = true;
        return;
    }
    retrying_ = true;
    do {
        retry_again_ = false;
        std::deque<Held> held;
        held.swap(locked_);
        for (const Held& h : held) start(h.request, h.phase, false);
    } while (retry_again_);
    retrying_ = false;
    start_next_strict();
}

bool VolumeController::host_writing(std::uint64_t first_row, std::uint64_t last_row) const
{
    for (const auto& [id, a] : active_)
        if (!a.request->read && a.first_row <= last_row && a.last_row >= first_row) return true;
    return false;
}

void VolumeController::health_changed()
{
    stats_.state_is(timer_.now(), health_.state());
    retry_held();
    schedule_rebuild();
}

void VolumeController::schedule_rebuild()
{
    if (!engine_ || engine_->running() || engine_->delaying() || !health_.can_rebuild()) return;
    engine_->wait_delay([this] { begin_rebuild(); });
}

void VolumeController::begin_rebuild()
{
    if (!health_.can_rebuild()) return;
    const unsigned member = health_.start_rebuild();
    stats_.state_is(timer_.now(), health_.state());
    engine_->start(member);
}

void VolumeController::disk_failed(unsigned disk, const std::string& why)
{
    const DiskLoss loss = health_.disk_failed(disk, why + " at " + timer_.now().to_string());
    stats_.state_is(timer_.now(), health_.state());
    if (engine_ && (loss == DiskLoss::RebuildTarget || loss == DiskLoss::DataLost)) engine_->stop();
    // Its commands in flight are lost with it.
    std::set<std::uint64_t> requests, rounds;
    for (auto& [sub, sent] : owner_) {
        if (sent.disk != disk || sent.kind == Kind::Lost) continue;
        --outstanding_.at(sent.member);
        if (loads_) loads_->completed(sub->id);
        if (sent.kind == Kind::Rebuild) {
            rounds.insert(sent.key);
        } else {
            Active& a = active_.at(sent.key);
            a.lost = true;
            a.lost_read = a.lost_read || sub->read;
            --a.pending;
            requests.insert(sent.key);
        }
        sent.kind = Kind::Lost;
        ++lost_out_;
    }
    // A rebuild still under way does not read from or write to this disk; if it did, it stops here.
    for (std::uint64_t round : rounds)
        if (engine_) engine_->completed(round, false, "disk " + std::to_string(disk) + " is gone");
    for (std::uint64_t key : requests) {
        const auto it = active_.find(key);
        if (it != active_.end() && it->second.pending == 0) phase_done(key);
    }
    retry_held();
    schedule_rebuild();
}

void VolumeController::disk_inserted(unsigned disk)
{
    health_.disk_inserted(disk);
    schedule_rebuild();
}

void VolumeController::report(nlohmann::json& volume) const
{
    volume["member_ios"] = member_ios_;
    volume["full_row_writes"] = full_rows_;
    volume["read_modify_writes"] = read_modify_writes_;
    volume["reconstruct_writes"] = reconstruct_writes_;
    volume["state"] = to_string(health_.state());
    stats_.report(volume);
    volume["data_lost"] = health_.data_lost();
    volume["data_lost_reason"] = health_.lost();
    volume["failures"] = health_.failures();
    volume["spares"] = health_.spares();
    volume["requests_completed"] = completed_;
    volume["requests_failed"] = failed_;
    volume["lost_commands_out"] = lost_out_;
    if (engine_) {
        engine_->report(volume);
        volume["rebuild_failure"] = health_.rebuild_failure();
    }
    if (decode_) {
        // Stripe units written (docs/controller.md, "DECODE").
        volume["decode_relocations"] = decode_->relocations();
        volume["decode_in_place_writes"] = decode_->in_place_writes();
    }
}

void VolumeController::print_state(std::ostream& out) const
{
    out << " (volume: " << active() << " requests active, " << waiting() << " waiting)";
}

}  // namespace fcal::controller
