#pragma once
// What an HBA's DMA engine is built with (hba/dma_engine.hpp): its bandwidth, the scheduler's
// overhead per transfer and the order it serves transfers in. SystemC-free.

namespace fcal::hba {

enum class DmaPolicy { Fcfs, RoundRobin };
inline const char* to_string(DmaPolicy p) { return p == DmaPolicy::RoundRobin ? "round_robin" : "fcfs"; }

// No defaults of their own: the simulator's parameter table holds them (initiator.dma_*, target.dma_*).
struct DmaParams {
    double bandwidth_bytes_per_s{};
    double sched_overhead_s{};
    DmaPolicy policy{};
};

}  // namespace fcal::hba
