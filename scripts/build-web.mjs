#!/usr/bin/env node
// `npm run build:web`: builds the web app (web/, Vite) into dist/web, the directory wrangler.toml's
// [assets] serves; `npm start` and `npm test` run it first, since wrangler needs that directory to exist.
import { build } from 'vite';

const root = new URL('../web/', import.meta.url).pathname;
await build({ root, configFile: `${root}vite.config.ts`, logLevel: process.env.CI ? 'warn' : 'info' });
