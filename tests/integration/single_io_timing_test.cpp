// A single I/O at queue depth 1 takes exactly the sum of the configured overheads, loop round trips
// and transfer times, computed here by hand from the model in docs/model.md (issue 4). Nothing below is
// taken from the simulator's output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"

using namespace fcal;

namespace {

struct Setup {
    const char* speed;
    double baud;
    unsigned nodes;
    double hop_m;
    std::uint32_t io_size;
    // overheads (us) and rates
    double i_cmd, i_xfer, i_sched, i_proc_ns, i_sft, i_dma_mbs;
    double t_cmd, t_rsp, t_sched, t_proc_ns, t_sft, t_dma_mbs;
    double arrival_us, completion_us;
    double access_ms, rate_mbs;
};

sim::SimConfig configure(const Setup& s, bool read)
{
    sim::ParameterTable t = sim::fcal_parameters();
    auto set = [&t](const char* k, double v) { t.set(k, std::to_string(v)); };
    t.set("loop.speed", s.speed);
    t.set("disk.count", "1");
    t.set("loop.nodes", std::to_string(s.nodes));
    set("loop.hop_m", s.hop_m);
    t.set("workload.io_size", std::to_string(s.io_size));
    t.set("workload.read_fraction", read ? "1" : "0");
    t.set("workload.measured_ios", "1");
    t.set("workload.warmup_ios", "0");
    set("initiator.cmd_exec_us", s.i_cmd);
    set("initiator.xfer_rdy_us", s.i_xfer);
    set("initiator.dma_sched_us", s.i_sched);
    set("initiator.frame_proc_ns", s.i_proc_ns);
    set("initiator.sft_us", s.i_sft);
    set("initiator.dma_mbs", s.i_dma_mbs);
    set("target.cmd_exec_us", s.t_cmd);
    set("target.rsp_gen_us", s.t_rsp);
    set("target.dma_sched_us", s.t_sched);
    set("target.frame_proc_ns", s.t_proc_ns);
    set("target.sft_us", s.t_sft);
    set("target.dma_mbs", s.t_dma_mbs);
    set("driver.arrival_us", s.arrival_us);
    set("driver.completion_us", s.completion_us);
    set("disk.access_ms", s.access_ms);
    set("disk.rate_mbs", s.rate_mbs);
    return sim::build_config(t);
}

// Everything in seconds.
struct Model {
    Setup s;
    double W, h, RT, p_it, p_ti;
    std::vector<double> payload;  // data frames' payload bytes

    explicit Model(const Setup& x) : s(x)
    {
        W = 40.0 / s.baud;                         // one transmission word
        h = 6 * W + s.hop_m * 5e-9;                // one hop: cable + the receiving port's 6-word delay
        RT = s.nodes * h;                          // loop round trip
        p_it = 1 * h;                              // controller at node 0, the disk at node 1
        p_ti = (s.nodes - 1) * h;
        for (std::uint32_t off = 0; off < s.io_size; off += 2048) payload.push_back(std::min<std::uint32_t>(2048, s.io_size - off));
    }
    static double L(double bytes) { return 1 + 6 + std::ceil(bytes / 4) + 1 + 1; }  // frame words
    double F(double bytes) const { return (L(bytes) + 6) * W; }                       // frame + minimum gap
    double us(double v) const { return v * 1e-6; }

    // FCP_CMND: driver, command execution, DMA of the description, then arbitration (1 RT) and
    // OPN/R_RDY (1 RT) on an idle loop; returns when the whole frame is at the disk's port.
    double command_at_target() const
    {
        const double queued = us(s.arrival_us) + us(s.i_cmd) + us(s.i_sched) + 32 / (s.i_dma_mbs * 1e6);
        return queued + 2 * RT + p_it + L(32) * W;
    }
    // One DMA channel, FCFS: job k starts when its frame has been processed and the previous job is
    // done; the first job of the transfer pays the scheduler overhead.
    static double dma_done(const std::vector<double>& ready, const std::vector<double>& bytes, double sched, double bw)
    {
        double t = 0;
        for (std::size_t k = 0; k < ready.size(); ++k) t = std::max(t, ready[k]) + (k == 0 ? sched : 0) + bytes[k] / bw;
        return t;
    }
    // Frames sent back to back from `first_sof`; returns each frame's SOF time.
    std::vector<double> back_to_back(double first_sof) const
    {
        std::vector<double> sof{first_sof};
        for (std::size_t k = 1; k < payload.size(); ++k) sof.push_back(sof.back() + F(payload[k - 1]));
        return sof;
    }

    double read() const
    {
        const double data_ready = command_at_target() + us(s.t_proc_ns / 1000) + us(s.t_sft) + us(s.t_cmd) + s.access_ms * 1e-3 +
                                  s.io_size / (s.rate_mbs * 1e6);
        const double bw_t = s.t_dma_mbs * 1e6;
        const double first_queued = data_ready + us(s.t_sched) + payload[0] / bw_t;
        double last_chunk = first_queued;
        for (std::size_t k = 1; k < payload.size(); ++k) last_chunk += payload[k] / bw_t;
        const auto sof = back_to_back(first_queued + 2 * RT);  // the disk arbitrates and opens the controller
        // Preconditions of "back to back": the controller's 3 buffers come back in time, and the
        // DMA keeps ahead of the loop.
        REQUIRE(L(2048) * W + RT + us(s.i_proc_ns / 1000) <= 3 * F(2048));
        REQUIRE(2048 / bw_t <= F(2048));
        const double last_end = sof.back() + L(payload.back()) * W;
        const double rsp_queued = last_chunk + us(s.t_rsp);
        REQUIRE(rsp_queued <= last_end);  // so FCP_RSP follows in the same circuit
        const double rsp_sof = last_end + 6 * W;
        const double rsp_at_ctl = rsp_sof + p_ti + L(24) * W;
        // The controller's DMA of the data, frame by frame, before the FCP_RSP's single frame transfer.
        std::vector<double> ready;
        for (std::size_t k = 0; k < sof.size(); ++k) ready.push_back(sof[k] + p_ti + L(payload[k]) * W + us(s.i_proc_ns / 1000));
        const double data_in_memory = dma_done(ready, payload, us(s.i_sched), s.i_dma_mbs * 1e6);
        const double rsp_start = std::max(rsp_at_ctl + us(s.i_proc_ns / 1000), data_in_memory);
        return rsp_start + us(s.i_sft) + us(s.completion_us);
    }

    double write() const
    {
        const double xfer_rdy_queued = command_at_target() + us(s.t_proc_ns / 1000) + us(s.t_sft) + us(s.t_cmd) + us(s.t_rsp);
        const double xfer_rdy_at_ctl = xfer_rdy_queued + 2 * RT + p_ti + L(12) * W;
        const double bw_i = s.i_dma_mbs * 1e6;
        const double first_queued = xfer_rdy_at_ctl + us(s.i_proc_ns / 1000) + us(s.i_xfer) + us(s.i_sched) + payload[0] / bw_i;
        REQUIRE(L(2048) * W + RT + us(s.t_proc_ns / 1000) <= 2 * F(2048));  // the disk's 2 buffers suffice
        REQUIRE(2048 / bw_i <= F(2048));
        const auto sof = back_to_back(first_queued + 2 * RT);
        std::vector<double> ready;
        for (std::size_t k = 0; k < sof.size(); ++k) ready.push_back(sof[k] + p_it + L(payload[k]) * W + us(s.t_proc_ns / 1000));
        const double in_buffer = dma_done(ready, payload, us(s.t_sched), s.t_dma_mbs * 1e6);
        const double on_medium = in_buffer + s.access_ms * 1e-3 + s.io_size / (s.rate_mbs * 1e6);
        const double rsp_queued = on_medium + us(s.t_rsp);
        const double rsp_at_ctl = rsp_queued + 2 * RT + p_ti + L(24) * W;
        return rsp_at_ctl + us(s.i_proc_ns / 1000) + us(s.i_sft) + us(s.completion_us);
    }
};

// The baseline's overheads on a 2-node 2GFC loop, 64 KiB.
const Setup kBaseline{"2GFC", 2.125e9, 2, 2.0, 65536, 43.9, 11.8, 15.5, 400, 20.2, 1064, 47.4, 10.3, 15.5, 400, 20.2, 1064, 0, 0, 2.0, 50};
// Other numbers everywhere: 4GFC, 8 nodes of 10 m, 5000 bytes (a short last frame), driver times.
const Setup kOther{"4GFC", 4.25e9, 8, 10.0, 5000, 30.0, 7.0, 9.0, 250, 12.0, 800, 25.0, 2.0, 11.0, 300, 14.0, 900, 3.5, 1.5, 0.5, 80};

double measured_response_s(const sim::SimConfig& c)
{
    sim::StorageSystem system("system", c);
    const sim::RunResult r = system.run();
    REQUIRE(r.end == sim::RunEnd::Completed);
    const auto res = system.results();
    REQUIRE(res["measured_ios"].get<std::uint64_t>() == 1);
    return res["max_response_us"].get<double>() * 1e-6;
}

}  // namespace

TEST_CASE("single read at queue depth 1 with the baseline overheads takes the hand-computed time", "[integration][timing]")
{
    const Model m(kBaseline);
    const double expected = m.read();
    const double measured = measured_response_s(configure(kBaseline, true));
    INFO("expected " << expected * 1e6 << " us, measured " << measured * 1e6 << " us");
    CHECK(std::abs(measured - expected) <= m.W);
}

TEST_CASE("single write at queue depth 1 with the baseline overheads takes the hand-computed time", "[integration][timing]")
{
    const Model m(kBaseline);
    const double expected = m.write();
    const double measured = measured_response_s(configure(kBaseline, false));
    INFO("expected " << expected * 1e6 << " us, measured " << measured * 1e6 << " us");
    CHECK(std::abs(measured - expected) <= m.W);
}

TEST_CASE("single read in a second configuration takes the hand-computed time", "[integration][timing]")
{
    const Model m(kOther);
    const double expected = m.read();
    const double measured = measured_response_s(configure(kOther, true));
    INFO("expected " << expected * 1e6 << " us, measured " << measured * 1e6 << " us");
    CHECK(std::abs(measured - expected) <= m.W);
}

TEST_CASE("single write in a second configuration takes the hand-computed time", "[integration][timing]")
{
    const Model m(kOther);
    const double expected = m.write();
    const double measured = measured_response_s(configure(kOther, false));
    INFO("expected " << expected * 1e6 << " us, measured " << measured * 1e6 << " us");
    CHECK(std::abs(measured - expected) <= m.W);
}
