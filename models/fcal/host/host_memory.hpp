#pragma once
// Host memory as the initiator HBA's DMA engine sees it: a TLM-2.0 target that
// answers at once. The DMA engine models bus bandwidth and scheduling itself, so any delay here
// would be counted twice. No data is kept (reads return zeros): the model moves sizes, not
// contents, and a real store would need gigabytes over a long run.
#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace fcal::host {

class HostMemory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<HostMemory> socket;

    explicit HostMemory(sc_core::sc_module_name name);

    std::uint64_t bytes_read() const { return bytes_read_; }        // by the initiator (to the HBA)
    std::uint64_t bytes_written() const { return bytes_written_; }  // by the initiator (from the HBA)
    std::uint64_t reads() const { return reads_; }
    std::uint64_t writes() const { return writes_; }

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

    std::uint64_t bytes_read_ = 0;
    std::uint64_t bytes_written_ = 0;
    std::uint64_t reads_ = 0;
    std::uint64_t writes_ = 0;
};

}  // namespace fcal::host
