#include "fcal/disk/disk_initiator_socket.hpp"

#include <string>

namespace fcal::disk {

DiskInitiatorSocket::DiskInitiatorSocket(const char* name, DiskReady& owner)
    : tlm::tlm_initiator_socket<32, DiskProtocol>(name), backward_(owner)
{
    m_export.bind(backward_);
}

tlm::tlm_sync_enum DiskInitiatorSocket::Backward::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                                   sc_core::sc_time& delay)
{
    const DiskNotice* notice = trans.get_extension<DiskNotice>();
    if (notice == nullptr || phase != tlm::BEGIN_RESP || delay != sc_core::SC_ZERO_TIME) {
        SC_REPORT_ERROR("fcal/disk", "a disk notice must be a BEGIN_RESP without delay, carrying a DiskNotice");
        return tlm::TLM_COMPLETED;
    }
    // Copied first: what the owner does may make the disk send another notice on the same payload.
    const DiskNotice n = *notice;
    if (n.kind == NoticeKind::ReadData)
        owner_.read_data(n.tag, n.bytes);
    else
        owner_.disk_ready(n.tag);
    return tlm::TLM_COMPLETED;
}

}  // namespace fcal::disk
