#include "fcal/hba/initiator_hba.hpp"

#include "fcal/fcp/basic_link_service.hpp"
#include "fcal/hba/exchange_lookup.hpp"

namespace fcal::hba {

using sc_core::sc_time_stamp;

namespace {

// OX_IDs given up on are kept out of use for at least this many later give-ups.
constexpr std::size_t kQuarantinedIds = 4096;

// What an exchange was still waiting for when its time ran out.
std::string missing(const fcp::Exchange& e)
{
    if (!e.command_sent()) return "FCP_CMND not yet sent";
    if (e.spec().direction == fcp::DataDirection::Read)
        return e.bytes_remaining() > 0 ? "no FCP_DATA for the rest of the read" : "no FCP_RSP after the read data";
    if (e.bytes_remaining() > 0) return e.xfer_rdy_outstanding() ? "write data not yet sent" : "no FCP_XFER_RDY";
    return "no FCP_RSP after the write data";
}

}  // namespace

InitiatorHba::InitiatorHba(sc_core::sc_module_name name, const HbaParams& params, loop::LPort& port,
                           std::unique_ptr<loop::TransmitQueue> transmit_queue)
    : sc_module(name), host_dma("host_dma"), params_(params), port_(port), cpu_("processor", *this), frame_proc_("frame_proc", *this),
      dma_("dma", params.dma, [this](tlm::tlm_generic_payload& gp, sc_core::sc_time& t) { host_dma->b_transport(gp, t); }, *this),
      timers_("timers", [this](Deadline& d) { deadline(d); })
{
    port_.set_user(this);
    transmit_queue->set_space_listener([this] { push_held(); });
    port_.set_transmit_queue(std::move(transmit_queue));
}

void InitiatorHba::work_done(Work& w)
{
    switch (w.step) {
    case kCommandExecuted: {
        Active* x = live(w.id, w.serial);
        if (!x) return;
        DmaJob fetch;
        fetch.transfer = dma_.new_transfer();
        fetch.first_of_transfer = true;
        fetch.bytes = fcp::kCommandPayloadBytes;
        fetch.command = tlm::TLM_READ_COMMAND;
        fetch.done = {kCommandFetched, w.id, false, w.serial, nullptr};
        dma_.request(std::move(fetch));
        return;
    }
    case kXferRdyHandled: {
        Active* x = live(w.id, w.serial);
        if (!x) return;
        const std::uint64_t transfer = dma_.new_transfer();
        bool first = true;
        burst_.clear();
        x->exchange->make_write_data_frames_for(fcp::fc_frame_of(*w.frame), burst_);
        for (auto& frame : burst_) {
            DmaJob job;
            job.transfer = transfer;
            job.first_of_transfer = first;
            first = false;
            job.bytes = frame->payload_bytes;
            job.command = tlm::TLM_READ_COMMAND;
            job.address = fcp::fc_frame_of(*frame).relative_offset;
            job.done = {kDataFetched, w.id, false, w.serial, std::move(frame)};
            dma_.request(std::move(job));
        }
        burst_.clear();
        return;
    }
    case kFrameProcessed:
        port_.release_buffer();
        handle(fcp::fc_frame_of(*w.frame), w.frame);
        return;
    case kCommandFetched: send_command(w.id, w.serial); return;
    case kDataInMemory: {
        Active* x = live(w.id, w.serial);
        if (x && --x->data_jobs_pending == 0 && x->response_waiting) deliver_response(w.id);
        return;
    }
    case kDataFetched: transmit(std::move(w.frame)); return;
    case kResponseDelivered: {
        Active* x = live(w.id, w.serial);
        if (!x) return;
        IoRequest* io = x->io;
        close(w.id);
        if (completion_) completion_->io_complete(io);
        return;
    }
    }
}

void InitiatorHba::deadline(Deadline& d)
{
    if (d.retry) {
        --retries_waiting_;
        submit(d.retry);
    } else {
        exchange_timeout(d.ox_id);
    }
}

// Hand a frame to the outgoing FIFO, or hold it while its FIFO is full.
void InitiatorHba::transmit(std::shared_ptr<const loop::LoopFrame> frame)
{
    auto& line = held_[static_cast<std::size_t>(frame->frame_class)];
    line.push_back({held_numbers_++, std::move(frame)});
    push_held();
    if (!line.empty() && line.back().number == held_numbers_ - 1) ++frames_held_;
}

void InitiatorHba::push_held()
{
    loop::TransmitQueue& q = port_.transmit_queue();
    // With a command-first single FIFO (reorder) the command producer has the first claim on a free
    // slot: a command must not wait behind data that is itself waiting for room.
    const bool commands_first = params_.cmdf.fifo == CommandFifo::Reorder;
    auto& commands = held_[static_cast<std::size_t>(loop::FrameClass::Command)];
    for (;;) {
        // The oldest held frame whose FIFO has room (a held command first, see above).
        kernel::RingQueue<Held>* next = nullptr;
        if (commands_first && !commands.empty() && q.can_push(loop::FrameClass::Command)) {
            next = &commands;
        } else {
            for (auto& line : held_)
                if (!line.empty() && (!next || line.front().number < next->front().number) &&
                    q.can_push(line.front().frame->frame_class))
                    next = &line;
        }
        if (!next) return;
        auto frame = std::move(next->front().frame);
        next->pop_front();
        port_.queue_frame(std::move(frame));
    }
}

std::uint16_t InitiatorHba::next_ox_id()
{
    do {
        last_ox_id_ = static_cast<std::uint16_t>(last_ox_id_ + 1);
    } while (last_ox_id_ == fcp::kUnassignedId || exchanges_.count(last_ox_id_) || quarantined_.count(last_ox_id_));
    return last_ox_id_;
}

InitiatorHba::Active& InitiatorHba::active(std::uint16_t ox_id) { return open_exchange(exchanges_, ox_id, *this, "OX_ID"); }

InitiatorHba::Active* InitiatorHba::live(std::uint16_t ox_id, std::uint64_t serial)
{
    auto it = exchanges_.find(ox_id);
    if (it == exchanges_.end() || it->second.serial != serial || it->second.aborting) return nullptr;
    return &it->second;
}


void InitiatorHba::submit(IoRequest* io)
{
    const std::uint16_t ox_id = next_ox_id();
    fcp::ExchangeSpec spec;
    spec.initiator = port_.al_pa();
    spec.target = io->target;
    spec.direction = io->read ? fcp::DataDirection::Read : fcp::DataDirection::Write;
    spec.size_bytes = io->bytes;
    spec.max_payload_bytes = params_.max_payload;
    spec.ox_id = ox_id;
    spec.lba = io->lba;
    spec.block_bytes = params_.block_bytes;
    spec.request_id = io->id;
    spec.write_same_blocks = io->same_blocks;
    Active a;
    a.io = io;
    a.exchange.emplace(spec);
    a.serial = ++last_serial_;
    const std::uint64_t serial = a.serial;
    a.timer = timers_.start(params_.exchange_timeout, Deadline{ox_id, serial, nullptr});
    exchanges_.emplace(ox_id, std::move(a));
    // Execute the command, then fetch its description from host memory and build FCP_CMND.
    cpu_.run(params_.cmd_exec, {kCommandExecuted, ox_id, false, serial, nullptr});
}

void InitiatorHba::send_command(std::uint16_t ox_id, std::uint64_t serial)
{
    Active* a = live(ox_id, serial);
    if (!a) return;
    a->cmnd_queued = sc_time_stamp();
    transmit(a->exchange->make_command());
}

void InitiatorHba::frame_sent(const loop::LoopFrame& frame)
{
    const fcp::FcFrame& f = fcp::fc_frame_of(frame);
    if (on_wire) on_wire(*active(f.ox_id).io, frame.words());
    if (f.iu == fcp::InformationUnit::Command) {
        // An aborted exchange's FCP_CMND may still have been in the FIFO.
        const auto it = exchanges_.find(f.ox_id);
        if (it == exchanges_.end() || it->second.aborting) return;
        const Active& a = it->second;
        const sc_core::sc_time on_wire = sc_time_stamp() - port_.timing().words(frame.words());
        if (on_command_sent) on_command_sent(*a.io, on_wire - a.cmnd_queued);
    } else if (f.iu == fcp::InformationUnit::Data && on_data) {
        on_data(f.payload_bytes);
    }
}

void InitiatorHba::frame_received(std::shared_ptr<const loop::LoopFrame> frame)
{
    if (on_wire) on_wire(*active(fcp::fc_frame_of(*frame).ox_id).io, frame->words());
    frame_proc_.run(params_.frame_proc, {kFrameProcessed, 0, false, 0, std::move(frame)});
}

void InitiatorHba::handle(const fcp::FcFrame& f, const std::shared_ptr<const loop::LoopFrame>& frame)
{
    const std::uint16_t ox_id = f.ox_id;
    if (f.iu == fcp::InformationUnit::BaAcc) {
        abort_accepted(f);
        return;
    }
    // A frame of an exchange being aborted, or given up on, is dropped.
    const auto it = exchanges_.find(ox_id);
    if ((it != exchanges_.end() && it->second.aborting) || (it == exchanges_.end() && quarantined_.count(ox_id))) {
        ++late_frames_;
        return;
    }
    Active& a = active(ox_id);
    // A frame went missing before this one (FCP has no retransmission): the exchange cannot complete,
    // so what still comes for it is dropped and its timer aborts it. FCP_RSP before all read data
    // shows a lost last data frame.
    const bool gap = (f.iu == fcp::InformationUnit::Data && f.relative_offset != a.exchange->bytes_moved()) ||
                     (f.iu == fcp::InformationUnit::Response && f.response.status == fcp::ScsiStatus::Good &&
                      a.exchange->spec().direction == fcp::DataDirection::Read && a.exchange->bytes_remaining() > 0);
    if (a.broken || gap) {
        a.broken = true;
        ++sequence_errors_;
        return;
    }
    const std::uint64_t serial = a.serial;
    a.exchange->receive(f);
    switch (f.iu) {
    case fcp::InformationUnit::Data: {
        if (on_data) on_data(f.payload_bytes);
        DmaJob job;
        job.first_of_transfer = a.data_transfer == 0;
        if (a.data_transfer == 0) a.data_transfer = dma_.new_transfer();
        job.transfer = a.data_transfer;
        job.bytes = f.payload_bytes;
        job.command = tlm::TLM_WRITE_COMMAND;
        job.address = f.relative_offset;
        ++a.data_jobs_pending;
        job.done = {kDataInMemory, ox_id, false, serial, nullptr};
        dma_.request(std::move(job));
        break;
    }
    case fcp::InformationUnit::XferRdy:
        cpu_.run(params_.xfer_rdy_or_rsp, {kXferRdyHandled, ox_id, false, serial, frame});
        break;
    case fcp::InformationUnit::Response:
        if (f.response.status == fcp::ScsiStatus::TaskSetFull) {
            // The disk's task set is full: hold the request and issue it again later.
            IoRequest* io = a.io;
            close(ox_id);
            ++task_set_full_retries_;
            ++retries_waiting_;
            timers_.start(params_.task_set_full_retry, Deadline{0, 0, io});
            break;
        }
        if (a.data_jobs_pending > 0)
            a.response_waiting = true;
        else
            deliver_response(ox_id);
        break;
    case fcp::InformationUnit::Command:
    case fcp::InformationUnit::Abts:
        SC_REPORT_ERROR("fcal/hba", (std::string(name()) + ": the initiator received an FCP_CMND or ABTS").c_str());
        break;
    case fcp::InformationUnit::BaAcc: break;  // handled above
    }
}

void InitiatorHba::deliver_response(std::uint16_t ox_id)
{
    Active& a = active(ox_id);
    const std::uint64_t serial = a.serial;
    DmaJob job;
    job.transfer = dma_.new_transfer();
    job.fixed = params_.single_frame_transfer;
    job.done = {kResponseDelivered, ox_id, false, serial, nullptr};
    dma_.request(std::move(job));
}

void InitiatorHba::close(std::uint16_t ox_id)
{
    auto it = exchanges_.find(ox_id);
    timers_.cancel(it->second.timer);
    exchanges_.erase(it);
}

void InitiatorHba::exchange_timeout(std::uint16_t ox_id)
{
    Active& a = exchanges_.at(ox_id);  // a running timer's exchange is open
    a.timer = {};
    // FCP_RSP is in and only its delivery to host memory is left: nothing is missing.
    if (a.exchange->complete()) return;
    if (!a.aborting) {
        abort(ox_id);
        return;
    }
    // No BA_ACC: the target may never have seen the ABTS and may still send frames for it.
    ++abts_timeouts_;
    quarantined_.insert(ox_id);
    quarantine_order_.push_back(ox_id);
    if (quarantine_order_.size() > kQuarantinedIds) {
        quarantined_.erase(quarantine_order_.front());
        quarantine_order_.pop_front();
    }
    give_up(ox_id, a.reason + "; no BA_ACC to the ABTS");
}

// The exchange did not complete in time: everything still to do for it is dropped, and an ABTS
// asks the target to drop its end too.
void InitiatorHba::abort(std::uint16_t ox_id)
{
    Active& a = exchanges_.at(ox_id);
    a.aborting = true;
    a.reason = "exchange timeout: " + missing(*a.exchange);
    ++aborts_;
    dma_.cancel_exchange(a.serial);
    // Its frames still waiting for FIFO room never go out.
    for (auto& line : held_) line.erase_if([ox_id](const Held& h) { return fcp::fc_frame_of(*h.frame).ox_id == ox_id; });
    a.timer = timers_.start(params_.abts_timeout, Deadline{ox_id, a.serial, nullptr});
    transmit(fcp::make_abts(a.exchange->spec()));
}

void InitiatorHba::abort_accepted(const fcp::FcFrame& ba_acc)
{
    const auto it = exchanges_.find(ba_acc.ox_id);
    if (it == exchanges_.end() || !it->second.aborting) {
        ++late_frames_;  // the BA_ACC to an ABTS given up on
        return;
    }
    ++ba_acc_;
    give_up(ba_acc.ox_id, it->second.reason);
}

void InitiatorHba::give_up(std::uint16_t ox_id, std::string reason)
{
    IoRequest* io = exchanges_.at(ox_id).io;
    close(ox_id);
    if (completion_) completion_->io_aborted(io, reason);
}

}  // namespace fcal::hba
