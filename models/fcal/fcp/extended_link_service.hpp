#pragma once
// Extended link service frames of the logins (docs/fcp.md, "Logins"): PLOGI, PRLI and ADISC from the
// initiator, LS_ACC or LS_RJT from the target. Each is a one-frame sequence of its own exchange; FC-FS
// gives them R_CTL 0x22 (request) and 0x23 (reply) and TYPE 0x01. Payload sizes (FC-LS; the drive
// manuals print the same tables): PLOGI and its LS_ACC 116 bytes (LS_Command word, 16 bytes of common
// service parameters, port and node name, four 16-byte class blocks, 16 bytes of vendor version), PRLI
// and its LS_ACC 20 bytes (a 4-byte header and one 16-byte FCP service parameter page), ADISC and its
// LS_ACC 28 bytes (hard address, port name, node name, N_Port ID), LS_RJT 8 bytes.
#include <cstdint>
#include <memory>
#include <vector>

#include "fcal/fcp/fc_frame.hpp"

namespace fcal::fcp {

constexpr std::uint8_t kTypeExtendedLinkService = 0x01;
constexpr std::uint32_t kPlogiPayloadBytes = 116;
constexpr std::uint32_t kPrliPayloadBytes = 20;
constexpr std::uint32_t kAdiscPayloadBytes = 28;
constexpr std::uint32_t kLsRjtPayloadBytes = 8;
// LS_RJT reason code "unable to perform command request".
constexpr std::uint8_t kLsRjtUnableToPerform = 0x09;

// The payload size of `request` (PLOGI, PRLI or ADISC), or of its LS_ACC (the same) or LS_RJT (8).
std::uint32_t els_payload_bytes(ElsCommand request, ElsCommand reply = ElsCommand::LsAcc);

// The initiator's request to `to` on its exchange `ox_id`; `port_name`/`node_name` are the sender's.
kernel::RefPtr<loop::LoopFrame> make_els_request(ElsCommand command, phy::AlPa from, phy::AlPa to, std::uint16_t ox_id,
                                                  std::uint64_t port_name, std::uint64_t node_name);
// The responder's LS_ACC to `request` (addresses swapped, the same OX_ID), naming its own port.
kernel::RefPtr<loop::LoopFrame> make_ls_acc(const FcFrame& request, std::uint64_t port_name, std::uint64_t node_name);
kernel::RefPtr<loop::LoopFrame> make_ls_rjt(const FcFrame& request, std::uint8_t reason);

// The payload's bytes as on the wire (big-endian fields; what the model does not use is zero or a
// fixed typical value); a reply's layout depends on the `request` it answers. decode reads them back
// and throws std::invalid_argument naming what is wrong (length, LS_Command code, PRLI page).
std::vector<std::uint8_t> encode_els_payload(const ElsPayload& payload, ElsCommand request);
ElsPayload decode_els_payload(const std::vector<std::uint8_t>& bytes, ElsCommand request);

}  // namespace fcal::fcp
