// The Free Trial's staff limit (docs/decisions/06-subscriptions.md): at most 10 staff, owner included; paid plans are unlimited.
import type { CompanyRow, DbOrTx } from '@bookwell/db';
import { AppError } from '../../lib/errors.ts';
import { hasStaffLimit } from '../companies/company.rules.ts';
import { countStaff } from './user.repository.ts';

export const TRIAL_STAFF_LIMIT = 10;

/**
 * Refuses one more staff member when the trial is full. Call inside the write transaction, after
 * `lockCompany`, so two admins adding the 10th and 11th at once cannot both pass.
 */
export async function assertRoomForOneMoreStaff(db: DbOrTx, company: CompanyRow): Promise<void> {
  if (!hasStaffLimit(company)) return;
  if ((await countStaff(db, company.id)) >= TRIAL_STAFF_LIMIT) {
    throw new AppError(
      'plan_limit',
      `The Free Trial includes up to ${TRIAL_STAFF_LIMIT} staff members (the owner included). Upgrade to Standard or Enterprise to add more staff.`,
    );
  }
}
