// Expr: the arithmetic of shapes, FLOPs and bytes in challenge specs.
#include "judge/core/challenge/expr.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

namespace {

using judge::Env;
using judge::Expr;
using judge::ExprError;

double eval(const std::string& text, const Env& env = {}) { return Expr::parse(text).eval(env); }

// The message of the ExprError that f throws (fails the test if it throws nothing).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ExprError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an ExprError";
  return {};
}

std::string parse_error(const std::string& text) {
  return error_of([&] { Expr::parse(text); });
}

std::string eval_error(const std::string& text, const Env& env = {}) {
  return error_of([&] { Expr::parse(text).eval(env); });
}

TEST(Expr, DefaultIsConstantZero) {
  Expr e;
  EXPECT_EQ(e.text(), "0");
  EXPECT_EQ(e.eval({}), 0.0);
  EXPECT_TRUE(e.identifiers().empty());
}

TEST(Expr, Numbers) {
  EXPECT_EQ(eval("42"), 42.0);
  EXPECT_EQ(eval("2.5"), 2.5);
  EXPECT_EQ(eval(".5"), 0.5);
  EXPECT_EQ(eval("3."), 3.0);
  EXPECT_EQ(eval("1e3"), 1000.0);
  EXPECT_EQ(eval("1.5E+2"), 150.0);
  EXPECT_EQ(eval("25e-1"), 2.5);
  EXPECT_EQ(eval("  7  "), 7.0);
}

TEST(Expr, Precedence) {
  EXPECT_EQ(eval("2+3*4"), 14.0);
  EXPECT_EQ(eval("(2+3)*4"), 20.0);
  EXPECT_EQ(eval("2*3^2"), 18.0);
  EXPECT_EQ(eval("10-4/2"), 8.0);
  EXPECT_EQ(eval("7%4+1"), 4.0);
  EXPECT_EQ(eval("-2^2"), -4.0);  // unary minus binds looser than ^
  EXPECT_EQ(eval("2^-1"), 0.5);   // the exponent may be negated
  EXPECT_EQ(eval("-3*-2"), 6.0);
  EXPECT_EQ(eval("--3"), 3.0);
}

TEST(Expr, Associativity) {
  EXPECT_EQ(eval("10-3-2"), 5.0);      // left
  EXPECT_EQ(eval("64/4/2"), 8.0);      // left
  EXPECT_EQ(eval("100%7%3"), 2.0);     // left: (100%7)%3 = 2%3
  EXPECT_EQ(eval("2^3^2"), 512.0);     // right: 2^(3^2)
  EXPECT_EQ(eval("(2^3)^2"), 64.0);
}

TEST(Expr, Names) {
  Env env{{"M", 3}, {"N", 5}, {"K", 7}};
  EXPECT_EQ(eval("2*M*N*K", env), 210.0);
  EXPECT_EQ(eval("4*(M*N + N*K + M*K)", env), 4.0 * (15 + 35 + 21));
  EXPECT_EQ(eval("N_1 + _x", {{"N_1", 1}, {"_x", 2}}), 3.0);
}

TEST(Expr, Functions) {
  Env env{{"N", 10}};
  EXPECT_EQ(eval("min(3, 1, 2)"), 1.0);
  EXPECT_EQ(eval("max(3, 1, 2)"), 3.0);
  EXPECT_EQ(eval("max(N, 2*N)", env), 20.0);
  EXPECT_EQ(eval("ceil(2.1)"), 3.0);
  EXPECT_EQ(eval("floor(2.9)"), 2.0);
  EXPECT_EQ(eval("floor(-2.1)"), -3.0);
  EXPECT_EQ(eval("log2(1024)"), 10.0);
  EXPECT_EQ(eval("sqrt(49)"), 7.0);
  EXPECT_EQ(eval("ceil_div(10, 3)"), 4.0);
  EXPECT_EQ(eval("ceil_div(9, 3)"), 3.0);
  EXPECT_EQ(eval("ceil_div(0, 3)"), 0.0);
  EXPECT_EQ(eval("ceil_div(-7, 2)"), -3.0);
  EXPECT_EQ(eval("ceil_div(2.5, 2)"), 2.0);  // not integers: the ceiling of the quotient
  EXPECT_EQ(eval("ceil_div(N, 4)*4", env), 12.0);
  EXPECT_EQ(eval("ceil_div(9007199254740991, 2)"), 4503599627370496.0);  // exact at 2^53 - 1
  EXPECT_EQ(eval("N*log2(N)/ 2", {{"N", 8}}), 12.0);
  EXPECT_EQ(eval("sqrt (16)"), 4.0);  // space before '(' is fine
}

TEST(Expr, Modulo) {
  EXPECT_EQ(eval("10%3"), 1.0);
  EXPECT_EQ(eval("-7%3"), -1.0);  // C semantics: the sign of the dividend
  EXPECT_EQ(eval("7.5%2"), 1.5);
}

// Constraints: comparisons and logic give 1 or 0, bind looser than arithmetic, && tighter than ||.
TEST(Expr, ComparisonsAndLogic) {
  Env env{{"k", 5}, {"N", 8}, {"C", 4}};
  EXPECT_EQ(eval("k <= N", env), 1.0);
  EXPECT_EQ(eval("k > N", env), 0.0);
  EXPECT_EQ(eval("N % C == 0", env), 1.0);
  EXPECT_EQ(eval("k != 5", env), 0.0);
  EXPECT_EQ(eval("k + 3 >= N", env), 1.0);
  EXPECT_EQ(eval("k < N && N < 2*C", env), 0.0);
  EXPECT_EQ(eval("k < N && N <= 2*C", env), 1.0);
  EXPECT_EQ(eval("0 && 1 || 1", env), 1.0);
  EXPECT_EQ(eval("1 || 0 && 0", env), 1.0);
  EXPECT_EQ(eval("!(k > N)", env), 1.0);
  EXPECT_EQ(eval("!0 + 1", env), 2.0);
  EXPECT_EQ(parse_error("k < N < C"), "in expression 'k < N < C': comparisons cannot be chained; combine them with && at column 7");
  EXPECT_EQ(parse_error("k = N"), "in expression 'k = N': expected '==' for equality at column 3");
  EXPECT_EQ(parse_error("k | N"), "in expression 'k | N': expected '||' at column 3");
}

TEST(Expr, ParseErrorsNameTextAndColumn) {
  EXPECT_EQ(parse_error("2*M*"), "in expression '2*M*': expected a number, name or '(' at column 5");
  EXPECT_EQ(parse_error(""), "in expression '': expected a number, name or '(' at column 1");
  EXPECT_EQ(parse_error("   "), "in expression '   ': expected a number, name or '(' at column 4");
  EXPECT_EQ(parse_error("2*)"), "in expression '2*)': expected a number, name or '(' at column 3");
  EXPECT_EQ(parse_error("(M+1"), "in expression '(M+1': expected ')' at column 5");
  EXPECT_EQ(parse_error("M N"),
            "in expression 'M N': unexpected 'N'; expected an operator (+ - * / % ^ < <= > >= == != && ||) or the end at column 3");
  EXPECT_EQ(parse_error("2M"),
            "in expression '2M': unexpected 'M'; expected an operator (+ - * / % ^ < <= > >= == != && ||) or the end at column 2");
  EXPECT_EQ(parse_error("M)"),
            "in expression 'M)': unexpected ')'; expected an operator (+ - * / % ^ < <= > >= == != && ||) or the end at column 2");
  EXPECT_EQ(parse_error("M & N"), "in expression 'M & N': expected '&&' at column 3");
  EXPECT_EQ(parse_error("M\x01"),
            "in expression 'M\x01': unexpected byte 0x01; expected an operator (+ - * / % ^ < <= > >= == != && ||) or the end at column 2");
  EXPECT_EQ(parse_error("1e"),
            "in expression '1e': unexpected 'e'; expected an operator (+ - * / % ^ < <= > >= == != && ||) or the end at column 2");
  EXPECT_EQ(parse_error("."), "in expression '.': expected digits around '.' at column 1");
  EXPECT_EQ(parse_error("1e999"), "in expression '1e999': number out of range at column 1");
  EXPECT_EQ(parse_error("min(1,"), "in expression 'min(1,': expected a number, name or '(' at column 7");
  EXPECT_EQ(parse_error("min(1 2)"), "in expression 'min(1 2)': expected ',' or ')' at column 7");
}

TEST(Expr, FunctionErrors) {
  EXPECT_EQ(parse_error("foo(1)"),
            "in expression 'foo(1)': unknown function 'foo'; expected one of min, max, ceil, floor, log2, sqrt, "
            "ceil_div at column 1");
  EXPECT_EQ(parse_error("1+min(2)"), "in expression '1+min(2)': min() takes at least 2 arguments, got 1 at column 3");
  EXPECT_EQ(parse_error("sqrt(1,2)"), "in expression 'sqrt(1,2)': sqrt() takes 1 argument, got 2 at column 1");
  EXPECT_EQ(parse_error("ceil_div(1)"), "in expression 'ceil_div(1)': ceil_div() takes 2 arguments, got 1 at column 1");
  EXPECT_EQ(parse_error("min()"), "in expression 'min()': expected a number, name or '(' at column 5");
}

TEST(Expr, EvalErrors) {
  EXPECT_EQ(eval_error("M*Q", {{"M", 1}}), "unknown name 'Q' in expression 'M*Q'");
  EXPECT_EQ(eval_error("N/(M-M)", {{"N", 1}, {"M", 2}}), "division by zero at column 2 in expression 'N/(M-M)'");
  EXPECT_EQ(eval_error("5%0"), "division by zero at column 2 in expression '5%0'");
  EXPECT_EQ(eval_error("ceil_div(5, 0)"), "division by zero at column 1 in expression 'ceil_div(5, 0)'");
  EXPECT_EQ(eval_error("sqrt(-1)"), "the result is not a finite number (nan) at column 1 in expression 'sqrt(-1)'");
  EXPECT_EQ(eval_error("log2(0)"), "the result is not a finite number (-inf) at column 1 in expression 'log2(0)'");
  EXPECT_EQ(eval_error("10^400"), "the result is not a finite number (inf) at column 3 in expression '10^400'");
  EXPECT_EQ(eval_error("1+0^-1"), "the result is not a finite number (inf) at column 4 in expression '1+0^-1'");
}

TEST(Expr, EvalSize) {
  Env env{{"N", 10}, {"M", 3}};
  EXPECT_EQ(Expr::parse("N*M").eval_size(env), 30);
  EXPECT_EQ(Expr::parse("N-10").eval_size(env), 0);
  EXPECT_EQ(Expr::parse("2^52").eval_size(env), std::int64_t{1} << 52);
  EXPECT_EQ(error_of([&] { Expr::parse("M-5").eval_size(env); }),
            "expression 'M-5' evaluates to -2; a size must be a non-negative integer");
  EXPECT_EQ(error_of([&] { Expr::parse("N/4").eval_size(env); }),
            "expression 'N/4' evaluates to 2.5; a size must be a non-negative integer");
  EXPECT_EQ(error_of([&] { Expr::parse("2^53").eval_size(env); }),
            "expression '2^53' evaluates to 9007199254740992; a size must be a non-negative integer");
  EXPECT_NO_THROW(Expr::parse("-0").eval_size(env));
}

TEST(Expr, Identifiers) {
  EXPECT_EQ(Expr::parse("2*M*N*K + M").identifiers(), (std::vector<std::string>{"M", "N", "K"}));
  EXPECT_EQ(Expr::parse("min(N, ceil_div(B, 32))").identifiers(), (std::vector<std::string>{"N", "B"}));
  EXPECT_TRUE(Expr::parse("2^10 + sqrt(4)").identifiers().empty());
}

TEST(Expr, CopiesShareTheTree) {
  Expr a = Expr::parse("N+1");
  Expr b = a;
  a = Expr::parse("7");
  EXPECT_EQ(b.text(), "N+1");
  EXPECT_EQ(b.eval({{"N", 1}}), 2.0);
  EXPECT_EQ(a.eval({}), 7.0);
}

TEST(Expr, HostileInputIsBounded) {
  // Nesting: parentheses, unary minus and chains of '^' all count.
  EXPECT_NO_THROW(Expr::parse(std::string(30, '(') + "1" + std::string(30, ')')));
  EXPECT_NE(parse_error(std::string(100, '(') + "1" + std::string(100, ')')).find("nesting deeper than 64 levels"),
            std::string::npos);
  EXPECT_NE(parse_error(std::string(100000, '(')).find("is 100000 characters long"), std::string::npos);
  EXPECT_NE(parse_error(std::string(1000, '-') + "1").find("nesting deeper than 64 levels"), std::string::npos);
  std::string tower = "2";
  for (int i = 0; i < 100; ++i) tower += "^2";
  EXPECT_NE(parse_error(tower).find("nesting deeper than 64 levels"), std::string::npos);
  EXPECT_NE(parse_error(std::string(5000, '1')).find("is 5000 characters long; the limit is 4096"), std::string::npos);

  // A long flat chain is fine: it is bounded by the length limit, not by the nesting one.
  std::string chain = "1";
  for (int i = 0; i < 2000; ++i) chain += "+1";
  EXPECT_EQ(eval(chain), 2001.0);
}

}  // namespace
