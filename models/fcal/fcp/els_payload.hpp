#pragma once
// The parts of an extended link service payload the model uses (docs/fcp.md, "Logins"): the
// LS_Command code, and the names and address PLOGI, ADISC and their LS_ACC carry. The full byte
// layout (fcp/extended_link_service.hpp, encode_els_payload) is derived from these.
#include <cstdint>

namespace fcal::fcp {

// LS_Command codes (FC-LS): byte 0 of every ELS payload.
enum class ElsCommand : std::uint8_t { LsRjt = 0x01, LsAcc = 0x02, Plogi = 0x03, Prli = 0x20, Adisc = 0x52 };
const char* to_string(ElsCommand c);  // "LS_RJT", "LS_ACC", "PLOGI", "PRLI", "ADISC"

struct ElsPayload {
    ElsCommand command = ElsCommand::Plogi;
    // PLOGI, ADISC and their LS_ACC: the sender's N_Port and node names (worldwide names).
    std::uint64_t port_name = 0;
    std::uint64_t node_name = 0;
    // ADISC and its LS_ACC: the sender's N_Port ID (on a private loop its AL_PA) and hard address.
    std::uint32_t n_port_id = 0;
    std::uint32_t hard_address = 0;
    // LS_RJT: reason code (FC-LS: 0x09 unable to perform command request, 0x0B command not supported, ...).
    std::uint8_t reject_reason = 0;
};

}  // namespace fcal::fcp
