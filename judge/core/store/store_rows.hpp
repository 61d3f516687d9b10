#pragma once
// What a row of each query the stores share means, written once: both stores select the same columns in the same
// order (leaderboard_sqlite.cpp, leaderboard_postgres.cpp), and each reads its rows through these with a view of one
// row that has integer(column), real(column), text(column) and boolean(column).
#include <cstdint>
#include <string>

#include "judge/core/store/leaderboard.hpp"
#include "judge/core/store/leaderboard_store.hpp"

namespace judge::store {

// id, challenge, user, gpu_name, compute_capability, created_at, score_ms, source_hash, source, judge_version,
// protections, run_key (its cases are read apart).
template <class Row>
SubmissionRecord submission_from(const Row& row) {
  SubmissionRecord s;
  s.id = row.integer(0);
  s.challenge = row.text(1);
  s.user = row.text(2);
  s.gpu_name = row.text(3);
  s.compute_capability = row.text(4);
  s.created_at = row.text(5);
  s.score_ms = row.real(6);
  s.source_hash = row.text(7);
  s.source = row.text(8);
  s.judge_version = row.text(9);
  s.protections = protections_from_text(row.text(10));
  s.run_key = row.text(11);
  return s;
}

// From column `first` on: name, median_ms, min_ms, spread_pct, samples, gflops, gbps, reference_ms, stress, verdict,
// beyond.
template <class Row>
CaseRecord case_from(const Row& row, int first) {
  CaseRecord c;
  c.name = row.text(first);
  c.median_ms = row.real(first + 1);
  c.min_ms = row.real(first + 2);
  c.spread_pct = row.real(first + 3);
  c.samples = static_cast<int>(row.integer(first + 4));
  c.gflops = row.real(first + 5);
  c.gbps = row.real(first + 6);
  c.reference_ms = row.real(first + 7);
  c.stress = row.boolean(first + 8);
  c.verdict = row.text(first + 9);
  c.beyond = row.text(first + 10);
  return c;
}

// rank, user, score_ms, id, created_at, attempts.
template <class Row>
RankingEntry ranking_entry_from(const Row& row) {
  RankingEntry e;
  e.rank = static_cast<int>(row.integer(0));
  e.user = row.text(1);
  e.score_ms = row.real(2);
  e.submission_id = row.integer(3);
  e.created_at = row.text(4);
  e.attempts = static_cast<int>(row.integer(5));
  return e;
}

// challenge, gpu_name, the leader's user, score_ms, id, created_at, users, submissions.
template <class Row>
BoardSummary board_from(const Row& row) {
  BoardSummary b;
  b.challenge = row.text(0);
  b.gpu_name = row.text(1);
  b.leader = row.text(2);
  b.score_ms = row.real(3);
  b.submission_id = row.integer(4);
  b.created_at = row.text(5);
  b.users = static_cast<int>(row.integer(6));
  b.submissions = static_cast<int>(row.integer(7));
  return b;
}

}  // namespace judge::store
