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
 * index.html's early-start script preloads the reader's chunk for a book opened by address: it needs the
 * chunk's hashed name, known only once the bundle is written.
 */
function readerChunkName(): Plugin {
  const placeholder = '%LONGBOX_READER_CHUNK%';
  return {
    name: 'longbox-reader-chunk-name',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunk = Object.values(context.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.facadeModuleId?.endsWith('/src/reader/index.tsx'),
        );
        return html.replace(placeholder, chunk ? `/${chunk.fileName}` : '');
      },
    },
  };
}

export default defineConfig({
  root,
  plugins: [preact(), swaggerDocsAssets(), readerChunkName()],
  build: {
    outDir: WEB_OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    // Hashed file names: cached for a year by the browser (src/web/web-assets.ts), never stale.
    assetsDir: 'assets',
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:8787' } },
});
