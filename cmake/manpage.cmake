# cmake -DEXE=<stealcheck> -DOUT=<stealcheck.1> -P cmake/manpage.cmake: the man page, made
# from the command's own help. help2man reads `stealcheck --help` and `--version`; each
# subcommand's `--help` goes in as the section SUBCOMMANDS, so the page says what the
# command says, and changes when it does.
find_program(HELP2MAN help2man REQUIRED)
set(subcommands list stress verify lincheck model fuzz certify merge mutate litmus bench)
set(text "[SUBCOMMANDS]\n")
foreach(sub ${subcommands})
  execute_process(COMMAND ${EXE} ${sub} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "manpage: `stealcheck ${sub} --help` exited with ${rc}")
  endif()
  # the usage line names the build path of the executable; the page names the command
  string(REGEX REPLACE "Usage: [^ ]*stealcheck" "Usage: stealcheck" help "${help}")
  # roff: a line starting with a dot or quote would be read as a request
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" help "${help}")
  string(APPEND text ".SS ${sub}\n.nf\n${help}.fi\n")
endforeach()
string(APPEND text "[SEE ALSO]\nThe README of the source distribution, and /usr/share/doc/stealcheck/.\n")
get_filename_component(dir ${OUT} DIRECTORY)
file(WRITE ${dir}/stealcheck.h2m "${text}")
execute_process(
  COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1
          "--name=verification, testing and benchmarking for work-stealing deques"
          --include=${dir}/stealcheck.h2m --output=${OUT} ${EXE}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "manpage: help2man exited with ${rc}")
endif()
# SPDX-License-Identifier: Apache-2.0
