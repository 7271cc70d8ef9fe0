#pragma once
// A SCSI command descriptor block of the three 10-byte SBC commands the model issues (docs/model.md,
// "FCP: the CDB"): READ(10) 28h, WRITE(10) 2Ah and WRITE SAME(10) 41h. All three share one layout:
//   byte 0     OPERATION CODE
//   byte 1     flags (RDPROTECT/DPO/FUA/... for READ/WRITE, WRPROTECT/ANCHOR/UNMAP for WRITE SAME)
//   bytes 2-5  LOGICAL BLOCK ADDRESS, big-endian
//   byte 6     GROUP NUMBER (low 5 bits)
//   bytes 7-8  TRANSFER LENGTH (READ/WRITE) or NUMBER OF LOGICAL BLOCKS (WRITE SAME), big-endian
//   byte 9     CONTROL
// SystemC-free. Values a field cannot hold are errors (std::invalid_argument), never wrapped.
#include <array>
#include <cstdint>

namespace fcal::fcp {

enum class ScsiOpcode : std::uint8_t { Read10 = 0x28, Write10 = 0x2A, WriteSame10 = 0x41 };
const char* to_string(ScsiOpcode op);  // "READ(10)", "WRITE(10)", "WRITE SAME(10)"

constexpr std::size_t kCdb10Bytes = 10;
constexpr std::uint64_t kCdb10MaxLba = 0xFFFFFFFFull;
constexpr std::uint32_t kCdb10MaxBlocks = 0xFFFF;
// The usual logical block size, the unit of the LBA and length fields unless a disk says otherwise.
constexpr std::uint32_t kDefaultBlockBytes = 512;

class Cdb {
public:
    using Bytes = std::array<std::uint8_t, kCdb10Bytes>;

    // Throws std::invalid_argument if `lba` needs more than 32 bits, `blocks` more than 16, or
    // `group_number` more than 5.
    Cdb(ScsiOpcode opcode, std::uint64_t lba, std::uint64_t blocks, std::uint8_t flags = 0, std::uint8_t group_number = 0,
        std::uint8_t control = 0);

    // Throws std::invalid_argument for an opcode other than the three above.
    static Cdb decode(const Bytes& bytes);
    Bytes encode() const;

    ScsiOpcode opcode() const { return opcode_; }
    std::uint32_t lba() const { return lba_; }
    // TRANSFER LENGTH or NUMBER OF LOGICAL BLOCKS. 0 means "no data" for READ/WRITE(10) and "to the
    // end of the medium" for WRITE SAME(10); the model never issues 0 (the callers check).
    std::uint16_t blocks() const { return blocks_; }
    std::uint8_t flags() const { return flags_; }
    std::uint8_t group_number() const { return group_number_; }
    std::uint8_t control() const { return control_; }

    bool operator==(const Cdb& o) const { return encode() == o.encode(); }
    bool operator!=(const Cdb& o) const { return !(*this == o); }

private:
    ScsiOpcode opcode_;
    std::uint32_t lba_;
    std::uint16_t blocks_;
    std::uint8_t flags_;
    std::uint8_t group_number_;
    std::uint8_t control_;
};

}  // namespace fcal::fcp
