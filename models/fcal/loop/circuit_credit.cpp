#include "fcal/loop/circuit_credit.hpp"

namespace fcal::loop {

void CircuitCredit::open(bool sending, bool receiving, unsigned peer_login_credit)
{
    sending_ = sending;
    receiving_ = receiving;
    rrdy_owed_ = receiving ? free_buffers_ : 0;
    peer_login_credit_ = peer_login_credit;
    credit_ = static_cast<int>(peer_login_credit);
    rrdy_to_discard_ = peer_login_credit;
    login_credit_used_ = 0;
}

void CircuitCredit::close()
{
    rrdy_owed_ = 0;
    sending_ = receiving_ = false;
    credit_ = 0;
}

void CircuitCredit::frame_sent()
{
    --credit_;
    if (login_credit_used_ < peer_login_credit_) ++login_credit_used_;
}

void CircuitCredit::r_rdy_received()
{
    if (!sending_) return;
    if (rrdy_to_discard_ > 0)
        --rrdy_to_discard_;  // repays a buffer the login credit had already granted
    else
        ++credit_;
}

bool CircuitCredit::frame_received()
{
    if (!receiving_ || free_buffers_ == 0) return false;
    --free_buffers_;
    return true;
}

bool CircuitCredit::buffer_released(bool in_circuit)
{
    if (free_buffers_ >= incoming_buffers_) return false;
    ++free_buffers_;
    if (receiving_ && in_circuit) ++rrdy_owed_;
    return true;
}

}  // namespace fcal::loop
