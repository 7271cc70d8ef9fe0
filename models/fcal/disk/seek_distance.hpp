#pragma once
// The seek distance between two independent, uniformly random sectors of a zoned disk, as the
// stochastic positioning draws it (docs/model.md, "The disks: the zoned model"): density on [0, C - 1]
//     f_D(x) = A + G x + E x^3,  A = V (C-1) / (3 g^2),  G = -(V + beta^2 (C-1)^2) / (3 g^2),  E = beta^2 / (3 g^2),
//     V = 6 alpha^2 + 6 alpha beta (C-1) + 2 beta^2 (C-1)^2,  alpha = SEC_in / spb,
//     beta = (SEC_out - SEC_in) / ((C-1) spb),  g = alpha (C-1) + (beta / 2) (C-1)^2,
// drawn by inverting its distribution function F(x) = A x + G x^2 / 2 + E x^4 / 4 (bisection).
// SystemC-free.
namespace fcal::disk {

class SeekDistance {
public:
    // sec_in, sec_out: sectors per track innermost and outermost; spb: sectors per block.
    SeekDistance(unsigned cylinders, double sec_in, double sec_out, double sectors_per_block);

    double density(double x) const;       // f_D
    double cumulative(double x) const;    // F, F(C - 1) = 1 up to rounding
    double draw(double u) const;          // F^-1(u) for u in [0, 1)

private:
    double span_ = 0;  // C - 1
    double a_ = 0, g_ = 0, e_ = 0;
};

}  // namespace fcal::disk
