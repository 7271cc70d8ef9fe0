# Profile-guided optimization of the simulator (docs/speed.md, "Speed benchmark"): with
# GCC, the layers and fcal-sim are compiled knowing which branches and calls a run takes. A first,
# instrumented build of fcal-sim (build/pgo/build: no tests, no link-time optimization) runs the
# training scenarios (cmake/pgo_train.cmake), which leave a profile beside each of its objects; the
# training copies each to the same place in this build, beside the object it was made for, where
# `-fprofile-use` finds it. Results are identical (it changes how the code is laid out and inlined,
# not what it computes); -DFCAL_PGO=OFF builds without. Only for fcal built on its own: a project that
# embeds it with add_subdirectory() gets the plain build.
#
#   fcal_pgo_library(TARGET)  compile TARGET with the profile (after the training has run)
option(FCAL_PGO "Optimize fcal-sim with a profile of its own runs (GCC; a first, instrumented build trains it)" ON)
# Set by the real build on the instrumented one.
option(FCAL_PGO_GENERATE "internal: the instrumented build of FCAL_PGO" OFF)
mark_as_advanced(FCAL_PGO_GENERATE)

set(FCAL_PGO_ACTIVE OFF)
string(TOUPPER "${CMAKE_BUILD_TYPE}" fcal_build_type)
if(FCAL_PGO_GENERATE)
  add_compile_options(-fprofile-generate -fprofile-update=single)
  add_link_options(-fprofile-generate)
elseif(FCAL_PGO AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT FCAL_SANITIZE AND NOT FCAL_FUZZ
       AND fcal_build_type MATCHES "^(RELWITHDEBINFO|RELEASE)$" AND PROJECT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
  set(FCAL_PGO_ACTIVE ON)
  include(ExternalProject)
  set(pgo_dir ${PROJECT_BINARY_DIR}/pgo)
  set(pgo_sim ${pgo_dir}/build/bin/fcal-sim)
  # The instrumented build is configured as this one, so that its objects are compiled alike.
  ExternalProject_Add(fcal_pgo_instrumented
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${pgo_dir}/build
    CMAKE_CACHE_ARGS
      -DCMAKE_BUILD_TYPE:STRING=${CMAKE_BUILD_TYPE}
      -DCMAKE_CXX_COMPILER:FILEPATH=${CMAKE_CXX_COMPILER}
      -DCMAKE_CXX_FLAGS:STRING=${CMAKE_CXX_FLAGS}
      -DCMAKE_CXX_FLAGS_${fcal_build_type}:STRING=${CMAKE_CXX_FLAGS_${fcal_build_type}}
      -DCMAKE_MAKE_PROGRAM:FILEPATH=${CMAKE_MAKE_PROGRAM}
      -DCMAKE_PREFIX_PATH:STRING=${CMAKE_PREFIX_PATH}
      -DFCAL_FULL_DEBUG:BOOL=${FCAL_FULL_DEBUG}
      -DFCAL_RTL_DEPTH:STRING=${FCAL_RTL_DEPTH}
      -DFCAL_RTL_CMD_DEPTH:STRING=${FCAL_RTL_CMD_DEPTH}
      -DFCAL_BUILD_TESTS:BOOL=OFF -DFCAL_LTO:BOOL=OFF -DFCAL_PGO:BOOL=OFF -DFCAL_PGO_GENERATE:BOOL=ON
    BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target fcal-sim
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS ${pgo_sim}
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD ON)
  # The training runs again whenever the instrumented simulator changed (a fresh profile each time).
  add_custom_command(OUTPUT ${pgo_dir}/trained
    COMMAND ${CMAKE_COMMAND} -DFCAL_SIM=${pgo_sim} -DINSTRUMENTED_DIR=${pgo_dir}/build -DBUILD_DIR=${PROJECT_BINARY_DIR}
            -P ${PROJECT_SOURCE_DIR}/cmake/pgo_train.cmake
    COMMAND ${CMAKE_COMMAND} -E touch ${pgo_dir}/trained
    DEPENDS ${pgo_sim} fcal_pgo_instrumented ${PROJECT_SOURCE_DIR}/cmake/pgo_train.cmake
    COMMENT "Training fcal-sim for profile-guided optimization"
    VERBATIM)
  add_custom_target(fcal_pgo_profile DEPENDS ${pgo_dir}/trained)
  # A function the profile does not match is compiled without it (the Verilated model's sources are
  # generated afresh in each build; an incremental build may recompile a file before retraining).
  set(FCAL_PGO_USE_OPTIONS -fprofile-use -fprofile-partial-training -Wno-missing-profile -Wno-coverage-mismatch)
endif()
message(STATUS "fcal: profile-guided optimization ${FCAL_PGO_ACTIVE}")

function(fcal_pgo_library target)
  if(FCAL_PGO_ACTIVE)
    target_compile_options(${target} PRIVATE ${FCAL_PGO_USE_OPTIONS})
    add_dependencies(${target} fcal_pgo_profile)
  endif()
endfunction()
