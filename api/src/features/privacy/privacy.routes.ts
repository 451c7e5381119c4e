// The privacy calls (docs/decisions/32-privacy-and-operations.md): a person's data
// as JSON, and its erasure.
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { currentActor } from '../../lib/authorize.ts';
import { auditContext } from '../../lib/audit-context.ts';
import { IdParam } from '../../lib/validation.ts';
import { ErasureSchema, PersonExportSchema } from './privacy.schema.ts';
import { erasePerson, exportPerson } from './privacy.service.ts';

const exportUser = defineRoute({
  method: 'get',
  path: '/users/{id}/export',
  access: 'authenticated',
  tags: ['privacy'],
  summary:
    'All data held about a person, as JSON (profile, appointments, messages sent): the person themselves or an admin of their company',
  request: { params: IdParam },
  responses: { 200: jsonResponse(PersonExportSchema, 'Their data') },
});

const eraseUser = defineRoute({
  method: 'post',
  path: '/users/{id}/erase',
  access: 'authenticated',
  tags: ['privacy'],
  summary:
    'Erase a customer: name, email, phone and password removed, pending messages cancelled, appointments kept as "Deleted customer". The person, an admin of their company, or global_admin; erasing again answers 200',
  request: { params: IdParam },
  responses: { 200: jsonResponse(ErasureSchema, 'Erased') },
});

export const privacyRoutes = createRouter()
  .openapi(exportUser, async (c) => {
    const data = await exportPerson(c.get('deps'), currentActor(c), auditContext(c), c.req.valid('param').id);
    c.header('Cache-Control', 'no-store');
    c.header('Content-Disposition', `attachment; filename="bookwell-data-${data.profile.id}.json"`);
    return c.json(data, 200);
  })
  .openapi(eraseUser, async (c) =>
    c.json(await erasePerson(c.get('deps'), currentActor(c), auditContext(c), c.req.valid('param').id), 200),
  );
