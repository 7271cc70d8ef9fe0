// The ideal transport against a scripted disk: it speaks the disk's protocol (a write's command, its
// data into the buffer, then WriteDataIn; a read's data out as the disk announces it), carries the
// member LBA in the command, and holds commands a full disk answers with TASK SET FULL, in order,
// until the disk finishes one.
#include <catch2/catch.hpp>

#include <string>
#include <systemc>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "fcal/controller/ideal_transport.hpp"

using namespace fcal;

namespace {

// A disk with `slots` command slots that finishes its oldest command when told to.
struct ScriptedDisk : sc_core::sc_module {
    tlm_utils::simple_target_socket<ScriptedDisk> socket;
    unsigned slots;
    std::vector<disk::DiskCommand> held;
    std::vector<std::string> log;

    ScriptedDisk(sc_core::sc_module_name name, unsigned s) : sc_module(name), socket("socket"), slots(s)
    {
        socket.register_b_transport(this, &ScriptedDisk::b_transport);
    }

    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time&)
    {
        if (t.get_address() >= disk::kDiskBufferBase) {
            log.push_back(std::string(t.is_write() ? "buffer in " : "buffer out ") + std::to_string(t.get_data_length()));
            t.set_response_status(tlm::TLM_OK_RESPONSE);
            return;
        }
        disk::DiskCommand* cmd = nullptr;
        t.get_extension(cmd);
        REQUIRE(cmd != nullptr);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        if (cmd->kind == disk::CommandKind::WriteDataIn) {
            log.push_back("data in lba " + std::to_string(cmd->lba));
            return;
        }
        if (held.size() >= slots) {
            log.push_back("refused lba " + std::to_string(cmd->lba));
            cmd->status = disk::CommandStatus::TaskSetFull;
            return;
        }
        cmd->status = disk::CommandStatus::Accepted;
        held.push_back(*cmd);
        log.push_back(std::string(cmd->read ? "read" : "write") + " lba " + std::to_string(cmd->lba) + " bytes " +
                      std::to_string(cmd->bytes));
    }

    void announce_oldest(std::uint32_t bytes) { held.front().done->read_data(held.front().tag, bytes); }

    void finish_oldest()
    {
        const disk::DiskCommand c = held.front();
        held.erase(held.begin());
        c.done->disk_ready(c.tag);
    }
};

hba::IoRequest io(std::uint64_t id, bool read, std::uint64_t lba, std::uint32_t bytes)
{
    hba::IoRequest r;
    r.id = id;
    r.disk = 0;
    r.read = read;
    r.lba = lba;
    r.bytes = bytes;
    return r;
}

}  // namespace

TEST_CASE("ideal transport: disk protocol, member LBAs, refused commands wait in order")
{
    controller::IdealTransport transport("transport", 1);
    ScriptedDisk disk("disk", 1);
    transport.disk(0).bind(disk.socket);
    std::vector<std::uint64_t> completed;
    transport.set_completion_callback([&](hba::IoRequest* r) { completed.push_back(r->id); });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate: the sockets are bound

    hba::IoRequest a = io(1, false, 1234, 4096), b = io(2, true, 99, 512), c = io(3, false, 7, 1024);
    transport.submit(&a);
    transport.submit(&b);  // the disk is full: refused, waits
    transport.submit(&c);  // waits behind b without trying
    CHECK(disk.log ==
          std::vector<std::string>{"write lba 1234 bytes 4096", "buffer in 4096", "data in lba 1234", "refused lba 99"});
    disk.log.clear();

    disk.finish_oldest();  // a done: b goes in, c is tried and refused (no data moved for it)
    CHECK(disk.log == std::vector<std::string>{"read lba 99 bytes 512", "refused lba 7"});
    CHECK(completed == std::vector<std::uint64_t>{1});
    disk.log.clear();

    disk.announce_oldest(200);  // b's first 200 bytes are in the buffer: taken at once
    CHECK(disk.log == std::vector<std::string>{"buffer out 200"});
    disk.log.clear();
    disk.finish_oldest();  // b done: the rest of its data comes out; c goes in with its data
    CHECK(disk.log == std::vector<std::string>{"buffer out 312", "write lba 7 bytes 1024", "buffer in 1024", "data in lba 7"});
    disk.log.clear();
    disk.finish_oldest();
    CHECK(disk.log.empty());
    CHECK(completed == std::vector<std::uint64_t>{1, 2, 3});
    CHECK(transport.refused() == 2);
}
