// The calendar feed calls (docs/decisions/07-notifications-and-calendar-sync.md, docs/decisions/24-calendar-feeds.md): the feed itself,
// public because its token is the secret, and the URLs its owners see and regenerate.
import { z } from '@hono/zod-openapi';
import { STAFF_ROLES } from '@bookwell/db';
import { COMPANY_ADMINS_OR_GLOBAL, currentActor } from '../../lib/authorize.ts';
import { AppError } from '../../lib/errors.ts';
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { consume } from '../../lib/rate-limit.ts';
import { IdParam } from '../../lib/validation.ts';
import { FeedFileParam, FeedUrlSchema } from './calendar-feed.schema.ts';
import { companyFeedUrl, matchesEtag, myFeedUrl, regenerateCompanyFeed, regenerateMyFeed, renderFeed } from './calendar-feed.service.ts';

const RATE_LIMITED = 'Too many calendar requests. Please wait a minute and try again.';
/** Calendar apps poll on their own schedule; a short private cache spares us their bursts. */
const CACHE_CONTROL = 'private, max-age=300';

const feed = defineRoute({
  method: 'get',
  path: '/calendar/{token}',
  access: 'public',
  tags: ['calendar-feeds'],
  summary:
    "The iCalendar feed of a secret URL (/api/calendar/<token>.ics): a staff member's appointments or all of a company's, 60 days back to a year ahead, cancelled ones left out",
  request: { params: FeedFileParam },
  responses: {
    200: { description: 'The feed', content: { 'text/calendar': { schema: z.string() } } },
    304: { description: 'Unchanged since the ETag sent in If-None-Match' },
  },
});

const getMine = defineRoute({
  method: 'get',
  path: '/me/calendar-feed',
  access: STAFF_ROLES,
  tags: ['calendar-feeds'],
  summary: "The caller's own feed URL (appointments they are the employee of), created on first use",
  responses: { 200: jsonResponse(FeedUrlSchema, 'The feed URL') },
});

const regenerateMine = defineRoute({
  method: 'post',
  path: '/me/calendar-feed',
  access: STAFF_ROLES,
  tags: ['calendar-feeds'],
  summary: "A new URL for the caller's feed: the old one answers 404 from now on",
  responses: { 200: jsonResponse(FeedUrlSchema, 'The new feed URL') },
});

const getCompanyFeed = defineRoute({
  method: 'get',
  path: '/companies/{id}/calendar-feed',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'companies',
  tags: ['calendar-feeds'],
  summary: "The company's feed URL (all of its appointments), created on first use",
  request: { params: IdParam },
  responses: { 200: jsonResponse(FeedUrlSchema, 'The feed URL') },
});

const regenerateCompany = defineRoute({
  method: 'post',
  path: '/companies/{id}/calendar-feed',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'companies',
  tags: ['calendar-feeds'],
  summary: "A new URL for the company's feed: the old one answers 404 from now on",
  request: { params: IdParam },
  responses: { 200: jsonResponse(FeedUrlSchema, 'The new feed URL') },
});

export const calendarFeedRoutes = createRouter()
  .openapi(feed, async (c) => {
    const deps = c.get('deps');
    // Counted before the token is looked up, so guessing tokens costs the guesser the same limit.
    if (!(await consume(deps.db, 'calendar-feed', c.get('clientIp'), deps.config.RATE_LIMIT_PUBLIC, 60_000, deps.now()))) {
      throw new AppError('rate_limited', RATE_LIMITED, { headers: { 'Retry-After': '60' } });
    }
    const rendered = await renderFeed(deps, c.req.valid('param').token);
    const headers = {
      ETag: rendered.etag,
      'Last-Modified': rendered.lastModified.toUTCString(),
      'Cache-Control': CACHE_CONTROL,
      // The URL is the secret: never pass it on as a referrer.
      'Referrer-Policy': 'no-referrer',
    };
    if (matchesEtag(c.req.header('if-none-match'), rendered.etag)) return c.body(null, 304, headers);
    return c.body(rendered.body, 200, { ...headers, 'Content-Type': 'text/calendar; charset=utf-8' });
  })
  .openapi(getMine, async (c) => c.json(await myFeedUrl(c.get('deps'), currentActor(c)), 200))
  .openapi(regenerateMine, async (c) => c.json(await regenerateMyFeed(c.get('deps'), currentActor(c)), 200))
  .openapi(getCompanyFeed, async (c) => c.json(await companyFeedUrl(c.get('deps'), currentActor(c), c.req.valid('param').id), 200))
  .openapi(regenerateCompany, async (c) =>
    c.json(await regenerateCompanyFeed(c.get('deps'), currentActor(c), c.req.valid('param').id), 200),
  );
