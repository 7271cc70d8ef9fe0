// cmdf_collapsing_queue: one age-ordered descriptor queue of the command-first transmit FIFO
// (slot 0 = oldest). The HBA must be able to send the oldest frame for whichever destination the
// loop currently has open, not only the oldest overall, so a plain FIFO does not do: a hit can be
// removed from any slot and the younger slots close the gap ("collapsing"), and a command can be
// inserted behind the commands already waiting, ahead of the data frames (Command-First reorder).
//
// One clock edge does "remove the oldest match for q_dest, then insert into what remains": the
// removal and the insertion are two shift stages in series, so the insertion point is found in the
// already-collapsed contents, as the C++ reference (models/fcal/hba/command_first_queue.cpp) does when
// pop_for() and push() happen at the same simulated instant in that order.
//
// Positions are never binary indices: the removal and insertion points are found by running ORs
// along the slots ("a match was seen", "the insertion point was passed"), so every slot needs only
// a small mux and no index comparator, and any DEPTH >= 2 works, not only powers of two.
//
// Planted bug (only with `define FCAL_PLANTED_BUG, for checking that the co-simulation bench
// notices): the search for the reorder insertion point reads the class from the slots as stored
// before this edge's removal instead of from the collapsed slots. Effect: in reorder mode, when a
// command is pushed in the same cycle as a command is popped from this queue and at least one
// non-command frame is queued, the new command lands one slot too far back, behind the first data
// frame (the "commands first" assertion then fires on the next edge when assertions are enabled).
`resetall
`timescale 1ns / 1ps
`default_nettype none

module cmdf_collapsing_queue #(
    // Entries (slots); any value >= 2, not only powers of two.
    parameter DEPTH = 64,
    // Width of the opaque payload carried with each entry (tag, length, unfair rights).
    parameter PAY_W = 22
) (
    input  wire                       clk,
    input  wire                       rst,            // synchronous: empties the queue

    // Oldest entry (head of this queue).
    output wire                       head_valid,
    output wire [7:0]                 head_dest,
    output wire [1:0]                 head_class,
    output wire [PAY_W-1:0]           head_pay,

    // Oldest entry whose destination is q_dest.
    input  wire [7:0]                 q_dest,
    output wire                       match_valid,
    output wire [1:0]                 match_class,
    output wire [PAY_W-1:0]           match_pay,

    // Update at the clock edge: removal first, then insertion into the collapsed contents.
    input  wire                       rem_en,          // remove the entry shown on match_*
    input  wire                       ins_en,
    input  wire                       ins_behind_cmds, // 1: insert ahead of the first non-command; 0: append
    input  wire [7:0]                 ins_dest,
    input  wire [1:0]                 ins_class,
    input  wire [PAY_W-1:0]           ins_pay,

    input  wire                       chk_cmds_first,  // assert that commands form a prefix (reorder mode)

    output wire [$clog2(DEPTH+1)-1:0] count,
    output wire                       full,
    output wire                       empty
);
    localparam CNT_W = $clog2(DEPTH+1);      // count: 0 to DEPTH entries
    localparam E_W = 8 + 2 + PAY_W;          // entry = {dest, class, payload}
    localparam [1:0] CLASS_CMD = 2'd1;       // class of an FCP_CMND

    // The slots, {valid bits, entries}, are one register so that one next-state function (which
    // can return only one value) updates both.
    reg  [DEPTH*(E_W+1)-1:0] slots_q;
    wire [DEPTH*E_W-1:0] ent_q   = slots_q[0 +: DEPTH*E_W];      // slot i at [i*E_W +: E_W]
    wire [DEPTH-1:0]     valid_q = slots_q[DEPTH*E_W +: DEPTH];  // a prefix of ones (asserted)
    reg  [CNT_W-1:0]     count_q;

    // Combinational logic that reads an input is evaluated by Verilator on every eval(), and the
    // C++ side calls eval() twice a cycle plus once per query (a change of q_dest, no clock). So
    // only what the outputs need is combinational here (the q_dest match and its mux); the next
    // state and the invariant checks are functions called from the clocked processes, which are
    // evaluated only at a rising edge. The hardware is the same either way: a function called in
    // a clocked process is the next-state logic in front of the flip-flops.

    // ---- Oldest match for q_dest (combinational: drives match_*) -----------------------------
    reg  [DEPTH-1:0]     hit_so_far;         // bit i: a match lies in slots 0..i
    reg  [PAY_W+1:0]     sel;                // {class, payload} of the oldest match
    reg                  hit;
    reg                  first_hit;          // this slot holds the oldest match
    reg                  seen;
    integer f;
    always @* begin
        seen = 1'b0;
        sel  = {(PAY_W+2){1'b0}};
        for (f = 0; f < DEPTH; f = f + 1) begin
            hit           = valid_q[f] && ent_q[f*E_W + PAY_W + 2 +: 8] == q_dest;
            first_hit     = hit && !seen;
            seen          = seen || hit;
            hit_so_far[f] = seen;
            // AND-OR mux on the one-hot first_hit (the destination is known: it is q_dest).
            sel = sel | ({(PAY_W+2){first_hit}} & ent_q[f*E_W +: PAY_W + 2]);
        end
    end
    wire any_hit = hit_so_far[DEPTH-1];
    wire rem_do  = rem_en && any_hit;

    // ---- Next state (evaluated at the clock edge only) ---------------------------------------
    // Removal of the slot where 'gone_from' starts (its bits are set from the removed slot up;
    // none if 0), then insertion of 'ins_ent' (if 'ins') into the collapsed contents. Returns
    // {valid, entries}.
    function automatic [DEPTH*(E_W+1)-1:0] next_slots(
        input [DEPTH*E_W-1:0] ent,
        input [DEPTH-1:0]     valid,
        input [DEPTH-1:0]     gone_from,
        input                 ins,
        input                 behind_cmds,
        input [E_W-1:0]       ins_ent
    );
        reg [DEPTH*E_W-1:0] dn_ent, col_ent, up_ent, nxt_ent;
        reg [DEPTH-1:0]     dn_valid, col_valid, up_valid, nxt_valid;
        reg                 past;            // the insertion point lies before the current slot
        reg                 stop;
        reg [1:0]           cls;
        integer i;
        begin
            // Stage 1: slots at and beyond the removed one take their younger neighbour; the
            // shift brings zeros into the top slot, so it takes "nothing" (an empty slot).
            dn_ent   = ent >> E_W;
            dn_valid = valid >> 1;
            for (i = 0; i < DEPTH; i = i + 1) begin
                col_ent[i*E_W +: E_W] = gone_from[i] ? dn_ent[i*E_W +: E_W] : ent[i*E_W +: E_W];
                col_valid[i]          = gone_from[i] ? dn_valid[i]          : valid[i];
            end

            // Stage 2: find the insertion point in the collapsed contents and open a gap. The
            // shift source is the collapsed contents moved up one slot (slot i holds slot i-1).
            up_ent   = col_ent << E_W;
            up_valid = col_valid << 1;
            past     = 1'b0;
            for (i = 0; i < DEPTH; i = i + 1) begin
`ifdef FCAL_PLANTED_BUG
                cls = ent[i*E_W + PAY_W +: 2];       // BUG: class as stored before the removal
`else
                cls = col_ent[i*E_W + PAY_W +: 2];
`endif
                // Appending stops at the first free slot; reorder also stops at the first
                // non-command.
                stop = !col_valid[i] || (behind_cmds && cls != CLASS_CMD);
                if (ins && stop && !past) begin
                    nxt_ent[i*E_W +: E_W] = ins_ent;
                    nxt_valid[i]          = 1'b1;
                end else if (ins && past) begin
                    nxt_ent[i*E_W +: E_W] = up_ent[i*E_W +: E_W];
                    nxt_valid[i]          = up_valid[i];
                end else begin
                    nxt_ent[i*E_W +: E_W] = col_ent[i*E_W +: E_W];
                    nxt_valid[i]          = col_valid[i];
                end
                past = past || stop;
            end
            next_slots = {nxt_valid, nxt_ent};
        end
    endfunction

    always @(posedge clk) begin
        slots_q <= next_slots(ent_q, valid_q, {DEPTH{rem_en}} & hit_so_far,
                              ins_en, ins_behind_cmds, {ins_dest, ins_class, ins_pay});
        count_q <= count_q + {{(CNT_W-1){1'b0}}, ins_en} - {{(CNT_W-1){1'b0}}, rem_do};
        // The reset overrides the above for the valid bits and the count. The payload needs no
        // reset: a slot is only read while its valid bit is set.
        if (rst) begin
            slots_q[DEPTH*E_W +: DEPTH] <= {DEPTH{1'b0}};
            count_q <= {CNT_W{1'b0}};
        end
    end

    // ---- Outputs ------------------------------------------------------------------------------
    assign head_valid = valid_q[0];
    assign head_dest  = ent_q[PAY_W + 2 +: 8];
    assign head_class = ent_q[PAY_W +: 2];
    assign head_pay   = ent_q[0 +: PAY_W];

    assign match_valid = any_hit;
    assign match_class = sel[PAY_W +: 2];
    assign match_pay   = sel[0 +: PAY_W];

    assign count = count_q;
    assign full  = valid_q[DEPTH-1];
    assign empty = !valid_q[0];

    // ---- Invariants (simulation only) ---------------------------------------------------------
    // Functions of the state before the edge, evaluated in the clocked assertion process only.
`ifndef SYNTHESIS
    function automatic valid_is_prefix(input [DEPTH-1:0] valid);
        integer c;
        begin
            valid_is_prefix = 1'b1;
            for (c = 1; c < DEPTH; c = c + 1)
                if (valid[c] && !valid[c-1]) valid_is_prefix = 1'b0;
        end
    endfunction

    function automatic [CNT_W-1:0] ones_in(input [DEPTH-1:0] valid);
        integer c;
        begin
            ones_in = {CNT_W{1'b0}};
            for (c = 0; c < DEPTH; c = c + 1)
                if (valid[c]) ones_in = ones_in + 1'b1;
        end
    endfunction

    function automatic cmds_lead(input [DEPTH*E_W-1:0] ent, input [DEPTH-1:0] valid);
        integer c;
        begin
            cmds_lead = 1'b1;
            for (c = 1; c < DEPTH; c = c + 1)
                if (valid[c] && ent[c*E_W + PAY_W +: 2] == CLASS_CMD
                             && ent[(c-1)*E_W + PAY_W +: 2] != CLASS_CMD) cmds_lead = 1'b0;
        end
    endfunction

    // Nothing is checked until a reset has been seen: before that the state is arbitrary.
    reg armed;
    initial armed = 1'b0;
    always @(posedge clk) begin
        if (rst) begin
            armed <= 1'b1;
        end else if (armed) begin
            assert (valid_is_prefix(valid_q))
                else $error("cmdf_collapsing_queue: valid bits not contiguous from slot 0 (%b)", valid_q);
            assert (ones_in(valid_q) == count_q)
                else $error("cmdf_collapsing_queue: count %0d but %0d valid slots",
                            count_q, ones_in(valid_q));
            assert (!chk_cmds_first || cmds_lead(ent_q, valid_q))
                else $error("cmdf_collapsing_queue: a command is queued behind a non-command");
            // Full before the edge forbids an insertion even when the same edge removes an entry.
            assert (!(ins_en && full))
                else $error("cmdf_collapsing_queue: insertion into a full queue");
            assert (!rem_en || any_hit)
                else $error("cmdf_collapsing_queue: removal with no entry for destination %02h", q_dest);
        end
    end
`endif
endmodule

`resetall
`default_nettype wire
