/**
 * The web app's build (DECISIONS.md §Web app): a static single-page app written to dist/web, the
 * directory wrangler.toml's [assets] serves. The API reference page's swagger-ui-dist files are copied
 * into dist/web/docs-assets, because a Worker has exactly one assets directory.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

const root = import.meta.dirname;
const repository = path.resolve(root, '..');
export const WEB_OUT_DIR = path.join(repository, 'dist', 'web');
/** The files src/openapi/docs.ts serves below the docs path. */
const SWAGGER_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];

function swaggerDocsAssets(): Plugin {
  return {
    name: 'longbox-docs-assets',
    apply: 'build',
    generateBundle() {
      for (const file of SWAGGER_FILES) {
        this.emitFile({
          type: 'asset',
          fileName: `docs-assets/${file}`,
          source: readFileSync(path.join(repository, 'node_modules', 'swagger-ui-dist', file)),
        });
      }
    },
  };
}

/**
 * The early-start script (src/early-start/early-start.js) for a book opened by address: a classic script
 * file, since the app's Content-Security-Policy forbids inline scripts (DECISIONS.md §Security). It preloads
 * the reader's chunk, whose hashed name is known only once the bundle is written, so the file is emitted
 * here with that name in it, under a hashed name of its own, and index.html gets its tag ahead of the app's.
 */
function earlyStartScript(): Plugin {
  const placeholder = '%LONGBOX_READER_CHUNK%';
  return {
    name: 'longbox-early-start',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunk = Object.values(bundle).find(
        (output) => output.type === 'chunk' && output.facadeModuleId?.endsWith('/src/reader/index.tsx'),
      );
      const source = readFileSync(path.join(root, 'src', 'early-start', 'early-start.js'), 'utf8');
      const reference = this.emitFile({
        type: 'asset',
        name: 'early-start.js',
        source: source.replace(placeholder, chunk ? `/${chunk.fileName}` : ''),
      });
      const page = bundle['index.html'];
      if (page?.type !== 'asset' || typeof page.source !== 'string') throw new Error('index.html was not built');
      const tag = `<script src="/${this.getFileName(reference)}"></script>`;
      page.source = page.source.replace('</head>', `  ${tag}\n  </head>`);
    },
  };
}

/**
 * foliate-js frames each EPUB section with `sandbox="allow-same-origin allow-scripts"` (paginator.js,
 * fixed-layout.js): its `blob:` documents share the app's origin, so with scripts allowed a book's script
 * could read the app's storage and call the API as the reader (issue 29). The frames keep
 * `allow-same-origin` (the reader lays out and styles the section's document from the app) and lose
 * `allow-scripts` (DECISIONS.md §Security). The build fails if foliate-js stops setting that value where
 * it is expected, so an upgrade cannot quietly bring it back; test/node/web-build.test.ts checks the
 * bundle. foliate-js asks for allow-scripts only for WebKit bug 218086: in Safari, listeners the app adds
 * to a sandboxed frame may not fire, so the reader's controls do not depend on them.
 */
const FOLIATE_FRAMES = ['paginator.js', 'fixed-layout.js'];
export function foliateSandbox(): Plugin {
  const unsafe = /(['"])allow-same-origin allow-scripts\1/g;
  return {
    name: 'longbox-foliate-sandbox',
    enforce: 'pre',
    transform(code, id) {
      const file = FOLIATE_FRAMES.find((name) => id.split('?')[0]?.endsWith(`/foliate-js/${name}`));
      if (!file) return null;
      const found = code.match(unsafe)?.length ?? 0;
      if (found !== 1) this.error(`foliate-js/${file}: expected one sandbox value to rewrite, found ${found}`);
      return { code: code.replace(unsafe, '$1allow-same-origin$1'), map: null };
    },
  };
}

export default defineConfig({
  root,
  plugins: [preact(), foliateSandbox(), swaggerDocsAssets(), earlyStartScript()],
  // foliate-js is served through the plugins above in development too, never pre-bundled around them.
  optimizeDeps: { exclude: ['foliate-js'] },
  build: {
    outDir: WEB_OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    // Hashed file names: cached for a year by the browser (src/web/web-assets.ts), never stale.
    assetsDir: 'assets',
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:8787' } },
});
