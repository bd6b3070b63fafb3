# stealcheck_add_cli(NAME SOURCES file...): an executable NAME that is the whole stealcheck
# command (list, verify, model, stress, lincheck) over the built-in variants and those the
# SOURCES register (STEALCHECK_REGISTER_VARIANT, stealcheck/register.hpp). Replay commands in
# its output start with NAME. The SOURCES are compiled with the caller's flags.
function(stealcheck_add_cli name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "stealcheck_add_cli(${name}): SOURCES is required")
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE stealcheck::main)
endfunction()
# SPDX-License-Identifier: Apache-2.0
