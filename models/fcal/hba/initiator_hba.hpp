#pragma once
// The storage controller's initiator HBA (docs/hba.md, "The HBAs"): a main processor that executes each
// command, an incoming-frame processor, one DMA engine to host memory (a TLM-2.0 initiator), and the
// L_Port's transmit queue as its outgoing frame FIFO.
//
// Read:  cmd_exec -> DMA fetch of the I/O description (FCP_CMND payload) -> FCP_CMND queued;
//        each FCP_DATA: frame_proc (buffer freed) -> DMA into host memory (scheduler overhead on
//        the first frame of the exchange); FCP_RSP: frame_proc -> single frame transfer to host
//        memory (on the DMA engine or its own: SingleFrameTransfers), after the exchange's data is
//        in memory -> completion.
// Write: as read up to FCP_CMND; each FCP_XFER_RDY: frame_proc -> XFER_RDY handling on the main
//        processor -> DMA of the burst from host memory, one FCP_DATA queued as each frame's bytes
//        arrive (scheduler overhead once per burst); FCP_RSP as for a read.
// Recovery (docs/faults.md, "FCP recovery"): an exchange not complete within
// exchange_timeout is aborted: its pending work is dropped and an ABTS goes to the target. The BA_ACC,
// or abts_timeout without one, closes it, and the driver hears io_aborted(); frames that arrive for
// it in between (or, after giving up on BA_ACC, at any time) are dropped and counted (late_frames).
//
// Loop failure (docs/faults.md, "Loop failure"): link_lost() at the loss of signal: the HBA sends
// nothing more, discards every frame that reaches it and drops all it holds for its exchanges (their
// OX_IDs quarantined, so that a frame of theirs that still comes is a late frame); after link_down
// it gives the I/Os back to its LinkListener. link_restored() makes it work again.
//
// Logins (docs/hba.md, "Logins"): loop_initialized() after each initialization of its loop; PLOGI and
// PRLI to the targets that joined, ADISC to those logged in, one ELS at a time (LoginExchanges, on the
// state of TargetLogins); commands to a target wait while it logs in or is re-validated, and fail with
// the reason once it is logged out (its open exchanges too).
//
// The HBA glues its servers (processors, DMA engine) to pieces with one job each: the OX_IDs
// (ExchangeIdPool), the frames waiting for FIFO room (HeldFrames), the TASK SET FULL reissues
// (TaskSetFullRetry), the exchange recovery (ExchangeRecovery) and the login exchanges
// (LoginExchanges); its one timer facility holds the exchanges' deadlines, the ELS's and the reissues'.
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>
#include <tlm_utils/simple_initiator_socket.h>

#include <nlohmann/json.hpp>

#include "fcal/fcp/exchange.hpp"
#include "fcal/hba/dma_engine.hpp"
#include "fcal/hba/exchange_id_pool.hpp"
#include "fcal/hba/exchange_lookup.hpp"
#include "fcal/hba/exchange_recovery.hpp"
#include "fcal/hba/hba_delays.hpp"
#include "fcal/hba/hba_params.hpp"
#include "fcal/hba/held_frames.hpp"
#include "fcal/hba/io_request.hpp"
#include "fcal/hba/link_listener.hpp"
#include "fcal/hba/login_exchanges.hpp"
#include "fcal/hba/service_queue.hpp"
#include "fcal/hba/single_frame_transfers.hpp"
#include "fcal/hba/target_logins.hpp"
#include "fcal/hba/task_set_full_retry.hpp"
#include "fcal/hba/work.hpp"
#include "fcal/kernel/timers.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/loop/lport.hpp"

namespace fcal::hba {

class InitiatorHba : public sc_core::sc_module,
                     public HbaFrontEnd,
                     public loop::PortUser,
                     private WorkOwner,
                     private ExchangeRecovery::Actions {
public:
    tlm_utils::simple_initiator_socket<InitiatorHba> host_dma;

    // `transmit_queue` is the outgoing frame FIFO (the Command-First reference model or the RTL);
    // the HBA installs it in its port.
    InitiatorHba(sc_core::sc_module_name name, const HbaParams& params, loop::LPort& port,
                 std::unique_ptr<loop::TransmitQueue> transmit_queue);

    void set_completion(HbaCompletion* completion) { completion_ = completion; }
    void set_link_listener(LinkListener* listener) { link_listener_ = listener; }
    // Loss of signal on its loop, and its return (docs/faults.md, "Loop failure").
    void link_lost();
    void link_restored();
    bool link_up() const { return !down_; }
    // Logins (docs/hba.md, "Logins"). By default every target counts as logged in from the start;
    // after log_in_at_start() none does until the loop's first initialization has logged it in (the
    // system calls it with loop.initialize_at_start), and commands wait until then.
    void log_in_at_start() { logins_ = TargetLogins(false, params_.els_retries); }
    // Its loop finished an initialization; `record` names the ports on it.
    void loop_initialized(const loop::LoopInitRecord& record) { els_.loop_initialized(record); }
    const TargetLogins& logins() const { return logins_; }
    // Frames that reached it while its link was down, discarded.
    std::uint64_t frames_discarded_link_down() const { return link_down_frames_; }
    // Observation hooks for the statistics: an FCP_CMND went on the wire after waiting `wait` in the
    // HBA (queued to SOF); data payload crossed the loop to or from this HBA.
    std::function<void(const IoRequest&, const sc_core::sc_time& wait)> on_command_sent;
    std::function<void(std::uint32_t bytes)> on_data;
    // Every frame of an I/O's exchange that crossed the loop, sent or received: its words, SOF to EOF.
    std::function<void(const IoRequest&, std::uint32_t words)> on_wire;

    void submit(IoRequest* io) override;
    void frame_received(loop::FrameRef frame) override;
    sc_core::sc_time frame_slack(const loop::LoopFrame& frame) const override;
    void frame_sent(const loop::LoopFrame& frame) override;
    // On by default where it can be (FCFS, a queue that is not clocked); a test compares a run
    // without (before the run starts).
    void fetch_writes_ahead(bool on);
    void frame_due(loop::OutgoingFrame frame) override;

    std::size_t outstanding() const { return exchanges_.size(); }
    // Frames that found their FIFO full and waited in the HBA (back-pressure).
    std::uint64_t frames_held() const { return held_.frames_held(); }
    // Commands the disks answered TASK SET FULL, each reissued once more.
    std::uint64_t task_set_full_retries() const { return retries_.retries(); }
    // Requests waiting now to be reissued.
    std::size_t retries_waiting() const { return retries_.waiting(); }
    // Recovery: ABTS sent (exchanges aborted), BA_ACC received, ABTS given up on (no BA_ACC within
    // abts_timeout), frames dropped because their exchange was being or had been aborted.
    std::uint64_t aborts() const { return recovery_.aborts(); }
    std::uint64_t ba_acc_received() const { return recovery_.ba_acc_received(); }
    std::uint64_t abts_timeouts() const { return recovery_.abts_timeouts(); }
    std::uint64_t late_frames() const { return recovery_.late_frames(); }
    // Frames dropped because an earlier frame of their exchange never came.
    std::uint64_t sequence_errors() const { return recovery_.sequence_errors(); }
    // Whole run: tx_frames_held, task_set_full_retries and the recovery's aborts, ba_acc_received,
    // abts_timeouts, late_frames, sequence_errors (docs/faults.md, "FCP recovery"), link_down_frames
    // (docs/faults.md, "Loop failure").
    void report(nlohmann::json& j) const;
    loop::LPort& port() { return port_; }
    const ServiceQueue& processor() const { return cpu_; }
    const DmaEngine& dma() const { return dma_; }
    const SingleFrameTransfers& single_frame_transfers() const { return sft_; }

private:
    // The steps its processors and DMA engine hand back (Work::step).
    enum Step : std::uint8_t {
        kCommandExecuted = 1,  // cpu: fetch the I/O description
        kXferRdyHandled,       // cpu: DMA the burst the FCP_XFER_RDY (Work::frame) asks for
        kFrameProcessed,       // frame_proc: free the buffer, handle the frame
        kCommandFetched,       // DMA: queue the FCP_CMND
        kDataInMemory,         // DMA: a read data frame is in host memory
        kDataFetched,          // DMA: queue the write data frame (Work::frame)
        kResponseDelivered,    // single-frame transfer: the FCP_RSP is in host memory: the I/O is complete
        kElsBuilt,             // cpu: the ELS LoginExchanges asked for is built (Work::id: its target, Work::serial: its number)
        kRefused,              // cpu: the oldest command for a logged-out target fails (refused_)
    };
    void work_done(Work& work) override;
    void work_ahead(Work& work, const sc_core::sc_time& end) override;
    // A deadline on the HBA's timers: an exchange's timeout (exchange_timeout, then abts_timeout once
    // aborting), or (`retry`) the oldest request refused with TASK SET FULL is due to be reissued.
    // `link`: the link-down report is due. A retry's or the report's deadline set before the link
    // went down (or came back) belongs to an earlier `epoch` and does nothing.
    struct Deadline {
        enum class Kind : std::uint8_t {
            Exchange,  // the exchange `ox_id` (`serial`) timed out, or its ABTS did
            Retry,     // the TASK SET FULL reissue is due
            LinkDown,  // the loss of signal is reported
            Els,       // the ELS `ox_id` to `target` had no reply
            Held,      // the command `held`, waiting for its target's login, waited too long
        };
        Kind kind = Kind::Exchange;
        std::uint16_t ox_id = 0;
        std::uint64_t serial = 0;
        std::uint32_t epoch = 0;
        phy::AlPa target = 0;
        IoRequest* held = nullptr;
    };
    using Timers = kernel::Timers<Deadline>;
    struct Active {
        IoRequest* io = nullptr;
        std::optional<fcp::Exchange> exchange;
        std::uint64_t data_transfer = 0;  // DMA transfer of read data, once started
        bool response_waiting = false;    // FCP_RSP arrived before all data was in memory
        sc_core::sc_time cmnd_queued;
        std::uint64_t serial = 0;          // this HBA's number for the exchange, never reused
        Timers::Handle timer;              // exchange_timeout, then abts_timeout once aborting
        ExchangeRecovery::State recovery;
    };
    // Work scheduled for an exchange names it by OX_ID and serial: when it comes due, the exchange may
    // have been aborted (nullptr) and its OX_ID even reused.
    Active* live(std::uint16_t ox_id, std::uint64_t serial);
    Active* find(std::uint16_t ox_id);
    void send_command(std::uint16_t ox_id, std::uint64_t serial);
    void transmit(loop::FrameRef frame);
    void push_held();
    void withdraw_fetched(std::uint64_t serial);
    void stop_sending(std::uint16_t ox_id);
    void handle(const fcp::FcFrame& f, const loop::FrameRef& frame);
    void deliver_response(std::uint16_t ox_id);
    void close(std::uint16_t ox_id);  // forget the exchange, its timer stopped, its OX_ID released
    void deadline(Deadline& d);
    void report_link_down();
    void hold(IoRequest* io);
    void unhold(IoRequest* io);
    LoginExchanges::Hooks login_hooks();
    std::vector<IoRequest*> drop_exchanges(const std::function<bool(const Active&)>& which);
    // ExchangeRecovery::Actions.
    void send_abts(std::uint16_t ox_id) override;
    void give_up(std::uint16_t ox_id, std::string reason) override;
    Active& active(std::uint16_t ox_id);

    HbaParams params_;
    HbaDelays delays_;
    loop::LPort& port_;
    ServiceQueue cpu_;
    ServiceQueue frame_proc_;
    DmaEngine dma_;
    SingleFrameTransfers sft_;
    HbaCompletion* completion_ = nullptr;
    ExchangeMap<Active> exchanges_;  // by OX_ID
    ExchangeIdPool ox_ids_;
    HeldFrames held_;
    std::vector<fcp::Exchange::FramePtr> burst_;  // a write burst's frames on their way to the DMA engine
    TaskSetFullRetry retries_;
    ExchangeRecovery recovery_;
    Timers timers_;  // the exchanges' timeouts and the reissues after TASK SET FULL
    std::uint64_t last_serial_ = 0;
    // Loop failure.
    LinkListener* link_listener_ = nullptr;
    // Write data fetched ahead (docs/hba.md, "Fetching ahead"): each frame handed to the port at once
    // for the end of its transfer, going into the FIFO, or held, when due (frame_due()).
    bool may_fetch_ahead_ = false;
    bool fetch_ahead_ = false;
    bool down_ = false;
    bool down_reported_ = false;
    sc_core::sc_time lost_at_;
    std::uint32_t epoch_ = 0;
    std::vector<IoRequest*> lost_;  // the I/Os to give back, in the order taken
    std::uint64_t link_down_frames_ = 0;
    // Logins.
    TargetLogins logins_{true, params_.els_retries};  // (params_ is declared before it)
    std::unordered_map<IoRequest*, kernel::TimerHandle> hold_timers_;  // the commands logins_ holds
    LoginExchanges els_;
    std::deque<std::pair<IoRequest*, std::string>> refused_;  // waiting for kRefused, oldest first
};

}  // namespace fcal::hba
