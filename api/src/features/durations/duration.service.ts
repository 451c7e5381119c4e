// The rules of durations: the global catalogue (global_admin edits it), what each company offers and
// its default, which is always one of the offered durations. Each write runs in one transaction.
import type { AuditContext } from '../../lib/audit-context.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Kysely } from 'kysely';
import type { Database, DbOrTx } from '@bookwell/db';
import type { Actor } from '../../lib/context.ts';
import { actingCompanyId, assertCompanyAccess, readCompanyId } from '../../lib/authorize.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { uniqueOr } from '../../lib/db-errors.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import {
  changeCompanyDurationOption,
  changeDurationOption,
  companiesDefaultingTo,
  companyOffersDuration,
  deleteCompanyDurationDefault,
  deleteCompanyDurationOption,
  deleteDurationOption,
  findCompanyDurationDefault,
  findCompanyDurationOption,
  findDefaultOfCompany,
  findDurationOption,
  findDurationOptionByMinutes,
  insertCompanyDurationOption,
  insertDurationOption,
  listCompanyDurationDefaults,
  listCompanyDurationOptions,
  listDurationOptions,
  lockCompanyDurations,
  setCompanyDefault,
  type CompanyDurationDefault,
  type CompanyDurationOption,
  type DurationOption,
} from './duration.repository.ts';
import type { CompanyDurationOptionInput, UpdateCompanyDurationDefaultInput } from './duration.schema.ts';

type Db = Kysely<Database>;

const CATALOGUE_NOT_FOUND = 'Duration option not found';
const OPTION_NOT_FOUND = 'Company duration option not found';
const DEFAULT_NOT_FOUND = 'Company duration default not found';
const COMPANY_NOT_FOUND = 'Company not found';
const NOT_OFFERED = 'The default duration must be one of the durations the company offers';

const inCatalogue = (minutes: number) => new AppError('conflict', `A duration option of ${minutes} minutes already exists`);
const alreadyOffered = (minutes: number) => new AppError('conflict', `The company already offers ${minutes} minutes`);

function found<T>(row: T | undefined, message: string): T {
  if (!row) throw notFound(message);
  return row;
}

// --- the global catalogue

export const listCatalogue = (db: Db) => listDurationOptions(db);

export async function getCatalogueEntry(db: Db, id: number): Promise<DurationOption> {
  return found(await findDurationOption(db, id), CATALOGUE_NOT_FOUND);
}

export async function addCatalogueEntry(db: Db, minutes: number): Promise<DurationOption> {
  return uniqueOr(
    () => insertDurationOption(db, minutes),
    () => inCatalogue(minutes),
  );
}

/** Company defaults of the old value move along (see changeDurationOption). */
export async function changeCatalogueEntry(db: Db, id: number, minutes: number): Promise<DurationOption> {
  return uniqueOr(
    () =>
      db.transaction().execute(async (trx) => {
        const option = found(await findDurationOption(trx, id), CATALOGUE_NOT_FOUND);
        if (option.duration_minutes === minutes) return option;
        if (await findDurationOptionByMinutes(trx, minutes)) throw inCatalogue(minutes);
        return changeDurationOption(trx, option, minutes);
      }),
    () => inCatalogue(minutes),
  );
}

/** Refused while some company has it as its default. */
export async function removeCatalogueEntry(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const option = found(await findDurationOption(trx, id), CATALOGUE_NOT_FOUND);
    const defaults = await companiesDefaultingTo(trx, option);
    if (defaults > 0) {
      throw new AppError(
        'conflict',
        `${option.duration_minutes} minutes is the default duration of ${defaults} ${defaults === 1 ? 'company' : 'companies'}; change their default first`,
      );
    }
    await deleteDurationOption(trx, option.id);
  });
}

// --- what a company offers

/** The company a public read is about, which must exist. */
async function readableCompany(db: Db, actor: Actor | null, requested: number | undefined): Promise<number> {
  const companyId = readCompanyId(actor, requested);
  if (!(await findCompanyById(db, companyId))) throw notFound(COMPANY_NOT_FOUND);
  return companyId;
}

/** The catalogue entry a body names, by id or by minutes (both may be given if they agree). */
async function catalogueEntry(db: Db, body: CompanyDurationOptionInput): Promise<DurationOption> {
  const { appointment_duration_option_id: id, duration_minutes: minutes } = body;
  if (id === undefined && minutes === undefined) throw badRequest('appointment_duration_option_id is required');
  const option = id !== undefined ? await findDurationOption(db, id) : await findDurationOptionByMinutes(db, minutes!);
  if (!option) {
    throw id !== undefined
      ? badRequest('Unknown appointment_duration_option_id')
      : badRequest(`No duration option of ${minutes} minutes exists; a global administrator can add it`);
  }
  if (minutes !== undefined && option.duration_minutes !== minutes)
    throw badRequest('appointment_duration_option_id and duration_minutes disagree');
  return option;
}

/** An offered duration that is the company default cannot go: the default must stay one of the offered durations. */
async function assertNotTheDefault(db: DbOrTx, row: CompanyDurationOption): Promise<void> {
  const current = await findDefaultOfCompany(db, row.company_id);
  if (current && current.default_appointment_duration === row.duration_minutes) {
    throw new AppError('conflict', `${row.duration_minutes} minutes is the company's default duration; choose another default first`);
  }
}

export async function listOffered(db: Db, actor: Actor | null, companyId: number | undefined): Promise<CompanyDurationOption[]> {
  return listCompanyDurationOptions(db, await readableCompany(db, actor, companyId));
}

export async function getOffered(db: Db, id: number): Promise<CompanyDurationOption> {
  return found(await findCompanyDurationOption(db, id), OPTION_NOT_FOUND);
}

export async function offerDuration(
  db: Db,
  actor: Actor,
  body: CompanyDurationOptionInput,
  who: AuditContext,
): Promise<CompanyDurationOption> {
  const companyId = actingCompanyId(actor, body.company_id);
  const option = await catalogueEntry(db, body);
  return uniqueOr(
    () =>
      db.transaction().execute(async (trx) => {
        if (!(await lockCompanyDurations(trx, companyId))) throw notFound(COMPANY_NOT_FOUND);
        if (await companyOffersDuration(trx, companyId, option.duration_minutes)) throw alreadyOffered(option.duration_minutes);
        const id = await insertCompanyDurationOption(trx, companyId, option.id);
        await recordAudit(trx, who, {
          company_id: companyId,
          action: 'create',
          entity: 'duration_option',
          entity_id: id,
          changes: { duration_minutes: { new: option.duration_minutes } },
        });
        return (await findCompanyDurationOption(trx, id))!;
      }),
    () => alreadyOffered(option.duration_minutes),
  );
}

/** Offers another catalogue duration instead; refused while the current one is the default. */
export async function changeOffered(
  db: Db,
  actor: Actor,
  id: number,
  body: CompanyDurationOptionInput,
  who: AuditContext,
): Promise<CompanyDurationOption> {
  const row = found(await findCompanyDurationOption(db, id), OPTION_NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  if (body.company_id !== undefined && body.company_id !== row.company_id)
    throw badRequest('An offered duration cannot move to another company');
  if (body.appointment_duration_option_id === undefined && body.duration_minutes === undefined) return row;
  const option = await catalogueEntry(db, body);
  if (option.id === row.appointment_duration_option_id) return row;
  return uniqueOr(
    () =>
      db.transaction().execute(async (trx) => {
        await lockCompanyDurations(trx, row.company_id);
        const current = found(await findCompanyDurationOption(trx, id), OPTION_NOT_FOUND);
        await assertNotTheDefault(trx, current);
        if (await companyOffersDuration(trx, row.company_id, option.duration_minutes)) throw alreadyOffered(option.duration_minutes);
        await changeCompanyDurationOption(trx, id, option.id);
        await recordAudit(trx, who, {
          company_id: row.company_id,
          action: 'update',
          entity: 'duration_option',
          entity_id: id,
          changes: { duration_minutes: { old: current.duration_minutes, new: option.duration_minutes } },
        });
        return (await findCompanyDurationOption(trx, id))!;
      }),
    () => alreadyOffered(option.duration_minutes),
  );
}

export async function stopOffering(db: Db, actor: Actor, id: number, who: AuditContext): Promise<void> {
  const row = found(await findCompanyDurationOption(db, id), OPTION_NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  await db.transaction().execute(async (trx) => {
    await lockCompanyDurations(trx, row.company_id);
    await assertNotTheDefault(trx, row);
    await deleteCompanyDurationOption(trx, row.id);
    await recordAudit(trx, who, {
      company_id: row.company_id,
      action: 'delete',
      entity: 'duration_option',
      entity_id: row.id,
      changes: { duration_minutes: { old: row.duration_minutes } },
    });
  });
}

// --- a company's default

export async function listDefaults(db: Db, actor: Actor | null, companyId: number | undefined): Promise<CompanyDurationDefault[]> {
  return listCompanyDurationDefaults(db, await readableCompany(db, actor, companyId));
}

export async function getDefault(db: Db, id: number): Promise<CompanyDurationDefault> {
  return found(await findCompanyDurationDefault(db, id), DEFAULT_NOT_FOUND);
}

export async function getDefaultOfCompany(db: Db, companyId: number): Promise<CompanyDurationDefault> {
  return found(await findDefaultOfCompany(db, companyId), DEFAULT_NOT_FOUND);
}

/** One default per company: sets it (`created` when the company had none). */
export async function setDefault(
  db: Db,
  actor: Actor,
  body: { company_id?: number; default_appointment_duration: number },
  who: AuditContext,
): Promise<{ row: CompanyDurationDefault; created: boolean }> {
  const companyId = actingCompanyId(actor, body.company_id);
  return db.transaction().execute(async (trx) => {
    if (!(await lockCompanyDurations(trx, companyId))) throw notFound(COMPANY_NOT_FOUND);
    if (!(await companyOffersDuration(trx, companyId, body.default_appointment_duration))) throw badRequest(NOT_OFFERED);
    const before = await findDefaultOfCompany(trx, companyId);
    const result = await setCompanyDefault(trx, companyId, body.default_appointment_duration);
    await auditDefault(trx, who, result.row, before?.default_appointment_duration ?? null);
    return result;
  });
}

export async function changeDefault(
  db: Db,
  actor: Actor,
  id: number,
  body: UpdateCompanyDurationDefaultInput,
  who: AuditContext,
): Promise<CompanyDurationDefault> {
  const row = found(await findCompanyDurationDefault(db, id), DEFAULT_NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  if (body.company_id !== undefined && body.company_id !== row.company_id) throw badRequest('A default cannot move to another company');
  const minutes = body.default_appointment_duration;
  if (minutes === undefined || minutes === row.default_appointment_duration) return row;
  return db.transaction().execute(async (trx) => {
    await lockCompanyDurations(trx, row.company_id);
    if (!(await companyOffersDuration(trx, row.company_id, minutes))) throw badRequest(NOT_OFFERED);
    const { row: updated } = await setCompanyDefault(trx, row.company_id, minutes);
    await auditDefault(trx, who, updated, row.default_appointment_duration);
    return updated;
  });
}

export async function removeDefault(db: Db, actor: Actor, id: number, who: AuditContext): Promise<void> {
  const row = found(await findCompanyDurationDefault(db, id), DEFAULT_NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  await db.transaction().execute(async (trx) => {
    await deleteCompanyDurationDefault(trx, row.id);
    await recordAudit(trx, who, {
      company_id: row.company_id,
      action: 'delete',
      entity: 'duration_default',
      entity_id: row.id,
      changes: { default_appointment_duration: { old: row.default_appointment_duration } },
    });
  });
}

/** A company default set or changed (docs/decisions/31-audit-log.md); nothing when it stayed the same. */
async function auditDefault(trx: DbOrTx, who: AuditContext, row: CompanyDurationDefault, before: number | null): Promise<void> {
  if (before === row.default_appointment_duration) return;
  await recordAudit(trx, who, {
    company_id: row.company_id,
    action: before === null ? 'create' : 'update',
    entity: 'duration_default',
    entity_id: row.id,
    changes: {
      default_appointment_duration:
        before === null ? { new: row.default_appointment_duration } : { old: before, new: row.default_appointment_duration },
    },
  });
}
