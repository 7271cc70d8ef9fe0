#include "hba/target_hba.hpp"

#include "hba/exchange_lookup.hpp"

namespace fcal::hba {

TargetHba::TargetHba(sc_core::sc_module_name name, const HbaParams& params, loop::LPort& port)
    : sc_module(name), disk("disk"), params_(params), port_(port), cpu_("processor"), frame_proc_("frame_proc"),
      dma_("dma", params.dma, [this](tlm::tlm_generic_payload& gp, sc_core::sc_time& t) { disk->b_transport(gp, t); })
{
    port_.set_user(this);
}

TargetHba::Active& TargetHba::active(std::uint16_t rx_id) { return open_exchange(exchanges_, rx_id, *this, "RX_ID"); }

void TargetHba::frame_received(std::shared_ptr<const loop::LoopFrame> frame)
{
    frame_proc_.run(params_.frame_proc, [this, frame] {
        port_.release_buffer();
        handle(fcp::fc_frame_of(*frame));
    });
}

void TargetHba::handle(const fcp::FcFrame& f)
{
    if (f.iu == fcp::InformationUnit::Command) {
        do {
            last_rx_id_ = static_cast<std::uint16_t>(last_rx_id_ + 1);
        } while (last_rx_id_ == fcp::kUnassignedId || exchanges_.count(last_rx_id_));
        const std::uint16_t rx_id = last_rx_id_;
        Active a;
        a.exchange = std::make_unique<fcp::Exchange>(fcp::Exchange::accept(f, rx_id, params_.max_payload, params_.burst_bytes));
        exchanges_.emplace(rx_id, std::move(a));
        // The command reaches the disk controller as a single frame transfer, then executes.
        DmaJob deliver;
        deliver.transfer = dma_.new_transfer();
        deliver.fixed = params_.single_frame_transfer;
        deliver.done = [this, rx_id] { cpu_.run(params_.cmd_exec, [this, rx_id] { start_command(rx_id); }); };
        dma_.request(std::move(deliver));
        return;
    }
    if (f.iu != fcp::InformationUnit::Data) {
        SC_REPORT_ERROR("fcal/hba", (std::string(name()) + ": the target received an FCP_XFER_RDY or FCP_RSP").c_str());
        return;
    }
    const std::uint16_t rx_id = f.rx_id;
    Active& a = active(rx_id);
    a.exchange->receive(f);
    DmaJob job;
    job.first_of_transfer = a.burst_transfer == 0;
    if (a.burst_transfer == 0) a.burst_transfer = dma_.new_transfer();
    job.transfer = a.burst_transfer;
    job.bytes = f.payload_bytes;
    job.command = tlm::TLM_WRITE_COMMAND;
    job.address = fcal::disk::kDiskBufferBase + f.relative_offset;
    const bool burst_done = f.relative_offset + f.payload_bytes == a.burst_end;
    job.done = [this, rx_id, burst_done] {
        if (!burst_done) return;
        Active& x = active(rx_id);
        x.burst_transfer = 0;
        if (x.exchange->bytes_remaining_to_request() > 0)
            send_xfer_rdy(rx_id);
        else
            issue_disk(rx_id);  // all data is in the buffer: write through to the medium
    };
    dma_.request(std::move(job));
}

void TargetHba::start_command(std::uint16_t rx_id)
{
    if (active(rx_id).exchange->spec().direction == fcp::DataDirection::Read)
        issue_disk(rx_id);
    else
        send_xfer_rdy(rx_id);
}

bool TargetHba::try_disk(std::uint16_t rx_id)
{
    const fcp::ExchangeSpec& spec = active(rx_id).exchange->spec();
    fcal::disk::DiskCommand* cmd = new fcal::disk::DiskCommand;
    cmd->read = spec.direction == fcp::DataDirection::Read;
    cmd->bytes = spec.size_bytes;
    cmd->lba = spec.lba;
    cmd->tag = rx_id;
    cmd->done = this;
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(fcal::disk::kDiskCommandAddress);
    gp.set_data_ptr(nullptr);
    gp.set_data_length(0);
    gp.set_streaming_width(0);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gp.set_extension(cmd);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    disk->b_transport(gp, t);
    gp.clear_extension(cmd);
    delete cmd;
    return gp.is_response_ok();
}

void TargetHba::issue_disk(std::uint16_t rx_id)
{
    if (!disk_waiting_.empty() || !try_disk(rx_id)) disk_waiting_.push_back(rx_id);
}

void TargetHba::disk_ready(std::uint64_t tag)
{
    const auto rx_id = static_cast<std::uint16_t>(tag);
    // A slot is free again: the oldest waiting command goes to the disk.
    while (!disk_waiting_.empty() && try_disk(disk_waiting_.front())) disk_waiting_.pop_front();
    if (active(rx_id).exchange->spec().direction == fcp::DataDirection::Read)
        send_read_data(rx_id);
    else
        cpu_.run(params_.xfer_rdy_or_rsp, [this, rx_id] { send_response(rx_id); });
}

void TargetHba::send_read_data(std::uint16_t rx_id)
{
    Active& a = active(rx_id);
    const std::uint64_t transfer = dma_.new_transfer();
    std::uint32_t offset = 0;
    const std::uint32_t size = a.exchange->spec().size_bytes;
    bool first = true;
    while (offset < size) {
        const std::uint32_t bytes = std::min(params_.max_payload, size - offset);
        DmaJob job;
        job.transfer = transfer;
        job.first_of_transfer = first;
        first = false;
        job.bytes = bytes;
        job.command = tlm::TLM_READ_COMMAND;
        job.address = fcal::disk::kDiskBufferBase + offset;
        offset += bytes;
        const bool last = offset == size;
        job.done = [this, rx_id, last] {
            port_.queue_frame(active(rx_id).exchange->next_read_data_frame());
            if (last) cpu_.run(params_.xfer_rdy_or_rsp, [this, rx_id] { send_response(rx_id); });
        };
        dma_.request(std::move(job));
    }
}

void TargetHba::send_xfer_rdy(std::uint16_t rx_id)
{
    cpu_.run(params_.xfer_rdy_or_rsp, [this, rx_id] {
        Active& a = active(rx_id);
        auto frame = a.exchange->make_xfer_rdy();
        const fcp::FcFrame& x = fcp::fc_frame_of(*frame);
        a.burst_end = x.xfer_rdy.relative_offset + x.xfer_rdy.burst_length;
        port_.queue_frame(frame);
    });
}

void TargetHba::send_response(std::uint16_t rx_id)
{
    port_.queue_frame(active(rx_id).exchange->make_response());
    exchanges_.erase(rx_id);
}

}  // namespace fcal::hba
