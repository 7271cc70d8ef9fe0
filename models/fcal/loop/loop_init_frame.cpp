#include "fcal/loop/loop_init_frame.hpp"

#include <cstdio>
#include <stdexcept>

#include "fcal/phy/line_rate.hpp"

namespace fcal::loop {
namespace {

constexpr std::uint8_t kUnusedPosition = 0xFF;

std::string hex(unsigned value, int digits)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%0*X", digits, value);
    return buf;
}

void put_u16(std::vector<std::uint8_t>& out, std::uint16_t v)
{
    out.push_back(static_cast<std::uint8_t>(v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
}

template <std::size_t N>
void put_u24(std::array<std::uint8_t, N>& out, std::size_t at, std::uint32_t v)
{
    out[at] = static_cast<std::uint8_t>(v >> 16);
    out[at + 1] = static_cast<std::uint8_t>(v >> 8);
    out[at + 2] = static_cast<std::uint8_t>(v);
}

template <typename Bytes>
std::uint32_t get_u24(const Bytes& in, std::size_t at)
{
    return (std::uint32_t{in[at]} << 16) | (std::uint32_t{in[at + 1]} << 8) | in[at + 2];
}

std::invalid_argument bad(const std::string& why) { return std::invalid_argument("loop initialization frame: " + why); }

}  // namespace

const char* name(LiId id)
{
    switch (id) {
    case LiId::Lism: return "LISM";
    case LiId::Lifa: return "LIFA";
    case LiId::Lipa: return "LIPA";
    case LiId::Liha: return "LIHA";
    case LiId::Lisa: return "LISA";
    case LiId::Lirp: return "LIRP";
    case LiId::Lilp: return "LILP";
    }
    throw std::logic_error("unknown LI_ID");
}

bool has_bitmap(LiId id) { return id >= LiId::Lifa && id <= LiId::Lisa; }
bool has_positions(LiId id) { return id == LiId::Lirp || id == LiId::Lilp; }

LoopInitFrame LoopInitFrame::lism(std::uint64_t port_name, std::uint32_t address)
{
    LoopInitFrame f;
    f.id = LiId::Lism;
    f.port_name = port_name;
    f.address = address;
    return f;
}

LoopInitFrame LoopInitFrame::with_bitmap(LiId id, const AlPaBitmap& bitmap, std::uint16_t flags)
{
    if (!has_bitmap(id)) throw std::invalid_argument(std::string("loop initialization frame: ") + name(id) + " carries no AL_PA bitmap");
    LoopInitFrame f;
    f.id = id;
    f.bitmap = bitmap;
    f.flags = flags;
    return f;
}

LoopInitFrame LoopInitFrame::with_positions(LiId id, std::vector<phy::AlPa> positions)
{
    if (!has_positions(id)) throw std::invalid_argument(std::string("loop initialization frame: ") + name(id) + " carries no position map");
    if (positions.size() > kMaxPositions) throw bad("a position map holds at most 127 AL_PAs");
    for (auto a : positions) phy::require_valid_al_pa(a, std::string("position map of ") + name(id));
    LoopInitFrame f;
    f.id = id;
    f.positions = std::move(positions);
    return f;
}

std::uint32_t LoopInitFrame::payload_bytes_of(LiId id)
{
    if (id == LiId::Lism) return 4 + 8;
    if (has_bitmap(id)) return 4 + AlPaBitmap::kBytes;
    return 4 + kPositionMapBytes;
}

std::uint64_t LoopInitFrame::words() const { return phy::frame_words(payload_bytes()); }

std::vector<std::uint8_t> LoopInitFrame::payload() const
{
    std::vector<std::uint8_t> out;
    out.reserve(payload_bytes());
    put_u16(out, static_cast<std::uint16_t>(id));
    put_u16(out, flags);
    if (id == LiId::Lism) {
        for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(port_name >> shift));
    } else if (has_bitmap(id)) {
        out.insert(out.end(), bitmap.bytes().begin(), bitmap.bytes().end());
    } else {
        out.push_back(static_cast<std::uint8_t>(positions.size()));
        out.insert(out.end(), positions.begin(), positions.end());
        out.resize(payload_bytes(), kUnusedPosition);
    }
    return out;
}

LoopInitFrame LoopInitFrame::decode(const std::vector<std::uint8_t>& payload, std::uint32_t address)
{
    if (payload.size() < 4) throw bad("payload of " + std::to_string(payload.size()) + " bytes has no LI_ID");
    const unsigned li_id = (unsigned{payload[0]} << 8) | payload[1];
    if (li_id < static_cast<unsigned>(LiId::Lism) || li_id > static_cast<unsigned>(LiId::Lilp))
        throw bad("unknown LI_ID " + hex(li_id, 4));
    LoopInitFrame f;
    f.id = static_cast<LiId>(li_id);
    f.flags = static_cast<std::uint16_t>((unsigned{payload[2]} << 8) | payload[3]);
    f.address = address;
    if (payload.size() != f.payload_bytes())
        throw bad(std::string(name(f.id)) + " payload is " + std::to_string(payload.size()) + " bytes, not " +
                  std::to_string(f.payload_bytes()));
    if (f.id == LiId::Lism) {
        for (std::size_t i = 4; i < 12; ++i) f.port_name = (f.port_name << 8) | payload[i];
    } else if (has_bitmap(f.id)) {
        AlPaBitmap::Bytes b{};
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = payload[4 + i];
        f.bitmap = AlPaBitmap(b);
    } else {
        const unsigned count = payload[4];
        if (count > kMaxPositions) throw bad(std::string(name(f.id)) + " offset " + std::to_string(count) + " exceeds 127");
        for (unsigned i = 1; i <= kMaxPositions; ++i) {
            const std::uint8_t byte = payload[4 + i];
            if (i <= count) {
                if (!phy::is_valid_al_pa(byte))
                    throw bad(std::string(name(f.id)) + " position " + std::to_string(i) + " holds " + hex(byte, 2) + ", no AL_PA");
                f.positions.push_back(byte);
            } else if (byte != kUnusedPosition) {
                throw bad(std::string(name(f.id)) + " position " + std::to_string(i) + " after the last AL_PA is " +
                          hex(byte, 2) + ", not FF");
            }
        }
    }
    return f;
}

std::array<std::uint8_t, kHeaderBytes> LoopInitFrame::header() const
{
    std::array<std::uint8_t, kHeaderBytes> h{};
    h[0] = kLiRCtl;
    put_u24(h, 1, address);  // D_ID
    put_u24(h, 5, address);  // S_ID, after CS_CTL 00
    h[8] = kLiType;
    put_u24(h, 9, kLiFCtl);
    // SEQ_ID, DF_CTL, SEQ_CNT 0; OX_ID and RX_ID unassigned; parameter 0.
    h[16] = h[17] = h[18] = h[19] = 0xFF;
    return h;
}

std::uint32_t LoopInitFrame::address_of_header(const std::array<std::uint8_t, kHeaderBytes>& h)
{
    const std::uint32_t d_id = get_u24(h, 1);
    const std::uint32_t s_id = get_u24(h, 5);
    if (h[0] != kLiRCtl) throw bad("R_CTL " + hex(h[0], 2) + ", not 0x22");
    if (h[8] != kLiType) throw bad("TYPE " + hex(h[8], 2) + ", not 0x01");
    if (get_u24(h, 9) != kLiFCtl) throw bad("F_CTL " + hex(get_u24(h, 9), 6) + ", not 0x380000");
    if (d_id != s_id) throw bad("D_ID " + hex(d_id, 6) + " differs from S_ID " + hex(s_id, 6));
    if (d_id != kNlPortInitAddress && d_id != kFlPortInitAddress) throw bad("D_ID " + hex(d_id, 6) + " is neither 0x0000EF nor 0x000000");
    for (std::size_t i : {4u, 12u, 13u, 14u, 15u, 20u, 21u, 22u, 23u})
        if (h[i] != 0) throw bad("header byte " + std::to_string(i) + " is " + hex(h[i], 2) + ", not 0");
    for (std::size_t i = 16; i < 20; ++i)
        if (h[i] != 0xFF) throw bad("OX_ID/RX_ID byte " + std::to_string(i) + " is " + hex(h[i], 2) + ", not FF");
    return d_id;
}

std::string LoopInitFrame::describe() const
{
    std::string s = name(id);
    if (flags != 0) s += " flags=" + hex(flags, 4);
    if (id == LiId::Lism) s += " port_name=" + hex(static_cast<unsigned>(port_name >> 32), 8) + hex(static_cast<unsigned>(port_name), 8).substr(2);
    if (has_bitmap(id)) s += " al_pas=" + std::to_string(bitmap.count()) + (bitmap.l_bit() ? " L" : "");
    if (has_positions(id)) s += " positions=" + std::to_string(positions.size());
    return s;
}

}  // namespace fcal::loop
