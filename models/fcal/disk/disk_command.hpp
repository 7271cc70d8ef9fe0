#pragma once
// The disk's TLM-2.0 protocol (docs/model.md, "The disks: the TLM-2.0 protocol"). The disk is a TLM
// target and the protocol is its own: the disk layer sits below the HBA, which drives it. Blocking
// transport (b_transport), loosely timed: every annotated delay is honoured, on both phases, as the
// time at which the transaction takes effect (sc_time_stamp() + delay).
//
// Command phase: a tlm_generic_payload WRITE to kDiskCommandAddress, data length 0, carrying a
// DiskCommand extension.
// - kind New: a new command (a SCSI task). The disk answers TLM_OK_RESPONSE and status Accepted when
//   it took a queue slot for it, or TLM_OK_RESPONSE and status TaskSetFull when every slot is taken
//   (the initiator must answer its initiator with TASK SET FULL; the disk keeps nothing). A read may
//   be served at once; a write waits for its data.
// - kind WriteDataIn: all data of the write `tag` is in the disk's buffer; the disk may now write it.
// - kind Abort: the initiator aborted the command `tag` (docs/model.md, "Faults and recovery: FCP
//   recovery"). The disk drops it wherever it is — waiting for its data, queued, in service (the
//   actuator stops), or done with read data still in the buffer — frees its slot and buffer space,
//   and never calls back for it. A tag the disk holds nothing of is answered OK all the same.
// Malformed transactions get TLM_COMMAND_ERROR_RESPONSE (unknown tag, wrong kind, no extension, an LBA
// or a WRITE SAME range beyond the capacity, WRITE SAME data other than one sector).
//
// Data phase: plain READ/WRITE payloads at buffer_address(tag, offset), the command's bytes in the
// disk's buffer. A read of bytes the disk has not yet announced (read_data or disk_ready) is refused
// with TLM_GENERIC_ERROR_RESPONSE. Bytes read leave the buffer, freeing room, at sc_time_stamp() + delay.
//
// Backward path, through the DiskReady the command names (calls happen at the simulated time of the
// event, never earlier):
// - read_data(tag, bytes): the first `bytes` of read `tag` are in the buffer (the buffer's full
//   ratio reached while the media read goes on: the initiator should start moving them);
// - disk_ready(tag): the command is complete and its queue slot free. A read's data are then all in
//   the buffer; a write's data are on the medium (write-through) or in the write cache (write-back).
#include <cstdint>
#include <tlm>

namespace fcal::disk {

constexpr std::uint64_t kDiskCommandAddress = 0;
constexpr std::uint64_t kDiskBufferBase = 0x100000000ULL;
// Buffer addresses: base + tag * kDiskBufferSpan + offset (commands move at most 4 GiB - 1 bytes).
constexpr std::uint64_t kDiskBufferSpan = 0x100000000ULL;
constexpr std::uint64_t buffer_address(std::uint64_t tag, std::uint32_t offset)
{
    return kDiskBufferBase + tag * kDiskBufferSpan + offset;
}

class DiskReady {
public:
    virtual ~DiskReady() = default;
    virtual void disk_ready(std::uint64_t tag) = 0;
    virtual void read_data(std::uint64_t /*tag*/, std::uint32_t /*bytes*/) {}
};

enum class CommandKind { New, WriteDataIn, Abort };
enum class CommandStatus { Accepted, TaskSetFull };

struct DiskCommand : tlm::tlm_extension<DiskCommand> {
    CommandKind kind = CommandKind::New;
    bool read = true;
    std::uint32_t bytes = 0;
    std::uint64_t lba = 0;  // in the disk's sectors
    // WRITE SAME: the write's data (`bytes`, one sector) go to every sector of [lba, lba + same_blocks)
    // (docs/model.md, "Erasure"). 0: an ordinary read or write.
    std::uint32_t same_blocks = 0;
    std::uint64_t tag = 0;  // unique among the commands the initiator has at the disk (RX_ID)
    DiskReady* done = nullptr;
    CommandStatus status = CommandStatus::Accepted;  // set by the disk (kind New)

    tlm::tlm_extension_base* clone() const override { return new DiskCommand(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const DiskCommand&>(other); }
};

// Sets `gp` up as the command-phase transaction carrying `cmd` (a WRITE to kDiskCommandAddress, no
// data). The caller keeps `cmd` alive across b_transport and clears the extension afterwards.
inline void prepare_command(tlm::tlm_generic_payload& gp, DiskCommand& cmd)
{
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(kDiskCommandAddress);
    gp.set_data_ptr(nullptr);
    gp.set_data_length(0);
    gp.set_streaming_width(0);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gp.set_extension(&cmd);
}

}  // namespace fcal::disk
