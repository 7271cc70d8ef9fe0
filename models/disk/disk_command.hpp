#pragma once
// How the target HBA talks to its disk over TLM-2.0. The disk is a TLM target and the protocol is
// its own: the disk layer sits below the HBA, which drives it.
//
// - A command is a tlm_generic_payload WRITE to address kDiskCommandAddress, data length 0, with a
//   DiskCommand extension. The disk answers TLM_OK_RESPONSE when it accepted it, or
//   TLM_GENERIC_ERROR_RESPONSE when all its queue slots are taken.
// - Data moves by plain READ/WRITE payloads at kDiskBufferBase + offset (the disk's buffer).
// - The disk calls DiskCommand::done->disk_ready(tag) when a read's data is in its buffer, or when a
//   write (issued after its data arrived) is on the medium (write-through).
#include <cstdint>
#include <tlm>

namespace fcal::disk {

constexpr std::uint64_t kDiskCommandAddress = 0;
constexpr std::uint64_t kDiskBufferBase = 0x100000000ULL;

class DiskReady {
public:
    virtual ~DiskReady() = default;
    virtual void disk_ready(std::uint64_t tag) = 0;
};

struct DiskCommand : tlm::tlm_extension<DiskCommand> {
    bool read = true;
    std::uint32_t bytes = 0;
    std::uint64_t lba = 0;
    std::uint64_t tag = 0;
    DiskReady* done = nullptr;

    tlm::tlm_extension_base* clone() const override { return new DiskCommand(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const DiskCommand&>(other); }
};

}  // namespace fcal::disk
