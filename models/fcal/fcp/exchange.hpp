#pragma once
// One FCP exchange (docs/fcp.md, "Exchanges"): a SCSI read or write, initiator to target. It
// builds the frames of every sequence in protocol order and keeps count of the data moved.
//
// Each end keeps its own Exchange, as an HBA keeps an exchange status block: the initiator builds it
// from an ExchangeSpec, the target from the FCP_CMND it received (accept()). Frames from the other
// end are folded in with receive(). One object may also drive both ends (the tests do); then it is
// never given receive().
//
// SEQ_IDs are numbered along the exchange: FCP_CMND 0, then one per sequence, where an FCP_XFER_RDY
// with SEQ_ID n is answered by the data sequence n + 1. Both ends derive the same numbers without
// telling each other. SEQ_ID is 8 bits and wraps; sequences of one exchange never overlap, so reuse
// after 256 sequences is harmless. SEQ_CNT restarts at 0 in each sequence.
#include <cstdint>
#include <memory>
#include <vector>

#include "fcal/fcp/fc_frame.hpp"

namespace fcal::fcp {

struct ExchangeSpec {
    phy::AlPa initiator = 0;
    phy::AlPa target = 0;
    DataDirection direction = DataDirection::Read;
    std::uint32_t size_bytes = 0;
    // Largest FCP_DATA payload; a multiple of 4 up to 2112, as a login's receive data field size.
    std::uint32_t max_payload_bytes = kDefaultMaxDataPayloadBytes;
    // Write: bytes the target asks for per FCP_XFER_RDY; 0 = the whole transfer at once. Only the
    // target's value matters.
    std::uint32_t burst_bytes = 0;
    std::uint16_t ox_id = 0;               // chosen by the initiator
    std::uint16_t rx_id = kUnassignedId;   // chosen by the target; the initiator learns it from the replies
    std::uint64_t lba = 0;
    // The unit of the CDB's LBA and length: the command covers ceil(size_bytes / block_bytes) blocks,
    // which must fit the 16-bit field, and `lba` the 32-bit one.
    std::uint32_t block_bytes = kDefaultBlockBytes;
    // 0: READ(10)/WRITE(10). Otherwise WRITE SAME(10) of this many blocks from `lba`: a write whose
    // data, sent once, are one block (size_bytes == block_bytes), which the disk writes to every block.
    std::uint32_t write_same_blocks = 0;
    std::uint64_t request_id = 0;
};

// The READ(10), WRITE(10) or WRITE SAME(10) CDB of the exchange; throws std::invalid_argument if it cannot be encoded.
Cdb command_cdb(const ExchangeSpec& spec);

// Throws std::invalid_argument naming the offending field.
void validate(const ExchangeSpec& spec);

class Exchange {
public:
    using FramePtr = kernel::RefPtr<loop::LoopFrame>;

    explicit Exchange(const ExchangeSpec& spec);
    // The target's end, from the FCP_CMND it received; the target assigns `rx_id` and chooses the
    // data frame size and write burst. The LBA comes from the CDB, whose opcode must agree with
    // FCP_CNTL's direction and whose block count (in `block_bytes` blocks) must cover exactly FCP_DL
    // (WRITE SAME: FCP_DL is one block and the count, 1 to 65535, becomes write_same_blocks).
    static Exchange accept(const FcFrame& command, std::uint16_t rx_id,
                           std::uint32_t max_payload_bytes = kDefaultMaxDataPayloadBytes, std::uint32_t burst_bytes = 0,
                           std::uint32_t block_bytes = kDefaultBlockBytes);

    const ExchangeSpec& spec() const { return spec_; }

    // Initiator -> target.
    FramePtr make_command();
    // The data sequence answering one FCP_XFER_RDY: ceil(burst / max payload) frames, the last one shorter.
    std::vector<FramePtr> make_write_data_frames_for(const FcFrame& xfer_rdy);
    // The same, appended to `out` (a vector the caller keeps, so that a burst allocates nothing).
    void make_write_data_frames_for(const FcFrame& xfer_rdy, std::vector<FramePtr>& out);

    // Target -> initiator. Read data is one sequence, built a frame at a time or all at once.
    FramePtr next_read_data_frame();
    std::vector<FramePtr> make_read_data_frames();  // every frame not yet built
    // The last `frames` read data frames built were never sent (fetched ahead, and the exchange ended
    // before their time: docs/hba.md, "Fetching ahead"): as if never built — their bytes, their
    // SEQ_CNTs and, when none is left, the sequence's SEQ_ID.
    void take_back_read_data_frames(std::uint32_t frames);
    // Asks for min(burst, remaining) bytes; only once the previous burst has fully moved.
    FramePtr make_xfer_rdy();
    // GOOD needs every data byte moved; any other status may end the exchange early.
    FramePtr make_response(ScsiStatus status = ScsiStatus::Good);

    // A frame from the other end: read data and FCP_XFER_RDY/FCP_RSP at the initiator, write data at
    // the target. Checks it belongs here and arrives in order.
    void receive(const FcFrame& frame);

    bool command_sent() const { return command_sent_; }
    // Write data no FCP_XFER_RDY has asked for yet (always 0 for a read).
    std::uint32_t bytes_remaining_to_request() const;
    // An FCP_XFER_RDY's burst has not fully moved yet.
    bool xfer_rdy_outstanding() const { return bytes_requested_ > bytes_moved_; }
    // Data bytes built into frames or received at this end.
    std::uint32_t bytes_moved() const { return bytes_moved_; }
    std::uint32_t bytes_remaining() const { return spec_.size_bytes - bytes_moved_; }
    bool complete() const { return complete_; }  // FCP_RSP built or received
    ScsiStatus status() const { return status_; }

private:
    bool from_target(InformationUnit iu) const;  // the target sends frames of this IU in this exchange
    FcFrame header(InformationUnit iu, std::uint8_t seq_id, std::uint16_t seq_cnt) const;
    FcFrame data_frame(std::uint32_t offset, std::uint32_t end, std::uint8_t seq_id, std::uint16_t seq_cnt) const;
    // Inline: checked for every frame; the report is out of line.
    void require(bool condition, const char* operation, const char* why) const
    {
        if (!condition) fail(operation, why);
    }
    void require_in_progress(const char* operation, bool needs_rx_id) const
    {
        require(command_sent_, operation, "no FCP_CMND yet");
        require(!complete_, operation, "exchange already complete");
        if (needs_rx_id) require(spec_.rx_id != kUnassignedId, operation, "no RX_ID assigned");
    }
    [[noreturn]] void fail(const char* operation, const char* why) const;
    void check_ids(const FcFrame& frame, const char* operation) const;

    ExchangeSpec spec_;
    bool command_sent_ = false;
    bool complete_ = false;
    ScsiStatus status_ = ScsiStatus::Good;
    std::uint32_t bytes_requested_ = 0;  // write: covered by FCP_XFER_RDYs
    std::uint32_t bytes_moved_ = 0;
    std::uint8_t next_seq_id_ = 0;
    std::uint8_t read_seq_id_ = 0;
    std::uint16_t read_seq_cnt_ = 0;
};

}  // namespace fcal::fcp
