#pragma once
// One configurable constant, declared once (DESIGN.md, "Configuration and outputs"): its dotted key,
// type, unit, limits or choices, default and one-line description, and the configuration field it
// fills. Parsing, range checks, the JSON echo, the listings, the sc_time limits of time-valued keys
// and the per-disk overrides are all derived from this one declaration (sim/fcal_parameters.cpp
// holds fcal's, sim/member_binding.hpp makes the field bindings).
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/loop/loop.hpp"

namespace fcal::disk {
struct DiskParams;
}

namespace fcal::sim {

struct EventKeys;

// A configuration mistake by the user: the loop's ConfigError, the project's only one (one line
// naming the key or the file; the CLI prints it and exits with code 2).
using loop::ConfigError;

struct SimConfig;

enum class ParamType { Bool, Integer, Real, Choice, Bytes, AlPa };

// A value as the user gives it: choices as their text.
using ParamValue = std::variant<bool, std::int64_t, double, std::string>;
// A value as a configuration field holds it, before the field's own type: choices as the code of
// their enum value, reals and integers in the field's unit (SI).
using FieldValue = std::variant<bool, std::int64_t, double>;

// How a parameter reaches the configuration field it fills, and back (sim/member_binding.hpp).
class FieldBinding {
public:
    virtual ~FieldBinding() = default;
    virtual void store(SimConfig& config, const FieldValue& value) const = 0;
    // nullopt: an optional field that was left unset.
    virtual std::optional<FieldValue> load(const SimConfig& config) const = 0;
    // The same field in one disk's configuration: only for fields of SimConfig::disk.
    virtual bool in_disk() const { return false; }
    virtual void store(disk::DiskParams& disk, const FieldValue& value) const;
    virtual std::optional<FieldValue> load(const disk::DiskParams& disk) const;
    // The same field in one scheduled event's keys: only for fields of SimConfig::event.
    virtual bool in_event() const { return false; }
    virtual void store(EventKeys& event, const FieldValue& value) const;
    virtual std::optional<FieldValue> load(const EventKeys& event) const;
    // An integer field holds every value in [low, high]: a key's range must fit its field's width.
    virtual bool holds(std::int64_t low, std::int64_t high) const = 0;
};

// One entry of a choice's table: the text that is parsed and printed, and its enum value's code.
struct Choice {
    std::string text;
    std::int64_t code = 0;
};

struct Parameter {
    std::string key;  // dotted, e.g. "initiator.cmd_exec_us"
    ParamType type = ParamType::Integer;
    std::string unit;
    std::string description;  // one line
    // No default_value means the default is derived from other keys or the key is unset;
    // default_text then says which (e.g. "disk.count+1", "unset").
    std::optional<ParamValue> default_value;
    std::string default_text;
    // Limits of Integer and Bytes values (inclusive) ...
    std::int64_t int_min = std::numeric_limits<std::int64_t>::min();
    std::int64_t int_max = std::numeric_limits<std::int64_t>::max();
    std::int64_t multiple_of = 1;
    // ... of Real values ...
    double real_min = -std::numeric_limits<double>::infinity();
    double real_max = std::numeric_limits<double>::infinity();
    bool real_min_exclusive = false;
    // ... and of Choice values.
    std::vector<Choice> choices;
    // A disk.* key one disk may override as disk.<i>.<name> (docs/disk.md, "Disks that differ"); its field
    // is one of SimConfig::disk's.
    bool per_disk = false;
    // One scheduled event's key, written event.<n>.<name> (docs/faults.md, "Scheduled events"): given
    // only with an index n; its field is one of SimConfig::event's (sim/scheduled_events.hpp).
    bool per_event = false;

    // The field it fills, in SI units where the key's unit is not (seconds for "us", bytes for
    // "KiB"): field = value x field_scale, or field_scale / value when field_reciprocal (a
    // revolution time in seconds for "rpm"). Integer and Bytes keys scale by whole numbers only.
    std::shared_ptr<const FieldBinding> field;
    double field_scale = 1.0;
    bool field_reciprocal = false;
    bool scaled() const { return field_scale != 1.0 || field_reciprocal; }
    // Without a default_value: sets the field from other fields (those of keys with plain defaults)
    // when the key is not given; none leaves an optional field unset.
    void (*derive)(SimConfig& config) = nullptr;

    std::vector<std::string> choice_texts() const;
    // Between what the user writes and what the field holds.
    FieldValue field_value(const ParamValue& value) const;
    ParamValue param_value(const FieldValue& value) const;
};

// How limits and values appear in listings and messages.
std::string range_text(const Parameter& parameter);
std::string value_text(const Parameter& parameter, const ParamValue& value);
std::string format_bytes(std::uint64_t bytes);  // 65536 -> "64K"; 2048 and 65537 stay as they are
// A value as the configuration echo and --list-params --json write it: byte sizes as numbers,
// AL_PAs as "0xHH", choices as their text.
nlohmann::json json_value(const Parameter& parameter, const ParamValue& value);
// The scale from a unit to its SI unit, as Parameter::field_scale and field_reciprocal say it: "us"
// 1e-6 (seconds), "MB/s" 1e6 (bytes/s), "KiB" 1024 (bytes), "rpm" 60 reciprocal (seconds per
// revolution), ...; 1 for a unit kept as it is (frames, m, ns/m).
struct UnitScale {
    double factor = 1.0;
    bool reciprocal = false;
};
UnitScale si_scale(const std::string& unit);
// Seconds per unit of a time unit ("s", "ms", "us", "ns"); nullopt for any other unit.
std::optional<double> seconds_per_unit(const std::string& unit);

}  // namespace fcal::sim
