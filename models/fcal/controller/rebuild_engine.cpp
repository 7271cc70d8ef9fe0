#include "fcal/controller/rebuild_engine.hpp"

#include <algorithm>
#include <stdexcept>

namespace fcal::controller {

RebuildEngine::RebuildEngine(const VolumeGeometry& geometry, const RebuildParams& params, std::uint32_t block_bytes,
                             VolumeTimer& timer, Hooks hooks)
    : geometry_(geometry), params_(params), block_bytes_(block_bytes), timer_(timer), hooks_(std::move(hooks))
{
    if (block_bytes_ == 0 || io_blocks() == 0 || params_.io_bytes % block_bytes_ != 0) throw std::invalid_argument("volume rebuild I/O size must be whole blocks, at least one");
    if (params_.rounds_in_flight == 0) throw std::invalid_argument("volume rebuild needs at least one round in flight");
    if (params_.rate_bytes_per_s < 0) throw std::invalid_argument("volume rebuild rate must be >= 0");
}

std::optional<unsigned> RebuildEngine::member() const
{
    if (!plan_) return std::nullopt;
    return plan_->member();
}

void RebuildEngine::wait_delay(std::function<void()> ready)
{
    if (running()) throw std::logic_error("rebuild: a delay while a rebuild is under way");
    delaying_ = true;
    timer_.start(sc_core::sc_time(params_.delay_s, sc_core::SC_SEC), [this, ready = std::move(ready)] {
        delaying_ = false;
        ready();
    });
}

void RebuildEngine::start(unsigned member)
{
    if (running()) throw std::logic_error("rebuild: one is already under way");
    plan_.emplace(geometry_, member, io_blocks());
    next_round_ = 0;
    done_blocks_ = 0;
    locked_end_ = 0;
    started_ = timer_.now();
    next_start_ = started_;
    pump();
}

void RebuildEngine::stop()
{
    if (delaying_ || pacing_) timer_.stop();
    delaying_ = pacing_ = waiting_writes_ = false;
    plan_.reset();
    flights_.clear();
    order_.clear();
}

sc_core::sc_time RebuildEngine::interval(std::uint64_t blocks) const
{
    if (params_.rate_bytes_per_s == 0) return sc_core::SC_ZERO_TIME;
    return sc_core::sc_time(static_cast<double>(blocks * block_bytes_) / params_.rate_bytes_per_s, sc_core::SC_SEC);
}

void RebuildEngine::pump()
{
    while (plan_ && !pacing_ && next_round_ < plan_->rounds() && flights_.size() < params_.rounds_in_flight) {
        const sc_core::sc_time now = timer_.now();
        if (now < next_start_) {
            pacing_ = true;
            timer_.start(next_start_ - now, [this] {
                pacing_ = false;
                pump();
            });
            return;
        }
        RebuildRound round = plan_->round(next_round_);
        locked_end_ = std::max(locked_end_, round.lba + round.blocks);  // locked while it waits, too
        waiting_writes_ = hooks_.host_writing(round.first_row, round.last_row);
        if (waiting_writes_) return;
        ++next_round_;
        next_start_ = std::max(now, next_start_) + interval(round.blocks);
        const std::uint64_t key = next_key_++;
        order_.push_back(key);
        Flight& f = flights_[key];
        f.reads_left = round.reads.size();
        f.round = std::move(round);
        commands_ += f.reads_left;
        const std::vector<MemberIo> reads = f.round.reads;  // `f` may go if a completion comes back inside send()
        hooks_.send(key, reads);
    }
}

bool RebuildEngine::locks(std::uint64_t first_row, std::uint64_t last_row) const
{
    if (!plan_) return false;
    const std::uint64_t from = done_blocks_ / geometry_.unit_blocks;  // a row only part rebuilt stays locked
    const std::uint64_t end = std::max(locked_end_, done_blocks_);
    if (end <= from * geometry_.unit_blocks) return false;
    const std::uint64_t to = (end - 1) / geometry_.unit_blocks;
    return first_row <= to && last_row >= from;
}

void RebuildEngine::host_write_ended()
{
    if (waiting_writes_) pump();
}

void RebuildEngine::completed(std::uint64_t key, bool ok, const std::string& failure)
{
    const auto it = flights_.find(key);
    if (it == flights_.end()) return;  // a round of a rebuild since stopped
    Flight& f = it->second;
    if (!ok) {
        const std::string why = failure;
        stop();
        hooks_.failed(why);
        return;
    }
    if (!f.writing) {
        if (--f.reads_left > 0) return;
        // All the round's units are in: the XOR (RAID 5) or the copy (RAID 1) goes to the spare.
        f.writing = true;
        ++commands_;
        hooks_.send(key, {f.round.write});
        return;
    }
    f.done = true;
    bytes_ += f.round.blocks * block_bytes_;
    const std::uint64_t rows_before = done_blocks_ / geometry_.unit_blocks;
    while (!order_.empty() && flights_.at(order_.front()).done) {
        const Flight& first = flights_.at(order_.front());
        done_blocks_ = first.round.lba + first.round.blocks;
        flights_.erase(order_.front());
        order_.pop_front();
    }
    const std::uint64_t rows = done_blocks_ / geometry_.unit_blocks;
    if (next_round_ == plan_->rounds() && flights_.empty()) {
        finish();
        return;
    }
    if (rows != rows_before) hooks_.progress(rows);
    pump();
}

void RebuildEngine::finish()
{
    hooks_.progress(done_blocks_ / geometry_.unit_blocks);
    time_ += timer_.now() - started_;
    ++completed_;
    plan_.reset();
    hooks_.finished();
}

double RebuildEngine::progress() const
{
    if (!plan_) return 0.0;
    return static_cast<double>(done_blocks_) / static_cast<double>(plan_->member_blocks());
}

void RebuildEngine::report(nlohmann::json& volume) const
{
    volume["rebuild_time_s"] = time_.to_seconds();
    volume["rebuild_bytes"] = bytes_;
    volume["rebuilds_completed"] = completed_;
    volume["rebuild_commands"] = commands_;
    volume["rebuild_progress"] = progress();
}

}  // namespace fcal::controller
