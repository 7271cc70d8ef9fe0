#pragma once
// The one table of every configurable constant (DESIGN.md, "Configuration and outputs"): each
// parameter declared once (sim/parameter.hpp, fcal's in sim/fcal_parameters.cpp) with the field it
// fills. JSON files and `--set KEY=VALUE` both feed it, it fills a SimConfig and echoes one back,
// and `--list-params` (the README's reference is generated from its JSON form) prints it. Keeping
// keys, defaults, units, limits and fields in one place is what lets every error name the key and
// every listing and echo stay true to what the loader accepts.
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/phy/al_pa.hpp"
#include "fcal/sim/parameter.hpp"

namespace fcal::sim {

class ParameterTable {
public:
    // Adds a parameter; throws std::logic_error on a duplicate key, a default outside its limits, no
    // field, or a per-disk key whose field is not a disk's (a mistake in the table, not the user's).
    void add(Parameter parameter);

    // Reads a JSON object whose members are nested objects and/or dotted keys, e.g.
    // {"loop":{"speed":"4GFC"},"disk.count":8}. All or nothing: on error nothing is changed. A stats
    // JSON of fcal-sim ({"config": {...}, "results": {...}}) gives its config block. Keys it gives
    // replace what earlier files and set() gave, so that several files apply in order.
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

    // Every field the parameters fill: the values given, else the defaults, then the derived
    // defaults of keys not given, then config.disks (disk.count copies of config.disk) with each
    // disk's overrides. Throws ConfigError for an override of a disk beyond disk.count.
    void fill(SimConfig& config) const;
    // Every parameter's value in `config`, nested by key ({"loop":{"speed":"2GFC",...},...}), and
    // under disk.<i> what a disk of config.disks has other than config.disk; optional fields left
    // unset are left out. Loads back as a configuration file.
    nlohmann::json echo(const SimConfig& config) const;

    // Columns: key, default, unit, range, description.
    void list(std::ostream& out) const;
    // The same as a JSON array, one object per parameter: key, type ("bool", "integer", "real",
    // "choice", "bytes", "al_pa"), unit, default (as the echo writes the value; null when derived)
    // and default_text (as list() shows it), range (list()'s text) and the limits it says: min, max,
    // min_exclusive, multiple_of (those that apply) or choices, per_disk (a disk.<i>.<name> override
    // exists), description.
    void list_json(std::ostream& out) const;

    // Per-disk overrides, disk.<i>.<name> for a per_disk key disk.<name> (i from 0): the disks
    // that have any, ascending.
    std::vector<unsigned> override_disks() const;
    bool has_override(unsigned index, const std::string& key) const { return overrides_.count({index, key}) > 0; }

private:
    struct Entry {
        std::optional<ParamValue> value;  // explicitly given
    };
    std::size_t index_of(const std::string& key) const;  // ConfigError for an unknown key
    // For disk.<i>.<name> naming a per-disk key: i and disk.<name>'s parameter, renamed to the key
    // given (so that errors name it); nullopt for any other key.
    // For a key <family>.<i>.<name> naming a per-disk key disk.<name> (family disk) or an event key
    // event.<n>.<name> (family event, per_event): i and the parameter, renamed to the key given (so
    // that errors name it); nullopt for any other key.
    std::optional<std::pair<unsigned, Parameter>> indexed_key(const std::string& key, bool per_event) const;
    std::optional<std::pair<unsigned, Parameter>> disk_override(const std::string& key) const { return indexed_key(key, false); }
    std::optional<std::pair<unsigned, Parameter>> event_key(const std::string& key) const { return indexed_key(key, true); }
    static std::string declared_event_key(const std::string& key);  // event.3.at_ms -> event.<n>.at_ms
    const Parameter& event_parameter(const std::string& declared) const;
    const ParamValue& value_of(const std::string& key, ParamType expected) const;

    std::vector<Parameter> parameters_;
    std::vector<Entry> entries_;
    std::unordered_map<std::string, std::size_t> index_;
    std::map<std::pair<unsigned, std::string>, ParamValue> overrides_;  // (disk, disk.<name>) -> value
    std::map<std::pair<unsigned, std::string>, ParamValue> events_;     // (n, event.<n>.<name>) -> value
};

// Every fcal parameter with its default (sim/fcal_parameters.cpp).
ParameterTable fcal_parameters();

}  // namespace fcal::sim
