// FC frames and FCP information units: sizes on the wire, header encodings, loop wrapping.
// Expected values are worked out from FC-FS/FCP field layouts here, not taken from the code.
#include <catch2/catch.hpp>

#include "fcal/fcp/exchange.hpp"
#include "fcal/fcp/fc_frame.hpp"
#include "fcal/fcp/information_unit_sizes.hpp"

using namespace fcal;
using namespace fcal::fcp;

namespace {

// SOF + 6 header words + payload rounded up to words + CRC + EOF.
std::uint64_t wire_words(std::uint64_t payload_bytes) { return 1 + 6 + (payload_bytes + 3) / 4 + 1 + 1; }

ExchangeSpec spec(DataDirection d, std::uint32_t size)
{
    ExchangeSpec s;
    s.initiator = 0x01;
    s.target = 0xE8;
    s.direction = d;
    s.size_bytes = size;
    s.ox_id = 0x1234;
    s.rx_id = 0x0042;
    return s;
}

struct NotAnFcFrame : loop::FrameContent {};

}  // namespace

TEST_CASE("fc_frame: information unit payload sizes follow the FCP field layouts")
{
    CHECK(kCommandPayloadBytes == 8 + 4 + 16 + 4);          // LUN, CNTL, CDB, DL
    CHECK(kXferRdyPayloadBytes == 4 + 4 + 4);               // DATA_RO, BURST_LEN, reserved
    CHECK(kResponsePayloadBytes == 8 + 2 + 1 + 1 + 4 + 4 + 4);  // reserved, retry, flags, status, resid, sns, rsp
    CHECK(kDefaultMaxDataPayloadBytes == 2048);
    CHECK(kMaxDataPayloadLimit == 2112);
}

TEST_CASE("fc_frame: CMND XFER_RDY RSP and a full data frame are 17 12 15 and 521 words")
{
    CHECK(wire_words(32) == 17);
    CHECK(wire_words(12) == 12);
    CHECK(wire_words(24) == 15);
    CHECK(wire_words(2048) == 521);

    Exchange write(spec(DataDirection::Write, 4096));
    const auto cmnd = write.make_command();
    const auto xfer = write.make_xfer_rdy();
    const auto data = write.make_write_data_frames_for(fc_frame_of(*xfer));
    const auto rsp = write.make_response();
    CHECK(cmnd->words() == 17);
    CHECK(xfer->words() == 12);
    REQUIRE(data.size() == 2);
    CHECK(data[0]->words() == 521);
    CHECK(rsp->words() == 15);

    // A 2112-byte frame, the largest FC allows: 7 + 528 + 2.
    ExchangeSpec big = spec(DataDirection::Read, 2112);
    big.max_payload_bytes = 2112;
    Exchange read(big);
    read.make_command();
    CHECK(read.next_read_data_frame()->words() == 537);
}

TEST_CASE("fc_frame: R_CTL carries the FCP information category")
{
    FcFrame f;
    f.iu = InformationUnit::Command;
    CHECK(f.r_ctl() == 0x06);  // unsolicited command
    f.iu = InformationUnit::XferRdy;
    CHECK(f.r_ctl() == 0x05);  // data descriptor
    f.iu = InformationUnit::Data;
    CHECK(f.r_ctl() == 0x01);  // solicited data
    f.iu = InformationUnit::Response;
    CHECK(f.r_ctl() == 0x07);  // command status
    CHECK(f.type == 0x08);
    CHECK(std::string(to_string(InformationUnit::XferRdy)) == "FCP_XFER_RDY");
}

TEST_CASE("fc_frame: F_CTL bits sit where FC-FS puts them")
{
    FcFrame cmnd;
    cmnd.iu = InformationUnit::Command;
    cmnd.payload_bytes = 32;
    cmnd.first_sequence = cmnd.end_sequence = cmnd.sequence_initiative = true;
    // First_Sequence bit 21, End_Sequence bit 19, Sequence Initiative bit 16.
    CHECK(cmnd.f_ctl() == ((1u << 21) | (1u << 19) | (1u << 16)));

    FcFrame rsp;
    rsp.iu = InformationUnit::Response;
    rsp.payload_bytes = 24;
    rsp.exchange_responder = rsp.last_sequence = rsp.end_sequence = true;
    CHECK(rsp.f_ctl() == ((1u << 23) | (1u << 20) | (1u << 19)));

    // Data frames say the relative offset is present (bit 3); bits 1-0 count the fill bytes.
    FcFrame data;
    data.iu = InformationUnit::Data;
    data.exchange_responder = true;
    data.payload_bytes = 904;
    CHECK(data.f_ctl() == ((1u << 23) | (1u << 3)));
    data.payload_bytes = 1001;  // 1001 = 250 words + 1 byte, so 3 fill bytes
    CHECK(data.f_ctl() == ((1u << 23) | (1u << 3) | 3u));
}

TEST_CASE("fc_frame: private loop addresses are the AL_PA with zero domain and area")
{
    CHECK(private_loop_address(0xE8) == 0x0000E8u);
    CHECK(al_pa_of_address(0x0000E8, "S_ID") == 0xE8);
    CHECK_THROWS_AS(al_pa_of_address(0x0100E8, "S_ID"), std::invalid_argument);
    CHECK_THROWS_WITH(al_pa_of_address(0x0100E8, "S_ID"), Catch::Contains("S_ID"));
    CHECK_THROWS_WITH(al_pa_of_address(0xF0, "D_ID"), Catch::Contains("D_ID"));
}

TEST_CASE("fc_frame: wrapping for the loop takes AL_PAs from the IDs and SOF from SEQ_CNT")
{
    auto fc = std::make_shared<FcFrame>();
    fc->s_id = 0xE8;
    fc->d_id = 0x01;
    fc->iu = InformationUnit::Data;
    fc->payload_bytes = 904;
    fc->seq_cnt = 0;
    auto first = make_loop_frame(fc);
    CHECK(first->source == 0xE8);
    CHECK(first->destination == 0x01);
    CHECK(first->payload_bytes == 904);
    CHECK(first->sof == loop::Sof::I3);
    CHECK(&fc_frame_of(*first) == fc.get());

    auto next = std::make_shared<FcFrame>(*fc);
    next->seq_cnt = 1;
    CHECK(make_loop_frame(next)->sof == loop::Sof::N3);

    auto bad = std::make_shared<FcFrame>(*fc);
    bad->d_id = 0xF7;
    CHECK_THROWS_WITH(make_loop_frame(bad), Catch::Contains("D_ID"));
}

TEST_CASE("fc_frame: a loop frame with other content is not an FC frame")
{
    loop::LoopFrame f;
    CHECK_THROWS_AS(fc_frame_of(f), std::invalid_argument);
    f.content = std::make_shared<NotAnFcFrame>();
    CHECK_THROWS_AS(fc_frame_of(f), std::invalid_argument);
}
