#include "fcal/disk/disk_notifier.hpp"

namespace fcal::disk {

DiskNotifier::DiskNotifier()
{
    payload_.set_command(tlm::TLM_IGNORE_COMMAND);
    payload_.set_address(kDiskCommandAddress);
    payload_.set_data_ptr(nullptr);
    payload_.set_data_length(0);
    payload_.set_streaming_width(0);
    payload_.set_byte_enable_ptr(nullptr);
    payload_.set_response_status(tlm::TLM_OK_RESPONSE);
    payload_.set_extension(&notice_);
}

// The payload would free an extension still set on it: the notice is a member, not its to free.
DiskNotifier::~DiskNotifier() { payload_.clear_extension(&notice_); }

}  // namespace fcal::disk
