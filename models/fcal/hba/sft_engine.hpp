#pragma once
// Which engine carries an HBA's single-frame transfers (hba/single_frame_transfers.hpp): the DMA
// engine, or one of its own (docs/hba.md, "Single-frame transfers"). SystemC-free.

namespace fcal::hba {

enum class SftEngine { Dma, Own };
inline const char* to_string(SftEngine e) { return e == SftEngine::Own ? "own" : "dma"; }

}  // namespace fcal::hba
