/**
 * Scans nobody asked for by hand (API.md §2 scanning_config): `cron_schedule` is matched every minute
 * by the worker's cron trigger (UTC), and `scan_on_start` libraries are scanned once per deployed
 * version — on its first cron tick or first request, whichever comes first.
 */
import { type CronSchedule, parseCron } from '../lib/cron';
import type { Database } from '../db/client';
import { LibrariesRepository, type LibraryRecord } from '../repositories/libraries.repository';
import { SettingsRepository } from '../repositories/settings.repository';
import { TasksRepository } from '../repositories/tasks.repository';
import { ScanService } from './scan.service';
import { AppError } from '../lib/errors';

export function cronMatches(schedule: CronSchedule, at: Date): boolean {
  const dayOfMonth = schedule.daysOfMonth.has(at.getUTCDate());
  const dayOfWeek = schedule.daysOfWeek.has(at.getUTCDay());
  // Cron ORs the two day fields when both are restricted, otherwise the restricted one decides.
  const dayMatches =
    schedule.anyDayOfMonth || schedule.anyDayOfWeek ? dayOfMonth && dayOfWeek : dayOfMonth || dayOfWeek;
  return (
    schedule.minutes.has(at.getUTCMinutes()) &&
    schedule.hours.has(at.getUTCHours()) &&
    schedule.months.has(at.getUTCMonth() + 1) &&
    dayMatches
  );
}

async function startAll(db: Database, env: Env, targets: LibraryRecord[]): Promise<string[]> {
  const scans = new ScanService(env.LIBRARY_SCAN, new LibrariesRepository(db), new TasksRepository(db));
  const started: string[] = [];
  for (const library of targets) {
    try {
      await scans.startScheduled(library, library.scanningConfig.default_mode);
      started.push(library.id);
    } catch (error) {
      // Already scanning (409) is fine: the running scan covers it.
      if (!(error instanceof AppError && error.kind === 'Conflict')) throw error;
    }
  }
  return started;
}

export async function runScheduledScans(db: Database, env: Env, at: Date): Promise<string[]> {
  const due = (await new LibrariesRepository(db).allForSystem()).filter((library) => {
    const config = library.scanningConfig;
    if (!config.enabled || !config.cron_schedule) return false;
    const parsed = parseCron(config.cron_schedule);
    return parsed.ok && cronMatches(parsed.schedule, at);
  });
  return startAll(db, env, due);
}

/** Runs at most once per deployed version (the marker row is claimed atomically). */
export async function runStartupScans(db: Database, env: Env, versionId: string): Promise<string[]> {
  const marker = crypto.randomUUID();
  const claimed = await new SettingsRepository(db).ensureServerSecret(
    `scan_on_start:${versionId}`,
    marker,
    new Date().toISOString(),
  );
  if (claimed !== marker) return [];
  const due = (await new LibrariesRepository(db).allForSystem()).filter(
    (library) => library.scanningConfig.enabled && library.scanningConfig.scan_on_start,
  );
  return startAll(db, env, due);
}
