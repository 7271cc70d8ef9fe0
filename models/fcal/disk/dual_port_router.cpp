#include "fcal/disk/dual_port_router.hpp"

namespace fcal::disk {

DualPortRouter::DualPortRouter(sc_core::sc_module_name name)
    : sc_module(name), port0("port0"), port1("port1"), disk("disk")
{
    for (unsigned p = 0; p < kPorts; ++p) port(p).register_b_transport(this, &DualPortRouter::b_transport, static_cast<int>(p));
    disk.register_nb_transport_bw(this, &DualPortRouter::nb_transport_bw);
}

// The transaction goes on with the disk's tag (in the command, or in the buffer address) and is given
// back to its initiator as it came, with the disk's answer.
void DualPortRouter::b_transport(int p, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    const auto address = trans.get_address();
    const auto from = static_cast<unsigned>(p);
    if (address == kDiskCommandAddress) {
        DiskCommand* cmd = nullptr;
        trans.get_extension(cmd);
        if (cmd == nullptr) {
            disk->b_transport(trans, delay);  // the disk refuses it
            return;
        }
        const std::uint64_t tag = cmd->tag;
        cmd->tag = disk_tag(tag, from);
        disk->b_transport(trans, delay);
        cmd->tag = tag;
        return;
    }
    if (address < kDiskBufferBase) {
        disk->b_transport(trans, delay);
        return;
    }
    const std::uint64_t relative = address - kDiskBufferBase;
    const auto offset = static_cast<std::uint32_t>(relative % kDiskBufferSpan);
    trans.set_address(buffer_address(disk_tag(relative / kDiskBufferSpan, from), offset));
    disk->b_transport(trans, delay);
    trans.set_address(address);
}

tlm::tlm_sync_enum DualPortRouter::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay)
{
    const DiskNotice* notice = trans.get_extension<DiskNotice>();
    if (notice == nullptr || phase != tlm::BEGIN_RESP || delay != sc_core::SC_ZERO_TIME) {
        SC_REPORT_ERROR("fcal/disk", "a disk notice must be a BEGIN_RESP without delay, carrying a DiskNotice");
        return tlm::TLM_COMPLETED;
    }
    const DiskNotice n = *notice;
    const unsigned p = port_of(n.tag);
    if (n.kind == NoticeKind::ReadData)
        notifiers_[p].read_data(port(p), port_tag(n.tag), n.bytes);
    else
        notifiers_[p].ready(port(p), port_tag(n.tag));
    return tlm::TLM_COMPLETED;
}

}  // namespace fcal::disk
