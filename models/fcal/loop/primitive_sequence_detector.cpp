#include "fcal/loop/primitive_sequence_detector.hpp"

namespace fcal::loop {

std::optional<phy::OrderedSet> PrimitiveSequenceDetector::receive(const std::optional<phy::OrderedSet>& word)
{
    if (!word || !word->is_primitive_sequence()) {
        reset();
        return std::nullopt;
    }
    if (!current_ || *current_ != *word) {
        current_ = word;
        run_ = 0;
    }
    // The count stops at recognition: only the word that completes it reports the sequence, however
    // long the run goes on.
    if (run_ == phy::kPrimitiveSequenceRecognition) return std::nullopt;
    ++run_;
    return run_ == phy::kPrimitiveSequenceRecognition ? current_ : std::nullopt;
}

void PrimitiveSequenceDetector::reset()
{
    current_.reset();
    run_ = 0;
}

}  // namespace fcal::loop
