// Directed, self-checking Icarus bench for cmdf_top, parametrized by the block's depths so that
// the same checks run at several sizes (tests/rtl/CMakeLists.txt runs DEPTH/CMD_DEPTH 4/2, 5/3 and
// 64/16): at 4/2 "full", a shift through every slot and a command overtaking a full queue come
// within a few cycles. Every expectation below was worked out by hand from the command-first
// rules (models/fcal/hba/command_first_queue.cpp), never read back from the design; where a check
// depends on the depth, the queue is topped up with "filler" frames for a destination of their
// own (FD) to a level named relative to DEPTH or CMD_DEPTH, and the expected order lists them.
// Prints one "FAIL ..." line per mismatch and "PASS" at the end if there was none.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module cmdf_tb #(
    // Frame queue entries of the block under test; the scenarios need at least 4.
    parameter DEPTH     = 64,
    // Command queue entries; the scenarios need at least 2.
    parameter CMD_DEPTH = 16
);
    localparam [1:0] DATA = 2'd0, CMD = 2'd1, OTHER = 2'd2;     // push_class
    localparam [1:0] OFF = 2'd0, REORDER = 2'd1, CMDQ = 2'd2;   // cfg_fifo
    localparam [7:0] A = 8'h10, B = 8'h20, C = 8'h30, NOBODY = 8'hEF;
    localparam [7:0] FD = 8'hD0;            // destination of the filler frames
    localparam [7:0] FILL_TAG = 8'd100;     // filler tags: 100, 101, ... (frame queue)
    localparam [7:0] CMD_FILL_TAG = 8'd200; // 200, 201, ... (command queue)
    localparam FC_W = $clog2(DEPTH + 1);    // width of frame_count
    localparam CC_W = $clog2(CMD_DEPTH + 1);

    reg        clk = 1'b0;
    reg        rst = 1'b1;
    reg  [1:0] cfg_fifo = OFF;
    reg        cfg_arb = 1'b0;
    reg        cfg_pre = 1'b0;
    reg        push = 1'b0;
    reg  [7:0] push_tag = 8'd0;
    reg  [7:0] push_dest = 8'd0;
    reg  [1:0] push_class = DATA;
    reg [11:0] push_len = 12'd0;
    reg        pop = 1'b0;
    reg  [7:0] qd = 8'd0;

    integer errors = 0;
    integer checks = 0;

    always #5 clk = ~clk;

    // Length is a function of the tag so that every check also covers the length field.
    function [11:0] len_of(input [7:0] t);
        len_of = {4'd0, t} * 12'd7 + 12'd3;
    endfunction

    wire            head_valid, head_ua, head_ux, sel_valid, preempt_req, cmd_full, frame_full, empty;
    wire      [7:0] head_tag, head_dest, sel_tag;
    wire      [1:0] head_class, sel_class;
    wire     [11:0] head_len, sel_len;
    wire [CC_W-1:0] cmd_count;
    wire [FC_W-1:0] frame_count;

    cmdf_top #(.DEPTH(DEPTH), .CMD_DEPTH(CMD_DEPTH), .TAG_W(8), .LEN_W(12)) dut (
        .clk(clk), .rst(rst), .cfg_fifo(cfg_fifo), .cfg_arbitration(cfg_arb), .cfg_preempt(cfg_pre),
        .push(push), .push_tag(push_tag), .push_dest(push_dest), .push_class(push_class),
        .push_len(push_len), .pop(pop), .q_dest(qd),
        .head_valid(head_valid), .head_tag(head_tag), .head_dest(head_dest), .head_class(head_class),
        .head_len(head_len), .head_unfair_arb(head_ua), .head_unfair_xfer(head_ux),
        .sel_valid(sel_valid), .sel_tag(sel_tag), .sel_class(sel_class), .sel_len(sel_len),
        .preempt_req(preempt_req), .cmd_count(cmd_count), .frame_count(frame_count),
        .cmd_full(cmd_full), .frame_full(frame_full), .empty(empty)
    );

    // ---- Stimulus --------------------------------------------------------------------------------
    task fail(input [8*56-1:0] what);
        begin
            errors = errors + 1;
            $display("FAIL %0s at %0t", what, $time);
        end
    endtask

    task reset_with(input [1:0] fifo, input arb, input pre);
        begin
            cfg_fifo = fifo; cfg_arb = arb; cfg_pre = pre;
            push = 1'b0; pop = 1'b0; rst = 1'b1;
            @(posedge clk); #1;
            rst = 1'b0;
        end
    endtask

    // One clock: optional push and optional pop (of the frame selected for q), then inputs idle.
    task cycle(input do_push, input [7:0] t, input [7:0] d, input [1:0] c,
               input do_pop, input [7:0] q);
        begin
            push = do_push; push_tag = t; push_dest = d; push_class = c; push_len = len_of(t);
            pop = do_pop; qd = q;
            @(posedge clk); #1;
            push = 1'b0; pop = 1'b0;
            push_tag = 8'hxx; push_dest = 8'hxx; push_class = 2'bxx; push_len = 12'hxxx;
        end
    endtask

    task put(input [7:0] t, input [7:0] d, input [1:0] c);
        cycle(1'b1, t, d, c, 1'b0, 8'd0);
    endtask

    task take(input [7:0] q);
        cycle(1'b0, 8'd0, 8'd0, DATA, 1'b1, q);
    endtask

    // n filler frames of class c for FD, tags first, first+1, ...
    task fill(input integer n, input [7:0] first, input [1:0] c);
        integer k;
        for (k = 0; k < n; k = k + 1) put(first + k[7:0], FD, c);
    endtask

    // ---- Expected drain order --------------------------------------------------------------------
    reg [7:0] want_q [0:255];
    integer   nwant = 0;

    task want(input [7:0] t);
        begin
            want_q[nwant] = t;
            nwant = nwant + 1;
        end
    endtask

    task want_fill(input integer n, input [7:0] first);
        integer k;
        for (k = 0; k < n; k = k + 1) want(first + k[7:0]);
    endtask

    // ---- Checks ----------------------------------------------------------------------------------
    task expect_head(input [8*56-1:0] what, input v, input [7:0] t, input [7:0] d, input [1:0] c,
                     input ua, input ux);
        begin
            checks = checks + 1;
            #0;
            if (head_valid !== v)
                fail(what);
            else if (v && (head_tag !== t || head_dest !== d || head_class !== c
                           || head_len !== len_of(t) || head_ua !== ua || head_ux !== ux)) begin
                fail(what);
                $display("     head tag %0d dest %h class %0d len %0d ua %b ux %b", head_tag, head_dest,
                         head_class, head_len, head_ua, head_ux);
            end
        end
    endtask

    task expect_sel(input [8*56-1:0] what, input [7:0] q, input v, input [7:0] t, input [1:0] c);
        begin
            checks = checks + 1;
            qd = q; #1;
            if (sel_valid !== v)
                fail(what);
            else if (v && (sel_tag !== t || sel_class !== c || sel_len !== len_of(t))) begin
                fail(what);
                $display("     sel tag %0d class %0d len %0d", sel_tag, sel_class, sel_len);
            end
        end
    endtask

    task expect_preempt(input [8*56-1:0] what, input [7:0] q, input v);
        begin
            checks = checks + 1;
            qd = q; #1;
            if (preempt_req !== v) fail(what);
        end
    endtask

    task expect_counts(input [8*56-1:0] what, input integer cc, input integer fc, input cf, input ff,
                       input e);
        begin
            checks = checks + 1;
            #0;
            if (cmd_count !== cc || frame_count !== fc || cmd_full !== cf || frame_full !== ff
                || empty !== e) begin
                fail(what);
                $display("     cmd_count %0d frame_count %0d cmd_full %b frame_full %b empty %b", cmd_count,
                         frame_count, cmd_full, frame_full, empty);
                $display("     expected  %0d             %0d          %b            %b       %b", cc, fc, cf,
                         ff, e);
            end
        end
    endtask

    // Pops the head until the expected list (want) is used up, checking each tag in turn, then
    // expects both queues empty; clears the list. Popping with q_dest = head_dest takes the head
    // itself: it is the oldest entry for its destination.
    task drain(input [8*56-1:0] what);
        integer k;
        begin
            for (k = 0; k < nwant; k = k + 1) begin
                checks = checks + 1;
                qd = head_dest; #1;
                if (!head_valid || head_tag !== want_q[k] || !sel_valid || sel_tag !== want_q[k]) begin
                    fail(what);
                    $display("     position %0d: want tag %0d, head %b/%0d, sel %b/%0d", k, want_q[k],
                             head_valid, head_tag, sel_valid, sel_tag);
                end
                take(head_dest);
            end
            nwant = 0;
            expect_counts(what, 0, 0, 1'b0, 1'b0, 1'b1);
        end
    endtask

    integer n;
    integer ncmd;
    reg [7:0] tag;

    initial begin
        if (DEPTH < 4 || CMD_DEPTH < 2 || DEPTH > 100 || CMD_DEPTH > 56) begin
            $display("FAIL cmdf_tb needs 4 <= DEPTH <= 100 and 2 <= CMD_DEPTH <= 56 (tags of the fillers)");
            $finish;
        end

        // ==== Off: one FIFO in arrival order; rights are still stamped on commands ===============
        reset_with(OFF, 1'b1, 1'b1);
        expect_counts("off: empty after reset", 0, 0, 1'b0, 1'b0, 1'b1);
        expect_head("off: no head when empty", 1'b0, 0, 0, DATA, 0, 0);
        expect_sel("off: no select when empty", A, 1'b0, 0, DATA);
        expect_preempt("off: no preempt when empty", A, 1'b0);
        put(1, A, DATA);
        put(2, B, CMD);
        put(3, A, DATA);
        put(4, A, CMD);
        expect_counts("off: four frames", 0, 4, 1'b0, DEPTH == 4, 1'b0);
        expect_head("off: head is oldest", 1'b1, 1, A, DATA, 0, 0);
        expect_sel("off: select A is oldest A", A, 1'b1, 1, DATA);
        expect_sel("off: select B is the command", B, 1'b1, 2, CMD);
        expect_sel("off: select nobody", NOBODY, 1'b0, 0, DATA);
        expect_preempt("off: data head never preempts", B, 1'b0);
        take(A);                                       // removes 1: 2 3 4
        expect_head("off: command head, both rights", 1'b1, 2, B, CMD, 1, 1);
        expect_preempt("off: command for B while A open", A, 1'b1);
        expect_preempt("off: command for the open peer", B, 1'b0);
        expect_sel("off: select A skips the B command", A, 1'b1, 3, DATA);
        // Push and pop in one cycle: pop 3 (oldest A), append 5: 2 4 5
        cycle(1'b1, 5, C, OTHER, 1'b1, A);
        expect_counts("off: push+pop keeps count", 0, 3, 1'b0, 1'b0, 1'b0);
        expect_sel("off: A is now the command 4", A, 1'b1, 4, CMD);
        expect_sel("off: other class kept", C, 1'b1, 5, OTHER);
        // Fill up: 2 4 5 F.. 7, the last push taking the last slot.
        fill(DEPTH - 4, FILL_TAG, DATA);
        expect_counts("off: one short of full", 0, DEPTH - 1, 1'b0, 1'b0, 1'b0);
        put(7, A, DATA);
        expect_counts("off: frame queue full", 0, DEPTH, 1'b0, 1'b1, 1'b0);
        take(B);                                       // removes 2 (slot 0): 4 5 F.. 7
        expect_counts("off: pop relieves full", 0, DEPTH - 1, 1'b0, 1'b0, 1'b0);
        want(4); want(5); want_fill(DEPTH - 4, FILL_TAG); want(7);
        drain("off: order 4 5 F.. 7");

        // ==== Select is the oldest of several matches ============================================
        reset_with(OFF, 1'b0, 1'b0);
        put(1, B, DATA);
        put(2, A, DATA);
        put(3, A, CMD);
        put(4, A, DATA);
        expect_sel("oldest of three A matches", A, 1'b1, 2, DATA);
        take(A);                                       // 1 3 4
        expect_sel("oldest of two A matches", A, 1'b1, 3, CMD);
        cycle(1'b1, 5, A, DATA, 1'b1, A);              // pop 3, append 5: 1 4 5
        expect_sel("push+pop same dest: the older one", A, 1'b1, 4, DATA);
        expect_head("select: head unchanged", 1'b1, 1, B, DATA, 0, 0);
        want(1); want(4); want(5);
        drain("select: order 1 4 5");

        // ==== Reorder: a command goes behind the commands, ahead of the data =====================
        reset_with(REORDER, 1'b1, 1'b0);
        put(1, A, DATA);
        put(2, B, DATA);
        put(3, A, CMD);                                // 3 1 2
        expect_head("reorder: command jumps the data", 1'b1, 3, A, CMD, 1, 0);
        expect_preempt("reorder: no preempt when cfg off", B, 1'b0);
        put(4, B, CMD);                                // 3 4 1 2
        fill(DEPTH - 4, FILL_TAG, DATA);               // 3 4 1 2 F..
        expect_counts("reorder: full", 0, DEPTH, 1'b0, 1'b1, 1'b0);
        expect_sel("reorder: select B is command 4", B, 1'b1, 4, CMD);
        take(B);                                       // 3 1 2 F..
        expect_sel("reorder: then data 2 for B", B, 1'b1, 2, DATA);
        // Pop command 3 (slot 0) and push a command in the same cycle: the insertion point is the
        // first data frame of what remains, slot 0: 6 1 2 F.. (the planted bug puts 6 behind 1).
        cycle(1'b1, 6, B, CMD, 1'b1, A);
        expect_head("reorder: push cmd + pop cmd", 1'b1, 6, B, CMD, 1, 0);
        expect_sel("reorder: A now data 1", A, 1'b1, 1, DATA);
        take(A);                                       // 6 2 F..
        put(7, C, CMD);                                // 6 7 2 F..
        // Pop command 6 (slot 0) with two commands queued and push command 8: 7 8 2 F..
        // (the planted bug puts 8 behind data 2).
        cycle(1'b1, 8, A, CMD, 1'b1, B);
        expect_counts("reorder: push+pop keeps count", 0, DEPTH - 1, 1'b0, 1'b0, 1'b0);
        expect_sel("reorder: A is the new command 8", A, 1'b1, 8, CMD);
        expect_sel("reorder: B is data 2", B, 1'b1, 2, DATA);
        // Pop a data frame (2, the first non-command) and push a command: 7 8 9 F..
        cycle(1'b1, 9, C, CMD, 1'b1, B);
        expect_sel("reorder: B is gone", B, 1'b0, 0, DATA);
        // Pop command 8 from the middle of the commands and push command 10: 7 9 10 F..
        cycle(1'b1, 10, B, CMD, 1'b1, A);
        expect_sel("reorder: C is command 7", C, 1'b1, 7, CMD);
        expect_sel("reorder: B is command 10", B, 1'b1, 10, CMD);
        // Pop command 7 and push data 11: 9 10 F.. 11
        cycle(1'b1, 11, A, DATA, 1'b1, C);
        want(9); want(10); want_fill(DEPTH - 4, FILL_TAG); want(11);
        drain("reorder: order 9 10 F.. 11");
        // Only commands queued: a command goes to the back.
        put(12, A, CMD);
        put(13, B, CMD);
        put(14, C, OTHER);                             // 12 13 14
        put(15, C, CMD);                               // 12 13 15 14 ("other" is not a command)
        want(12); want(13); want(15); want(14);
        drain("reorder: order 12 13 15 14");
        // A command into the last free slot of a queue of data goes to slot 0: every entry moves up
        // one slot, the youngest into the last one.
        fill(DEPTH - 1, FILL_TAG, DATA);
        put(16, A, CMD);                               // 16 F..
        expect_counts("reorder: command fills the queue", 0, DEPTH, 1'b0, 1'b1, 1'b0);
        expect_head("reorder: and is its head", 1'b1, 16, A, CMD, 1, 0);
        want(16); want_fill(DEPTH - 1, FILL_TAG);
        drain("reorder: order 16 F..");

        // ==== Command queue: commands in their own queue, always served first ====================
        reset_with(CMDQ, 1'b0, 1'b1);
        put(1, A, DATA);
        put(2, B, CMD);
        put(4, A, CMD);
        put(5, C, OTHER);                              // cmd: 2 4   frame: 1 5
        expect_counts("cmdq: split counts", 2, 2, CMD_DEPTH == 2, 1'b0, 1'b0);
        expect_head("cmdq: head from command queue", 1'b1, 2, B, CMD, 0, 1);
        expect_preempt("cmdq: head for B, A open", A, 1'b1);
        expect_preempt("cmdq: head for the open peer", B, 1'b0);
        expect_sel("cmdq: select A prefers command 4", A, 1'b1, 4, CMD);
        expect_sel("cmdq: select B is command 2", B, 1'b1, 2, CMD);
        expect_sel("cmdq: select C from frame queue", C, 1'b1, 5, OTHER);
        take(A);                                       // cmd: 2   frame: 1 5
        expect_counts("cmdq: command popped", 1, 2, 1'b0, 1'b0, 1'b0);
        expect_sel("cmdq: A falls back to data 1", A, 1'b1, 1, DATA);
        // Pop command 2 and push command 6 in one cycle: cmd: 6
        cycle(1'b1, 6, A, CMD, 1'b1, B);
        expect_head("cmdq: push+pop command", 1'b1, 6, A, CMD, 0, 1);
        expect_preempt("cmdq: command 6 for A, A open", A, 1'b0);
        expect_preempt("cmdq: command 6 for A, B open", B, 1'b1);
        put(7, C, CMD);                                // cmd: 6 7
        fill(CMD_DEPTH - 2, CMD_FILL_TAG, CMD);        // cmd: 6 7 CF..
        expect_counts("cmdq: command queue full", CMD_DEPTH, 2, 1'b1, 1'b0, 1'b0);
        put(9, B, DATA);                               // frame: 1 5 9
        expect_counts("cmdq: data still accepted", CMD_DEPTH, 3, 1'b1, 1'b0, 1'b0);
        expect_sel("cmdq: A is command 6", A, 1'b1, 6, CMD);
        fill(DEPTH - 4, FILL_TAG, DATA);               // frame: 1 5 9 F..
        expect_counts("cmdq: frame queue one short of full", CMD_DEPTH, DEPTH - 1, 1'b1, 1'b0, 1'b0);
        cycle(1'b1, 10, C, DATA, 1'b1, C);             // pop 7 (command for C), frame gets 10
        expect_counts("cmdq: full relieved, frames full", CMD_DEPTH - 1, DEPTH, 1'b0, 1'b1, 1'b0);
        expect_sel("cmdq: C now other 5", C, 1'b1, 5, OTHER);
        want(6); want_fill(CMD_DEPTH - 2, CMD_FILL_TAG);
        want(1); want(5); want(9); want_fill(DEPTH - 4, FILL_TAG); want(10);
        drain("cmdq: order 6 CF.. 1 5 9 F.. 10");

        // ==== Reset clears a non-empty FIFO ======================================================
        put(1, A, CMD);
        put(2, A, DATA);
        reset_with(CMDQ, 1'b0, 1'b1);
        expect_counts("reset clears both queues", 0, 0, 1'b0, 1'b0, 1'b1);
        expect_head("reset: no head", 1'b0, 0, 0, DATA, 0, 0);

        // ==== Every slot: DEPTH frames in reorder mode, then CMD_DEPTH commands ==================
        reset_with(REORDER, 1'b1, 1'b1);
        ncmd = 0;
        for (n = 0; n < DEPTH; n = n + 1) begin
            put(n[7:0], n[7:0] % 8'd5, (n % 3 == 0) ? CMD : DATA);
            if (n % 3 == 0) ncmd = ncmd + 1;
        end
        expect_counts("fill: DEPTH frames, full", 0, DEPTH, 1'b0, 1'b1, 1'b0);
        // Expected order: the commands 0 3 6 .. in arrival order, then the data frames.
        for (n = 0; n < DEPTH; n = n + 1) begin
            tag = (n < ncmd) ? 3 * n : (((n - ncmd) / 2) * 3 + 1 + (n - ncmd) % 2);
            checks = checks + 1;
            qd = head_dest; #1;
            if (head_tag !== tag || head_class !== ((n < ncmd) ? CMD : DATA)
                || head_len !== len_of(tag) || head_ua !== (n < ncmd)
                || head_ux !== (n < ncmd) || sel_tag !== tag) begin
                fail("fill: drain order");
                $display("     position %0d: want %0d, head %0d", n, tag, head_tag);
            end
            take(head_dest);
        end
        expect_counts("fill: empty after drain", 0, 0, 1'b0, 1'b0, 1'b1);

        reset_with(CMDQ, 1'b0, 1'b0);
        for (n = 0; n < CMD_DEPTH; n = n + 1) put(n[7:0], 8'h40 + n[7:0], CMD);
        expect_counts("fill: CMD_DEPTH commands, full", CMD_DEPTH, 0, 1'b1, 1'b0, 1'b0);
        tag = CMD_DEPTH / 2;
        expect_sel("fill: select the middle command", 8'h40 + tag, 1'b1, tag, CMD);
        expect_head("fill: head is the first", 1'b1, 0, 8'h40, CMD, 0, 0);
        take(8'h40 + tag);
        expect_counts("fill: pop behind the head relieves full", CMD_DEPTH - 1, 0, 1'b0, 1'b0, 1'b0);

        if (errors == 0)
            $display("PASS (%0d checks, DEPTH=%0d CMD_DEPTH=%0d)", checks, DEPTH, CMD_DEPTH);
        else
            $display("FAIL: %0d of %0d checks failed (DEPTH=%0d CMD_DEPTH=%0d)", errors, checks, DEPTH,
                     CMD_DEPTH);
        $finish;
    end

    // A hung bench must not pass silently.
    initial begin
        #1000000;
        $display("FAIL timeout");
        $finish;
    end
endmodule

`resetall
`default_nettype wire
