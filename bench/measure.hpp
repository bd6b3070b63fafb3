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

}  // namespace stealcheck::bench
