#include "fcal/hba/initiator_hba.hpp"

#include <algorithm>

#include "fcal/fcp/basic_link_service.hpp"
#include "fcal/fcp/extended_link_service.hpp"
#include "fcal/hba/data_frame_slack.hpp"
#include "fcal/hba/exchange_lookup.hpp"

namespace fcal::hba {

using sc_core::sc_time_stamp;

namespace {

// OX_IDs given up on are kept out of use for at least this many later give-ups.
constexpr std::size_t kQuarantinedIds = 4096;

}  // namespace

InitiatorHba::InitiatorHba(sc_core::sc_module_name name, const HbaParams& params, loop::LPort& port,
                           std::unique_ptr<loop::TransmitQueue> transmit_queue)
    : sc_module(name), host_dma("host_dma"), params_(params), delays_(params), port_(port), cpu_("processor", *this), frame_proc_("frame_proc", *this),
      dma_("dma", params.dma, [this](tlm::tlm_generic_payload& gp, sc_core::sc_time& t) { host_dma->b_transport(gp, t); }, *this),
      sft_(params.sft_engine, delays_.single_frame_transfer, dma_, *this),
      ox_ids_(kQuarantinedIds), held_(params.cmdf.fifo == CommandFifo::Reorder), recovery_(ox_ids_, *this),
      timers_("timers", [this](Deadline& d) { deadline(d); }), els_(logins_, ox_ids_, port_.config(), login_hooks())
{
    port_.set_user(this);
    // Host memory serves a burst whenever it is asked, so a write's data may be fetched ahead, under
    // FCFS, into a queue that does not care when it is pushed (the RTL counts its cycles by the clock).
    may_fetch_ahead_ = params.dma.policy == DmaPolicy::Fcfs && !transmit_queue->clocked();
    fetch_writes_ahead(true);
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
        // The target may have ended the exchange (its FCP_RSP came) while the XFER_RDY was handled:
        // no data go then.
        if (!x || x->exchange->complete()) return;
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
            job.starts_ahead = job.ends_ahead = fetch_ahead_;
            dma_.request(std::move(job));
        }
        burst_.clear();
        return;
    }
    case kFrameProcessed:
        port_.release_buffer();
        if (down_) {
            ++link_down_frames_;
            return;
        }
        handle(fcp::fc_frame_of(*w.frame), w.frame);
        return;
    case kCommandFetched: send_command(w.id, w.serial); return;
    case kDataInMemory: {
        Active* x = live(w.id, w.serial);
        if (!x || !x->response_waiting || dma_.has_jobs_of(w.serial)) return;
        dma_.stop_awaiting(w.serial);
        deliver_response(w.id);
        return;
    }
    case kDataFetched: transmit(std::move(w.frame)); return;
    case kResponseDelivered: {
        Active* x = live(w.id, w.serial);
        if (!x) return;
        IoRequest* io = x->io;
        io->check_condition = x->exchange->status() == fcp::ScsiStatus::CheckCondition;
        close(w.id);
        if (completion_) completion_->io_complete(io);
        return;
    }
    case kElsBuilt: els_.send(static_cast<phy::AlPa>(w.id), w.serial); return;
    case kRefused: {
        auto [io, reason] = std::move(refused_.front());
        refused_.pop_front();
        if (completion_) completion_->io_aborted(io, reason);
        return;
    }
    }
}

void InitiatorHba::deadline(Deadline& d)
{
    switch (d.kind) {
    case Deadline::Kind::LinkDown:
        if (d.epoch == epoch_) report_link_down();
        return;
    case Deadline::Kind::Retry:
        if (d.epoch == epoch_) submit(retries_.due());
        return;
    case Deadline::Kind::Els: els_.timed_out(d.target, d.ox_id); return;
    case Deadline::Kind::Held:
        hold_timers_.erase(d.held);
        if (!logins_.drop_held(d.held)) return;
        if (completion_)
            completion_->io_aborted(d.held, "exchange timeout: " + TargetLogins::name(d.held->target) + " not logged in");
        return;
    case Deadline::Kind::Exchange: {
        Active& a = exchanges_.at(d.ox_id);  // a running timer's exchange is open
        a.timer = {};
        recovery_.timed_out(d.ox_id, a.recovery, *a.exchange);
        return;
    }
    }
}

void InitiatorHba::fetch_writes_ahead(bool on)
{
    fetch_ahead_ = on && may_fetch_ahead_;
    port_.set_due_frame_taker(fetch_ahead_ ? this : nullptr);
}

// A write data frame fetched ahead: handed to the port now, due at the end of its transfer.
void InitiatorHba::work_ahead(Work& w, const sc_core::sc_time& end)
{
    port_.queue_frame_ahead(loop::OutgoingFrame{std::move(w.frame)}, end, w.serial);
}

// Hand a frame to the outgoing FIFO, or hold it while its FIFO is full. The frames fetched ahead and
// due by now went before it.
void InitiatorHba::transmit(loop::FrameRef frame)
{
    if (down_) return;  // no signal: nothing goes out
    port_.take_due_frames();
    held_.transmit(std::move(frame), port_.transmit_queue(), [this](HeldFrames::FramePtr f) { port_.queue_frame(std::move(f)); });
}

// A frame fetched ahead is due: it goes in, or is held, as it would have when its transfer ended.
void InitiatorHba::frame_due(loop::OutgoingFrame frame)
{
    held_.transmit(std::move(frame.frame), port_.transmit_queue(), [this](HeldFrames::FramePtr f) { port_.push_due(loop::OutgoingFrame{std::move(f)}); });
}

// A slot came free (the port took a frame, in its run, after the frames due by then went in).
void InitiatorHba::push_held()
{
    port_.take_due_frames();
    held_.release(port_.transmit_queue(), [this](HeldFrames::FramePtr f) { port_.queue_frame(std::move(f)); });
}

// Its frames fetched ahead: those due by now went in (or are held, to be dropped with the rest), the
// later ones never go (their transfer had not ended).
void InitiatorHba::withdraw_fetched(std::uint64_t serial)
{
    port_.take_due_frames();
    port_.withdraw_ahead(serial);
}

// The exchange's DMA work is dropped, its frames fetched ahead and not yet due are withdrawn, and its
// frames still waiting for FIFO room never go out.
void InitiatorHba::stop_sending(std::uint16_t ox_id)
{
    const std::uint64_t serial = exchanges_.at(ox_id).serial;
    withdraw_fetched(serial);
    dma_.cancel_exchange(serial);
    held_.drop_exchange(ox_id);
}

InitiatorHba::Active& InitiatorHba::active(std::uint16_t ox_id) { return open_exchange(exchanges_, ox_id, *this, "OX_ID"); }

InitiatorHba::Active* InitiatorHba::find(std::uint16_t ox_id)
{
    auto it = exchanges_.find(ox_id);
    return it == exchanges_.end() ? nullptr : &it->second;
}

InitiatorHba::Active* InitiatorHba::live(std::uint16_t ox_id, std::uint64_t serial)
{
    Active* a = find(ox_id);
    return a && a->serial == serial && !a->recovery.aborting ? a : nullptr;
}


void InitiatorHba::submit(IoRequest* io)
{
    if (down_) {
        // The driver does not know yet: the I/O goes back with the others at the report.
        lost_.push_back(io);
        return;
    }
    switch (logins_.admit(io)) {
    case TargetLogins::Gate::Go: break;
    case TargetLogins::Gate::Wait: hold(io); return;  // held until its target is logged in
    case TargetLogins::Gate::Fail:
        // The processor executes the command and finds its target logged out.
        refused_.emplace_back(io, logins_.reason(io->target));
        cpu_.run(delays_.cmd_exec, {kRefused, 0, false, 0, nullptr});
        return;
    }
    const std::uint16_t ox_id = ox_ids_.acquire();
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
    a.timer = timers_.start(delays_.exchange_timeout, Deadline{Deadline::Kind::Exchange, ox_id, serial, epoch_});
    exchanges_.emplace(ox_id, std::move(a));
    // Execute the command, then fetch its description from host memory and build FCP_CMND.
    cpu_.run(delays_.cmd_exec, {kCommandExecuted, ox_id, false, serial, nullptr});
}

// A command held for its target's login is bounded by the exchange timeout like an open exchange
// (docs/faults.md, "FCP recovery"): a loop that never finishes initializing must not hold it for ever.
// No frame of it went out, so it goes back to the driver without an ABTS. Released, it starts its
// exchange timer afresh.
void InitiatorHba::hold(IoRequest* io)
{
    hold_timers_[io] = timers_.start(delays_.exchange_timeout, Deadline{Deadline::Kind::Held, 0, 0, epoch_, 0, io});
}

void InitiatorHba::unhold(IoRequest* io)
{
    auto it = hold_timers_.find(io);
    if (it == hold_timers_.end()) return;
    timers_.cancel(it->second);
    hold_timers_.erase(it);
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
    // (A frame queued before the link went down may still leave.)
    const Active* sent_for = find(f.ox_id);
    if (!sent_for) return;
    if (on_wire) on_wire(*sent_for->io, frame.words());
    if (f.iu == fcp::InformationUnit::Command) {
        // An aborted exchange's FCP_CMND may still have been in the FIFO.
        if (sent_for->recovery.aborting) return;
        const sc_core::sc_time on_wire = sc_time_stamp() - port_.timing().words(frame.words());
        if (on_command_sent) on_command_sent(*sent_for->io, on_wire - sent_for->cmnd_queued);
    } else if (f.iu == fcp::InformationUnit::Data && on_data) {
        on_data(f.payload_bytes);
    }
}

void InitiatorHba::frame_received(loop::FrameRef frame)
{
    if (on_wire && !down_)
        if (const Active* a = find(fcp::fc_frame_of(*frame).ox_id)) on_wire(*a->io, frame->words());
    frame_proc_.run_from(port_.frame_end(), delays_.frame_proc, {kFrameProcessed, 0, false, 0, std::move(frame)});
}

// Read data goes to host memory as a quiet DMA job (docs/hba.md, "DMA").
sc_core::sc_time InitiatorHba::frame_slack(const loop::LoopFrame& frame) const { return data_frame_slack(frame, delays_.frame_proc); }

void InitiatorHba::handle(const fcp::FcFrame& f, const loop::FrameRef& frame)
{
    const std::uint16_t ox_id = f.ox_id;
    if (f.iu == fcp::InformationUnit::ElsReply) {
        els_.reply(f);
        return;
    }
    if (f.iu == fcp::InformationUnit::BaAcc) {
        const Active* a = find(ox_id);
        recovery_.ba_acc(ox_id, a ? &a->recovery : nullptr);
        return;
    }
    Active* found = find(ox_id);
    if (recovery_.late(ox_id, found ? &found->recovery : nullptr)) return;
    Active& a = found ? *found : active(ox_id);  // active() reports the unknown OX_ID
    if (!recovery_.in_sequence(a.recovery, f, *a.exchange)) return;
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
        job.done = {kDataInMemory, ox_id, false, serial, nullptr};
        job.quiet = true;  // only the response waits for the data (docs/hba.md, "DMA")
        dma_.request(std::move(job));
        break;
    }
    case fcp::InformationUnit::XferRdy:
        cpu_.run(delays_.xfer_rdy_or_rsp, {kXferRdyHandled, ox_id, false, serial, frame});
        break;
    case fcp::InformationUnit::Response:
        if (f.response.status == fcp::ScsiStatus::TaskSetFull) {
            // The disk's task set is full: hold the request and issue it again later.
            IoRequest* io = a.io;
            close(ox_id);
            retries_.hold(io);
            timers_.start(delays_.task_set_full_retry, Deadline{Deadline::Kind::Retry, 0, 0, epoch_});
            break;
        }
        if (a.exchange->spec().direction == fcp::DataDirection::Write && f.response.status == fcp::ScsiStatus::CheckCondition &&
            dma_.has_jobs_of(serial)) {
            // The target ended the write before its burst was all sent (its drive failed): the
            // exchange is complete, the rest of the burst never goes.
            stop_sending(ox_id);
            deliver_response(ox_id);
        } else if (dma_.has_jobs_of(serial)) {
            a.response_waiting = true;
            dma_.await_exchange(serial);
        } else
            deliver_response(ox_id);
        break;
    case fcp::InformationUnit::Command:
    case fcp::InformationUnit::Abts:
    case fcp::InformationUnit::ElsRequest:
        SC_REPORT_ERROR("fcal/hba", (std::string(name()) + ": the initiator received an FCP_CMND, ABTS or ELS request").c_str());
        break;
    case fcp::InformationUnit::BaAcc:
    case fcp::InformationUnit::ElsReply: break;  // handled above
    }
}

void InitiatorHba::deliver_response(std::uint16_t ox_id)
{
    sft_.run({kResponseDelivered, ox_id, false, active(ox_id).serial, nullptr});
}

void InitiatorHba::close(std::uint16_t ox_id)
{
    auto it = exchanges_.find(ox_id);
    timers_.cancel(it->second.timer);
    exchanges_.erase(it);
    ox_ids_.release(ox_id);
}

// The exchange did not complete in time: everything still to do for it is dropped, and an ABTS
// asks the target to drop its end too.
void InitiatorHba::send_abts(std::uint16_t ox_id)
{
    Active& a = exchanges_.at(ox_id);
    stop_sending(ox_id);
    a.timer = timers_.start(delays_.abts_timeout, Deadline{Deadline::Kind::Exchange, ox_id, a.serial, epoch_});
    transmit(fcp::make_abts(a.exchange->spec()));
}

void InitiatorHba::give_up(std::uint16_t ox_id, std::string reason)
{
    IoRequest* io = exchanges_.at(ox_id).io;
    close(ox_id);
    if (completion_) completion_->io_aborted(io, reason);
}

// Loss of signal: every exchange ends here at once — its timer, DMA work, held frames and the steps
// queued for it come to nothing (the steps find no live exchange) — and its OX_ID is quarantined:
// the targets' frames still on their way are late frames. The requests waiting out a TASK SET FULL
// go back too. The driver hears of it all after link_down.
void InitiatorHba::link_lost()
{
    if (down_) return;
    down_ = true;
    down_reported_ = false;
    lost_at_ = sc_time_stamp();
    ++epoch_;
    port_.discard_queued();  // its frames die with the link
    // An exchange already being aborted was given up by the driver's account as well: it goes back too.
    for (IoRequest* io : drop_exchanges([](const Active&) { return true; })) lost_.push_back(io);
    while (IoRequest* io = retries_.due()) lost_.push_back(io);
    // The logins under way stop; the commands waiting for them go back too.
    els_.abandon();
    for (IoRequest* io : logins_.take_held()) {
        unhold(io);
        lost_.push_back(io);
    }
    timers_.start(delays_.link_down, Deadline{Deadline::Kind::LinkDown, 0, 0, epoch_});
}

void InitiatorHba::report_link_down()
{
    down_reported_ = true;
    std::vector<IoRequest*> ios;
    ios.swap(lost_);
    if (link_listener_) link_listener_->link_down(this, ios, lost_at_);
}

// The link is back: the HBA works again at once (the loop's initialization after it is the loop's, and
// frames wait in the port meanwhile). A failure not yet reported is reported first, so that the driver
// has every I/O back before it hears the link is up.
void InitiatorHba::link_restored()
{
    if (!down_) return;
    if (!down_reported_) report_link_down();
    ++epoch_;
    down_ = false;
    if (link_listener_) link_listener_->link_up(this);
}

// What the login exchanges need of the HBA: its processor to build an ELS (cmd_exec, as for a command,
// without the DMA fetch), its FIFO, its timers, and its commands.
LoginExchanges::Hooks InitiatorHba::login_hooks()
{
    LoginExchanges::Hooks h;
    h.link_up = [this] { return !down_; };
    h.build = [this](phy::AlPa target, std::uint64_t serial) { cpu_.run(delays_.cmd_exec, {kElsBuilt, target, false, serial, nullptr}); };
    h.transmit = [this](loop::FrameRef frame) { transmit(std::move(frame)); };
    h.start_timer = [this](phy::AlPa target, std::uint16_t ox_id) {
        return timers_.start(delays_.exchange_timeout, Deadline{Deadline::Kind::Els, ox_id, 0, epoch_, target});
    };
    h.cancel_timer = [this](kernel::TimerHandle timer) { timers_.cancel(timer); };
    // The target is implicitly logged out (FCP-2): its open exchanges end as at a loss of signal.
    h.end_exchanges_to = [this](phy::AlPa target) {
        return drop_exchanges([target](const Active& a) { return a.exchange->spec().target == target; });
    };
    h.abort = [this](IoRequest* io, const std::string& reason) {
        unhold(io);
        if (completion_) completion_->io_aborted(io, reason);
    };
    h.submit = [this](IoRequest* io) {
        unhold(io);
        submit(io);
    };
    return h;
}

// The open exchanges `which` selects end here, in the order the HBA took them (serials grow): their
// work dropped, their OX_IDs quarantined (a frame of theirs that still comes is late). Their I/Os, in
// that order.
std::vector<IoRequest*> InitiatorHba::drop_exchanges(const std::function<bool(const Active&)>& which)
{
    std::vector<std::uint16_t> open;
    for (const auto& [ox_id, a] : exchanges_)
        if (which(a)) open.push_back(ox_id);
    std::sort(open.begin(), open.end(), [this](std::uint16_t x, std::uint16_t y) { return exchanges_.at(x).serial < exchanges_.at(y).serial; });
    std::vector<IoRequest*> ios;
    for (std::uint16_t ox_id : open) {
        Active& a = exchanges_.at(ox_id);
        ios.push_back(a.io);
        stop_sending(ox_id);
        close(ox_id);
        ox_ids_.quarantine(ox_id);
    }
    return ios;
}

void InitiatorHba::report(nlohmann::json& j) const
{
    if (logins_.active()) logins_.report(j);
    j["tx_frames_held"] = frames_held();
    j["task_set_full_retries"] = task_set_full_retries();
    j["aborts"] = aborts();
    j["ba_acc_received"] = ba_acc_received();
    j["abts_timeouts"] = abts_timeouts();
    j["late_frames"] = late_frames();
    j["sequence_errors"] = sequence_errors();
    j["link_down_frames"] = link_down_frames_;
}

}  // namespace fcal::hba
