// GET /companies/{id}/messages and POST /companies/{id}/messages/{message_id}/retry (docs/decisions/10-reminders-and-sms.md):
// the company's admins and managers, and global_admin; another company's answers 404. GET
// /reminder-channels (anyone): whether this server sends SMS reminders, so the booking form offers
// the SMS box only where a text will follow.
import { z } from '@hono/zod-openapi';
import { smsConfigured } from '../../config.ts';
import { COMPANY_ADMINS_OR_GLOBAL, currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../lib/openapi.ts';
import { CompanyMessageParam, CompanyMessagesParam, ListMessagesQuery, OutboxMessageSchema } from './messages.schema.ts';
import { listMessages, retryMessage } from './messages.service.ts';

const tags = ['messages'];

const listRoute = defineRoute({
  method: 'get',
  path: '/companies/{id}/messages',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'companies',
  tags,
  summary: "The company's outbox, newest first (never a message body, token or link)",
  request: { params: CompanyMessagesParam, query: ListMessagesQuery },
  responses: { 200: jsonResponse(z.array(OutboxMessageSchema), 'Messages, newest first') },
});

const retryRoute = defineRoute({
  method: 'post',
  path: '/companies/{id}/messages/{message_id}/retry',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'companies',
  tags,
  summary: 'Put a failed or dead message back to pending (sent again at once)',
  request: { params: CompanyMessageParam },
  responses: {
    200: jsonResponse(OutboxMessageSchema, 'The message, pending again'),
    409: errorResponse('The message is not failed or dead'),
  },
});

const ReminderChannelsSchema = z
  .object({ email: z.literal(true), sms: z.boolean().describe('SMS reminders go out (SMS_PROVIDER=twilio) to customers who consent') })
  .openapi('ReminderChannels');

const channelsRoute = defineRoute({
  method: 'get',
  path: '/reminder-channels',
  access: 'public',
  tags,
  summary: 'The channels reminders go out on from this server: always email, SMS only where it is configured',
  responses: { 200: jsonResponse(ReminderChannelsSchema, 'The channels') },
});

export const messageRoutes = createRouter()
  .openapi(channelsRoute, (c) => {
    // Configuration, not data: the same for every caller until the server restarts.
    c.header('Cache-Control', 'public, max-age=300');
    return c.json({ email: true as const, sms: smsConfigured(c.get('deps').config) }, 200);
  })
  .openapi(listRoute, async (c) => {
    const { db } = c.get('deps');
    return c.json(await listMessages(db, currentActor(c), c.req.valid('param').id, c.req.valid('query')), 200);
  })
  .openapi(retryRoute, async (c) => {
    const { db, now, nudgeOutbox } = c.get('deps');
    const { id, message_id } = c.req.valid('param');
    const message = await retryMessage(db, currentActor(c), id, message_id, now());
    nudgeOutbox();
    return c.json(message, 200);
  });
