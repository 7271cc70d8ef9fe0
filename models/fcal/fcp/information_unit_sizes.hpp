#pragma once
// Payload sizes of the FCP information units (docs/model.md, "FCP: frames and information units"). The
// fixed sizes are the minimal forms:
// FCP_CMND with a 16-byte CDB and no additional CDB, FCP_RSP without sense or response information.
#include <cstdint>

namespace fcal::fcp {

// FCP_LUN 8 + FCP_CNTL 4 + FCP_CDB 16 + FCP_DL 4.
constexpr std::uint32_t kCommandPayloadBytes = 32;
// FCP_DATA_RO 4 + FCP_BURST_LEN 4 + reserved 4.
constexpr std::uint32_t kXferRdyPayloadBytes = 12;
// Reserved 8 + retry delay 2 + flags 1 + SCSI status 1 + residual 4 + sense length 4 + response length 4.
constexpr std::uint32_t kResponsePayloadBytes = 24;

constexpr std::uint32_t kDefaultMaxDataPayloadBytes = 2048;
// FC-FS's largest data field; the rest of a frame's 2112 bytes cannot be exceeded by any login.
constexpr std::uint32_t kMaxDataPayloadLimit = 2112;

}  // namespace fcal::fcp
