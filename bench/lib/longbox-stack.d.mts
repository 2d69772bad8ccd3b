/** Types of longbox-stack.mjs for benches written in TypeScript. */
import type { SourceConfigs } from './source-snapshot.mjs';

export function mapLimited(count: number, limit: number, fn: (index: number) => Promise<unknown>): Promise<void>;
export function startLongbox(options: {
  sources: SourceConfigs;
  data: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<{
  url: string;
  jobsUrl: string;
  pid: number;
  inspectorPort: number;
  jobsInspectorPort: number;
  batches: Array<Record<string, unknown>>;
  stop(): Promise<void>;
  tail(): string;
}>;
export function stackProcesses(
  rootPid: number,
): Array<{ pid: number; role: 'api' | 'jobs'; kind: 'runtime' | 'proxy' | 'wrangler' | 'other'; command: string }>;
export function residentBytes(pid: number): number;
export function residentBreakdown(pid: number): { heap: number; anon: number; file: number };
