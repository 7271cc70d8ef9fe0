#include "sim/sim_config.hpp"

#include "sim/config_limits.hpp"

#include <stdexcept>

namespace fcal::sim {

std::string to_string(WorkloadType type)
{
    switch (type) {
    case WorkloadType::Closed: return "closed";
    case WorkloadType::Open: return "open";
    }
    throw std::logic_error("unknown workload type");
}

std::string to_string(CmdfImpl impl) { return impl == CmdfImpl::Rtl ? "rtl" : "model"; }

std::string to_string(Schedule schedule)
{
    switch (schedule) {
    case Schedule::Normal: return "normal";
    case Schedule::Cmdf: return "cmdf";
    }
    throw std::logic_error("unknown schedule");
}

namespace {

// The table's limits already keep every integer within unsigned range.
unsigned get_unsigned(const ParameterTable& t, const std::string& key) { return static_cast<unsigned>(t.get_int(key)); }

void read_hba(const ParameterTable& t, const std::string& side, HbaConfig& hba)
{
    hba.fair = t.get_bool(side + ".fair");
    hba.incoming_buffers = get_unsigned(t, side + ".incoming_buffers");
    hba.login_bb_credit = get_unsigned(t, side + ".login_bb_credit");
    hba.full_duplex = t.get_bool(side + ".full_duplex");
    hba.max_payload = static_cast<unsigned>(t.get_bytes(side + ".max_payload"));
    hba.cmd_exec_us = t.get_real(side + ".cmd_exec_us");
    hba.dma_mbs = t.get_real(side + ".dma_mbs");
    hba.dma_sched_us = t.get_real(side + ".dma_sched_us");
    hba.frame_proc_ns = t.get_real(side + ".frame_proc_ns");
    hba.sft_us = t.get_real(side + ".sft_us");
    // Login_BB_Credit promises buffers at OPEN; a port cannot promise more than it has.
    if (hba.login_bb_credit > hba.incoming_buffers)
        throw ConfigError(side + ".login_bb_credit: " + std::to_string(hba.login_bb_credit) + " exceeds " + side +
                          ".incoming_buffers = " + std::to_string(hba.incoming_buffers));
}

void write_hba(const HbaConfig& hba, nlohmann::json& j)
{
    j["fair"] = hba.fair;
    j["incoming_buffers"] = hba.incoming_buffers;
    j["login_bb_credit"] = hba.login_bb_credit;
    j["full_duplex"] = hba.full_duplex;
    j["max_payload"] = hba.max_payload;
    j["cmd_exec_us"] = hba.cmd_exec_us;
    j["dma_mbs"] = hba.dma_mbs;
    j["dma_sched_us"] = hba.dma_sched_us;
    j["frame_proc_ns"] = hba.frame_proc_ns;
    j["sft_us"] = hba.sft_us;
}

}  // namespace

SimConfig build_config(const ParameterTable& t)
{
    SimConfig c;

    // The schedule presets the three Command-First levels; keys given explicitly override it.
    c.schedule = t.get_string("schedule") == "cmdf" ? Schedule::Cmdf : Schedule::Normal;
    const bool cmdf = c.schedule == Schedule::Cmdf;
    const std::string fifo = t.has_value("cmdf.fifo") ? t.get_string("cmdf.fifo") : (cmdf ? "command_queue" : "off");
    c.cmdf.fifo = fifo == "reorder"         ? hba::CommandFifo::Reorder
                  : fifo == "command_queue" ? hba::CommandFifo::CommandQueue
                                            : hba::CommandFifo::Off;
    c.cmdf.arbitration = t.has_value("cmdf.arbitration") ? t.get_bool("cmdf.arbitration") : cmdf;
    c.cmdf.preempt = t.has_value("cmdf.preempt") ? t.get_bool("cmdf.preempt") : cmdf;
    c.cmdf.impl = t.get_string("cmdf.impl") == "rtl" ? CmdfImpl::Rtl : CmdfImpl::Model;
    c.rtl.clock_mhz = t.get_real("rtl.clock_mhz");
    c.rtl.lockstep = t.get_bool("rtl.lockstep");
    if (c.rtl.lockstep && c.cmdf.impl != CmdfImpl::Rtl) throw ConfigError("rtl.lockstep: needs cmdf.impl=rtl");

    c.disk.count = get_unsigned(t, "disk.count");
    c.disk.access_ms = t.get_real("disk.access_ms");
    c.disk.rate_mbs = t.get_real("disk.rate_mbs");
    c.disk.queue_slots = get_unsigned(t, "disk.queue_slots");

    c.loop.rate = phy::parse_line_rate(t.get_string("loop.speed"));
    const unsigned needed = c.disk.count + 1;
    c.loop.nodes = t.has_value("loop.nodes") ? get_unsigned(t, "loop.nodes") : needed;
    if (c.loop.nodes < needed)
        throw ConfigError("loop.nodes: " + std::to_string(c.loop.nodes) + " is fewer than disk.count + 1 = " +
                          std::to_string(needed));
    // A loop of n ports is a ring of n cables.
    c.loop.hop_m = t.has_value("loop.length_m") ? t.get_real("loop.length_m") / c.loop.nodes : t.get_real("loop.hop_m");
    c.loop.port_delay_words = get_unsigned(t, "loop.port_delay_words");
    c.loop.propagation_ns_per_m = t.get_real("loop.propagation_ns_per_m");

    read_hba(t, "initiator", c.initiator);
    c.initiator.al_pa = t.get_al_pa("initiator.al_pa");
    c.initiator.xfer_rdy_us = t.get_real("initiator.xfer_rdy_us");
    c.initiator.dma_policy =
        t.get_string("initiator.dma_policy") == "round_robin" ? hba::DmaPolicy::RoundRobin : hba::DmaPolicy::Fcfs;
    c.initiator.max_outstanding = get_unsigned(t, "initiator.max_outstanding");
    c.initiator.tx_fifo_frames = get_unsigned(t, "initiator.tx_fifo_frames");
    c.initiator.cmd_fifo_frames = get_unsigned(t, "initiator.cmd_fifo_frames");

    read_hba(t, "target", c.target);
    c.target.rsp_gen_us = t.get_real("target.rsp_gen_us");
    c.target.burst_bytes = t.get_bytes("target.burst_bytes");

    c.driver.arrival_us = t.get_real("driver.arrival_us");
    c.driver.completion_us = t.get_real("driver.completion_us");

    c.workload.type = t.get_string("workload.type") == "open" ? WorkloadType::Open : WorkloadType::Closed;
    c.workload.queue_depth = get_unsigned(t, "workload.queue_depth");
    c.workload.io_size = t.get_bytes("workload.io_size");
    c.workload.read_fraction = t.get_real("workload.read_fraction");
    c.workload.rate_iops = t.get_real("workload.rate_iops");
    if (c.workload.type == WorkloadType::Open && !(c.workload.rate_iops > 0.0))
        throw ConfigError("workload.rate_iops: must be > 0 when workload.type is open");
    c.workload.measured_ios = static_cast<std::uint64_t>(t.get_int("workload.measured_ios"));
    c.workload.warmup_ios = t.has_value("workload.warmup_ios")
                                ? static_cast<std::uint64_t>(t.get_int("workload.warmup_ios"))
                                : 10ull * c.workload.queue_depth * c.disk.count;
    c.workload.seed = static_cast<std::uint64_t>(t.get_int("workload.seed"));

    c.time_limit_s = t.get_real("sim.time_limit_s");
    check_limits(c, t.has_value("loop.length_m"));  // what the model can represent (sim/config_limits.hpp)
    return c;
}

SimConfig default_config() { return build_config(fcal_parameters()); }

nlohmann::json to_json(const SimConfig& c)
{
    nlohmann::json j;
    j["loop"] = {{"speed", phy::to_string(c.loop.rate)},
                 {"nodes", c.loop.nodes},
                 {"hop_m", c.loop.hop_m},
                 {"port_delay_words", c.loop.port_delay_words},
                 {"propagation_ns_per_m", c.loop.propagation_ns_per_m}};

    auto& ini = j["initiator"];
    ini["al_pa"] = phy::al_pa_hex(c.initiator.al_pa);
    write_hba(c.initiator, ini);
    ini["xfer_rdy_us"] = c.initiator.xfer_rdy_us;
    ini["dma_policy"] = hba::to_string(c.initiator.dma_policy);
    ini["max_outstanding"] = c.initiator.max_outstanding;
    ini["tx_fifo_frames"] = c.initiator.tx_fifo_frames;
    ini["cmd_fifo_frames"] = c.initiator.cmd_fifo_frames;

    auto& tgt = j["target"];
    write_hba(c.target, tgt);
    tgt["rsp_gen_us"] = c.target.rsp_gen_us;
    tgt["burst_bytes"] = c.target.burst_bytes;

    j["driver"] = {{"arrival_us", c.driver.arrival_us}, {"completion_us", c.driver.completion_us}};
    j["disk"] = {{"count", c.disk.count},
                 {"access_ms", c.disk.access_ms},
                 {"rate_mbs", c.disk.rate_mbs},
                 {"queue_slots", c.disk.queue_slots}};
    j["workload"] = {{"type", to_string(c.workload.type)},
                     {"queue_depth", c.workload.queue_depth},
                     {"io_size", c.workload.io_size},
                     {"read_fraction", c.workload.read_fraction},
                     {"rate_iops", c.workload.rate_iops},
                     {"measured_ios", c.workload.measured_ios},
                     {"warmup_ios", c.workload.warmup_ios},
                     {"seed", c.workload.seed}};
    j["schedule"] = to_string(c.schedule);
    j["cmdf"] = {{"fifo", hba::to_string(c.cmdf.fifo)},
                 {"arbitration", c.cmdf.arbitration},
                 {"preempt", c.cmdf.preempt},
                 {"impl", to_string(c.cmdf.impl)}};
    j["rtl"] = {{"clock_mhz", c.rtl.clock_mhz}, {"lockstep", c.rtl.lockstep}};
    j["sim"] = {{"time_limit_s", c.time_limit_s}};
    return j;
}

}  // namespace fcal::sim
