/**
 * A stylesheet imported for its effect (console/main.tsx): Vite bundles it and links it from the
 * page. Declared so the type check knows the import is meant, as it asks of every side-effect
 * import since TypeScript 6.
 */
declare module '*.css';
