#pragma once
// The one table of every configurable constant (DESIGN.md, "Configuration and outputs"). JSON files
// and `--set KEY=VALUE` both feed it, `--list-params` and the README print it, and SimConfig is
// built from it. Keeping keys, defaults, units and limits in one place is what lets every error name
// the key and every listing stay true to what the loader accepts.
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/loop/loop.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::sim {

// A configuration mistake by the user: the loop's ConfigError, the project's only one (one line
// naming the key or the file; the CLI prints it and exits with code 2).
using loop::ConfigError;

enum class ParamType { Bool, Integer, Real, Choice, Bytes, AlPa };

using ParamValue = std::variant<bool, std::int64_t, double, std::string>;

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
    std::vector<std::string> choices;
    // A disk.* key one disk may override as disk.<i>.<name> (docs/model.md, "Erasure").
    bool per_disk = false;
};

class ParameterTable {
public:
    // Adds a parameter; throws std::logic_error on a duplicate key or a default outside its limits
    // (a mistake in the table itself, not the user's).
    void add(Parameter parameter);
    // Lets disk.<i>.<name> override the disk.* key `key` for disk i.
    void allow_per_disk(const std::string& key) { parameters_.at(index_.at(key)).per_disk = true; }

    // Reads a JSON object whose members are nested objects and/or dotted keys, e.g.
    // {"loop":{"speed":"4GFC"},"disk.count":8}. All or nothing: on error nothing is changed.
    void load_json_file(const std::string& path);
    // The same for an already parsed object; `origin` (a file name) prefixes error messages.
    void load_json(const nlohmann::json& object, const std::string& origin = "");
    // `text` is parsed according to the key's type (the value of `--set KEY=VALUE`).
    void set(const std::string& key, const std::string& text);
    // "KEY=VALUE" as given to --set.
    void set_assignment(const std::string& assignment);

    bool get_bool(const std::string& key) const;
    std::int64_t get_int(const std::string& key) const;
    double get_real(const std::string& key) const;
    std::string get_string(const std::string& key) const;
    std::uint64_t get_bytes(const std::string& key) const;
    phy::AlPa get_al_pa(const std::string& key) const;

    // Given explicitly (file or --set) rather than defaulted.
    bool is_set(const std::string& key) const;
    // Set or has a plain default; false for an unset derived or optional key.
    bool has_value(const std::string& key) const;

    const Parameter* find(const std::string& key) const;
    const std::vector<Parameter>& parameters() const { return parameters_; }

    // Columns: key, default, unit, range, description.
    void list(std::ostream& out) const;
    // The same as a JSON array, one object per parameter: key, type, default, unit, range,
    // description (the texts of list()), and per_disk (a disk.<i>.<name> override exists).
    void list_json(std::ostream& out) const;

    // Per-disk overrides, disk.<i>.<name> for a per_disk key disk.<name> (i from 0): the disks
    // that have any, ascending, and the table as disk i sees it (its overrides as set values).
    std::vector<unsigned> override_disks() const;
    ParameterTable for_disk(unsigned index) const;
    std::string first_override_key(unsigned index) const;  // disk.<index>.<name> of its first override
    bool has_override(unsigned index, const std::string& key) const { return overrides_.count({index, key}) > 0; }

private:
    struct Entry {
        std::optional<ParamValue> value;  // explicitly given
    };
    std::size_t index_of(const std::string& key) const;  // ConfigError for an unknown key
    // For disk.<i>.<name> naming a per-disk key: i and disk.<name>'s parameter, renamed to the key
    // given (so that errors name it); nullopt for any other key.
    std::optional<std::pair<unsigned, Parameter>> disk_override(const std::string& key) const;
    const ParamValue& value_of(const std::string& key, ParamType expected) const;

    std::vector<Parameter> parameters_;
    std::vector<Entry> entries_;
    std::unordered_map<std::string, std::size_t> index_;
    std::map<std::pair<unsigned, std::string>, ParamValue> overrides_;  // (disk, disk.<name>) -> value
};

// Every fcal parameter with its default.
ParameterTable fcal_parameters();

// How limits and values appear in listings and messages.
std::string range_text(const Parameter& parameter);
std::string value_text(const Parameter& parameter, const ParamValue& value);
std::string format_bytes(std::uint64_t bytes);  // 65536 -> "64K"; 2048 and 65537 stay as they are

}  // namespace fcal::sim
