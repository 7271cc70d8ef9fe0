// Alternative buffer-to-buffer credit and FC-2 word spacing (docs/loop.md, "Alternative BB
// credit", "Word spacing"), read from the
// port watcher's trace and the ports' counters.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {
constexpr unsigned kPayload = 64;
constexpr double kFrameWords = 1 + 6 + kPayload / 4 + 1 + 1;  // SOF, header, payload, CRC, EOF
bool is_fill(const std::string& w) { return w == "IDLE" || w.rfind("ARB", 0) == 0; }
}  // namespace

TEST_CASE("login credit is used first and the R_RDYs that repay it are discarded", "[loop][credit]")
{
    // Receiver: 2 buffers, Login_BB_Credit 2. On OPENED it returns an R_RDY for each of its two
    // free buffers; those repay the login credit the sender already used, so the third frame has to
    // wait for the R_RDY sent when the first frame's buffer is freed: L + RT after the first frame
    // started. Without the discard it could follow the second frame back to back.
    std::ostringstream text;
    loop::PortWatcher watcher(text);
    auto l = test::make_loop("loop", {test::active_node(0x01), test::active_node(0xE8, 2, 2)}, 120.0);
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8));
    a.port_.set_watcher(&watcher);
    a.send(0xE8, 3, kPayload);
    sc_core::sc_start(1, sc_core::SC_MS);

    const double wt = test::word_ns(*l), rt = test::rt_ns(*l);
    REQUIRE(rt > (2 * kFrameWords + 12) * wt);  // the test needs a round trip longer than two frames
    std::vector<double> sof;
    double opn = -1;
    for (const auto& t : test::parse_trace(text.str())) {
        if (t.to.rfind("SOF", 0) == 0) sof.push_back(t.t_ns);
        if (t.to.rfind("OPN", 0) == 0) opn = t.t_ns;
    }
    REQUIRE(sof.size() == 3);
    // Frames 1 and 2 on login credit: 2 fill words after OPN, then back to back.
    CHECK(sof[0] == Approx(opn + 3 * wt).margin(0.01));
    CHECK(sof[1] == Approx(sof[0] + (kFrameWords + 6) * wt).margin(0.01));
    // Frame 3 on the first R_RDY that was not discarded.
    CHECK(sof[2] == Approx(sof[0] + kFrameWords * wt + rt).margin(0.01));
    CHECK(b.port_.stats().r_rdys_sent == 5);      // 2 on opening + 1 as each frame was consumed
    CHECK(a.port_.stats().r_rdys_received == 5);  // 2 of them discarded, 1 used, 2 left over at CLS
    CHECK(b.received.size() == 3);
}

TEST_CASE("a slow receiver never gets a frame without a free buffer", "[loop][credit]")
{
    // The receiver consumes a frame only 20 us after it arrived; the sender must wait for R_RDYs.
    // A frame arriving without a free buffer is a protocol error, which fails the test.
    auto l = test::make_loop("loop", {test::active_node(0x01), test::active_node(0x72), test::active_node(0xE8, 2)});
    test::Endpoint a(*l->find(0x01)), mid(*l->find(0x72));
    test::SlowSink b("sink", *l->find(0xE8), sc_core::sc_time(20, sc_core::SC_US));
    a.send(0xE8, 10, 2048);
    sc_core::sc_start(5, sc_core::SC_MS);
    CHECK(b.received.size() == 10);
    CHECK(a.port_.stats().frames_sent == 10);
    CHECK(b.port_.free_buffers() == 2);
}

TEST_CASE("frames are at least 6 words apart and every primitive has 2 fill words either side", "[loop][spacing]")
{
    std::ostringstream text;
    loop::PortWatcher watcher(text);
    std::vector<loop::LoopNode> nodes{test::active_node(0x01, 3), test::active_node(0xE8, 2), test::active_node(0xE4, 1)};
    nodes[0].port.full_duplex = true;
    auto l = test::make_loop("loop", nodes);
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8)), c(*l->find(0xE4));
    for (auto* e : {&a, &b, &c}) e->port_.set_watcher(&watcher);
    a.send(0xE8, 6, kPayload);
    a.send(0xE4, 3, kPayload);
    b.send(0x01, 4, kPayload);  // full duplex: sent inside 0x01's circuit
    c.send(0xE8, 2, kPayload);
    sc_core::sc_start(1, sc_core::SC_MS);
    REQUIRE(b.received.size() == 8);

    const double wt = test::word_ns(*l);
    const auto lines = test::parse_trace(text.str());
    unsigned frames = 0, primitives = 0;
    for (unsigned port : {0x01u, 0xE8u, 0xE4u}) {
        std::vector<test::TraceLine> mine;
        for (const auto& t : lines)
            if (t.port == port) mine.push_back(t);
        double last_frame_end = -1e18;
        for (std::size_t i = 0; i < mine.size(); ++i) {
            const auto& t = mine[i];
            if (is_fill(t.to)) continue;
            // Only own words are checked; a port that repeats passes on its neighbour's spacing.
            if (t.state == "MONITORING" || t.state == "ARBITRATING") continue;
            const double before = t.t_ns - (i > 0 ? mine[i - 1].t_ns : -1e18);
            INFO("port " << std::hex << port << std::dec << " at " << t.t_ns << " ns: " << t.from << "=>" << t.to);
            if (t.to.rfind("SOF", 0) == 0) {
                ++frames;
                CHECK(t.t_ns - last_frame_end >= 6 * wt - 0.01);
                CHECK(is_fill(t.from));
                REQUIRE(i + 1 < mine.size());
                last_frame_end = mine[i + 1].t_ns;
                CHECK(std::abs(last_frame_end - t.t_ns - kFrameWords * wt) < 0.01);
            } else {
                ++primitives;
                // The word before was a fill word lasting at least 2 words, unless the port had
                // just come out of repeating (then the spacing before is its neighbour's).
                if (i > 0 && !is_fill(t.from)) FAIL("primitive right after a non-fill word");
                if (i > 1 && !is_fill(mine[i - 2].to) && mine[i - 2].state != "MONITORING" && mine[i - 2].state != "ARBITRATING")
                    CHECK(before >= 2 * wt - 0.01);
                // The next change ends the primitive after one word; the one after that is at least 2 words later.
                if (i + 2 < mine.size()) {
                    CHECK(mine[i + 1].t_ns - t.t_ns == Approx(wt).margin(0.01));
                    if (!is_fill(mine[i + 2].to)) CHECK(mine[i + 2].t_ns - mine[i + 1].t_ns >= 2 * wt - 0.01);
                }
            }
        }
    }
    CHECK(frames == 6 + 3 + 4 + 2);
    CHECK(primitives > 20);
}

TEST_CASE("the VCD shows each port's state, ACCESS, arbitration, word, credit and buffers", "[loop][vcd]")
{
    const std::string path = "loop_vcd_test";
    auto l = test::make_loop("loop", {test::active_node(0x01), test::active_node(0xE8)});
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8));
    sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(path.c_str());
    tf->set_time_unit(1, sc_core::SC_PS);
    for (std::size_t i = 0; i < l->port_count(); ++i) l->port(i).trace(tf);
    a.send(0xE8, 2);
    sc_core::sc_start(1, sc_core::SC_MS);
    sc_core::sc_close_vcd_trace_file(tf);
    std::ifstream in(path + ".vcd");
    std::stringstream all;
    all << in.rdbuf();
    // Dotted names become nested scopes in the VCD: loop > port_01 > lpsm_state ...
    const std::string vcd = all.str();
    const auto scope = vcd.find("$scope module port_01 $end");
    REQUIRE(scope != std::string::npos);
    for (const char* sig : {"lpsm_state", "access", "arbitrating", "tx_word", "credit", "free_buffers"}) {
        INFO(sig);
        CHECK(vcd.find(std::string(" ") + sig + " ", scope) != std::string::npos);
    }
    CHECK(vcd.find("$scope module port_E8 $end") != std::string::npos);
    CHECK(vcd.find("#") != std::string::npos);  // value changes were dumped
}
