#include "fcal/sim/parameter.hpp"

#include <charconv>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "fcal/phy/al_pa.hpp"

namespace fcal::sim {

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

std::string real_text(double value)
{
    // Shortest text that reads back as the same double: 43.9 stays "43.9", not "43.899999999999999".
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

std::string hex_text(std::int64_t value)
{
    std::ostringstream out;
    out << "0x" << std::uppercase << std::hex << std::setw(2) << std::setfill('0') << value;
    return out.str();
}

}  // namespace

void FieldBinding::store(disk::DiskParams&, const FieldValue&) const { throw std::logic_error("not a field of a disk's configuration"); }

std::optional<FieldValue> FieldBinding::load(const disk::DiskParams&) const
{
    throw std::logic_error("not a field of a disk's configuration");
}

void FieldBinding::store(EventKeys&, const FieldValue&) const { throw std::logic_error("not a field of an event's keys"); }

std::optional<FieldValue> FieldBinding::load(const EventKeys&) const { throw std::logic_error("not a field of an event's keys"); }

std::vector<std::string> Parameter::choice_texts() const
{
    std::vector<std::string> texts;
    for (const Choice& c : choices) texts.push_back(c.text);
    return texts;
}

FieldValue Parameter::field_value(const ParamValue& value) const
{
    if (type == ParamType::Choice) {
        for (const Choice& c : choices)
            if (c.text == std::get<std::string>(value)) return c.code;
        throw std::logic_error(key + ": no choice " + std::get<std::string>(value));
    }
    if (type == ParamType::Real) {
        const double v = std::get<double>(value);
        return field_reciprocal ? field_scale / v : v * field_scale;
    }
    if (type == ParamType::Bool) return std::get<bool>(value);
    return std::get<std::int64_t>(value) * static_cast<std::int64_t>(field_scale);
}

ParamValue Parameter::param_value(const FieldValue& value) const
{
    // A choice may fill a bool field (erase.tl_policy): its codes are 0 and 1.
    const auto code = [&] { return std::holds_alternative<bool>(value) ? std::int64_t{std::get<bool>(value)} : std::get<std::int64_t>(value); };
    switch (type) {
    case ParamType::Choice:
        for (const Choice& c : choices)
            if (c.code == code()) return c.text;
        throw std::logic_error(key + ": no choice has code " + std::to_string(code()));
    case ParamType::Real: {
        const double v = std::get<double>(value);
        return field_reciprocal ? field_scale / v : v / field_scale;
    }
    case ParamType::Bool: return std::get<bool>(value);
    case ParamType::Integer:
    case ParamType::Bytes: return code() / static_cast<std::int64_t>(field_scale);
    case ParamType::AlPa: return code();
    }
    throw std::logic_error("unknown parameter type");
}

std::string format_bytes(std::uint64_t bytes)
{
    // Short numbers read better as they are (2048 is the payload everyone knows); long ones as 64K.
    if (bytes < 10000) return std::to_string(bytes);
    const std::uint64_t ki = 1024, mi = ki * ki, gi = mi * ki;
    if (bytes % gi == 0) return std::to_string(bytes / gi) + "G";
    if (bytes % mi == 0) return std::to_string(bytes / mi) + "M";
    if (bytes % ki == 0) return std::to_string(bytes / ki) + "K";
    return std::to_string(bytes);
}

std::string value_text(const Parameter& p, const ParamValue& value)
{
    switch (p.type) {
    case ParamType::Bool: return std::get<bool>(value) ? "true" : "false";
    case ParamType::Integer: return std::to_string(std::get<std::int64_t>(value));
    case ParamType::Real: return real_text(std::get<double>(value));
    case ParamType::Choice: return std::get<std::string>(value);
    case ParamType::Bytes: {
        const auto v = std::get<std::int64_t>(value);
        return v < 0 ? std::to_string(v) : format_bytes(static_cast<std::uint64_t>(v));
    }
    case ParamType::AlPa: {
        const auto v = std::get<std::int64_t>(value);
        return v < 0 ? std::to_string(v) : hex_text(v);
    }
    }
    throw std::logic_error("unknown parameter type");
}

nlohmann::json json_value(const Parameter& p, const ParamValue& value)
{
    switch (p.type) {
    case ParamType::Bool: return std::get<bool>(value);
    case ParamType::Integer:
    case ParamType::Bytes: return std::get<std::int64_t>(value);
    case ParamType::Real: return std::get<double>(value);
    case ParamType::Choice: return std::get<std::string>(value);
    case ParamType::AlPa: return phy::al_pa_hex(static_cast<phy::AlPa>(std::get<std::int64_t>(value)));
    }
    throw std::logic_error("unknown parameter type");
}

std::string range_text(const Parameter& p)
{
    switch (p.type) {
    case ParamType::Bool: return "true|false";
    case ParamType::AlPa: return "valid AL_PA";
    case ParamType::Choice: {
        std::string text;
        for (const auto& c : p.choices) text += (text.empty() ? "" : "|") + c.text;
        return text;
    }
    case ParamType::Integer:
    case ParamType::Bytes: {
        const auto show = [&](std::int64_t v) { return value_text(p, ParamValue{v}); };
        const bool low = p.int_min != kInt64Min, high = p.int_max != kInt64Max;
        std::string text = low && high ? show(p.int_min) + ".." + show(p.int_max)
                           : low       ? ">= " + show(p.int_min)
                           : high      ? "<= " + show(p.int_max)
                                       : "";
        if (p.multiple_of > 1) text += ", multiple of " + std::to_string(p.multiple_of);
        return text;
    }
    case ParamType::Real: {
        const bool low = std::isfinite(p.real_min), high = std::isfinite(p.real_max);
        // An excluded lower end cannot be written as "min..max" (loop.al_time_us used to say that 0
        // is out of range 0..1e+07).
        if (low && high && p.real_min_exclusive) return "> " + real_text(p.real_min) + " and <= " + real_text(p.real_max);
        if (low && high) return real_text(p.real_min) + ".." + real_text(p.real_max);
        if (low) return (p.real_min_exclusive ? "> " : ">= ") + real_text(p.real_min);
        if (high) return "<= " + real_text(p.real_max);
        return "";
    }
    }
    throw std::logic_error("unknown parameter type");
}

UnitScale si_scale(const std::string& unit)
{
    if (const auto seconds = seconds_per_unit(unit)) return {*seconds};
    if (unit == "MB/s") return {1e6};
    if (unit == "GB") return {1e9};
    if (unit == "Gbaud") return {1e9};
    if (unit == "KiB") return {1024};
    if (unit == "rpm") return {60.0, true};
    return {};
}

std::optional<double> seconds_per_unit(const std::string& unit)
{
    if (unit == "s") return 1.0;
    if (unit == "ms") return 1e-3;
    if (unit == "us") return 1e-6;
    if (unit == "ns") return 1e-9;
    return std::nullopt;
}

}  // namespace fcal::sim
