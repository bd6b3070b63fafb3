# cmake --install: headers under include/stealcheck/, the libraries, the `stealcheck`
# executable, and a CMake package (stealcheckConfig.cmake + version file) exporting the
# namespaced targets a user links:
#   stealcheck::deques    the deque contract, memory backends, built-in deques (header-only)
#   stealcheck::harness   checker interface, open variant registry, CLI runner, replay commands
#   stealcheck::oracle    the RC11/SC axioms as relation algebra and a brute-force enumerator
#   stealcheck::model     the RC11/SC model checker with its checker and `model` subcommand
#   stealcheck::stress    native stress and linearizability checking with their checkers
#   stealcheck::testing   the GoogleTest conformance suite (stealcheck/testing.hpp)
#   stealcheck::cli       stealcheck::cli_main and the built-in variants (stealcheck/cli.hpp)
#   stealcheck::main      a main() for a user's own stealcheck command (stealcheck_add_cli)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STEALCHECK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/stealcheck)

# Headers: the public ones, include/stealcheck/*.hpp (what they document is the stable
# surface), and under include/stealcheck/detail/ every header they include: internal, free to
# change between versions, never included by a user directly.
# (include/stealcheck/detail/ holds links to the layers' folders here: installed as the folders.)
install(DIRECTORY include/stealcheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN "detail" EXCLUDE)
foreach(dir deques harness oracle models stress)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/stealcheck/detail/${dir}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "tests" EXCLUDE PATTERN "bench" EXCLUDE)
endforeach()

set_target_properties(stealcheck_deques PROPERTIES EXPORT_NAME deques)
set_target_properties(stealcheck_harness PROPERTIES EXPORT_NAME harness)
set_target_properties(stealcheck_oracle PROPERTIES EXPORT_NAME oracle)
set_target_properties(stealcheck_models PROPERTIES EXPORT_NAME model_engine)
set_target_properties(stealcheck_models_cli PROPERTIES EXPORT_NAME model)
set_target_properties(stealcheck_stress PROPERTIES EXPORT_NAME stress_engine)
set_target_properties(stealcheck_stress_checker PROPERTIES EXPORT_NAME stress)
set_target_properties(stealcheck_testing PROPERTIES EXPORT_NAME testing)
set_target_properties(stealcheck_cli PROPERTIES EXPORT_NAME cli)
set_target_properties(stealcheck_main PROPERTIES EXPORT_NAME main)

install(TARGETS stealcheck_deques stealcheck_harness stealcheck_oracle stealcheck_models stealcheck_models_cli
                stealcheck_stress stealcheck_stress_checker stealcheck_testing stealcheck_cli
                stealcheck_main
        EXPORT stealcheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET stealcheck)
  install(TARGETS stealcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT stealcheckTargets NAMESPACE stealcheck:: DESTINATION ${STEALCHECK_CMAKE_DIR})

configure_package_config_file(cmake/stealcheckConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/stealcheckConfig.cmake INSTALL_DESTINATION ${STEALCHECK_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/stealcheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/stealcheckConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/stealcheckConfigVersion.cmake
              cmake/stealcheckFunctions.cmake
        DESTINATION ${STEALCHECK_CMAKE_DIR})

# The license, citation file and changelog, where Debian keeps a package's documents.
install(FILES LICENSE CITATION.cff CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# add_subdirectory(stealcheck) users get the same names and functions.
foreach(t deques harness oracle model stress testing cli main)
  if(t STREQUAL "model")
    add_library(stealcheck::model ALIAS stealcheck_models_cli)
  elseif(t STREQUAL "stress")
    add_library(stealcheck::stress ALIAS stealcheck_stress_checker)
  else()
    add_library(stealcheck::${t} ALIAS stealcheck_${t})
  endif()
endforeach()
include(cmake/stealcheckFunctions.cmake)
# SPDX-License-Identifier: Apache-2.0
