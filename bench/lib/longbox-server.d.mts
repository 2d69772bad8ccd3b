/** Types of longbox-server.mjs for benches written in TypeScript. */
import type { SourceConfigs } from './source-snapshot.mjs';

export function startLongbox(options: {
  sources: Pick<SourceConfigs, 'api' | 'consumers' | 'renderer'>;
  persistTo: string;
  vars?: Record<string, string>;
}): Promise<{ url: string; jobsUrl: string; output(): string; errors(): string[]; stop(): Promise<void> }>;
