// Loop speed benchmark: streams 2 KiB frames from one port to another on a loop of N L_Ports and
// prints frames per wall-clock second and kernel process activations per frame. By default the
// N-2 other ports are passive (folded into the hop delays, so the cost should not depend on N);
// --active makes them real L_Ports that are idle, which are simulated hop by hop.
// Each N runs in its own process, because SystemC elaborates once per process.
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <CLI/CLI.hpp>

#include "fcal/loop/loop.hpp"

using namespace fcal;

namespace {

// No SystemC banner, as in fcal-sim: SystemC 2.3.4 prints it from its own main(), before sc_main, unless
// SC_COPYRIGHT_MESSAGE is DISABLE, so a static initializer (run before any main) sets it. A value the
// user set is kept: SC_COPYRIGHT_MESSAGE=ENABLE brings the banner back.
const bool g_no_banner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;

class StreamingSink : public loop::PortUser {
public:
    explicit StreamingSink(loop::LPort& p) : port_(p) { p.set_user(this); }
    void frame_received(loop::FrameRef) override
    {
        ++frames;
        port_.release_buffer();
    }
    std::uint64_t frames = 0;

private:
    loop::LPort& port_;
};

// Keeps the sender's queue topped up so that it never runs dry.
class StreamingSource : public loop::PortUser {
public:
    StreamingSource(loop::LPort& p, phy::AlPa dest) : port_(p), dest_(dest)
    {
        p.set_user(this);
        for (int i = 0; i < 8; ++i) queue_one();
    }
    void frame_received(loop::FrameRef) override {}
    void frame_sent(const loop::LoopFrame&) override { queue_one(); }

private:
    void queue_one()
    {
        auto f = kernel::make_ref<loop::LoopFrame>();
        f->source = port_.al_pa();
        f->destination = dest_;
        f->payload_bytes = 2048;
        port_.queue_frame(f);
    }
    loop::LPort& port_;
    phy::AlPa dest_;
};

int run_one(unsigned nodes, bool active, double sim_ms)
{
    loop::LoopConfig cfg;
    cfg.rate = phy::LineRate::G2;
    auto node = [](phy::AlPa a, unsigned buffers) {
        loop::LoopNode n;
        n.port.al_pa = a;
        n.port.incoming_buffers = buffers;
        return n;
    };
    cfg.nodes.push_back(node(0x01, 3));
    for (unsigned i = 0; i + 2 < nodes; ++i) {
        // loop_IDs other than 1 (0xE8, the sink) and 125 (0x01, the source)
        loop::LoopNode n = node(phy::al_pa_of_loop_id(i == 0 ? 0 : i + 1), 2);
        n.passive = !active;
        cfg.nodes.push_back(n);
    }
    cfg.nodes.push_back(node(0xE8, 2));
    loop::Loop loop("loop", cfg);
    StreamingSource source(*loop.find(0x01), 0xE8);
    StreamingSink sink(*loop.find(0xE8));
    std::vector<std::unique_ptr<StreamingSink>> idle;
    if (active)
        for (std::size_t i = 0; i < loop.port_count(); ++i)
            if (loop.port(i).al_pa() != 0x01 && loop.port(i).al_pa() != 0xE8)
                idle.push_back(std::make_unique<StreamingSink>(loop.port(i)));

    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start(sc_core::sc_time(sim_ms, sc_core::SC_MS));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double frames = static_cast<double>(sink.frames);
    std::printf("%-8s %5u %10.0f %12.0f %10.1f %9.1f %9.2f\n", active ? "active" : "passive", nodes, frames,
                frames / wall, static_cast<double>(loop.activations()) / frames,
                frames * 2048 / (sim_ms * 1e-3) / 1e6, sim_ms * 1e-3 / wall);
    return 0;
}

}  // namespace

int sc_main(int argc, char* argv[])
{
    CLI::App app{"fcal-loop-bench: loop simulation speed, 2 KiB frames streamed between two ports"};
    std::vector<unsigned> counts{2, 17, 126};
    bool active = false;
    double sim_ms = 200;
    app.add_option("--nodes", counts, "loop sizes to try (all L_Ports, 2..126)")->capture_default_str()->check(CLI::Range(2, 126));
    app.add_flag("--active", active, "make the other ports idle L_Ports instead of passive repeaters");
    app.add_option("--sim-ms", sim_ms, "simulated time per run in ms")->capture_default_str()->check(CLI::PositiveNumber);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    std::printf("%-8s %5s %10s %12s %10s %9s %9s\n", "ports", "N", "frames", "frames/s", "events/fr", "MB/s", "x_real");
    std::fflush(stdout);
    for (unsigned n : counts) {
        const pid_t pid = fork();
        if (pid == 0) {
            const int rc = run_one(n, active, sim_ms);
            std::fflush(stdout);
            _exit(rc);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    }
    return 0;
}
