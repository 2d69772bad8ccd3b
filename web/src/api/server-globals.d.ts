/**
 * types.ts infers wire types from the server's zod schemas; following their imports, the compiler
 * reaches a repository that names the Workers D1 binding type. The browser never uses it: an opaque
 * stand-in keeps the DOM-typed web build from pulling in the Workers runtime types.
 */
interface D1Database {
  readonly __d1: unique symbol;
}
