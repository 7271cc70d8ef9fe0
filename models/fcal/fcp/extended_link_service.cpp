#include "fcal/fcp/extended_link_service.hpp"

#include <stdexcept>
#include <string>

namespace fcal::fcp {

const char* to_string(ElsCommand c)
{
    switch (c) {
    case ElsCommand::LsRjt: return "LS_RJT";
    case ElsCommand::LsAcc: return "LS_ACC";
    case ElsCommand::Plogi: return "PLOGI";
    case ElsCommand::Prli: return "PRLI";
    case ElsCommand::Adisc: return "ADISC";
    }
    throw std::logic_error("unknown ELS command");
}

namespace {

// FCP's TYPE code in a PRLI service parameter page.
constexpr std::uint8_t kPrliPageFcp = 0x08;
constexpr std::uint8_t kPrliPageLength = 0x10;
// PRLI flags: establish image pair; an LS_ACC adds response code 1 (request executed).
constexpr std::uint8_t kPrliEstablishImagePair = 0x20;
constexpr std::uint8_t kPrliRequestExecuted = 0x01;
// FCP service parameters: initiator function (bit 5) or target function (bit 4), read FCP_XFER_RDY disabled (bit 1).
constexpr std::uint32_t kFcpInitiatorFunction = 0x22;
constexpr std::uint32_t kFcpTargetFunction = 0x12;

void require_request(ElsCommand request, const char* what)
{
    if (request != ElsCommand::Plogi && request != ElsCommand::Prli && request != ElsCommand::Adisc)
        throw std::invalid_argument(std::string(what) + ": " + to_string(request) + " is not a PLOGI, PRLI or ADISC");
}

void put(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t value, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; ++i) b.at(at + i) = static_cast<std::uint8_t>(value >> (8 * (bytes - 1 - i)));
}

std::uint64_t get(const std::vector<std::uint8_t>& b, std::size_t at, unsigned bytes)
{
    std::uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) v = v << 8 | b.at(at + i);
    return v;
}

FcFrame els_frame(InformationUnit iu, std::uint32_t from, std::uint32_t to, std::uint16_t ox_id)
{
    // The responder leaves RX_ID unassigned: the reply ends the exchange.
    return link_service_frame(iu, kTypeExtendedLinkService, from, to, ox_id, kUnassignedId);
}

FcFrame reply_to(const FcFrame& request)
{
    if (request.iu != InformationUnit::ElsRequest)
        throw std::invalid_argument(std::string("ELS reply: ") + to_string(request.iu) + " is not an ELS request");
    FcFrame f = els_frame(InformationUnit::ElsReply, request.d_id, request.s_id, request.ox_id);
    f.exchange_responder = true;
    // The reply ends the exchange.
    f.last_sequence = true;
    return f;
}

}  // namespace

std::uint32_t els_payload_bytes(ElsCommand request, ElsCommand reply)
{
    require_request(request, "els_payload_bytes");
    if (reply == ElsCommand::LsRjt) return kLsRjtPayloadBytes;
    switch (request) {
    case ElsCommand::Plogi: return kPlogiPayloadBytes;
    case ElsCommand::Prli: return kPrliPayloadBytes;
    default: return kAdiscPayloadBytes;
    }
}

kernel::RefPtr<loop::LoopFrame> make_els_request(ElsCommand command, phy::AlPa from, phy::AlPa to, std::uint16_t ox_id,
                                                  std::uint64_t port_name, std::uint64_t node_name)
{
    require_request(command, "make_els_request");
    FcFrame f = els_frame(InformationUnit::ElsRequest, private_loop_address(from), private_loop_address(to), ox_id);
    f.first_sequence = true;
    f.sequence_initiative = true;  // the responder answers in the same exchange
    f.els.command = command;
    f.els.port_name = port_name;
    f.els.node_name = node_name;
    f.els.n_port_id = private_loop_address(from);
    f.els.hard_address = private_loop_address(from);
    f.payload_bytes = els_payload_bytes(command);
    return make_loop_frame(std::move(f));
}

kernel::RefPtr<loop::LoopFrame> make_ls_acc(const FcFrame& request, std::uint64_t port_name, std::uint64_t node_name)
{
    FcFrame f = reply_to(request);
    f.els.command = ElsCommand::LsAcc;
    f.els.port_name = port_name;
    f.els.node_name = node_name;
    f.els.n_port_id = request.d_id;
    f.els.hard_address = request.d_id;
    f.payload_bytes = els_payload_bytes(request.els.command);
    return make_loop_frame(std::move(f));
}

kernel::RefPtr<loop::LoopFrame> make_ls_rjt(const FcFrame& request, std::uint8_t reason)
{
    FcFrame f = reply_to(request);
    f.els.command = ElsCommand::LsRjt;
    f.els.reject_reason = reason;
    f.payload_bytes = els_payload_bytes(request.els.command, ElsCommand::LsRjt);
    return make_loop_frame(std::move(f));
}

std::vector<std::uint8_t> encode_els_payload(const ElsPayload& p, ElsCommand request)
{
    require_request(request, "encode_els_payload");
    std::vector<std::uint8_t> b(els_payload_bytes(request, p.command), 0);
    b[0] = static_cast<std::uint8_t>(p.command);
    if (p.command == ElsCommand::LsRjt) {
        b[5] = p.reject_reason;
        return b;
    }
    const bool reply = p.command == ElsCommand::LsAcc;
    switch (request) {
    case ElsCommand::Plogi:
        // Common service parameters: FC-PH version 0x20 (highest and lowest), receive data field size 2048.
        put(b, 4, 0x2020, 2);
        put(b, 10, kDefaultMaxDataPayloadBytes, 2);
        put(b, 20, p.port_name, 8);
        put(b, 28, p.node_name, 8);
        b[68] = 0x80;  // class 3 service parameters valid
        put(b, 74, kDefaultMaxDataPayloadBytes, 2);
        break;
    case ElsCommand::Prli:
        b[1] = kPrliPageLength;
        put(b, 2, kPrliPayloadBytes, 2);
        b[4] = kPrliPageFcp;
        b[6] = reply ? kPrliEstablishImagePair | kPrliRequestExecuted : kPrliEstablishImagePair;
        put(b, 16, reply ? kFcpTargetFunction : kFcpInitiatorFunction, 4);
        break;
    default:  // ADISC
        put(b, 5, p.hard_address, 3);
        put(b, 8, p.port_name, 8);
        put(b, 16, p.node_name, 8);
        put(b, 25, p.n_port_id, 3);
        break;
    }
    return b;
}

ElsPayload decode_els_payload(const std::vector<std::uint8_t>& b, ElsCommand request)
{
    require_request(request, "decode_els_payload");
    if (b.empty()) throw std::invalid_argument("ELS payload: empty");
    ElsPayload p;
    const std::uint8_t code = b[0];
    if (code != static_cast<std::uint8_t>(request) && code != static_cast<std::uint8_t>(ElsCommand::LsAcc) &&
        code != static_cast<std::uint8_t>(ElsCommand::LsRjt))
        throw std::invalid_argument("ELS payload: LS_Command code " + std::to_string(code) + " is neither " + to_string(request) +
                                    " nor its LS_ACC or LS_RJT");
    p.command = static_cast<ElsCommand>(code);
    const std::uint32_t expected = els_payload_bytes(request, p.command);
    if (b.size() != expected)
        throw std::invalid_argument(std::string("ELS payload: ") + to_string(p.command) + " of " + std::to_string(b.size()) +
                                    " bytes (expected " + std::to_string(expected) + ")");
    if (p.command == ElsCommand::LsRjt) {
        p.reject_reason = b[5];
        return p;
    }
    switch (request) {
    case ElsCommand::Plogi:
        p.port_name = get(b, 20, 8);
        p.node_name = get(b, 28, 8);
        break;
    case ElsCommand::Prli:
        if (b[1] != kPrliPageLength || get(b, 2, 2) != kPrliPayloadBytes || b[4] != kPrliPageFcp)
            throw std::invalid_argument("ELS payload: PRLI without one 16-byte FCP service parameter page");
        break;
    default:
        p.hard_address = static_cast<std::uint32_t>(get(b, 5, 3));
        p.port_name = get(b, 8, 8);
        p.node_name = get(b, 16, 8);
        p.n_port_id = static_cast<std::uint32_t>(get(b, 25, 3));
        break;
    }
    return p;
}

}  // namespace fcal::fcp
