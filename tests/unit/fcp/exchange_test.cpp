// FCP exchanges: the sequences of a read and a write, their frames, IDs and offsets.
// Frame counts and offsets are worked out here from sizes and payloads, not taken from the code.
#include <catch2/catch.hpp>

#include <array>
#include <set>
#include <vector>

#include "fcal/fcp/exchange.hpp"

using namespace fcal;
using namespace fcal::fcp;

namespace {

constexpr phy::AlPa kInitiator = 0x01;
constexpr phy::AlPa kTarget = 0xE8;
constexpr std::uint16_t kOxId = 0x0123;
constexpr std::uint16_t kRxId = 0x0456;

ExchangeSpec spec(DataDirection d, std::uint32_t size, std::uint32_t burst = 0)
{
    ExchangeSpec s;
    s.initiator = kInitiator;
    s.target = kTarget;
    s.direction = d;
    s.size_bytes = size;
    s.burst_bytes = burst;
    s.ox_id = kOxId;
    s.rx_id = kRxId;
    return s;
}

const FcFrame& fc(const Exchange::FramePtr& f) { return fc_frame_of(*f); }

// Every frame of one exchange driven from a single object, in protocol order.
std::vector<Exchange::FramePtr> run(const ExchangeSpec& s)
{
    Exchange e(s);
    std::vector<Exchange::FramePtr> out{e.make_command()};
    if (s.direction == DataDirection::Read) {
        for (auto& f : e.make_read_data_frames()) out.push_back(f);
    } else {
        while (e.bytes_remaining_to_request() > 0) {
            auto xfer = e.make_xfer_rdy();
            out.push_back(xfer);
            for (auto& f : e.make_write_data_frames_for(fc(xfer))) out.push_back(f);
        }
    }
    out.push_back(e.make_response());
    REQUIRE(e.complete());
    return out;
}

std::vector<InformationUnit> ius(const std::vector<Exchange::FramePtr>& frames)
{
    std::vector<InformationUnit> out;
    for (auto& f : frames) out.push_back(fc(f).iu);
    return out;
}

bool from_target(const FcFrame& f, DataDirection d)
{
    return f.iu == InformationUnit::XferRdy || f.iu == InformationUnit::Response ||
           (f.iu == InformationUnit::Data && d == DataDirection::Read);
}

// SEQ_ID/SEQ_CNT/SOF rules over a whole exchange: a sequence is a run of frames with one SEQ_ID,
// SEQ_CNT 0, 1, 2 ..., SOFi3 then SOFn3, End_Sequence only on its last frame; different sequences
// have different SEQ_IDs.
void check_sequences(const std::vector<Exchange::FramePtr>& frames)
{
    std::set<unsigned> seq_ids;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const FcFrame& f = fc(frames[i]);
        INFO("frame " << i << " " << to_string(f.iu));
        const bool starts = i == 0 || fc(frames[i - 1]).end_sequence;
        if (starts) {
            CHECK(seq_ids.insert(f.seq_id).second);
            CHECK(f.seq_cnt == 0);
            CHECK(frames[i]->sof == loop::Sof::I3);
        } else {
            CHECK(f.seq_id == fc(frames[i - 1]).seq_id);
            CHECK(f.seq_cnt == fc(frames[i - 1]).seq_cnt + 1);
            CHECK(frames[i]->sof == loop::Sof::N3);
        }
        const bool ends = i + 1 == frames.size() || fc(frames[i + 1]).iu != f.iu || f.iu != InformationUnit::Data;
        CHECK(f.end_sequence == ends);
    }
    CHECK(fc(frames.back()).last_sequence);
}

}  // namespace

TEST_CASE("exchange: a 64 KiB read is a command then 32 data frames then a response")
{
    const auto frames = run(spec(DataDirection::Read, 65536));
    REQUIRE(frames.size() == 1 + 65536 / 2048 + 1);
    CHECK(fc(frames.front()).iu == InformationUnit::Command);
    CHECK(fc(frames.front()).command.direction == DataDirection::Read);
    CHECK(fc(frames.front()).command.data_length == 65536);
    for (std::size_t k = 0; k < 32; ++k) {
        const FcFrame& d = fc(frames[1 + k]);
        INFO("data frame " << k);
        CHECK(d.iu == InformationUnit::Data);
        CHECK(d.relative_offset == k * 2048);
        CHECK(d.payload_bytes == 2048);
        CHECK(frames[1 + k]->payload_bytes == 2048);
        // The target keeps the initiative after read data: FCP_RSP is its to send next.
        CHECK_FALSE(d.sequence_initiative);
    }
    CHECK(fc(frames.front()).sequence_initiative);  // the command hands the initiative to the target
    CHECK(fc(frames.back()).iu == InformationUnit::Response);
    CHECK(fc(frames.back()).response.status == ScsiStatus::Good);
    check_sequences(frames);
}

TEST_CASE("exchange: a 5000-byte read ends with a short frame")
{
    const auto frames = run(spec(DataDirection::Read, 5000));
    REQUIRE(frames.size() == 5);
    // 5000 = 2 x 2048 + 904
    CHECK(fc(frames[1]).payload_bytes == 2048);
    CHECK(fc(frames[2]).payload_bytes == 2048);
    CHECK(fc(frames[3]).payload_bytes == 904);
    CHECK(fc(frames[1]).relative_offset == 0);
    CHECK(fc(frames[2]).relative_offset == 2048);
    CHECK(fc(frames[3]).relative_offset == 4096);
    CHECK(frames[3]->words() == 1 + 6 + 904 / 4 + 1 + 1);
    check_sequences(frames);
}

TEST_CASE("exchange: read data can be built one frame at a time")
{
    Exchange e(spec(DataDirection::Read, 5000));
    e.make_command();
    CHECK(e.bytes_remaining() == 5000);
    CHECK(fc(e.next_read_data_frame()).payload_bytes == 2048);
    CHECK(e.bytes_moved() == 2048);
    const auto rest = e.make_read_data_frames();
    REQUIRE(rest.size() == 2);
    CHECK(fc(rest[0]).seq_cnt == 1);
    CHECK(fc(rest[1]).seq_cnt == 2);
    CHECK(fc(rest[1]).end_sequence);
    CHECK(e.bytes_remaining() == 0);
    CHECK_THROWS_AS(e.next_read_data_frame(), std::logic_error);
    CHECK_FALSE(e.complete());
    e.make_response();
    CHECK(e.complete());
    CHECK(e.bytes_remaining_to_request() == 0);
}

TEST_CASE("exchange: a write with burst 0 asks once for everything")
{
    const auto frames = run(spec(DataDirection::Write, 65536, 0));
    using IU = InformationUnit;
    std::vector<IU> expected{IU::Command, IU::XferRdy};
    expected.insert(expected.end(), 32, IU::Data);
    expected.push_back(IU::Response);
    CHECK(ius(frames) == expected);
    CHECK(fc(frames[1]).xfer_rdy.relative_offset == 0);
    CHECK(fc(frames[1]).xfer_rdy.burst_length == 65536);
    check_sequences(frames);
}

TEST_CASE("exchange: a 64 KiB write in 16 KiB bursts takes 4 XFER_RDYs of 8 frames each")
{
    const auto frames = run(spec(DataDirection::Write, 65536, 16384));
    REQUIRE(frames.size() == 1 + 4 * (1 + 16384 / 2048) + 1);
    for (std::uint32_t b = 0; b < 4; ++b) {
        const std::size_t at = 1 + b * 9;
        const FcFrame& x = fc(frames[at]);
        INFO("burst " << b);
        REQUIRE(x.iu == InformationUnit::XferRdy);
        CHECK(x.xfer_rdy.relative_offset == b * 16384);
        CHECK(x.xfer_rdy.burst_length == 16384);
        CHECK(x.sequence_initiative);  // the initiator may now send the burst
        for (std::uint32_t k = 0; k < 8; ++k) {
            const FcFrame& d = fc(frames[at + 1 + k]);
            CHECK(d.iu == InformationUnit::Data);
            CHECK(d.relative_offset == b * 16384 + k * 2048);
            CHECK(d.payload_bytes == 2048);
            // The last frame of a burst hands the initiative back to the target.
            CHECK(d.sequence_initiative == (k == 7));
        }
    }
    CHECK(fc(frames.back()).iu == InformationUnit::Response);
    check_sequences(frames);
}

TEST_CASE("exchange: the last burst of a write is what remains")
{
    // 40000 bytes in 16384-byte bursts: 16384, 16384, 7232; the last burst is 3 frames of 2048 + 1088.
    Exchange e(spec(DataDirection::Write, 40000, 16384));
    e.make_command();
    std::vector<std::uint32_t> bursts;
    std::vector<Exchange::FramePtr> last;
    while (e.bytes_remaining_to_request() > 0) {
        const auto x = e.make_xfer_rdy();
        bursts.push_back(fc(x).xfer_rdy.burst_length);
        last = e.make_write_data_frames_for(fc(x));
    }
    CHECK(bursts == std::vector<std::uint32_t>{16384, 16384, 7232});
    REQUIRE(last.size() == 4);
    CHECK(fc(last[3]).payload_bytes == 7232 - 3 * 2048);
    CHECK(fc(last[3]).relative_offset == 2 * 16384 + 3 * 2048);
}

TEST_CASE("exchange: SEQ_IDs count along the exchange and SEQ_CNT restarts per sequence")
{
    const auto read = run(spec(DataDirection::Read, 4096));
    CHECK(fc(read[0]).seq_id == 0);
    CHECK(fc(read[1]).seq_id == 1);
    CHECK(fc(read[2]).seq_id == 1);
    CHECK(fc(read[3]).seq_id == 2);

    // CMND 0, XFER_RDY 1, data 2, XFER_RDY 3, data 4, RSP 5.
    const auto write = run(spec(DataDirection::Write, 8192, 4096));
    const std::vector<unsigned> expected{0, 1, 2, 2, 3, 4, 4, 5};
    std::vector<unsigned> seq_ids, seq_cnts;
    for (auto& f : write) {
        seq_ids.push_back(fc(f).seq_id);
        seq_cnts.push_back(fc(f).seq_cnt);
    }
    CHECK(seq_ids == expected);
    CHECK(seq_cnts == std::vector<unsigned>{0, 0, 0, 1, 0, 0, 1, 0});
    CHECK(fc(write[0]).first_sequence);
    for (std::size_t i = 1; i < write.size(); ++i) CHECK_FALSE(fc(write[i]).first_sequence);
}

TEST_CASE("exchange: OX_ID is on every frame and RX_ID on every frame after the command")
{
    for (auto d : {DataDirection::Read, DataDirection::Write}) {
        const auto frames = run(spec(d, 10000, 4096));
        for (std::size_t i = 0; i < frames.size(); ++i) {
            INFO(to_string(d) << " frame " << i);
            CHECK(fc(frames[i]).ox_id == kOxId);
            // The target has not chosen an RX_ID when the command leaves the initiator.
            CHECK(fc(frames[i]).rx_id == (i == 0 ? 0xFFFF : kRxId));
        }
    }
}

TEST_CASE("exchange: S_ID and D_ID point the right way")
{
    for (auto d : {DataDirection::Read, DataDirection::Write}) {
        for (auto& f : run(spec(d, 10000, 4096))) {
            const FcFrame& h = fc(f);
            INFO(to_string(d) << " " << to_string(h.iu));
            const bool back = from_target(h, d);
            CHECK(h.s_id == (back ? kTarget : kInitiator));
            CHECK(h.d_id == (back ? kInitiator : kTarget));
            CHECK(f->source == (back ? kTarget : kInitiator));
            CHECK(f->destination == (back ? kInitiator : kTarget));
            CHECK(h.exchange_responder == back);
            CHECK(h.type == kTypeFcp);
        }
    }
}

TEST_CASE("exchange: invalid specs throw naming the field")
{
    auto rejects = [](ExchangeSpec s, const std::string& field) {
        INFO(field);
        CHECK_THROWS_AS(Exchange(s), std::invalid_argument);
        CHECK_THROWS_WITH(Exchange(s), Catch::Contains(field));
    };
    ExchangeSpec s = spec(DataDirection::Read, 4096);
    ExchangeSpec bad = s;
    bad.size_bytes = 0;
    rejects(bad, "size_bytes");
    bad = s;
    bad.max_payload_bytes = 2116;
    rejects(bad, "max_payload_bytes");
    bad.max_payload_bytes = 0;
    rejects(bad, "max_payload_bytes");
    bad.max_payload_bytes = 2050;  // not a whole number of words
    rejects(bad, "max_payload_bytes");
    bad = s;
    bad.initiator = 0xF0;
    rejects(bad, "initiator");
    bad = s;
    bad.target = 0x03;
    rejects(bad, "target");
    bad = s;
    bad.target = bad.initiator;
    rejects(bad, "target");
    bad = s;
    bad.ox_id = 0xFFFF;
    rejects(bad, "ox_id");
    // SEQ_CNT is 16 bits: one sequence holds at most 65536 frames.
    bad = s;
    bad.max_payload_bytes = 4;
    bad.size_bytes = 4 * 65536 + 4;
    rejects(bad, "size_bytes");
    bad.direction = DataDirection::Write;
    bad.burst_bytes = 4 * 65536 + 4;
    rejects(bad, "burst_bytes");

    ExchangeSpec ok = s;
    ok.max_payload_bytes = 2112;
    CHECK_NOTHROW(Exchange(ok));
    ok.max_payload_bytes = 4;
    ok.size_bytes = 4 * 65536;
    CHECK_NOTHROW(Exchange(ok));
}

TEST_CASE("exchange: steps out of protocol order are refused")
{
    Exchange read(spec(DataDirection::Read, 4096));
    CHECK_THROWS_AS(read.next_read_data_frame(), std::logic_error);  // no command yet
    read.make_command();
    CHECK_THROWS_AS(read.make_command(), std::logic_error);
    CHECK_THROWS_AS(read.make_xfer_rdy(), std::logic_error);
    CHECK_THROWS_AS(read.make_response(), std::logic_error);  // GOOD before the data
    read.next_read_data_frame();
    CHECK_THROWS_AS(read.make_response(), std::logic_error);
    read.next_read_data_frame();
    read.make_response();
    CHECK_THROWS_AS(read.make_response(), std::logic_error);

    Exchange write(spec(DataDirection::Write, 8192, 4096));
    write.make_command();
    CHECK_THROWS_AS(write.next_read_data_frame(), std::logic_error);
    const auto x = write.make_xfer_rdy();
    CHECK(write.xfer_rdy_outstanding());
    CHECK_THROWS_AS(write.make_xfer_rdy(), std::logic_error);  // one XFER_RDY at a time
    write.make_write_data_frames_for(fc(x));
    CHECK_FALSE(write.xfer_rdy_outstanding());
    CHECK_THROWS_AS(write.make_write_data_frames_for(fc(x)), std::invalid_argument);  // already sent
    FcFrame not_xfer = fc(x);
    not_xfer.iu = InformationUnit::Data;
    CHECK_THROWS_WITH(write.make_write_data_frames_for(not_xfer), Catch::Contains("xfer_rdy"));
}

TEST_CASE("exchange: a status other than GOOD may end the exchange before its data")
{
    Exchange e(spec(DataDirection::Read, 65536));
    e.make_command();
    e.next_read_data_frame();
    const auto rsp = e.make_response(ScsiStatus::CheckCondition);
    CHECK(fc(rsp).response.status == ScsiStatus::CheckCondition);
    CHECK(e.complete());
    CHECK(e.status() == ScsiStatus::CheckCondition);
    CHECK_THROWS_AS(e.next_read_data_frame(), std::logic_error);
}

TEST_CASE("exchange: separate initiator and target ends agree on a write")
{
    ExchangeSpec at_initiator = spec(DataDirection::Write, 20000);
    at_initiator.rx_id = kUnassignedId;
    at_initiator.lba = 777;
    at_initiator.request_id = 42;
    Exchange initiator(at_initiator);
    const auto cmnd = initiator.make_command();

    Exchange target = Exchange::accept(fc(cmnd), kRxId, 2048, 8192);
    CHECK(target.spec().initiator == kInitiator);
    CHECK(target.spec().target == kTarget);
    CHECK(target.spec().size_bytes == 20000);
    CHECK(target.spec().lba == 777);
    CHECK(target.spec().request_id == 42);
    CHECK(target.spec().direction == DataDirection::Write);

    std::vector<Exchange::FramePtr> wire{cmnd};
    while (target.bytes_remaining_to_request() > 0) {
        const auto x = target.make_xfer_rdy();
        wire.push_back(x);
        initiator.receive(fc(x));
        for (auto& d : initiator.make_write_data_frames_for(fc(x))) {
            wire.push_back(d);
            target.receive(fc(d));
        }
    }
    CHECK(initiator.spec().rx_id == kRxId);  // learned from the first XFER_RDY
    CHECK(target.bytes_moved() == 20000);
    CHECK(initiator.bytes_moved() == 20000);
    const auto rsp = target.make_response();
    wire.push_back(rsp);
    initiator.receive(fc(rsp));
    CHECK(initiator.complete());
    CHECK(target.complete());

    // The same exchange driven from one object gives the same frames.
    ExchangeSpec whole = spec(DataDirection::Write, 20000, 8192);
    const auto reference = run(whole);
    REQUIRE(wire.size() == reference.size());
    for (std::size_t i = 0; i < wire.size(); ++i) {
        INFO("frame " << i);
        CHECK(fc(wire[i]).iu == fc(reference[i]).iu);
        CHECK(fc(wire[i]).seq_id == fc(reference[i]).seq_id);
        CHECK(fc(wire[i]).seq_cnt == fc(reference[i]).seq_cnt);
        CHECK(fc(wire[i]).relative_offset == fc(reference[i]).relative_offset);
        CHECK(fc(wire[i]).payload_bytes == fc(reference[i]).payload_bytes);
        CHECK(fc(wire[i]).f_ctl() == fc(reference[i]).f_ctl());
        CHECK(wire[i]->sof == reference[i]->sof);
    }
    check_sequences(wire);
}

TEST_CASE("exchange: the initiator end follows a read")
{
    ExchangeSpec s = spec(DataDirection::Read, 5000);
    s.rx_id = kUnassignedId;
    Exchange initiator(s);
    Exchange target = Exchange::accept(fc(initiator.make_command()), kRxId);
    for (auto& d : target.make_read_data_frames()) initiator.receive(fc(d));
    CHECK(initiator.bytes_moved() == 5000);
    CHECK_FALSE(initiator.complete());
    initiator.receive(fc(target.make_response()));
    CHECK(initiator.complete());
    CHECK(initiator.status() == ScsiStatus::Good);
    CHECK(initiator.spec().rx_id == kRxId);
}

TEST_CASE("exchange: frames of another exchange or out of order are refused")
{
    ExchangeSpec s = spec(DataDirection::Read, 8192);
    Exchange initiator(s);
    const auto cmnd = initiator.make_command();
    Exchange target = Exchange::accept(fc(cmnd), kRxId);
    const auto d0 = target.next_read_data_frame();
    const auto d1 = target.next_read_data_frame();

    FcFrame other = fc(d0);
    other.ox_id = kOxId + 1;
    CHECK_THROWS_WITH(initiator.receive(other), Catch::Contains("OX_ID"));
    other = fc(d0);
    other.rx_id = kRxId + 1;
    CHECK_THROWS_WITH(initiator.receive(other), Catch::Contains("RX_ID"));
    other = fc(d0);
    std::swap(other.s_id, other.d_id);
    CHECK_THROWS_WITH(initiator.receive(other), Catch::Contains("S_ID"));
    CHECK_THROWS_AS(initiator.receive(fc(d1)), std::invalid_argument);  // skips d0
    CHECK_THROWS_AS(initiator.receive(fc(cmnd)), std::invalid_argument);
    initiator.receive(fc(d0));
    CHECK_THROWS_AS(initiator.receive(fc(d0)), std::invalid_argument);  // twice
    initiator.receive(fc(d1));

    CHECK_THROWS_WITH(Exchange::accept(fc(d0), kRxId), Catch::Contains("command"));
    CHECK_THROWS_WITH(Exchange::accept(fc(cmnd), kUnassignedId), Catch::Contains("rx_id"));
    CHECK_THROWS_WITH(Exchange::accept(fc(cmnd), kRxId, 4000), Catch::Contains("max_payload_bytes"));
}

TEST_CASE("exchange: FCP_CMND carries the READ(10)/WRITE(10) CDB in FCP_CDB and the target decodes it")
{
    // 64 KiB = 128 blocks of 512 bytes (0x0080); LBA 0x01020304.
    ExchangeSpec s = spec(DataDirection::Write, 65536);
    s.lba = 0x01020304;
    Exchange initiator(s);
    const auto cmnd = initiator.make_command();
    const std::array<std::uint8_t, 16> expected{0x2A, 0x00, 0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x80, 0x00, 0, 0, 0, 0, 0, 0};
    CHECK(fc(cmnd).command.cdb == expected);
    CHECK(cmnd->payload_bytes == 32);  // the 10-byte CDB fits the 16-byte field: size unchanged

    // The target's LBA comes from the CDB bytes: change them and it follows.
    FcFrame edited = fc(cmnd);
    edited.command.cdb[5] = 0x99;
    const Exchange target = Exchange::accept(edited, kRxId);
    CHECK(target.spec().lba == 0x01020399);
    CHECK(target.spec().size_bytes == 65536);
    CHECK(target.spec().direction == DataDirection::Write);

    // A read: opcode 28h; 1000 bytes are 2 blocks (the last one partly).
    ExchangeSpec r = spec(DataDirection::Read, 1000);
    r.lba = 7;
    Exchange reader(r);
    const std::array<std::uint8_t, 16> read_cdb{0x28, 0, 0, 0, 0, 7, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};
    CHECK(fc(reader.make_command()).command.cdb == read_cdb);

    // With 4096-byte blocks 64 KiB is 16 blocks.
    s.block_bytes = 4096;
    Exchange big_blocks(s);
    CHECK(fc(big_blocks.make_command()).command.cdb[8] == 16);
}

TEST_CASE("exchange: a CDB that disagrees with FCP_CNTL or FCP_DL, or an unknown opcode, is refused")
{
    Exchange initiator(spec(DataDirection::Read, 65536));
    const FcFrame cmnd = fc(initiator.make_command());
    FcFrame wrong_op = cmnd;
    wrong_op.command.cdb[0] = 0x2A;  // WRITE(10) under a read FCP_CNTL
    CHECK_THROWS_AS(Exchange::accept(wrong_op, kRxId), std::invalid_argument);
    FcFrame unknown = cmnd;
    unknown.command.cdb[0] = 0x88;
    CHECK_THROWS_AS(Exchange::accept(unknown, kRxId), std::invalid_argument);
    FcFrame wrong_length = cmnd;
    wrong_length.command.cdb[8] = 0x81;  // 129 blocks for 65536 bytes
    CHECK_THROWS_AS(Exchange::accept(wrong_length, kRxId), std::invalid_argument);
    // The same bytes read with 4096-byte blocks would be 16 blocks, not 128.
    CHECK_THROWS_AS(Exchange::accept(cmnd, kRxId, kDefaultMaxDataPayloadBytes, 0, 4096), std::invalid_argument);
    CHECK_NOTHROW(Exchange::accept(cmnd, kRxId));
}

TEST_CASE("exchange: an LBA beyond 32 bits or more than 65535 blocks cannot be specified")
{
    ExchangeSpec s = spec(DataDirection::Read, 65535u * 512u);
    CHECK_NOTHROW(validate(s));
    s.size_bytes = 65535u * 512u + 1;  // 65536 blocks
    CHECK_THROWS_AS(validate(s), std::invalid_argument);
    s.size_bytes = 512;
    s.lba = 0xFFFFFFFFull;
    CHECK_NOTHROW(validate(s));
    s.lba = 0x100000000ull;
    CHECK_THROWS_AS(validate(s), std::invalid_argument);
    s.lba = 0;
    s.block_bytes = 0;
    CHECK_THROWS_AS(validate(s), std::invalid_argument);
}

TEST_CASE("exchange: WRITE SAME(10) sends one 512-byte block for a whole range")
{
    // 256 blocks (0x0100) from LBA 0x00010000; the data are one block, sent once.
    ExchangeSpec s = spec(DataDirection::Write, 512);
    s.lba = 0x00010000;
    s.write_same_blocks = 256;
    Exchange initiator(s);
    const auto cmnd = initiator.make_command();
    const std::array<std::uint8_t, 16> expected{0x41, 0, 0x00, 0x01, 0x00, 0x00, 0, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0};
    CHECK(fc(cmnd).command.cdb == expected);
    CHECK(fc(cmnd).command.data_length == 512);

    Exchange target = Exchange::accept(fc(cmnd), kRxId);
    CHECK(target.spec().write_same_blocks == 256);
    CHECK(target.spec().lba == 0x00010000);
    CHECK(target.spec().size_bytes == 512);
    // One FCP_XFER_RDY for 512 bytes, answered by exactly one data frame of 512 bytes.
    const auto xfer = target.make_xfer_rdy();
    CHECK(fc(xfer).xfer_rdy.burst_length == 512);
    const auto data = initiator.make_write_data_frames_for(fc(xfer));
    REQUIRE(data.size() == 1);
    CHECK(data[0]->payload_bytes == 512);
    target.receive(fc(data[0]));
    CHECK(target.bytes_remaining_to_request() == 0);
    CHECK_NOTHROW(target.make_response());
}

TEST_CASE("exchange: malformed WRITE SAME is refused")
{
    ExchangeSpec s = spec(DataDirection::Write, 1024);  // two blocks of data: not WRITE SAME
    s.write_same_blocks = 8;
    CHECK_THROWS_AS(validate(s), std::invalid_argument);
    s.size_bytes = 512;
    s.direction = DataDirection::Read;
    CHECK_THROWS_AS(validate(s), std::invalid_argument);
    s.direction = DataDirection::Write;
    s.write_same_blocks = 65536;  // beyond the 16-bit NUMBER OF LOGICAL BLOCKS
    CHECK_THROWS_AS(validate(s), std::invalid_argument);
    s.write_same_blocks = 65535;
    Exchange initiator(s);
    const FcFrame cmnd = fc(initiator.make_command());
    FcFrame zero = cmnd;
    zero.command.cdb[7] = zero.command.cdb[8] = 0;  // "to the end of the medium": not modelled
    CHECK_THROWS_AS(Exchange::accept(zero, kRxId), std::invalid_argument);
    FcFrame long_data = cmnd;
    long_data.command.data_length = 1024;
    CHECK_THROWS_AS(Exchange::accept(long_data, kRxId), std::invalid_argument);
    FcFrame as_read = cmnd;
    as_read.command.direction = DataDirection::Read;
    CHECK_THROWS_AS(Exchange::accept(as_read, kRxId), std::invalid_argument);
    CHECK(Exchange::accept(cmnd, kRxId).spec().write_same_blocks == 65535);
}

TEST_CASE("exchange: read data frames built but never sent are taken back as if never built")
{
    // 5 frames of 2048 bytes; three built, the last two taken back: the next one is the second.
    Exchange e(spec(DataDirection::Read, 5 * 2048));
    e.make_command();
    const std::uint8_t first_seq_id = fc(e.next_read_data_frame()).seq_id;
    e.next_read_data_frame();
    e.next_read_data_frame();
    e.take_back_read_data_frames(2);
    CHECK(e.bytes_moved() == 2048);
    const FcFrame& second = fc(e.next_read_data_frame());
    CHECK(second.seq_cnt == 1);
    CHECK(second.relative_offset == 2048);
    CHECK(second.seq_id == first_seq_id);
    CHECK_THROWS_AS(e.take_back_read_data_frames(3), std::logic_error);  // only two are built
    // All taken back: the response takes the SEQ_ID the read's data had taken, as in an exchange
    // that never built a data frame.
    e.take_back_read_data_frames(2);
    CHECK(e.bytes_moved() == 0);
    Exchange untouched(spec(DataDirection::Read, 5 * 2048));
    untouched.make_command();
    CHECK(fc(e.make_response(ScsiStatus::CheckCondition)).seq_id == fc(untouched.make_response(ScsiStatus::CheckCondition)).seq_id);
}
