#include "tools/cli_main.hpp"

#include <cstdio>
#include <exception>

#include "tools/commands.hpp"

namespace stealcheck::tools {

int run_cli(CLI::App& app, int argc, char** argv, const int& exit_code, const char* program) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return 2;
  } catch (const usage_error& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", program, e.what());
    return 3;
  }
  return exit_code;
}

}  // namespace stealcheck::tools
