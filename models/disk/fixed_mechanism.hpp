#pragma once
// The fixed disk's timing (docs/model.md, "The disks: the fixed model"): an access time drawn per
// command, constant (the baseline), uniform on [0, 2 mean] or exponential, all with the same mean,
// then the media rate. The LBA plays no part.
#include "disk/mechanism.hpp"
#include "disk/random_stream.hpp"

namespace fcal::disk {

enum class AccessDist { Constant, Uniform, Exponential };
const char* to_string(AccessDist dist);  // "constant", "uniform", "exponential"

class FixedMechanism : public Mechanism {
public:
    FixedMechanism(double mean_access_s, AccessDist dist, double media_bytes_per_s, std::uint64_t seed);

    Positioning position(const Access& access, double start_s) override;
    double estimate(const Access&, double) const override { return mean_; }

private:
    double mean_;
    AccessDist dist_;
    double rate_;
    RandomStream random_;
};

}  // namespace fcal::disk
