#include "test_hooks.hpp"

#include <stdexcept>

#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"

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

void TestHooks::add_options(CLI::App& app)
{
    app.add_option("--test-lose-io", lose_io_, "test only: the N-th completion never reaches the driver");
    app.add_option("--test-throw-io", throw_io_, "test only: the N-th completion throws");
    app.add_option("--test-drop-frame", drop_frames_, "test only: drop the N-th frame of KIND delivered to an HBA (KIND:N, repeatable)");
    app.add_option("--test-drop-disk", drop_disk_, "test only: drop every frame delivered to disk D's HBA");
}

void TestHooks::check(const sim::SimConfig& config)
{
    if ((lose_io_ > 0 || throw_io_ > 0) && config.transport != sim::Transport::Loop)
        throw sim::ConfigError("--test-lose-io/--test-throw-io: need transport=loop (they sit behind the HBA)");
    if (drop_frames_.empty() && drop_disk_ < 0) return;
    if (config.transport != sim::Transport::Loop) throw sim::ConfigError("--test-drop-frame/--test-drop-disk: need transport=loop");
    if (drop_disk_ >= static_cast<long long>(config.disk_count))
        throw sim::ConfigError("--test-drop-disk: no disk " + std::to_string(drop_disk_));
    for (const auto& rule : drop_frames_) drop_.add_rule(rule);
}

void TestHooks::attach(sim::StorageSystem& system)
{
    if (lose_io_ > 0 || throw_io_ > 0) {
        completion_ = std::make_unique<CompletionHook>(system.driver(), lose_io_, throw_io_);
        system.initiator().set_completion(completion_.get());
    }
    if (drop_frames_.empty() && drop_disk_ < 0) return;
    hba::InitiatorHba& ini = system.initiator();
    droppers_.push_back(std::make_unique<DroppingPortUser>("drop_initiator", ini.port(), ini, drop_, false));
    for (unsigned d = 0; d < system.config().disk_count; ++d) {
        hba::TargetHba& t = system.target(d);
        droppers_.push_back(std::make_unique<DroppingPortUser>(("drop_disk" + std::to_string(d)).c_str(), t.port(), t, drop_,
                                                               drop_disk_ == static_cast<long long>(d)));
    }
}

}  // namespace fcal::tb
