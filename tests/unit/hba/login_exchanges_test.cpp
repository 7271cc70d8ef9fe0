// LoginExchanges (docs/hba.md, "Logins"): the initiator's ELS exchanges, driven by hand through a fake
// HBA that records what the hooks were asked to do, with the replies a target would send. No kernel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <utility>

#include "fcal/fcp/extended_link_service.hpp"
#include "fcal/hba/login_exchanges.hpp"

using namespace fcal;
using namespace fcal::hba;

namespace {

constexpr phy::AlPa kOwn = 0x01;
constexpr std::uint64_t kOwnName = 0x2100000000000001;

loop::LoopInitRecord record_with(const std::vector<phy::AlPa>& al_pas)
{
    loop::LoopInitRecord r;
    for (phy::AlPa a : al_pas) r.al_pas.push_back({"port", a, loop::AddressSource::Hard});
    return r;
}

// The HBA's side: what the hooks were asked for, in order.
struct FakeHba {
    TargetLogins logins{false};
    ExchangeIdPool ox_ids{16};
    loop::PortConfig own;
    bool up = true;
    std::vector<std::pair<phy::AlPa, std::uint64_t>> built;  // (target, serial), in the order asked
    std::vector<fcp::FcFrame> sent;
    std::set<std::uint32_t> running;  // timers by slot
    std::uint32_t next_slot = 0;
    std::vector<std::pair<phy::AlPa, std::uint16_t>> timer_of;  // by slot: (target, ox_id)
    std::vector<IoRequest*> open;                                // the HBA's open exchanges
    std::vector<std::pair<IoRequest*, std::string>> aborted;
    std::vector<IoRequest*> submitted;
    LoginExchanges els;

    FakeHba() : own(own_port()), els(logins, ox_ids, own, hooks()) {}

    static loop::PortConfig own_port()
    {
        loop::PortConfig p;
        p.al_pa = kOwn;
        p.init.port_name = kOwnName;
        return p;
    }

    LoginExchanges::Hooks hooks()
    {
        LoginExchanges::Hooks h;
        h.link_up = [this] { return up; };
        h.build = [this](phy::AlPa target, std::uint64_t serial) { built.emplace_back(target, serial); };
        h.transmit = [this](loop::FrameRef f) { sent.push_back(fcp::fc_frame_of(*f)); };
        h.start_timer = [this](phy::AlPa target, std::uint16_t ox_id) {
            running.insert(next_slot);
            timer_of.emplace_back(target, ox_id);
            return kernel::TimerHandle{next_slot++, 0};
        };
        h.cancel_timer = [this](kernel::TimerHandle t) { running.erase(t.slot); };
        h.end_exchanges_to = [this](phy::AlPa target) {
            std::vector<IoRequest*> ended;
            for (IoRequest* io : open)
                if (io->target == target) ended.push_back(io);
            open.erase(std::remove_if(open.begin(), open.end(), [target](IoRequest* io) { return io->target == target; }), open.end());
            return ended;
        };
        h.abort = [this](IoRequest* io, const std::string& reason) { aborted.emplace_back(io, reason); };
        h.submit = [this](IoRequest* io) { submitted.push_back(io); };
        return h;
    }

    // The processor finished building every ELS asked for so far: they go out.
    void build_all()
    {
        auto todo = std::move(built);
        built.clear();
        for (auto [target, serial] : todo) els.send(target, serial);
    }
    void accept(const fcp::FcFrame& request) { els.reply(fcp::fc_frame_of(*fcp::make_ls_acc(request, 0x50 + request.d_id, 0x50))); }
    void log_in(phy::AlPa target)
    {
        build_all();
        accept(sent.back());  // PLOGI
        build_all();
        accept(sent.back());  // PRLI
        REQUIRE(logins.state(target) == LoginState::LoggedIn);
    }
};

IoRequest io_for(phy::AlPa target, std::uint64_t id)
{
    IoRequest io;
    io.id = id;
    io.target = target;
    return io;
}

}  // namespace

TEST_CASE("login_exchanges: an initialization builds PLOGI for each other port in loop order, PRLI after each LS_ACC")
{
    FakeHba hba;
    IoRequest held = io_for(0xE8, 1);
    REQUIRE(hba.logins.admit(&held) == TargetLogins::Gate::Wait);
    hba.els.loop_initialized(record_with({0xEF, kOwn, 0xE8}));
    REQUIRE(hba.built.size() == 2);
    CHECK(hba.built[0].first == 0xEF);
    CHECK(hba.built[1].first == 0xE8);
    hba.build_all();
    REQUIRE(hba.sent.size() == 2);
    // Each its own exchange, from the HBA's port, with its own name, under a running exchange timeout.
    for (std::size_t i = 0; i < 2; ++i) {
        const fcp::FcFrame& f = hba.sent[i];
        CHECK(f.els.command == fcp::ElsCommand::Plogi);
        CHECK(f.s_id == kOwn);
        CHECK(f.d_id == (i == 0 ? 0xEFu : 0xE8u));
        CHECK(hba.ox_ids.open(f.ox_id));
        CHECK(hba.timer_of[i] == std::make_pair(static_cast<phy::AlPa>(f.d_id), f.ox_id));
    }
    CHECK(hba.sent[0].ox_id != hba.sent[1].ox_id);
    CHECK(hba.running.size() == 2);
    // LS_ACC to 0xE8's PLOGI: its timer stops, its OX_ID is free, and its PRLI is built.
    const fcp::FcFrame plogi_e8 = hba.sent[1];
    hba.accept(plogi_e8);
    CHECK(hba.running == std::set<std::uint32_t>{0});
    CHECK_FALSE(hba.ox_ids.open(plogi_e8.ox_id));
    REQUIRE(hba.built.size() == 1);
    CHECK(hba.built[0].first == 0xE8);
    hba.build_all();
    CHECK(hba.sent.back().els.command == fcp::ElsCommand::Prli);
    CHECK(hba.submitted.empty());
    // LS_ACC to PRLI: logged in, and the held command goes.
    hba.accept(hba.sent.back());
    CHECK(hba.logins.state(0xE8) == LoginState::LoggedIn);
    CHECK(hba.submitted == std::vector<IoRequest*>{&held});
    CHECK(hba.aborted.empty());
}

TEST_CASE("login_exchanges: no reply within the timeout logs the target out, and its held commands fail with the reason")
{
    FakeHba hba;
    IoRequest held = io_for(0xE8, 1);
    REQUIRE(hba.logins.admit(&held) == TargetLogins::Gate::Wait);
    hba.els.loop_initialized(record_with({kOwn, 0xE8}));
    hba.build_all();
    const fcp::FcFrame plogi = hba.sent.back();
    hba.running.clear();  // the timer expired
    hba.els.timed_out(0xE8, plogi.ox_id);
    CHECK(hba.logins.state(0xE8) == LoginState::LoggedOut);
    REQUIRE(hba.aborted.size() == 1);
    CHECK(hba.aborted[0] == std::make_pair(&held, std::string("target 0xE8 did not answer PLOGI")));
    // Its reply may still come: the OX_ID is kept out of use, and a late LS_ACC changes nothing.
    CHECK(hba.ox_ids.quarantined(plogi.ox_id));
    hba.accept(plogi);
    CHECK(hba.logins.state(0xE8) == LoginState::LoggedOut);
    CHECK(hba.built.empty());
    CHECK(hba.submitted.empty());
}

TEST_CASE("login_exchanges: a target gone at an initialization is logged out, its open exchanges and held commands fail")
{
    FakeHba hba;
    hba.els.loop_initialized(record_with({kOwn, 0xE8}));
    hba.log_in(0xE8);
    IoRequest a = io_for(0xE8, 1), b = io_for(0xE8, 2);
    hba.open = {&a, &b};
    hba.els.loop_initialized(record_with({kOwn}));
    CHECK(hba.open.empty());
    const std::string reason = "target 0xE8 left the loop";
    CHECK(hba.aborted == std::vector<std::pair<IoRequest*, std::string>>{{&a, reason}, {&b, reason}});
    nlohmann::json j;
    hba.logins.report(j);
    CHECK(j["logins"]["exchanges_failed"] == 2);
    CHECK(j["logins"]["logouts"] == 1);
}

TEST_CASE("login_exchanges: a new initialization abandons the ELS under way, and it is re-validated with ADISC")
{
    FakeHba hba;
    hba.els.loop_initialized(record_with({kOwn, 0xE8}));
    hba.log_in(0xE8);
    hba.els.loop_initialized(record_with({kOwn, 0xE8}));
    REQUIRE(hba.built.size() == 1);
    const std::uint64_t first_adisc = hba.built[0].second;
    hba.build_all();
    const fcp::FcFrame adisc = hba.sent.back();
    CHECK(adisc.els.command == fcp::ElsCommand::Adisc);
    CHECK(hba.running.size() == 1);
    // Another initialization before the LS_ACC: the ADISC is abandoned (timer stopped, OX_ID
    // quarantined) and a new one built; the old one's build, still coming, sends nothing.
    hba.els.loop_initialized(record_with({kOwn, 0xE8}));
    CHECK(hba.running.empty());
    CHECK(hba.ox_ids.quarantined(adisc.ox_id));
    REQUIRE(hba.built.size() == 1);
    const std::size_t sent = hba.sent.size();
    hba.els.send(0xE8, first_adisc);
    CHECK(hba.sent.size() == sent);
    hba.build_all();
    CHECK(hba.sent.size() == sent + 1);
    CHECK(hba.sent.back().els.command == fcp::ElsCommand::Adisc);
}

TEST_CASE("login_exchanges: with the link down nothing is built or sent, and abandon() stops every timer")
{
    FakeHba hba;
    hba.els.loop_initialized(record_with({kOwn, 0xE8, 0xEF}));
    REQUIRE(hba.built.size() == 2);
    const auto builds = hba.built;
    hba.els.send(builds[0].first, builds[0].second);
    REQUIRE(hba.sent.size() == 1);
    // The link goes down before the second one is built: it does not go out.
    hba.up = false;
    hba.els.send(builds[1].first, builds[1].second);
    CHECK(hba.sent.size() == 1);
    hba.els.abandon();
    CHECK(hba.running.empty());
    CHECK(hba.ox_ids.quarantined(hba.sent[0].ox_id));
    // An initialization heard while the link is down changes nothing.
    hba.els.loop_initialized(record_with({kOwn, 0xEF}));
    CHECK(hba.built == builds);
    CHECK(hba.aborted.empty());
}
