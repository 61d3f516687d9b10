#pragma once
// Arithmetic expressions over a challenge's scalar parameters: shapes ("M*K"), FLOPs ("2*M*N*K"), bytes.
// Grammar:  expr := and ('||' and)* ; and := cmp ('&&' cmp)* ; cmp := sum (('<'|'<='|'>'|'>='|'=='|'!=') sum)? ;
//           sum := term (('+'|'-') term)* ; term := unary (('*'|'/'|'%') unary)* ;
//           unary := '-' unary | '!' unary | power ; power := atom ('^' unary)? ;
//           atom := number | identifier | identifier '(' expr (',' expr)* ')' | '(' expr ')'
// Functions: min, max, ceil, floor, log2, sqrt, ceil_div(a,b). Evaluation is in double: shape users check the result
// is a non-negative integer (Expr::eval_size). Comparisons and logic give 1 or 0 (constraints: "k <= N").
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "judge/core/base/error.hpp"

namespace judge {

using Env = std::map<std::string, double>;

class ExprError : public Error {
 public:
  using Error::Error;
};

class Expr {
 public:
  struct Node;
  Expr();  // the constant 0
  // Throws ExprError naming the text and the column of the problem.
  static Expr parse(const std::string& text);
  // Throws ExprError for an unknown identifier, division by zero or a non-finite result.
  double eval(const Env& env) const;
  // eval, then checks the result is an integer in [0, 2^53). Throws ExprError otherwise.
  std::int64_t eval_size(const Env& env) const;
  // Identifiers the expression uses (for validating against the parameter list).
  std::vector<std::string> identifiers() const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace judge
