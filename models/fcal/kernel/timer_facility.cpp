#include "fcal/kernel/timer_facility.hpp"

namespace fcal::kernel {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

TimerFacility::TimerFacility(sc_core::sc_module_name name) : sc_module(name)
{
    SC_METHOD(hand_over);
    sensitive << timed_;
    dont_initialize();
    SC_METHOD(fire);
    sensitive << immediate_;
    dont_initialize();
}

void TimerFacility::schedule()
{
    if (firing_) return;  // fire() re-arms once its callbacks are done
    sc_time at;
    if (!earliest(at)) return;
    const sc_time now = sc_time_stamp();
    if (at <= now) {
        if (!immediate_pending_) immediate_.notify(sc_core::SC_ZERO_TIME);
        immediate_pending_ = true;
        return;
    }
    // A pending notification at or before the deadline wakes the facility in time; it re-arms then.
    if (pending_ && pending_at_ <= at) return;
    if (pending_) ++counters_.earlier;
    timed_.notify(at - now);
    pending_ = true;
    pending_at_ = at;
    ++counters_.notifications;
}

// The timed notification wakes the facility in the first delta of its instant, in whatever order the
// kernel triggers that instant's timed events (tracing, which adds events of its own, changes that
// order). The deadlines due are run by fire() one delta later, after every process woken by those
// timed events. Not ordered so: another facility's deadlines of the same instant, and processes woken
// in that second delta by a notification of the first (docs/kernel.md, "Timers").
void TimerFacility::hand_over()
{
    // Timed notifications of this instant have all been triggered before any process runs in it.
    if (pending_ && pending_at_ <= sc_time_stamp()) pending_ = false;
    sc_time at;
    if (!earliest(at) || at > sc_time_stamp()) {  // nothing due (cancelled or moved on)
        ++counters_.firings;
        ++counters_.idle_firings;
    }
    schedule();  // due now: fire() in the next delta; else re-armed for the earliest deadline left
}

void TimerFacility::fire()
{
    ++counters_.firings;
    immediate_pending_ = false;
    firing_ = true;
    const bool any = expire_due();
    firing_ = false;
    if (!any) ++counters_.idle_firings;
    schedule();
}

void TimerFacility::drop_if_idle()
{
    sc_time at;
    if (earliest(at)) return;
    if (pending_) timed_.cancel();
    if (immediate_pending_) immediate_.cancel();
    pending_ = immediate_pending_ = false;
}

template <class Visit>
void TimerFacility::for_each(sc_core::sc_object& object, const Visit& visit)
{
    if (auto* facility = dynamic_cast<TimerFacility*>(&object)) visit(*facility);
    for (sc_core::sc_object* child : object.get_child_objects()) for_each(*child, visit);
}

void TimerFacility::drop_idle_notifications()
{
    for (sc_core::sc_object* top : sc_core::sc_get_top_level_objects())
        for_each(*top, [](TimerFacility& f) { f.drop_if_idle(); });
}

TimerFacility::Counters TimerFacility::design_counters(std::size_t* facilities)
{
    Counters sum;
    std::size_t n = 0;
    for (sc_core::sc_object* top : sc_core::sc_get_top_level_objects())
        for_each(*top, [&](TimerFacility& f) {
            ++n;
            sum.notifications += f.counters_.notifications;
            sum.earlier += f.counters_.earlier;
            sum.firings += f.counters_.firings;
            sum.idle_firings += f.counters_.idle_firings;
        });
    if (facilities) *facilities = n;
    return sum;
}

}  // namespace fcal::kernel
