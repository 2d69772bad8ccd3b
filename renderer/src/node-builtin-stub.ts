/**
 * Stand-in for `fs` and `path` (renderer/wrangler.toml [alias]): the libjpeg-turbo glue is CommonJS and
 * names them in its Node branch, which never runs here (see emscripten.ts), so the bundle need not import
 * Node built-ins that a worker without nodejs_compat may not have.
 */
export default {};
