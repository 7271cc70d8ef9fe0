// Extended link service frames (PLOGI, PRLI, ADISC, LS_ACC, LS_RJT): sizes from the FC-LS field
// layouts, header encodings, and the payload bytes round trip. Expected values are worked out here.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "fcal/fcp/extended_link_service.hpp"

using namespace fcal;
using namespace fcal::fcp;

namespace {

constexpr std::uint64_t kInitiatorName = 0x2000'0000'C912'3456ull;
constexpr std::uint64_t kTargetName = 0x2100'0004'CF65'4321ull;

}  // namespace

TEST_CASE("extended_link_service: payload sizes follow the FC-LS field layouts")
{
    // LS_Command word, common service parameters, port name, node name, classes 1-3, reserved, vendor version.
    CHECK(kPlogiPayloadBytes == 4 + 16 + 8 + 8 + 16 + 16 + 16 + 16 + 16);
    // Header (code, page length, payload length) and one 16-byte service parameter page.
    CHECK(kPrliPayloadBytes == 4 + 16);
    // LS_Command word, hard address word, port name, node name, N_Port ID word.
    CHECK(kAdiscPayloadBytes == 4 + 4 + 8 + 8 + 4);
    CHECK(kLsRjtPayloadBytes == 4 + 4);
    CHECK(els_payload_bytes(ElsCommand::Plogi) == 116);
    CHECK(els_payload_bytes(ElsCommand::Prli, ElsCommand::LsAcc) == 20);
    CHECK(els_payload_bytes(ElsCommand::Adisc, ElsCommand::LsRjt) == 8);
    CHECK_THROWS_AS(els_payload_bytes(ElsCommand::LsAcc), std::invalid_argument);
}

TEST_CASE("extended_link_service: a PLOGI and its LS_ACC are one-frame sequences of one exchange")
{
    auto request = make_els_request(ElsCommand::Plogi, 0x01, 0xE8, 0x0042, kInitiatorName, kInitiatorName + 1);
    const FcFrame& r = fc_frame_of(*request);
    CHECK(request->source == 0x01);
    CHECK(request->destination == 0xE8);
    CHECK(request->payload_bytes == 116);
    // SOF + 6 header words + 29 payload words + CRC + EOF.
    CHECK(request->words() == 1 + 6 + 29 + 1 + 1);
    CHECK(request->sof == loop::Sof::I3);
    CHECK(request->frame_class == loop::FrameClass::Command);  // travels with the commands
    CHECK(make_ls_acc(r, 1, 1)->frame_class == loop::FrameClass::Other);
    CHECK(r.r_ctl() == 0x22);
    CHECK(r.type == 0x01);
    CHECK(r.els.command == ElsCommand::Plogi);
    CHECK(static_cast<int>(r.els.command) == 0x03);
    // First sequence, end of sequence, sequence initiative to the responder; 116 bytes need no fill.
    CHECK(r.f_ctl() == ((1u << 21) | (1u << 19) | (1u << 16)));

    auto reply = make_ls_acc(r, kTargetName, kTargetName + 1);
    const FcFrame& a = fc_frame_of(*reply);
    CHECK(reply->source == 0xE8);
    CHECK(reply->destination == 0x01);
    CHECK(a.ox_id == 0x0042);
    CHECK(a.r_ctl() == 0x23);
    CHECK(a.type == 0x01);
    CHECK(static_cast<int>(a.els.command) == 0x02);
    CHECK(a.els.port_name == kTargetName);
    CHECK(reply->payload_bytes == 116);
    // Exchange context (responder), last sequence, end of sequence.
    CHECK(a.f_ctl() == ((1u << 23) | (1u << 20) | (1u << 19)));
}

TEST_CASE("extended_link_service: PRLI, ADISC and LS_RJT sizes on the wire")
{
    auto prli = make_els_request(ElsCommand::Prli, 0x01, 0xE4, 7, kInitiatorName, kInitiatorName);
    CHECK(prli->words() == 9 + 5);
    CHECK(static_cast<int>(fc_frame_of(*prli).els.command) == 0x20);
    auto adisc = make_els_request(ElsCommand::Adisc, 0x01, 0xE4, 8, kInitiatorName, kInitiatorName);
    CHECK(adisc->words() == 9 + 7);
    CHECK(fc_frame_of(*adisc).els.n_port_id == 0x01);
    auto acc = make_ls_acc(fc_frame_of(*adisc), kTargetName, kTargetName);
    CHECK(acc->payload_bytes == 28);
    CHECK(fc_frame_of(*acc).els.n_port_id == 0xE4);
    auto rjt = make_ls_rjt(fc_frame_of(*prli), kLsRjtUnableToPerform);
    CHECK(rjt->words() == 9 + 2);
    CHECK(fc_frame_of(*rjt).els.reject_reason == 0x09);
    CHECK_THROWS_AS(make_ls_acc(fc_frame_of(*acc), 1, 1), std::invalid_argument);
}

TEST_CASE("extended_link_service: payload bytes at their FC-LS offsets")
{
    ElsPayload plogi;
    plogi.command = ElsCommand::Plogi;
    plogi.port_name = kInitiatorName;
    plogi.node_name = 0x1122334455667788ull;
    const auto b = encode_els_payload(plogi, ElsCommand::Plogi);
    REQUIRE(b.size() == 116);
    CHECK(b[0] == 0x03);
    CHECK(b[20] == 0x20);  // port name, most significant byte first, at byte 20
    CHECK(b[27] == 0x56);
    CHECK(b[28] == 0x11);  // node name at byte 28
    CHECK(b[35] == 0x88);
    CHECK(b[68] == 0x80);  // class 3 valid

    ElsPayload prli;
    prli.command = ElsCommand::Prli;
    const auto p = encode_els_payload(prli, ElsCommand::Prli);
    // 20 10 00 14, then the page: TYPE 08, extension 00, flags 20 (establish image pair).
    CHECK(p == std::vector<std::uint8_t>{0x20, 0x10, 0x00, 0x14, 0x08, 0x00, 0x20, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x22});

    ElsPayload adisc;
    adisc.command = ElsCommand::LsAcc;
    adisc.n_port_id = 0xE8;
    adisc.hard_address = 0xE8;
    adisc.port_name = kTargetName;
    const auto d = encode_els_payload(adisc, ElsCommand::Adisc);
    REQUIRE(d.size() == 28);
    CHECK(d[0] == 0x02);
    CHECK(d[7] == 0xE8);
    CHECK(d[8] == 0x21);
    CHECK(d[27] == 0xE8);
}

TEST_CASE("extended_link_service: every payload decodes to what was encoded")
{
    for (ElsCommand request : {ElsCommand::Plogi, ElsCommand::Prli, ElsCommand::Adisc}) {
        for (ElsCommand code : {request, ElsCommand::LsAcc, ElsCommand::LsRjt}) {
            ElsPayload in;
            in.command = code;
            if (code == ElsCommand::LsRjt) {
                in.reject_reason = kLsRjtUnableToPerform;
            } else if (request != ElsCommand::Prli) {
                in.port_name = kTargetName;
                in.node_name = kTargetName ^ 0xFF;
                if (request == ElsCommand::Adisc) in.n_port_id = in.hard_address = 0xEF;
            }
            const ElsPayload out = decode_els_payload(encode_els_payload(in, request), request);
            INFO(to_string(request) << " " << to_string(code));
            CHECK(out.command == in.command);
            CHECK(out.port_name == in.port_name);
            CHECK(out.node_name == in.node_name);
            CHECK(out.n_port_id == in.n_port_id);
            CHECK(out.hard_address == in.hard_address);
            CHECK(out.reject_reason == in.reject_reason);
        }
    }
}

TEST_CASE("extended_link_service: malformed payloads are refused with the reason")
{
    ElsPayload plogi;
    auto b = encode_els_payload(plogi, ElsCommand::Plogi);
    b.pop_back();
    CHECK_THROWS_WITH(decode_els_payload(b, ElsCommand::Plogi), Catch::Contains("115 bytes (expected 116)"));
    b = encode_els_payload(plogi, ElsCommand::Plogi);
    b[0] = 0x52;
    CHECK_THROWS_WITH(decode_els_payload(b, ElsCommand::Plogi), Catch::Contains("LS_Command code 82"));
    ElsPayload prli;
    prli.command = ElsCommand::Prli;
    auto p = encode_els_payload(prli, ElsCommand::Prli);
    p[4] = 0x05;
    CHECK_THROWS_WITH(decode_els_payload(p, ElsCommand::Prli), Catch::Contains("FCP service parameter page"));
    CHECK_THROWS_AS(decode_els_payload({}, ElsCommand::Adisc), std::invalid_argument);
}
