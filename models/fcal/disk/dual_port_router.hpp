#pragma once
// A dual-ported drive's two FC interfaces in front of its one mechanism (docs/host.md, "Dual loops and
// multipath"): each target HBA (one per loop) drives a port socket of the disk protocol
// (disk/disk_command.hpp) as if it had the disk to itself; the router passes every transaction on
// to the one Disk, and each notice back to the port whose command it is. So both interfaces share
// the disk's queue slots, actuator, buffer and write cache.
//
// The two interfaces number their commands independently (RX_IDs), so the same tag may come from both:
// the router gives the disk tag * 2 + port (buffer addresses likewise), and takes it apart again for
// the notices. Nothing is allocated per transaction.
#include <array>
#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "fcal/disk/disk_command.hpp"
#include "fcal/disk/disk_notifier.hpp"

namespace fcal::disk {

class DualPortRouter : public sc_core::sc_module {
public:
    static constexpr unsigned kPorts = 2;
    using PortSocket = tlm_utils::simple_target_socket_tagged<DualPortRouter, 32, DiskProtocol>;
    // Bound by the target HBA on loop 0 and on loop 1.
    PortSocket port0, port1;
    PortSocket& port(unsigned p) { return p == 0 ? port0 : port1; }
    // To the disk's socket.
    tlm_utils::simple_initiator_socket<DualPortRouter, 32, DiskProtocol> disk;

    explicit DualPortRouter(sc_core::sc_module_name name);

    // The disk's tag for `tag` of port `p`, and back.
    static constexpr std::uint64_t disk_tag(std::uint64_t tag, unsigned p) { return tag * kPorts + p; }
    static constexpr unsigned port_of(std::uint64_t disk_tag) { return static_cast<unsigned>(disk_tag % kPorts); }
    static constexpr std::uint64_t port_tag(std::uint64_t disk_tag) { return disk_tag / kPorts; }

private:
    void b_transport(int p, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);

    std::array<DiskNotifier, kPorts> notifiers_;
};

}  // namespace fcal::disk
