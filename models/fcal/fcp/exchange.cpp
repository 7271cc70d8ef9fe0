#include "fcal/fcp/exchange.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fcal::fcp {

namespace {

// SEQ_CNT is 16 bits and restarts in every sequence, so no sequence may be longer.
constexpr std::uint64_t kMaxFramesPerSequence = 65536;

std::uint64_t frames_for(std::uint64_t bytes, std::uint32_t max_payload) { return (bytes + max_payload - 1) / max_payload; }

[[noreturn]] void bad(const std::string& field, const std::string& why) { throw std::invalid_argument(field + ": " + why); }

}  // namespace

void validate(const ExchangeSpec& spec)
{
    if (!phy::is_valid_al_pa(spec.initiator)) phy::require_valid_al_pa(spec.initiator, "ExchangeSpec.initiator");
    if (!phy::is_valid_al_pa(spec.target)) phy::require_valid_al_pa(spec.target, "ExchangeSpec.target");
    if (spec.target == spec.initiator) bad("ExchangeSpec.target", "must differ from the initiator");
    if (spec.size_bytes == 0) bad("ExchangeSpec.size_bytes", "must be greater than 0");
    if (spec.max_payload_bytes == 0 || spec.max_payload_bytes > kMaxDataPayloadLimit || spec.max_payload_bytes % 4 != 0)
        bad("ExchangeSpec.max_payload_bytes", std::to_string(spec.max_payload_bytes) + " is not a multiple of 4 from 4 to " +
                                                  std::to_string(kMaxDataPayloadLimit));
    if (spec.ox_id == kUnassignedId) bad("ExchangeSpec.ox_id", "0xFFFF means unassigned");
    if (spec.block_bytes == 0) bad("ExchangeSpec.block_bytes", "must be greater than 0");
    if (spec.write_same_blocks > 0 && (spec.direction != DataDirection::Write || spec.size_bytes != spec.block_bytes))
        bad("ExchangeSpec.write_same_blocks", "WRITE SAME is a write of exactly one block (size_bytes = block_bytes)");
    try {
        command_cdb(spec);
    } catch (const std::invalid_argument& e) {
        bad("ExchangeSpec", e.what());
    }
    const std::uint32_t sequence_bytes = spec.direction == DataDirection::Read || spec.burst_bytes == 0
                                             ? spec.size_bytes
                                             : std::min(spec.burst_bytes, spec.size_bytes);
    if (frames_for(sequence_bytes, spec.max_payload_bytes) > kMaxFramesPerSequence)
        bad(spec.direction == DataDirection::Read ? "ExchangeSpec.size_bytes" : "ExchangeSpec.burst_bytes",
            "one data sequence of " + std::to_string(sequence_bytes) + " bytes would need more than 65536 frames");
}

Cdb command_cdb(const ExchangeSpec& spec)
{
    if (spec.write_same_blocks > 0) return Cdb(ScsiOpcode::WriteSame10, spec.lba, spec.write_same_blocks);
    const std::uint64_t blocks = frames_for(spec.size_bytes, spec.block_bytes);
    return Cdb(spec.direction == DataDirection::Read ? ScsiOpcode::Read10 : ScsiOpcode::Write10, spec.lba, blocks);
}

Exchange::Exchange(const ExchangeSpec& spec) : spec_(spec) { validate(spec_); }

Exchange Exchange::accept(const FcFrame& command, std::uint16_t rx_id, std::uint32_t max_payload_bytes, std::uint32_t burst_bytes,
                          std::uint32_t block_bytes)
{
    if (command.iu != InformationUnit::Command) bad("command", std::string("is ") + to_string(command.iu) + ", not FCP_CMND");
    if (rx_id == kUnassignedId) bad("rx_id", "0xFFFF means unassigned");
    ExchangeSpec spec;
    spec.initiator = al_pa_of_address(command.s_id, "command S_ID");
    spec.target = al_pa_of_address(command.d_id, "command D_ID");
    spec.direction = command.command.direction;
    spec.size_bytes = command.command.data_length;
    spec.max_payload_bytes = max_payload_bytes;
    spec.burst_bytes = burst_bytes;
    spec.ox_id = command.ox_id;
    spec.rx_id = rx_id;
    if (block_bytes == 0) bad("block_bytes", "must be greater than 0");
    Cdb::Bytes bytes{};
    std::copy_n(command.command.cdb.begin(), bytes.size(), bytes.begin());
    const Cdb cdb = Cdb::decode(bytes);
    const bool same = cdb.opcode() == ScsiOpcode::WriteSame10;
    const ScsiOpcode expected = spec.direction == DataDirection::Read ? ScsiOpcode::Read10 : ScsiOpcode::Write10;
    if (cdb.opcode() != expected && !(same && spec.direction == DataDirection::Write))
        bad("command", std::string("CDB is ") + to_string(cdb.opcode()) + " but FCP_CNTL says " + to_string(spec.direction));
    if (same) {
        // NUMBER OF LOGICAL BLOCKS 0 means "to the end of the medium" in SBC; the model does not issue it.
        if (cdb.blocks() == 0) bad("command", "WRITE SAME(10) with NUMBER OF LOGICAL BLOCKS 0 is not modelled");
        if (spec.size_bytes != block_bytes)
            bad("command", "WRITE SAME(10) with FCP_DL " + std::to_string(spec.size_bytes) + " bytes, not one " +
                               std::to_string(block_bytes) + "-byte block");
        spec.write_same_blocks = cdb.blocks();
    } else if (frames_for(spec.size_bytes, block_bytes) != cdb.blocks())
        bad("command", "FCP_DL " + std::to_string(spec.size_bytes) + " bytes does not match the CDB's " +
                           std::to_string(cdb.blocks()) + " blocks of " + std::to_string(block_bytes) + " bytes");
    spec.lba = cdb.lba();
    spec.block_bytes = block_bytes;
    spec.request_id = command.command.request_id;
    Exchange e(spec);
    e.command_sent_ = true;
    e.next_seq_id_ = static_cast<std::uint8_t>(command.seq_id + 1);
    return e;
}

// The command went out, the response did not, and (for the target's frames) RX_ID is known.
void Exchange::fail(const char* operation, const char* why) const
{
    throw std::logic_error(std::string("exchange OX_ID ") + std::to_string(spec_.ox_id) + ": " + operation + ": " + why);
}

bool Exchange::from_target(InformationUnit iu) const
{
    return iu == InformationUnit::XferRdy || iu == InformationUnit::Response ||
           (iu == InformationUnit::Data && spec_.direction == DataDirection::Read);
}

FcFrame Exchange::header(InformationUnit iu, std::uint8_t seq_id, std::uint16_t seq_cnt) const
{
    const bool target_sends = from_target(iu);
    FcFrame f;
    f.s_id = private_loop_address(target_sends ? spec_.target : spec_.initiator);
    f.d_id = private_loop_address(target_sends ? spec_.initiator : spec_.target);
    f.exchange_responder = target_sends;
    f.first_sequence = iu == InformationUnit::Command;
    f.seq_id = seq_id;
    f.seq_cnt = seq_cnt;
    f.ox_id = spec_.ox_id;
    // The target has not chosen its RX_ID when the command goes out.
    f.rx_id = iu == InformationUnit::Command ? kUnassignedId : spec_.rx_id;
    f.iu = iu;
    return f;
}

FcFrame Exchange::data_frame(std::uint32_t offset, std::uint32_t end, std::uint8_t seq_id, std::uint16_t seq_cnt) const
{
    FcFrame f = header(InformationUnit::Data, seq_id, seq_cnt);
    f.relative_offset = offset;
    f.payload_bytes = std::min(spec_.max_payload_bytes, end - offset);
    f.end_sequence = offset + f.payload_bytes == end;
    // Write data hands the initiative back so the target can ask for more or respond; read data
    // keeps it, because the target sends FCP_RSP next.
    f.sequence_initiative = f.end_sequence && spec_.direction == DataDirection::Write;
    return f;
}

void Exchange::check_ids(const FcFrame& frame, const char* op) const
{
    if (frame.ox_id != spec_.ox_id) bad(op, "OX_ID " + std::to_string(frame.ox_id) + " is not this exchange's " + std::to_string(spec_.ox_id));
    if (frame.rx_id == kUnassignedId) bad(op, std::string(to_string(frame.iu)) + " without an RX_ID");
    if (spec_.rx_id != kUnassignedId && frame.rx_id != spec_.rx_id)
        bad(op, "RX_ID " + std::to_string(frame.rx_id) + " is not this exchange's " + std::to_string(spec_.rx_id));
}

Exchange::FramePtr Exchange::make_command()
{
    require(!command_sent_, "make_command", "FCP_CMND already built");
    FcFrame f = header(InformationUnit::Command, next_seq_id_++, 0);
    f.end_sequence = true;
    f.sequence_initiative = true;
    f.payload_bytes = kCommandPayloadBytes;
    const Cdb::Bytes cdb = command_cdb(spec_).encode();
    f.command.direction = spec_.direction;
    f.command.data_length = spec_.size_bytes;
    std::copy(cdb.begin(), cdb.end(), f.command.cdb.begin());
    f.command.request_id = spec_.request_id;
    command_sent_ = true;
    return make_loop_frame(std::move(f));
}

std::vector<Exchange::FramePtr> Exchange::make_write_data_frames_for(const FcFrame& xfer_rdy)
{
    std::vector<FramePtr> frames;
    make_write_data_frames_for(xfer_rdy, frames);
    return frames;
}

void Exchange::make_write_data_frames_for(const FcFrame& xfer_rdy, std::vector<FramePtr>& frames)
{
    require(spec_.direction == DataDirection::Write, "make_write_data_frames_for", "not a write");
    require_in_progress("make_write_data_frames_for", false);
    if (xfer_rdy.iu != InformationUnit::XferRdy)
        bad("xfer_rdy", std::string("is ") + to_string(xfer_rdy.iu) + ", not FCP_XFER_RDY");
    check_ids(xfer_rdy, "xfer_rdy");
    const std::uint32_t offset = xfer_rdy.xfer_rdy.relative_offset;
    const std::uint64_t end = std::uint64_t{offset} + xfer_rdy.xfer_rdy.burst_length;
    if (offset != bytes_moved_)
        bad("xfer_rdy", "relative offset " + std::to_string(offset) + " but " + std::to_string(bytes_moved_) + " bytes already sent");
    if (xfer_rdy.xfer_rdy.burst_length == 0 || end > spec_.size_bytes)
        bad("xfer_rdy", "burst of " + std::to_string(xfer_rdy.xfer_rdy.burst_length) + " bytes at offset " + std::to_string(offset) +
                            " does not fit a " + std::to_string(spec_.size_bytes) + "-byte transfer");
    if (frames_for(xfer_rdy.xfer_rdy.burst_length, spec_.max_payload_bytes) > kMaxFramesPerSequence)
        bad("xfer_rdy", "burst would need more than 65536 frames in one sequence");

    spec_.rx_id = xfer_rdy.rx_id;  // the initiator learns the target's RX_ID from its replies
    bytes_requested_ = std::max(bytes_requested_, static_cast<std::uint32_t>(end));
    const auto seq_id = static_cast<std::uint8_t>(xfer_rdy.seq_id + 1);
    next_seq_id_ = static_cast<std::uint8_t>(seq_id + 1);
    std::uint16_t seq_cnt = 0;
    while (bytes_moved_ < end) {
        FcFrame f = data_frame(bytes_moved_, static_cast<std::uint32_t>(end), seq_id, seq_cnt++);
        bytes_moved_ += f.payload_bytes;
        frames.push_back(make_loop_frame(std::move(f)));
    }
}

Exchange::FramePtr Exchange::next_read_data_frame()
{
    require(spec_.direction == DataDirection::Read, "next_read_data_frame", "not a read");
    require_in_progress("next_read_data_frame", true);
    require(bytes_moved_ < spec_.size_bytes, "next_read_data_frame", "all data already sent");
    if (bytes_moved_ == 0) read_seq_id_ = next_seq_id_++;
    FcFrame f = data_frame(bytes_moved_, spec_.size_bytes, read_seq_id_, read_seq_cnt_++);
    bytes_moved_ += f.payload_bytes;
    return make_loop_frame(std::move(f));
}

void Exchange::take_back_read_data_frames(std::uint32_t frames)
{
    require(spec_.direction == DataDirection::Read, "take_back_read_data_frames", "not a read");
    require(frames <= read_seq_cnt_, "take_back_read_data_frames", "more frames than were built");
    if (frames == 0) return;
    read_seq_cnt_ = static_cast<std::uint16_t>(read_seq_cnt_ - frames);
    // Every frame but a read's last is full.
    bytes_moved_ = std::min(static_cast<std::uint32_t>(read_seq_cnt_) * spec_.max_payload_bytes, spec_.size_bytes);
    if (read_seq_cnt_ == 0) next_seq_id_ = read_seq_id_;
}

std::vector<Exchange::FramePtr> Exchange::make_read_data_frames()
{
    std::vector<FramePtr> frames;
    do frames.push_back(next_read_data_frame());
    while (bytes_moved_ < spec_.size_bytes);
    return frames;
}

Exchange::FramePtr Exchange::make_xfer_rdy()
{
    require(spec_.direction == DataDirection::Write, "make_xfer_rdy", "not a write");
    require_in_progress("make_xfer_rdy", true);
    require(bytes_requested_ < spec_.size_bytes, "make_xfer_rdy", "all data already requested");
    // FCP allows one FCP_XFER_RDY outstanding per exchange.
    require(!xfer_rdy_outstanding(), "make_xfer_rdy", "the previous burst has not arrived yet");
    const std::uint32_t remaining = spec_.size_bytes - bytes_requested_;
    const std::uint32_t burst = spec_.burst_bytes == 0 ? remaining : std::min(spec_.burst_bytes, remaining);
    FcFrame f = header(InformationUnit::XferRdy, next_seq_id_, 0);
    next_seq_id_ = static_cast<std::uint8_t>(next_seq_id_ + 2);  // the data sequence answering it takes the next SEQ_ID
    f.end_sequence = true;
    f.sequence_initiative = true;
    f.payload_bytes = kXferRdyPayloadBytes;
    f.xfer_rdy = {bytes_requested_, burst};
    bytes_requested_ += burst;
    return make_loop_frame(std::move(f));
}

Exchange::FramePtr Exchange::make_response(ScsiStatus status)
{
    require_in_progress("make_response", true);
    require(status != ScsiStatus::Good || bytes_moved_ == spec_.size_bytes, "make_response", "GOOD status before all data moved");
    FcFrame f = header(InformationUnit::Response, next_seq_id_++, 0);
    // Last_Sequence ends the exchange, so there is no initiative left to pass.
    f.last_sequence = true;
    f.end_sequence = true;
    f.payload_bytes = kResponsePayloadBytes;
    f.response.status = status;
    complete_ = true;
    status_ = status;
    return make_loop_frame(std::move(f));
}

void Exchange::receive(const FcFrame& frame)
{
    require_in_progress("receive", false);
    if (frame.iu == InformationUnit::Command) bad("receive", "an FCP_CMND starts an exchange: use Exchange::accept");
    check_ids(frame, "receive");
    const bool target_sends = from_target(frame.iu);
    if (frame.s_id != private_loop_address(target_sends ? spec_.target : spec_.initiator) ||
        frame.d_id != private_loop_address(target_sends ? spec_.initiator : spec_.target))
        bad("receive", std::string(to_string(frame.iu)) + " with S_ID/D_ID in the wrong direction for this exchange");

    switch (frame.iu) {
    case InformationUnit::XferRdy: {
        if (spec_.direction != DataDirection::Write) bad("receive", "FCP_XFER_RDY in a read exchange");
        const std::uint64_t end = std::uint64_t{frame.xfer_rdy.relative_offset} + frame.xfer_rdy.burst_length;
        if (frame.xfer_rdy.relative_offset != bytes_moved_ || xfer_rdy_outstanding() || frame.xfer_rdy.burst_length == 0 ||
            end > spec_.size_bytes)
            bad("receive", "FCP_XFER_RDY for offset " + std::to_string(frame.xfer_rdy.relative_offset) + " length " +
                               std::to_string(frame.xfer_rdy.burst_length) + " out of order");
        bytes_requested_ = static_cast<std::uint32_t>(end);
        break;
    }
    case InformationUnit::Data: {
        const std::uint64_t end = std::uint64_t{frame.relative_offset} + frame.payload_bytes;
        const std::uint32_t limit = spec_.direction == DataDirection::Read ? spec_.size_bytes : bytes_requested_;
        if (frame.relative_offset != bytes_moved_ || frame.payload_bytes == 0 || end > limit)
            bad("receive", "FCP_DATA at offset " + std::to_string(frame.relative_offset) + " length " +
                               std::to_string(frame.payload_bytes) + " out of order");
        bytes_moved_ = static_cast<std::uint32_t>(end);
        break;
    }
    case InformationUnit::Response:
        complete_ = true;
        status_ = frame.response.status;
        break;
    case InformationUnit::Command: break;  // rejected above
    case InformationUnit::Abts:
    case InformationUnit::BaAcc:
    case InformationUnit::ElsRequest:
    case InformationUnit::ElsReply: bad("receive", std::string(to_string(frame.iu)) + " is a link service, not a frame of the exchange's sequences");
    }
    spec_.rx_id = frame.rx_id;  // the initiator learns the target's RX_ID from its replies
}

std::uint32_t Exchange::bytes_remaining_to_request() const
{
    return spec_.direction == DataDirection::Write ? spec_.size_bytes - bytes_requested_ : 0;
}

}  // namespace fcal::fcp
