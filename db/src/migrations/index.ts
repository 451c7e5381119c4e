// The ordered list of migrations. Listed statically (not read from a folder) so bundlers and
// tsx alike find them; a new migration is appended here with a later date prefix.
import type { Migration } from 'kysely';
import * as initial from './2026-11-22-001-initial.ts';
import * as bookingIntegrity from './2026-11-22-030-booking-integrity.ts';
import * as serviceTimeIndex from './2026-11-22-031-service-time-index.ts';
import * as outboxRender from './2026-11-22-032-outbox-render.ts';
import * as messagingSettings from './2026-11-25-040-messaging-settings.ts';
import * as manageToken from './2026-11-25-041-manage-token.ts';
import * as phoneE164 from './2026-11-25-042-phone-e164.ts';
import * as feedTokenHash from './2026-11-25-043-feed-token-hash.ts';
import * as messageKinds from './2026-11-25-044-message-kinds.ts';
import * as schedulingRules from './2026-11-25-050-scheduling-rules.ts';
import * as breaks from './2026-11-25-051-breaks.ts';
import * as availabilityGeneration from './2026-11-25-052-availability-generation.ts';
import * as auditLog from './2026-11-25-053-audit-log.ts';
import * as settingsGeneration from './2026-11-26-054-settings-generation.ts';
import * as rateLimitFunction from './2026-11-26-055-rate-limit-function.ts';
import * as employeeBusyIndex from './2026-11-26-056-employee-busy-index.ts';
import * as rateLimitBoundedCount from './2026-11-27-057-rate-limit-bounded-count.ts';
import * as staffIndex from './2026-11-27-058-staff-index.ts';
import * as appointmentServiceIds from './2026-11-28-059-appointment-service-ids.ts';
import * as serviceIdsTriggersOldSqlite from './2026-11-30-060-service-ids-triggers-old-sqlite.ts';
import * as oneBumpPerBooking from './2026-11-30-061-one-bump-per-booking.ts';
import * as serviceBookingsKeys from './2026-11-30-062-service-bookings-keys.ts';
import * as bumpFunctionsPlpgsql from './2026-11-30-063-bump-functions-plpgsql.ts';

export const migrations: Record<string, Migration> = {
  '2026-11-22-001-initial': initial,
  '2026-11-22-030-booking-integrity': bookingIntegrity,
  '2026-11-22-031-service-time-index': serviceTimeIndex,
  '2026-11-22-032-outbox-render': outboxRender,
  '2026-11-25-040-messaging-settings': messagingSettings,
  '2026-11-25-041-manage-token': manageToken,
  '2026-11-25-042-phone-e164': phoneE164,
  '2026-11-25-043-feed-token-hash': feedTokenHash,
  '2026-11-25-044-message-kinds': messageKinds,
  '2026-11-25-050-scheduling-rules': schedulingRules,
  '2026-11-25-051-breaks': breaks,
  '2026-11-25-052-availability-generation': availabilityGeneration,
  '2026-11-25-053-audit-log': auditLog,
  '2026-11-26-054-settings-generation': settingsGeneration,
  '2026-11-26-055-rate-limit-function': rateLimitFunction,
  '2026-11-26-056-employee-busy-index': employeeBusyIndex,
  '2026-11-27-057-rate-limit-bounded-count': rateLimitBoundedCount,
  '2026-11-27-058-staff-index': staffIndex,
  '2026-11-28-059-appointment-service-ids': appointmentServiceIds,
  '2026-11-30-060-service-ids-triggers-old-sqlite': serviceIdsTriggersOldSqlite,
  '2026-11-30-061-one-bump-per-booking': oneBumpPerBooking,
  '2026-11-30-062-service-bookings-keys': serviceBookingsKeys,
  '2026-11-30-063-bump-functions-plpgsql': bumpFunctionsPlpgsql,
};
