// temporary
#include "litmus/hw.hpp"
namespace stealcheck::litmus {
int run_hardware(const std::vector<test>&, const litmus_options&, std::ostream&, std::ostream&) {
  return 2;
}
}  // namespace stealcheck::litmus
