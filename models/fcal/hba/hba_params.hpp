#pragma once
// Per-HBA constants (docs/hba.md, "The HBAs") in SI units, filled from the simulator's parameter
// table, which holds their defaults: none here (zero-initialised).
#include <cstdint>
#include <systemc>

#include "fcal/hba/command_first_queue.hpp"
#include "fcal/hba/dma_engine.hpp"
#include "fcal/hba/single_frame_transfers.hpp"

namespace fcal::hba {

struct HbaParams {
    double cmd_exec_s{};                  // main processor, per command
    double xfer_rdy_or_rsp_s{};           // initiator: XFER_RDY handling; target: building XFER_RDY or RSP
    double frame_proc_s{};                // per incoming frame, before its buffer is free again
    double single_frame_transfer_s{};     // one frame to/from memory (RSP to host, CMND to the disk controller)
    SftEngine sft_engine{};               // which engine carries it: the DMA engine, or one of its own
    DmaParams dma;
    std::uint32_t max_payload{};          // bytes of data payload per frame
    std::uint32_t burst_bytes{};          // target: bytes per XFER_RDY, 0 = whole transfer
    std::uint32_t block_bytes{};          // the disks' logical block: unit of the CDB's LBA and length
    CommandFirst cmdf;                    // initiator: the Command-First Algorithm's switches
    double task_set_full_retry_s{};       // initiator: wait before reissuing a command refused with TASK SET FULL
    double exchange_timeout_s{};          // initiator: an exchange not complete by then is aborted (ABTS)
    double abts_timeout_s{};              // initiator: wait for BA_ACC before giving the exchange up
    double data_timeout_s{};              // target: a write burst not in by then drops the exchange
};

// The times of HbaParams as the HBA schedules them, converted once when it is built.
struct HbaDelays {
    explicit HbaDelays(const HbaParams& p)
        : cmd_exec(p.cmd_exec_s, sc_core::SC_SEC),
          xfer_rdy_or_rsp(p.xfer_rdy_or_rsp_s, sc_core::SC_SEC),
          frame_proc(p.frame_proc_s, sc_core::SC_SEC),
          single_frame_transfer(p.single_frame_transfer_s, sc_core::SC_SEC),
          task_set_full_retry(p.task_set_full_retry_s, sc_core::SC_SEC),
          exchange_timeout(p.exchange_timeout_s, sc_core::SC_SEC),
          abts_timeout(p.abts_timeout_s, sc_core::SC_SEC),
          data_timeout(p.data_timeout_s, sc_core::SC_SEC)
    {
    }
    sc_core::sc_time cmd_exec, xfer_rdy_or_rsp, frame_proc, single_frame_transfer;
    sc_core::sc_time task_set_full_retry, exchange_timeout, abts_timeout, data_timeout;
};

}  // namespace fcal::hba
