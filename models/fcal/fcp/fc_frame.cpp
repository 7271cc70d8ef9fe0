#include "fcal/fcp/fc_frame.hpp"

#include <stdexcept>
#include <string>
#include <typeinfo>
#include <utility>

#include "fcal/kernel/pool_allocator.hpp"

namespace fcal::fcp {

const char* to_string(InformationUnit iu)
{
    switch (iu) {
    case InformationUnit::Command: return "FCP_CMND";
    case InformationUnit::XferRdy: return "FCP_XFER_RDY";
    case InformationUnit::Data: return "FCP_DATA";
    case InformationUnit::Response: return "FCP_RSP";
    case InformationUnit::Abts: return "ABTS";
    case InformationUnit::BaAcc: return "BA_ACC";
    case InformationUnit::ElsRequest: return "ELS";
    case InformationUnit::ElsReply: return "ELS_REPLY";
    }
    throw std::logic_error("unknown information unit");
}

const char* to_string(DataDirection d)
{
    switch (d) {
    case DataDirection::Read: return "read";
    case DataDirection::Write: return "write";
    }
    throw std::logic_error("unknown data direction");
}

phy::AlPa al_pa_of_address(std::uint32_t address, const char* what)
{
    if (address <= 0xFF && phy::is_valid_al_pa(address)) return static_cast<phy::AlPa>(address);
    if (address > 0xFF)
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(address) +
                                    " is not a private-loop address (domain and area must be 0)");
    return phy::require_valid_al_pa(address, what);
}

std::uint8_t FcFrame::r_ctl() const
{
    switch (iu) {
    case InformationUnit::Command: return 0x06;
    case InformationUnit::XferRdy: return 0x05;
    case InformationUnit::Data: return 0x01;
    case InformationUnit::Response: return 0x07;
    case InformationUnit::Abts: return 0x81;
    case InformationUnit::BaAcc: return 0x84;
    case InformationUnit::ElsRequest: return 0x22;
    case InformationUnit::ElsReply: return 0x23;
    }
    throw std::logic_error("unknown information unit");
}

std::uint32_t FcFrame::f_ctl() const
{
    using namespace f_ctl_bit;
    std::uint32_t bits = 0;
    if (exchange_responder) bits |= kExchangeContext;
    if (first_sequence) bits |= kFirstSequence;
    if (last_sequence) bits |= kLastSequence;
    if (end_sequence) bits |= kEndSequence;
    if (sequence_initiative) bits |= kSequenceInitiative;
    if (iu == InformationUnit::Data) bits |= kRelativeOffsetPresent;
    bits |= (4 - payload_bytes % 4) % 4;
    return bits;
}

FcFrame link_service_frame(InformationUnit iu, std::uint8_t type, std::uint32_t s_id, std::uint32_t d_id, std::uint16_t ox_id,
                           std::uint16_t rx_id)
{
    FcFrame f;
    f.iu = iu;
    f.type = type;
    f.s_id = s_id;
    f.d_id = d_id;
    f.ox_id = ox_id;
    f.rx_id = rx_id;
    f.end_sequence = true;
    return f;
}

kernel::RefPtr<loop::LoopFrame> make_loop_frame(std::shared_ptr<const FcFrame> frame)
{
    if (!frame) throw std::invalid_argument("make_loop_frame: no frame");
    auto out = kernel::make_ref<loop::LoopFrame>();  // from its pool (loop::LoopFrame)
    out->source = al_pa_of_address(frame->s_id, "S_ID");
    out->destination = al_pa_of_address(frame->d_id, "D_ID");
    out->payload_bytes = frame->payload_bytes;
    out->sof = frame->first_of_sequence() ? loop::Sof::I3 : loop::Sof::N3;
    // An ELS request is unsolicited control, issued like a command: it travels with the commands
    // (docs/hba.md, "Logins"), or behind a stream of them it could wait for ever.
    out->frame_class = frame->iu == InformationUnit::Command || frame->iu == InformationUnit::ElsRequest ? loop::FrameClass::Command
                       : frame->iu == InformationUnit::Data                                             ? loop::FrameClass::Data
                                                                                                         : loop::FrameClass::Other;
    out->content = std::move(frame);
    return out;
}

kernel::RefPtr<loop::LoopFrame> make_loop_frame(FcFrame frame)
{
    return make_loop_frame(std::allocate_shared<FcFrame>(kernel::PoolAllocator<FcFrame>(), std::move(frame)));
}

const FcFrame& fc_frame_of(const loop::LoopFrame& frame)
{
    // FcFrame is final: comparing the dynamic type is all a dynamic_cast would do, at a fraction of
    // its cost (this runs for every frame an HBA handles).
    const loop::FrameContent* content = frame.content.get();
    if (!content || typeid(*content) != typeid(FcFrame)) throw std::invalid_argument("loop frame does not carry an FC frame");
    return static_cast<const FcFrame&>(*content);
}

}  // namespace fcal::fcp
