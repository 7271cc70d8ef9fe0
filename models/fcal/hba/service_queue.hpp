#pragma once
// A single server that does one job after the other in arrival order: an HBA's main processor,
// its incoming-frame processor, a driver CPU. A job is a duration and what happens when it is done.
#include <deque>
#include <functional>
#include <systemc>

namespace fcal::hba {

class ServiceQueue : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ServiceQueue);
    explicit ServiceQueue(sc_core::sc_module_name name);

    void run(const sc_core::sc_time& duration, std::function<void()> then);
    std::size_t backlog() const { return jobs_.size(); }
    double busy_s() const { return busy_s_; }

private:
    struct Job {
        sc_core::sc_time duration;
        std::function<void()> then;
    };
    void step();
    void start_next();

    std::deque<Job> jobs_;
    bool busy_ = false;
    sc_core::sc_event done_;
    double busy_s_ = 0;
};

}  // namespace fcal::hba
