// The Command-First Algorithm (docs/hba.md, "Command-First"; issue 5): FIFO policies, unfair command
// arbitration, preemptive command transfer, and the disks' fairness under it.
#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <sstream>

#include "fcal/fcp/fc_frame.hpp"
#include "fcal/hba/command_first_queue.hpp"
#include "loop_fixture.hpp"

using namespace fcal;
using hba::CommandFifo;
using hba::CommandFirst;
using hba::CommandFirstQueue;

namespace {

loop::OutgoingFrame frame(fcp::InformationUnit iu, phy::AlPa dest, std::uint16_t id, std::uint32_t payload = 2048)
{
    auto f = std::make_shared<fcp::FcFrame>();
    f->iu = iu;
    f->s_id = 0x01;
    f->d_id = dest;
    f->ox_id = id;
    f->payload_bytes = payload;
    return loop::OutgoingFrame{fcp::make_loop_frame(f)};
}
loop::OutgoingFrame cmnd(phy::AlPa dest, std::uint16_t id) { return frame(fcp::InformationUnit::Command, dest, id, 32); }
loop::OutgoingFrame data(phy::AlPa dest, std::uint16_t id) { return frame(fcp::InformationUnit::Data, dest, id); }

std::uint16_t id_of(const loop::OutgoingFrame& f) { return fcp::fc_frame_of(*f.frame).ox_id; }

// Drains the queue by always taking front() and returns the OX_IDs in order.
std::vector<std::uint16_t> drain(CommandFirstQueue& q)
{
    std::vector<std::uint16_t> out;
    while (!q.empty()) out.push_back(id_of(q.pop_for(q.front()->frame->destination)));
    return out;
}

}  // namespace

TEST_CASE("command-first FIFO policies put commands ahead of data and keep order within each class", "[hba][cmdf]")
{
    // Queued in this order: d1 c2 d3 c4 d5 c6 (d = data, c = command), all for one disk.
    for (CommandFifo policy : {CommandFifo::Off, CommandFifo::Reorder, CommandFifo::CommandQueue}) {
        CommandFirstQueue q(CommandFirst{policy, false, false});
        q.push(data(0xE8, 1));
        q.push(cmnd(0xE8, 2));
        q.push(data(0xE8, 3));
        q.push(cmnd(0xE8, 4));
        q.push(data(0xE8, 5));
        q.push(cmnd(0xE8, 6));
        INFO("policy " << static_cast<int>(policy));
        if (policy == CommandFifo::Off)
            CHECK(drain(q) == std::vector<std::uint16_t>{1, 2, 3, 4, 5, 6});
        else
            CHECK(drain(q) == std::vector<std::uint16_t>{2, 4, 6, 1, 3, 5});
    }
}

TEST_CASE("command-first FIFO: would_tell says when a push tells the port, and a data frame behind others never does", "[hba][cmdf]")
{
    // Random pushes and pops of data, commands and other frames for four disks under each policy:
    // a push that calls the head listener must have been announced by would_tell() before it (the
    // port leaves a frame handed over ahead aside on its word: docs/loop.md, "Frames handed over
    // ahead"; announcing one that then tells nothing only costs a wake), and for a data frame the
    // answer is exact: one queued behind a frame for its own disk tells nothing (counted).
    std::mt19937 rng(5);
    for (CommandFifo policy : {CommandFifo::Off, CommandFifo::Reorder, CommandFifo::CommandQueue}) {
        CommandFirstQueue q(CommandFirst{policy, false, false}, hba::FifoDepths{12, 4});
        bool told = false;
        q.set_head_listener([&] { told = true; });
        std::uint16_t id = 0;
        std::size_t quiet_data = 0;
        for (int step = 0; step < 4000; ++step) {
            const phy::AlPa dests[] = {0xE8, 0xE4, 0xE2, 0xE1};
            const phy::AlPa dest = dests[rng() % 4];
            const unsigned what = rng() % 8;
            if (what < 5) {
                const loop::OutgoingFrame f = what < 3   ? data(dest, ++id)
                                              : what < 4 ? cmnd(dest, ++id)
                                                         : frame(fcp::InformationUnit::Abts, dest, ++id, 0);
                if (!q.can_push(f.frame_class())) continue;
                const bool predicted = q.would_tell(f);
                const bool is_data = f.frame_class() == loop::FrameClass::Data;
                told = false;
                q.push(f);
                INFO("policy " << static_cast<int>(policy) << " step " << step);
                if (told) CHECK(predicted);
                if (is_data) CHECK(told == predicted);
                if (is_data && !predicted) ++quiet_data;
            } else if (!q.empty()) {
                // The open peer's next frame, or the head's destination.
                q.pop_for(q.front_for(dest) ? dest : q.front()->frame->destination);
            }
        }
        CHECK(quiet_data > 100);
    }
}

TEST_CASE("command-first FIFO: a command queued later still overtakes data queued earlier", "[hba][cmdf]")
{
    for (CommandFifo policy : {CommandFifo::Reorder, CommandFifo::CommandQueue}) {
        CommandFirstQueue q(CommandFirst{policy, false, false});
        q.push(data(0xE8, 1));
        q.push(data(0xE4, 2));
        CHECK(id_of(q.pop_for(0xE8)) == 1);  // one data frame left
        q.push(cmnd(0xE2, 3));
        q.push(data(0xE8, 4));
        q.push(cmnd(0xE1, 5));
        CHECK(id_of(*q.front()) == 3);
        CHECK(id_of(*q.front_for(0xE8)) == 4);  // per destination: still the oldest for it
        CHECK(drain(q) == std::vector<std::uint16_t>{3, 5, 2, 4});
    }
}

TEST_CASE("only commands are marked unfair and only by the levels that are on", "[hba][cmdf]")
{
    for (bool arb : {false, true})
        for (bool pre : {false, true}) {
            CommandFirstQueue q(CommandFirst{CommandFifo::CommandQueue, arb, pre});
            q.push(data(0xE8, 1));
            q.push(cmnd(0xE4, 2));
            const auto* c = q.front();
            CHECK(c->arbitrate_unfairly == arb);
            CHECK(c->transfer_unfairly == pre);
            const auto* d = q.front_for(0xE8);
            CHECK_FALSE(d->arbitrate_unfairly);
            CHECK_FALSE(d->transfer_unfairly);
            // Preemption: only with the level on and a command for another disk at the head.
            CHECK(q.preempt(0xE8) == pre);
            CHECK_FALSE(q.preempt(0xE4));
        }
    CommandFirstQueue only_data(CommandFirst{CommandFifo::CommandQueue, true, true});
    only_data.push(data(0xE8, 1));
    only_data.push(data(0xE4, 2));
    CHECK_FALSE(only_data.preempt(0xE8));
}

namespace {

// A controller endpoint with the command-first queue that records, whenever it starts to
// arbitrate, whether ACCESS allowed it and what was at the head of its queue.
struct Controller : test::Endpoint {
    Controller(loop::LPort& p, const CommandFirst& c) : Endpoint(p)
    {
        // Deep enough for every frame the tests queue: capacity is not what they are about.
        p.set_transmit_queue(std::make_unique<CommandFirstQueue>(c, hba::FifoDepths{1024, 1024}));
    }
    void state_changed(loop::LpsmState from, loop::LpsmState to) override
    {
        Endpoint::state_changed(from, to);
        // Only a start from MONITORING: a port opened while arbitrating resumes its arbitration after the
        // circuit, which is not a new start.
        if (to == loop::LpsmState::Arbitrating && from == loop::LpsmState::Monitoring && !port_.access()) {
            ++unfair_starts;
            if (!CommandFirstQueue::is_command(*port_.transmit_queue().front())) ++unfair_without_command;
        }
    }
    void queue(loop::OutgoingFrame f) { port_.queue_frame(std::move(f)); }
    unsigned unfair_starts = 0, unfair_without_command = 0;
};

}  // namespace

namespace {

struct UnfairCount {
    unsigned starts, without_command;
    std::uint64_t without_access;
};

// Three fair disks keep wanting the loop; the controller, fair, has data for one disk and commands
// for the others, queued at intervals so that some find ACCESS clear.
UnfairCount mixed_traffic(const CommandFirst& policy)
{
    auto l = test::make_loop("loop", {test::active_node(0x01, 3), test::active_node(0xE8, 2), test::active_node(0xE4, 2),
                                      test::active_node(0xE2, 2)});
    Controller ctl(*l->find(0x01), policy);
    test::Endpoint d1(*l->find(0xE8)), d2(*l->find(0xE4)), d3(*l->find(0xE2));
    for (auto* d : {&d1, &d2, &d3}) d->request_circuits(0x01, 40);
    std::uint16_t id = 1;
    for (int round = 0; round < 20; ++round) {
        for (int k = 0; k < 3; ++k) ctl.queue(data(0xE8, id++));
        ctl.queue(cmnd(round % 2 ? 0xE4 : 0xE2, id++));
        sc_core::sc_start(23, sc_core::SC_US);
    }
    sc_core::sc_start(2, sc_core::SC_MS);
    return {ctl.unfair_starts, ctl.unfair_without_command, ctl.port_.stats().arbitrations_without_access};
}

}  // namespace

TEST_CASE("unfair arbitration happens only with a command at the head", "[hba][cmdf]")
{
    const UnfairCount n = mixed_traffic(CommandFirst{CommandFifo::CommandQueue, true, false});
    CHECK(n.starts > 0);               // the level was used...
    CHECK(n.without_command == 0);     // ...and only ever for a command
    CHECK(n.starts == n.without_access);
}

TEST_CASE("without command-first arbitration a fair controller never arbitrates without ACCESS", "[hba][cmdf]")
{
    const UnfairCount n = mixed_traffic(CommandFirst{CommandFifo::CommandQueue, false, false});
    CHECK(n.starts == 0);
    CHECK(n.without_access == 0);
}

TEST_CASE("preemption shows OPEN then CLS then TRANSFER then OPN in the port-watcher trace", "[hba][cmdf]")
{
    // The controller streams write data to 0xE8, which has one buffer (so each frame waits for an
    // R_RDY); a command for 0xE4 arrives meanwhile. The controller closes its circuit with data
    // left, opens 0xE4 through TRANSFER without arbitrating, and sends the data later.
    std::ostringstream text;
    loop::PortWatcher watcher(text);
    auto l = test::make_loop("loop", {test::active_node(0x01, 3), test::active_node(0xE8, 1), test::active_node(0xE4, 2)});
    Controller ctl(*l->find(0x01), CommandFirst{CommandFifo::CommandQueue, true, true});
    test::Endpoint a(*l->find(0xE8)), b(*l->find(0xE4));
    ctl.port_.set_watcher(&watcher);
    for (std::uint16_t i = 1; i <= 10; ++i) ctl.queue(data(0xE8, i));
    sc_core::sc_start(15, sc_core::SC_US);
    ctl.queue(cmnd(0xE4, 99));
    sc_core::sc_start(1, sc_core::SC_MS);

    const auto lines = test::parse_trace(text.str());
    // The first CLS sent from OPEN, then what follows it.
    std::size_t cls = lines.size();
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].to == "CLS" && lines[i].state == "OPEN") {
            cls = i;
            break;
        }
    REQUIRE(cls < lines.size());
    std::size_t opn = cls;
    while (opn < lines.size() && lines[opn].to.rfind("OPN", 0) != 0) ++opn;
    REQUIRE(opn < lines.size());
    CHECK(lines[opn].to == "OPN(E4,E4)");
    CHECK(lines[opn].state == "TRANSFER");
    for (std::size_t i = cls; i < opn; ++i) CHECK(lines[i].to.rfind("ARB(01)", 0) != 0);  // no arbitration in between
    CHECK(ctl.port_.stats().preemptions == 1);
    CHECK(ctl.port_.stats().transfers >= 1);
    CHECK(b.received.size() == 1);
    CHECK(a.received.size() == 10);  // the interrupted data went on later
    // The CLS came while frames for 0xE8 remained: count the data frames sent before it.
    unsigned before = 0;
    for (std::size_t i = 0; i < cls; ++i)
        if (lines[i].to.rfind("SOF", 0) == 0) ++before;
    CHECK(before < 10);
}

TEST_CASE("a fair controller under CMDF still lets every arbitrating disk have its turn", "[hba][cmdf]")
{
    // Three fair disks each want the loop 6 times; the controller issues commands all along with
    // every Command-First level on, jumping the queue. Fairness among the disks must survive: no
    // disk wins twice while another disk is arbitrating the whole time in between (an arbitrating
    // port replaces ARB(F0), so no IDLE can reopen the window for the first disk).
    auto l = test::make_loop("loop", {test::active_node(0x01, 3), test::active_node(0xE8, 2), test::active_node(0xE4, 2),
                                      test::active_node(0xE2, 2), test::active_node(0xE1, 2)});
    Controller ctl(*l->find(0x01), CommandFirst{CommandFifo::CommandQueue, true, true});
    test::Endpoint d1(*l->find(0xE8)), d2(*l->find(0xE4)), d3(*l->find(0xE2)), sink(*l->find(0xE1));
    std::vector<test::Endpoint*> disks{&d1, &d2, &d3};
    for (auto* d : disks) d->request_circuits(0xE1, 6);
    std::uint16_t id = 1;
    for (int round = 0; round < 30; ++round) {
        ctl.queue(cmnd(0xE1, id++));
        sc_core::sc_start(7, sc_core::SC_US);
    }
    sc_core::sc_start(2, sc_core::SC_MS);

    // Each disk's arbitrating stretches: from entering ARBITRATING to winning.
    auto stretches = [](const test::Endpoint& e) {
        std::vector<std::pair<double, double>> out;
        double since = -1;
        for (const auto& c : e.states) {
            if (c.to == loop::LpsmState::Arbitrating) since = c.t_ns;
            if (c.to == loop::LpsmState::ArbitrationWon && since >= 0) {
                out.push_back({since, c.t_ns});
                since = -1;
            }
        }
        return out;
    };
    unsigned checked = 0;
    for (auto* x : disks) {
        REQUIRE(x->wins.size() == 6);
        for (std::size_t k = 1; k < x->wins.size(); ++k)
            for (auto* y : disks) {
                if (y == x) continue;
                for (const auto& [from, won] : stretches(*y)) {
                    ++checked;
                    INFO(std::hex << unsigned(x->port_.al_pa()) << " won at " << x->wins[k - 1] << " and " << x->wins[k] << " ns while "
                                  << unsigned(y->port_.al_pa()) << " arbitrated from " << from << " to " << won << " ns");
                    CHECK_FALSE((from < x->wins[k - 1] && won > x->wins[k]));
                }
            }
    }
    CHECK(checked > 0);
    CHECK(ctl.port_.stats().arbitrations_without_access > 0);  // the controller did jump the queue
    CHECK(sink.received.size() == 18 + 30);
}
