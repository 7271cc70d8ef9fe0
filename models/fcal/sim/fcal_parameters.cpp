// fcal's parameters, each declared once with the field it fills: a field of a module's own config
// (disk::DiskParams, hba::HbaParams, ...) held in SimConfig (sim/parameter.hpp). Fields are in SI
// units; the key's unit says the scale (si_scale: "us" fills seconds, "MB/s" bytes per second,
// "KiB" bytes, "rpm" a revolution time). Adding a key is one declaration here plus its use where
// the model reads the field.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fcal/sim/member_binding.hpp"
#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"

namespace fcal::sim {

namespace {

using Field = std::shared_ptr<const FieldBinding>;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kKi = 1024;
constexpr std::int64_t kMi = kKi * kKi;
constexpr std::int64_t kGi = kMi * kKi;
constexpr std::int64_t kMaxFramePayload = 2112;  // FC-FS data field limit
constexpr std::int64_t kMaxBuffers = 1024;

Parameter declared(std::string key, ParamType type, Field field, std::string unit, std::string description)
{
    Parameter p;
    p.key = std::move(key);
    p.type = type;
    p.field = std::move(field);
    p.unit = std::move(unit);
    p.description = std::move(description);
    const UnitScale scale = si_scale(p.unit);
    p.field_scale = scale.factor;
    p.field_reciprocal = scale.reciprocal;
    return p;
}

Parameter boolean(std::string key, Field field, bool fallback, std::string description)
{
    Parameter p = declared(std::move(key), ParamType::Bool, std::move(field), "", std::move(description));
    p.default_value = fallback;
    return p;
}

Parameter integer(std::string key, Field field, std::optional<std::int64_t> fallback, std::int64_t min, std::int64_t max,
                  std::string unit, std::string description)
{
    Parameter p = declared(std::move(key), ParamType::Integer, std::move(field), std::move(unit), std::move(description));
    if (fallback) p.default_value = *fallback;
    p.int_min = min;
    p.int_max = max;
    return p;
}

Parameter bytes(std::string key, Field field, std::int64_t fallback, std::int64_t min, std::int64_t max, std::string description,
                std::int64_t multiple_of = 1)
{
    Parameter p = integer(std::move(key), std::move(field), fallback, min, max, "bytes", std::move(description));
    p.type = ParamType::Bytes;
    p.multiple_of = multiple_of;
    return p;
}

Parameter real(std::string key, Field field, std::optional<double> fallback, double min, std::string unit, std::string description,
               bool min_exclusive = false, double max = std::numeric_limits<double>::infinity())
{
    Parameter p = declared(std::move(key), ParamType::Real, std::move(field), std::move(unit), std::move(description));
    if (fallback) p.default_value = *fallback;
    p.real_min = min;
    p.real_min_exclusive = min_exclusive;
    p.real_max = max;
    return p;
}

// Overheads and lengths: zero is allowed (it switches the effect off), negative is not.
Parameter non_negative(std::string key, Field field, double fallback, std::string unit, std::string description)
{
    return real(std::move(key), std::move(field), fallback, 0.0, std::move(unit), std::move(description));
}

// Rates divide sizes, so zero is refused.
Parameter positive(std::string key, Field field, double fallback, std::string unit, std::string description)
{
    return real(std::move(key), std::move(field), fallback, 0.0, std::move(unit), std::move(description), true);
}

// The table of {text, value} both parses and prints the choice; `fallback` must be one of its values.
template <class E>
Parameter choice(std::string key, Field field, E fallback, std::vector<std::pair<const char*, E>> table, std::string description)
{
    Parameter p = declared(std::move(key), ParamType::Choice, std::move(field), "", std::move(description));
    for (const auto& [text, value] : table) {
        p.choices.push_back({text, static_cast<std::int64_t>(value)});
        if (value == fallback) p.default_value = std::string(text);
    }
    return p;
}

Parameter al_pa(std::string key, Field field, phy::AlPa fallback, std::string description)
{
    Parameter p = declared(std::move(key), ParamType::AlPa, std::move(field), "", std::move(description));
    p.default_value = std::int64_t{fallback};
    return p;
}

// A default computed from other keys when the key is not given (`text` says how, for listings).
Parameter derived(Parameter p, std::string text, void (*derive)(SimConfig&))
{
    p.default_value.reset();
    p.default_text = std::move(text);
    p.derive = derive;
    return p;
}

// A key left unset unless given; its field is a std::optional.
Parameter optional(Parameter p)
{
    p.default_value.reset();
    p.default_text = "unset";
    return p;
}

// Disks may differ: disk.<i>.<name> overrides disk.<name> for disk i (docs/erasure.md, "Erasure").
Parameter per_disk(Parameter p)
{
    p.per_disk = true;
    return p;
}

// The loop's nodes as a count: the builder gives the first ones their ports (controller, disks) and
// leaves the rest repeat-only (sim/module_configs.hpp).
class LoopNodeCount final : public FieldBinding {
public:
    void store(SimConfig& c, const FieldValue& v) const override { c.loop.nodes.resize(static_cast<std::size_t>(std::get<std::int64_t>(v))); }
    std::optional<FieldValue> load(const SimConfig& c) const override { return static_cast<std::int64_t>(c.loop.nodes.size()); }
    bool holds(std::int64_t low, std::int64_t) const override { return low >= 0; }
};

// One cable length for every hop: the loop's one-value form of its list.
class LoopEveryHop final : public FieldBinding {
public:
    void store(SimConfig& c, const FieldValue& v) const override { c.loop.hop_m = {std::get<double>(v)}; }
    std::optional<FieldValue> load(const SimConfig& c) const override { return c.loop.hop_m.front(); }
    bool holds(std::int64_t, std::int64_t) const override { return true; }
};

// The fields of SimConfig's sections, reached through nested members (sim/member_binding.hpp).
template <class... M>
Field loop(M... path) { return at(&SimConfig::loop, path...); }
template <class... M>
Field initiator(M... path) { return at(&SimConfig::initiator, path...); }
template <class... M>
Field initiator_port(M... path) { return at(&SimConfig::initiator_port, path...); }
template <class... M>
Field target(M... path) { return at(&SimConfig::target, path...); }
template <class... M>
Field target_port(M... path) { return at(&SimConfig::target_port, path...); }
template <class... M>
Field disk(M... path) { return at(&SimConfig::disk, path...); }
template <class M>
Field zoned(M member) { return at(&SimConfig::disk, &disk::DiskParams::zoned, member); }
template <class M>
Field geometry(M member) { return at(&SimConfig::disk, &disk::DiskParams::zoned, &disk::ZonedParams::geometry, member); }
template <class... M>
Field workload(M... path) { return at(&SimConfig::workload, path...); }
template <class... M>
Field erase(M... path) { return at(&SimConfig::erase, path...); }
template <class... M>
Field decode(M... path) { return at(&SimConfig::decode, path...); }

using loop::LoopConfig;
using loop::PortConfig;
using hba::HbaParams;
using hba::DmaParams;
using disk::DiskParams;
using disk::ZonedParams;
using disk::ZoneGeometryParams;
using host::WorkloadParams;
using host::EraseParams;
using controller::DecodeParams;

void add_loop(ParameterTable& t)
{
    // Loop (docs/phy.md, "Line rates and word time", docs/loop.md, "Timing and round trip").
    t.add(choice("loop.speed", loop(&LoopConfig::rate), phy::LineRate::G2,
                 {{"1GFC", phy::LineRate::G1}, {"2GFC", phy::LineRate::G2}, {"4GFC", phy::LineRate::G4}, {"8GFC", phy::LineRate::G8}},
                 "line rate of every link on the loop"));
    // The thesis's loop ran at exactly 2 Gbaud, not 2GFC's 2.125 (docs/phy.md, "Line rate override").
    t.add(derived(real("loop.baud_gbps", loop(&LoopConfig::baud), std::nullopt, 0.1, "Gbaud",
                       "line rate in Gbaud of every link; overrides the standard baud of loop.speed", false, 100.0),
                  "from loop.speed", [](SimConfig& c) { c.loop.baud = phy::baud(c.loop.rate); }));
    t.add(derived(integer("loop.nodes", std::make_shared<LoopNodeCount>(), std::nullopt, 2, 127, "ports",
                          "L_Ports on the loop; those beyond the controller and the disks only repeat"),
                  "disk.count+1", [](SimConfig& c) { c.loop.nodes.resize(c.disk_count + 1); }));
    t.add(non_negative("loop.hop_m", std::make_shared<LoopEveryHop>(), 2.0, "m", "cable length between neighbouring ports"));
    t.add(optional(real("loop.length_m", at(&SimConfig::loop_length_m), std::nullopt, 0.0, "m",
                        "total cable length round the loop, split evenly over the hops; overrides loop.hop_m")));
    t.add(integer("loop.port_delay_words", loop(&LoopConfig::port_delay_words), 6, 1, 1000, "words",
                  "delay of a port that repeats words (retiming buffer)"));
    t.add(non_negative("loop.propagation_ns_per_m", loop(&LoopConfig::propagation_ns_per_m), 5.0, "ns/m",
                       "signal propagation delay in the cable"));
    // Faults on the loop (docs/faults.md, "Faults and recovery", "Bit errors on the loop").
    t.add(real("loop.ber", loop(&LoopConfig::ber), 0.0, 0.0, "", "bit error rate of every link (0: no errors)", false, 1e-3));
    t.add(real("loop.al_time_us", loop(&LoopConfig::al_time_s), 15000.0, 0.0, "us",
               "AL_TIME: longest wait of a circuit for its peer before it closes or is abandoned", true, 1e7));
    // Dual loops (docs/host.md, "Dual loops and multipath").
    t.add(integer("loop.count", at(&SimConfig::loop_count), 1, 1, 2, "loops",
                  "independent loops with the same disks (each disk dual-ported, one controller HBA per loop); the loop.* keys "
                  "describe each"));
    // Loop initialization (docs/loop_init.md, "Initialization in the running loop").
    t.add(real("loop.init_frame_proc_us", loop(&LoopConfig::init_frame_processing_s), loop::kDefaultInitFrameProcessingS * 1e6, 0.0,
               "us", "loop initialization: a port's processing of one LI frame before it sends it on (every port)", false, 1e6));
    t.add(boolean("loop.initialize_at_start", loop(&LoopConfig::initialize_at_start), false,
                  "the controller sends LIP at t=0 and the loop initializes (each loop); frames wait in the ports until it is done "
                  "(false: the loop starts with the configured AL_PAs)"));
    // Port bypass circuits (docs/loop_init.md, "Port bypass circuits").
    t.add(real("loop.bypass_detect_us", loop(&LoopConfig::bypass_detect_s), loop::kDefaultBypassDetectS * 1e6, 0.0, "us",
               "from a port pulled out or failed to the enclosure closing its slot's bypass (FC-FS R_T_TOV)", true, 1e8));
    t.add(boolean("loop.auto_bypass", loop(&LoopConfig::auto_bypass), true,
                  "the enclosure bypasses a failed port after loop.bypass_detect_us (false: the loop stays down until the port "
                  "is pulled out; an empty slot is always bypassed)"));
}

void add_initiator(ParameterTable& t)
{
    // Initiator HBA, the storage controller (docs/hba.md, "The HBAs").
    t.add(al_pa("initiator.al_pa", initiator_port(&PortConfig::al_pa), 0x01, "AL_PA of the controller; lower wins arbitration"));
    t.add(derived(integer("initiator.port_name", initiator_port(&PortConfig::init, &loop::LoopInitPortConfig::port_name), std::nullopt, 0,
                          std::numeric_limits<std::int64_t>::max(), "",
                          "8-byte port name of the controller's port; the lowest name on the loop is the loop master"),
                  "from the ring position (node 0): 3458764513820540928", [](SimConfig& c) { c.initiator_port.init.port_name = loop::default_port_name(0); }));
    t.add(boolean("initiator.fair", initiator_port(&PortConfig::fair), true, "the controller obeys the access fairness window"));
    t.add(integer("initiator.incoming_buffers", initiator_port(&PortConfig::incoming_buffers), 3, 1, kMaxBuffers, "frames",
                  "receive buffers of the controller"));
    t.add(integer("initiator.login_bb_credit", initiator_port(&PortConfig::login_bb_credit), 0, 0, kMaxBuffers, "frames",
                  "frames others may send right after OPEN before an R_RDY; at most incoming_buffers"));
    t.add(boolean("initiator.full_duplex", initiator_port(&PortConfig::full_duplex), false,
                  "the controller opens with OPN(yx) so both directions carry frames"));
    t.add(non_negative("initiator.circuit_hold_us", initiator_port(&PortConfig::circuit_hold_s), 0.0, "us",
                       "close timer: an open circuit waits this long after the last word for another frame to the peer (0: close at once)"));
    t.add(bytes("initiator.max_payload", initiator(&HbaParams::max_payload), 2048, 4, kMaxFramePayload,
                "largest data-frame payload the controller sends", 4));
    t.add(non_negative("initiator.cmd_exec_us", initiator(&HbaParams::cmd_exec_s), 43.9, "us",
                       "main-processor time to execute one I/O command"));
    t.add(non_negative("initiator.xfer_rdy_us", initiator(&HbaParams::xfer_rdy_or_rsp_s), 11.8, "us",
                       "handling of an incoming XFER_RDY before write data moves"));
    t.add(positive("initiator.dma_mbs", initiator(&HbaParams::dma, &DmaParams::bandwidth_bytes_per_s), 1064.0, "MB/s",
                   "DMA engine bandwidth to host memory (MB = 10^6 bytes)"));
    t.add(non_negative("initiator.dma_sched_us", initiator(&HbaParams::dma, &DmaParams::sched_overhead_s), 15.5, "us", "DMA scheduler overhead per transfer"));
    t.add(choice("initiator.dma_policy", initiator(&HbaParams::dma, &DmaParams::policy), hba::DmaPolicy::Fcfs,
                 {{"fcfs", hba::DmaPolicy::Fcfs}, {"round_robin", hba::DmaPolicy::RoundRobin}},
                 "order in which the DMA scheduler serves transfers"));
    t.add(non_negative("initiator.frame_proc_ns", initiator(&HbaParams::frame_proc_s), 400.0, "ns", "processing of each incoming frame"));
    t.add(non_negative("initiator.sft_us", initiator(&HbaParams::single_frame_transfer_s), 20.2, "us",
                       "single-frame transfer that delivers an FCP_RSP to host memory"));
    t.add(choice("initiator.sft_engine", initiator(&HbaParams::sft_engine), hba::SftEngine::Dma,
                 {{"dma", hba::SftEngine::Dma}, {"own", hba::SftEngine::Own}},
                 "engine of the FCP_RSP's single-frame transfer: dma = queued on the DMA engine; own = an engine of its own "
                 "(docs/hba.md, \"Single-frame transfers\")"));
    t.add(non_negative("initiator.task_set_full_retry_us", initiator(&HbaParams::task_set_full_retry_s), 500.0, "us",
                       "wait before a command a disk answered TASK SET FULL is issued again"));
    // FCP recovery (docs/faults.md, "FCP recovery").
    t.add(positive("initiator.exchange_timeout_ms", initiator(&HbaParams::exchange_timeout_s), 30000.0, "ms",
                   "an exchange not complete this long after the HBA took its I/O is aborted with ABTS"));
    t.add(positive("initiator.abts_timeout_ms", initiator(&HbaParams::abts_timeout_s), 20000.0, "ms",
                   "wait for the BA_ACC to an ABTS before the exchange is given up all the same"));
    t.add(integer("initiator.els_retries", initiator(&HbaParams::els_retries), 2, 0, 100, "retries",
                  "a login ELS (PLOGI, PRLI, ADISC) without a reply within initiator.exchange_timeout_ms is sent again "
                  "this many times before its target is logged out (docs/hba.md, \"Logins\")"));
    t.add(non_negative("initiator.link_down_ms", initiator(&HbaParams::link_down_s), 100.0, "ms",
                       "from a loss of signal on the HBA's loop to the link reported down to the driver (FC-FS R_T_TOV; "
                       "docs/faults.md, \"Loop failure\")"));
    t.add(integer("initiator.max_outstanding", at(&SimConfig::driver, &host::DeviceDriverParams::max_outstanding), 255, 1, 65535, "requests",
                  "requests the driver keeps in the HBA at once; the rest wait in the driver"));
    // The outgoing descriptor FIFOs (docs/hba.md, "The transmit queue"); the RTL's tags are 8 bits.
    t.add(integer("initiator.tx_fifo_frames", at(&SimConfig::controller_fifos, &hba::FifoDepths::frames), 64, 1, 128, "frames",
                  "depth of the controller's outgoing frame FIFO (every frame; data only with cmdf.fifo=command_queue)"));
    t.add(integer("initiator.cmd_fifo_frames", at(&SimConfig::controller_fifos, &hba::FifoDepths::commands), 16, 1, 128, "frames",
                  "depth of the command FIFO (cmdf.fifo=command_queue only)"));
}

void add_target(ParameterTable& t)
{
    // Target HBA, the disk interface (docs/hba.md, "The HBAs").
    t.add(boolean("target.fair", target_port(&PortConfig::fair), true, "the disks obey the access fairness window"));
    t.add(integer("target.incoming_buffers", target_port(&PortConfig::incoming_buffers), 2, 1, kMaxBuffers, "frames",
                  "receive buffers of each disk interface"));
    t.add(integer("target.login_bb_credit", target_port(&PortConfig::login_bb_credit), 0, 0, kMaxBuffers, "frames",
                  "frames others may send right after OPEN before an R_RDY; at most incoming_buffers"));
    t.add(boolean("target.full_duplex", target_port(&PortConfig::full_duplex), false, "disks open with OPN(yx) so both directions carry frames"));
    t.add(non_negative("target.circuit_hold_us", target_port(&PortConfig::circuit_hold_s), 0.0, "us",
                       "close timer: an open circuit waits this long after the last word for another frame to the peer (0: close at once)"));
    t.add(bytes("target.max_payload", target(&HbaParams::max_payload), 2048, 4, kMaxFramePayload,
                "largest data-frame payload a disk sends", 4));
    t.add(non_negative("target.cmd_exec_us", target(&HbaParams::cmd_exec_s), 47.4, "us", "time for a disk interface to execute one command"));
    t.add(non_negative("target.rsp_gen_us", target(&HbaParams::xfer_rdy_or_rsp_s), 10.3, "us", "generation of the FCP_RSP after the last data"));
    t.add(positive("target.dma_mbs", target(&HbaParams::dma, &DmaParams::bandwidth_bytes_per_s), 1064.0, "MB/s", "DMA engine bandwidth to the disk buffer (MB = 10^6 bytes)"));
    t.add(non_negative("target.dma_sched_us", target(&HbaParams::dma, &DmaParams::sched_overhead_s), 15.5, "us", "DMA scheduler overhead per transfer"));
    t.add(non_negative("target.frame_proc_ns", target(&HbaParams::frame_proc_s), 400.0, "ns", "processing of each incoming frame"));
    t.add(non_negative("target.sft_us", target(&HbaParams::single_frame_transfer_s), 20.2, "us",
                       "single-frame transfer between the interface and the disk controller"));
    t.add(choice("target.sft_engine", target(&HbaParams::sft_engine), hba::SftEngine::Dma,
                 {{"dma", hba::SftEngine::Dma}, {"own", hba::SftEngine::Own}},
                 "engine of the FCP_CMND's single-frame transfer to the disk controller: dma = queued on the DMA engine; "
                 "own = an engine of its own"));
    t.add(positive("target.data_timeout_ms", target(&HbaParams::data_timeout_s), 60000.0, "ms",
                   "a write whose burst has not all come this long after its XFER_RDY is dropped and its disk slot freed"));
    t.add(bytes("target.burst_bytes", target(&HbaParams::burst_bytes), 0, 0, kGi,
                "data a disk moves per XFER_RDY or read connection; 0 = the whole transfer at once"));
}

void add_driver(ParameterTable& t)
{
    // Device driver (docs/hba.md, "The device driver and host memory").
    t.add(non_negative("driver.arrival_us", at(&SimConfig::driver, &host::DeviceDriverParams::arrival_processing_s), 0.0, "us",
                       "driver processing of each arriving request"));
    t.add(non_negative("driver.completion_us", at(&SimConfig::driver, &host::DeviceDriverParams::completion_processing_s), 0.0, "us",
                       "driver processing of each completion"));
    t.add(integer("driver.retries", at(&SimConfig::driver, &host::DeviceDriverParams::retries), 3, 0, 1000, "retries",
                  "times an I/O whose exchange was aborted is issued again before it is reported failed"));
    t.add(integer("driver.disk_outstanding", at(&SimConfig::driver, &host::DeviceDriverParams::disk_outstanding), 0, 0, 65535, "requests",
                  "requests per disk the driver lets go on to the HBA at once, the rest waiting for their disk in the driver "
                  "(docs/hba.md, \"Outstanding commands per disk\"); 0 = no limit"));
    t.add(choice("driver.multipath", at(&SimConfig::driver, &host::DeviceDriverParams::multipath), host::Multipath::Failover,
                 {{"failover", host::Multipath::Failover}, {"round_robin", host::Multipath::RoundRobin},
                  {"least_queue", host::Multipath::LeastQueue}},
                 "loop an I/O goes on (loop.count=2): failover = loop 0 while it is up; round_robin = in turn; least_queue = "
                 "the HBA with fewest I/Os out (docs/host.md, \"Dual loops and multipath\")"));
}

void add_disk(ParameterTable& t)
{
    // Disks (docs/disk.md, "The disks").
    t.add(integer("disk.count", at(&SimConfig::disk_count), 16, 1, 125, "disks", "disks on the loop"));
    {
        Parameter name = per_disk(optional(integer("disk.port_name", disk(&DiskParams::port_name), std::nullopt, 0,
                                                   std::numeric_limits<std::int64_t>::max(), "",
                                                   "8-byte port name of a disk's port (give it per disk: disk.<i>.port_name); "
                                                   "names must be unique on the loop")));
        name.default_text = "from the ring position (disk i: 3458764513820540928 + i + 1)";
        t.add(std::move(name));
    }
    t.add(per_disk(non_negative("disk.access_ms", disk(&DiskParams::access_time_s), 2.0, "ms", "access time per command before data moves")));
    t.add(per_disk(positive("disk.rate_mbs", disk(&DiskParams::media_rate_bytes_per_s), 50.0, "MB/s", "media transfer rate (MB = 10^6 bytes)")));
    t.add(per_disk(integer("disk.queue_slots", disk(&DiskParams::queue_slots), 16, 1, 1024, "commands",
                           "commands a disk accepts at once; one more is answered TASK SET FULL")));
    t.add(per_disk(integer("disk.max_concurrent", disk(&DiskParams::max_concurrent), 1, 1, 1024, "commands",
                           "fixed: commands in service at once, each in its own access; their media transfers go one at a time "
                           "at disk.rate_mbs (docs/disk.md, \"Concurrent commands\"); 1 = one command at a time")));
    // Fixed and zoned disks (docs/disk.md, "The disks"); the zoned defaults are the Seagate
    // ST3500630NS of docs/disk.md's drive table (configs/disks/).
    t.add(choice("disk.model", disk(&DiskParams::model), disk::DiskModel::Fixed,
                 {{"fixed", disk::DiskModel::Fixed}, {"zoned", disk::DiskModel::Zoned}},
                 "fixed: disk.access_ms + size / disk.rate_mbs; zoned: the mechanical model (seek, rotation, zones, buffer)"));
    t.add(per_disk(choice("disk.access_dist", disk(&DiskParams::access_dist), disk::AccessDist::Constant,
                          {{"constant", disk::AccessDist::Constant}, {"uniform", disk::AccessDist::Uniform},
                           {"exponential", disk::AccessDist::Exponential}},
                          "fixed model: distribution of the access time, mean disk.access_ms (uniform on [0, 2 mean])")));
    t.add(per_disk(positive("disk.rpm", geometry(&ZoneGeometryParams::revolution_s), 7200.0, "rpm", "zoned: spindle speed; one revolution R_max = 60000 / rpm ms")));
    t.add(per_disk(integer("disk.cylinders", geometry(&ZoneGeometryParams::cylinders), 60801, 3, 10000000, "cylinders", "zoned: cylinders")));
    t.add(per_disk(integer("disk.heads", geometry(&ZoneGeometryParams::heads), 15, 1, 255, "heads", "zoned: recording surfaces (tracks per cylinder)")));
    t.add(bytes("disk.sector_bytes", geometry(&ZoneGeometryParams::sector_bytes), 512, 256, 65536, "zoned: sector size, the LBA unit"));
    t.add(per_disk(positive("disk.sector_time_inner_ms", geometry(&ZoneGeometryParams::sector_time_inner_s), 0.012064, "ms",
                            "zoned: time of one sector on the innermost track (t_max)")));
    t.add(per_disk(positive("disk.sector_time_outer_ms", geometry(&ZoneGeometryParams::sector_time_outer_s), 0.005976, "ms",
                            "zoned: time of one sector on the outermost track (t_min)")));
    t.add(per_disk(non_negative("disk.seek_read_min_ms", zoned(&ZonedParams::seek_read_min_s), 0.8, "ms",
                                "zoned: read seek over one cylinder (track to track)")));
    t.add(per_disk(non_negative("disk.seek_read_max_ms", zoned(&ZonedParams::seek_read_max_s), 17.0, "ms",
                                "zoned: read seek over every cylinder (full stroke)")));
    t.add(per_disk(non_negative("disk.seek_write_min_ms", zoned(&ZonedParams::seek_write_min_s), 1.0, "ms",
                                "zoned: write seek over one cylinder (track to track)")));
    t.add(per_disk(non_negative("disk.seek_write_max_ms", zoned(&ZonedParams::seek_write_max_s), 18.0, "ms",
                                "zoned: write seek over every cylinder (full stroke)")));
    t.add(choice("disk.positioning", zoned(&ZonedParams::positioning), disk::PositioningMode::Physical,
                 {{"physical", disk::PositioningMode::Physical}, {"stochastic", disk::PositioningMode::Stochastic}},
                 "zoned: physical = head position and spindle phase are state; stochastic = independent draws (f_D)"));
    t.add(choice("disk.scheduler", disk(&DiskParams::scheduler), disk::Scheduler::Fcfs,
                 {{"fcfs", disk::Scheduler::Fcfs}, {"sptf", disk::Scheduler::Sptf}},
                 "zoned: order of the queued commands; sptf = shortest positioning time first (physical only)"));
    t.add(per_disk(boolean("disk.write_cache", disk(&DiskParams::write_cache), false,
                           "zoned: write-back (complete once in the buffer) instead of write-through")));
    t.add(per_disk(integer("disk.buffer_kib", disk(&DiskParams::buffer_bytes), 1024, 8, 4194304, "KiB",
                           "zoned: buffer for read streaming, and the write cache's limit")));
    t.add(per_disk(real("disk.buffer_full_ratio", disk(&DiskParams::buffer_full_ratio), 0.25, 0.0, "",
                        "zoned: read data go to the HBA when the buffer holds this share of it or the rest of the I/O", true, 1.0)));
    t.add(per_disk(non_negative("disk.command_overhead_us", zoned(&ZonedParams::command_overhead_s), 0.0, "us",
                                "zoned: controller firmware time per command")));
    // A fixed disk's capacity: what an erase job writes (docs/erasure.md, "Erasure"); LBAs are 32 bits.
    t.add(per_disk(real("disk.capacity_gb", disk(&DiskParams::capacity_bytes), 0.0, 0.0, "GB",
                        "fixed: capacity (GB = 10^9 bytes, 512-byte blocks) that erase jobs write and LBAs are checked against; 0 = none",
                        false, 2199.0)));
}

void add_workload(ParameterTable& t)
{
    // Workload and measurement window (docs/host.md, "The workloads", docs/cli.md,
    // "Statistics and the measurement window").
    t.add(choice("workload.type", at(&SimConfig::workload_type), WorkloadType::Closed,
                 {{"closed", WorkloadType::Closed}, {"open", WorkloadType::Open}, {"erase", WorkloadType::Erase}},
                 "closed: queue_depth I/Os always outstanding per disk; open: Poisson arrivals at rate_iops; erase: erase.*"));
    t.add(integer("workload.queue_depth", at(&SimConfig::queue_depth), 1, 1, 1024, "I/Os",
                  "I/Os outstanding per disk in the closed workload"));
    t.add(bytes("workload.io_size", workload(&WorkloadParams::io_size_bytes), 64 * kKi, 1, kGi, "bytes moved by each I/O"));
    t.add(real("workload.read_fraction", workload(&WorkloadParams::read_fraction), 1.0, 0.0, "",
               "probability that an I/O is a read (else a write)", false, 1.0));
    t.add(non_negative("workload.rate_iops", at(&SimConfig::rate_iops), 0.0, "IO/s",
                       "arrival rate of the open workload, over all disks; must be > 0 when workload.type is open"));
    t.add(integer("workload.measured_ios", at(&SimConfig::measured_ios), 2000, 1, kInt64Max, "I/Os",
                  "completions in the measured window"));
    t.add(derived(integer("workload.warmup_ios", at(&SimConfig::warmup_ios), std::nullopt, 0, kInt64Max, "I/Os",
                          "completions left out at the start; as many are left out at the end as cool-down"),
                  "10*workload.queue_depth*disk.count",
                  [](SimConfig& c) { c.warmup_ios = 10ull * c.queue_depth * c.disk_count; }));
    t.add(integer("workload.seed", workload(&WorkloadParams::seed), 1, 0, kInt64Max, "", "seed of the random number generators"));

    // The workloads' addresses, the storage controller's volume and the transport below it (docs/host.md,
    // "The workloads", docs/controller.md, "Volumes and RAID", docs/controller.md, "The ideal transport").
    t.add(choice("workload.lba", workload(&WorkloadParams::lba), host::LbaPattern::Random,
                 {{"random", host::LbaPattern::Random}, {"sequential", host::LbaPattern::Sequential}},
                 "random: LBAs uniform over the disk or volume; sequential: each I/O right after the previous one"));
    t.add(choice("volume.raid", at(&SimConfig::volume, &VolumeConfig::raid), controller::RaidLevel::None,
                 {{"none", controller::RaidLevel::None}, {"raid0", controller::RaidLevel::Raid0},
                  {"raid1", controller::RaidLevel::Raid1}, {"raid5", controller::RaidLevel::Raid5}},
                 "none: each disk its own volume; else all disks form one volume (raid1: mirrored pairs, even disk.count)"));
    t.add(integer("volume.stripe_kib", at(&SimConfig::volume, &VolumeConfig::stripe_bytes), 64, 1, 1024 * 1024, "KiB",
                  "stripe unit of the volume"));
    t.add(choice("volume.split_merge", at(&SimConfig::volume, &VolumeConfig::split_merge), controller::SplitMerge::ForkJoin,
                 {{"fork_join", controller::SplitMerge::ForkJoin}, {"strict", controller::SplitMerge::Strict}},
                 "fork_join: requests' member commands interleave at the disks; strict: one request at a time"));
    // Degraded mode, hot spares and rebuild (docs/controller.md, "Degraded mode and rebuild").
    t.add(integer("volume.spares", at(&SimConfig::volume, &VolumeConfig::spares), 0, 0, 123, "disks",
                  "hot spares: the last this many of disk.count's disks, not members; a failed member is rebuilt onto one (raid1, raid5)"));
    t.add(non_negative("volume.rebuild_delay_ms", at(&SimConfig::rebuild, &controller::RebuildParams::delay_s), 0.0, "ms",
                       "from a member's failure (or a spare's arrival) to the start of its rebuild"));
    t.add(non_negative("volume.rebuild_rate_mbs", at(&SimConfig::rebuild, &controller::RebuildParams::rate_bytes_per_s), 0.0, "MB/s",
                       "cap on the bytes a rebuild writes per second (MB = 10^6 bytes); 0 = as fast as it goes"));
    t.add(integer("volume.rebuild_io_kib", at(&SimConfig::rebuild, &controller::RebuildParams::io_bytes), 64, 1, 16384, "KiB",
                  "member data each rebuild command reads or writes"));
    t.add(integer("volume.rebuild_rounds", at(&SimConfig::rebuild, &controller::RebuildParams::rounds_in_flight), 4, 1, 64, "",
                  "rebuild rounds under way at once (reads of later rounds overlap the spare's writes; docs/controller.md, \"The loop-bound rebuild\")"));
    t.add(real("volume.member_capacity_gb", at(&SimConfig::volume, &VolumeConfig::member_capacity_bytes), 0.0, 0.0, "GB",
               "capacity used on each member from LBA 0 (GB = 10^9 bytes; like short-stroking); 0 = the whole drive", false, 2199.0));
    // DECODE (docs/controller.md, "DECODE").
    t.add(boolean("volume.decode", at(&SimConfig::volume, &VolumeConfig::decode), false,
                  "raid0 only: DECODE write load balancing (a written unit may move to a less loaded disk)"));
    t.add(integer("decode.area_units", decode(&DecodeParams::area_units), 10, 0, 1000000, "units",
                  "equivalent area: rows of stripe units around a unit's original position, on every disk; 0 = never move"));
    t.add(real("decode.threshold", decode(&DecodeParams::threshold), 0.5, 0.0, "",
               "a unit moves only if the chosen disk's load is at most this x the load of the disk holding it", false, 1.0));
    t.add(boolean("decode.own_write", decode(&DecodeParams::own_write), true,
                  "count the write's own estimated service time in both loads of the threshold test"));
    t.add(derived(real("decode.free_fraction", decode(&DecodeParams::free_fraction), std::nullopt, 0.0, "",
                       "share of each stripe group's slots left free (raid0; with volume.decode=false: the same layout unused)",
                       false, 0.5),
                  "0.125 with volume.decode, else 0", [](SimConfig& c) { c.decode.free_fraction = c.volume.decode ? 0.125 : 0.0; }));
    t.add(bytes("workload.io_size_max", workload(&WorkloadParams::io_size_max_bytes), 0, 0, kGi,
                "0: every I/O is workload.io_size; else sizes uniform in whole LBA blocks from workload.io_size to this"));
    t.add(bytes("workload.span_bytes", at(&SimConfig::span_bytes), 0, 0, kGi * kMi,
                "0: LBAs over the whole disk or volume; else within its first span_bytes (a file)"));
}

void add_erase(ParameterTable& t)
{
    // Erasure jobs, workload.type=erase (docs/erasure.md, "Erasure").
    t.add(choice("erase.command", erase(&EraseParams::command), host::EraseCommand::WriteSame,
                 {{"write", host::EraseCommand::Write}, {"write_same", host::EraseCommand::WriteSame}},
                 "erase: WRITE(10) with the data on the wire, or WRITE SAME(10) with one block per range"));
    t.add(choice("erase.strategy", erase(&EraseParams::strategy), host::EraseStrategy::Parallel,
                 {{"sequential", host::EraseStrategy::Sequential}, {"round_robin", host::EraseStrategy::RoundRobin},
                  {"parallel", host::EraseStrategy::Parallel}},
                 "erase: one disk after the other, one command per disk in turn, or one stream per disk"));
    t.add(choice("erase.tl_policy", at(&SimConfig::erase_tl_by_disk_count), false,
                 {{"fixed", false}, {"by_disk_count", true}},
                 "erase: WRITE transfer length erase.transfer_blocks, or 4096 / erase.disks rounded down to a power of two"));
    t.add(integer("erase.transfer_blocks", erase(&EraseParams::transfer_blocks), 256, 1, 65535, "blocks",
                  "erase: WRITE(10) transfer length (erase.tl_policy=fixed)"));
    t.add(integer("erase.same_blocks", erase(&EraseParams::same_blocks), 65535, 1, 65535, "blocks",
                  "erase: blocks per WRITE SAME(10) range (the last one: the rest)"));
    t.add(derived(integer("erase.disks", at(&SimConfig::erase_disks), std::nullopt, 1, 125, "disks",
                          "erase: the first this many disks of the loop are erased"),
                  "disk.count", [](SimConfig& c) { c.erase_disks = c.disk_count; }));
    t.add(choice("transport", at(&SimConfig::transport), Transport::Loop, {{"loop", Transport::Loop}, {"ideal", Transport::Ideal}},
                 "loop: driver, HBAs and the FC-AL loop; ideal: the controller reaches the disks directly in zero time"));
}

void add_schedule(ParameterTable& t)
{
    // Frame scheduling (docs/hba.md, "Command-First").
    // The default is the baseline's (docs/model.md, "The baseline scenario"), which has CMDF on.
    t.add(choice("schedule", at(&SimConfig::schedule), Schedule::Cmdf, {{"normal", Schedule::Normal}, {"cmdf", Schedule::Cmdf}},
                 "normal: all cmdf.* off; cmdf: command_queue + arbitration + preempt (cmdf.* keys given override it)"));
    // The three Command-First levels; unset, they follow the schedule.
    t.add(derived(choice("cmdf.fifo", initiator(&HbaParams::cmdf, &hba::CommandFirst::fifo), hba::CommandFifo::Off,
                         {{"off", hba::CommandFifo::Off}, {"reorder", hba::CommandFifo::Reorder},
                          {"command_queue", hba::CommandFifo::CommandQueue}},
                         "commands ahead of data: reorder = inserted ahead in one FIFO, command_queue = separate FIFO checked first"),
                  "from schedule", [](SimConfig& c) {
                      c.initiator.cmdf.fifo = c.schedule == Schedule::Cmdf ? hba::CommandFifo::CommandQueue : hba::CommandFifo::Off;
                  }));
    t.add(derived(boolean("cmdf.arbitration", initiator(&HbaParams::cmdf, &hba::CommandFirst::arbitration), false,
                          "with a command at the head, arbitrate even when fairness forbids it"),
                  "from schedule", [](SimConfig& c) { c.initiator.cmdf.arbitration = c.schedule == Schedule::Cmdf; }));
    t.add(derived(boolean("cmdf.preempt", initiator(&HbaParams::cmdf, &hba::CommandFirst::preempt), false,
                          "while OPEN, close and TRANSFER to the disk a waiting command is for"),
                  "from schedule", [](SimConfig& c) { c.initiator.cmdf.preempt = c.schedule == Schedule::Cmdf; }));

    t.add(choice("cmdf.impl", at(&SimConfig::cmdf_impl), CmdfImpl::Model, {{"model", CmdfImpl::Model}, {"rtl", CmdfImpl::Rtl}},
                 "the controller's transmit queue: model = the SystemC reference, rtl = the Verilated RTL (rtl/cmdf_top.v)"));
    // Bounded so that clock edges stay representable in picoseconds over any run, and the block keeps
    // up with the loop's push and pop rate closely enough that its time stays near the ports'.
    t.add(real("rtl.clock_mhz", at(&SimConfig::rtl, &RtlConfig::clock_mhz), 212.5, 1.0, "MHz",
               "clock of the RTL transmit queue (cmdf.impl=rtl)", false, 10000.0));
    t.add(boolean("rtl.lockstep", at(&SimConfig::rtl, &RtlConfig::lockstep), false,
                  "run the SystemC reference beside the RTL, compare every decision, stop at the first divergence (cmdf.impl=rtl)"));

    t.add(positive("sim.time_limit_s", at(&SimConfig::time_limit_s), 100.0, "s",
                   "simulated time after which the run stops regardless (safety stop)"));
    t.add(non_negative("sim.loop_timeline_ms", at(&SimConfig::loop_timeline_s), 0.0, "ms",
                       "bin width of loop_timeline in the results, each loop's data MB/s against time (0: none)"));
}

// One event's key, given as event.<n>.<name> (docs/faults.md, "Scheduled events").
Parameter per_event(Parameter p)
{
    p = optional(std::move(p));
    p.per_event = true;
    return p;
}

void add_events(ParameterTable& t)
{
    // Scheduled events, defined once for disk failures, loop initialization and hot plug.
    t.add(per_event(non_negative("event.<n>.at_ms", at(&SimConfig::event, &EventKeys::at_s), 0.0, "ms",
                                 "time of event n from the start of the run; before sim.time_limit_s")));
    t.add(per_event(choice("event.<n>.kind", at(&SimConfig::event, &EventKeys::kind), EventKind::Fail,
                           {{"lip", EventKind::Lip}, {"remove", EventKind::Remove}, {"insert", EventKind::Insert},
                            {"fail", EventKind::Fail}, {"bypass", EventKind::Bypass}, {"enable", EventKind::Enable},
                            {"loop_fail", EventKind::LoopFail}, {"loop_restore", EventKind::LoopRestore}},
                           "what happens: fail = disk event.<n>.disk fails (event.<n>.failure); remove, insert = it is pulled out, or "
                           "a new blank disk put in its slot; bypass, enable = its port is bypassed, or enabled again; lip = the port of "
                           "event.<n>.disk (the controller's if not given) sends LIP and its loop initializes; loop_fail, loop_restore = "
                           "loop event.<n>.loop loses signal, or gets it back (loop.count=2)")));
    t.add(per_event(integer("event.<n>.disk", at(&SimConfig::event, &EventKeys::disk), 0, 0, 124, "disk",
                            "the disk the event happens to (0 .. disk.count - 1); for lip, the disk whose port sends LIP")));
    t.add(per_event(integer("event.<n>.loop", at(&SimConfig::event, &EventKeys::loop), 0, 0, 1, "loop",
                            "the loop a loop_fail or loop_restore happens to (0 .. loop.count - 1); for lip, its loop (0 if not given)")));
    t.add(per_event(choice("event.<n>.failure", at(&SimConfig::event, &EventKeys::failure), FailureKind::Drive,
                           {{"drive", FailureKind::Drive}, {"port", FailureKind::Port}},
                           "what a fail event breaks: drive = the drive, its port stays on the loop and answers CHECK CONDITION; "
                           "port = the disk's port on every loop, which breaks the loop until it is bypassed, and the drive with it")));
}

}  // namespace

ParameterTable fcal_parameters()
{
    ParameterTable t;
    add_loop(t);
    add_initiator(t);
    add_target(t);
    add_driver(t);
    add_disk(t);
    add_workload(t);
    add_erase(t);
    add_schedule(t);
    add_events(t);
    return t;
}

}  // namespace fcal::sim
