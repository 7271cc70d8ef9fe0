#pragma once
// The disk's TLM-2.0 protocol (docs/disk.md, "The TLM-2.0 protocol"). The disk is a TLM
// target and the protocol is its own: the disk layer sits below the HBA, which drives it. Its sockets
// are of the protocol type DiskProtocol (generic payloads, but not the base protocol: a socket of the
// base protocol cannot be bound to them by mistake). The forward path is blocking transport
// (b_transport), loosely timed: every annotated delay is honoured, on both phases, as the time at
// which the transaction takes effect (sc_time_stamp() + delay). The backward path (nb_transport_bw)
// carries the disk's notices. So anything that passes both paths on, a monitor or a checker, can sit
// between the initiator and the disk.
//
// Command phase: a tlm_generic_payload WRITE to kDiskCommandAddress, data length 0, carrying a
// DiskCommand extension.
// - kind New: a new command (a SCSI task). The disk answers TLM_OK_RESPONSE and status Accepted when
//   it took a queue slot for it, or TLM_OK_RESPONSE and status TaskSetFull when every slot is taken
//   (the initiator must answer its initiator with TASK SET FULL; the disk keeps nothing). A read may
//   be served at once; a write waits for its data.
// - kind WriteDataIn: all data of the write `tag` is in the disk's buffer; the disk may now write it.
// - kind Abort: the initiator aborted the command `tag` (docs/faults.md, "FCP recovery"). The
//   disk drops it wherever it is — waiting for its data, queued, in service (the
//   actuator stops), or done with read data still in the buffer — frees its slot and buffer space,
//   and never calls back for it after the abort. In the very instant the actuator's operation ends,
//   that end comes first, within the Abort's call: its notices (a Ready for this tag or another, read
//   data announced) reach the initiator before the abort takes effect. A tag the disk holds nothing of
//   is answered OK all the same.
// Malformed transactions get TLM_COMMAND_ERROR_RESPONSE (unknown tag, wrong kind, no extension, an LBA
// or a WRITE SAME range beyond the capacity, WRITE SAME data other than one sector).
//
// Data phase: plain READ/WRITE payloads at buffer_address(tag, offset), the command's bytes in the
// disk's buffer. A read of bytes the disk has not yet announced (a ReadData or Ready notice) is refused
// with TLM_GENERIC_ERROR_RESPONSE. Bytes read leave the buffer, freeing room, at sc_time_stamp() + delay.
//
// Backward path: the disk calls nb_transport_bw with phase BEGIN_RESP, delay zero, at the simulated
// time of the event (never earlier), on a payload of its own (no data) carrying a DiskNotice; the
// initiator answers TLM_COMPLETED. The payload is valid during the call only (a notice sent from
// inside it may reuse it). The notices:
// - ReadData(tag, bytes): the first `bytes` of read `tag` are in the buffer (the buffer's full ratio
//   reached while the media read goes on: the initiator should start moving them);
// - Ready(tag): the command is complete and its queue slot free. A read's data are then all in the
//   buffer; a write's data are on the medium (write-through) or in the write cache (write-back).
// DiskInitiatorSocket (disk/disk_initiator_socket.hpp) is the initiator's end: it makes the forward
// transactions and hands the notices to a DiskReady.
#include <cstdint>
#include <tlm>

namespace fcal::disk {

// The protocol type of the disk's sockets.
struct DiskProtocol {
    using tlm_payload_type = tlm::tlm_generic_payload;
    using tlm_phase_type = tlm::tlm_phase;
};

constexpr std::uint64_t kDiskCommandAddress = 0;
constexpr std::uint64_t kDiskBufferBase = 0x100000000ULL;
// Buffer addresses: base + tag * kDiskBufferSpan + offset (commands move at most 4 GiB - 1 bytes).
constexpr std::uint64_t kDiskBufferSpan = 0x100000000ULL;
constexpr std::uint64_t buffer_address(std::uint64_t tag, std::uint32_t offset)
{
    return kDiskBufferBase + tag * kDiskBufferSpan + offset;
}

// Where the initiator's end of the protocol delivers the disk's notices.
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
    // (docs/erasure.md, "Erasure"). 0: an ordinary read or write.
    std::uint32_t same_blocks = 0;
    std::uint64_t tag = 0;  // unique among the commands the initiator has at the disk (RX_ID)
    CommandStatus status = CommandStatus::Accepted;  // set by the disk (kind New)

    tlm::tlm_extension_base* clone() const override { return new DiskCommand(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const DiskCommand&>(other); }
};

enum class NoticeKind { ReadData, Ready };

struct DiskNotice : tlm::tlm_extension<DiskNotice> {
    NoticeKind kind = NoticeKind::Ready;
    std::uint64_t tag = 0;
    std::uint32_t bytes = 0;  // ReadData: the read's first `bytes` are in the buffer

    tlm::tlm_extension_base* clone() const override { return new DiskNotice(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const DiskNotice&>(other); }
};

}  // namespace fcal::disk
