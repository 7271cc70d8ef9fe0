#pragma once
// The initiator's login state per target (docs/hba.md, "Logins"): which targets on its loop it has
// logged in to (PLOGI, then PRLI), which it is re-validating after a loop initialization (ADISC), and
// which are logged out, with the commands that wait meanwhile. The targets log in at the same time, each
// with one ELS outstanding at a time (PRLI after PLOGI's LS_ACC); the HBA builds the requests in the
// loop's order (the initialization record's, which is the LILP's). SystemC-free: the HBA sends what
// next() asks for and folds the replies in.
//
// Without logins at start (the default: no initialization at t=0) every target counts as logged in
// from the start, as if the logins had happened before the simulated time, until the first
// initialization re-validates them with ADISC like any later one.
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/fcp/fc_frame.hpp"
#include "fcal/hba/io_request.hpp"

namespace fcal::hba {

enum class LoginState : std::uint8_t {
    NotLoggedIn,   // waits for its PLOGI to be sent
    PlogiSent,     // PLOGI (and then PRLI) under way
    PrliSent,
    LoggedIn,      // commands go
    AdiscPending,  // re-validation after an initialization: commands wait
    LoggedOut,     // left the loop, refused, or never on it: commands fail with reason()
};
const char* to_string(LoginState s);

class TargetLogins {
public:
    // `logged_in_at_start`: see above. False: no target is logged in before the first initialization
    // has logged it in, and commands wait until then. `els_retries`: how many times an ELS that got no
    // reply is sent again before its target is logged out.
    explicit TargetLogins(bool logged_in_at_start, unsigned els_retries = 0) : implicit_(logged_in_at_start), els_retries_(els_retries) {}

    enum class Gate : std::uint8_t { Go, Wait, Fail };
    // A command for io->target: Go, Wait (the login is under way; held here until released), or Fail
    // (logged out: reason()).
    Gate admit(IoRequest* io);
    LoginState state(phy::AlPa target) const;
    const std::string& reason(phy::AlPa target) const { return entries_[target].reason; }
    // Commands held now, over all targets.
    std::size_t held() const;

    // What a loop initialization, an ELS reply or a timeout changed for one target: commands that may
    // go now, and, if it was logged out, why, with its held commands that fail (its open exchanges
    // fail too: the HBA's part).
    struct Outcome {
        phy::AlPa target = 0;
        std::vector<IoRequest*> release;
        std::optional<std::string> logout;
        std::vector<IoRequest*> fail;
    };
    // The loop finished an initialization with these ports (their AL_PAs in loop order, the
    // initiator's own left out). Logged-in targets on it get ADISC, the others PLOGI and PRLI; targets
    // absent from it are logged out. Every ELS outstanding is abandoned (abandon() first).
    std::vector<Outcome> loop_initialized(const std::vector<phy::AlPa>& on_loop);

    struct Request {
        phy::AlPa target = 0;
        fcp::ElsCommand command = fcp::ElsCommand::Plogi;
        std::uint64_t serial = 0;               // this ELS's number, never reused
        std::uint16_t ox_id = fcp::kUnassignedId;  // once sent
    };
    // The next ELS to build, if any; it is its target's outstanding one from now on.
    std::optional<Request> next();
    // Its target's outstanding request, if still `serial` (no initialization or link loss since).
    const Request* current(phy::AlPa target, std::uint64_t serial) const;
    void sent(phy::AlPa target, std::uint64_t serial, std::uint16_t ox_id);
    // Every outstanding ELS is given up (a new initialization, loss of signal); returns the OX_IDs of
    // those sent, which their replies may still use.
    std::vector<std::uint16_t> abandon();
    // LS_ACC or LS_RJT: nothing if it does not answer the outstanding ELS (a late reply).
    std::optional<Outcome> reply(const fcp::FcFrame& reply);
    // No reply within the exchange timeout: the same ELS goes again (first in line) while it has
    // retries left (an outcome with nothing in it), else the target is logged out.
    std::optional<Outcome> timed_out(phy::AlPa target, std::uint16_t ox_id);
    // Every held command, in the order held, for the driver (loss of signal).
    std::vector<IoRequest*> take_held();
    // The held command `io` waited for its login longer than the exchange timeout: it is no longer
    // held and counts as failed. False if it was not held (released or failed meanwhile).
    bool drop_held(IoRequest* io);
    // "target 0xE4", as the reasons name it.
    static std::string name(phy::AlPa target);

    // Whole run, as the block "logins": ELS sent (plogi, prli, adisc), ls_rjt received, logouts
    // (targets logged out after having been logged in or while logging in), els_timeouts, els_retries
    // (ELS sent again after a timeout, counted in plogi/prli/adisc as well), late_replies,
    // commands_held (waited for a login or ADISC), commands_failed (refused, dropped while held because
    // their target was logged out, or held longer than the exchange timeout) and exchanges_failed
    // (open when their target was logged out).
    void report(nlohmann::json& j) const;
    // Open exchanges the HBA ended because their target was logged out.
    void exchanges_failed(std::size_t n) { exchanges_failed_ += n; }
    // Anything to report: logins at start, or an initialization since.
    bool active() const { return initializations_ > 0 || !implicit_; }

private:
    struct Entry {
        bool known = false;
        LoginState state = LoginState::NotLoggedIn;
        std::uint64_t port_name = 0;  // from PLOGI's LS_ACC; 0: not learnt (logged in before the run)
        std::string reason;
        std::vector<IoRequest*> held;
        fcp::ElsCommand next = fcp::ElsCommand::Plogi;  // to build, while queued in todo_
        std::optional<Request> outstanding;
        unsigned retries = 0;  // times the ELS outstanding (or queued) was sent again after a timeout
    };
    Entry& entry(phy::AlPa target);
    Outcome log_out(phy::AlPa target, std::string reason, bool count);
    Outcome logged_in(phy::AlPa target);

    bool implicit_;
    unsigned els_retries_;
    std::uint64_t initializations_ = 0;
    mutable std::array<Entry, 256> entries_{};
    void queue(phy::AlPa target, fcp::ElsCommand command, bool first);
    std::deque<phy::AlPa> todo_;  // targets with an ELS to build, front first
    std::uint64_t last_serial_ = 0;
    std::uint64_t plogi_ = 0, prli_ = 0, adisc_ = 0, ls_rjt_ = 0, logouts_ = 0, timeouts_ = 0, retried_ = 0, late_ = 0;
    std::uint64_t commands_held_ = 0, commands_failed_ = 0, exchanges_failed_ = 0;
};

}  // namespace fcal::hba
