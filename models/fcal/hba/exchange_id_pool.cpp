#include "fcal/hba/exchange_id_pool.hpp"

#include <stdexcept>

namespace fcal::hba {

void ExchangeIdPool::exhausted() { throw std::length_error("no free exchange ID: every one is open or quarantined"); }

void ExchangeIdPool::quarantine(std::uint16_t id)
{
    if (quarantined_[id]) return;
    quarantined_[id] = true;
    quarantine_order_.push_back(id);
    if (quarantine_order_.size() > quarantine_limit_) {
        quarantined_[quarantine_order_.front()] = false;
        quarantine_order_.pop_front();
    }
}

}  // namespace fcal::hba
