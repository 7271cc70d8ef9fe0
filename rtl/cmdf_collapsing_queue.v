// cmdf_collapsing_queue: one age-ordered descriptor queue of the command-first transmit FIFO
// (slot 0 = oldest). The HBA must be able to send the oldest frame for whichever destination the
// loop currently has open, not only the oldest overall, so a plain FIFO does not do: a hit can be
// removed from any slot and the younger slots close the gap ("collapsing"), and a command can be
// inserted behind the commands already waiting, ahead of the data frames (Command-First reorder).
//
// One clock edge does "remove the oldest match for q_dest, then insert into what remains": the
// removal and the insertion are two shift stages in series, so the insertion point is found in the
// already-collapsed contents, as the C++ reference (models/hba/command_first_queue.cpp) does when
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
module cmdf_collapsing_queue #(
    parameter DEPTH = 64,
    parameter PAY_W = 22   // opaque payload carried with each entry (tag, length, unfair rights)
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
    localparam CNT_W = $clog2(DEPTH+1);
    localparam E_W = 8 + 2 + PAY_W;          // entry = {dest, class, payload}
    localparam [1:0] CLASS_CMD = 2'd1;

    reg  [DEPTH*E_W-1:0] ent_q;              // slot i at [i*E_W +: E_W]
    reg  [DEPTH-1:0]     valid_q;            // always a prefix of ones (asserted below)
    reg  [CNT_W-1:0]     count_q;

    // Slot DEPTH reads as empty so that the top slot can shift down from "nothing".
    wire [(DEPTH+1)*E_W-1:0] ent_ext   = {{E_W{1'b0}}, ent_q};
    wire [DEPTH:0]           valid_ext = {1'b0, valid_q};

    // ---- Stage 1: find the oldest match and collapse it out ---------------------------------
    reg  [DEPTH-1:0]     first_hit;          // one-hot: the oldest match
    reg  [DEPTH-1:0]     hit_so_far;         // bit i: a match lies in slots 0..i
    reg                  hit;
    reg                  seen;
    integer f;
    always @* begin
        seen = 1'b0;
        for (f = 0; f < DEPTH; f = f + 1) begin
            hit           = valid_q[f] && ent_q[f*E_W + PAY_W + 2 +: 8] == q_dest;
            first_hit[f]  = hit && !seen;
            seen          = seen || hit;
            hit_so_far[f] = seen;
        end
    end
    wire any_hit = hit_so_far[DEPTH-1];

    // Slots at and beyond the removed one take their younger neighbour.
    reg  [DEPTH*E_W-1:0] col_ent;            // contents after the removal
    reg  [DEPTH-1:0]     col_valid;
    integer r;
    always @* begin
        for (r = 0; r < DEPTH; r = r + 1) begin
            if (rem_en && hit_so_far[r]) begin
                col_ent[r*E_W +: E_W] = ent_ext[(r+1)*E_W +: E_W];
                col_valid[r]          = valid_ext[r+1];
            end else begin
                col_ent[r*E_W +: E_W] = ent_q[r*E_W +: E_W];
                col_valid[r]          = valid_q[r];
            end
        end
    end

    wire rem_do = rem_en && any_hit;

    // ---- Stage 2: find the insertion point in the collapsed contents and open a gap -----------
    wire [E_W-1:0] ins_ent = {ins_dest, ins_class, ins_pay};
    // Collapsed contents moved up one slot (slot i holds collapsed slot i-1): the shift source.
    wire [DEPTH*E_W-1:0] col_up_ent   = {col_ent[0 +: (DEPTH-1)*E_W], {E_W{1'b0}}};
    wire [DEPTH-1:0]     col_up_valid = {col_valid[0 +: DEPTH-1], 1'b0};
    reg  [DEPTH*E_W-1:0] nxt_ent;
    reg  [DEPTH-1:0]     nxt_valid;
    reg                  past;               // the insertion point lies before the current slot
    reg                  stop;
    reg  [1:0]           cls;
    integer w;
    always @* begin
        past = 1'b0;
        for (w = 0; w < DEPTH; w = w + 1) begin
`ifdef FCAL_PLANTED_BUG
            cls = ent_q[w*E_W + PAY_W +: 2];     // BUG: class as stored before the removal
`else
            cls = col_ent[w*E_W + PAY_W +: 2];
`endif
            // Appending stops at the first free slot; reorder also stops at the first non-command.
            stop = !col_valid[w] || (ins_behind_cmds && cls != CLASS_CMD);
            if (ins_en && stop && !past) begin
                nxt_ent[w*E_W +: E_W] = ins_ent;
                nxt_valid[w]          = 1'b1;
            end else if (ins_en && past) begin
                nxt_ent[w*E_W +: E_W] = col_up_ent[w*E_W +: E_W];
                nxt_valid[w]          = col_up_valid[w];
            end else begin
                nxt_ent[w*E_W +: E_W] = col_ent[w*E_W +: E_W];
                nxt_valid[w]          = col_valid[w];
            end
            past = past || stop;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            valid_q <= {DEPTH{1'b0}};
            count_q <= {CNT_W{1'b0}};
        end else begin
            valid_q <= nxt_valid;
            count_q <= count_q + {{(CNT_W-1){1'b0}}, ins_en} - {{(CNT_W-1){1'b0}}, rem_do};
        end
        // Payload needs no reset: a slot is only read while its valid bit is set.
        ent_q <= nxt_ent;
    end

    // ---- Outputs ------------------------------------------------------------------------------
    assign head_valid = valid_q[0];
    assign head_dest  = ent_q[PAY_W + 2 +: 8];
    assign head_class = ent_q[PAY_W +: 2];
    assign head_pay   = ent_q[0 +: PAY_W];

    // AND-OR mux on the one-hot first_hit (the destination is known: it is q_dest).
    reg [PAY_W+1:0] sel;
    integer m;
    always @* begin
        sel = {(PAY_W+2){1'b0}};
        for (m = 0; m < DEPTH; m = m + 1)
            sel = sel | ({(PAY_W+2){first_hit[m]}} & ent_q[m*E_W +: PAY_W + 2]);
    end

    assign match_valid = any_hit;
    assign match_class = sel[PAY_W +: 2];
    assign match_pay   = sel[0 +: PAY_W];

    assign count = count_q;
    assign full  = valid_q[DEPTH-1];
    assign empty = !valid_q[0];

    // ---- Invariants (simulation only) ---------------------------------------------------------
`ifndef SYNTHESIS
    reg             prefix_ok;
    reg             cmds_ok;
    reg [CNT_W-1:0] ones;
    integer c;
    always @* begin
        prefix_ok = 1'b1;
        cmds_ok   = 1'b1;
        ones      = {CNT_W{1'b0}};
        for (c = 0; c < DEPTH; c = c + 1) begin
            if (valid_q[c]) ones = ones + 1'b1;
            if (c > 0 && valid_q[c] && !valid_q[c-1]) prefix_ok = 1'b0;
            if (c > 0 && valid_q[c] && ent_q[c*E_W + PAY_W +: 2] == CLASS_CMD
                      && ent_q[(c-1)*E_W + PAY_W +: 2] != CLASS_CMD) cmds_ok = 1'b0;
        end
    end

    // Nothing is checked until a reset has been seen: before that the state is arbitrary.
    reg armed;
    initial armed = 1'b0;
    always @(posedge clk) begin
        if (rst) begin
            armed <= 1'b1;
        end else if (armed) begin
            assert (prefix_ok)
                else $error("cmdf_collapsing_queue: valid bits not contiguous from slot 0 (%b)", valid_q);
            assert (ones == count_q)
                else $error("cmdf_collapsing_queue: count %0d but %0d valid slots", count_q, ones);
            assert (!chk_cmds_first || cmds_ok)
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
