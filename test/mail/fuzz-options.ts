// Settings shared by the fuzzers: a fixed seed, a bounded number of inputs in CI, and millions by
// hand:  FUZZ_RUNS=1000000 FUZZ_SEED=7 npx vitest run --project unit test/mail/fuzz-
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 0);
/** Runs for one property: its CI share, or FUZZ_RUNS when given. */
export const runs = (ci: number): number => (FUZZ_RUNS > 0 ? FUZZ_RUNS : ci);
/** The test timeout: the default guard in CI, none worth speaking of by hand. */
export const fuzzTimeout = (ci: number): number => (FUZZ_RUNS > 0 ? 24 * 3600_000 : ci);
