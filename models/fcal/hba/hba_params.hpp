#pragma once
// Per-HBA constants (docs/hba.md, "The HBAs") in SI units, filled from the simulator's parameter
// table, which holds their defaults: none here (zero-initialised).
#include <cstdint>

#include "fcal/hba/command_first_queue.hpp"
#include "fcal/hba/dma_params.hpp"
#include "fcal/hba/sft_engine.hpp"

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
    std::uint32_t els_retries{};          // initiator: an ELS without a reply is sent again this many times
    double link_down_s{};                 // initiator: from the loss of signal to the link reported down
    double data_timeout_s{};              // target: a write burst not in by then drops the exchange
};

}  // namespace fcal::hba
