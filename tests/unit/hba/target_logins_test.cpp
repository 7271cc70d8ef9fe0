// TargetLogins (docs/hba.md, "Logins"): the login state per target, driven by hand with the replies
// a target would send. SystemC-free.
#include <catch2/catch.hpp>

#include "fcal/fcp/extended_link_service.hpp"
#include "fcal/hba/target_logins.hpp"

using namespace fcal;
using namespace fcal::hba;

namespace {

constexpr phy::AlPa kInitiator = 0x01;

IoRequest io_for(phy::AlPa target)
{
    IoRequest io;
    io.target = target;
    return io;
}

// Builds and "sends" the next ELS; returns its request frame.
fcp::FcFrame send_next(TargetLogins& logins, std::uint16_t ox_id)
{
    auto r = logins.next();
    REQUIRE(r);
    logins.sent(r->target, r->serial, ox_id);
    return fcp::fc_frame_of(*fcp::make_els_request(r->command, kInitiator, r->target, ox_id, 0x10, 0x10));
}

fcp::FcFrame accept(const fcp::FcFrame& request, std::uint64_t name)
{
    return fcp::fc_frame_of(*fcp::make_ls_acc(request, name, name));
}

}  // namespace

TEST_CASE("target_logins: without logins at start every target is logged in until an initialization")
{
    TargetLogins logins(true);
    IoRequest io = io_for(0xE8);
    CHECK(logins.admit(&io) == TargetLogins::Gate::Go);
    CHECK_FALSE(logins.active());
    CHECK_FALSE(logins.next());
}

TEST_CASE("target_logins: at start commands wait for PLOGI then PRLI, targets in loop order, each one ELS at a time")
{
    TargetLogins logins(false);
    IoRequest a = io_for(0xE8), b = io_for(0xEF);
    CHECK(logins.admit(&a) == TargetLogins::Gate::Wait);
    CHECK(logins.state(0xE8) == LoginState::NotLoggedIn);
    CHECK(logins.loop_initialized({0xEF, 0xE8}).empty());
    // Both targets' PLOGIs, in loop order; nothing more until a reply.
    const fcp::FcFrame p1 = send_next(logins, 1);
    const fcp::FcFrame p2 = send_next(logins, 2);
    CHECK(p1.d_id == 0xEF);
    CHECK(p1.els.command == fcp::ElsCommand::Plogi);
    CHECK(p2.d_id == 0xE8);
    CHECK_FALSE(logins.next());
    CHECK(logins.state(0xE8) == LoginState::PlogiSent);
    CHECK(logins.admit(&b) == TargetLogins::Gate::Wait);

    auto o = logins.reply(accept(p2, 0xAAA));
    REQUIRE(o);
    CHECK(o->release.empty());
    const fcp::FcFrame prli = send_next(logins, 3);
    CHECK(prli.d_id == 0xE8);
    CHECK(prli.els.command == fcp::ElsCommand::Prli);
    CHECK(logins.state(0xE8) == LoginState::PrliSent);
    o = logins.reply(accept(prli, 0xAAA));
    REQUIRE(o);
    CHECK(o->release == std::vector<IoRequest*>{&a});
    CHECK(logins.state(0xE8) == LoginState::LoggedIn);
    CHECK(logins.admit(&a) == TargetLogins::Gate::Go);
    // A reply nobody waits for is late.
    CHECK_FALSE(logins.reply(accept(prli, 0xAAA)));

    nlohmann::json j;
    logins.report(j);
    CHECK(j["logins"]["plogi"] == 2);
    CHECK(j["logins"]["prli"] == 1);
    CHECK(j["logins"]["late_replies"] == 1);
    CHECK(j["logins"]["commands_held"] == 2);
}

TEST_CASE("target_logins: after a re-initialization logged-in targets are re-validated with ADISC, absent ones logged out, joining ones log in")
{
    TargetLogins logins(true);
    IoRequest a = io_for(0xE8), b = io_for(0xE4), c = io_for(0xE4), d = io_for(0xE2);
    CHECK(logins.admit(&a) == TargetLogins::Gate::Go);
    CHECK(logins.admit(&b) == TargetLogins::Gate::Go);
    // First initialization: 0xE4 left; 0xE2, on the loop from the start, counts as logged in before the run.
    auto out = logins.loop_initialized({0xE8, 0xE2});
    REQUIRE(out.size() == 1);
    CHECK(out[0].target == 0xE4);
    CHECK(*out[0].logout == "target 0xE4 left the loop");
    CHECK(logins.admit(&c) == TargetLogins::Gate::Fail);
    CHECK(logins.reason(0xE4) == "target 0xE4 left the loop");
    CHECK(logins.admit(&a) == TargetLogins::Gate::Wait);
    CHECK(logins.admit(&d) == TargetLogins::Gate::Wait);
    CHECK(logins.state(0xE2) == LoginState::AdiscPending);
    const fcp::FcFrame adisc = send_next(logins, 10);
    const fcp::FcFrame adisc2 = send_next(logins, 11);
    CHECK(adisc.d_id == 0xE8);
    CHECK(adisc.els.command == fcp::ElsCommand::Adisc);
    CHECK(adisc2.d_id == 0xE2);
    auto o = logins.reply(accept(adisc, 0x123));
    REQUIRE(o);
    CHECK(o->release == std::vector<IoRequest*>{&a});
    CHECK_FALSE(o->logout);
    CHECK(logins.reply(accept(adisc2, 0x456))->release == std::vector<IoRequest*>{&d});

    // Second: 0xE2 left, 0xE4 came back and 0xDA joined: they log in; 0xE8 must answer with the same name.
    out = logins.loop_initialized({0xE8, 0xE4, 0xDA});
    REQUIRE(out.size() == 1);
    CHECK(*out[0].logout == "target 0xE2 left the loop");
    const fcp::FcFrame again = send_next(logins, 12);
    CHECK(again.els.command == fcp::ElsCommand::Adisc);
    CHECK(send_next(logins, 13).els.command == fcp::ElsCommand::Plogi);
    const fcp::FcFrame join = send_next(logins, 14);
    CHECK(join.d_id == 0xDA);
    CHECK(join.els.command == fcp::ElsCommand::Plogi);
    o = logins.reply(accept(again, 0x999));
    REQUIRE(o);
    CHECK(*o->logout == "target 0xE8 is another port after the initialization (ADISC)");
    CHECK(send_next(logins, 15).els.command == fcp::ElsCommand::Plogi);

    nlohmann::json j;
    logins.report(j);
    CHECK(j["logins"]["adisc"] == 3);
    CHECK(j["logins"]["plogi"] == 3);
    CHECK(j["logins"]["logouts"] == 3);  // 0xE4, 0xE2, 0xE8
    CHECK(j["logins"]["commands_failed"] == 1);
}

TEST_CASE("target_logins: a rejected or unanswered login logs the target out and fails its held commands")
{
    TargetLogins logins(false);
    IoRequest a = io_for(0xE8), b = io_for(0xEF);
    logins.admit(&a);
    logins.admit(&b);
    logins.loop_initialized({0xE8, 0xEF});
    const fcp::FcFrame to_e8 = send_next(logins, 1);
    const fcp::FcFrame to_ef = send_next(logins, 2);
    auto o = logins.reply(fcp::fc_frame_of(*fcp::make_ls_rjt(to_e8, fcp::kLsRjtUnableToPerform)));
    REQUIRE(o);
    CHECK(*o->logout == "target 0xE8 rejected PLOGI (LS_RJT reason 0x09)");
    CHECK(o->fail == std::vector<IoRequest*>{&a});
    CHECK_FALSE(logins.timed_out(0xEF, 99));  // not its OX_ID
    o = logins.timed_out(0xEF, to_ef.ox_id);
    REQUIRE(o);
    CHECK(*o->logout == "target 0xEF did not answer PLOGI");
    CHECK(o->fail == std::vector<IoRequest*>{&b});
    // A target never on the loop: commands fail at once.
    IoRequest c = io_for(0xD9);
    CHECK(logins.admit(&c) == TargetLogins::Gate::Fail);
    CHECK(logins.reason(0xD9) == "target 0xD9 is not on the loop");
    // The next initialization tries the logged-out targets on the loop again.
    logins.loop_initialized({0xE8});
    CHECK(send_next(logins, 5).els.command == fcp::ElsCommand::Plogi);
}

TEST_CASE("target_logins: an unanswered ELS is sent again els_retries times, each ELS with its own count")
{
    TargetLogins logins(false, 2);
    IoRequest a = io_for(0xE8);
    logins.admit(&a);
    logins.loop_initialized({0xE8});
    fcp::FcFrame plogi = send_next(logins, 1);
    // Two timeouts: PLOGI goes again each time, the held command stays held.
    for (std::uint16_t ox_id = 2; ox_id <= 3; ++ox_id) {
        auto o = logins.timed_out(0xE8, plogi.ox_id);
        REQUIRE(o);
        CHECK_FALSE(o->logout);
        CHECK(o->fail.empty());
        CHECK(logins.state(0xE8) == LoginState::PlogiSent);
        plogi = send_next(logins, ox_id);
        CHECK(plogi.els.command == fcp::ElsCommand::Plogi);
    }
    // Answered at the third try: PRLI has retries of its own.
    CHECK_FALSE(logins.reply(accept(plogi, 0x20))->logout);
    fcp::FcFrame prli = send_next(logins, 4);
    CHECK(prli.els.command == fcp::ElsCommand::Prli);
    CHECK_FALSE(logins.timed_out(0xE8, prli.ox_id)->logout);
    prli = send_next(logins, 5);
    CHECK_FALSE(logins.timed_out(0xE8, prli.ox_id)->logout);
    prli = send_next(logins, 6);
    // The third PRLI unanswered: retries spent, the target is logged out.
    auto o = logins.timed_out(0xE8, prli.ox_id);
    REQUIRE(o);
    CHECK(*o->logout == "target 0xE8 did not answer PRLI");
    CHECK(o->fail == std::vector<IoRequest*>{&a});
    CHECK_FALSE(logins.next());

    nlohmann::json j;
    logins.report(j);
    CHECK(j["logins"]["plogi"] == 3);
    CHECK(j["logins"]["prli"] == 3);
    CHECK(j["logins"]["els_timeouts"] == 5);
    CHECK(j["logins"]["els_retries"] == 4);
}

TEST_CASE("target_logins: an initialization or loss of signal abandons the ELS under way")
{
    TargetLogins logins(false);
    IoRequest a = io_for(0xE8);
    logins.admit(&a);
    logins.loop_initialized({0xE8});
    const fcp::FcFrame first = send_next(logins, 7);
    CHECK(logins.abandon() == std::vector<std::uint16_t>{7});
    CHECK_FALSE(logins.reply(accept(first, 1)));
    CHECK(logins.take_held() == std::vector<IoRequest*>{&a});
    CHECK(logins.held() == 0);
}

TEST_CASE("target_logins: a held command that waited out the exchange timeout is no longer held, once")
{
    TargetLogins logins(false);
    IoRequest a = io_for(0xE8), b = io_for(0xE8), c = io_for(0xEF);
    CHECK(logins.admit(&a) == TargetLogins::Gate::Wait);
    CHECK(logins.admit(&b) == TargetLogins::Gate::Wait);
    CHECK(logins.admit(&c) == TargetLogins::Gate::Wait);
    CHECK(logins.drop_held(&a));
    CHECK_FALSE(logins.drop_held(&a));  // a second deadline for it finds nothing
    CHECK(logins.held() == 2);
    // The others still go when their target logs in; `a` does not.
    CHECK(logins.loop_initialized({0xE8}).size() == 1);  // 0xEF is not on the loop: its command fails
    const fcp::FcFrame plogi = send_next(logins, 1);
    REQUIRE(logins.reply(accept(plogi, 0xAAA)));
    const fcp::FcFrame prli = send_next(logins, 2);
    auto o = logins.reply(accept(prli, 0xAAA));
    REQUIRE(o);
    CHECK(o->release == std::vector<IoRequest*>{&b});
    CHECK_FALSE(logins.drop_held(&b));  // released: its deadline finds nothing

    nlohmann::json j;
    logins.report(j);
    CHECK(j["logins"]["commands_failed"] == 2);  // a (timeout) and c (not on the loop)
}
