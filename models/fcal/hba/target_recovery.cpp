#include "fcal/hba/target_recovery.hpp"

namespace fcal::hba {

bool TargetRecovery::late(std::uint16_t rx_id)
{
    if (!was_aborted(rx_id)) return false;
    ++late_frames_;
    return true;
}

bool TargetRecovery::in_sequence(bool& broken, std::uint32_t offset, std::uint32_t expected)
{
    if (broken || offset != expected) {
        broken = true;
        ++sequence_errors_;
        return false;
    }
    return true;
}

void TargetRecovery::report(nlohmann::json& j) const
{
    j["late_frames"] = late_frames_;
    j["data_timeouts"] = data_timeouts_;
    j["sequence_errors"] = sequence_errors_;
}

}  // namespace fcal::hba
