#pragma once
// A server (the DMA engine, the processor's ServiceQueue) whose job ends in the very instant another
// process asks it to finish a job due now (finish_due(): the target's ABTS, docs/faults.md, "FCP
// recovery"). Job 1 takes 0 .. 400 ns, job 2 400 .. 700 ns; the asking process runs at 400 ns, armed
// before job 1 starts (`arm_early`) or after, so that the SystemC kernel runs it before the server's own
// end or after: the case checks which it did. `Jobs` starts the two jobs on its server
// (start(first_ns, second_ns)), asks it (finish_due()) and counts the jobs ended (ended()).
#include <cstddef>
#include <systemc>

namespace fcal::test {

template <class Jobs>
struct AskAtTheEnd : sc_core::sc_module {
    Jobs jobs;
    bool arm_early;
    bool asked_before_the_end = false;  // the asking process ran before the server's own end
    std::size_t ended_after_asking = 0;
    sc_core::sc_event arm_at, ask_at;

    SC_HAS_PROCESS(AskAtTheEnd);
    AskAtTheEnd(sc_core::sc_module_name name, bool early) : sc_module(name), arm_early(early)
    {
        SC_METHOD(start);
        SC_METHOD(arm);
        sensitive << arm_at;
        dont_initialize();
        SC_METHOD(ask);
        sensitive << ask_at;
        dont_initialize();
    }
    void start()
    {
        if (arm_early) ask_at.notify(400, sc_core::SC_NS);
        jobs.start(400, 300);
        if (!arm_early) arm_at.notify(100, sc_core::SC_NS);
    }
    void arm() { ask_at.notify(300, sc_core::SC_NS); }
    void ask()
    {
        asked_before_the_end = jobs.ended() == 0;
        jobs.finish_due();
        ended_after_asking = jobs.ended();
    }
};

}  // namespace fcal::test
