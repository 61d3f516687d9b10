#pragma once
// What the judge says about a wrong output: how many elements are wrong and how, the largest errors, the first
// mismatch, and, when the pattern of the wrong values points at one, the mistake that most likely made them.
// Host-only, so the wording is tested without a GPU; the worker builds its wrong-answer messages with it.
#include <string>

#include "judge/core/measure/result.hpp"

namespace judge {

// "C: 3 of 7 elements wrong (1 never written); max abs error 0.5, max rel error 0.25; first at C[2] (index 2): got
// 1.5, expected 2", followed by likely_cause(o) when there is one.
std::string describe_wrong_output(const OutputCheck& o);

// The likely mistake behind the wrong values, or empty. Today one pattern: every wrong element that was written is
// NaN where the reference is finite, the signature of accumulating (atomicAdd, +=) into an output that was never
// zeroed, since the judge hands solve() outputs filled with NaN.
std::string likely_cause(const OutputCheck& o);

}  // namespace judge
