#include "fcal/loop/loop.hpp"

#include <algorithm>
#include <map>

namespace fcal::loop {

namespace {

// One line whatever the parts were, so the CLI's error output stays one line per problem.
std::string one_line(std::string text)
{
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\r', ' ');
    return text;
}

std::string node_label(std::size_t i, const LoopNode& n)
{
    return "node " + std::to_string(i) + (n.port.name.empty() ? "" : " (" + n.port.name + ")");
}

}  // namespace

ConfigError::ConfigError(const std::string& message) : std::runtime_error(one_line(message)) {}

Loop::Loop(sc_core::sc_module_name name, const LoopConfig& config)
    : sc_module(name), timing_(config.rate, config.propagation_ns_per_m, config.baud), slots_(0),
      bypass_detect_s_(config.bypass_detect_s), auto_bypass_(config.auto_bypass),
      bypass_timers_("bypass_timers", [this](SlotDeadline& d) { slot_deadline(d); })
{
    const std::size_t n = config.nodes.size();
    if (n == 0) throw ConfigError("loop: no nodes");
    if (config.port_delay_words < 1) throw ConfigError("loop.port_delay_words: must be at least 1");
    if (config.hop_m.size() != 1 && config.hop_m.size() != n)
        throw ConfigError("loop.hop_m: give one length for every hop or " + std::to_string(n) + " lengths");
    for (double m : config.hop_m)
        if (!(m >= 0.0)) throw ConfigError("loop.hop_m: a cable length is negative");
    auto hop = [&](std::size_t i) { return timing_.cable(config.hop_m.size() == 1 ? config.hop_m[0] : config.hop_m[i]); };
    const sc_core::sc_time repeat = timing_.words(config.port_delay_words);

    std::map<phy::AlPa, std::size_t> seen;
    std::vector<std::size_t> active;  // node index of each port
    for (std::size_t i = 0; i < n; ++i) {
        const LoopNode& node = config.nodes[i];
        if (node.passive) continue;
        PortConfig pc = node.port;
        try {
            pc.al_pa = node.loop_id ? phy::al_pa_of_loop_id(*node.loop_id) : phy::require_valid_al_pa(pc.al_pa, node_label(i, node));
        } catch (const std::exception& e) {
            throw ConfigError(node.loop_id ? node_label(i, node) + ": loop_ID " + std::to_string(*node.loop_id) + " is out of range 0..126" : e.what());
        }
        if (auto it = seen.find(pc.al_pa); it != seen.end())
            throw ConfigError(node_label(i, node) + ": AL_PA " + phy::al_pa_hex(pc.al_pa) + " is already used by " +
                              node_label(it->second, config.nodes[it->second]));
        seen[pc.al_pa] = i;
        if (pc.incoming_buffers < 1) throw ConfigError(node_label(i, node) + ": needs at least one incoming buffer");
        if (pc.login_bb_credit > pc.incoming_buffers)
            throw ConfigError(node_label(i, node) + ": Login_BB_Credit exceeds its incoming buffers");
        if (pc.name.empty()) pc.name = "port_" + phy::al_pa_hex(pc.al_pa).substr(2);
        ports_.push_back(std::make_unique<LPort>(pc.name.c_str(), pc, timing_, *this, activity_));
        active.push_back(i);
    }

    round_trip_ = sc_core::SC_ZERO_TIME;
    for (std::size_t i = 0; i < n; ++i) round_trip_ += hop(i) + repeat;

    // Hop delay from an active port to the output stage of the next active one: every cable on the
    // way plus the repeat delay of every node after the sender, the receiver included.
    for (std::size_t k = 0; k < active.size(); ++k) {
        const std::size_t from = active[k];
        const std::size_t to = active[(k + 1) % active.size()];
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        std::size_t i = from;
        do {
            delay += hop(i) + repeat;
            i = (i + 1) % n;
        } while (i != to);
        ports_[k]->connect(*ports_[(k + 1) % ports_.size()], delay);
        hops_.push_back(delay);
    }
    repeat_ = repeat;
    if (!(config.bypass_detect_s > 0.0)) throw ConfigError("loop.bypass_detect_us: must be positive");
    slots_ = PortBypassCircuits(ports_.size());
    for (std::size_t k = 0; k < ports_.size(); ++k) slots_.set_al_pa(k, ports_[k]->al_pa());

    node_count_ = n;
    for (const auto& [al_pa, i] : seen) node_of_[al_pa] = i;
    if (!(config.ber >= 0.0 && config.ber < 1.0)) throw ConfigError("loop.ber: must be at least 0 and below 1");
    if (!(config.al_time_s > 0.0)) throw ConfigError("loop.al_time_us: must be positive");
    const sc_core::sc_time al_time(config.al_time_s, sc_core::SC_SEC);
    // FC-AL's AL_TIME is twice the worst round trip: a shorter one would time out circuits that
    // merely wait for a word to come round.
    if (config.ber > 0.0 && al_time <= 2 * round_trip_)
        throw ConfigError("loop.al_time_us: " + std::to_string(config.al_time_s * 1e6) + " us is not above twice the loop's round trip (" +
                          std::to_string(2 * round_trip_.to_seconds() * 1e6) + " us); with loop.ber above 0 it must be");
    for (auto& p : ports_) {
        p->set_bit_errors(config.ber, config.error_seed, al_time);
        p->set_init_observer(this);
    }
}

void Loop::start_lip(std::size_t i, const std::string& cause)
{
    if (i >= ports_.size()) throw std::out_of_range("Loop::start_lip: no port " + std::to_string(i));
    if (!slots_.in_loop(i)) throw std::logic_error("Loop::start_lip: port " + std::to_string(i) + " is not in the loop");
    open_record(cause);
    // The LIP must reach every port: none may stay folded into a hop delay (docs/loop.md, "Fast path").
    wake_all();
    ports_[i]->initialize();
}

void Loop::open_record(const std::string& cause)
{
    if (activity_.initializing()) return;  // this initialization goes on
    LoopInitRecord r;
    r.cause = cause;
    r.start_s = sc_core::sc_time_stamp().to_seconds();
    inits_.push_back(std::move(r));
}

void Loop::wake_all()
{
    for (auto& p : ports_) p->wake();
}

void Loop::init_state_changed(LPort& port, LpsmState from, LpsmState to)
{
    (void)port;
    (void)from;
    if (inits_.empty()) return;  // a port initialized by a test on its own
    LoopInitRecord& r = inits_.back();
    if (to == LpsmState::Initializing) ++r.lip_count;
    if (activity_.initializing()) return;
    // The last port is back in MONITORING.
    r.duration_s = sc_core::sc_time_stamp().to_seconds() - r.start_s;
    r.al_pas.clear();
    for (std::size_t k = 0; k < ports_.size(); ++k) {
        if (!slots_.in_loop(k)) continue;  // out of the loop (docs/loop_init.md, "Port bypass circuits")
        const auto& p = ports_[k];
        const LoopInitProcedure& init = p->init_procedure();
        if (init.al_pa()) slots_.set_al_pa(k, init.al_pa());  // what LPB and LPE address
        r.al_pas.push_back({p->config().name, init.al_pa(), init.address_source()});
        if (init.master()) r.master_al_pa = init.al_pa();
    }
    if (on_initialized_) on_initialized_();
    if (!lpb_waiting_.empty()) send_waiting_lpbs();
}

void Loop::report_initializations(nlohmann::json& j) const
{
    nlohmann::json list = nlohmann::json::array();
    double down_s = 0;
    for (const LoopInitRecord& r : inits_) {
        nlohmann::json al_pas = nlohmann::json::array();
        for (const auto& a : r.al_pas)
            al_pas.push_back({{"port", a.port}, {"al_pa", a.al_pa ? nlohmann::json(phy::al_pa_hex(*a.al_pa)) : nlohmann::json(nullptr)},
                              {"how", loop::name(a.how)}});
        // An initialization still under way when the run ended lasts until then.
        const double duration_s = r.al_pas.empty() ? sc_core::sc_time_stamp().to_seconds() - r.start_s : r.duration_s;
        down_s += duration_s;
        list.push_back({{"cause", r.cause},
                        {"start_us", r.start_s * 1e6},
                        {"duration_us", duration_s * 1e6},
                        {"complete", !r.al_pas.empty()},
                        {"master_al_pa", r.master_al_pa ? nlohmann::json(phy::al_pa_hex(*r.master_al_pa)) : nlohmann::json(nullptr)},
                        {"lip_count", r.lip_count},
                        {"al_pas", al_pas}});
    }
    j["loop_initializations"] = inits_.size();
    j["loop_init"] = list;
    j["loop_down_us"] = down_s * 1e6;
}

unsigned Loop::links(phy::AlPa from, phy::AlPa to) const
{
    const auto f = node_of_.find(from), t = node_of_.find(to);
    if (f == node_of_.end() || t == node_of_.end()) return 1;
    const std::size_t d = (t->second + node_count_ - f->second) % node_count_;
    return static_cast<unsigned>(d == 0 ? node_count_ : d);
}

LPort* Loop::find(phy::AlPa al_pa)
{
    for (auto& p : ports_)
        if (p->al_pa() == al_pa) return p.get();
    return nullptr;
}

unsigned Loop::login_bb_credit(phy::AlPa port) const
{
    for (std::size_t k = 0; k < ports_.size(); ++k)
        if (ports_[k]->al_pa() == port)
            // A port out of the loop grants nothing: frames sent on credit would come back to the sender.
            return slots_.in_loop(k) ? ports_[k]->config().login_bb_credit : 0;
    return 0;  // a port not on this loop cannot be opened; OPN(yy) gives no source
}

bool Loop::on_loop(phy::AlPa port) const
{
    for (const auto& p : ports_)
        if (p->al_pa() == port) return true;
    return false;
}

void Loop::settle_ports()
{
    for (auto& port : ports_) port->settle_passed_changes();
}

void Loop::report(nlohmann::json& j) const
{
    std::uint64_t discarded = 0, violations = 0, frames = 0;
    for (const auto& port : ports_) {
        const PortStats s = port->stats();
        discarded += s.frames_discarded;
        violations += s.code_violations;
        frames += s.frames_sent;
    }
    j["frames_discarded"] = discarded;
    j["code_violations"] = violations;
    j["kernel"] = {{"port_activations", activations()}, {"frames_sent", frames}};
}

}  // namespace fcal::loop
