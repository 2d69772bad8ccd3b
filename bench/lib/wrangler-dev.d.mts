/** Types of wrangler-dev.mjs for benches written in TypeScript. */
export function killOnInterrupt(pid: number): () => void;
export function freePort(): Promise<number>;
export function tempStateDir(label: string): string;
export function applyMigrations(config: string, persistTo: string): void;
export function startWranglerDev(options: {
  config: string | string[];
  persistTo?: string;
  readyPath?: string;
  readyStatus?: number;
  vars?: Record<string, string>;
  registry?: string;
  timeoutMs?: number;
}): Promise<{ url: string; pid: number; stop(): Promise<void>; output(): string; errors(): string[] }>;
export function removeDir(dir: string): void;
