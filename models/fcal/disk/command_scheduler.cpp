#include "fcal/disk/command_scheduler.hpp"

namespace fcal::disk {

const char* to_string(Scheduler scheduler) { return scheduler == Scheduler::Sptf ? "sptf" : "fcfs"; }

}  // namespace fcal::disk
