#include "fcal/host/host_memory.hpp"

#include <cstring>

namespace fcal::host {

HostMemory::HostMemory(sc_core::sc_module_name name) : sc_module(name), socket("socket")
{
    // No get_direct_mem_ptr: the socket's default refuses DMI, so every access is seen and counted.
    socket.register_b_transport(this, &HostMemory::b_transport);
}

void HostMemory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& /*delay*/)
{
    const auto length = trans.get_data_length();
    if (trans.is_read()) {
        if (trans.get_data_ptr() != nullptr && length > 0) std::memset(trans.get_data_ptr(), 0, length);
        bytes_read_ += length;
        ++reads_;
    } else if (trans.is_write()) {
        bytes_written_ += length;
        ++writes_;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace fcal::host
