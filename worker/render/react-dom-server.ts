import type { renderToReadableStream as RenderToReadableStream } from 'react-dom/server';

/**
 * What the worker's bundles get for `react-dom/server` (wrangler.toml [alias]): React's streaming
 * renderer alone, in the build that matches React's own. The package's edge entry also requires
 * the legacy renderToString, 100 KB no request runs (screens/layout/Island.tsx renders islands
 * with the streaming renderer). Chosen by NODE_ENV as that entry chooses, which wrangler sets:
 * `wrangler dev` (npm start) runs React's development build, a deploy its production one, and a
 * production renderer beside a development React fails on the first page it draws.
 */
declare const require: (id: string) => { renderToReadableStream: typeof RenderToReadableStream };
/** Replaced by wrangler's bundler with the build's mode; no such object exists at run time. */
declare const process: { env: { NODE_ENV?: string } };

const server =
  process.env.NODE_ENV === 'production'
    ? require('../../node_modules/react-dom/cjs/react-dom-server.edge.production.js')
    : require('../../node_modules/react-dom/cjs/react-dom-server.edge.development.js');

export const renderToReadableStream = server.renderToReadableStream;
