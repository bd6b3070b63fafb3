// tools/variants/builtin.hpp: stealcheck's built-in variants register themselves, one
// translation unit each (tools/variants/*.cpp), exactly as a user's variant does. A static
// library drops a translation unit nothing refers to: cli_main calls this function, which
// refers to one symbol of each, so that every built-in variant is linked in.
#pragma once

namespace stealcheck::tools {

extern const bool chase_lev_registered;
extern const bool locked_registered;
extern const bool steal_half_registered;
extern const bool split_registered;
extern const bool the_registered;
extern const bool abp_registered;
extern const bool fjp_registered;
extern const bool dotnet_registered;
extern const bool idempotent_registered;
extern const bool tokio_registered;
extern const bool go_registered;
extern const bool bwos_registered;
extern const bool crossbeam_registered;
extern const bool sched_registered;

/// Returns true; keeps every built-in registration in the program.
inline bool link_builtin_variants() {
  return chase_lev_registered && locked_registered && steal_half_registered && split_registered &&
         the_registered && abp_registered && fjp_registered && dotnet_registered &&
         idempotent_registered && tokio_registered && go_registered && bwos_registered &&
         crossbeam_registered && sched_registered;
}

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
