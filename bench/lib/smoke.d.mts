/** Types of smoke.mjs for benches written in TypeScript. */
export const SMOKE: boolean;
export function sized<T>(full: T, smoke: T): T;
