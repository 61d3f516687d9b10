#pragma once
// SHA-256 (FIPS 180-4), used for source hashes on the leaderboard and for the build cache key. Written here rather
// than pulled from a crypto library because the judge needs only this one digest, as hex.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace judge {

// Incremental digest: feed any number of update() calls, then read hex_digest(). Reading the digest does not end
// the computation; more update() calls continue the same message.
class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  std::string hex_digest() const;  // 64 lowercase hex characters

 private:
  void compress(const unsigned char* block);

  std::array<std::uint32_t, 8> state_;
  std::array<unsigned char, 64> buffer_{};
  std::size_t buffered_ = 0;      // bytes waiting in buffer_ for a full block
  std::uint64_t total_bytes_ = 0;  // message length so far
};

std::string sha256_hex(std::string_view data);

}  // namespace judge
