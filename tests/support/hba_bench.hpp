#pragma once
// Test-only: the controller's initiator HBA and `disks` target HBAs with their disks on one loop,
// built from the modules' own parameter structs (so a test sets any field directly, those the
// simulator's parameter table does not reach included). Host memory answers at once; I/Os are
// submitted to the HBA, or to a driver the test puts in front, and their completion times recorded.
// Optionally a DiskMonitor (disk_monitor.hpp) sits between each target HBA and its disk.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "disk_monitor.hpp"
#include "fcal/disk/disk.hpp"
#include "fcal/hba/command_first_queue.hpp"
#include "fcal/hba/initiator_hba.hpp"
#include "fcal/hba/target_hba.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::test {

// The parameter table's defaults for the HBAs (initiator.*, target.*).
inline hba::HbaParams initiator_params()
{
    hba::HbaParams p;
    p.cmd_exec_s = 43.9e-6;
    p.xfer_rdy_or_rsp_s = 11.8e-6;
    p.frame_proc_s = 400e-9;
    p.single_frame_transfer_s = 20.2e-6;
    p.dma.bandwidth_bytes_per_s = 1064e6;
    p.dma.sched_overhead_s = 15.5e-6;
    p.dma.policy = hba::DmaPolicy::Fcfs;
    p.max_payload = 2048;
    p.block_bytes = 512;
    p.task_set_full_retry_s = 500e-6;
    p.exchange_timeout_s = 30;
    p.abts_timeout_s = 20;
    return p;
}
inline hba::HbaParams target_params()
{
    hba::HbaParams p = initiator_params();
    p.cmd_exec_s = 47.4e-6;
    p.xfer_rdy_or_rsp_s = 10.3e-6;
    p.data_timeout_s = 60;
    return p;
}
// The fixed disk of the baseline: 2 ms access, 50 MB/s, 16 slots.
inline disk::DiskParams fixed_disk_params()
{
    disk::DiskParams p;
    p.model = disk::DiskModel::Fixed;
    p.queue_slots = 16;
    p.access_time_s = 2e-3;
    p.media_rate_bytes_per_s = 50e6;
    return p;
}

class HbaBench : public sc_core::sc_module, public hba::HbaCompletion {
public:
    HbaBench(sc_core::sc_module_name name, const hba::HbaParams& initiator, const hba::HbaParams& target,
             const std::vector<disk::DiskParams>& disks, bool monitors = false)
        : sc_module(name), memory_socket("memory")
    {
        memory_socket.register_b_transport(this, &HbaBench::memory_access);
        loop::LoopConfig lc;
        lc.nodes.push_back(node(kControllerAlPa, 0));
        for (unsigned d = 0; d < disks.size(); ++d) {
            disk_al_pas.push_back(phy::al_pa_of_loop_id(d + 1));  // loop_ID 0 is the controller's 0x01
            lc.nodes.push_back(node(disk_al_pas.back(), d + 1));
        }
        loop_ = std::make_unique<loop::Loop>("loop", lc);
        this->initiator = std::make_unique<hba::InitiatorHba>(
            "initiator", initiator, *loop_->find(kControllerAlPa), std::make_unique<hba::CommandFirstQueue>(initiator.cmdf));
        this->initiator->host_dma.bind(memory_socket);
        this->initiator->set_completion(this);
        for (unsigned d = 0; d < disks.size(); ++d) {
            const std::string n = std::to_string(d);
            targets.push_back(std::make_unique<hba::TargetHba>(("target" + n).c_str(), target, *loop_->find(disk_al_pas[d])));
            this->disks.push_back(std::make_unique<disk::Disk>(("disk" + n).c_str(), disks[d]));
            if (monitors) {
                this->monitors.push_back(std::make_unique<DiskMonitor>(("monitor" + n).c_str()));
                targets.back()->disk.bind(this->monitors.back()->from_initiator);
                this->monitors.back()->to_disk.bind(this->disks.back()->socket);
            } else {
                targets.back()->disk.bind(this->disks.back()->socket);
            }
        }
    }

    // A request for disk `d`, owned by the bench.
    hba::IoRequest* request(unsigned d, bool read, std::uint32_t bytes, std::uint64_t lba = 0)
    {
        auto io = std::make_unique<hba::IoRequest>();
        io->id = requests_.size() + 1;
        io->disk = d;
        io->target = disk_al_pas.at(d);
        io->read = read;
        io->bytes = bytes;
        io->lba = lba;
        requests_.push_back(std::move(io));
        return requests_.back().get();
    }
    // Submits a new request straight to the initiator HBA.
    hba::IoRequest* submit(unsigned d, bool read, std::uint32_t bytes, std::uint64_t lba = 0)
    {
        hba::IoRequest* io = request(d, read, bytes, lba);
        initiator->submit(io);
        return io;
    }

    void io_complete(hba::IoRequest* io) override
    {
        completed[io->id] = sc_core::sc_time_stamp();
        if (next) next->io_complete(io);
    }
    void io_aborted(hba::IoRequest* io, const std::string& reason) override
    {
        aborted[io->id] = reason;
        if (next) next->io_aborted(io, reason);
    }

    static constexpr phy::AlPa kControllerAlPa = 0x01;
    std::vector<phy::AlPa> disk_al_pas;
    std::unique_ptr<hba::InitiatorHba> initiator;
    std::vector<std::unique_ptr<hba::TargetHba>> targets;
    std::vector<std::unique_ptr<disk::Disk>> disks;
    std::vector<std::unique_ptr<DiskMonitor>> monitors;
    std::map<std::uint64_t, sc_core::sc_time> completed;  // by request id
    std::map<std::uint64_t, std::string> aborted;
    hba::HbaCompletion* next = nullptr;  // also told of every completion (a driver in front)
    loop::Loop& loop() { return *loop_; }
    std::uint64_t memory_bytes = 0;

private:
    // Port names by ring position, as the simulator gives them (the controller's lowest: the master).
    static loop::LoopNode node(phy::AlPa al_pa, unsigned position)
    {
        loop::LoopNode n;
        n.port.al_pa = al_pa;
        n.port.init.port_name = loop::default_port_name(position);
        n.port.incoming_buffers = 2;
        return n;
    }
    void memory_access(tlm::tlm_generic_payload& trans, sc_core::sc_time&)
    {
        memory_bytes += trans.get_data_length();
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
    }

    tlm_utils::simple_target_socket<HbaBench> memory_socket;
    std::unique_ptr<loop::Loop> loop_;
    std::vector<std::unique_ptr<hba::IoRequest>> requests_;
};

}  // namespace fcal::test
