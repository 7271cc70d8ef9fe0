#pragma once
// Per-HBA constants (docs/hba.md, "The HBAs"), filled from the simulator's parameter table, which holds
// their defaults: none here (zero-initialised).
#include <cstdint>
#include <systemc>

#include "fcal/hba/command_first_queue.hpp"
#include "fcal/hba/dma_engine.hpp"
#include "fcal/hba/single_frame_transfers.hpp"

namespace fcal::hba {

struct HbaParams {
    sc_core::sc_time cmd_exec;            // main processor, per command
    sc_core::sc_time xfer_rdy_or_rsp;     // initiator: XFER_RDY handling; target: building XFER_RDY or RSP
    sc_core::sc_time frame_proc;          // per incoming frame, before its buffer is free again
    sc_core::sc_time single_frame_transfer;  // one frame to/from memory (RSP to host, CMND to the disk controller)
    SftEngine sft_engine{};               // which engine carries it: the DMA engine, or one of its own
    DmaParams dma;
    std::uint32_t max_payload{};          // bytes of data payload per frame
    std::uint32_t burst_bytes{};          // target: bytes per XFER_RDY, 0 = whole transfer
    std::uint32_t block_bytes{};          // the disks' logical block: unit of the CDB's LBA and length
    CommandFirst cmdf;                    // initiator: the Command-First Algorithm's switches
    sc_core::sc_time task_set_full_retry; // initiator: wait before reissuing a command refused with TASK SET FULL
    sc_core::sc_time exchange_timeout;    // initiator: an exchange not complete by then is aborted (ABTS)
    sc_core::sc_time abts_timeout;        // initiator: wait for BA_ACC before giving the exchange up
    sc_core::sc_time data_timeout;        // target: a write burst not in by then drops the exchange
};

}  // namespace fcal::hba
