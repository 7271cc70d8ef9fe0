#include "fcal/hba/target_logins.hpp"

#include <algorithm>
#include <cstdio>

namespace fcal::hba {

const char* to_string(LoginState s)
{
    switch (s) {
    case LoginState::NotLoggedIn: return "not logged in";
    case LoginState::PlogiSent: return "PLOGI sent";
    case LoginState::PrliSent: return "PRLI sent";
    case LoginState::LoggedIn: return "logged in";
    case LoginState::AdiscPending: return "ADISC pending";
    case LoginState::LoggedOut: return "logged out";
    }
    return "?";
}

std::string TargetLogins::name(phy::AlPa target)
{
    char text[24];
    std::snprintf(text, sizeof text, "target 0x%02X", static_cast<unsigned>(target));
    return text;
}

TargetLogins::Entry& TargetLogins::entry(phy::AlPa target)
{
    Entry& e = entries_[target];
    if (e.known) return e;
    e.known = true;
    if (initializations_ == 0) {
        // Before the first initialization: logged in before the run, or waiting for it.
        e.state = implicit_ ? LoginState::LoggedIn : LoginState::NotLoggedIn;
    } else {
        // Not in the last initialization's record.
        e.state = LoginState::LoggedOut;
        e.reason = name(target) + " is not on the loop";
    }
    return e;
}

LoginState TargetLogins::state(phy::AlPa target) const
{
    const Entry& e = entries_[target];
    if (e.known) return e.state;
    if (initializations_ == 0) return implicit_ ? LoginState::LoggedIn : LoginState::NotLoggedIn;
    return LoginState::LoggedOut;
}

TargetLogins::Gate TargetLogins::admit(IoRequest* io)
{
    Entry& e = entry(io->target);
    switch (e.state) {
    case LoginState::LoggedIn: return Gate::Go;
    case LoginState::LoggedOut: ++commands_failed_; return Gate::Fail;
    default:
        ++commands_held_;
        e.held.push_back(io);
        return Gate::Wait;
    }
}

std::size_t TargetLogins::held() const
{
    std::size_t n = 0;
    for (const Entry& e : entries_) n += e.held.size();
    return n;
}

std::vector<TargetLogins::Outcome> TargetLogins::loop_initialized(const std::vector<phy::AlPa>& on_loop)
{
    const bool first_implicit = implicit_ && initializations_ == 0;
    ++initializations_;
    for (Entry& e : entries_) {
        e.outstanding.reset();
        e.retries = 0;
    }
    todo_.clear();
    std::array<bool, 256> present{};
    for (phy::AlPa a : on_loop) present[a] = true;
    std::vector<Outcome> out;
    // Targets gone from the loop, in AL_PA order.
    for (unsigned t = 0; t < entries_.size(); ++t) {
        Entry& e = entries_[t];
        if (!e.known || present[t] || e.state == LoginState::LoggedOut) continue;
        const auto target = static_cast<phy::AlPa>(t);
        if (e.state == LoginState::NotLoggedIn && e.port_name == 0 && !first_implicit)
            out.push_back(log_out(target, name(target) + " is not on the loop", false));
        else
            out.push_back(log_out(target, name(target) + " left the loop", true));
    }
    for (phy::AlPa a : on_loop) {
        Entry& e = entries_[a];
        if (!e.known) {
            e.known = true;
            e.state = first_implicit ? LoginState::LoggedIn : LoginState::NotLoggedIn;
        }
        if (e.state == LoginState::LoggedIn || e.state == LoginState::AdiscPending) {
            e.state = LoginState::AdiscPending;
            queue(a, fcp::ElsCommand::Adisc, false);
        } else {
            // Joined, or its login was cut short: it logs in from the start.
            e.state = LoginState::NotLoggedIn;
            e.reason.clear();
            queue(a, fcp::ElsCommand::Plogi, false);
        }
    }
    return out;
}

void TargetLogins::queue(phy::AlPa target, fcp::ElsCommand command, bool first)
{
    Entry& e = entries_[target];
    e.next = command;
    if (first)
        todo_.push_front(target);
    else
        todo_.push_back(target);
}

std::optional<TargetLogins::Request> TargetLogins::next()
{
    if (todo_.empty()) return std::nullopt;
    const phy::AlPa target = todo_.front();
    todo_.pop_front();
    Entry& e = entries_[target];
    e.outstanding = Request{target, e.next, ++last_serial_, fcp::kUnassignedId};
    return e.outstanding;
}

const TargetLogins::Request* TargetLogins::current(phy::AlPa target, std::uint64_t serial) const
{
    const auto& r = entries_[target].outstanding;
    return r && r->serial == serial ? &*r : nullptr;
}

void TargetLogins::sent(phy::AlPa target, std::uint64_t serial, std::uint16_t ox_id)
{
    if (!current(target, serial)) return;
    Entry& e = entries_[target];
    e.outstanding->ox_id = ox_id;
    switch (e.outstanding->command) {
    case fcp::ElsCommand::Plogi:
        ++plogi_;
        e.state = LoginState::PlogiSent;
        break;
    case fcp::ElsCommand::Prli:
        ++prli_;
        e.state = LoginState::PrliSent;
        break;
    default: ++adisc_; break;
    }
}

std::vector<std::uint16_t> TargetLogins::abandon()
{
    std::vector<std::uint16_t> sent;
    for (Entry& e : entries_) {
        if (e.outstanding && e.outstanding->ox_id != fcp::kUnassignedId) sent.push_back(e.outstanding->ox_id);
        e.outstanding.reset();
    }
    todo_.clear();
    return sent;
}

std::optional<TargetLogins::Outcome> TargetLogins::reply(const fcp::FcFrame& f)
{
    Entry* found = f.s_id < entries_.size() ? &entries_[f.s_id] : nullptr;
    if (!found || !found->outstanding || found->outstanding->ox_id == fcp::kUnassignedId || f.ox_id != found->outstanding->ox_id) {
        ++late_;
        return std::nullopt;
    }
    Entry& e = *found;
    const Request r = *e.outstanding;
    e.outstanding.reset();
    e.retries = 0;  // answered: the next ELS has its own retries
    if (f.els.command == fcp::ElsCommand::LsRjt) {
        ++ls_rjt_;
        char code[8];
        std::snprintf(code, sizeof code, "0x%02X", static_cast<unsigned>(f.els.reject_reason));
        return log_out(r.target, name(r.target) + " rejected " + fcp::to_string(r.command) + " (LS_RJT reason " + code + ")", true);
    }
    switch (r.command) {
    case fcp::ElsCommand::Plogi:
        e.port_name = f.els.port_name;
        queue(r.target, fcp::ElsCommand::Prli, true);
        return Outcome{r.target, {}, std::nullopt, {}};
    case fcp::ElsCommand::Prli: return logged_in(r.target);
    default: break;
    }
    // ADISC: the same port at the same address continues; a name learnt before the run is taken as it comes.
    if ((e.port_name == 0 || f.els.port_name == e.port_name) && f.els.n_port_id == fcp::private_loop_address(r.target)) {
        e.port_name = f.els.port_name;
        return logged_in(r.target);
    }
    // Another port: the old one is implicitly logged out (its exchanges end) and the new one logs in;
    // the held commands wait for it.
    ++logouts_;
    e.state = LoginState::NotLoggedIn;
    e.port_name = 0;
    queue(r.target, fcp::ElsCommand::Plogi, true);
    return Outcome{r.target, {}, name(r.target) + " is another port after the initialization (ADISC)", {}};
}

std::optional<TargetLogins::Outcome> TargetLogins::timed_out(phy::AlPa target, std::uint16_t ox_id)
{
    Entry& e = entries_[target];
    if (!e.outstanding || e.outstanding->ox_id != ox_id) return std::nullopt;
    const Request r = *e.outstanding;
    e.outstanding.reset();
    ++timeouts_;
    if (e.retries < els_retries_) {
        ++e.retries;
        ++retried_;
        queue(r.target, r.command, true);
        return Outcome{r.target, {}, std::nullopt, {}};
    }
    return log_out(r.target, name(r.target) + " did not answer " + fcp::to_string(r.command), true);
}

std::vector<IoRequest*> TargetLogins::take_held()
{
    std::vector<IoRequest*> all;
    for (Entry& e : entries_) {
        all.insert(all.end(), e.held.begin(), e.held.end());
        e.held.clear();
    }
    return all;
}

bool TargetLogins::drop_held(IoRequest* io)
{
    std::vector<IoRequest*>& held = entries_[io->target].held;
    const auto it = std::find(held.begin(), held.end(), io);
    if (it == held.end()) return false;
    held.erase(it);
    ++commands_failed_;
    return true;
}

TargetLogins::Outcome TargetLogins::log_out(phy::AlPa target, std::string reason, bool count)
{
    Entry& e = entries_[target];
    e.state = LoginState::LoggedOut;
    e.reason = reason;
    if (count) ++logouts_;
    Outcome o;
    o.target = target;
    o.logout = std::move(reason);
    o.fail.swap(e.held);
    commands_failed_ += o.fail.size();
    return o;
}

TargetLogins::Outcome TargetLogins::logged_in(phy::AlPa target)
{
    Entry& e = entries_[target];
    e.state = LoginState::LoggedIn;
    e.reason.clear();
    Outcome o;
    o.target = target;
    o.release.swap(e.held);
    return o;
}

void TargetLogins::report(nlohmann::json& j) const
{
    j["logins"] = {{"plogi", plogi_},
                   {"prli", prli_},
                   {"adisc", adisc_},
                   {"ls_rjt", ls_rjt_},
                   {"logouts", logouts_},
                   {"els_timeouts", timeouts_},
                   {"els_retries", retried_},
                   {"late_replies", late_},
                   {"commands_held", commands_held_},
                   {"commands_failed", commands_failed_},
                   {"exchanges_failed", exchanges_failed_}};
}

}  // namespace fcal::hba
