// Whatever a user names things, the report shows it as text.
#include "judge/core/present/html_escape.hpp"

#include <gtest/gtest.h>

namespace {

TEST(HtmlEscape, EscapesEveryCharacterThatMeansSomethingInHtml) {
  EXPECT_EQ(judge::html_escape("<script>alert('x') & \"y\"</script>"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;");
}

TEST(HtmlEscape, LeavesEverythingElseAlone) {
  EXPECT_EQ(judge::html_escape("alice_42 · µs ✓"), "alice_42 · µs ✓");
  EXPECT_EQ(judge::html_escape(""), "");
  EXPECT_EQ(judge::html_escape("&amp;"), "&amp;amp;") << "already-escaped text is text too";
}

}  // namespace
