/** Every table, for drizzle's typed client and drizzle-kit's migration generator. */
export * from './tables/access';
export * from './tables/api-keys';
export * from './tables/auth-support';
export * from './tables/authentication-activity';
export * from './tables/books';
export * from './tables/covers';
export * from './tables/imports';
export * from './tables/libraries';
export * from './tables/lists';
export * from './tables/reading';
export * from './tables/series';
export * from './tables/sessions';
export * from './tables/settings';
export * from './tables/single-sign-on';
export * from './tables/tasks';
export * from './tables/user-preferences';
export * from './tables/users';
