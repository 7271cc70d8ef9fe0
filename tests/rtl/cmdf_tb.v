// Directed, self-checking Icarus bench for cmdf_top. Every expectation below was worked out by hand
// from the command-first rules (models/fcal/hba/command_first_queue.cpp), never read back from the
// design. Most checks run on a small instance (DEPTH=5, CMD_DEPTH=3: not powers of two, and small
// enough to reach "full" in a few pushes); a default-sized instance checks the full depths.
// Prints one "FAIL ..." line per mismatch and "PASS" at the end if there was none.
module cmdf_tb;
    localparam [1:0] DATA = 2'd0, CMD = 2'd1, OTHER = 2'd2;
    localparam [1:0] OFF = 2'd0, REORDER = 2'd1, CMDQ = 2'd2;
    localparam [7:0] A = 8'h10, B = 8'h20, C = 8'h30, NOBODY = 8'hEF;

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
    reg        big = 1'b0;        // route push/pop to the default-sized instance instead

    integer errors = 0;
    integer checks = 0;

    always #5 clk = ~clk;

    // Length is a function of the tag so that every check also covers the length field.
    function [11:0] len_of(input [7:0] t);
        len_of = {4'd0, t} * 12'd7 + 12'd3;
    endfunction

    // ---- Small instance --------------------------------------------------------------------------
    wire        head_valid, head_ua, head_ux, sel_valid, preempt_req, cmd_full, frame_full, empty;
    wire  [7:0] head_tag, head_dest, sel_tag;
    wire  [1:0] head_class, sel_class;
    wire [11:0] head_len, sel_len;
    wire  [1:0] cmd_count;     // $clog2(3+1)
    wire  [2:0] frame_count;   // $clog2(5+1)

    cmdf_top #(.DEPTH(5), .CMD_DEPTH(3), .TAG_W(8), .LEN_W(12)) dut (
        .clk(clk), .rst(rst), .cfg_fifo(cfg_fifo), .cfg_arbitration(cfg_arb), .cfg_preempt(cfg_pre),
        .push(push && !big), .push_tag(push_tag), .push_dest(push_dest), .push_class(push_class),
        .push_len(push_len), .pop(pop && !big), .q_dest(qd),
        .head_valid(head_valid), .head_tag(head_tag), .head_dest(head_dest), .head_class(head_class),
        .head_len(head_len), .head_unfair_arb(head_ua), .head_unfair_xfer(head_ux),
        .sel_valid(sel_valid), .sel_tag(sel_tag), .sel_class(sel_class), .sel_len(sel_len),
        .preempt_req(preempt_req), .cmd_count(cmd_count), .frame_count(frame_count),
        .cmd_full(cmd_full), .frame_full(frame_full), .empty(empty)
    );

    // ---- Default-sized instance (DEPTH=64, CMD_DEPTH=16) -----------------------------------------
    wire        b_head_valid, b_sel_valid, b_cmd_full, b_frame_full, b_empty;
    wire        b_head_ua, b_head_ux, b_preempt_req;
    wire  [7:0] b_head_tag, b_head_dest, b_sel_tag;
    wire  [1:0] b_head_class, b_sel_class;
    wire [11:0] b_head_len, b_sel_len;
    wire  [4:0] b_cmd_count;
    wire  [6:0] b_frame_count;

    cmdf_top b_dut (
        .clk(clk), .rst(rst), .cfg_fifo(cfg_fifo), .cfg_arbitration(cfg_arb), .cfg_preempt(cfg_pre),
        .push(push && big), .push_tag(push_tag), .push_dest(push_dest), .push_class(push_class),
        .push_len(push_len), .pop(pop && big), .q_dest(qd),
        .head_valid(b_head_valid), .head_tag(b_head_tag), .head_dest(b_head_dest),
        .head_class(b_head_class), .head_len(b_head_len), .head_unfair_arb(b_head_ua),
        .head_unfair_xfer(b_head_ux),
        .sel_valid(b_sel_valid), .sel_tag(b_sel_tag), .sel_class(b_sel_class), .sel_len(b_sel_len),
        .preempt_req(b_preempt_req), .cmd_count(b_cmd_count), .frame_count(b_frame_count),
        .cmd_full(b_cmd_full), .frame_full(b_frame_full), .empty(b_empty)
    );

    // ---- Stimulus --------------------------------------------------------------------------------
    task fail(input [8*48-1:0] what);
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

    // ---- Checks (small instance) -----------------------------------------------------------------
    task expect_head(input [8*48-1:0] what, input v, input [7:0] t, input [7:0] d, input [1:0] c,
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

    task expect_sel(input [8*48-1:0] what, input [7:0] q, input v, input [7:0] t, input [1:0] c);
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

    task expect_preempt(input [8*48-1:0] what, input [7:0] q, input v);
        begin
            checks = checks + 1;
            qd = q; #1;
            if (preempt_req !== v) fail(what);
        end
    endtask

    task expect_counts(input [8*48-1:0] what, input [1:0] cc, input [2:0] fc, input cf, input ff,
                       input e);
        begin
            checks = checks + 1;
            #0;
            if (cmd_count !== cc || frame_count !== fc || cmd_full !== cf || frame_full !== ff
                || empty !== e) begin
                fail(what);
                $display("     cmd_count %0d frame_count %0d cmd_full %b frame_full %b empty %b",
                         cmd_count, frame_count, cmd_full, frame_full, empty);
            end
        end
    endtask

    // Pops the head n times, expecting the tags packed in order (first tag in the top byte).
    // Popping with q_dest = head_dest takes the head itself: it is the oldest entry for its dest.
    task drain(input [8*48-1:0] what, input [8*8-1:0] tags, input integer n);
        integer k;
        reg [7:0] want;
        begin
            for (k = 0; k < n; k = k + 1) begin
                want = tags[(n-1-k)*8 +: 8];
                checks = checks + 1;
                qd = head_dest; #1;
                if (!head_valid || head_tag !== want || !sel_valid || sel_tag !== want) begin
                    fail(what);
                    $display("     position %0d: want tag %0d, head %b/%0d, sel %b/%0d", k, want,
                             head_valid, head_tag, sel_valid, sel_tag);
                end
                take(head_dest);
            end
            expect_counts(what, 2'd0, 3'd0, 1'b0, 1'b0, 1'b1);
        end
    endtask

    integer n;
    integer ncmd;
    reg [7:0] want;

    initial begin
        // ==== Off: one FIFO in arrival order; rights are still stamped on commands ===============
        reset_with(OFF, 1'b1, 1'b1);
        expect_counts("off: empty after reset", 2'd0, 3'd0, 1'b0, 1'b0, 1'b1);
        expect_head("off: no head when empty", 1'b0, 0, 0, DATA, 0, 0);
        expect_sel("off: no select when empty", A, 1'b0, 0, DATA);
        expect_preempt("off: no preempt when empty", A, 1'b0);
        put(1, A, DATA);
        put(2, B, CMD);
        put(3, A, DATA);
        put(4, A, CMD);
        expect_counts("off: four frames", 2'd0, 3'd4, 1'b0, 1'b0, 1'b0);
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
        expect_counts("off: push+pop keeps count", 2'd0, 3'd3, 1'b0, 1'b0, 1'b0);
        expect_sel("off: A is now the command 4", A, 1'b1, 4, CMD);
        expect_sel("off: other class kept", C, 1'b1, 5, OTHER);
        // Fill up: 2 4 5 6 7
        put(6, B, DATA);
        expect_counts("off: not yet full", 2'd0, 3'd4, 1'b0, 1'b0, 1'b0);
        put(7, A, DATA);
        expect_counts("off: frame queue full at 5", 2'd0, 3'd5, 1'b0, 1'b1, 1'b0);
        take(B);                                       // removes 2: 4 5 6 7
        expect_counts("off: pop relieves full", 2'd0, 3'd4, 1'b0, 1'b0, 1'b0);
        drain("off: order 4 5 6 7", {8'd4, 8'd5, 8'd6, 8'd7}, 4);

        // ==== Select is the oldest of several matches ============================================
        reset_with(OFF, 1'b0, 1'b0);
        put(1, B, DATA);
        put(2, A, DATA);
        put(3, A, CMD);
        put(4, A, DATA);
        put(5, A, DATA);
        expect_sel("oldest of four A matches", A, 1'b1, 2, DATA);
        take(A);                                       // 1 3 4 5
        expect_sel("oldest of three A matches", A, 1'b1, 3, CMD);
        take(A);                                       // 1 4 5
        expect_sel("oldest of two A matches", A, 1'b1, 4, DATA);
        cycle(1'b1, 6, A, DATA, 1'b1, A);              // pop 4, append 6: 1 5 6
        expect_sel("push+pop same dest: next oldest", A, 1'b1, 5, DATA);
        expect_head("select: head unchanged", 1'b1, 1, B, DATA, 0, 0);
        drain("select: order 1 5 6", {8'd1, 8'd5, 8'd6}, 3);

        // ==== Reorder: a command goes behind the commands, ahead of the data =====================
        reset_with(REORDER, 1'b1, 1'b0);
        put(1, A, DATA);
        put(2, B, DATA);
        put(3, A, CMD);                                // 3 1 2
        expect_head("reorder: command jumps the data", 1'b1, 3, A, CMD, 1, 0);
        expect_preempt("reorder: no preempt when cfg off", B, 1'b0);
        put(4, B, CMD);                                // 3 4 1 2
        put(5, A, DATA);                               // 3 4 1 2 5
        expect_counts("reorder: full", 2'd0, 3'd5, 1'b0, 1'b1, 1'b0);
        expect_sel("reorder: select B is command 4", B, 1'b1, 4, CMD);
        take(B);                                       // 3 1 2 5
        expect_sel("reorder: then data 2 for B", B, 1'b1, 2, DATA);
        // Pop command 3 (slot 0) and push a command in the same cycle: the insertion point is the
        // first data frame of what remains, slot 0: 6 1 2 5.
        cycle(1'b1, 6, B, CMD, 1'b1, A);
        expect_head("reorder: push cmd + pop cmd", 1'b1, 6, B, CMD, 1, 0);
        expect_sel("reorder: A now data 1", A, 1'b1, 1, DATA);
        take(A);                                       // 6 2 5
        put(7, C, CMD);                                // 6 7 2 5
        // Pop command 6 (slot 0) with two commands queued and push command 8: 7 8 2 5
        // (the planted bug puts 8 behind data 2).
        cycle(1'b1, 8, A, CMD, 1'b1, B);
        expect_counts("reorder: push+pop keeps count", 2'd0, 3'd4, 1'b0, 1'b0, 1'b0);
        expect_sel("reorder: A is the new command 8", A, 1'b1, 8, CMD);
        expect_sel("reorder: B is data 2", B, 1'b1, 2, DATA);
        // Pop a data frame (2, the first non-command) and push a command: 7 8 9 5.
        cycle(1'b1, 9, C, CMD, 1'b1, B);
        expect_sel("reorder: B is gone", B, 1'b0, 0, DATA);
        // Pop command 8 from the middle of the commands and push command 10: 7 9 10 5.
        cycle(1'b1, 10, B, CMD, 1'b1, A);
        expect_sel("reorder: C is command 7", C, 1'b1, 7, CMD);
        expect_sel("reorder: B is command 10", B, 1'b1, 10, CMD);
        // Pop command 7 and push data 11: 9 10 5 11.
        cycle(1'b1, 11, A, DATA, 1'b1, C);
        drain("reorder: order 9 10 5 11", {8'd9, 8'd10, 8'd5, 8'd11}, 4);
        // Only commands queued: a command goes to the back.
        put(12, A, CMD);
        put(13, B, CMD);
        put(14, C, OTHER);                             // 12 13 14
        put(15, C, CMD);                               // 12 13 15 14 ("other" is not a command)
        drain("reorder: order 12 13 15 14", {8'd12, 8'd13, 8'd15, 8'd14}, 4);

        // ==== Command queue: commands in their own queue, always served first ====================
        reset_with(CMDQ, 1'b0, 1'b1);
        put(1, A, DATA);
        put(2, B, CMD);
        put(3, B, DATA);
        put(4, A, CMD);
        put(5, C, OTHER);                              // cmd: 2 4   frame: 1 3 5
        expect_counts("cmdq: split counts", 2'd2, 3'd3, 1'b0, 1'b0, 1'b0);
        expect_head("cmdq: head from command queue", 1'b1, 2, B, CMD, 0, 1);
        expect_preempt("cmdq: head for B, A open", A, 1'b1);
        expect_preempt("cmdq: head for the open peer", B, 1'b0);
        expect_sel("cmdq: select A prefers command 4", A, 1'b1, 4, CMD);
        expect_sel("cmdq: select B is command 2", B, 1'b1, 2, CMD);
        expect_sel("cmdq: select C from frame queue", C, 1'b1, 5, OTHER);
        take(A);                                       // cmd: 2   frame: 1 3 5
        expect_counts("cmdq: command popped", 2'd1, 3'd3, 1'b0, 1'b0, 1'b0);
        expect_sel("cmdq: A falls back to data 1", A, 1'b1, 1, DATA);
        // Pop command 2 and push command 6 in one cycle: cmd: 6
        cycle(1'b1, 6, A, CMD, 1'b1, B);
        expect_head("cmdq: push+pop command", 1'b1, 6, A, CMD, 0, 1);
        expect_preempt("cmdq: command 6 for A, A open", A, 1'b0);
        expect_preempt("cmdq: command 6 for A, B open", B, 1'b1);
        put(7, C, CMD);
        put(8, B, CMD);                                // cmd: 6 7 8
        expect_counts("cmdq: command queue full", 2'd3, 3'd3, 1'b1, 1'b0, 1'b0);
        put(9, B, DATA);                               // frame: 1 3 5 9
        expect_counts("cmdq: data still accepted", 2'd3, 3'd4, 1'b1, 1'b0, 1'b0);
        expect_sel("cmdq: A is command 6", A, 1'b1, 6, CMD);
        cycle(1'b1, 10, C, DATA, 1'b1, C);             // pop 7 (command for C), frame gets 10
        expect_counts("cmdq: full relieved", 2'd2, 3'd5, 1'b0, 1'b1, 1'b0);
        expect_sel("cmdq: C now other 5", C, 1'b1, 5, OTHER);
        drain("cmdq: order 6 8 1 3 5 9 10", {8'd6, 8'd8, 8'd1, 8'd3, 8'd5, 8'd9, 8'd10}, 7);

        // ==== Reset clears a non-empty FIFO ======================================================
        put(1, A, CMD);
        put(2, A, DATA);
        reset_with(CMDQ, 1'b0, 1'b1);
        expect_counts("reset clears both queues", 2'd0, 3'd0, 1'b0, 1'b0, 1'b1);
        expect_head("reset: no head", 1'b0, 0, 0, DATA, 0, 0);

        // ==== Default size: 64 frames in reorder mode, 16 commands in the command queue ==========
        big = 1'b1;
        reset_with(REORDER, 1'b1, 1'b1);
        ncmd = 0;
        for (n = 0; n < 64; n = n + 1) begin
            put(n[7:0], n[7:0] % 8'd5, (n % 3 == 0) ? CMD : DATA);
            if (n % 3 == 0) ncmd = ncmd + 1;
        end
        checks = checks + 1;
        if (b_frame_count !== 7'd64 || !b_frame_full || b_cmd_count !== 5'd0 || b_cmd_full || b_empty)
            fail("big reorder: 64 frames, full");
        // Expected order: the commands 0 3 6 .. 63 in arrival order, then the data frames.
        for (n = 0; n < 64; n = n + 1) begin
            want = (n < ncmd) ? 3 * n : (((n - ncmd) / 2) * 3 + 1 + (n - ncmd) % 2);
            checks = checks + 1;
            qd = b_head_dest; #1;
            if (b_head_tag !== want || b_head_class !== ((n < ncmd) ? CMD : DATA)
                || b_head_len !== len_of(want) || b_head_ua !== (n < ncmd)
                || b_head_ux !== (n < ncmd) || b_sel_tag !== want) begin
                fail("big reorder: drain order");
                $display("     position %0d: want %0d, head %0d", n, want, b_head_tag);
            end
            take(b_head_dest);
        end
        checks = checks + 1;
        if (!b_empty || b_frame_count !== 7'd0) fail("big reorder: empty after drain");

        reset_with(CMDQ, 1'b0, 1'b0);
        for (n = 0; n < 16; n = n + 1) put(n[7:0], 8'h40 + n[7:0], CMD);
        checks = checks + 1;
        if (b_cmd_count !== 5'd16 || !b_cmd_full || b_frame_count !== 7'd0 || b_frame_full)
            fail("big cmdq: 16 commands, full");
        qd = 8'h47; #1;
        checks = checks + 1;
        if (!b_sel_valid || b_sel_tag !== 8'd7 || b_head_tag !== 8'd0) fail("big cmdq: select/head");
        take(8'h47);
        checks = checks + 1;
        if (b_cmd_count !== 5'd15 || b_cmd_full) fail("big cmdq: pop relieves full");
        big = 1'b0;

        if (errors == 0)
            $display("PASS (%0d checks)", checks);
        else
            $display("FAIL: %0d of %0d checks failed", errors, checks);
        $finish;
    end

    // A hung bench must not pass silently.
    initial begin
        #200000;
        $display("FAIL timeout");
        $finish;
    end
endmodule
