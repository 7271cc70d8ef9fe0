#pragma once
// Seek time over a distance of D cylinders (docs/model.md, "The disks: the zoned model"):
//     S(0) = 0,  S(D) = a + b sqrt(D)  (D > 0),
//     a = (minseek sqrt(C - 1) - maxseek) / (sqrt(C - 1) - 1),  b = (maxseek - minseek) / (sqrt(C - 1) - 1),
// so that S(1) = minseek (track to track) and S(C - 1) = maxseek (full stroke). SystemC-free.
namespace fcal::disk {

class SeekCurve {
public:
    // std::invalid_argument unless cylinders >= 3 and 0 <= min_s <= max_s.
    SeekCurve(unsigned cylinders, double min_s, double max_s);

    double a() const { return a_; }
    double b() const { return b_; }
    double seconds(double distance) const;  // distance in cylinders, >= 0

private:
    double a_ = 0, b_ = 0;
};

}  // namespace fcal::disk
