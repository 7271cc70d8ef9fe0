#pragma once
// The disk's end of the protocol's backward path (disk/disk_command.hpp): sends its notices through
// a target socket of the DiskProtocol type, on one payload of its own that carries a DiskNotice, so
// that a notice allocates nothing.
#include <cstdint>
#include <systemc>
#include <tlm>

#include "fcal/disk/disk_command.hpp"

namespace fcal::disk {

class DiskNotifier {
public:
    DiskNotifier();
    ~DiskNotifier();
    DiskNotifier(const DiskNotifier&) = delete;
    DiskNotifier& operator=(const DiskNotifier&) = delete;

    // The first `bytes` of read `tag` are in the buffer.
    template <class TargetSocket>
    void read_data(TargetSocket& socket, std::uint64_t tag, std::uint32_t bytes)
    {
        send(socket, NoticeKind::ReadData, tag, bytes);
    }
    // Command `tag` is complete, its slot free.
    template <class TargetSocket>
    void ready(TargetSocket& socket, std::uint64_t tag)
    {
        send(socket, NoticeKind::Ready, tag, 0);
    }

private:
    template <class TargetSocket>
    void send(TargetSocket& socket, NoticeKind kind, std::uint64_t tag, std::uint32_t bytes)
    {
        notice_.kind = kind;
        notice_.tag = tag;
        notice_.bytes = bytes;
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->nb_transport_bw(payload_, phase, delay);
    }

    tlm::tlm_generic_payload payload_;
    DiskNotice notice_;  // set on payload_ for good (taken off before the payload goes)
};

}  // namespace fcal::disk
