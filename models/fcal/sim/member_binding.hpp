#pragma once
// The field a parameter fills, named by member pointers and checked by the compiler:
//   at(&SimConfig::initiator, &HbaConfig::cmd_exec_us)   a field of one of SimConfig's sections
//   at(&SimConfig::transport)                              a field of SimConfig itself
// Bools, integers, enums (through a choice's codes), reals and std::optional of any of them (left
// unset unless the key is given). Fields of SimConfig::disk also reach one disk's DiskConfig, for
// the per-disk overrides disk.<i>.<name>.
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "fcal/sim/parameter.hpp"
#include "fcal/sim/sim_config.hpp"

namespace fcal::sim {

namespace binding {

template <class T>
struct Optional : std::false_type {};
template <class T>
struct Optional<std::optional<T>> : std::true_type {};

// The field's type from a FieldValue: enums from their choice's code, reals only into reals.
template <class T>
T cast(const FieldValue& value)
{
    return std::visit(
        [](auto v) -> T {
            if constexpr (std::is_floating_point_v<T> || !std::is_floating_point_v<decltype(v)>)
                return static_cast<T>(v);
            else
                throw std::logic_error("a real value for an integral field");
        },
        value);
}

template <class T>
void assign(T& field, const FieldValue& value)
{
    if constexpr (Optional<T>::value)
        field = cast<typename T::value_type>(value);
    else
        field = cast<T>(value);
}

template <class T>
std::optional<FieldValue> value_of(const T& field)
{
    if constexpr (Optional<T>::value)
        return field ? value_of(*field) : std::nullopt;
    else if constexpr (std::is_same_v<T, bool>)
        return FieldValue{field};
    else if constexpr (std::is_floating_point_v<T>)
        return FieldValue{static_cast<double>(field)};
    else
        return FieldValue{static_cast<std::int64_t>(field)};
}

template <class S, class T>
class SectionField final : public FieldBinding {
public:
    SectionField(S SimConfig::*section, T S::*member) : section_(section), member_(member) {}
    void store(SimConfig& c, const FieldValue& v) const override { assign((c.*section_).*member_, v); }
    std::optional<FieldValue> load(const SimConfig& c) const override { return value_of((c.*section_).*member_); }
    bool in_disk() const override { return std::is_same_v<S, DiskConfig>; }
    void store(DiskConfig& d, const FieldValue& v) const override
    {
        if constexpr (std::is_same_v<S, DiskConfig>)
            assign(d.*member_, v);
        else
            FieldBinding::store(d, v);
    }
    std::optional<FieldValue> load(const DiskConfig& d) const override
    {
        if constexpr (std::is_same_v<S, DiskConfig>)
            return value_of(d.*member_);
        else
            return FieldBinding::load(d);
    }

private:
    S SimConfig::*section_;
    T S::*member_;
};

template <class T>
class RootField final : public FieldBinding {
public:
    explicit RootField(T SimConfig::*member) : member_(member) {}
    void store(SimConfig& c, const FieldValue& v) const override { assign(c.*member_, v); }
    std::optional<FieldValue> load(const SimConfig& c) const override { return value_of(c.*member_); }

private:
    T SimConfig::*member_;
};

}  // namespace binding

// `member` may be a member of a base of the section (HbaConfig's for SimConfig::initiator).
template <class S, class B, class T>
std::shared_ptr<const FieldBinding> at(S SimConfig::*section, T B::*member)
{
    static_assert(std::is_base_of_v<B, S>, "the member belongs to another section");
    return std::make_shared<binding::SectionField<S, T>>(section, static_cast<T S::*>(member));
}

template <class T>
std::shared_ptr<const FieldBinding> at(T SimConfig::*member)
{
    return std::make_shared<binding::RootField<T>>(member);
}

}  // namespace fcal::sim
