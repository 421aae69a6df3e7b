/** What every scenario hands back to bench/run.ts. */

export interface Figure {
  /** Section of the table: read, write, draw, leaderboard, web, startup. */
  section: string;
  name: string;
  /** null when the figure could not be measured (see note). */
  value: number | null;
  unit: string;
  /** Shown instead of value + unit (e.g. "ok"). */
  display?: string;
  /** The budget (docs/decisions.md#budgets), in words, when this figure has one. */
  budget?: string;
  /** true/false against the budget; undefined for figures without one. */
  pass?: boolean;
  note?: string;
}

export interface ScenarioResult {
  figures: Figure[];
  /** Raw measurements for bench/results/latest.json. */
  details: Record<string, unknown>;
  /** Broken invariants (oversold game, ledger check, wrong status codes): never timings. */
  problems: string[];
}

export interface RunOptions {
  quick: boolean;
  /** Where logs and scratch files of this run go. */
  workDir: string;
  log: (message: string) => void;
}
