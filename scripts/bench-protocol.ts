/**
 * What a `packages/<pkg>/bench/*.bench.ts` module exports for `pnpm bench` (scripts/bench.mjs):
 * `export const benchmarks: Benchmark[]`.
 */
export interface BenchResult {
  name: string
  value: number
  unit: string
  /** The figure to reach (DESIGN §9), shown as met or MISSED. */
  target?: number
  /** Whether lower values are better (latencies); higher by default. */
  better?: 'higher' | 'lower'
  note?: string
}

/** One benchmark: a name and a run returning its measured figures. */
export interface Benchmark {
  name: string
  run(): Promise<BenchResult[]>
}
