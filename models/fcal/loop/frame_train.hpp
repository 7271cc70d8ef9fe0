#pragma once
// The books of a frame train (docs/loop.md, "Frame trains"). A port that opened a circuit sends the
// frames for its peer back to back: it sends each frame, and the fill word after it, ahead of time,
// stamped with the instants they start, and takes note of them (the queue's pop, the credit spent,
// the frame sent) only when it next runs, taking back then those that have not started. This class
// keeps what that needs: the frames sent ahead (the cars), how far the cars reach into the transmit
// queue and into the frames handed over ahead, the units of credit the next frames may spend, each
// with the instant it became available (an R_RDY's arrival), the word spacing after the last car,
// and why the train ends where it does. SystemC-free but for sc_time.
#include <systemc>

#include "fcal/kernel/ring_queue.hpp"
#include "fcal/loop/circuit_credit.hpp"
#include "fcal/loop/loop_frame.hpp"
#include "fcal/loop/word.hpp"
#include "fcal/loop/word_spacing.hpp"

namespace fcal::loop {

class FrameTrain {
public:
    struct Car {
        sc_core::sc_time start, end;
        const LoopFrame* frame = nullptr;
        bool aside = false;  // still among the frames handed over ahead (FramesAhead)
    };
    // Why the train ends where it does: no credit for the next frame (an R_RDY carries it on), no
    // next frame (one queued or due before the port would close the circuit carries it on), or it is
    // to carry on no further (the port runs in this instant and takes back what has not started).
    enum class End { Credit, Frames, Frozen };

    explicit FrameTrain(const phy::LinkTiming& timing) : spacing_(timing) {}

    bool live() const { return live_; }
    phy::AlPa peer() const { return peer_; }
    End end() const { return end_; }
    void ends_for(End why) { end_ = why; }
    // A train starts behind the port's own word, which ends at `end`: `spacing` as it stands once that
    // word has ended, `credit` as it stands now (each unit of it available at once).
    void begin(phy::AlPa peer, const WordSpacing& spacing, const sc_core::sc_time& end, const CircuitCredit& credit);
    void clear();

    // An R_RDY arrives at `at`: a unit of credit from then on, unless it repays login credit.
    void r_rdy(const sc_core::sc_time& at);
    bool has_credit() const { return !credit_.empty(); }
    // When the next frame starts, available (queued or due) at `available`: after the frame spacing
    // behind the last car, and once it has a unit of credit (has_credit()).
    sc_core::sc_time next_start(const Word& fill, const sc_core::sc_time& available) const;
    // When the port, with nothing more for its peer, would close the circuit: the primitive spacing
    // behind the last car, or the close timer `hold` (docs/loop.md, "Close timer").
    sc_core::sc_time close_at(const Word& fill, const sc_core::sc_time& hold) const;
    // A car more (`word` its frame): it spends the first unit of credit.
    void add(const Car& car, const Word& word);

    // The last fill word the port holds to take when it next runs (nothing: none), for Lpsm::may_wait.
    const Word* last_fill() const { return has_fill_ ? &last_fill_ : nullptr; }
    void fill_held(const Word& w)
    {
        last_fill_ = w;
        has_fill_ = true;
    }

    const kernel::RingQueue<Car>& cars() const { return cars_; }
    Car take_first();
    // How many of the transmit queue's frames, and of the frames handed over ahead, are cars.
    std::size_t queued() const { return queued_; }
    std::size_t aside() const { return aside_; }
    // The first frame handed over ahead entered the transmit queue.
    void admitted();

private:
    bool live_ = false;
    phy::AlPa peer_ = 0;
    End end_ = End::Frozen;
    WordSpacing spacing_;  // behind the last car
    sc_core::sc_time last_end_;
    kernel::RingQueue<Car> cars_;
    kernel::RingQueue<sc_core::sc_time> credit_;  // when each unit became available
    unsigned to_discard_ = 0;
    std::size_t queued_ = 0, aside_ = 0;
    Word last_fill_;
    bool has_fill_ = false;
};

}  // namespace fcal::loop
