// bench/measure.hpp: process measurements for the benchmark table (Linux).
//
// Thread role: any; each function reads or resets process-wide counters.
#pragma once

#include <cstdint>

namespace stealcheck::bench {

/// User + system CPU time of the whole process (all threads) in seconds (getrusage).
double process_cpu_seconds();
/// Resets the peak resident set size (writes "5" to /proc/self/clear_refs, Linux >= 4.0).
/// Returns false if the kernel refused (peak_rss_kb() is then the lifetime peak).
bool reset_peak_rss();
/// Peak resident set size in KiB since the last reset (VmHWM of /proc/self/status).
std::int64_t peak_rss_kb();

/// Sleeps until the process is at rest: over a 5 ms window, all its threads together used less
/// than a tenth of a CPU (threads that spin after a job, as libgomp's do for a few milliseconds,
/// have stopped). The window spans at least one scheduler tick (4 ms at HZ=250): the kernel
/// accounts a thread running on another CPU at its ticks, so a shorter window can see a spinning
/// thread's CPU time as 0. Gives up after `limit_seconds`; returns whether the process came to
/// rest. Thread role: any thread that is not one of the spinning ones.
bool wait_until_quiet(double limit_seconds = 0.5);

/// The machine's cost of moving one cache line from one core to another, in ns: two threads
/// hand an atomic counter back and forth `round_trips` times (each waits until it reads the
/// other's store, then stores), and the median over `trials` runs of the time per round trip is
/// halved. The two threads are pinned to the first two CPUs the process may use (the caller's
/// affinity is restored afterwards), so the number is a transfer between two cores, never a
/// context switch on one.
/// Every steal moves a few lines between workers (the victim's indices, the task, its join), so
/// this number sets the price of a steal on the machine a run got. Returns -1 when the process
/// may use fewer than 2 CPUs. Thread role: any.
/// Complexity: 2 * trials * round_trips line transfers (about 0.1 s at 250 ns each).
double line_transfer_ns(int round_trips = 20000, int trials = 5);

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
