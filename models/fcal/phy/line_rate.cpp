#include "fcal/phy/line_rate.hpp"

#include <stdexcept>

namespace fcal::phy {

double baud(LineRate rate)
{
    switch (rate) {
    case LineRate::G1: return 1.0625e9;
    case LineRate::G2: return 2.125e9;
    case LineRate::G4: return 4.25e9;
    case LineRate::G8: return 8.5e9;
    }
    throw std::logic_error("unknown line rate");
}

std::string to_string(LineRate rate)
{
    switch (rate) {
    case LineRate::G1: return "1GFC";
    case LineRate::G2: return "2GFC";
    case LineRate::G4: return "4GFC";
    case LineRate::G8: return "8GFC";
    }
    throw std::logic_error("unknown line rate");
}

LineRate parse_line_rate(const std::string& text)
{
    for (LineRate r : {LineRate::G1, LineRate::G2, LineRate::G4, LineRate::G8})
        if (to_string(r) == text) return r;
    throw std::invalid_argument("'" + text + "' is not a line rate (1GFC, 2GFC, 4GFC or 8GFC)");
}

}  // namespace fcal::phy
