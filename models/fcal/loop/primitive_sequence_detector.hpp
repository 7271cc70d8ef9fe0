#pragma once
// Recognises a primitive sequence (LIP, LPB, LPE) the way a receiver must: only after
// phy::kPrimitiveSequenceRecognition identical ordered sets in a row (docs/loop_init.md, "LIP, LPB
// and LPE"). Fed word by word; SystemC-free. In the edge-change loop a run of identical words is one
// change, so the LPSM recognises a sequence that many word times after the run starts.
#include <optional>

#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {

class PrimitiveSequenceDetector {
public:
    // One received word: an ordered set, or nothing for a word that is none (data, a code
    // violation). Returns the sequence at the word that completes its recognition, once per run.
    std::optional<phy::OrderedSet> receive(const std::optional<phy::OrderedSet>& word);

    // The primitive sequence of the current run, recognised or not, and how many words of it have
    // arrived (counted up to the recognition count).
    const std::optional<phy::OrderedSet>& current() const { return current_; }
    unsigned run() const { return run_; }
    bool recognised() const { return current_ && run_ >= phy::kPrimitiveSequenceRecognition; }

    void reset();

private:
    std::optional<phy::OrderedSet> current_;
    unsigned run_ = 0;
};

}  // namespace fcal::loop
