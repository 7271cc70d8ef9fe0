#pragma once
// A loop initialization frame (docs/loop_init.md, "Loop initialization frames"): LISM, LIFA, LIPA,
// LIHA, LISA, LIRP or LILP, with its payload and header as bytes. SystemC-free.
//
// On the wire: SOFil (SOFi3's characters), a 24-byte header (extended link data, D_ID = S_ID =
// 0000EF for an NL_Port's frames), the payload, CRC, EOFt. The payload's first word is LI_ID (upper
// 16 bits: 1101h LISM ... 1107h LILP) and LI_FL (lower 16 bits, flags); then LISM: the 8-byte port
// name (12 bytes in all); LIFA..LISA: the 16-byte AL_PA bitmap (20); LIRP and LILP: the 128-byte
// position map (132): an offset byte (how many AL_PAs follow), the AL_PAs in loop order, FF after them.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fcal/loop/al_pa_bitmap.hpp"
#include "fcal/loop/loop_frame.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::loop {

enum class LiId : std::uint16_t {
    Lism = 0x1101,  // select master
    Lifa = 0x1102,  // fabric assigned AL_PAs
    Lipa = 0x1103,  // previously acquired
    Liha = 0x1104,  // hard assigned
    Lisa = 0x1105,  // soft assigned
    Lirp = 0x1106,  // report position
    Lilp = 0x1107,  // loop position
};
const char* name(LiId id);  // "LISM" ... "LILP"

// LI_FL bit that LISA carries: set by the master, cleared by any port that does not support LIRP
// and LILP (the manuals write the LISA word as 11050100h / 11050000h).
constexpr std::uint16_t kLiFlPositionMap = 0x0100;
// D_ID and S_ID of loop initialization frames: an NL_Port's (private or public) and an FL_Port's.
constexpr std::uint32_t kNlPortInitAddress = 0x0000EF;
constexpr std::uint32_t kFlPortInitAddress = 0x000000;
// Header fields every loop initialization frame carries.
constexpr std::uint8_t kLiRCtl = 0x22;        // extended link data, unsolicited control
constexpr std::uint8_t kLiType = 0x01;        // extended link services
constexpr std::uint32_t kLiFCtl = 0x380000;   // first sequence, last sequence, end sequence
constexpr std::size_t kHeaderBytes = 24;
constexpr std::size_t kPositionMapBytes = 128;
constexpr std::size_t kMaxPositions = kPositionMapBytes - 1;

struct LoopInitFrame : FrameContent {
    LiId id = LiId::Lism;
    std::uint16_t flags = 0;                    // LI_FL
    std::uint32_t address = kNlPortInitAddress;  // header D_ID = S_ID
    std::uint64_t port_name = 0;                 // LISM
    AlPaBitmap bitmap;                           // LIFA, LIPA, LIHA, LISA
    std::vector<phy::AlPa> positions;            // LIRP, LILP: AL_PAs in loop order, at most 127

    static LoopInitFrame lism(std::uint64_t port_name, std::uint32_t address = kNlPortInitAddress);
    // `id` one of LIFA..LISA (std::invalid_argument otherwise).
    static LoopInitFrame with_bitmap(LiId id, const AlPaBitmap& bitmap, std::uint16_t flags = 0);
    // `id` LIRP or LILP; at most 127 valid AL_PAs (std::invalid_argument otherwise).
    static LoopInitFrame with_positions(LiId id, std::vector<phy::AlPa> positions);

    static std::uint32_t payload_bytes_of(LiId id);  // 12, 20 or 132
    std::uint32_t payload_bytes() const { return payload_bytes_of(id); }
    // On the wire, SOF to EOF.
    std::uint64_t words() const;

    std::vector<std::uint8_t> payload() const;
    // The inverse of payload(); std::invalid_argument naming what is wrong for a payload that is no
    // loop initialization frame (unknown LI_ID, wrong length, a position map that is not an offset
    // followed by that many valid AL_PAs and FFs).
    static LoopInitFrame decode(const std::vector<std::uint8_t>& payload, std::uint32_t address = kNlPortInitAddress);

    std::array<std::uint8_t, kHeaderBytes> header() const;
    // The D_ID (= S_ID) of a loop initialization frame's header; std::invalid_argument if the header
    // is not one (other R_CTL, TYPE, F_CTL, IDs, or D_ID != S_ID).
    static std::uint32_t address_of_header(const std::array<std::uint8_t, kHeaderBytes>& header);

    std::string describe() const;  // "LISA flags=0x0100 al_pas=3", for diagnostics

    friend bool operator==(const LoopInitFrame& a, const LoopInitFrame& b)
    {
        return a.id == b.id && a.flags == b.flags && a.address == b.address && a.port_name == b.port_name &&
               a.bitmap == b.bitmap && a.positions == b.positions;
    }
    friend bool operator!=(const LoopInitFrame& a, const LoopInitFrame& b) { return !(a == b); }
};

bool has_bitmap(LiId id);     // LIFA..LISA
bool has_positions(LiId id);  // LIRP, LILP

}  // namespace fcal::loop
