#include "fcal/hba/login_exchanges.hpp"

#include "fcal/fcp/extended_link_service.hpp"

namespace fcal::hba {

// The loop is initialized again (docs/hba.md, "Logins"): whatever ELS was outstanding is abandoned
// (its reply, if one comes, is late), targets gone from the loop are logged out, and the logins and
// re-validations start over in the loop's order.
void LoginExchanges::loop_initialized(const loop::LoopInitRecord& record)
{
    if (!hooks_.link_up()) return;  // its own loop lost the signal again: the next initialization counts
    std::vector<phy::AlPa> on_loop;
    for (const auto& a : record.al_pas)
        if (a.al_pa && *a.al_pa != own_.al_pa) on_loop.push_back(*a.al_pa);
    abandon();
    for (TargetLogins::Outcome& o : logins_.loop_initialized(on_loop)) apply(std::move(o));
    next();
}

void LoginExchanges::abandon()
{
    for (auto& timer : timers_) {
        hooks_.cancel_timer(timer);
        timer = {};
    }
    // Their replies may still come: the OX_IDs stay out of use for a while.
    for (std::uint16_t ox_id : logins_.abandon()) {
        ox_ids_.release(ox_id);
        ox_ids_.quarantine(ox_id);
    }
}

// The processor builds every ELS due, in the loop's order (cmd_exec each, as for a command, without
// the DMA fetch: the payload is the HBA's own).
void LoginExchanges::next()
{
    if (!hooks_.link_up()) return;
    while (auto request = logins_.next()) hooks_.build(request->target, request->serial);
}

void LoginExchanges::send(phy::AlPa target, std::uint64_t serial)
{
    const TargetLogins::Request* request = logins_.current(target, serial);
    if (!hooks_.link_up() || !request) return;  // abandoned meanwhile
    const fcp::ElsCommand command = request->command;
    // Its own exchange: an OX_ID from the same pool (so that it never meets an FCP exchange's), but
    // not among the exchanges outstanding() counts.
    const std::uint16_t ox_id = ox_ids_.acquire();
    logins_.sent(target, serial, ox_id);
    const std::uint64_t own_name = own_.init.port_name;
    timers_[target] = hooks_.start_timer(target, ox_id);
    hooks_.transmit(fcp::make_els_request(command, own_.al_pa, target, ox_id, own_name, own_name));
}

void LoginExchanges::reply(const fcp::FcFrame& f)
{
    auto outcome = logins_.reply(f);
    if (!outcome) return;  // late
    hooks_.cancel_timer(timers_[outcome->target]);
    timers_[outcome->target] = {};
    ox_ids_.release(f.ox_id);
    apply(std::move(*outcome));
    next();
}

void LoginExchanges::timed_out(phy::AlPa target, std::uint16_t ox_id)
{
    timers_[target] = {};
    auto outcome = logins_.timed_out(target, ox_id);
    if (!outcome) return;
    ox_ids_.release(ox_id);
    ox_ids_.quarantine(ox_id);
    apply(std::move(*outcome));
    next();
}

// A target logged in (its held commands go) or logged out (FCP-2's implicit logout: its open exchanges
// and held commands fail with the reason).
void LoginExchanges::apply(TargetLogins::Outcome o)
{
    if (o.logout) {
        const std::vector<IoRequest*> ios = hooks_.end_exchanges_to(o.target);
        logins_.exchanges_failed(ios.size());
        for (IoRequest* io : ios) hooks_.abort(io, *o.logout);
        for (IoRequest* io : o.fail) hooks_.abort(io, *o.logout);
    }
    for (IoRequest* io : o.release) hooks_.submit(io);
}

}  // namespace fcal::hba
