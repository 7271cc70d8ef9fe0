#include "fcal/controller/ideal_transport.hpp"

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
    auto& queue = waiting_[io->disk];
    if (!queue.empty() || !try_send(io)) queue.push_back(io);
}

// One command-phase transaction; false when the disk answered TASK SET FULL.
bool IdealTransport::command(unsigned disk, disk::DiskCommand& cmd)
{
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    disk::prepare_command(t, cmd);
    (*sockets_[disk])->b_transport(t, delay);
    t.clear_extension(&cmd);
    if (!t.is_response_ok()) throw std::runtime_error("ideal transport: disk " + std::to_string(disk) + " rejected a command");
    return cmd.status == disk::CommandStatus::Accepted;
}

void IdealTransport::buffer(unsigned disk, bool to_disk, std::uint64_t tag, std::uint32_t offset, std::uint32_t bytes)
{
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    t.set_command(to_disk ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(disk::buffer_address(tag, offset));
    t.set_data_ptr(nullptr);  // the model moves sizes, not contents
    t.set_data_length(bytes);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    (*sockets_[disk])->b_transport(t, delay);
    if (!t.is_response_ok()) throw std::runtime_error("ideal transport: disk " + std::to_string(disk) + " refused a buffer transfer");
    if (on_data) on_data(bytes);
}

bool IdealTransport::try_send(hba::IoRequest* io)
{
    disk::DiskCommand cmd;
    cmd.kind = disk::CommandKind::New;
    cmd.read = io->read;
    cmd.bytes = io->bytes;
    cmd.lba = io->lba;
    // Tags are unique among the commands in any disk (one DiskReady serves them all): skip those in
    // use; fewer are in use than the 2^20 tags (at most every disk's queue slots), so one is free.
    // Wrapping keeps buffer addresses (tag x 4 GiB) inside 64 bits.
    while (in_disk_.count(next_tag_)) next_tag_ = (next_tag_ + 1) % kTags;
    cmd.tag = next_tag_;
    cmd.done = this;
    // Registered before the call: nothing completes inside it, but the tag must be known if it did.
    in_disk_[cmd.tag] = InDisk{io, 0};
    if (!command(io->disk, cmd)) {
        in_disk_.erase(cmd.tag);
        ++refused_;
        return false;
    }
    next_tag_ = (next_tag_ + 1) % kTags;
    if (!io->read) {
        buffer(io->disk, true, cmd.tag, 0, io->bytes);
        disk::DiskCommand data_in = cmd;
        data_in.kind = disk::CommandKind::WriteDataIn;
        command(io->disk, data_in);
    }
    return true;
}

void IdealTransport::send_waiting(unsigned disk)
{
    auto& queue = waiting_[disk];
    while (!queue.empty() && try_send(queue.front())) queue.pop_front();
}

void IdealTransport::take_read_data(InDisk& entry, std::uint64_t tag, std::uint32_t upto)
{
    if (upto <= entry.taken) return;
    buffer(entry.io->disk, false, tag, entry.taken, upto - entry.taken);
    entry.taken = upto;
}

void IdealTransport::read_data(std::uint64_t tag, std::uint32_t bytes)
{
    const auto it = in_disk_.find(tag);
    if (it == in_disk_.end()) throw std::logic_error("ideal transport: read data for unknown tag " + std::to_string(tag));
    take_read_data(it->second, tag, bytes);
}

void IdealTransport::disk_ready(std::uint64_t tag)
{
    const auto it = in_disk_.find(tag);
    if (it == in_disk_.end()) throw std::logic_error("ideal transport: disk ready for unknown tag " + std::to_string(tag));
    hba::IoRequest* io = it->second.io;
    if (io->read) take_read_data(it->second, tag, io->bytes);
    in_disk_.erase(it);
    const unsigned disk = io->disk;
    io->completed = sc_core::sc_time_stamp();
    // A slot is free again: waiting commands first, then the news (which may submit more).
    send_waiting(disk);
    if (on_complete_) on_complete_(io);
}

}  // namespace fcal::controller
