#include "fcal/disk/disk.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace fcal::disk {

using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_SEC;

const char* to_string(DiskModel model) { return model == DiskModel::Zoned ? "zoned" : "fixed"; }
const char* to_string(Scheduler scheduler) { return scheduler == Scheduler::Sptf ? "sptf" : "fcfs"; }

namespace {

// The medium fills the buffer in steps of this many bytes (whole sectors), so that a full buffer
// pauses it and the HBA's reads make room step by step.
constexpr std::uint32_t kMediaStepBytes = 4096;

std::unique_ptr<Mechanism> make_mechanism(const DiskParams& p)
{
    if (p.model == DiskModel::Zoned) return std::make_unique<ZonedMechanism>(p.zoned, p.seed);
    return std::make_unique<FixedMechanism>(p.access_time_s, p.access_dist, p.media_rate_bytes_per_s, p.seed,
                                            p.capacity_sectors);
}

}  // namespace

void validate(const DiskParams& params)
{
    if (params.queue_slots == 0) throw std::invalid_argument("disk queue_slots must be >= 1");
    if (params.model == DiskModel::Fixed) {
        if (!(params.access_time_s >= 0))
            throw std::invalid_argument("disk access_time_s must be >= 0, got " + std::to_string(params.access_time_s));
        if (!(params.media_rate_bytes_per_s > 0))
            throw std::invalid_argument("disk media_rate_bytes_per_s must be > 0, got " +
                                        std::to_string(params.media_rate_bytes_per_s));
        if (params.scheduler == Scheduler::Sptf) throw std::invalid_argument("disk scheduler sptf needs the zoned model");
        return;
    }
    if (params.buffer_bytes < params.zoned.geometry.sector_bytes)
        throw std::invalid_argument("disk buffer_bytes must hold at least one sector");
    if (!(params.buffer_full_ratio > 0 && params.buffer_full_ratio <= 1))
        throw std::invalid_argument("disk buffer_full_ratio must be in (0, 1]");
    if (!(params.zoned.command_overhead_s >= 0)) throw std::invalid_argument("disk command_overhead_s must be >= 0");
    if (params.scheduler == Scheduler::Sptf && params.zoned.positioning != PositioningMode::Physical)
        throw std::invalid_argument("disk scheduler sptf needs physical positioning");
}

Disk::Disk(sc_core::sc_module_name name, const DiskParams& params)
    : sc_module(name), socket("socket"), params_(params), timers_("timers", [this](Deferred& d) { deferred(d); })
{
    validate(params_);
    mechanism_ = make_mechanism(params_);
    socket.register_b_transport(this, &Disk::b_transport);
    SC_METHOD(actuator_event);
    sensitive << done_event_;
    dont_initialize();
}

void Disk::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay)
{
    const auto address = trans.get_address();
    if (address == kDiskCommandAddress) {
        DiskCommand* cmd = nullptr;
        trans.get_extension(cmd);
        if (!trans.is_write() || cmd == nullptr || cmd->done == nullptr) {
            trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            return;
        }
        if (cmd->kind == CommandKind::New)
            new_command(trans, *cmd, delay);
        else if (cmd->kind == CommandKind::Abort)
            abort_command(trans, *cmd);
        else
            write_data_in(trans, *cmd, delay);
    } else if (address >= kDiskBufferBase) {
        move_data(trans, delay);
    } else {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
}

void Disk::new_command(tlm::tlm_generic_payload& trans, DiskCommand& cmd, const sc_time& delay)
{
    const std::uint64_t capacity = mechanism_->capacity_sectors();
    // A WRITE SAME carries one sector of data, and its range ends on the disk: never a wrap.
    const bool bad_same = cmd.same_blocks > 0 && (cmd.read || cmd.bytes != mechanism_->sector_bytes() ||
                                                  (capacity > 0 && cmd.lba + cmd.same_blocks > capacity));
    if (buffers_.count(cmd.tag) || writes_waiting_.count(cmd.tag) || cmd.tag >= kDiskBufferSpan - 1 ||
        (capacity > 0 && cmd.lba >= capacity) || bad_same) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    if (slots_used_ >= params_.queue_slots) {
        ++stats_.commands_rejected;
        cmd.status = CommandStatus::TaskSetFull;
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    // The initiator may reuse its payload and extension as soon as we return.
    const Task task{cmd.read, cmd.bytes, cmd.lba, cmd.tag, cmd.same_blocks, cmd.done, sc_time_stamp() + delay};
    ++slots_used_;
    ++stats_.commands_accepted;
    stats_.max_queue = std::max(stats_.max_queue, slots_used_);
    cmd.status = CommandStatus::Accepted;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (task.read) {
        buffers_[task.tag].total = task.bytes;
        ready_.push_back(task);
        if (!busy_) start_next();
    } else {
        writes_waiting_[task.tag] = task;
    }
}

void Disk::write_data_in(tlm::tlm_generic_payload& trans, const DiskCommand& cmd, const sc_time& delay)
{
    const auto it = writes_waiting_.find(cmd.tag);
    if (it == writes_waiting_.end()) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    Task task = it->second;
    writes_waiting_.erase(it);
    task.arrival = sc_time_stamp() + delay;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (streams() && params_.write_cache && task.same_blocks == 0 && dirty_ + task.bytes <= params_.buffer_bytes) {
        // Write-back: complete now; the medium write follows as a job of its own.
        dirty_ += task.bytes;
        ++stats_.writes_cached;
        timers_.start(delay, Deferred{task.done, task.tag, 0});
        task.done = nullptr;
    }
    ready_.push_back(task);
    if (!busy_) start_next();
}

void Disk::abort_command(tlm::tlm_generic_payload& trans, const DiskCommand& cmd)
{
    const std::uint64_t tag = cmd.tag;
    bool held = writes_waiting_.erase(tag) > 0;
    const auto queued = std::find_if(ready_.begin(), ready_.end(), [tag](const Task& t) { return t.tag == tag && t.done; });
    if (queued != ready_.end()) {
        ready_.erase(queued);
        held = true;
    }
    const bool in_service = busy_ && current_.done && current_.tag == tag;
    if (in_service) {
        // The actuator abandons the operation; a media step under way never reaches the buffer.
        done_event_.cancel();
        if (sc_time_stamp() > started_) stats_.busy_time += sc_time_stamp() - started_;
        if (streaming_ && !paused_ && step_bytes_ > 0) buffer_used_ -= step_bytes_;
        busy_ = streaming_ = paused_ = false;
        step_bytes_ = 0;
        held = true;
    }
    const auto b = buffers_.find(tag);
    if (b != buffers_.end()) {
        if (streams()) buffer_used_ -= b->second.media - b->second.taken;
        buffers_.erase(b);
    }
    if (held) {
        --slots_used_;
        ++stats_.commands_aborted;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (in_service) start_next();
}

void Disk::move_data(tlm::tlm_generic_payload& trans, const sc_time& delay)
{
    const std::uint64_t relative = trans.get_address() - kDiskBufferBase;
    const std::uint64_t tag = relative / kDiskBufferSpan;
    const std::uint64_t offset = relative % kDiskBufferSpan;
    const auto length = trans.get_data_length();
    if (trans.is_read()) {
        const auto it = buffers_.find(tag);
        if (it == buffers_.end() || offset + length > it->second.announced) {
            trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        if (trans.get_data_ptr() != nullptr && length > 0) std::memset(trans.get_data_ptr(), 0, length);
        stats_.buffer_bytes_out += length;
        it->second.taken += length;
        if (it->second.taken >= it->second.total) buffers_.erase(it);
        if (streams()) {
            if (delay == sc_core::SC_ZERO_TIME)
                release(length);
            else
                timers_.start(delay, Deferred{nullptr, 0, static_cast<std::uint32_t>(length)});
        }
    } else if (trans.is_write()) {
        if (!writes_waiting_.count(tag)) {
            trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        stats_.buffer_bytes_in += length;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

std::size_t Disk::pick() const
{
    if (params_.scheduler == Scheduler::Fcfs || ready_.size() == 1) return 0;
    const sc_time now = sc_time_stamp();
    std::size_t best = 0;
    double best_s = 0;
    for (std::size_t i = 0; i < ready_.size(); ++i) {
        const Task& t = ready_[i];
        const double s = mechanism_->estimate(Access{t.read, t.lba, t.bytes}, std::max(now, t.arrival).to_seconds());
        if (i == 0 || s < best_s) {
            best = i;
            best_s = s;
        }
    }
    return best;
}

void Disk::start_next()
{
    if (busy_ || ready_.empty()) return;
    const std::size_t i = pick();
    current_ = ready_[i];
    ready_.erase(ready_.begin() + static_cast<std::ptrdiff_t>(i));
    const sc_time now = sc_time_stamp();
    const sc_time start = std::max(now, current_.arrival);
    // A WRITE SAME's range (at most 65535 sectors of at most 64 KiB: below 2^32 bytes).
    const std::uint32_t media_bytes =
        current_.same_blocks > 0 ? current_.same_blocks * mechanism_->sector_bytes() : current_.bytes;
    const Positioning p = mechanism_->position(Access{current_.read, current_.lba, media_bytes}, start.to_seconds());
    const double media_s = current_.same_blocks > 0 ? mechanism_->pass_seconds(current_.lba, current_.same_blocks)
                                                    : current_.bytes / p.media_bytes_per_s;
    ++stats_.positionings;
    stats_.overhead_s += p.overhead_s;
    stats_.seek_s += p.seek_s;
    stats_.rotation_s += p.rotation_s;
    stats_.transfer_s += media_s;
    stats_.media_bytes += media_bytes;
    busy_ = true;
    started_ = start;
    media_rate_ = p.media_bytes_per_s;
    streaming_ = streams() && current_.read;
    const sc_time positioning(p.before_media_s(), SC_SEC);
    if (streaming_) {
        step_bytes_ = 0;  // positioning first
        done_event_.notify(start - now + positioning);
        return;
    }
    service_ = positioning + sc_time(current_.same_blocks > 0 ? media_s : static_cast<double>(current_.bytes) / media_rate_, SC_SEC);
    done_event_.notify(start - now + service_);
}

void Disk::actuator_event()
{
    if (!streaming_)
        service_done();
    else if (step_bytes_ == 0)
        schedule_step();  // positioned: the media read begins
    else
        media_step();
}

void Disk::service_done()
{
    const Task finished = current_;
    busy_ = false;
    stats_.busy_time += service_;
    if (finished.done == nullptr) {
        dirty_ -= finished.bytes;  // a write-back's data reached the medium
        start_next();
        return;
    }
    --slots_used_;
    ++stats_.commands_served;
    ++(finished.read ? stats_.reads_served : stats_.writes_served);
    if (finished.read) {
        ReadBuffer& b = buffers_.at(finished.tag);
        b.media = b.announced = b.total;
    }
    // Start the next one before telling the HBA: it may hand us a new command from disk_ready.
    start_next();
    finished.done->disk_ready(finished.tag);
}

void Disk::schedule_step()
{
    ReadBuffer& b = buffers_.at(current_.tag);
    const std::uint32_t step = std::min<std::uint64_t>(
        {b.total - b.media, std::max<std::uint64_t>(kMediaStepBytes, params_.zoned.geometry.sector_bytes), params_.buffer_bytes});
    if (buffer_used_ + step > params_.buffer_bytes) {
        // The buffer is full: the medium waits, and everything read so far goes to the HBA.
        paused_ = true;
        paused_at_ = sc_time_stamp();
        ++stats_.media_pauses;
        step_bytes_ = step;
        if (b.media > b.announced) announce(b);
        return;
    }
    // After a pause the next sector has gone by: wait until it comes round under the head again.
    sc_time resync = sc_core::SC_ZERO_TIME;
    if (paused_) {
        const double r = params_.zoned.geometry.revolution_s;
        const double behind = std::fmod((sc_time_stamp() - paused_at_).to_seconds(), r);
        if (behind > 0) resync = sc_time(r - behind, SC_SEC);
    }
    paused_ = false;
    buffer_used_ += step;
    step_bytes_ = step;
    done_event_.notify(resync + sc_time(step / media_rate_, SC_SEC));
}

void Disk::media_step()
{
    ReadBuffer& b = buffers_.at(current_.tag);
    b.media += step_bytes_;
    if (b.media < b.total) {
        if (b.media - b.announced >= params_.buffer_full_ratio * static_cast<double>(params_.buffer_bytes)) announce(b);
        schedule_step();
        return;
    }
    // The whole read is in the buffer: the command is done; the HBA takes the rest.
    b.announced = b.total;
    streaming_ = false;
    busy_ = false;
    stats_.busy_time += sc_time_stamp() - started_;
    --slots_used_;
    ++stats_.commands_served;
    ++stats_.reads_served;
    const Task finished = current_;
    start_next();
    finished.done->disk_ready(finished.tag);
}

void Disk::announce(ReadBuffer& b)
{
    b.announced = b.media;
    ++stats_.announcements;
    current_.done->read_data(current_.tag, b.media);
}

void Disk::release(std::uint32_t bytes)
{
    buffer_used_ -= bytes;
    if (paused_ && streaming_) schedule_step();
}

void Disk::deferred(Deferred& d)
{
    if (!d.done) {
        release(d.release);
        return;
    }
    // A write-back: the write is complete once its data are in the cache.
    --slots_used_;
    ++stats_.commands_served;
    ++stats_.writes_served;
    d.done->disk_ready(d.tag);
}

}  // namespace fcal::disk
