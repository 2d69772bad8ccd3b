// Types for the generated eval-free glue (scripts/patch-unrar.mjs); only what unrar-engine.ts uses.
declare const createUnrarModule: (options: Record<string, unknown>) => Promise<unknown>;
export default createUnrarModule;
