#pragma once
// An HBA's times (hba/hba_params.hpp) as sc_time.
#include <systemc>

#include "fcal/hba/hba_params.hpp"

namespace fcal::hba {

// The times of HbaParams as the HBA schedules them, converted once when it is built.
struct HbaDelays {
    explicit HbaDelays(const HbaParams& p)
        : cmd_exec(p.cmd_exec_s, sc_core::SC_SEC),
          xfer_rdy_or_rsp(p.xfer_rdy_or_rsp_s, sc_core::SC_SEC),
          frame_proc(p.frame_proc_s, sc_core::SC_SEC),
          single_frame_transfer(p.single_frame_transfer_s, sc_core::SC_SEC),
          task_set_full_retry(p.task_set_full_retry_s, sc_core::SC_SEC),
          exchange_timeout(p.exchange_timeout_s, sc_core::SC_SEC),
          abts_timeout(p.abts_timeout_s, sc_core::SC_SEC),
          data_timeout(p.data_timeout_s, sc_core::SC_SEC),
          link_down(p.link_down_s, sc_core::SC_SEC)
    {
    }
    sc_core::sc_time cmd_exec, xfer_rdy_or_rsp, frame_proc, single_frame_transfer;
    sc_core::sc_time task_set_full_retry, exchange_timeout, abts_timeout, data_timeout, link_down;
};

}  // namespace fcal::hba
