#pragma once
// A disk's target HBA (docs/hba.md, "The HBAs"): the initiator's blocks in target mode, with a
// TLM-2.0 initiator socket to the disk (commands and its buffer forward, its notices backward: see
// disk/disk_command.hpp).
//
// FCP_CMND: frame_proc (buffer freed) -> single frame transfer to the disk controller (on the DMA
//   engine or its own: SingleFrameTransfers) -> cmd_exec.
//   The command goes to the disk at once (read or write); if the disk answers TASK SET FULL, the
//   HBA builds an FCP_RSP with that status and the exchange ends (nothing waits in the HBA).
//   Read:  whenever the disk announces data in its buffer (read_data, or disk_ready for the rest),
//          DMA those whole frames from the buffer as one transfer (scheduler overhead once), one
//          FCP_DATA queued as each frame's bytes arrive; after the last, build FCP_RSP.
//   Write: build FCP_XFER_RDY for the first burst; each FCP_DATA: frame_proc -> DMA into the disk
//          buffer (overhead once per burst); burst complete -> next FCP_XFER_RDY, or, when all data
//          is in, tell the disk (WriteDataIn); when the disk reports it done, build FCP_RSP.
// Building an FCP_XFER_RDY or FCP_RSP takes rsp_gen on the main processor.
// A failed drive (drive_failed(); docs/faults.md, "Scheduled events"): the port stays on the loop;
//   every open exchange is dropped as for an ABTS and answered FCP_RSP CHECK CONDITION (rsp_gen), and so
//   is every later command, without reaching the disk.
// Loop failure (docs/faults.md, "Loop failure"): link_lost() drops every open exchange as for an
//   ABTS (the disk drops its commands) and from then on the HBA sends nothing and discards every frame
//   that reaches it, until link_restored().
// ABTS (docs/faults.md, "FCP recovery"): the exchange is dropped wherever it is,
//   the disk told to drop its command (kind Abort), and BA_ACC built (rsp_gen) and sent. A write whose
//   burst has not all come within data_timeout of its FCP_XFER_RDY is dropped the same way, unasked.
//   The bookkeeping (aborted RX_IDs, late frames, sequence errors, counts) is TargetRecovery's.
// Logins (docs/hba.md, "Logins"): PLOGI, PRLI and ADISC are answered LS_ACC naming the port, built
//   after frame_proc on the main processor (rsp_gen, as an FCP_RSP) and queued; the target keeps no
//   login state of its own.
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/fcp/exchange.hpp"
#include "fcal/disk/disk_command.hpp"
#include "fcal/disk/disk_initiator_socket.hpp"
#include "fcal/hba/dma_engine.hpp"
#include "fcal/hba/exchange_id_pool.hpp"
#include "fcal/hba/exchange_lookup.hpp"
#include "fcal/hba/hba_delays.hpp"
#include "fcal/hba/hba_params.hpp"
#include "fcal/hba/service_queue.hpp"
#include "fcal/hba/single_frame_transfers.hpp"
#include "fcal/hba/target_recovery.hpp"
#include "fcal/hba/work.hpp"
#include "fcal/kernel/timers.hpp"
#include "fcal/loop/lport.hpp"

namespace fcal::hba {

class TargetHba : public sc_core::sc_module, public loop::PortUser, public fcal::disk::DiskReady, private WorkOwner {
public:
    fcal::disk::DiskInitiatorSocket disk;

    TargetHba(sc_core::sc_module_name name, const HbaParams& params, loop::LPort& port);

    void frame_received(loop::FrameRef frame) override;

    sc_core::sc_time frame_slack(const loop::LoopFrame& frame) const override;
    bool wants_frame_sent() const override { return false; }  // the loop port may send frames back to back
    void disk_ready(std::uint64_t tag) override;
    void read_data(std::uint64_t tag, std::uint32_t bytes) override;
    // The drive behind this interface has failed, for good.
    void drive_failed();
    bool failed() const { return drive_failed_; }
    // A new drive in the failed one's slot (docs/faults.md, "Scheduled events": insert).
    void drive_replaced() { drive_failed_ = false; }
    // Loss of signal on its loop, and its return (docs/faults.md, "Loop failure").
    void link_lost();
    void link_restored() { down_ = false; }
    // The disk's buffer hands out read data whenever they are taken (Disk::reads_whenever): the DMA
    // engine fetches a read's frames ahead, each queued at its port for when its transfer ends
    // (docs/hba.md, "Fetching ahead").
    void fetch_reads_ahead(bool on) { reads_ahead_ = on; }
    bool link_up() const { return !down_; }

    std::size_t open_exchanges() const { return exchanges_.size(); }
    // Commands answered TASK SET FULL because the disk had no free queue slot.
    std::uint64_t task_set_full() const { return task_set_full_; }
    // Recovery: ABTS received (each answered BA_ACC); frames dropped because their exchange had been
    // aborted.
    std::uint64_t aborts_received() const { return recovery_.aborts_received(); }
    std::uint64_t late_frames() const { return recovery_.late_frames(); }
    // Writes dropped because a burst's data did not come within data_timeout.
    std::uint64_t data_timeouts() const { return recovery_.data_timeouts(); }
    // Write data frames dropped because an earlier one of their exchange never came.
    std::uint64_t sequence_errors() const { return recovery_.sequence_errors(); }
    // ELS requests (PLOGI, PRLI, ADISC) answered LS_ACC.
    std::uint64_t els_answered() const { return els_answered_; }
    // late_frames, data_timeouts, sequence_errors, link_down_frames (discarded while its link was down), whole run.
    void report(nlohmann::json& j) const
    {
        recovery_.report(j);
        j["link_down_frames"] = link_down_frames_;
    }
    loop::LPort& port() { return port_; }
    const DmaEngine& dma() const { return dma_; }
    const SingleFrameTransfers& single_frame_transfers() const { return sft_; }

private:
    // The steps its processors and DMA engine hand back (Work::step).
    enum Step : std::uint8_t {
        kFrameProcessed = 1,  // frame_proc: free the buffer, handle the frame
        kCommandDelivered,    // single-frame transfer: the FCP_CMND reached the disk controller: execute it
        kCommandExecuted,     // cpu: hand the command to the disk
        kRefused,             // cpu: queue FCP_RSP TASK SET FULL
        kDataInBuffer,        // DMA: a write data frame is in the disk's buffer (Work::last: its burst's last)
        kDataFetched,         // DMA: queue the next read data frame (Work::last: the read's last)
        kXferRdyBuilt,        // cpu: queue FCP_XFER_RDY
        kResponseBuilt,       // cpu: queue FCP_RSP
        kBaAccBuilt,          // cpu: queue the BA_ACC (Work::frame)
        kFailureBuilt,        // cpu: queue the FCP_RSP CHECK CONDITION (Work::frame)
        kLsAccBuilt,          // cpu: queue the LS_ACC answering an ELS (Work::frame)
    };
    void work_done(Work& work) override;
    void work_ahead(Work& work, const sc_core::sc_time& end) override;
    using Timers = kernel::Timers<std::uint64_t>;  // key: serial << 16 | RX_ID
    struct Active {
        std::optional<fcp::Exchange> exchange;
        std::uint64_t burst_transfer = 0;
        std::uint32_t burst_end = 0;  // write: offset the current burst ends at
        std::uint32_t read_queued = 0;  // read: bytes handed to the DMA engine
        std::uint64_t serial = 0;       // this HBA's number for the exchange, never reused
        bool at_disk = false;           // the disk accepted its command
        bool broken = false;            // a write data frame went missing: the rest is dropped
        Timers::Handle timer;           // write: waiting for a burst's data (data_timeout)
    };
    // Work scheduled for an exchange names it by RX_ID and serial: when it comes due, the exchange
    // may have been aborted (nullptr) and its RX_ID even reused.
    Active* live(std::uint16_t rx_id, std::uint64_t serial);
    void abort_exchange(const fcp::FcFrame& abts);
    void drop(std::uint16_t rx_id);
    void data_timeout(std::uint64_t key);
    void handle(const fcp::FcFrame& frame);
    void burst_in(std::uint16_t rx_id);
    void start_command(std::uint16_t rx_id);
    bool disk_command(std::uint16_t rx_id, fcal::disk::CommandKind kind);
    void send_read_data(std::uint16_t rx_id, std::uint32_t upto);
    void refuse(std::uint16_t rx_id);
    void answer_failed(std::uint16_t rx_id);
    void send_xfer_rdy(std::uint16_t rx_id);
    void send_response(std::uint16_t rx_id);
    void close(std::uint16_t rx_id);  // forget the exchange, its RX_ID released
    void send(loop::FrameRef frame);  // to the port, unless the link is down
    Active& active(std::uint16_t rx_id);
    void take_back_ahead(Active& a);

    HbaParams params_;
    HbaDelays delays_;
    loop::LPort& port_;
    ServiceQueue cpu_;
    ServiceQueue frame_proc_;
    DmaEngine dma_;
    SingleFrameTransfers sft_;
    ExchangeMap<Active> exchanges_;  // by RX_ID
    ExchangeIdPool rx_ids_;
    std::uint64_t task_set_full_ = 0;
    bool drive_failed_ = false;
    bool down_ = false;
    bool reads_ahead_ = false;
    std::uint64_t link_down_frames_ = 0;
    std::uint64_t els_answered_ = 0;
    std::uint64_t last_serial_ = 0;
    TargetRecovery recovery_;
    Timers timers_;
};

}  // namespace fcal::hba
