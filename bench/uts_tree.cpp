// bench/uts_tree.cpp: see uts_tree.hpp.
#include "bench/uts_tree.hpp"

#include <nettle/sha1.h>

#include <cmath>

namespace stealcheck::bench {
namespace {

void put_be32(std::uint8_t* out, std::uint32_t v) noexcept {
  out[0] = static_cast<std::uint8_t>(v >> 24);
  out[1] = static_cast<std::uint8_t>(v >> 16);
  out[2] = static_cast<std::uint8_t>(v >> 8);
  out[3] = static_cast<std::uint8_t>(v);
}

// rng_rand: the state's last 4 bytes, big-endian, top bit cleared; then rng_toProb: over 2^31.
double uniform_of(const uts_sha1_node& n) noexcept {
  const std::uint32_t b = (std::uint32_t{n.state[16]} << 24) | (std::uint32_t{n.state[17]} << 16) |
                          (std::uint32_t{n.state[18]} << 8) | std::uint32_t{n.state[19]};
  return static_cast<double>(b & 0x7fffffffU) / 2147483648.0;
}

}  // namespace

uts_sha1_node uts_root(const uts_tree& t) noexcept {
  std::array<std::uint8_t, 20> seed_block{};
  put_be32(seed_block.data() + 16, static_cast<std::uint32_t>(t.seed));
  sha1_ctx ctx{};
  sha1_init(&ctx);
  sha1_update(&ctx, seed_block.size(), seed_block.data());
  uts_sha1_node root;
  sha1_digest(&ctx, root.state.size(), root.state.data());
  return root;
}

uts_sha1_node uts_spawn(const uts_sha1_node& parent, int i) noexcept {
  std::array<std::uint8_t, 4> index{};
  put_be32(index.data(), static_cast<std::uint32_t>(i));
  sha1_ctx ctx{};
  sha1_init(&ctx);
  sha1_update(&ctx, parent.state.size(), parent.state.data());
  sha1_update(&ctx, index.size(), index.data());
  uts_sha1_node child;
  sha1_digest(&ctx, child.state.size(), child.state.data());
  child.height = parent.height + 1;
  return child;
}

int uts_num_children(const uts_tree& t, const uts_sha1_node& n) noexcept {
  if (t.shape == uts_shape::binomial) {
    if (n.height == 0) return static_cast<int>(std::floor(t.b0));
    const int kids = uniform_of(n) < t.q ? t.m : 0;
    return kids > uts_max_children ? uts_max_children : kids;
  }
  // Geometric with a fixed shape: mean b0 above gen_mx, no children at or below it.
  const double b = n.height < t.gen_mx ? t.b0 : 0.0;
  if (b == 0.0) return 0;  // the reference's formula gives floor(log(1-u) / -inf) = 0 as well
  const double p = 1.0 / (1.0 + b);
  const int kids = static_cast<int>(std::floor(std::log(1.0 - uniform_of(n)) / std::log(1.0 - p)));
  return kids > uts_max_children ? uts_max_children : kids;
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
