#include "fcal/loop/frame_train.hpp"

#include <algorithm>

namespace fcal::loop {

using sc_core::sc_time;

void FrameTrain::begin(phy::AlPa peer, const WordSpacing& spacing, const sc_time& end, const CircuitCredit& credit)
{
    clear();
    live_ = true;
    peer_ = peer;
    end_ = End::Frames;
    spacing_ = spacing;
    last_end_ = end;
    for (int i = 0; i < credit.credit(); ++i) credit_.push_back(sc_core::SC_ZERO_TIME);
    to_discard_ = credit.r_rdys_to_discard();
}

void FrameTrain::clear()
{
    live_ = false;
    while (!cars_.empty()) cars_.pop_front();
    while (!credit_.empty()) credit_.pop_front();
    queued_ = aside_ = 0;
    has_fill_ = false;
}

// As CircuitCredit::r_rdy_received: an R_RDY repays the login credit first.
void FrameTrain::r_rdy(const sc_time& at)
{
    if (to_discard_ > 0)
        --to_discard_;
    else
        credit_.push_back(at);
}

sc_time FrameTrain::next_start(const Word& fill, const sc_time& available) const
{
    return std::max({spacing_.frame_earliest(last_end_, fill, false), available, credit_.front()});
}

sc_time FrameTrain::close_at(const Word& fill, const sc_time& hold) const
{
    const sc_time t = spacing_.primitive_earliest(last_end_, fill, false);
    return hold > sc_core::SC_ZERO_TIME ? std::max(t, spacing_.last_end() + hold) : t;
}

void FrameTrain::add(const Car& car, const Word& word)
{
    credit_.pop_front();
    spacing_.ended(word, car.end);
    last_end_ = car.end;
    cars_.push_back(car);
    if (car.aside)
        ++aside_;
    else
        ++queued_;
}

FrameTrain::Car FrameTrain::take_first()
{
    Car car = cars_.take_front();
    if (car.aside)
        --aside_;
    else
        --queued_;
    return car;
}

void FrameTrain::admitted()
{
    if (aside_ == 0) return;  // not a car
    --aside_;
    ++queued_;
    for (std::size_t i = 0; i < cars_.size(); ++i) {
        if (cars_[i].aside) {
            cars_[i].aside = false;
            return;
        }
    }
}


}  // namespace fcal::loop
