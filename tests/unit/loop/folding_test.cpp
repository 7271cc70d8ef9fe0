// The fast path beyond passing changes through (docs/loop.md, "Fast path"): a port whose
// LPSM has a routine for what arrives leaves the chain of ports a change visits (folded), and learns
// what passed it from the log of the active port before it; a port takes changes that alter nothing
// it does when it next runs, and sends the fill word after its own word ahead of time. The LPSM side
// word by word (its routines, a run repeated in one step, the words that may wait), the log's
// summaries against a plain walk over the words, and whole loops with and without all of it.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "fcal/loop/lpsm.hpp"
#include "fcal/loop/output_log.hpp"
#include "loop_fixture.hpp"
#include "lpsm_driver.hpp"

using namespace fcal;
using loop::LpsmState;
using loop::Word;
using K = loop::Lpsm::Decision::Kind;
using R = loop::Lpsm::Routine;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

const auto frame = test::lpsm_frame;

// One LPSM with its queue, driven word by word.
struct Port : test::DrivenLpsm {
    explicit Port(phy::AlPa al_pa, bool fair = true) : DrivenLpsm(config(al_pa, fair)) {}
    static loop::PortConfig config(phy::AlPa al_pa, bool fair)
    {
        loop::PortConfig c;
        c.al_pa = al_pa;
        c.fair = fair;
        return c;
    }
    // Wins the loop, sends one frame to `dest` and leaves it: MONITORING without ACCESS.
    void one_circuit(phy::AlPa dest)
    {
        DrivenLpsm::one_circuit(dest);
        lpsm.receive(Word::arb(0x40));  // somebody else's fill: not the fill originator any more
    }
};

// Words that do not name port 0x10, for runs it repeats.
std::vector<Word> word_pool(bool with_idle)
{
    std::vector<Word> pool{Word::arb(phy::kArbFairnessFill), Word::arb(phy::kArbFF), Word::arb(0x20), Word::arb(0x08),
                           Word::r_rdy(), Word::cls(), Word::opn(0x30, 0x30, false), Word::opn(0x30, 0x40, true),
                           Word::frame_of(frame(0x40, 0x30))};
    if (with_idle) pool.push_back(Word::idle());
    return pool;
}

void check_same(loop::Lpsm& a, loop::Lpsm& b)
{
    CHECK(a.state() == b.state());
    CHECK(a.access() == b.access());
    CHECK(a.arbitrating() == b.arbitrating());
    CHECK(a.fill() == b.fill());
    CHECK(a.last_received() == b.last_received());
    CHECK(a.routine() == b.routine());
}

// Puts both ports in the same starting situation.
enum class Start { Fresh, AfterWin, Waiting, Arbitrating };

void prepare(Port& p, Start s)
{
    switch (s) {
    case Start::Fresh: break;
    case Start::AfterWin: p.one_circuit(0x30); break;
    case Start::Waiting:
        p.one_circuit(0x30);
        p.queue_for(0x30);  // no ACCESS: it waits for the next window
        break;
    case Start::Arbitrating: p.queue_for(0x30); break;
    }
}

}  // namespace

TEST_CASE("folding: the LPSM names a routine only where the port would only pass words on", "[loop][fold]")
{
    Port p(0x10);
    CHECK(p.lpsm.routine() == R::Repeats);
    p.queue_for(0x30);
    CHECK(p.lpsm.routine() == R::ReplacesFill);  // ACCESS set: it arbitrates at once
    p.lpsm.receive(Word::arb(0x10));
    CHECK(p.lpsm.routine() == R::Acts);  // won: it owns the loop
    Port q(0x10);
    q.one_circuit(0x30);
    CHECK(q.lpsm.routine() == R::Repeats);
    CHECK_FALSE(q.lpsm.access());
    CHECK_FALSE(q.lpsm.request_awaits_idle());  // nothing to send
    q.queue.push(loop::OutgoingFrame{frame(0x10, 0x30)});
    CHECK(q.lpsm.request_awaits_idle());  // taking up this request only waits for the window...
    q.lpsm.update_arbitration();
    CHECK(q.lpsm.routine() == R::AwaitsIdle);  // ...as it does: fair, without ACCESS
    CHECK_FALSE(q.lpsm.request_awaits_idle());  // taken up
    q.queue_for(0x30);
    CHECK(q.lpsm.routine() == R::AwaitsIdle);
    q.lpsm.receive(Word::idle());  // the window opens: it arbitrates, repeating this IDLE first
    q.lpsm.update_arbitration();
    CHECK(q.lpsm.repeats_access_word());
    CHECK(q.lpsm.routine() == R::Acts);
    q.lpsm.access_word_repeated();
    CHECK(q.lpsm.routine() == R::ReplacesFill);

    Port a(0x10);
    a.queue.push(loop::OutgoingFrame{frame(0x10, 0x30)});
    CHECK_FALSE(a.lpsm.request_awaits_idle());  // with ACCESS it arbitrates at once
    Port u(0x10, false);  // unfair: arbitrates without ACCESS
    u.one_circuit(0x30);
    u.queue.push(loop::OutgoingFrame{frame(0x10, 0x30)});
    CHECK_FALSE(u.lpsm.request_awaits_idle());
    u.lpsm.update_arbitration();
    CHECK(u.lpsm.routine() == R::ReplacesFill);

    // An opened port, and the fill originator (it left while its ARB(F0) was on the wire), act.
    Port o(0x10);
    o.lpsm.receive(Word::opn(0x10, 0x10, false));
    CHECK(o.lpsm.routine() == R::Acts);
    Port f(0x10);
    f.queue_for(0x30);
    f.lpsm.receive(Word::arb(0x10));
    f.act(K::Opn);
    f.lpsm.receive(Word::r_rdy());
    f.act(K::Frame);
    f.act(K::Cls);
    f.lpsm.receive(Word::cls());
    f.act(K::Leave);
    CHECK(f.lpsm.routine() == R::Acts);
    f.lpsm.receive(Word::idle());
    f.lpsm.update_arbitration();
    CHECK(f.lpsm.routine() == R::Repeats);

    // Word errors: its own words may come back round, which it must take off.
    Port e(0x10);
    loop::BitErrors errors(1e-9, 1);
    e.lpsm.set_word_errors(&errors);
    CHECK(e.lpsm.routine() == R::Acts);
}

TEST_CASE("folding: a run of words repeated in one step leaves the LPSM as word by word", "[loop][fold]")
{
    std::mt19937 rng(7);
    for (const Start start : {Start::Fresh, Start::AfterWin, Start::Waiting, Start::Arbitrating}) {
        // A port waiting for the access window is woken by an IDLE: its runs have none.
        const auto pool = word_pool(start != Start::Waiting);
        for (int trial = 0; trial < 200; ++trial) {
            Port a(0x10), b(0x10);
            prepare(a, start);
            prepare(b, start);
            const R routine = a.lpsm.routine();
            REQUIRE(routine != R::Acts);
            const std::size_t n = 1 + rng() % 12;
            loop::RepeatedWords run;
            for (std::size_t i = 0; i < n; ++i) {
                const Word w = pool[rng() % pool.size()];
                a.lpsm.repeated(w);
                run.last = w;
                if (w.is_fill()) run.last_fill = w;
                run.idle = run.idle || w.kind == loop::WordKind::Idle;
            }
            b.lpsm.repeated(run);
            INFO("start " << static_cast<int>(start) << " trial " << trial);
            check_same(a.lpsm, b.lpsm);
            // And they go on alike: the window opens, the port arbitrates and wins.
            for (loop::Lpsm* l : {&a.lpsm, &b.lpsm}) {
                l->receive(Word::idle());
                l->update_arbitration();
                if (l->repeats_access_word()) l->access_word_repeated();
            }
            check_same(a.lpsm, b.lpsm);
            if (start != Start::Fresh && start != Start::AfterWin) {
                a.lpsm.receive(Word::arb(0x10));
                b.lpsm.receive(Word::arb(0x10));
                CHECK(a.lpsm.state() == LpsmState::ArbitrationWon);
                check_same(a.lpsm, b.lpsm);
            }
        }
    }
}

TEST_CASE("folding: a port in a circuit takes later only the words that change nothing it does", "[loop][fold]")
{
    // The opener, owner of the loop, OPEN with its peer's credit: an R_RDY only adds to it.
    Port a(0x10);
    a.queue_for(0x30);
    a.queue_for(0x30);
    a.lpsm.receive(Word::arb(0x10));
    a.act(K::Opn);
    CHECK(a.lpsm.state() == LpsmState::Open);
    CHECK(a.lpsm.credit().credit() == 0);
    CHECK_FALSE(a.lpsm.may_wait(Word::r_rdy()));  // no credit, frames waiting: the R_RDY lets one go
    a.lpsm.receive(Word::r_rdy());
    a.lpsm.receive(Word::r_rdy());
    CHECK(a.lpsm.may_wait(Word::r_rdy()));  // credit already
    // Its own fill is ARB(F0) until that comes back: then it switches to IDLE, at once.
    CHECK(a.lpsm.fill() == Word::arb(phy::kArbFairnessFill));
    CHECK_FALSE(a.lpsm.may_wait(Word::arb(phy::kArbFairnessFill)));
    CHECK(a.lpsm.may_wait(Word::idle()));
    CHECK(a.lpsm.may_wait(Word::arb(0x20)));  // somebody waits: it matters only when the circuit ends
    CHECK_FALSE(a.lpsm.may_wait(Word::cls()));
    a.lpsm.receive(Word::arb(phy::kArbFairnessFill));
    CHECK(a.lpsm.may_wait(Word::arb(phy::kArbFairnessFill)));  // already filling with IDLE

    // The opened port sends the fill word it receives: a different one changes its output.
    Port b(0x30, true);
    b.lpsm.receive(Word::arb(0x20));
    b.lpsm.receive(Word::opn(0x30, 0x30, false));
    CHECK(b.lpsm.state() == LpsmState::Opened);
    CHECK(b.lpsm.may_wait(Word::frame_of(frame(0x10, 0x30))));  // taken with its EOF
    CHECK_FALSE(b.lpsm.may_wait(Word::frame_of(frame(0x10, 0x40))));  // not ours: an error, at once
    CHECK(b.lpsm.may_wait(Word::arb(0x20)));
    CHECK_FALSE(b.lpsm.may_wait(Word::idle()));
    const Word idle = Word::idle();
    CHECK(b.lpsm.may_wait(Word::idle(), &idle));  // an IDLE is on its way already
    CHECK(b.lpsm.may_wait(Word::r_rdy()));  // half duplex: it sends no frames, credit means nothing
    b.lpsm.receive(Word::frame_of(frame(0x10, 0x30)));
    CHECK(b.lpsm.receiving_frame());

    // Repeating ports process what they hold at once (they pass the rest on anyway).
    Port m(0x40);
    CHECK_FALSE(m.lpsm.may_wait(Word::r_rdy()));
    CHECK_FALSE(m.lpsm.may_wait(Word::arb(0x20)));
}

TEST_CASE("folding: the arbitrating fill word depends only on the highest-priority arbitrating port", "[loop][fold]")
{
    const std::vector<phy::AlPa> ports{0x20, 0x08, 0xE8, 0x01};
    for (const Word& w : {Word::idle(), Word::arb(phy::kArbFairnessFill), Word::arb(phy::kArbFF), Word::arb(0x04), Word::arb(0x10)}) {
        Word through = w;
        for (phy::AlPa p : ports) through = loop::arbitrating_fill(through, p);
        CHECK(through == loop::arbitrating_fill(w, 0x01));
    }
    CHECK(loop::arbitrating_fill(Word::arb(0x04), 0x08) == Word::arb(0x04));  // higher priority: passes
    CHECK(loop::arbitrating_fill(Word::arb(0x10), 0x08) == Word::arb(0x08));
    CHECK(loop::arbitrating_fill(Word::idle(), 0x08) == Word::arb(0x08));
}

TEST_CASE("folding: the output log sums up any run as a walk over its words does", "[loop][fold]")
{
    std::mt19937 rng(11);
    const auto pool = word_pool(true);
    for (int trial = 0; trial < 300; ++trial) {
        loop::OutputLog log;
        // The words as logged, with their numbers; some taken back on the way (recalled), which
        // leaves a gap in the numbers.
        struct Logged {
            sc_time at;
            Word word;
            loop::OutputLog::Seq seq;
        };
        std::vector<Logged> words;
        sc_time t(5, SC_NS);
        const std::size_t n = 1 + rng() % 40;
        for (std::size_t i = 0; i < n; ++i) {
            t += sc_time(static_cast<double>(rng() % 3), SC_NS);  // same instants too
            const Word w = pool[rng() % pool.size()];
            words.push_back({t, w, log.end()});
            log.push(t, w);
            if (rng() % 10 == 0 && words.size() > 1) {
                const sc_time cutoff = words[words.size() - 2].at;
                log.truncate_after(cutoff);
                while (!words.empty() && words.back().at > cutoff) words.pop_back();
                t = cutoff;
            }
        }
        if (words.empty()) continue;
        const std::size_t m = words.size();
        const std::size_t dropped = rng() % m;
        log.drop_before(words[dropped].seq);
        const std::size_t from = dropped + rng() % (m - dropped);
        const std::size_t to = from + 1 + rng() % (m - from);
        const loop::OutputLog::Seq to_seq = to < m ? words[to].seq : log.end();
        const Word before = pool[rng() % pool.size()];
        const sc_time offset(static_cast<double>(rng() % 100), SC_NS);
        const auto run = log.run(words[from].seq, to_seq, before, offset);
        REQUIRE(run);

        // The walk: each word ends when the next one starts.
        std::optional<Word> last_fill;
        bool idle = false;
        std::optional<sc_time> nonfill_end, frame_end;
        Word on = before;
        for (std::size_t i = from; i < to; ++i) {
            const Logged& l = words[i];
            if (!on.is_fill()) nonfill_end = l.at + offset;
            if (on.kind == loop::WordKind::Frame) frame_end = l.at + offset;
            on = l.word;
            if (l.word.is_fill()) last_fill = l.word;
            idle = idle || l.word.kind == loop::WordKind::Idle;
        }
        INFO("trial " << trial);
        CHECK(run->words.last == words[to - 1].word);
        CHECK(run->last_at == words[to - 1].at + offset);
        CHECK(run->words.last_fill == last_fill);
        CHECK(run->words.idle == idle);
        CHECK(run->primitive_or_frame_end == nonfill_end);
        CHECK(run->frame_end == frame_end);
        // Whether an IDLE is among the entries (withdrawn ones aside), from the same numbers.
        CHECK(log.has_idle(words[from].seq, to_seq) == idle);

        // What has reached a point `offset` downstream by some instant: everything up to it.
        const sc_time now = words[from].at + offset + sc_time(static_cast<double>(rng() % 20), SC_NS);
        const auto first = log.first_after(words[from].seq, log.end(), offset, now);
        for (std::size_t i = from; i < m; ++i) CHECK((words[i].at + offset > now) == (words[i].seq >= first));
        // Entries recalled leave the log, and their numbers are never given again: a reader pinned
        // before them finds only what it had.
        const loop::OutputLog::Seq end_before = log.end();
        log.pin(words[from].seq);
        log.truncate_after(words[from].at);
        log.push(words[from].at + sc_time(1, SC_NS), Word::cls());
        CHECK(log.end() == end_before + 1);
        log.drop_before(log.end());
        CHECK(log.begin() == words[from].seq);  // the pinned entry stays
        std::size_t read = 0;
        log.for_each(words[from].seq, end_before, [&](const loop::OutputLog::Entry& e) {
            CHECK(e.at <= words[from].at);
            ++read;
        });
        CHECK(read >= 1);
        log.unpin(words[from].seq);
        log.drop_before(log.end());
        CHECK(log.empty());
    }
}

TEST_CASE("folding: the output log keeps what its lowest pin needs and lets the frames it drops go", "[loop][fold]")
{
    // Many readers pinned, many at one number (the folded ports behind a port that rejoined), moved
    // on or back and unpinned in any order, entries recalled and dropped: the log must keep exactly
    // the entries from the lowest pin (or the number asked) on, each frame among them still held
    // unless recalled, those before let go.
    std::mt19937 rng(23);
    using Seq = loop::OutputLog::Seq;
    for (int trial = 0; trial < 200; ++trial) {
        loop::OutputLog log;
        struct Logged {
            sc_time at;
            loop::FrameRef frame;  // a handle of the test's own; empty if not a frame
            bool is_frame = false;
            bool withdrawn = false;
        };
        std::vector<Logged> words;  // by entry number
        std::multiset<Seq> pins;
        Seq begin = 0;
        sc_time t(5, SC_NS);
        for (int step = 0; step < 80; ++step) {
            const unsigned what = rng() % 8;
            if (what <= 1) {
                t += sc_time(1, SC_NS);
                Logged l{t, {}, rng() % 2 == 0};
                if (l.is_frame) {
                    auto f = frame(0x40, 0x30);
                    l.frame = f;
                    log.push(t, Word::frame_of(std::move(f)));
                } else {
                    log.push(t, Word::arb(0x20));
                }
                words.push_back(l);
            } else if (what == 2) {
                // Several readers at one number.
                const Seq at = begin + rng() % (log.end() - begin + 1);
                for (unsigned k = 1 + rng() % 3; k > 0; --k) {
                    log.pin(at);
                    pins.insert(at);
                }
            } else if (what == 3 && !pins.empty()) {
                // A reader moves on, or back (never before what the log keeps).
                auto it = std::next(pins.begin(), static_cast<long>(rng() % pins.size()));
                const Seq to = begin + rng() % (log.end() - begin + 1);
                log.repin(*it, to);
                pins.erase(it);
                pins.insert(to);
            } else if (what == 4 && !pins.empty()) {
                auto it = std::next(pins.begin(), static_cast<long>(rng() % pins.size()));
                log.unpin(*it);
                pins.erase(it);
            } else if (what == 5 && !words.empty()) {
                // The last few entries recalled.
                const sc_time cutoff = t - sc_time(static_cast<double>(rng() % 4), SC_NS);
                log.truncate_after(cutoff);
                for (Seq s = begin; s < words.size(); ++s)
                    if (words[s].at > cutoff) words[s].withdrawn = true;
            }
            if (what >= 6) {
                // The log is compacted up to some number, or as far as its readers let it.
                const Seq asked = what == 6 ? begin + rng() % (log.end() - begin + 1) : log.end();
                log.drop_before(asked);
                begin = std::max(begin, std::min(asked, pins.empty() ? asked : *pins.begin()));
            }
            INFO("trial " << trial << " step " << step);
            REQUIRE(log.begin() == begin);
            for (Seq s = 0; s < words.size(); ++s)
                if (words[s].is_frame) CHECK((words[s].frame.use_count() == 1) == (s < begin || words[s].withdrawn));  // the log let it go
        }
    }
}

namespace {

// Two copies of one loop and its traffic: one with every port watched, so that every change visits
// every port (the full path), the other free to fold ports.
struct Twin {
    std::unique_ptr<loop::Loop> loop;
    std::vector<std::unique_ptr<test::Endpoint>> ends;
    std::ostringstream text;
    loop::PortWatcher watcher{text};
    std::size_t most_folded = 0;

    Twin(const char* name, const std::vector<loop::LoopNode>& nodes, double hop_m, bool watched)
    {
        loop::LoopConfig cfg;
        cfg.nodes = nodes;
        cfg.hop_m = {hop_m};
        loop = std::make_unique<loop::Loop>(name, cfg);
        for (std::size_t i = 0; i < loop->port_count(); ++i) {
            ends.push_back(std::make_unique<test::Endpoint>(loop->port(i)));
            // Every other port has no use for frame_sent(): it may send its frames ahead.
            ends.back()->wants_sent = i % 2 == 0;
            if (watched) loop->port(i).set_watcher(&watcher);
        }
    }
    test::Endpoint& at(phy::AlPa a)
    {
        for (auto& e : ends)
            if (e->port_.al_pa() == a) return *e;
        throw std::logic_error("no such port");
    }
    void count_folded()
    {
        std::size_t n = 0;
        for (std::size_t i = 0; i < loop->port_count(); ++i) n += loop->port(i).folded() ? 1 : 0;
        most_folded = std::max(most_folded, n);
    }
};

void check_same(Twin& full, Twin& fast)
{
    for (std::size_t i = 0; i < full.ends.size(); ++i) {
        const test::Endpoint& a = *full.ends[i];
        const test::Endpoint& b = *fast.ends[i];
        INFO("port " << phy::al_pa_hex(a.port_.al_pa()));
        REQUIRE(a.received.size() == b.received.size());
        for (std::size_t k = 0; k < a.received.size(); ++k) {
            CHECK(a.received[k].t_ns == b.received[k].t_ns);
            CHECK(a.received[k].peer == b.received[k].peer);
        }
        REQUIRE(a.sent.size() == b.sent.size());
        for (std::size_t k = 0; k < a.sent.size(); ++k) CHECK(a.sent[k].t_ns == b.sent[k].t_ns);
        CHECK(a.port_.stats().frames_sent == b.port_.stats().frames_sent);
        CHECK(a.port_.stats().r_rdys_received == b.port_.stats().r_rdys_received);
        CHECK(a.port_.stats().r_rdys_sent == b.port_.stats().r_rdys_sent);
        REQUIRE(a.states.size() == b.states.size());
        for (std::size_t k = 0; k < a.states.size(); ++k) {
            CHECK(a.states[k].t_ns == b.states[k].t_ns);
            CHECK(a.states[k].to == b.states[k].to);
        }
        CHECK(a.port_.stats().arbitration_wait_total_s == b.port_.stats().arbitration_wait_total_s);
        CHECK(a.port_.stats().arbitrations_without_access == b.port_.stats().arbitrations_without_access);
        CHECK(a.port_.stats().transfers == b.port_.stats().transfers);
        // A folded port knows what passed it (a quiet port in the chain catches up when it next runs).
        if (b.port_.folded()) {
            CHECK(a.port_.access() == b.port_.access());
            CHECK(a.port_.transmitting() == b.port_.transmitting());
        }
    }
}

}  // namespace

TEST_CASE("folding: a loop with folded ports behaves exactly as with every port on the full path", "[loop][fold]")
{
    // Eight ports (and passive nodes between some) under contention: fair ports that wait for the
    // access window and arbitrate, an unfair one, login credit, full duplex, and ports idle most of
    // the time that are opened (woken by their OPN) or given frames to send (woken by the layer
    // above) now and then.
    std::vector<loop::LoopNode> nodes{test::active_node(0x01, 3), test::active_node(0xE8, 2), test::passive_node(),
                                      test::active_node(0xE4, 2, 2), test::active_node(0xE2, 1), test::passive_node(),
                                      test::active_node(0xE1, 2, 0, false), test::active_node(0xE0, 1),
                                      test::active_node(0xDC, 2), test::active_node(0xDA, 1)};
    nodes[1].port.full_duplex = true;
    nodes[0].port.full_duplex = true;
    Twin full("full", nodes, 7.0, true), fast("fast", nodes, 7.0, false);
    auto both = [&](auto&& f) {
        f(full);
        f(fast);
    };
    both([](Twin& t) {
        t.at(0xE8).request_circuits(0x01, 12);
        t.at(0xE4).request_circuits(0x01, 12);
        t.at(0xE1).request_circuits(0xE8, 8);
        t.at(0x01).send(0xE8, 6);
    });
    // A folded port given its first frame while its access window is closed only waits for the
    // next one: it stays folded (LPort::frames_changed). Counted on the fast loop.
    int waited_folded = 0;
    auto send = [&](Twin& t, phy::AlPa from, phy::AlPa to, unsigned frames, std::uint32_t bytes) {
        loop::LPort& port = t.at(from).port_;
        const bool folded_idle = port.folded() && port.transmit_queue().empty();
        t.at(from).send(to, frames, bytes);
        if (folded_idle && port.folded()) ++waited_folded;
    };
    // The layer above takes back what it queued in the same instant (its link is lost): the request
    // is withdrawn, whether taken up folded or not (LPort::discard_queued).
    int withdrawn_folded = 0;
    auto send_and_discard = [&](Twin& t, phy::AlPa from, phy::AlPa to) {
        const int before = waited_folded;
        send(t, from, to, 1, 256);
        if (waited_folded > before) ++withdrawn_folded;
        t.at(from).port_.discard_queued();
    };
    for (int step = 0; step < 40; ++step) {
        sc_core::sc_start(7, sc_core::SC_US);
        both([&](Twin& t) {
            if (step % 5 == 1) send(t, 0xDC, 0xDA, 1, 128);
            if (step % 7 == 3) send(t, 0x01, 0xE0, 2, 512);
            if (step % 9 == 4) send(t, 0xE2, 0xE4, 1, 64);
            if (step % 11 == 6 && step != 28) send(t, 0xDA, 0x01, 3, 2048);
            if (step == 28) send_and_discard(t, 0xDA, 0x01);  // it waits folded then (the count below)
        });
        fast.count_folded();
        CHECK(full.most_folded == 0);
    }
    sc_core::sc_start(2, sc_core::SC_MS);
    fast.count_folded();
    CHECK(fast.most_folded >= 3);  // the test is about folded ports: there must have been some
    CHECK(waited_folded >= 1);     // and about ports that wait for the access window folded
    CHECK(withdrawn_folded >= 1);  // and withdraw a request taken up folded
    CHECK(full.at(0x01).received.size() > 20);
    check_same(full, fast);
}
