// disk::DualPortRouter (docs/host.md, "Dual loops and multipath"): two interfaces that number their
// commands alike share one disk: its slots and actuator are one, each notice goes back to the port whose
// command it is, with that port's tag, and its buffer is reached with the port's own addresses.
#include <catch2/catch.hpp>

#include <systemc>
#include <vector>

#include "fcal/disk/disk.hpp"
#include "fcal/disk/disk_initiator_socket.hpp"
#include "fcal/disk/dual_port_router.hpp"

using namespace fcal;
using sc_core::sc_start;
using sc_core::sc_time;

namespace {

struct Port : sc_core::sc_module, disk::DiskReady {
    disk::DiskInitiatorSocket socket;
    std::vector<std::uint64_t> ready;
    std::vector<double> ready_at;
    explicit Port(sc_core::sc_module_name name) : sc_module(name), socket("socket", *this) {}
    void disk_ready(std::uint64_t tag) override
    {
        ready.push_back(tag);
        ready_at.push_back(sc_core::sc_time_stamp().to_seconds());
    }
    disk::CommandStatus send(disk::CommandKind kind, std::uint64_t tag)
    {
        disk::DiskCommand cmd;
        cmd.kind = kind;
        cmd.read = true;
        cmd.bytes = 65536;
        cmd.tag = tag;
        REQUIRE(socket.command(cmd) == tlm::TLM_OK_RESPONSE);
        return cmd.status;
    }
};

}  // namespace

TEST_CASE("dual-port router: one disk behind two ports, the same tag from both", "[disk]")
{
    disk::DiskParams p;
    p.access_time_s = 2e-3;
    p.media_rate_bytes_per_s = 50e6;
    p.queue_slots = 3;
    disk::Disk disk("disk", p);
    disk::DualPortRouter router("router");
    Port a("a"), b("b");
    a.socket.bind(router.port0);
    b.socket.bind(router.port1);
    router.disk.bind(disk.socket);
    sc_start(sc_core::SC_ZERO_TIME);

    CHECK(a.send(disk::CommandKind::New, 7) == disk::CommandStatus::Accepted);
    CHECK(b.send(disk::CommandKind::New, 7) == disk::CommandStatus::Accepted);
    CHECK(b.send(disk::CommandKind::New, 8) == disk::CommandStatus::Accepted);
    // The slots are the disk's: the fourth command from either port is refused.
    CHECK(a.send(disk::CommandKind::New, 9) == disk::CommandStatus::TaskSetFull);
    CHECK(disk.queued() == 3);
    // One actuator: the reads are served one after the other, each 2 ms + 65536 B / 50 MB/s = 3.31072 ms.
    sc_start(sc_time(20, sc_core::SC_MS));
    CHECK(a.ready == std::vector<std::uint64_t>{7});
    CHECK(b.ready == std::vector<std::uint64_t>{7, 8});
    const double service = 2e-3 + 65536 / 50e6;
    CHECK(a.ready_at[0] == Approx(service));
    CHECK(b.ready_at[0] == Approx(2 * service));
    CHECK(b.ready_at[1] == Approx(3 * service));
    // Each port reads its own command's data at its own addresses; the other port's tag 7 is not its.
    CHECK(a.socket.buffer(tlm::TLM_READ_COMMAND, 7, 0, 65536) == tlm::TLM_OK_RESPONSE);
    CHECK(a.socket.buffer(tlm::TLM_READ_COMMAND, 7, 0, 65536) == tlm::TLM_GENERIC_ERROR_RESPONSE);  // taken
    CHECK(b.socket.buffer(tlm::TLM_READ_COMMAND, 7, 0, 65536) == tlm::TLM_OK_RESPONSE);
    // An abort from one port drops only its own command.
    CHECK(a.send(disk::CommandKind::New, 8) == disk::CommandStatus::Accepted);
    CHECK(a.send(disk::CommandKind::Abort, 8) == disk::CommandStatus::Accepted);
    CHECK(disk.queued() == 0);
    CHECK(b.socket.buffer(tlm::TLM_READ_COMMAND, 8, 0, 65536) == tlm::TLM_OK_RESPONSE);
}
