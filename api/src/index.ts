// The API package's public surface for scripts and tests.
export { createApp, openApiDocument, type AppType } from './app.ts';
export { startServer, buildDeps, type RunningServer } from './bootstrap.ts';
export { loadConfig, type Config } from './config.ts';
