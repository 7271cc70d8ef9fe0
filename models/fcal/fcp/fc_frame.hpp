#pragma once
// An FC-2 frame carrying an FCP information unit: the header fields the model uses and the parts of
// the payload that matter to it. The loop sees only the LoopFrame around it (source, destination,
// length, SOF); the HBAs read this content. Field names follow FC-FS and FCP.
#include <array>
#include <cstdint>
#include <memory>

#include "fcal/fcp/cdb.hpp"
#include "fcal/fcp/els_payload.hpp"
#include "fcal/fcp/information_unit_sizes.hpp"
#include "fcal/loop/loop_frame.hpp"

namespace fcal::fcp {

constexpr std::uint8_t kTypeFcp = 0x08;
// OX_ID/RX_ID value meaning "not assigned": an FCP_CMND carries it as RX_ID because the target has
// not yet chosen one.
constexpr std::uint16_t kUnassignedId = 0xFFFF;

// Abts and BaAcc are no FCP information units but the basic link service frames that abort an
// exchange (fcp/basic_link_service.hpp), and ElsRequest/ElsReply the extended link service frames of
// the logins (fcp/extended_link_service.hpp); they share the frame so that the HBAs tell them apart here.
enum class InformationUnit : std::uint8_t { Command, XferRdy, Data, Response, Abts, BaAcc, ElsRequest, ElsReply };
// "FCP_CMND", "FCP_XFER_RDY", "FCP_DATA", "FCP_RSP", "ABTS", "BA_ACC", "ELS", "ELS_REPLY"
const char* to_string(InformationUnit iu);

enum class DataDirection : std::uint8_t { Read, Write };
const char* to_string(DataDirection d);  // "read", "write"

enum class ScsiStatus : std::uint8_t { Good = 0x00, CheckCondition = 0x02, Busy = 0x08, TaskSetFull = 0x28 };

// FCP_CMND payload. FCP_CNTL's RDDATA/WRDATA become `direction`; FCP_DL is `data_length`. FCP_CDB is
// the 16-byte CDB field: a 10-byte CDB (fcp/cdb.hpp) in bytes 0-9, the rest zero. The LBA and the
// block count travel only there.
struct FcpCommand {
    DataDirection direction = DataDirection::Read;
    std::uint32_t data_length = 0;  // bytes
    std::array<std::uint8_t, 16> cdb{};
    // Not on the wire: lets statistics and traces tie the exchange to the host request.
    std::uint64_t request_id = 0;
};

// FCP_XFER_RDY payload: the target asks for `burst_length` bytes starting at `relative_offset`.
struct FcpXferRdy {
    std::uint32_t relative_offset = 0;
    std::uint32_t burst_length = 0;
};

struct FcpResponse {
    ScsiStatus status = ScsiStatus::Good;
};

// On a private loop the domain and area bytes of an N_Port ID are zero, so the ID is the AL_PA.
constexpr std::uint32_t private_loop_address(phy::AlPa al_pa) { return al_pa; }
// Throws std::invalid_argument naming `what` unless `address` is a private-loop address of a valid AL_PA.
phy::AlPa al_pa_of_address(std::uint32_t address, const char* what);

struct FcFrame final : loop::FrameContent {
    // Header. R_CTL follows from the information unit (see r_ctl()).
    std::uint32_t d_id = 0;  // 24 bits
    std::uint32_t s_id = 0;  // 24 bits
    std::uint8_t type = kTypeFcp;
    // The F_CTL bits the model uses; f_ctl() encodes them. Every frame here comes from the sequence
    // initiator, so Sequence Context is always 0.
    bool exchange_responder = false;  // Exchange Context: sent by the target
    bool first_sequence = false;
    bool last_sequence = false;
    bool end_sequence = false;          // last frame of its sequence (EOFt)
    bool sequence_initiative = false;   // hands the initiative to the other side
    std::uint8_t seq_id = 0;
    std::uint16_t seq_cnt = 0;  // restarts at 0 in every sequence, so 0 marks a sequence's first frame
    std::uint16_t ox_id = kUnassignedId;
    std::uint16_t rx_id = kUnassignedId;
    std::uint32_t relative_offset = 0;  // parameter field; used by FCP_DATA (Relative Offset present)

    // Payload.
    std::uint32_t payload_bytes = 0;
    InformationUnit iu = InformationUnit::Command;
    // Only the member matching `iu` is meaningful; FCP_DATA needs none (relative_offset, payload_bytes).
    FcpCommand command;
    FcpXferRdy xfer_rdy;
    FcpResponse response;
    ElsPayload els;  // ElsRequest, ElsReply

    // Routing 0000 (FC-4 device data) with FCP's information category: unsolicited command 6, data
    // descriptor 5, solicited data 1, command status 7; basic link services ABTS 0x81, BA_ACC 0x84;
    // extended link services (routing 0010): request 0x22, reply 0x23.
    std::uint8_t r_ctl() const;
    // The 24-bit F_CTL word, with the relative-offset-present bit for data and the fill-byte count
    // for payloads that are not a whole number of words.
    std::uint32_t f_ctl() const;
    bool first_of_sequence() const { return seq_cnt == 0; }
};

// F_CTL bit positions (FC-FS).
namespace f_ctl_bit {
constexpr std::uint32_t kExchangeContext = 1u << 23;
constexpr std::uint32_t kSequenceContext = 1u << 22;
constexpr std::uint32_t kFirstSequence = 1u << 21;
constexpr std::uint32_t kLastSequence = 1u << 20;
constexpr std::uint32_t kEndSequence = 1u << 19;
constexpr std::uint32_t kSequenceInitiative = 1u << 16;
constexpr std::uint32_t kRelativeOffsetPresent = 1u << 3;
constexpr std::uint32_t kFillBytesMask = 0x3;
}  // namespace f_ctl_bit

// The header of a link service frame: a sequence of one frame (End_Sequence) of TYPE `type` in the
// exchange `ox_id`/`rx_id` (fcp/basic_link_service.hpp, fcp/extended_link_service.hpp).
FcFrame link_service_frame(InformationUnit iu, std::uint8_t type, std::uint32_t s_id, std::uint32_t d_id, std::uint16_t ox_id,
                           std::uint16_t rx_id);

// Wraps `frame` for the loop: AL_PAs from S_ID/D_ID, its payload length, SOFi3 on the first frame of
// a sequence and SOFn3 on the others (class 3).
kernel::RefPtr<loop::LoopFrame> make_loop_frame(std::shared_ptr<const FcFrame> frame);
// The same for a frame built here: it and its loop frame come from the frame pool, so that frames
// cost no heap allocation in steady state (docs/kernel.md, "No allocation per frame").
kernel::RefPtr<loop::LoopFrame> make_loop_frame(FcFrame frame);

// The FC frame inside a loop frame; throws std::invalid_argument if it carries something else.
const FcFrame& fc_frame_of(const loop::LoopFrame& frame);

}  // namespace fcal::fcp
