// models/runtime/crash.hpp: one error line and exit code 2 when a model thread crashes (implemented
// in crash.cpp).
#pragma once

namespace stealcheck::model::detail {

/// Makes a crash of a model thread (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: a bad pointer,
/// a stack overflow into the guard page, an assert() in the code under test) print one error
/// line naming the thread, its last event and the signal, and exit with code 2 instead of
/// killing the process without a word (models/runtime/crash.cpp). The handlers are installed once
/// per process and run on an alternate signal stack set up for the calling OS thread; a signal
/// outside an exploration goes to the handler that was there before. Not in sanitizer builds,
/// whose own reports are more precise. Call on each OS thread that explores.
void install_crash_report();

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
