#pragma once
// The initiator's login exchanges (docs/hba.md, "Logins"): the PLOGI, PRLI and ADISC that TargetLogins
// asks for after each loop initialization, each its own exchange (an OX_ID from the HBA's pool, the
// exchange timeout on the HBA's timers), their replies and timeouts folded back into TargetLogins, and
// what each outcome means for the HBA's commands: held ones go, or, at a logout, fail with the
// reason, its open exchanges too. The HBA keeps its commands, processors and timers; it hands over
// what this needs through Hooks, set once. Runs without a kernel (tests/unit/hba/login_exchanges_test.cpp).
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fcal/fcp/fc_frame.hpp"
#include "fcal/hba/exchange_id_pool.hpp"
#include "fcal/hba/io_request.hpp"
#include "fcal/hba/target_logins.hpp"
#include "fcal/kernel/timers.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/loop/loop_frame.hpp"
#include "fcal/loop/port_config.hpp"

namespace fcal::hba {

class LoginExchanges {
public:
    // What the HBA does for its logins.
    struct Hooks {
        // The HBA works (its link is up): nothing is built or sent otherwise.
        std::function<bool()> link_up;
        // Build the ELS on the main processor (cmd_exec), then call send(target, serial).
        std::function<void(phy::AlPa target, std::uint64_t serial)> build;
        // Queue a frame for the loop.
        std::function<void(loop::FrameRef)> transmit;
        // Start the exchange timeout of the ELS `ox_id` to `target` (then timed_out(target, ox_id)), and
        // stop one.
        std::function<kernel::TimerHandle(phy::AlPa target, std::uint16_t ox_id)> start_timer;
        std::function<void(kernel::TimerHandle)> cancel_timer;
        // End the open exchanges to `target`, as at a loss of signal; their I/Os, in the order taken.
        std::function<std::vector<IoRequest*>(phy::AlPa target)> end_exchanges_to;
        // Tell the driver the I/O failed, and hand the HBA a command that may go now.
        std::function<void(IoRequest*, const std::string& reason)> abort;
        std::function<void(IoRequest*)> submit;
    };

    // The logins' state in `logins`, the OX_IDs from `ox_ids`; `own`: the HBA's port (its AL_PA and
    // port name).
    LoginExchanges(TargetLogins& logins, ExchangeIdPool& ox_ids, const loop::PortConfig& own, Hooks hooks)
        : logins_(logins), ox_ids_(ox_ids), own_(own), hooks_(std::move(hooks))
    {
    }

    // Its loop finished an initialization; `record` names the ports on it.
    void loop_initialized(const loop::LoopInitRecord& record);
    // The processor built the ELS `serial` to `target` (Hooks::build): it goes out, unless abandoned.
    void send(phy::AlPa target, std::uint64_t serial);
    // An LS_ACC or LS_RJT arrived.
    void reply(const fcp::FcFrame& f);
    // The ELS `ox_id` to `target` had no reply within the exchange timeout (Hooks::start_timer).
    void timed_out(phy::AlPa target, std::uint16_t ox_id);
    // Every ELS under way is given up (a new initialization, loss of signal).
    void abandon();

private:
    void next();
    void apply(TargetLogins::Outcome o);

    TargetLogins& logins_;
    ExchangeIdPool& ox_ids_;
    const loop::PortConfig& own_;
    Hooks hooks_;
    std::array<kernel::TimerHandle, 256> timers_{};  // by target AL_PA
};

}  // namespace fcal::hba
