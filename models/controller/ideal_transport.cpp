#include "controller/ideal_transport.hpp"

#include <stdexcept>
#include <string>

namespace fcal::controller {

IdealTransport::IdealTransport(sc_core::sc_module_name name, unsigned disks) : sc_module(name), waiting_(disks)
{
    for (unsigned d = 0; d < disks; ++d)
        sockets_.push_back(std::make_unique<Socket>(("disk" + std::to_string(d)).c_str()));
}

void IdealTransport::submit(hba::IoRequest* io)
{
    if (io->disk >= sockets_.size()) throw std::out_of_range("ideal transport: no disk " + std::to_string(io->disk));
    io->to_hba = sc_core::sc_time_stamp();
    Pending p{io, false};
    auto& queue = waiting_[io->disk];
    if (!queue.empty() || !try_send(p)) queue.push_back(p);
}

void IdealTransport::buffer(unsigned disk, bool to_disk, std::uint32_t bytes)
{
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    t.set_command(to_disk ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(disk::kDiskBufferBase);
    t.set_data_ptr(nullptr);  // the model moves sizes, not contents
    t.set_data_length(bytes);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    (*sockets_[disk])->b_transport(t, delay);
    if (!t.is_response_ok()) throw std::runtime_error("ideal transport: disk " + std::to_string(disk) + " refused a buffer transfer");
    if (on_data) on_data(bytes);
}

bool IdealTransport::try_send(Pending& pending)
{
    hba::IoRequest* io = pending.io;
    if (!io->read && !pending.data_in_buffer) {
        buffer(io->disk, true, io->bytes);
        pending.data_in_buffer = true;
    }
    disk::DiskCommand cmd;
    cmd.read = io->read;
    cmd.bytes = io->bytes;
    cmd.lba = io->lba;
    cmd.tag = next_tag_;
    cmd.done = this;
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(disk::kDiskCommandAddress);
    t.set_data_ptr(nullptr);
    t.set_data_length(0);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&cmd);
    // Registered before the call: nothing completes inside it, but the tag must be known if it did.
    in_disk_[next_tag_] = io;
    (*sockets_[io->disk])->b_transport(t, delay);
    t.clear_extension(&cmd);
    if (t.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE) {
        in_disk_.erase(next_tag_);
        ++refused_;
        return false;
    }
    if (!t.is_response_ok()) throw std::runtime_error("ideal transport: disk " + std::to_string(io->disk) + " rejected a command");
    ++next_tag_;
    return true;
}

void IdealTransport::send_waiting(unsigned disk)
{
    auto& queue = waiting_[disk];
    while (!queue.empty() && try_send(queue.front())) queue.pop_front();
}

void IdealTransport::disk_ready(std::uint64_t tag)
{
    const auto it = in_disk_.find(tag);
    if (it == in_disk_.end()) throw std::logic_error("ideal transport: disk ready for unknown tag " + std::to_string(tag));
    hba::IoRequest* io = it->second;
    in_disk_.erase(it);
    if (io->read) buffer(io->disk, false, io->bytes);
    const unsigned disk = io->disk;
    io->completed = sc_core::sc_time_stamp();
    // A slot is free again: waiting commands first, then the news (which may submit more).
    send_waiting(disk);
    if (on_complete_) on_complete_(io);
}

}  // namespace fcal::controller
