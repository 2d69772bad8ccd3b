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

export default defineConfig({
  root,
  plugins: [preact(), swaggerDocsAssets(), earlyStartScript()],
  build: {
    outDir: WEB_OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    // Hashed file names: cached for a year by the browser (src/web/web-assets.ts), never stale.
    assetsDir: 'assets',
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:8787' } },
});
