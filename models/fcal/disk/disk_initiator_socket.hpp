#pragma once
// The initiator's end of the disk protocol (disk/disk_command.hpp; docs/disk.md, "The TLM-2.0
// protocol"): a TLM-2.0 initiator socket of the DiskProtocol type. Forward, command() and
// buffer() make the protocol's two kinds of transaction on payloads of the socket's own (so that a
// transaction allocates nothing). The disk calls back from inside one only for an Abort in the very
// instant its actuator's operation ends: that end comes first, and its notices (for the aborted tag
// or another) arrive within the Abort's call, before the abort takes effect. Backward, it hands the
// disk's notices to a DiskReady (read_data, disk_ready) and refuses anything else.
#include <cstdint>
#include <systemc>
#include <tlm>

#include "fcal/disk/disk_command.hpp"

namespace fcal::disk {

class DiskInitiatorSocket : public tlm::tlm_initiator_socket<32, DiskProtocol> {
public:
    DiskInitiatorSocket(const char* name, DiskReady& owner);

    // The command phase: `cmd` takes effect at the current time + delay. Returns the disk's response
    // status; for kind New, cmd.status then says whether the disk took a slot.
    tlm::tlm_response_status command(DiskCommand& cmd, sc_core::sc_time delay = sc_core::SC_ZERO_TIME);
    // The data phase: `bytes` of command `tag`'s buffer window from `offset`, written into the disk's
    // buffer (TLM_WRITE_COMMAND) or read out of it. The model moves sizes, not contents: no data.
    tlm::tlm_response_status buffer(tlm::tlm_command direction, std::uint64_t tag, std::uint32_t offset, std::uint32_t bytes,
                                    sc_core::sc_time delay = sc_core::SC_ZERO_TIME);

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
    tlm::tlm_generic_payload command_;
    tlm::tlm_generic_payload buffer_;
};

}  // namespace fcal::disk
