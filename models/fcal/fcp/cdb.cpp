#include "fcal/fcp/cdb.hpp"

#include <sstream>
#include <stdexcept>
#include <string>

namespace fcal::fcp {

namespace {

std::string hex(std::uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << std::uppercase << v;
    return s.str();
}

}  // namespace

const char* to_string(ScsiOpcode op)
{
    switch (op) {
    case ScsiOpcode::Read10: return "READ(10)";
    case ScsiOpcode::Write10: return "WRITE(10)";
    case ScsiOpcode::WriteSame10: return "WRITE SAME(10)";
    }
    throw std::logic_error("unknown SCSI opcode");
}

Cdb::Cdb(ScsiOpcode opcode, std::uint64_t lba, std::uint64_t blocks, std::uint8_t flags, std::uint8_t group_number,
         std::uint8_t control)
    : opcode_(opcode), lba_(0), blocks_(0), flags_(flags), group_number_(group_number), control_(control)
{
    to_string(opcode);  // rejects a value outside the enumeration
    const std::string what = to_string(opcode);
    if (lba > kCdb10MaxLba)
        throw std::invalid_argument(what + ": LOGICAL BLOCK ADDRESS " + std::to_string(lba) +
                                    " does not fit the 32-bit field (at most " + std::to_string(kCdb10MaxLba) + ")");
    if (blocks > kCdb10MaxBlocks)
        throw std::invalid_argument(what + ": " +
                                    (opcode == ScsiOpcode::WriteSame10 ? "NUMBER OF LOGICAL BLOCKS " : "TRANSFER LENGTH ") +
                                    std::to_string(blocks) + " does not fit the 16-bit field (at most " +
                                    std::to_string(kCdb10MaxBlocks) + " blocks)");
    if (group_number > 0x1F)
        throw std::invalid_argument(what + ": GROUP NUMBER " + std::to_string(group_number) + " does not fit 5 bits");
    lba_ = static_cast<std::uint32_t>(lba);
    blocks_ = static_cast<std::uint16_t>(blocks);
}

Cdb Cdb::decode(const Bytes& b)
{
    const auto op = static_cast<ScsiOpcode>(b[0]);
    if (op != ScsiOpcode::Read10 && op != ScsiOpcode::Write10 && op != ScsiOpcode::WriteSame10)
        throw std::invalid_argument("CDB: unsupported OPERATION CODE " + hex(b[0]) +
                                    " (the model knows READ(10) 0x28, WRITE(10) 0x2A, WRITE SAME(10) 0x41)");
    const std::uint64_t lba = (std::uint64_t{b[2]} << 24) | (std::uint64_t{b[3]} << 16) | (std::uint64_t{b[4]} << 8) | b[5];
    const std::uint64_t blocks = (std::uint64_t{b[7]} << 8) | b[8];
    return Cdb(op, lba, blocks, b[1], static_cast<std::uint8_t>(b[6] & 0x1F), b[9]);
}

Cdb::Bytes Cdb::encode() const
{
    Bytes b{};
    b[0] = static_cast<std::uint8_t>(opcode_);
    b[1] = flags_;
    b[2] = static_cast<std::uint8_t>(lba_ >> 24);
    b[3] = static_cast<std::uint8_t>(lba_ >> 16);
    b[4] = static_cast<std::uint8_t>(lba_ >> 8);
    b[5] = static_cast<std::uint8_t>(lba_);
    b[6] = group_number_;
    b[7] = static_cast<std::uint8_t>(blocks_ >> 8);
    b[8] = static_cast<std::uint8_t>(blocks_);
    b[9] = control_;
    return b;
}

}  // namespace fcal::fcp
