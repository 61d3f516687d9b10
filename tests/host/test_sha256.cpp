#include "judge/core/base/sha256.hpp"

#include <string>

#include <gtest/gtest.h>

namespace judge {
namespace {

// Test vectors from NIST's "SHA-256 example" sheet (FIPS 180-4 examples).
TEST(Sha256, EmptyMessage) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, OneBlockMessage) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessage) {
  // 448 bits: the padding no longer fits in the first block.
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, OneMillionA) {
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, OneMillionAFedInUnevenPieces) {
  Sha256 sha;
  const std::string piece(997, 'a');
  std::size_t fed = 0;
  for (; fed + piece.size() <= 1000000; fed += piece.size()) sha.update(piece);
  sha.update(std::string(1000000 - fed, 'a'));
  EXPECT_EQ(sha.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalSplitAtEveryOffsetMatchesOneShot) {
  std::string message;
  for (int i = 0; i < 200; ++i) message += static_cast<char>((i * 37 + 11) & 0xff);  // every byte value shape
  const std::string expected = sha256_hex(message);
  for (std::size_t split = 0; split <= message.size(); ++split) {
    Sha256 sha;
    sha.update(std::string_view(message).substr(0, split));
    sha.update(std::string_view(message).substr(split));
    EXPECT_EQ(sha.hex_digest(), expected) << "split at " << split;
  }
}

TEST(Sha256, DigestCanBeReadMidStreamAndContinued) {
  Sha256 sha;
  sha.update("ab");
  EXPECT_EQ(sha.hex_digest(), sha256_hex("ab"));
  sha.update("c");
  EXPECT_EQ(sha.hex_digest(), sha256_hex("abc"));
}

TEST(Sha256, PaddingBoundaries) {
  // Lengths around 55/56/64 bytes exercise one- and two-block padding; compare with byte-at-a-time feeding.
  for (std::size_t length : {55u, 56u, 57u, 63u, 64u, 65u, 119u, 120u, 128u}) {
    const std::string message(length, 'x');
    Sha256 sha;
    for (char c : message) sha.update(std::string_view(&c, 1));
    EXPECT_EQ(sha.hex_digest(), sha256_hex(message)) << "length " << length;
  }
  EXPECT_EQ(sha256_hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

}  // namespace
}  // namespace judge
