/** Types of benchmarks/verdict.js (plain JS so the benchmark scripts run without a build step). */
export declare const median: (xs: readonly number[]) => number;
export declare function verdict(a: readonly number[], b: readonly number[], limit?: number): { ratio: number; fails: boolean; verdict: string };
