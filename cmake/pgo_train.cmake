# The training runs of profile-guided optimization (cmake/pgo.cmake): the instrumented fcal-sim runs
# the speed benchmark's scenarios (tools/fcal_tools/bench.py), shortened, and the profile each of its
# objects wrote is copied beside the same object in the real build, which is optimized for it.
#   cmake -DFCAL_SIM=<instrumented fcal-sim> -DINSTRUMENTED_DIR=<its build> -DBUILD_DIR=<real build> -P pgo_train.cmake
set(scenarios
    "workload.measured_ios=400"
    "schedule=normal|workload.measured_ios=200"
    "disk.count=64|workload.measured_ios=200"
    "loop.nodes=126|workload.measured_ios=100"
    "workload.io_size=4K|workload.queue_depth=4|workload.measured_ios=400"
    "workload.read_fraction=0|workload.measured_ios=200"
    "volume.raid=raid5|disk.count=8|workload.read_fraction=0|workload.io_size=16K|workload.measured_ios=100"
    "disk.count=8|target.login_bb_credit=4|target.incoming_buffers=4|initiator.max_outstanding=1|workload.measured_ios=100"
    "cmdf.impl=rtl|workload.measured_ios=100")

# Counts add up over runs: start from none.
file(GLOB_RECURSE old_profiles ${INSTRUMENTED_DIR}/*.gcda)
if(old_profiles)
  file(REMOVE ${old_profiles})
endif()
foreach(scenario IN LISTS scenarios)
  string(REPLACE "|" ";" settings "${scenario}")
  set(args)
  foreach(setting IN LISTS settings)
    list(APPEND args --set ${setting})
  endforeach()
  execute_process(COMMAND ${FCAL_SIM} ${args} --no-progress
                  WORKING_DIRECTORY ${INSTRUMENTED_DIR}
                  OUTPUT_QUIET
                  TIMEOUT 600
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "pgo training: fcal-sim ${args} failed (${status})")
  endif()
endforeach()

file(GLOB_RECURSE profiles RELATIVE ${INSTRUMENTED_DIR} ${INSTRUMENTED_DIR}/*.gcda)
list(LENGTH profiles count)
if(count EQUAL 0)
  message(FATAL_ERROR "pgo training: the instrumented fcal-sim wrote no profile in ${INSTRUMENTED_DIR}")
endif()
foreach(profile IN LISTS profiles)
  configure_file(${INSTRUMENTED_DIR}/${profile} ${BUILD_DIR}/${profile} COPYONLY)
endforeach()
message(STATUS "pgo training: ${count} profiles")
