#include "disk/disk.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace fcal::disk {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

void validate(const DiskParams& params)
{
    if (!(params.access_time_s >= 0))
        throw std::invalid_argument("disk access_time_s must be >= 0, got " + std::to_string(params.access_time_s));
    if (!(params.media_rate_bytes_per_s > 0))
        throw std::invalid_argument("disk media_rate_bytes_per_s must be > 0, got " +
                                    std::to_string(params.media_rate_bytes_per_s));
    if (params.queue_slots == 0) throw std::invalid_argument("disk queue_slots must be >= 1");
}

Disk::Disk(sc_core::sc_module_name name, const DiskParams& params)
    : sc_module(name), socket("socket"), params_(params)
{
    validate(params_);
    access_time_ = sc_time(params_.access_time_s, sc_core::SC_SEC);
    socket.register_b_transport(this, &Disk::b_transport);
    SC_METHOD(service_done);
    sensitive << done_event_;
    dont_initialize();
}

sc_time Disk::service_time(std::uint32_t bytes) const
{
    return access_time_ + sc_time(static_cast<double>(bytes) / params_.media_rate_bytes_per_s, sc_core::SC_SEC);
}

void Disk::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay)
{
    const auto address = trans.get_address();
    if (address == disk::kDiskCommandAddress) {
        accept_command(trans, delay);
    } else if (address >= disk::kDiskBufferBase) {
        move_data(trans);
    } else {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
}

void Disk::accept_command(tlm::tlm_generic_payload& trans, const sc_time& delay)
{
    disk::DiskCommand* cmd = nullptr;
    trans.get_extension(cmd);
    if (!trans.is_write() || cmd == nullptr || cmd->done == nullptr) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    if (queue_.size() >= params_.queue_slots) {
        ++stats_.commands_rejected;
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    // The initiator may reuse its payload and extension as soon as we return.
    queue_.push_back(Held{cmd->read, cmd->bytes, cmd->tag, cmd->done, sc_time_stamp() + delay});
    ++stats_.commands_accepted;
    stats_.max_queue = std::max(stats_.max_queue, queue_.size());
    if (!busy_) start_next();
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Disk::move_data(tlm::tlm_generic_payload& trans)
{
    const auto length = trans.get_data_length();
    if (trans.is_read()) {
        if (trans.get_data_ptr() != nullptr && length > 0) std::memset(trans.get_data_ptr(), 0, length);
        stats_.buffer_bytes_out += length;
    } else if (trans.is_write()) {
        stats_.buffer_bytes_in += length;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Disk::start_next()
{
    const Held& next = queue_.front();
    const sc_time now = sc_time_stamp();
    const sc_time start = std::max(now, next.arrival);
    service_ = service_time(next.bytes);
    busy_ = true;
    done_event_.notify(start - now + service_);
}

void Disk::service_done()
{
    const Held finished = queue_.front();
    queue_.pop_front();
    busy_ = false;
    ++stats_.commands_served;
    ++(finished.read ? stats_.reads_served : stats_.writes_served);
    stats_.busy_time += service_;
    // Start the next one before telling the HBA: it may hand us a new command from disk_ready.
    if (!queue_.empty()) start_next();
    finished.done->disk_ready(finished.tag);
}

}  // namespace fcal::disk
