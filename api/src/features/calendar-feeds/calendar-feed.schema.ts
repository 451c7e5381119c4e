// Request and response shapes of the calendar feed calls (docs/decisions/07-notifications-and-calendar-sync.md).
import { z } from '@hono/zod-openapi';

export const FeedUrlSchema = z
  .object({ url: z.string().openapi({ example: 'https://book.example.com/api/calendar/3q2-7wEXAMPLEtokenx9Yk0sQvXb1mN4cT8uJh6LdRf.ics' }) })
  .openapi('CalendarFeedUrl');

/** `<token>.ics`: anything else answers 404 like an unknown token, never 400 (the URL is all a calendar app has). */
export const FeedFileParam = z.object({
  token: z.string().openapi({ param: { name: 'token', in: 'path' }, description: 'The secret token followed by .ics', example: 'abc.ics' }),
});
