#pragma once
// Both HBAs keep their open exchanges in a map by exchange ID, its nodes from a pool (no allocation
// per I/O in steady state); a frame for an ID that is not open is a protocol error of the model,
// reported through SystemC.
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <systemc>
#include <utility>

#include "fcal/kernel/pool_allocator.hpp"

namespace fcal::hba {

template <class Value>
using ExchangeMap =
    std::map<std::uint16_t, Value, std::less<std::uint16_t>, kernel::PoolAllocator<std::pair<const std::uint16_t, Value>>>;

template <class Value>
Value& open_exchange(ExchangeMap<Value>& exchanges, std::uint16_t id, const sc_core::sc_object& hba, const char* id_name)
{
    auto it = exchanges.find(id);
    if (it == exchanges.end()) {
        SC_REPORT_ERROR("fcal/hba", (std::string(hba.name()) + ": frame for unknown " + id_name + " " + std::to_string(id)).c_str());
        throw std::logic_error("unknown exchange");  // SC_REPORT_ERROR throws unless its action was changed
    }
    return it->second;
}

}  // namespace fcal::hba
