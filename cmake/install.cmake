# cmake --install: headers under include/stealcheck/, the libraries, the `stealcheck`
# executable, and a CMake package (stealcheckConfig.cmake + version file) exporting the
# namespaced targets a user links:
#   stealcheck::deques    the deque contract, memory backends, built-in deques (header-only)
#   stealcheck::harness   checker interface, open variant registry, CLI runner, replay commands
#   stealcheck::oracle    the RC11/SC axioms as relation algebra and a brute-force enumerator
#   stealcheck::model_engine   the RC11/SC model checker (explorer, runtime, reports)
#   stealcheck::model     the model checker's checker and `model` subcommand (with the engine)
#   stealcheck::stress_engine  native stress and linearizability checking
#   stealcheck::stress    their checkers and `stress`, `lincheck`, `fuzz`, `certify` (with the engine)
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

# One set of names: the target stealcheck_<name> of this build is stealcheck::<name> in the
# package and for add_subdirectory(stealcheck) users alike.
set(STEALCHECK_PACKAGE_TARGETS deques harness oracle model_engine model stress_engine stress testing
    cli main)
foreach(t ${STEALCHECK_PACKAGE_TARGETS})
  set_target_properties(stealcheck_${t} PROPERTIES EXPORT_NAME ${t})
  add_library(stealcheck::${t} ALIAS stealcheck_${t})
endforeach()
list(TRANSFORM STEALCHECK_PACKAGE_TARGETS PREPEND stealcheck_ OUTPUT_VARIABLE package_targets)
install(TARGETS ${package_targets}
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

# add_subdirectory(stealcheck) users get the same functions.
include(cmake/stealcheckFunctions.cmake)
# SPDX-License-Identifier: Apache-2.0
