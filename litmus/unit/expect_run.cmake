# Runs CMD with ARGS (a ;-list); fails unless the exit code is EXPECT_CODE and the combined
# output matches the regular expression EXPECT_OUTPUT.
execute_process(COMMAND ${CMD} ${ARGS} RESULT_VARIABLE code OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT code EQUAL EXPECT_CODE)
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_CODE}\n${out}\n${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match '${EXPECT_OUTPUT}':\n${out}\n${err}")
endif()
message(STATUS "ok: exit ${code}, output matches")
# SPDX-License-Identifier: Apache-2.0
