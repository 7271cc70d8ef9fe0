#pragma once
// A frame as the loop sees it: who sends it to whom and how long it is. What it carries belongs to
// the layers above (FC-2/FCP), which derive from FrameContent; the loop never looks inside.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "fcal/kernel/pool_allocator.hpp"
#include "fcal/kernel/ref_ptr.hpp"
#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/line_rate.hpp"

namespace fcal::loop {

struct FrameContent {
    virtual ~FrameContent() = default;
};

// Class 3: first frame of a sequence / following frames. Il: a loop initialization frame (SOFil,
// SOFi3's characters on the wire), which every port in OPEN-INIT stores and forwards: its D_ID
// 0000EF addresses nobody, although EF is an AL_PA too (docs/loop_init.md, "Loop initialization
// frames"), so routing never looks at its source and destination.
enum class Sof : std::uint8_t { I3, N3, Il };

// What a transmit scheduler needs to know of a frame without looking inside it: commands may be
// sent ahead of data (docs/hba.md, "Command-First"). The values are the RTL's 2-bit class code.
enum class FrameClass : std::uint8_t { Data = 0, Command = 1, Other = 2 };
const char* to_string(FrameClass c);  // "data", "command", "other"

// Held by handle (FrameRef): a word on the wire, a queue, an HBA; made and dropped at every frame's
// rate, so a frame's memory comes from a pool (docs/kernel.md, "No allocation per frame").
struct LoopFrame final : kernel::RefCounted {
    phy::AlPa source = 0;
    phy::AlPa destination = 0;
    std::uint32_t payload_bytes = 0;
    Sof sof = Sof::I3;
    FrameClass frame_class = FrameClass::Other;
    std::shared_ptr<const FrameContent> content;

    std::uint64_t words() const { return phy::frame_words(payload_bytes); }
    bool loop_init() const { return sof == Sof::Il; }

    static void* operator new(std::size_t) { return kernel::PoolAllocator<LoopFrame>().allocate(1); }
    static void operator delete(void* p) { kernel::PoolAllocator<LoopFrame>().deallocate(static_cast<LoopFrame*>(p), 1); }
};

// A handle to a frame (docs/kernel.md, "Frame handles"); kernel::make_ref<LoopFrame>() makes one.
using FrameRef = kernel::RefPtr<const LoopFrame>;

}  // namespace fcal::loop
