# Profile-guided optimization of the simulator (docs/speed.md, "Speed benchmark"): with GCC, the
# layers and fcal-sim are compiled a second time knowing which branches and calls a run takes. A
# first, instrumented build of fcal-sim (build/pgo/build: no tests, no link-time optimization) runs the
# training scenarios (cmake/pgo_train.cmake), which write their profile to build/pgo/profile; the
# libraries of the real build are compiled with it. Results are identical (it changes how the code
# is laid out and inlined, not what it computes); -DFCAL_PGO=OFF builds without.
#
#   fcal_pgo_library(TARGET)  compile TARGET with the profile (after the training has run)
option(FCAL_PGO "Optimize fcal-sim with a profile of its own runs (GCC; a first, instrumented build trains it)" ON)
# Set by the real build on the instrumented one: instrument, and write the profile here.
set(FCAL_PGO_GENERATE "" CACHE PATH "internal: the instrumented build of FCAL_PGO writes its profile here")
mark_as_advanced(FCAL_PGO_GENERATE)

set(FCAL_PGO_ACTIVE OFF)
if(FCAL_PGO_GENERATE)
  # Profiles are named after the object's path below the build folder, the same in both builds.
  add_compile_options(-fprofile-generate=${FCAL_PGO_GENERATE} -fprofile-prefix-path=${CMAKE_BINARY_DIR} -fprofile-update=single)
  add_link_options(-fprofile-generate=${FCAL_PGO_GENERATE})
elseif(FCAL_PGO AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT FCAL_SANITIZE AND NOT FCAL_FUZZ
       AND CMAKE_BUILD_TYPE MATCHES "^(RelWithDebInfo|Release)$")
  set(FCAL_PGO_ACTIVE ON)
  include(ExternalProject)
  set(pgo_dir ${CMAKE_BINARY_DIR}/pgo)
  set(pgo_sim ${pgo_dir}/build/bin/fcal-sim)
  ExternalProject_Add(fcal_pgo_instrumented
    SOURCE_DIR ${CMAKE_SOURCE_DIR}
    BINARY_DIR ${pgo_dir}/build
    CMAKE_ARGS -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
               -DFCAL_FULL_DEBUG=${FCAL_FULL_DEBUG} -DFCAL_BUILD_TESTS=OFF -DFCAL_LTO=OFF -DFCAL_PGO=OFF
               -DFCAL_PGO_GENERATE=${pgo_dir}/profile
    BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target fcal-sim
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS ${pgo_sim}
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD ON)
  # The training runs again whenever the instrumented simulator changed (a fresh profile each time).
  add_custom_command(OUTPUT ${pgo_dir}/trained
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${pgo_dir}/profile
    COMMAND ${CMAKE_COMMAND} -DFCAL_SIM=${pgo_sim} -DWORK_DIR=${pgo_dir} -P ${CMAKE_SOURCE_DIR}/cmake/pgo_train.cmake
    COMMAND ${CMAKE_COMMAND} -E touch ${pgo_dir}/trained
    DEPENDS ${pgo_sim} fcal_pgo_instrumented ${CMAKE_SOURCE_DIR}/cmake/pgo_train.cmake
    COMMENT "Training fcal-sim for profile-guided optimization"
    VERBATIM)
  add_custom_target(fcal_pgo_profile DEPENDS ${pgo_dir}/trained)
  # A function the profile does not match is compiled without it (the Verilated model's sources are
  # generated afresh in each build; an incremental build may recompile a file before retraining).
  set(FCAL_PGO_USE_OPTIONS -fprofile-use=${pgo_dir}/profile -fprofile-prefix-path=${CMAKE_BINARY_DIR}
      -fprofile-partial-training -Wno-missing-profile -Wno-coverage-mismatch)
endif()

function(fcal_pgo_library target)
  if(FCAL_PGO_ACTIVE)
    target_compile_options(${target} PRIVATE ${FCAL_PGO_USE_OPTIONS})
    add_dependencies(${target} fcal_pgo_profile)
  endif()
endfunction()
