#pragma once
// One piece of work for an HBA's DMA engine (hba/dma_engine.hpp): bytes to move between the HBA and
// memory, as part of a transfer (one exchange's data in one direction, one descriptor fetch, one
// single-frame delivery).
#include <cstdint>
#include <systemc>
#include <tlm>

#include "fcal/hba/work.hpp"

namespace fcal::hba {

struct DmaJob {
    std::uint64_t transfer = 0;
    bool first_of_transfer = false;     // pays the scheduler overhead
    sc_core::sc_time fixed;             // e.g. a single frame transfer
    std::uint32_t bytes = 0;
    tlm::tlm_command command = tlm::TLM_WRITE_COMMAND;  // WRITE: into memory; READ: from memory
    std::uint64_t address = 0;
    Work done;  // handed to the owner when the job ends; its serial names the job's exchange
    // Its end changes nothing unless the owner awaits its exchange (DmaEngine::await_exchange): the
    // engine then needs no activation at its end (docs/hba.md, "DMA").
    bool quiet = false;
    // Run ahead (docs/hba.md, "DMA", "Fetching ahead"), FCFS only. starts_ahead: its transport does
    // not depend on when it runs (a disk buffer that does not stream), so that the engine may start
    // it as soon as the job before it, of the same exchange, is started, even if that one ends
    // later. ends_ahead as well: its `done` is handed over at once, with the time the job ends
    // (WorkOwner::work_ahead).
    bool starts_ahead = false;
    bool ends_ahead = false;
};

}  // namespace fcal::hba
