#include "fcal/fcp/basic_link_service.hpp"

#include <stdexcept>

namespace fcal::fcp {

namespace {

FcFrame bls_frame(InformationUnit iu, std::uint32_t from, std::uint32_t to, std::uint16_t ox_id, std::uint16_t rx_id)
{
    return link_service_frame(iu, kTypeBasicLinkService, from, to, ox_id, rx_id);
}

}  // namespace

kernel::RefPtr<loop::LoopFrame> make_abts(const ExchangeSpec& spec)
{
    validate(spec);
    FcFrame f = bls_frame(InformationUnit::Abts, private_loop_address(spec.initiator), private_loop_address(spec.target),
                          spec.ox_id, spec.rx_id);
    // Parameter field bit 0 clear: abort the whole exchange, not one sequence.
    f.sequence_initiative = true;
    f.payload_bytes = kAbtsPayloadBytes;
    return make_loop_frame(std::move(f));
}

kernel::RefPtr<loop::LoopFrame> make_ba_acc(const FcFrame& abts)
{
    if (abts.iu != InformationUnit::Abts) throw std::invalid_argument(std::string("make_ba_acc: ") + to_string(abts.iu) + " is not ABTS");
    FcFrame f = bls_frame(InformationUnit::BaAcc, abts.d_id, abts.s_id, abts.ox_id, abts.rx_id);
    f.exchange_responder = true;
    // BA_ACC ends the exchange's last sequence.
    f.last_sequence = true;
    f.payload_bytes = kBaAccPayloadBytes;
    return make_loop_frame(std::move(f));
}

}  // namespace fcal::fcp
