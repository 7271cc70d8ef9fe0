// Host memory: answers at once and counts what the DMA engine moves.
#include <catch2/catch.hpp>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "fcal/host/host_memory.hpp"

using namespace fcal;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

struct Bench : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Bench> dma;
    host::HostMemory memory;

    explicit Bench(sc_core::sc_module_name name) : sc_module(name), dma("dma"), memory("memory")
    {
        dma.bind(memory.socket);
    }

    tlm::tlm_response_status access(tlm::tlm_command command, std::uint64_t address, std::uint32_t bytes,
                                    sc_time& delay)
    {
        std::vector<unsigned char> buffer(bytes, 0x55);
        tlm::tlm_generic_payload trans;
        trans.set_command(command);
        trans.set_address(address);
        trans.set_data_ptr(buffer.data());
        trans.set_data_length(bytes);
        trans.set_streaming_width(bytes);
        dma->b_transport(trans, delay);
        if (command == tlm::TLM_READ_COMMAND)
            for (auto c : buffer) REQUIRE(c == 0);
        return trans.get_response_status();
    }
};

}  // namespace

TEST_CASE("Host memory counts bytes read and written without adding delay", "[host_memory]")
{
    Bench b("bench");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    sc_time delay(7, SC_NS);  // the DMA engine's own time so far, handed back untouched
    REQUIRE(b.access(tlm::TLM_READ_COMMAND, 0x1000, 32, delay) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.access(tlm::TLM_WRITE_COMMAND, 0x200000, 2048, delay) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.access(tlm::TLM_WRITE_COMMAND, 0x200800, 2048, delay) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.access(tlm::TLM_WRITE_COMMAND, 0x300000, 24, delay) == tlm::TLM_OK_RESPONSE);
    REQUIRE(delay == sc_time(7, SC_NS));
    REQUIRE(b.memory.bytes_read() == 32);
    REQUIRE(b.memory.reads() == 1);
    REQUIRE(b.memory.bytes_written() == 4120);
    REQUIRE(b.memory.writes() == 3);
}

TEST_CASE("Host memory refuses direct memory access", "[host_memory]")
{
    Bench b("bench");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    tlm::tlm_generic_payload trans;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(0);
    tlm::tlm_dmi dmi;
    REQUIRE_FALSE(b.dma->get_direct_mem_ptr(trans, dmi));
}
