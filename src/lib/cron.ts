/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), as a library's
 * `scanning_config.cron_schedule` takes them. Each field is `*`, a value, a range `a-b`, a step
 * (`*\/n`, `a-b/n`, `a/n`) or a comma list of those; months and weekdays also take English
 * three-letter names, weekday 7 is Sunday like 0. The `@hourly`-style macros expand to their fields.
 * Parsing returns the expanded value sets so a scheduler can match times without re-parsing.
 */

export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday … 6 = Saturday (a 7 in the expression is stored as 0). */
  daysOfWeek: ReadonlySet<number>;
  /** Whether the day-of-month / day-of-week field was `*`: cron ORs the two only when both are restricted. */
  anyDayOfMonth: boolean;
  anyDayOfWeek: boolean;
}

export type CronParseResult = { ok: true; schedule: CronSchedule } | { ok: false; error: string };

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  { name: 'day-of-week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

class CronError extends Error {}

export function parseCron(expression: string): CronParseResult {
  const trimmed = expression.trim();
  const text = MACROS[trimmed.toLowerCase()] ?? trimmed;
  const parts = text.split(/\s+/).filter(Boolean);
  if (parts.length !== FIELDS.length) {
    return {
      ok: false,
      error: `expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`,
    };
  }
  try {
    const [minutes, hours, daysOfMonth, months, daysOfWeek] = FIELDS.map((spec, i) => parseField(parts[i] ?? '', spec));
    const weekdays = new Set([...(daysOfWeek ?? [])].map((d) => d % 7));
    return {
      ok: true,
      schedule: {
        minutes: minutes ?? new Set(),
        hours: hours ?? new Set(),
        daysOfMonth: daysOfMonth ?? new Set(),
        months: months ?? new Set(),
        daysOfWeek: weekdays,
        anyDayOfMonth: parts[2]?.startsWith('*') ?? false,
        anyDayOfWeek: parts[4]?.startsWith('*') ?? false,
      },
    };
  } catch (error) {
    if (error instanceof CronError) return { ok: false, error: error.message };
    throw error;
  }
}

function parseField(field: string, spec: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const item of field.split(',')) {
    if (item === '') throw new CronError(`${spec.name}: empty list item in "${field}"`);
    const [range = '', stepText, extra] = item.split('/');
    if (extra !== undefined) throw new CronError(`${spec.name}: more than one "/" in "${item}"`);
    const step = stepText === undefined ? 1 : parseStep(stepText, spec);
    const [start, end] = parseRange(range, spec, stepText !== undefined);
    for (let value = start; value <= end; value += step) values.add(value);
  }
  return values;
}

function parseStep(text: string, spec: FieldSpec): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new CronError(`${spec.name}: step "${text}" must be a positive integer`);
  }
  return Number(text);
}

/** `*` → whole range; `a-b` → a..b; `a` → a..a, or a..max when followed by a step. */
function parseRange(text: string, spec: FieldSpec, stepped: boolean): [number, number] {
  if (text === '*') return [spec.min, spec.max];
  const bounds = text.split('-');
  if (bounds.length > 2) throw new CronError(`${spec.name}: bad range "${text}"`);
  const start = parseValue(bounds[0] ?? '', spec);
  if (bounds.length === 1) return [start, stepped ? spec.max : start];
  const end = parseValue(bounds[1] ?? '', spec);
  if (end < start) throw new CronError(`${spec.name}: range "${text}" runs backwards`);
  return [start, end];
}

function parseValue(text: string, spec: FieldSpec): number {
  const named = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return named + spec.min;
  if (!/^\d+$/.test(text)) throw new CronError(`${spec.name}: "${text}" is not a number`);
  const value = Number(text);
  if (value < spec.min || value > spec.max) {
    throw new CronError(`${spec.name}: ${value} is outside ${spec.min}-${spec.max}`);
  }
  return value;
}
