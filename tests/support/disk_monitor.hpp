#pragma once
// Test-only: a pass-through monitor of the disk's protocol (disk/disk_command.hpp), bound between an
// initiator (a target HBA) and a disk. It passes every forward transaction on to the disk and every
// notice back to the initiator, unchanged and in zero time, and counts each by kind: what any
// monitor or checker of the protocol would do, built from plain TLM utility sockets.
#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "fcal/disk/disk_command.hpp"

namespace fcal::test {

class DiskMonitor : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<DiskMonitor, 32, disk::DiskProtocol> from_initiator;
    tlm_utils::simple_initiator_socket<DiskMonitor, 32, disk::DiskProtocol> to_disk;

    // Forward: command-phase transactions by kind, buffer accesses and their bytes.
    std::uint64_t new_commands = 0, write_data_in = 0, aborts = 0;
    std::uint64_t buffer_writes = 0, buffer_reads = 0, bytes_to_disk = 0, bytes_from_disk = 0;
    // Backward: the disk's notices.
    std::uint64_t read_data_notices = 0, ready_notices = 0;
    std::uint64_t forward() const { return new_commands + write_data_in + aborts + buffer_writes + buffer_reads; }
    std::uint64_t backward() const { return read_data_notices + ready_notices; }

    explicit DiskMonitor(sc_core::sc_module_name name)
        : sc_module(name), from_initiator("from_initiator"), to_disk("to_disk")
    {
        from_initiator.register_b_transport(this, &DiskMonitor::b_transport);
        to_disk.register_nb_transport_bw(this, &DiskMonitor::nb_transport_bw);
    }

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
    {
        if (trans.get_address() == disk::kDiskCommandAddress) {
            const disk::DiskCommand* cmd = trans.get_extension<disk::DiskCommand>();
            if (cmd && cmd->kind == disk::CommandKind::New) ++new_commands;
            if (cmd && cmd->kind == disk::CommandKind::WriteDataIn) ++write_data_in;
            if (cmd && cmd->kind == disk::CommandKind::Abort) ++aborts;
        } else if (trans.is_write()) {
            ++buffer_writes;
            bytes_to_disk += trans.get_data_length();
        } else {
            ++buffer_reads;
            bytes_from_disk += trans.get_data_length();
        }
        to_disk->b_transport(trans, delay);
    }

    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay)
    {
        const disk::DiskNotice* n = trans.get_extension<disk::DiskNotice>();
        if (n && n->kind == disk::NoticeKind::ReadData) ++read_data_notices;
        if (n && n->kind == disk::NoticeKind::Ready) ++ready_notices;
        return from_initiator->nb_transport_bw(trans, phase, delay);
    }
};

}  // namespace fcal::test
