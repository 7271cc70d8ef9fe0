#pragma once
// The fixed disk's timing (docs/model.md, "The disks: the fixed model"): an access time drawn per
// command, constant (the baseline), uniform on [0, 2 mean] or exponential, all with the same mean,
// then the media rate. The LBA plays no part.
#include "fcal/disk/mechanism.hpp"
#include "fcal/disk/random_stream.hpp"

namespace fcal::disk {

enum class AccessDist { Constant, Uniform, Exponential };
const char* to_string(AccessDist dist);  // "constant", "uniform", "exponential"

// The fixed disk's LBA unit.
constexpr std::uint32_t kFixedSectorBytes = 512;

class FixedMechanism : public Mechanism {
public:
    // `capacity_sectors`: 0 = no capacity (the LBA plays no part and is not checked).
    FixedMechanism(double mean_access_s, AccessDist dist, double media_bytes_per_s, std::uint64_t seed,
                   std::uint64_t capacity_sectors = 0);

    Positioning position(const Access& access, double start_s) override;
    double estimate(const Access&, double) const override { return mean_; }
    std::uint64_t capacity_sectors() const override { return capacity_; }
    std::uint32_t sector_bytes() const override { return kFixedSectorBytes; }
    // The range's bytes at the media rate.
    double pass_seconds(std::uint64_t, std::uint64_t sectors) const override
    {
        return static_cast<double>(sectors) * kFixedSectorBytes / rate_;
    }

private:
    double mean_;
    AccessDist dist_;
    double rate_;
    std::uint64_t capacity_;
    RandomStream random_;
};

}  // namespace fcal::disk
