// Verilator's headers first: they switch to SystemC mode if SystemC's headers came before them,
// and this model is plain C++ advanced by explicit calls.
#include <verilated.h>
#include <verilated_vcd_c.h>

#include "Vcmdf_top.h"

#include "fcal/cosim/command_first_rtl.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace fcal::cosim {

namespace {
constexpr const char* kModelName = "cmdf";  // the VCD's top scope

// Verilator's own VCD file ends the program on a failed write (and 5.006 deadlocks doing so, taking
// a lock it holds): this one keeps the first error for the caller and drops the rest of the data.
class CheckedVcdFile : public VerilatedVcdFile {
public:
    bool open(const std::string& name) override
    {
        error_ = 0;
        fd_ = ::open(name.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0666);
        return fd_ >= 0;
    }
    void close() override
    {
        if (fd_ >= 0 && ::close(fd_) != 0 && error_ == 0) error_ = errno;
        fd_ = -1;
    }
    ssize_t write(const char* data, ssize_t size) override
    {
        for (ssize_t done = 0; error_ == 0 && done < size;) {
            const ssize_t n = ::write(fd_, data + done, static_cast<std::size_t>(size - done));
            if (n >= 0)
                done += n;
            else if (errno != EINTR)
                error_ = errno;
        }
        return size;
    }
    int error() const { return error_; }

private:
    int fd_ = -1;
    int error_ = 0;
};

}  // namespace

struct CommandFirstRtl::Model {
    VerilatedContext context;
    std::unique_ptr<Vcmdf_top> top;
    CheckedVcdFile vcd_file;  // outlives vcd, which writes through it
    std::unique_ptr<VerilatedVcdC> vcd;
    Model()
    {
        // An assertion must not abort the simulator: it is reported through assertion_failure().
        context.fatalOnError(false);
        context.traceEverOn(true);
        own_context();
        top = std::make_unique<Vcmdf_top>(&context, kModelName);
    }
    // Verilator reports assertions to, and unregisters scopes from, the thread's current context:
    // make it this model's before anything that may do either, or with two models alive in one
    // process the reports would go to the other one (or to one already destroyed).
    void own_context() { Verilated::threadContextp(&context); }
    void eval()
    {
        own_context();
        top->eval();
    }
    ~Model()
    {
        own_context();
        vcd.reset();
        top.reset();
    }
};

namespace {
std::uint8_t class_code(loop::FrameClass c) { return static_cast<std::uint8_t>(c); }
loop::FrameClass class_of(unsigned code)
{
    switch (code) {
    case 0: return loop::FrameClass::Data;
    case 1: return loop::FrameClass::Command;
    default: return loop::FrameClass::Other;
    }
}
}  // namespace

CommandFirstRtl::CommandFirstRtl(const hba::CommandFirst& policy, double clock_mhz)
    : m_(std::make_unique<Model>()), period_ps_(1e6 / clock_mhz)
{
    if (!(clock_mhz > 0)) throw std::invalid_argument("CommandFirstRtl: clock must be > 0 MHz");
    Vcmdf_top& t = *m_->top;
    t.cfg_fifo = policy.fifo == hba::CommandFifo::Off ? 0 : policy.fifo == hba::CommandFifo::Reorder ? 1 : 2;
    t.cfg_arbitration = policy.arbitration;
    t.cfg_preempt = policy.preempt;
    t.push = 0;
    t.pop = 0;
    t.clk = 0;
    t.rst = 1;
    m_->eval();
    t.clk = 1;
    m_->eval();
    t.clk = 0;
    t.rst = 0;
    m_->eval();
    check_assertions();
}

CommandFirstRtl::~CommandFirstRtl() { close_vcd(); }

std::optional<Descriptor> CommandFirstRtl::head() const
{
    const Vcmdf_top& t = *m_->top;
    if (!t.head_valid) return std::nullopt;
    Descriptor d;
    d.tag = t.head_tag;
    d.dest = t.head_dest;
    d.frame_class = class_of(t.head_class);
    d.words = t.head_len;
    d.unfair_arb = t.head_unfair_arb;
    d.unfair_xfer = t.head_unfair_xfer;
    return d;
}

std::optional<Descriptor> CommandFirstRtl::select(phy::AlPa dest, double now_ps)
{
    Vcmdf_top& t = *m_->top;
    if (t.q_dest != dest) {
        t.q_dest = dest;
        m_->eval();
        ++counters_.evaluations;
        // Show the question in the waveform too, never before what is already drawn.
        if (now_ps >= 0) mark(std::max(static_cast<std::uint64_t>(std::llround(now_ps)), last_mark_ps_ + 1));
    }
    if (!t.sel_valid) return std::nullopt;
    Descriptor d;
    d.tag = t.sel_tag;
    d.dest = dest;
    d.frame_class = class_of(t.sel_class);
    d.words = t.sel_len;
    return d;
}

bool CommandFirstRtl::preempt_request(phy::AlPa open_peer, double now_ps)
{
    select(open_peer, now_ps);
    return m_->top->preempt_req;
}

bool CommandFirstRtl::full(bool command_fifo) const { return command_fifo ? m_->top->cmd_full : m_->top->frame_full; }
unsigned CommandFirstRtl::frames_queued() const { return m_->top->frame_count; }
unsigned CommandFirstRtl::commands_queued() const { return m_->top->cmd_count; }

void CommandFirstRtl::cycle(const Descriptor* push, std::optional<phy::AlPa> pop_dest, double now_ps)
{
    Vcmdf_top& t = *m_->top;
    const auto first = static_cast<std::uint64_t>(std::ceil(now_ps / period_ps_ - 1e-9));
    const std::uint64_t edge = std::max(first, next_edge_);
    next_edge_ = edge + 1;
    const auto edge_ps = static_cast<std::uint64_t>(std::llround(edge * period_ps_));

    t.push = push != nullptr;
    if (push) {
        t.push_tag = push->tag;
        t.push_dest = push->dest;
        t.push_class = class_code(push->frame_class);
        t.push_len = push->words;
    }
    t.pop = pop_dest.has_value();
    if (pop_dest) t.q_dest = *pop_dest;
    t.clk = 0;
    m_->eval();
    if (edge_ps > last_mark_ps_ + 1) mark(edge_ps - 1);  // the inputs just before the edge
    t.clk = 1;
    settle(edge_ps);
    last_edge_ps_ = last_mark_ps_;
    t.push = 0;
    t.pop = 0;
    // The falling edge changes nothing (no output depends on push or pop, and only rising edges
    // clock the block); it is evaluated only to draw the waveform. Untraced, the clock stays high
    // until the next cycle's first evaluation brings it low: two evaluations a cycle, not three.
    // Its time is kept either way, so that vcd_time_ps() does not depend on the tracing.
    const auto falling_ps = static_cast<std::uint64_t>(std::llround(edge * period_ps_ + period_ps_ / 2));
    if (m_->vcd) {
        t.clk = 0;
        settle(falling_ps);
    } else {
        mark(std::max(falling_ps, last_mark_ps_ + 1));
    }
    ++counters_.cycles;
    check_assertions();
}

void CommandFirstRtl::settle(std::uint64_t at_ps)
{
    m_->context.time(at_ps);
    m_->eval();
    mark(std::max(at_ps, last_mark_ps_ + 1));
}

// A change of the block at `at_ps` on the VCD's axis: drawn if a VCD is open, its time kept anyway.
void CommandFirstRtl::mark(std::uint64_t at_ps)
{
    if (m_->vcd) m_->vcd->dump(at_ps);
    last_mark_ps_ = at_ps;
}

std::uint64_t CommandFirstRtl::vcd_time_ps(double now_ps) const
{
    return now_ps > 0 ? std::max(last_mark_ps_, static_cast<std::uint64_t>(std::llround(now_ps))) : last_mark_ps_;
}

void CommandFirstRtl::check_assertions()
{
    if (assertion_failure_.empty() && m_->context.gotError())
        assertion_failure_ = "an assertion in rtl/ failed (its message is on stderr)";
}

void CommandFirstRtl::open_vcd(const std::string& path, VcdScope scope)
{
    m_->vcd = std::make_unique<VerilatedVcdC>(&m_->vcd_file);
    m_->vcd->set_time_unit("1ps");
    m_->vcd->set_time_resolution("1ps");
    // Verilator 5.006 ignores trace()'s depth argument; the writer's $dumpvars-style filter,
    // applied as the signals are declared, does the selection: the pins are the signals one level
    // below the model's name (its TOP scope), cmdf_top's own copies of them one level further.
    if (scope == VcdScope::PinsOnly) m_->vcd->dumpvars(1, kModelName);
    m_->top->trace(m_->vcd.get(), 99);
    m_->vcd->open(path.c_str());
    if (!m_->vcd->isOpen()) {
        m_->vcd.reset();
        throw std::runtime_error("cannot write '" + path + "'");
    }
    mark(last_mark_ps_);
}

void CommandFirstRtl::close_vcd()
{
    if (!m_->vcd) return;
    m_->vcd->close();
    m_->vcd.reset();
}

std::string CommandFirstRtl::vcd_error() const { return m_->vcd_file.error() != 0 ? std::strerror(m_->vcd_file.error()) : ""; }

}  // namespace fcal::cosim
