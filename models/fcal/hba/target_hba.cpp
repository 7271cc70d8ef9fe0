#include "fcal/hba/target_hba.hpp"

#include <string>

#include "fcal/fcp/basic_link_service.hpp"
#include "fcal/fcp/extended_link_service.hpp"
#include "fcal/hba/data_frame_slack.hpp"
#include "fcal/hba/exchange_lookup.hpp"

namespace fcal::hba {

TargetHba::TargetHba(sc_core::sc_module_name name, const HbaParams& params, loop::LPort& port)
    : sc_module(name), disk("disk", *this), params_(params), delays_(params), port_(port), cpu_("processor", *this), frame_proc_("frame_proc", *this),
      dma_("dma", params.dma, [this](tlm::tlm_generic_payload& gp, sc_core::sc_time& t) { disk->b_transport(gp, t); }, *this),
      sft_(params.sft_engine, delays_.single_frame_transfer, dma_, *this),
      timers_("timers", [this](std::uint64_t& key) { data_timeout(key); })
{
    port_.set_user(this);
}

void TargetHba::work_done(Work& w)
{
    switch (w.step) {
    case kFrameProcessed:
        port_.release_buffer();
        if (down_) {  // no signal: what reaches it is lost
            ++link_down_frames_;
            return;
        }
        handle(fcp::fc_frame_of(*w.frame));
        return;
    case kCommandDelivered: cpu_.run(delays_.cmd_exec, {kCommandExecuted, w.id, false, w.serial, nullptr}); return;
    case kCommandExecuted:
        if (live(w.id, w.serial)) start_command(w.id);
        return;
    case kRefused: {
        Active* a = live(w.id, w.serial);
        if (!a) return;
        port_.queue_frame(a->exchange->make_response(fcp::ScsiStatus::TaskSetFull));
        close(w.id);
        return;
    }
    case kDataInBuffer:
        if (w.last && live(w.id, w.serial)) burst_in(w.id);
        return;
    case kDataFetched: {
        Active* x = live(w.id, w.serial);
        if (!x) return;
        port_.queue_frame(x->exchange->next_read_data_frame());
        if (w.last) cpu_.run(delays_.xfer_rdy_or_rsp, {kResponseBuilt, w.id, false, w.serial, nullptr});
        return;
    }
    case kXferRdyBuilt: {
        Active* a = live(w.id, w.serial);
        if (!a) return;
        auto frame = a->exchange->make_xfer_rdy();
        const fcp::FcFrame& x = fcp::fc_frame_of(*frame);
        a->burst_end = x.xfer_rdy.relative_offset + x.xfer_rdy.burst_length;
        // The burst must come within data_timeout, or the exchange is dropped (its disk slot freed).
        a->timer = timers_.start(delays_.data_timeout, std::uint64_t{w.serial} << 16 | w.id);
        port_.queue_frame(frame);
        return;
    }
    case kResponseBuilt:
        if (live(w.id, w.serial)) send_response(w.id);
        return;
    case kBaAccBuilt:
    case kFailureBuilt:
    case kLsAccBuilt: send(std::move(w.frame)); return;
    }
}

// The write burst's data are all in the disk's buffer: ask for the next, or let the disk write.
void TargetHba::burst_in(std::uint16_t rx_id)
{
    Active& x = active(rx_id);
    x.burst_transfer = 0;
    timers_.cancel(x.timer);
    x.timer = {};
    if (x.exchange->bytes_remaining_to_request() > 0)
        send_xfer_rdy(rx_id);
    else
        disk_command(rx_id, fcal::disk::CommandKind::WriteDataIn);  // all data is in the buffer
}

// A read data frame but the read's last, fetched ahead (send_read_data): queued now for the end of
// its transfer.
void TargetHba::work_ahead(Work& w, const sc_core::sc_time& end)
{
    Active* x = live(w.id, w.serial);
    if (!x) return;
    port_.queue_frame_ahead(loop::OutgoingFrame{x->exchange->next_read_data_frame()}, end, w.serial);
}

// Frames fetched ahead whose transfer had not ended by now were never sent: the port drops them, and
// the exchange forgets it built them.
void TargetHba::take_back_ahead(Active& a)
{
    const std::size_t frames = port_.withdraw_ahead(a.serial);
    if (frames > 0) a.exchange->take_back_read_data_frames(static_cast<std::uint32_t>(frames));
}

TargetHba::Active& TargetHba::active(std::uint16_t rx_id) { return open_exchange(exchanges_, rx_id, *this, "RX_ID"); }

TargetHba::Active* TargetHba::live(std::uint16_t rx_id, std::uint64_t serial)
{
    auto it = exchanges_.find(rx_id);
    return it == exchanges_.end() || it->second.serial != serial ? nullptr : &it->second;
}


void TargetHba::frame_received(loop::FrameRef frame)
{
    frame_proc_.run_from(port_.frame_end(), delays_.frame_proc, {kFrameProcessed, 0, false, 0, std::move(frame)});
}

// Write data goes to the disk's buffer as a DMA job whose start is the HBA's (docs/hba.md, "DMA").
sc_core::sc_time TargetHba::frame_slack(const loop::LoopFrame& frame) const { return data_frame_slack(frame, delays_.frame_proc); }

void TargetHba::handle(const fcp::FcFrame& f)
{
    if (f.iu == fcp::InformationUnit::Command) {
        const std::uint16_t rx_id = rx_ids_.acquire();
        recovery_.exchange_opened(rx_id);
        Active a;
        a.exchange.emplace(fcp::Exchange::accept(f, rx_id, params_.max_payload, params_.burst_bytes, params_.block_bytes));
        a.serial = ++last_serial_;
        const std::uint64_t serial = a.serial;
        exchanges_.emplace(rx_id, std::move(a));
        // The command reaches the disk controller as a single frame transfer, then executes.
        sft_.run({kCommandDelivered, rx_id, false, serial, nullptr});
        return;
    }
    if (f.iu == fcp::InformationUnit::Abts) {
        abort_exchange(f);
        return;
    }
    if (f.iu == fcp::InformationUnit::ElsRequest) {
        // Its own port name (and, as drive manuals do, the same as node name).
        ++els_answered_;
        const std::uint64_t own_name = port_.config().init.port_name;
        cpu_.run(delays_.xfer_rdy_or_rsp, {kLsAccBuilt, 0, false, 0, fcp::make_ls_acc(f, own_name, own_name)});
        return;
    }
    if (f.iu != fcp::InformationUnit::Data) {
        SC_REPORT_ERROR("fcal/hba", (std::string(name()) + ": the target received an FCP_XFER_RDY, FCP_RSP, BA_ACC or ELS reply").c_str());
        return;
    }
    const std::uint16_t rx_id = f.rx_id;
    if (!exchanges_.count(rx_id) && recovery_.late(rx_id)) return;
    Active& a = active(rx_id);
    // A data frame went missing before this one: the burst cannot complete, the rest is dropped and
    // the initiator's timer ends the exchange (ABTS).
    if (!recovery_.in_sequence(a.broken, f.relative_offset, a.exchange->bytes_moved())) return;
    const std::uint64_t serial = a.serial;
    a.exchange->receive(f);
    DmaJob job;
    job.first_of_transfer = a.burst_transfer == 0;
    if (a.burst_transfer == 0) a.burst_transfer = dma_.new_transfer();
    job.transfer = a.burst_transfer;
    job.bytes = f.payload_bytes;
    job.command = tlm::TLM_WRITE_COMMAND;
    job.address = fcal::disk::buffer_address(rx_id, f.relative_offset);
    const bool burst_done = f.relative_offset + f.payload_bytes == a.burst_end;
    job.done = {kDataInBuffer, rx_id, burst_done, serial, nullptr};
    job.quiet = !burst_done;  // only the burst's end matters (docs/hba.md, "DMA")
    dma_.request(std::move(job));
}

void TargetHba::start_command(std::uint16_t rx_id)
{
    if (drive_failed_) {
        answer_failed(rx_id);
        return;
    }
    // The disk takes the task into its task set now, or refuses it (TASK SET FULL).
    if (!disk_command(rx_id, fcal::disk::CommandKind::New)) {
        refuse(rx_id);
        return;
    }
    Active& a = active(rx_id);
    a.at_disk = true;
    if (a.exchange->spec().direction == fcp::DataDirection::Write) send_xfer_rdy(rx_id);
}

// One command-phase transaction of the disk's protocol (disk/disk_command.hpp); false when the disk
// answered TASK SET FULL.
bool TargetHba::disk_command(std::uint16_t rx_id, fcal::disk::CommandKind kind)
{
    const fcp::ExchangeSpec& spec = active(rx_id).exchange->spec();
    fcal::disk::DiskCommand cmd;
    cmd.kind = kind;
    cmd.read = spec.direction == fcp::DataDirection::Read;
    cmd.bytes = spec.size_bytes;
    cmd.lba = spec.lba;
    cmd.same_blocks = spec.write_same_blocks;
    cmd.tag = rx_id;
    const tlm::tlm_response_status status = disk.command(cmd);
    if (status != tlm::TLM_OK_RESPONSE)
        SC_REPORT_ERROR("fcal/hba", (std::string(name()) + ": the disk refused a command (TLM response status " +
                                     std::to_string(status) + ")").c_str());
    return cmd.status == fcal::disk::CommandStatus::Accepted;
}

void TargetHba::refuse(std::uint16_t rx_id)
{
    ++task_set_full_;
    cpu_.run(delays_.xfer_rdy_or_rsp, {kRefused, rx_id, false, active(rx_id).serial, nullptr});
}

void TargetHba::drive_failed()
{
    drive_failed_ = true;
    // The commands still to be executed are answered when they are (start_command).
    std::vector<std::uint16_t> open;
    for (const auto& [rx_id, a] : exchanges_)
        if (a.at_disk) open.push_back(rx_id);
    for (std::uint16_t rx_id : open) answer_failed(rx_id);
}

// The exchange ends with CHECK CONDITION wherever it is: its work and its command at the disk are
// dropped as for an ABTS (frames that still come for it are late), and the FCP_RSP is built.
void TargetHba::answer_failed(std::uint16_t rx_id)
{
    Active& a = active(rx_id);
    take_back_ahead(a);  // before the response takes its SEQ_ID
    fcp::Exchange::FramePtr response = a.exchange->make_response(fcp::ScsiStatus::CheckCondition);
    drop(rx_id);
    cpu_.run(delays_.xfer_rdy_or_rsp, {kFailureBuilt, 0, false, 0, std::move(response)});
}

void TargetHba::read_data(std::uint64_t tag, std::uint32_t bytes)
{
    // Whole frames only: the rest follows with the next announcement.
    const std::uint32_t upto = bytes / params_.max_payload * params_.max_payload;
    send_read_data(static_cast<std::uint16_t>(tag), upto);
}

void TargetHba::disk_ready(std::uint64_t tag)
{
    const auto rx_id = static_cast<std::uint16_t>(tag);
    // A write-back completion the disk had already scheduled when the exchange was aborted.
    if (!exchanges_.count(rx_id) && recovery_.was_aborted(rx_id)) return;
    Active& a = active(rx_id);
    const std::uint64_t serial = a.serial;
    if (a.exchange->spec().direction == fcp::DataDirection::Read)
        send_read_data(rx_id, a.exchange->spec().size_bytes);
    else
        cpu_.run(delays_.xfer_rdy_or_rsp, {kResponseBuilt, rx_id, false, serial, nullptr});
}

// DMA the read data from a.read_queued up to `upto` out of the disk's buffer as one transfer; the
// FCP_RSP follows the frame that ends the read.
void TargetHba::send_read_data(std::uint16_t rx_id, std::uint32_t upto)
{
    Active& a = active(rx_id);
    if (upto <= a.read_queued) return;
    const std::uint64_t serial = a.serial;
    const std::uint64_t transfer = dma_.new_transfer();
    std::uint32_t offset = a.read_queued;
    const std::uint32_t size = a.exchange->spec().size_bytes;
    bool first = true;
    while (offset < upto) {
        const std::uint32_t bytes = std::min(params_.max_payload, size - offset);
        DmaJob job;
        job.transfer = transfer;
        job.first_of_transfer = first;
        first = false;
        job.bytes = bytes;
        job.command = tlm::TLM_READ_COMMAND;
        job.address = fcal::disk::buffer_address(rx_id, offset);
        offset += bytes;
        job.done = {kDataFetched, rx_id, offset == size, serial, nullptr};
        // The FCP_RSP's processing starts when the last frame's transfer ends: that one ends in time.
        job.starts_ahead = reads_ahead_;
        job.ends_ahead = reads_ahead_ && offset != size;
        dma_.request(std::move(job));
    }
    a.read_queued = offset;
}

void TargetHba::send_xfer_rdy(std::uint16_t rx_id)
{
    cpu_.run(delays_.xfer_rdy_or_rsp, {kXferRdyBuilt, rx_id, false, active(rx_id).serial, nullptr});
}

void TargetHba::send_response(std::uint16_t rx_id)
{
    timers_.cancel(active(rx_id).timer);
    port_.queue_frame(active(rx_id).exchange->make_response());
    close(rx_id);
}

void TargetHba::send(loop::FrameRef frame)
{
    if (!down_) port_.queue_frame(std::move(frame));
}

// Loss of signal: every open exchange is dropped where it is (its disk command aborted, its work to
// nothing), as for an ABTS but without an answer. What the disk had already finished for one (a
// write-back completion under way) comes back for an aborted tag and is ignored.
void TargetHba::link_lost()
{
    down_ = true;
    port_.discard_queued();  // its frames die with the link
    std::vector<std::uint16_t> open;
    for (const auto& [rx_id, a] : exchanges_) open.push_back(rx_id);
    for (std::uint16_t rx_id : open) drop(rx_id);
}

void TargetHba::close(std::uint16_t rx_id)
{
    exchanges_.erase(rx_id);
    rx_ids_.release(rx_id);
}

// ABTS: whatever the exchange is doing stops — its DMA and pending steps are dropped, and the disk
// drops the command wherever it is (queued, in service, waiting for write data, data in its buffer),
// freeing its slot — and BA_ACC answers. An ABTS for an exchange the target does not know (its
// FCP_CMND was lost, or it has already sent its FCP_RSP) is answered BA_ACC all the same: either way
// the target holds nothing of it afterwards.
void TargetHba::abort_exchange(const fcp::FcFrame& abts)
{
    // A DMA job, a single-frame transfer or a step of the processor that ends in this very instant (a
    // read's last frame fetched, an FCP_CMND delivered, the FCP_RSP built) comes first, whichever
    // process the kernel runs first (docs/faults.md, "FCP recovery").
    dma_.finish_due();
    sft_.finish_due();
    cpu_.finish_due();
    recovery_.abts_received();
    for (auto& [rx_id, a] : exchanges_) {
        const fcp::ExchangeSpec& spec = a.exchange->spec();
        if (spec.ox_id == abts.ox_id && fcp::private_loop_address(spec.initiator) == abts.s_id) {
            drop(rx_id);
            break;
        }
    }
    cpu_.run(delays_.xfer_rdy_or_rsp, {kBaAccBuilt, 0, false, 0, fcp::make_ba_acc(abts)});
}

// The exchange stops here: the disk drops its command, its DMA transfers and pending steps are
// dropped, and frames that still come for it are counted as late. The disk first: a service ending in
// this very instant ends before the abort, its Ready coming within the abort's call (docs/disk.md,
// "The TLM-2.0 protocol"), and what that starts is dropped with the rest, as when the end came first.
void TargetHba::drop(std::uint16_t rx_id)
{
    if (active(rx_id).at_disk) disk_command(rx_id, fcal::disk::CommandKind::Abort);
    Active& a = active(rx_id);
    timers_.cancel(a.timer);
    dma_.cancel_exchange(a.serial);
    take_back_ahead(a);
    close(rx_id);
    recovery_.exchange_dropped(rx_id);
}

// A write burst did not come in time (its FCP_XFER_RDY or data were lost, and so was the ABTS, or
// the initiator gave up): the target drops the exchange on its own.
void TargetHba::data_timeout(std::uint64_t key)
{
    const auto rx_id = static_cast<std::uint16_t>(key & 0xFFFF);
    active(rx_id).timer = {};
    recovery_.data_timed_out();
    drop(rx_id);
}

}  // namespace fcal::hba
