#include "fcal/disk/disk.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace fcal::disk {

using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_SEC;

const char* to_string(DiskModel model) { return model == DiskModel::Zoned ? "zoned" : "fixed"; }

namespace {

// The medium fills the buffer in steps of this many bytes (whole sectors), so that a full buffer
// pauses it and the HBA's reads make room step by step.
constexpr std::uint32_t kMediaStepBytes = 4096;

std::unique_ptr<Mechanism> make_mechanism(const DiskParams& p)
{
    if (p.model == DiskModel::Zoned) return std::make_unique<ZonedMechanism>(p.zoned, p.seed);
    return std::make_unique<FixedMechanism>(p.access_time_s, p.access_dist, p.media_rate_bytes_per_s, p.seed,
                                            fixed_capacity_sectors(p));
}

}  // namespace

void validate(const DiskParams& params)
{
    if (params.queue_slots == 0) throw std::invalid_argument("disk queue_slots must be >= 1");
    if (params.max_concurrent == 0) throw std::invalid_argument("disk max_concurrent must be >= 1");
    if (params.max_concurrent > 1 && params.model != DiskModel::Fixed)
        throw std::invalid_argument("disk max_concurrent above 1 needs the fixed model (a zoned disk has one actuator)");
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
    : sc_module(name), socket("socket"), params_(params), scheduler_(params.scheduler),
      buffer_(params.model == DiskModel::Zoned ? params.buffer_bytes : 0, params.buffer_full_ratio),
      cache_(params.model == DiskModel::Zoned && params.write_cache, params.buffer_bytes), concurrent_(params.max_concurrent),
      timers_("timers", [this](Deferred& d) { deferred(d); })
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
        if (!trans.is_write() || cmd == nullptr) {
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
    if (buffer_.holds(cmd.tag) || writes_waiting_.count(cmd.tag) || cmd.tag >= kDiskBufferSpan - 1 ||
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
    const Task task{cmd.read, cmd.bytes, cmd.lba, cmd.tag, cmd.same_blocks, true, sc_time_stamp() + delay};
    ++slots_used_;
    ++stats_.commands_accepted;
    stats_.max_queue = std::max(stats_.max_queue, slots_used_);
    cmd.status = CommandStatus::Accepted;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (task.read) {
        buffer_.open(task.tag, task.bytes);
        scheduler_.push(task);
        start_next();
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
    if (cache_.admit(task.bytes, task.same_blocks > 0)) {
        // Write-back: complete now; the medium write follows as a job of its own.
        ++stats_.writes_cached;
        timers_.start(delay, Deferred{Deferred::Kind::WriteBack, task.tag, 0, 0});
        task.holds_slot = false;
    }
    scheduler_.push(task);
    start_next();
}

void Disk::abort_command(tlm::tlm_generic_payload& trans, const DiskCommand& cmd)
{
    // An abort in the very instant the actuator's operation ends comes after that end, whichever of
    // the two processes the kernel runs first: the end is taken now (a command done sends its Ready
    // from within this call), and the abort meets what is left (docs/disk.md, "The TLM-2.0
    // protocol"). The end's own wake, if already triggered, is then stale; idle or paused, the
    // actuator has no end to take (actuator_event).
    if (!concurrent() && actuator_due_ == sc_time_stamp()) actuator_event();
    const std::uint64_t tag = cmd.tag;
    bool held = writes_waiting_.erase(tag) > 0;
    if (scheduler_.remove([tag](const Task& t) { return t.tag == tag && t.holds_slot; })) held = true;
    const bool in_service = concurrent() ? concurrent_.abort([tag](const Task& t) { return t.tag == tag; })
                                         : busy_ && current_.holds_slot && current_.tag == tag;
    if (in_service && concurrent()) {
        end_busy_if_idle();
        held = true;
    } else if (in_service) {
        // The actuator abandons the operation; a media step under way never reaches the buffer.
        done_event_.cancel();
        if (sc_time_stamp() > started_) stats_.busy_time += sc_time_stamp() - started_;
        if (streaming_ && !paused_ && step_bytes_ > 0) buffer_.release(step_bytes_);
        busy_ = streaming_ = paused_ = false;
        step_bytes_ = 0;
        held = true;
    }
    buffer_.drop(tag);
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
        if (!buffer_.take(tag, offset, length)) {
            trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        if (trans.get_data_ptr() != nullptr && length > 0) std::memset(trans.get_data_ptr(), 0, length);
        stats_.buffer_bytes_out += length;
        if (streams()) {
            if (delay == sc_core::SC_ZERO_TIME)
                release(length);
            else
                timers_.start(delay, Deferred{Deferred::Kind::Release, 0, static_cast<std::uint32_t>(length), 0});
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

double Disk::position(const Task& task, const sc_time& start, Positioning& p)
{
    // A WRITE SAME's range (at most 65535 sectors of at most 64 KiB: below 2^32 bytes).
    const std::uint32_t media_bytes = task.same_blocks > 0 ? task.same_blocks * mechanism_->sector_bytes() : task.bytes;
    p = mechanism_->position(Access{task.read, task.lba, media_bytes}, start.to_seconds());
    const double media_s = task.same_blocks > 0 ? mechanism_->pass_seconds(task.lba, task.same_blocks) : task.bytes / p.media_bytes_per_s;
    ++stats_.positionings;
    stats_.overhead_s += p.overhead_s;
    stats_.seek_s += p.seek_s;
    stats_.rotation_s += p.rotation_s;
    stats_.transfer_s += media_s;
    stats_.media_bytes += media_bytes;
    return media_s;
}

void Disk::start_next()
{
    if (concurrent()) {
        start_concurrent();
        return;
    }
    if (busy_ || scheduler_.empty()) return;
    const sc_time now = sc_time_stamp();
    current_ = scheduler_.take([this, &now](const Task& t) {
        return mechanism_->estimate(Access{t.read, t.lba, t.bytes}, std::max(now, t.arrival).to_seconds());
    });
    const sc_time start = std::max(now, current_.arrival);
    Positioning p;
    const double media_s = position(current_, start, p);
    busy_ = true;
    started_ = start;
    media_rate_ = p.media_bytes_per_s;
    streaming_ = streams() && current_.read;
    const sc_time positioning(p.before_media_s(), SC_SEC);
    if (streaming_) {
        step_bytes_ = 0;  // positioning first
        arm_actuator(start - now + positioning);
        return;
    }
    service_ = positioning + sc_time(current_.same_blocks > 0 ? media_s : static_cast<double>(current_.bytes) / media_rate_, SC_SEC);
    arm_actuator(start - now + service_);
}

// max_concurrent > 1 (fixed model, FCFS): every free place takes the oldest eligible command into its
// access; the medium then takes the accessed commands one at a time.
void Disk::start_concurrent()
{
    while (concurrent_.has_place() && !scheduler_.empty()) {
        const sc_time now = sc_time_stamp();
        const Task task = scheduler_.take([](const Task&) { return 0.0; });
        const sc_time start = std::max(now, task.arrival);
        Positioning p;
        const double media_s = position(task, start, p);
        if (!busy_) {
            busy_ = true;
            started_ = start;
        }
        const std::uint64_t service = concurrent_.begin(task, media_s);
        timers_.start(start - now + sc_time(p.before_media_s(), SC_SEC), Deferred{Deferred::Kind::AccessEnd, 0, 0, service});
    }
}

void Disk::start_transfer()
{
    if (const auto t = concurrent_.next_transfer())
        timers_.start(sc_time(t->media_s, SC_SEC), Deferred{Deferred::Kind::TransferEnd, 0, 0, t->id});
}

void Disk::transfer_done(std::uint64_t service)
{
    const std::optional<Task> finished = concurrent_.transferred(service);
    start_transfer();
    if (!finished) return;  // its command was aborted during the transfer
    end_busy_if_idle();
    --slots_used_;
    ++stats_.commands_served;
    ++(finished->read ? stats_.reads_served : stats_.writes_served);
    if (finished->read) buffer_.fill(finished->tag);
    // Start the next ones before telling the HBA: it may hand us a new command from disk_ready.
    start_concurrent();
    notifier_.ready(socket, finished->tag);
}

void Disk::end_busy_if_idle()
{
    if (!busy_ || !concurrent_.idle()) return;
    busy_ = false;
    if (sc_time_stamp() > started_) stats_.busy_time += sc_time_stamp() - started_;
}

void Disk::arm_actuator(const sc_time& delay)
{
    actuator_due_ = sc_time_stamp() + delay;
    done_event_.notify(delay);
}

void Disk::actuator_event()
{
    // A wake that is not the actuator's current operation ending: an abort in the very instant the
    // operation ended took that end first (abort_command), after its notification had been triggered
    // (cancel() then comes too late), and the actuator is idle, paused or busy with a later one
    // (docs/disk.md, "The TLM-2.0 protocol"). Busy with a later one, it wakes for that one's end:
    // that stale wake may have taken the place of its notification (a zero delay armed in the
    // instant, then a step's timed notification dropped by SystemC behind the pending delta one).
    if (!busy_ || paused_) return;
    const sc_time now = sc_time_stamp();
    if (now < actuator_due_) {
        done_event_.notify(actuator_due_ - now);  // (none if one is pending for then or before)
        return;
    }
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
    if (!finished.holds_slot) {
        cache_.written(finished.bytes);  // a write-back's data reached the medium
        start_next();
        return;
    }
    --slots_used_;
    ++stats_.commands_served;
    ++(finished.read ? stats_.reads_served : stats_.writes_served);
    if (finished.read) buffer_.fill(finished.tag);
    // Start the next one before telling the HBA: it may hand us a new command from disk_ready.
    start_next();
    notifier_.ready(socket, finished.tag);
}

void Disk::schedule_step()
{
    const std::uint32_t step =
        buffer_.next_step(current_.tag, std::max<std::uint32_t>(kMediaStepBytes, params_.zoned.geometry.sector_bytes));
    step_bytes_ = step;
    if (!buffer_.reserve(step)) {
        // The buffer is full: the medium waits, and everything read so far goes to the HBA.
        paused_ = true;
        paused_at_ = sc_time_stamp();
        ++stats_.media_pauses;
        if (buffer_.unannounced(current_.tag)) announce();
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
    arm_actuator(resync + sc_time(step / media_rate_, SC_SEC));
}

void Disk::media_step()
{
    const ReadBuffer::Arrival arrival = buffer_.arrived(current_.tag, step_bytes_);
    if (arrival != ReadBuffer::Arrival::Complete) {
        if (arrival == ReadBuffer::Arrival::Announce) announce();
        schedule_step();
        return;
    }
    // The whole read is in the buffer: the command is done; the HBA takes the rest.
    streaming_ = false;
    busy_ = false;
    stats_.busy_time += sc_time_stamp() - started_;
    --slots_used_;
    ++stats_.commands_served;
    ++stats_.reads_served;
    const Task finished = current_;
    start_next();
    notifier_.ready(socket, finished.tag);
}

void Disk::announce()
{
    ++stats_.announcements;
    const std::uint32_t bytes = buffer_.announce(current_.tag);
    notifier_.read_data(socket, current_.tag, bytes);
}

void Disk::release(std::uint32_t bytes)
{
    buffer_.release(bytes);
    if (paused_ && streaming_) schedule_step();
}

void Disk::deferred(Deferred& d)
{
    switch (d.kind) {
    case Deferred::Kind::Release: release(d.release); return;
    case Deferred::Kind::AccessEnd:
        concurrent_.accessed(d.service);
        start_transfer();
        return;
    case Deferred::Kind::TransferEnd: transfer_done(d.service); return;
    case Deferred::Kind::WriteBack: break;
    }
    // A write-back: the write is complete once its data are in the cache.
    --slots_used_;
    ++stats_.commands_served;
    ++stats_.writes_served;
    notifier_.ready(socket, d.tag);
}

void Disk::report_model(nlohmann::json& j) const
{
    const bool zoned = params_.model == DiskModel::Zoned;
    j["model"] = to_string(params_.model);
    j["capacity_bytes"] = zoned ? capacity_sectors() * params_.zoned.geometry.sector_bytes : 0;
}

void Disk::print_state(std::ostream& out) const { out << "  " << basename() << " holds " << queued() << " commands\n"; }

}  // namespace fcal::disk
