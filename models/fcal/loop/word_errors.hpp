#pragma once
// Bit errors on the loop's links (docs/model.md, "Faults and recovery", "The loop"). A port asks
// once for every primitive signal and frame it consumes (an OPN addressed to it; an R_RDY, a CLS or
// a frame in a circuit) how many of the word transmissions that brought it were hit; every hit word
// is one code violation, and a word with any is not recognised (a frame fails its CRC).
#include <cstdint>
#include <random>

#include "fcal/loop/word.hpp"

namespace fcal::loop {

class WordErrors {
public:
    virtual ~WordErrors() = default;
    // `w` crossed `links` links, every port on the way repeating it: hit words among its
    // w.words() x links transmissions (0: it arrives intact).
    virtual std::uint64_t hits(const Word& w, unsigned links) = 0;
};

// The same bit error rate on every link, drawn from a seeded stream of its own. A 40-bit word is
// hit with p_w = 1 - (1 - ber)^40; n word transmissions hold Binomial(n, p_w) hit words, so a frame
// of n words crossing h links arrives intact with probability (1 - p_w)^(n h).
class BitErrors : public WordErrors {
public:
    BitErrors(double ber, std::uint64_t seed);

    static double word_error_probability(double ber);
    double p_word() const { return p_word_; }

    std::uint64_t hits(const Word& w, unsigned links) override { return transmissions(w.words() * links); }
    // Hit words among `n` word transmissions.
    std::uint64_t transmissions(std::uint64_t n);

private:
    double p_word_;
    std::mt19937_64 rng_;
};

// Independent streams from one seed: one per port and use, so that what a port draws does not
// depend on the order in which the ports run.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b);

}  // namespace fcal::loop
