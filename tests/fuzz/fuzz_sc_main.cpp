// libFuzzer supplies main(); SystemC's library still refers to sc_main, which is never called.
extern "C" int sc_main(int, char*[]) { return 0; }
