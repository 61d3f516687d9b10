#pragma once
// Text from users (names, challenge ids, GPU names, file names) goes into the HTML report only through here, so a
// name such as `<script>` is shown as written and never runs.
#include <string>
#include <string_view>

namespace judge {

// & < > " ' replaced by their character references: safe in element content and in quoted attribute values.
std::string html_escape(std::string_view text);

}  // namespace judge
