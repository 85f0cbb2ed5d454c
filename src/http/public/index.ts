// The public side of the web app, no login: pages, their files, feeds and the JSON API, each an
// encapsulated plugin, so that no hook of one reaches another.
import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../api/api.ts';
import { publicFeeds, type FeedOptions } from './feeds.ts';
import { publicFiles } from './files.ts';
import { publicPages } from './pages.ts';
import { unsubscribeRoutes } from './unsubscribe.ts';

export async function publicRoutes(app: FastifyInstance, opts: FeedOptions): Promise<void> {
  await app.register(publicPages, opts);
  await app.register(publicFiles, opts);
  await app.register(publicFeeds, opts);
  await app.register(apiRoutes, opts);
  await app.register(unsubscribeRoutes);
}
