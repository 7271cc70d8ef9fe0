#include "test_hooks.hpp"

#include <stdexcept>

#include "fcal/sim/sim_config.hpp"

namespace fcal::tb {

void FrameDrop::add_rule(const std::string& text)
{
    const auto colon = text.find(':');
    std::uint64_t nth = 0;
    try {
        std::size_t used = 0;
        if (colon != std::string::npos) nth = std::stoull(text.substr(colon + 1), &used);
        if (used == 0 || colon + 1 + used != text.size()) nth = 0;
    } catch (const std::exception&) {
        nth = 0;
    }
    const std::string kind = text.substr(0, colon);
    bool known = kind == "any";
    for (auto iu : {fcp::InformationUnit::Command, fcp::InformationUnit::XferRdy, fcp::InformationUnit::Data,
                    fcp::InformationUnit::Response, fcp::InformationUnit::Abts, fcp::InformationUnit::BaAcc})
        known = known || kind == fcp::to_string(iu);
    if (!known || nth == 0) throw sim::ConfigError("--test-drop-frame: '" + text + "' is not KIND:N (N >= 1)");
    rules_.emplace_back(kind, nth);
}

bool FrameDrop::wanted(const fcp::FcFrame& f)
{
    const std::uint64_t any = ++seen_["any"];
    const std::uint64_t of_kind = ++seen_[fcp::to_string(f.iu)];
    for (const auto& [kind, nth] : rules_)
        if ((kind == "any" && nth == any) || (kind == fcp::to_string(f.iu) && nth == of_kind)) return true;
    return false;
}

}  // namespace fcal::tb
