// cmdf_top: the initiator HBA's outgoing frame-descriptor FIFO with the Command-First Algorithm,
// cycle-for-cycle equivalent to models/fcal/hba/command_first_queue.{hpp,cpp} so that the SystemC model
// can swap its C++ queue for this RTL and compare. Only descriptors live here; the C++ side keeps
// the frame behind each tag.
//
// Policy (cfg_fifo, static): 0 = one FIFO in arrival order; 1 = one FIFO, a command goes ahead of
// the data frames but behind the commands already waiting; 2 = commands in their own queue, always
// served before the frame queue; 3 is illegal. Unfair rights are fixed at push time, as the C++
// model stamps them on the frame when it is queued.
//
// Every output is a function of the registered state, the configuration and q_dest only, never of
// push_*: a push may then be decided from the outputs in the same cycle without a loop.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module cmdf_top #(
    // Frame queue entries (every frame, or every non-command when cfg_fifo == 2); any value >= 2.
    parameter DEPTH     = 64,
    // Command queue entries (written only when cfg_fifo == 2); any value >= 2.
    parameter CMD_DEPTH = 16,
    // Width of the tag naming each descriptor's frame on the C++ side; the caller needs one tag
    // per entry that can be queued at once, DEPTH + CMD_DEPTH.
    parameter TAG_W     = 8,
    // Width of the frame length in transmission words (a full FC frame is 537 words).
    parameter LEN_W     = 12
) (
    input  wire                           clk,
    input  wire                           rst,

    input  wire [1:0]                     cfg_fifo,
    input  wire                           cfg_arbitration,
    input  wire                           cfg_preempt,

    input  wire                           push,
    input  wire [TAG_W-1:0]               push_tag,
    input  wire [7:0]                     push_dest,
    input  wire [1:0]                     push_class,   // 0 data, 1 command, 2 other
    input  wire [LEN_W-1:0]               push_len,

    input  wire                           pop,
    input  wire [7:0]                     q_dest,

    output wire                           head_valid,
    output wire [TAG_W-1:0]               head_tag,
    output wire [7:0]                     head_dest,
    output wire [1:0]                     head_class,
    output wire [LEN_W-1:0]               head_len,
    output wire                           head_unfair_arb,
    output wire                           head_unfair_xfer,

    output wire                           sel_valid,
    output wire [TAG_W-1:0]               sel_tag,
    output wire [1:0]                     sel_class,
    output wire [LEN_W-1:0]               sel_len,

    output wire                           preempt_req,

    output wire [$clog2(CMD_DEPTH+1)-1:0] cmd_count,
    output wire [$clog2(DEPTH+1)-1:0]     frame_count,
    output wire                           cmd_full,
    output wire                           frame_full,
    output wire                           empty
);
    localparam PAY_W = TAG_W + LEN_W + 2;   // payload of a queue entry: {tag, len, unfair_arb, unfair_xfer}
    localparam [1:0] CLASS_CMD       = 2'd1;   // push_class of an FCP_CMND
    localparam [1:0] FIFO_REORDER    = 2'd1;   // cfg_fifo: commands ahead of data, one queue
    localparam [1:0] FIFO_CMD_QUEUE  = 2'd2;   // cfg_fifo: commands in their own queue

    wire push_is_cmd = push_class == CLASS_CMD;
    wire push_to_cmd = push_is_cmd && cfg_fifo == FIFO_CMD_QUEUE;
    wire [PAY_W-1:0] push_pay = {push_tag, push_len, push_is_cmd && cfg_arbitration,
                                 push_is_cmd && cfg_preempt};

    wire             cq_head_valid, fq_head_valid;
    wire [7:0]       cq_head_dest,  fq_head_dest;
    wire [1:0]       cq_head_class, fq_head_class;
    wire [PAY_W-1:0] cq_head_pay,   fq_head_pay;
    wire             cq_match,      fq_match;
    wire [1:0]       cq_match_class, fq_match_class;
    wire [PAY_W-1:0] cq_match_pay,  fq_match_pay;
    wire             cq_empty,      fq_empty;

    // The command queue is searched first, so it owns the pop whenever it has a match.
    cmdf_collapsing_queue #(.DEPTH(CMD_DEPTH), .PAY_W(PAY_W)) u_cmd_queue (
        .clk(clk), .rst(rst),
        .head_valid(cq_head_valid), .head_dest(cq_head_dest), .head_class(cq_head_class),
        .head_pay(cq_head_pay),
        .q_dest(q_dest), .match_valid(cq_match), .match_class(cq_match_class), .match_pay(cq_match_pay),
        .rem_en(pop && cq_match),
        .ins_en(push && push_to_cmd), .ins_behind_cmds(1'b0),
        .ins_dest(push_dest), .ins_class(push_class), .ins_pay(push_pay),
        .chk_cmds_first(1'b0),
        .count(cmd_count), .full(cmd_full), .empty(cq_empty)
    );

    cmdf_collapsing_queue #(.DEPTH(DEPTH), .PAY_W(PAY_W)) u_frame_queue (
        .clk(clk), .rst(rst),
        .head_valid(fq_head_valid), .head_dest(fq_head_dest), .head_class(fq_head_class),
        .head_pay(fq_head_pay),
        .q_dest(q_dest), .match_valid(fq_match), .match_class(fq_match_class), .match_pay(fq_match_pay),
        .rem_en(pop && !cq_match),
        .ins_en(push && !push_to_cmd),
        .ins_behind_cmds(push_is_cmd && cfg_fifo == FIFO_REORDER),
        .ins_dest(push_dest), .ins_class(push_class), .ins_pay(push_pay),
        .chk_cmds_first(cfg_fifo == FIFO_REORDER),
        .count(frame_count), .full(frame_full), .empty(fq_empty)
    );

    wire [PAY_W-1:0] head_pay = cq_head_valid ? cq_head_pay : fq_head_pay;
    assign head_valid = cq_head_valid || fq_head_valid;
    assign head_dest  = cq_head_valid ? cq_head_dest  : fq_head_dest;
    assign head_class = cq_head_valid ? cq_head_class : fq_head_class;
    assign {head_tag, head_len, head_unfair_arb, head_unfair_xfer} = head_pay;

    // The select port reports no unfair rights (the caller acts on the head's), hence bits [1:0].
    /* verilator lint_off UNUSEDSIGNAL */
    wire [PAY_W-1:0] sel_pay = cq_match ? cq_match_pay : fq_match_pay;
    /* verilator lint_on UNUSEDSIGNAL */
    assign sel_valid = cq_match || fq_match;
    assign sel_class = cq_match ? cq_match_class : fq_match_class;
    assign {sel_tag, sel_len} = sel_pay[PAY_W-1:2];

    // Close the open circuit when a command for someone else is waiting at the head.
    assign preempt_req = cfg_preempt && head_valid && head_class == CLASS_CMD && head_dest != q_dest;

    assign empty = cq_empty && fq_empty;

`ifndef SYNTHESIS
    reg armed;   // the configuration and the handshakes are only meaningful once out of reset
    initial armed = 1'b0;
    always @(posedge clk) begin
        if (rst) begin
            armed <= 1'b1;
        end else if (armed) begin
            assert (cfg_fifo != 2'd3)
                else $error("cmdf_top: cfg_fifo = 3 is not a policy");
            assert (!pop || sel_valid)
                else $error("cmdf_top: pop with no queued frame for destination %02h", q_dest);
            assert (!(push && (push_to_cmd ? cmd_full : frame_full)))
                else $error("cmdf_top: push into a full %0s queue", push_to_cmd ? "command" : "frame");
        end
    end
`endif
endmodule

`resetall
`default_nettype wire
