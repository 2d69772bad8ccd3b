/** Types of report.mjs for benches written in TypeScript. */
export const ROOT: string;
export const BENCHMARKS_MD: string;
export function percentile(values: number[], p: number): number;
export function summarize(values: number[]): { n: number; median: number; p95: number; min: number; max: number };
export function markdownTable(headers: string[], rows: string[][]): string;
export function environmentLines(command: string): string[];
export function writeSection(title: string, body: string): void;
export function ms(value: number): string;
export function us(value: number): string;
