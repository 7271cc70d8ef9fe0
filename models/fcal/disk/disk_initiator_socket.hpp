#pragma once
// The initiator's end of the disk protocol (disk/disk_command.hpp; docs/model.md, "The disks: the
// TLM-2.0 protocol"): a TLM-2.0 initiator socket of the DiskProtocol type whose backward path hands
// the disk's notices to a DiskReady (read_data, disk_ready). The forward path is the socket's own:
// `socket->b_transport(gp, delay)`.
#include <systemc>
#include <tlm>

#include "fcal/disk/disk_command.hpp"

namespace fcal::disk {

class DiskInitiatorSocket : public tlm::tlm_initiator_socket<32, DiskProtocol> {
public:
    DiskInitiatorSocket(const char* name, DiskReady& owner);

private:
    class Backward : public tlm::tlm_bw_transport_if<DiskProtocol> {
    public:
        explicit Backward(DiskReady& owner) : owner_(owner) {}
        tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                           sc_core::sc_time& delay) override;
        void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

    private:
        DiskReady& owner_;
    };
    Backward backward_;
};

}  // namespace fcal::disk
