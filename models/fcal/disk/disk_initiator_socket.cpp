#include "fcal/disk/disk_initiator_socket.hpp"

namespace fcal::disk {

DiskInitiatorSocket::DiskInitiatorSocket(const char* name, DiskReady& owner)
    : tlm::tlm_initiator_socket<32, DiskProtocol>(name), backward_(owner)
{
    m_export.bind(backward_);
    command_.set_command(tlm::TLM_WRITE_COMMAND);
    command_.set_address(kDiskCommandAddress);
    for (tlm::tlm_generic_payload* gp : {&command_, &buffer_}) {
        gp->set_data_ptr(nullptr);
        gp->set_streaming_width(0);
        gp->set_byte_enable_ptr(nullptr);
    }
    command_.set_data_length(0);
}

tlm::tlm_response_status DiskInitiatorSocket::command(DiskCommand& cmd, sc_core::sc_time delay)
{
    command_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    command_.set_extension(&cmd);
    (*this)->b_transport(command_, delay);
    command_.clear_extension(&cmd);
    return command_.get_response_status();
}

tlm::tlm_response_status DiskInitiatorSocket::buffer(tlm::tlm_command direction, std::uint64_t tag, std::uint32_t offset,
                                                     std::uint32_t bytes, sc_core::sc_time delay)
{
    buffer_.set_command(direction);
    buffer_.set_address(buffer_address(tag, offset));
    buffer_.set_data_length(bytes);
    buffer_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    (*this)->b_transport(buffer_, delay);
    return buffer_.get_response_status();
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
