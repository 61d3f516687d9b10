#include "judge/core/challenge/expr.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <utility>
#include <string_view>

namespace judge {

namespace {

// Specs are written by people, but the parser must stay safe on anything: nesting is bounded so recursion is, and
// length is bounded so a left-leaning chain ("1+1+1+...") cannot build a tree deep enough to matter.
constexpr std::size_t kMaxLength = 4096;
constexpr int kMaxDepth = 64;
constexpr double kTwoPow53 = 9007199254740992.0;

enum class Op { number, name, neg, add, sub, mul, div, mod, pow, call, lt, le, gt, ge, eq, ne, and_, or_, not_ };
enum class Func { min, max, ceil, floor, log2, sqrt, ceil_div };

struct FuncInfo {
  Func func;
  std::string_view name;
  std::size_t min_args;
  std::size_t max_args;
};

constexpr std::size_t kUnbounded = static_cast<std::size_t>(-1);
constexpr std::array<FuncInfo, 7> kFunctions{{
    {Func::min, "min", 2, kUnbounded},
    {Func::max, "max", 2, kUnbounded},
    {Func::ceil, "ceil", 1, 1},
    {Func::floor, "floor", 1, 1},
    {Func::log2, "log2", 1, 1},
    {Func::sqrt, "sqrt", 1, 1},
    {Func::ceil_div, "ceil_div", 2, 2},
}};

const FuncInfo* find_function(std::string_view name) {
  for (const auto& f : kFunctions)
    if (f.name == name) return &f;
  return nullptr;
}

std::string function_list() {
  std::string out;
  for (const auto& f : kFunctions) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

// How a character is named in a message: itself if printable ASCII, else its byte value.
std::string describe_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", u);
}

}  // namespace

struct Expr::Node {
  Op op = Op::number;
  std::size_t pos = 0;  // where the node starts (names, numbers, calls) or its operator: for error columns
  double value = 0.0;
  std::string name;
  Func func = Func::min;
  std::vector<Node> args;  // operands of operators, arguments of calls
};

namespace {

using Node = Expr::Node;

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Node parse() {
    Node root = parse_expr();
    skip_space();
    if (pos_ < text_.size())
      fail(pos_, fmt::format("unexpected {}; expected an operator (+ - * / % ^ < <= > >= == != && ||) or the end", describe_char(peek())));
    return root;
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw ExprError(fmt::format("in expression '{}': {} at column {}", text_, what, at + 1));
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool at_end() const { return pos_ >= text_.size(); }

  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
  }

  bool accept(char c) {
    skip_space();
    if (!at_end() && peek() == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  static Node binary(Op op, std::size_t pos, Node lhs, Node rhs) {
    Node n;
    n.op = op;
    n.pos = pos;
    n.args.push_back(std::move(lhs));
    n.args.push_back(std::move(rhs));
    return n;
  }

  // expr := and ('||' and)* ; and := cmp ('&&' cmp)*
  Node parse_expr() { return logical(&Parser::parse_and, '|', Op::or_); }
  Node parse_and() { return logical(&Parser::parse_comparison, '&', Op::and_); }

  Node logical(Node (Parser::*operand)(), char c, Op op) {
    Node lhs = (this->*operand)();
    for (;;) {
      skip_space();
      if (at_end() || peek() != c) return lhs;
      std::size_t at = pos_;
      if (pos_ + 1 >= text_.size() || text_[pos_ + 1] != c)
        fail(at, fmt::format("expected '{}{}'", c, c));
      pos_ += 2;
      lhs = binary(op, at, std::move(lhs), (this->*operand)());
    }
  }

  // cmp := sum (('<'|'<='|'>'|'>='|'=='|'!=') sum)?   (not chained: "a < b < c" is an error)
  Node parse_comparison() {
    Node lhs = parse_sum();
    skip_space();
    static const std::pair<std::string_view, Op> kOps[] = {{"<=", Op::le}, {">=", Op::ge}, {"==", Op::eq},
                                                           {"!=", Op::ne}, {"<", Op::lt},  {">", Op::gt}};
    for (const auto& [text, op] : kOps) {
      if (text_.compare(pos_, text.size(), text) != 0) continue;
      std::size_t at = pos_;
      pos_ += text.size();
      Node n = binary(op, at, std::move(lhs), parse_sum());
      skip_space();
      if (!at_end() && (peek() == '<' || peek() == '>' || peek() == '=' || (peek() == '!' && pos_ + 1 < text_.size() &&
                                                                           text_[pos_ + 1] == '=')))
        fail(pos_, "comparisons cannot be chained; combine them with &&");
      return n;
    }
    if (!at_end() && peek() == '=') fail(pos_, "expected '==' for equality");
    return lhs;
  }

  // sum := term (('+'|'-') term)*
  Node parse_sum() { return left_assoc(&Parser::parse_term, {{'+', Op::add}, {'-', Op::sub}}); }

  // term := unary (('*'|'/'|'%') unary)*
  Node parse_term() { return left_assoc(&Parser::parse_unary, {{'*', Op::mul}, {'/', Op::div}, {'%', Op::mod}}); }

  // operand (op operand)*, folded to the left. A loop, not recursion: a long flat chain costs no stack to parse.
  Node left_assoc(Node (Parser::*operand)(), std::initializer_list<std::pair<char, Op>> ops) {
    Node lhs = (this->*operand)();
    for (;;) {
      skip_space();
      auto op = std::find_if(ops.begin(), ops.end(), [&](const auto& o) { return !at_end() && o.first == peek(); });
      if (op == ops.end()) return lhs;
      std::size_t at = pos_++;
      lhs = binary(op->second, at, std::move(lhs), (this->*operand)());
    }
  }

  // unary := '-' unary | power. Every recursive path of the grammar passes through here, so this is where the
  // nesting depth is counted.
  Node parse_unary() {
    skip_space();
    if (++depth_ > kMaxDepth) fail(pos_, fmt::format("nesting deeper than {} levels", kMaxDepth));
    Node result;
    std::size_t at = pos_;
    skip_space();
    bool negation = !at_end() && peek() == '!' && (pos_ + 1 >= text_.size() || text_[pos_ + 1] != '=');
    if (accept('-')) {
      result.op = Op::neg;
      result.pos = at;
      result.args.push_back(parse_unary());
    } else if (negation) {
      ++pos_;
      result.op = Op::not_;
      result.pos = at;
      result.args.push_back(parse_unary());
    } else {
      result = parse_power();
    }
    --depth_;
    return result;
  }

  // power := atom ('^' unary)?   (right-associative: 2^3^2 = 2^(3^2); -2^2 = -(2^2); 2^-1 is allowed)
  Node parse_power() {
    Node base = parse_atom();
    skip_space();
    std::size_t at = pos_;
    if (accept('^')) return binary(Op::pow, at, std::move(base), parse_unary());
    return base;
  }

  // atom := number | identifier | identifier '(' expr (',' expr)* ')' | '(' expr ')'
  Node parse_atom() {
    skip_space();
    if (at_end() || !(is_digit(peek()) || peek() == '.' || is_ident_start(peek()) || peek() == '('))
      fail(pos_, "expected a number, name or '('");
    if (accept('(')) {
      Node inner = parse_expr();
      if (!accept(')')) fail(pos_, "expected ')'");
      return inner;
    }
    if (is_ident_start(peek())) return parse_name();
    return parse_number();
  }

  Node parse_name() {
    Node n;
    n.pos = pos_;
    while (!at_end() && is_ident_char(peek())) ++pos_;
    n.name = text_.substr(n.pos, pos_ - n.pos);
    skip_space();
    if (peek() != '(') {
      n.op = Op::name;
      return n;
    }
    const FuncInfo* f = find_function(n.name);
    if (f == nullptr) fail(n.pos, fmt::format("unknown function '{}'; expected one of {}", n.name, function_list()));
    n.op = Op::call;
    n.func = f->func;
    accept('(');
    n.args.push_back(parse_expr());
    while (accept(',')) n.args.push_back(parse_expr());
    if (!accept(')')) fail(pos_, "expected ',' or ')'");
    if (n.args.size() < f->min_args || n.args.size() > f->max_args) {
      std::string wanted = f->max_args == kUnbounded ? fmt::format("at least {} arguments", f->min_args)
                           : f->min_args == 1       ? std::string("1 argument")
                                                    : fmt::format("{} arguments", f->min_args);
      fail(n.pos, fmt::format("{}() takes {}, got {}", n.name, wanted, n.args.size()));
    }
    return n;
  }

  // digits ['.' digits] [('e'|'E') ['+'|'-'] digits], or '.' digits. An 'e' not followed by digits is left for the
  // caller, which then reports it as an unexpected character.
  Node parse_number() {
    Node n;
    n.pos = pos_;
    std::size_t end = pos_;
    while (end < text_.size() && is_digit(text_[end])) ++end;
    if (end < text_.size() && text_[end] == '.') {
      ++end;
      while (end < text_.size() && is_digit(text_[end])) ++end;
    }
    if (end - n.pos == 1 && text_[n.pos] == '.') fail(n.pos, "expected digits around '.'");
    if (end < text_.size() && (text_[end] == 'e' || text_[end] == 'E')) {
      std::size_t exp = end + 1;
      if (exp < text_.size() && (text_[exp] == '+' || text_[exp] == '-')) ++exp;
      if (exp < text_.size() && is_digit(text_[exp])) {
        end = exp;
        while (end < text_.size() && is_digit(text_[end])) ++end;
      }
    }
    const char* first = text_.data() + n.pos;
    const char* last = text_.data() + end;
    auto [ptr, ec] = std::from_chars(first, last, n.value);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && !std::isfinite(n.value)))
      fail(n.pos, "number out of range");
    if (ec != std::errc() || ptr != last) fail(n.pos, "malformed number");
    pos_ = end;
    n.op = Op::number;
    return n;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

class Evaluator {
 public:
  Evaluator(const std::string& text, const Env& env) : text_(text), env_(env) {}

  double eval(const Node& n) const {
    double v = compute(n);
    if (!std::isfinite(v))
      fail(n.pos, fmt::format("the result is not a finite number ({})", std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"));
    return v;
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw ExprError(fmt::format("{} at column {} in expression '{}'", what, at + 1, text_));
  }

  double divisor(const Node& n) const {
    double d = eval(n.args[1]);
    if (d == 0.0) fail(n.pos, "division by zero");
    return d;
  }

  double compute(const Node& n) const {
    switch (n.op) {
      case Op::number:
        return n.value;
      case Op::name: {
        auto it = env_.find(n.name);
        if (it == env_.end()) throw ExprError(fmt::format("unknown name '{}' in expression '{}'", n.name, text_));
        return it->second;
      }
      case Op::neg: return -eval(n.args[0]);
      case Op::add: return eval(n.args[0]) + eval(n.args[1]);
      case Op::sub: return eval(n.args[0]) - eval(n.args[1]);
      case Op::mul: return eval(n.args[0]) * eval(n.args[1]);
      case Op::div: {
        double a = eval(n.args[0]);
        return a / divisor(n);
      }
      case Op::mod: {
        double a = eval(n.args[0]);
        return std::fmod(a, divisor(n));
      }
      case Op::pow: return std::pow(eval(n.args[0]), eval(n.args[1]));
      case Op::call: return call(n);
      case Op::lt: return eval(n.args[0]) < eval(n.args[1]) ? 1.0 : 0.0;
      case Op::le: return eval(n.args[0]) <= eval(n.args[1]) ? 1.0 : 0.0;
      case Op::gt: return eval(n.args[0]) > eval(n.args[1]) ? 1.0 : 0.0;
      case Op::ge: return eval(n.args[0]) >= eval(n.args[1]) ? 1.0 : 0.0;
      case Op::eq: return eval(n.args[0]) == eval(n.args[1]) ? 1.0 : 0.0;
      case Op::ne: return eval(n.args[0]) != eval(n.args[1]) ? 1.0 : 0.0;
      case Op::and_: return eval(n.args[0]) != 0.0 && eval(n.args[1]) != 0.0 ? 1.0 : 0.0;
      case Op::or_: return eval(n.args[0]) != 0.0 || eval(n.args[1]) != 0.0 ? 1.0 : 0.0;
      case Op::not_: return eval(n.args[0]) == 0.0 ? 1.0 : 0.0;
    }
    return 0.0;
  }

  double call(const Node& n) const {
    switch (n.func) {
      case Func::min:
      case Func::max: {
        double best = eval(n.args[0]);
        for (std::size_t i = 1; i < n.args.size(); ++i) {
          double v = eval(n.args[i]);
          best = n.func == Func::min ? std::min(best, v) : std::max(best, v);
        }
        return best;
      }
      case Func::ceil: return std::ceil(eval(n.args[0]));
      case Func::floor: return std::floor(eval(n.args[0]));
      case Func::log2: return std::log2(eval(n.args[0]));
      case Func::sqrt: return std::sqrt(eval(n.args[0]));
      case Func::ceil_div: {
        double a = eval(n.args[0]);
        double b = divisor(n);
        // Integers are divided exactly (a double quotient can round across an integer at large values).
        if (a == std::floor(a) && b == std::floor(b) && std::fabs(a) < kTwoPow53 && std::fabs(b) < kTwoPow53) {
          auto ia = static_cast<std::int64_t>(a);
          auto ib = static_cast<std::int64_t>(b);
          std::int64_t q = ia / ib;
          if (ia % ib != 0 && ((ia < 0) == (ib < 0))) ++q;
          return static_cast<double>(q);
        }
        return std::ceil(a / b);
      }
    }
    return 0.0;
  }

  const std::string& text_;
  const Env& env_;
};

void collect_identifiers(const Node& n, std::vector<std::string>& out) {
  if (n.op == Op::name && std::find(out.begin(), out.end(), n.name) == out.end()) out.push_back(n.name);
  for (const auto& child : n.args) collect_identifiers(child, out);
}

}  // namespace

Expr::Expr() : text_("0"), root_(std::make_shared<const Node>()) {}

Expr Expr::parse(const std::string& text) {
  if (text.size() > kMaxLength)
    throw ExprError(fmt::format("expression '{}...' is {} characters long; the limit is {}", text.substr(0, 40),
                                text.size(), kMaxLength));
  Expr e;
  e.text_ = text;
  e.root_ = std::make_shared<const Node>(Parser(text).parse());
  return e;
}

double Expr::eval(const Env& env) const { return Evaluator(text_, env).eval(*root_); }

std::int64_t Expr::eval_size(const Env& env) const {
  double v = eval(env);
  if (v < 0 || v != std::floor(v) || v >= kTwoPow53)
    throw ExprError(fmt::format("expression '{}' evaluates to {}; a size must be a non-negative integer", text_, v));
  return static_cast<std::int64_t>(v);
}

std::vector<std::string> Expr::identifiers() const {
  std::vector<std::string> out;
  collect_identifiers(*root_, out);
  return out;
}

}  // namespace judge
