/** The fake providers on a loopback port (node-server.mjs). */
export function startFakeProviders(root: string): Promise<{
  url: string;
  vars: Record<string, string>;
  stop(): Promise<void>;
}>;
