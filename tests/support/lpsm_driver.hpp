#pragma once
// Test-only: an LPSM driven word by word without a simulation kernel, with what it needs around it:
// a directory of the loop's ports, an observer that records what it reports, a queue of frames.
#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fcal/loop/lpsm.hpp"
#include "fcal/loop/transmit_queue.hpp"

namespace fcal::test {

// Every AL_PA is on the loop; login BB_Credit 0 unless set.
struct LpsmDirectory : loop::LoopDirectory {
    std::map<phy::AlPa, unsigned> login_credit;
    unsigned login_bb_credit(phy::AlPa p) const override { return login_credit.count(p) ? login_credit.at(p) : 0; }
    bool on_loop(phy::AlPa) const override { return true; }
};

// Records the LPSM's events, states and received frames; a protocol error fails the test at once.
struct LpsmRecorder : loop::LpsmObserver {
    using E = loop::LpsmObserver::Event;
    std::vector<E> events;
    std::vector<loop::LpsmState> states;
    std::vector<loop::FrameRef> received;
    void lpsm_event(E e) override { events.push_back(e); }
    void state_changed(loop::LpsmState, loop::LpsmState to) override { states.push_back(to); }
    void frame_received(const loop::FrameRef& f) override { received.push_back(f); }
    void protocol_error(const std::string& what) override { throw std::runtime_error(what); }
    unsigned count(E e) const { return static_cast<unsigned>(std::count(events.begin(), events.end(), e)); }
};

inline loop::FrameRef lpsm_frame(phy::AlPa src, phy::AlPa dest)
{
    auto f = kernel::make_ref<loop::LoopFrame>();
    f->source = src;
    f->destination = dest;
    f->payload_bytes = 64;
    return f;
}

// One port under test, with its queue and observer.
struct DrivenLpsm {
    using K = loop::Lpsm::Decision::Kind;
    explicit DrivenLpsm(loop::PortConfig c) : cfg(c), lpsm(cfg, dir, rec) { lpsm.set_queue(&queue); }
    void queue_for(phy::AlPa dest, unsigned n = 1)
    {
        for (unsigned i = 0; i < n; ++i) queue.push(loop::OutgoingFrame{lpsm_frame(cfg.al_pa, dest)});
        lpsm.update_arbitration();
    }
    // Carries out what next() decides, as the port would once spacing allows; returns the word sent.
    loop::Word act(K expected)
    {
        const auto d = lpsm.next();
        REQUIRE(d.kind == expected);
        const loop::Word w = d.kind == K::Leave ? loop::Word::idle() : lpsm.prepare(d);
        lpsm.commit(d);
        return w;
    }
    // Queues a frame for `dest`, wins the loop (its own ARB back), opens `dest`, sends the frame on
    // the R_RDY, closes and leaves: MONITORING again, without ACCESS. `requeue`: another frame for
    // `dest` is queued before it leaves.
    void one_circuit(phy::AlPa dest, bool requeue = false)
    {
        queue_for(dest);
        lpsm.receive(loop::Word::arb(cfg.al_pa));
        act(K::Opn);
        lpsm.receive(loop::Word::r_rdy());
        act(K::Frame);
        act(K::Cls);
        lpsm.receive(loop::Word::cls());
        if (requeue) queue_for(dest);
        act(K::Leave);
    }
    loop::PortConfig cfg;
    LpsmDirectory dir;
    LpsmRecorder rec;
    loop::FifoTransmitQueue queue;
    loop::Lpsm lpsm;
};

}  // namespace fcal::test
