/** Types of source-snapshot.mjs for benches written in TypeScript. */
export interface SourceConfigs {
  api: string;
  renderer: string;
  consumers: string;
  start: string;
}
export function snapshotSources(dir: string): SourceConfigs;
export function snapshotCommit(commit: string, dir: string): SourceConfigs;
