// The books of a frame train (loop/frame_train.hpp): its credit, unit by unit with the instant each
// became available, the spacing of its frames, when the port would close behind it, and which of
// its frames are still among those handed over ahead.
#include <catch2/catch.hpp>

#include <memory>

#include "fcal/loop/frame_train.hpp"

using namespace fcal;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

sc_time ns(double v) { return sc_time(v, SC_NS); }

struct Fixture {
    phy::LinkTiming timing{phy::LineRate::G2};
    sc_time w = timing.word_time();
    loop::WordSpacing spacing{timing};
    loop::Word fill = loop::Word::idle();
    kernel::RefPtr<loop::LoopFrame> frame = kernel::make_ref<loop::LoopFrame>();
    loop::Word frame_word = loop::Word::frame_of(frame);
    loop::FrameTrain train{timing};

    // The port's own frame ended at `end`; `credit` units and `discard` R_RDYs to discard.
    void begin(const sc_time& end, unsigned credit, unsigned discard)
    {
        loop::CircuitCredit c(4, 0);
        c.open(true, false, discard);  // login credit `discard`: as many units, and as many R_RDYs to discard
        for (unsigned i = 0; i < discard; ++i) c.frame_sent();  // spent: none left of it
        for (unsigned i = 0; i < credit; ++i) c.r_rdy_received();  // (with discard 0: a unit each)
        spacing.ended(frame_word, end);
        train.begin(0xE8, spacing, end, c);
    }
    loop::FrameTrain::Car car(const sc_time& start, double words)
    {
        loop::FrameTrain::Car c;
        c.start = start;
        c.end = start + timing.words(static_cast<std::uint64_t>(words));
        c.frame = frame.get();
        return c;
    }
};

}  // namespace

TEST_CASE("frame train: credit units in order, each from its R_RDY's arrival; login credit repaid first", "[loop][frame_train]")
{
    Fixture f;
    // Login credit 2 spent, 2 R_RDYs to discard; the next two R_RDYs repay it, so no credit yet.
    f.begin(ns(1000), 0, 2);
    CHECK(f.train.live());
    CHECK(f.train.peer() == 0xE8);
    CHECK(!f.train.has_credit());
    f.train.r_rdy(ns(1100));
    f.train.r_rdy(ns(1200));
    CHECK(!f.train.has_credit());  // both discarded
    f.train.r_rdy(ns(5000));
    REQUIRE(f.train.has_credit());
    // The next frame: six fill words after the frame before (FC-2), and no earlier than its credit.
    CHECK(f.train.next_start(f.fill, ns(0)) == ns(5000));
    f.train.r_rdy(ns(1300));  // a second unit (arriving earlier does not reorder the units)
    loop::FrameTrain::Car c1 = f.car(ns(5000), 100);
    f.train.add(c1, f.frame_word);
    CHECK(f.train.has_credit());
    // Behind the car: its end plus six words, the unit of 1300 ns being there already.
    CHECK(f.train.next_start(f.fill, ns(0)) == c1.end + f.timing.words(6));
    // A frame available only later starts then.
    CHECK(f.train.next_start(f.fill, c1.end + 50 * f.w) == c1.end + 50 * f.w);
    f.train.add(f.car(c1.end + f.timing.words(6), 100), f.frame_word);
    CHECK(!f.train.has_credit());
    CHECK(f.train.cars().size() == 2);
    CHECK(f.train.queued() == 2);
    f.train.clear();
    CHECK(!f.train.live());
    CHECK(f.train.cars().empty());
}

TEST_CASE("frame train: credit standing at its start is available at once", "[loop][frame_train]")
{
    Fixture f;
    f.begin(ns(1000), 2, 0);
    REQUIRE(f.train.has_credit());
    CHECK(f.train.next_start(f.fill, ns(0)) == ns(1000) + f.timing.words(6));
}

TEST_CASE("frame train: the port closes two words after the last frame, or when the close timer ends", "[loop][frame_train]")
{
    Fixture f;
    f.begin(ns(1000), 1, 0);
    CHECK(f.train.close_at(f.fill, sc_core::SC_ZERO_TIME) == ns(1000) + f.timing.words(2));
    CHECK(f.train.close_at(f.fill, ns(5000)) == ns(6000));
    CHECK(f.train.close_at(f.fill, ns(10)) == ns(1000) + f.timing.words(2));  // a timer shorter than the spacing
    const loop::FrameTrain::Car c = f.car(ns(2000), 40);
    f.train.add(c, f.frame_word);
    CHECK(f.train.close_at(f.fill, sc_core::SC_ZERO_TIME) == c.end + f.timing.words(2));
}

TEST_CASE("frame train: cars handed over ahead enter the queue in order", "[loop][frame_train]")
{
    Fixture f;
    f.begin(ns(1000), 4, 0);
    f.train.add(f.car(ns(2000), 10), f.frame_word);  // queued
    loop::FrameTrain::Car a = f.car(ns(3000), 10);
    a.aside = true;
    f.train.add(a, f.frame_word);
    loop::FrameTrain::Car b = f.car(ns(4000), 10);
    b.aside = true;
    f.train.add(b, f.frame_word);
    CHECK(f.train.queued() == 1);
    CHECK(f.train.aside() == 2);
    f.train.admitted();  // a's frame fell due
    CHECK(f.train.queued() == 2);
    CHECK(f.train.aside() == 1);
    CHECK(!f.train.cars()[1].aside);
    CHECK(f.train.cars()[2].aside);
    f.train.admitted();
    f.train.admitted();  // a frame that is no car: nothing changes
    CHECK(f.train.queued() == 3);
    CHECK(f.train.aside() == 0);
    const loop::FrameTrain::Car first = f.train.take_first();
    CHECK(first.start == ns(2000));
    CHECK(f.train.cars().size() == 2);
    CHECK(f.train.queued() == 2);
}

TEST_CASE("frame train: the last fill word held", "[loop][frame_train]")
{
    Fixture f;
    f.begin(ns(1000), 1, 0);
    CHECK(f.train.last_fill() == nullptr);
    f.train.fill_held(loop::Word::arb(0x10));
    REQUIRE(f.train.last_fill() != nullptr);
    CHECK(*f.train.last_fill() == loop::Word::arb(0x10));
    f.train.begin(0xE8, f.spacing, ns(2000), loop::CircuitCredit(4, 0));
    CHECK(f.train.last_fill() == nullptr);
}
