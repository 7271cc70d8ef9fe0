// The disk protocol's backward path (disk/disk_command.hpp): a DiskNotifier at the disk's end sends
// its notices through a target socket; the DiskInitiatorSocket at the other end hands each to its
// owner's read_data or disk_ready, and refuses anything that is not a notice.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "fcal/disk/disk_initiator_socket.hpp"
#include "fcal/disk/disk_notifier.hpp"

using namespace fcal;

namespace {

// The disk's end: a target socket of the protocol that answers every forward call OK.
struct NoticeSource : sc_core::sc_module {
    tlm_utils::simple_target_socket<NoticeSource, 32, disk::DiskProtocol> socket;
    disk::DiskNotifier notifier;

    explicit NoticeSource(sc_core::sc_module_name name) : sc_module(name), socket("socket")
    {
        socket.register_b_transport(this, &NoticeSource::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) { trans.set_response_status(tlm::TLM_OK_RESPONSE); }
};

// The initiator's end: records the notices in the order they came; on the first Ready it may send
// a notice of its own from inside the call, as a disk starting its next command would.
struct NoticeSink : sc_core::sc_module, disk::DiskReady {
    disk::DiskInitiatorSocket out;
    std::vector<std::string> log;
    NoticeSource* nested = nullptr;

    explicit NoticeSink(sc_core::sc_module_name name) : sc_module(name), out("out", *this) {}
    void disk_ready(std::uint64_t tag) override
    {
        log.push_back("ready " + std::to_string(tag));
        if (nested) {
            NoticeSource* source = nested;
            nested = nullptr;
            source->notifier.read_data(source->socket, tag + 1, 512);
        }
    }
    void read_data(std::uint64_t tag, std::uint32_t bytes) override
    {
        log.push_back("data " + std::to_string(tag) + " " + std::to_string(bytes));
    }
};

}  // namespace

TEST_CASE("Disk notices reach the initiator's owner as read_data and disk_ready, in order", "[disk][backward_path]")
{
    NoticeSource source("source");
    NoticeSink sink("sink");
    sink.out.bind(source.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // end of elaboration: the sockets are bound

    source.notifier.read_data(source.socket, 7, 4096);
    source.notifier.ready(source.socket, 7);
    sink.nested = &source;  // the next Ready sends a notice on the same payload from inside its call
    source.notifier.ready(source.socket, 9);
    source.notifier.ready(source.socket, 3);
    CHECK(sink.log == std::vector<std::string>{"data 7 4096", "ready 7", "ready 9", "data 10 512", "ready 3"});
}

TEST_CASE("The initiator's end refuses a backward call that is not a disk notice", "[disk][backward_path]")
{
    NoticeSource source("source");
    NoticeSink sink("sink");
    sink.out.bind(source.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);

    tlm::tlm_generic_payload bare;  // no DiskNotice
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    CHECK_THROWS_AS(source.socket->nb_transport_bw(bare, phase, delay), sc_core::sc_report);

    disk::DiskNotice notice;
    bare.set_extension(&notice);
    phase = tlm::BEGIN_REQ;  // a notice, but not in the protocol's phase
    CHECK_THROWS_AS(source.socket->nb_transport_bw(bare, phase, delay), sc_core::sc_report);
    phase = tlm::BEGIN_RESP;
    delay = sc_core::sc_time(1, sc_core::SC_NS);  // notices take effect when sent, never later
    CHECK_THROWS_AS(source.socket->nb_transport_bw(bare, phase, delay), sc_core::sc_report);
    bare.clear_extension(&notice);
    CHECK(sink.log.empty());
}
