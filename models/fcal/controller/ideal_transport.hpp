#pragma once
// The ideal transport (transport=ideal; docs/model.md, "The ideal transport"): the controller talks
// straight to the disks' TLM sockets with no loop, no HBA and no driver, all in zero time, so that the
// disks and the RAID layer can be checked against queueing theory.
//
// It speaks the disk's protocol (disk/disk_command.hpp) as the target HBA does: a write's command
// takes a slot, its data goes into the disk's buffer at once and WriteDataIn follows; a read's data
// is taken from the buffer as soon as the disk announces it (read_data, disk_ready), so the buffer's
// full-ratio rule never stalls the medium. A command the disk answers with TASK SET FULL waits here,
// per disk in arrival order, until one of that disk's commands finishes (there is no initiator to
// retry). This is the only file that knows the disk's protocol on this side.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "fcal/disk/disk_command.hpp"
#include "fcal/hba/io_request.hpp"
#include "fcal/host/io_target.hpp"

namespace fcal::controller {

class IdealTransport : public sc_core::sc_module, public host::IoTarget, public disk::DiskReady {
public:
    using Socket = tlm_utils::simple_initiator_socket<IdealTransport>;

    IdealTransport(sc_core::sc_module_name name, unsigned disks);

    // Bind disk d's target socket here.
    Socket& disk(unsigned d) { return *sockets_.at(d); }

    void submit(hba::IoRequest* io) override;  // io->disk names the disk, io->lba its LBA
    void set_completion_callback(CompletionCallback callback) override { on_complete_ = std::move(callback); }
    void disk_ready(std::uint64_t tag) override;
    void read_data(std::uint64_t tag, std::uint32_t bytes) override;

    // Bytes moved to or from a disk's buffer (what data frames would carry on the loop).
    std::function<void(std::uint32_t)> on_data;

    std::uint64_t refused() const { return refused_; }  // commands a full disk turned away (they waited)

private:
    struct InDisk {
        hba::IoRequest* io = nullptr;
        std::uint32_t taken = 0;  // read bytes already taken from the buffer
    };

    bool try_send(hba::IoRequest* io);  // false: the disk answered TASK SET FULL
    bool command(unsigned disk, disk::DiskCommand& cmd);
    void buffer(unsigned disk, bool to_disk, std::uint64_t tag, std::uint32_t offset, std::uint32_t bytes);
    void take_read_data(InDisk& entry, std::uint64_t tag, std::uint32_t upto);
    void send_waiting(unsigned disk);

    std::vector<std::unique_ptr<Socket>> sockets_;
    CompletionCallback on_complete_;
    std::vector<std::deque<hba::IoRequest*>> waiting_;      // per disk
    std::map<std::uint64_t, InDisk> in_disk_;               // by tag
    static constexpr std::uint64_t kTags = 1u << 20;
    std::uint64_t next_tag_ = 0;
    std::uint64_t refused_ = 0;
};

}  // namespace fcal::controller
