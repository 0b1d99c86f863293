/**
 * Five-field cron schedules (`minute hour day-of-month month day-of-week`) read in an IANA time zone, and the slots
 * they give: {@link parseSchedule}, then {@link CronSchedule.next} and {@link CronSchedule.latest}. Pure: time zones
 * come from `Intl.DateTimeFormat` (the runtime's ICU data), nothing else is read.
 *
 * The syntax is Vixie cron's (`man 5 crontab`):
 * - each field is a comma list of `*`, a value `a`, a range `a-b`, each optionally followed by a step `/n`; `a/n`
 *   means `a-<max>/n`. Minutes 0–59, hours 0–23, days of the month 1–31, months 1–12 or `JAN`–`DEC`, days of the week
 *   0–7 (0 and 7 are Sunday) or `SUN`–`SAT`. Names are case-insensitive and may stand wherever a number may (also in
 *   ranges, as cronie allows). Macros (`@daily`) and Quartz extensions (`?`, `L`, `W`, `#`, seconds) are refused.
 * - Day of the month and day of the week: when both are restricted (neither field starts with `*`), a day matches
 *   when EITHER matches (`0 0 1,15 * MON` fires on the 1st, the 15th and every Monday); when one starts with `*`
 *   (including `*` with a step, as in Vixie cron), both must match, which means the other field alone decides.
 * - A schedule that can never fire (`0 0 30 2 *`) is refused.
 *
 * Slots are wall-clock times in the zone. Daylight-saving changes (tested with Europe/Berlin):
 * - A gap (the clock jumps from 02:00 to 03:00): a slot whose wall time does not exist that day is taken at the first
 *   instant after the gap (03:00 local), once, however many slots fell into the gap; a slot at 03:00 is the same one.
 * - An overlap (the clock goes back from 03:00 to 02:00, so 02:xx happens twice): a slot in the repeated hour is taken
 *   at its first occurrence only, unless the hour field starts with `*` (a schedule that fires every hour, or every
 *   n hours), which fires in both passes, as Vixie cron runs wildcard jobs normally around a change.
 */

/** The five fields, in order, with their ranges. */
const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** How far {@link CronSchedule.next} and {@link CronSchedule.latest} search: longer than any gap between two slots (29 February across a non-leap century year is 8 years apart). */
const SEARCH_DAYS = 366 * 9;
/** Wider than any UTC offset (±14 h) plus a change's size: a local date's offsets are read this far either side of it. */
const OFFSET_PROBE_MS = 30 * 3_600_000;

/** A parsed field: the values it allows, and whether it starts with `*` (the OR rule and the overlap rule read that). */
interface Field {
  readonly values: ReadonlySet<number>;
  readonly star: boolean;
}

/** The outcome of {@link parseSchedule}: a schedule, or a message for an `InvalidSpec` condition. */
export type ScheduleResult = { readonly ok: true; readonly schedule: CronSchedule } | { readonly ok: false; readonly message: string };

/** A wall-clock time with its fields as numbers (month 1–12). */
interface Wall {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

/**
 * Parses `expression` (five fields separated by blanks) read in `timeZone` (an IANA name such as `Europe/Berlin`;
 * default `UTC`). Never throws: an invalid expression, a schedule that never fires and an unknown zone give
 * `{ ok: false, message }` naming the field and the value. Pure.
 */
export function parseSchedule(expression: string, timeZone = 'UTC'): ScheduleResult {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5 || parts[0] === '') {
    return { ok: false, message: `schedule ${quote(expression)} must have five fields (minute hour day-of-month month day-of-week), found ${parts[0] === '' ? 0 : parts.length}` };
  }
  const fields: Field[] = [];
  for (const [i, spec] of FIELDS.entries()) {
    const field = parseField(parts[i] ?? '', spec, i === 3 ? MONTH_NAMES : i === 4 ? DAY_NAMES : undefined, i === 3 ? 1 : 0);
    if (typeof field === 'string') return { ok: false, message: `schedule ${quote(expression)}: ${spec.name} field ${quote(parts[i] ?? '')} ${field}` };
    fields.push(field);
  }
  const [minute, hour, dayOfMonth, month, rawDayOfWeek] = fields as [Field, Field, Field, Field, Field];
  // 7 is another name for Sunday.
  const dayOfWeek: Field = { star: rawDayOfWeek.star, values: new Set([...rawDayOfWeek.values].map((d) => d % 7)) };
  const zone = zoneFormat(timeZone);
  if (typeof zone === 'string') return { ok: false, message: zone };
  const schedule = new CronSchedule(expression.trim(), timeZone, zone, { minute, hour, dayOfMonth, month, dayOfWeek });
  if (!schedule.canFire()) return { ok: false, message: `schedule ${quote(expression)} never fires: no month it names has the days of the month it names` };
  return { ok: true, schedule };
}

/**
 * A parsed schedule in its zone. Immutable; its methods are pure (they read only the zone's rules).
 */
export class CronSchedule {
  /** The expression as given (trimmed). */
  readonly expression: string;
  /** The IANA zone it is read in. */
  readonly timeZone: string;
  readonly #zone: Intl.DateTimeFormat;
  readonly #hour: Field;
  readonly #dayOfMonth: Field;
  readonly #month: Field;
  readonly #dayOfWeek: Field;
  readonly #minutes: readonly number[];
  readonly #hours: readonly number[];
  /** {@link CronSchedule.#offsetsAround} per local date: only a cache (the zone's rules do not change while it runs). */
  readonly #days = new Map<number, DayOffsets>();

  /** Use {@link parseSchedule}. */
  constructor(
    expression: string,
    timeZone: string,
    zone: Intl.DateTimeFormat,
    fields: { readonly minute: Field; readonly hour: Field; readonly dayOfMonth: Field; readonly month: Field; readonly dayOfWeek: Field },
  ) {
    this.expression = expression;
    this.timeZone = timeZone;
    this.#zone = zone;
    this.#hour = fields.hour;
    this.#dayOfMonth = fields.dayOfMonth;
    this.#month = fields.month;
    this.#dayOfWeek = fields.dayOfWeek;
    this.#minutes = [...fields.minute.values].sort((a, b) => a - b);
    this.#hours = [...fields.hour.values].sort((a, b) => a - b);
  }

  /** The first slot strictly after `after`, or `undefined` when none comes within nine years (cannot happen for a parsed schedule). */
  next(after: Date): Date | undefined {
    const t = after.getTime();
    const start = this.#localDay(t) - DAY_MS;
    let best: number | undefined;
    let daysAfterFound = 0;
    for (let i = 0; i < SEARCH_DAYS; i++) {
      for (const instant of this.#instantsOfDay(start + i * DAY_MS)) {
        if (instant > t && (best === undefined || instant < best)) best = instant;
      }
      // The instants of adjacent days can interleave around a time change: look one day further before deciding.
      if (best !== undefined && ++daysAfterFound > 1) break;
    }
    return best === undefined ? undefined : new Date(best);
  }

  /**
   * The latest slot at or before `atOrBefore`; with `notBefore`, only a slot at or after it counts (a policy created at
   * 12:00:30 has no slot at 12:00). `undefined` when there is none in that window (or within nine years).
   */
  latest(atOrBefore: Date, notBefore?: Date): Date | undefined {
    const t = atOrBefore.getTime();
    const floor = notBefore?.getTime() ?? Number.NEGATIVE_INFINITY;
    const start = this.#localDay(t) + DAY_MS;
    let best: number | undefined;
    let daysAfterFound = 0;
    for (let i = 0; i < SEARCH_DAYS; i++) {
      const day = start - i * DAY_MS;
      // A local day's instants lie within a day and a half of its UTC midnight.
      if (day + 2 * DAY_MS < floor) break;
      for (const instant of this.#instantsOfDay(day)) {
        if (instant <= t && instant >= floor && (best === undefined || instant > best)) best = instant;
      }
      if (best !== undefined && ++daysAfterFound > 1) break;
    }
    return best === undefined ? undefined : new Date(best);
  }

  /** Whether some month it names has one of the days of the month it names (only then can a day-of-month-only schedule fire). */
  canFire(): boolean {
    if (!this.#dayOfMonth.star && !this.#dayOfWeek.star) return true;
    if (this.#dayOfMonth.star) return true;
    const longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    return [...this.#month.values].some((m) => [...this.#dayOfMonth.values].some((d) => d <= (longest[m - 1] ?? 0)));
  }

  /** Whether the calendar day at UTC midnight `dayMs` (standing for a local date) matches the day fields. */
  #dayMatches(dayMs: number): boolean {
    const date = new Date(dayMs);
    if (!this.#month.values.has(date.getUTCMonth() + 1)) return false;
    const dom = this.#dayOfMonth.values.has(date.getUTCDate());
    const dow = this.#dayOfWeek.values.has(date.getUTCDay());
    // Vixie cron: both restricted → either; otherwise both (a `*` field matches everything anyway).
    return !this.#dayOfMonth.star && !this.#dayOfWeek.star ? dom || dow : dom && dow;
  }

  /** The instants of the slots of one local date (given as its UTC midnight), unsorted, without duplicates. */
  #instantsOfDay(dayMs: number): number[] {
    if (!this.#dayMatches(dayMs)) return [];
    const offsets = this.#offsetsAround(dayMs);
    const found = new Set<number>();
    for (const hour of this.#hours) {
      for (const minute of this.#minutes) {
        const instants = instantsOf(dayMs + hour * 3_600_000 + minute * MINUTE_MS, offsets);
        const first = instants[0];
        if (first !== undefined) found.add(first);
        const second = instants[1];
        if (second !== undefined && this.#hour.star) found.add(second);
      }
    }
    return [...found];
  }

  /**
   * The zone's offsets over every instant a local date's wall times can fall on (a day and a half either side of its
   * UTC midnight): one offset on most days; the offsets before and after and the instant of the change when the zone
   * changes in that window (zones change at most once in a few days). Cached per date.
   */
  #offsetsAround(dayMs: number): DayOffsets {
    const cached = this.#days.get(dayMs);
    if (cached !== undefined) return cached;
    const from = dayMs - OFFSET_PROBE_MS;
    const to = dayMs + DAY_MS + OFFSET_PROBE_MS;
    const before = offsetAt(this.#zone, from);
    const after = offsetAt(this.#zone, to);
    let offsets: DayOffsets;
    if (before === after && before === offsetAt(this.#zone, dayMs + DAY_MS / 2)) {
      offsets = { before, after, change: Number.POSITIVE_INFINITY };
    } else {
      // The first second at the new offset, by bisection in whole seconds (zones change on whole seconds).
      let low = from / 1_000;
      let high = to / 1_000;
      while (high - low > 1) {
        const mid = low + Math.floor((high - low) / 2);
        if (offsetAt(this.#zone, mid * 1_000) === before) low = mid;
        else high = mid;
      }
      offsets = { before, after, change: high * 1_000 };
    }
    if (this.#days.size > 4_096) this.#days.clear();
    this.#days.set(dayMs, offsets);
    return offsets;
  }

  /** The UTC midnight standing for the local date at instant `t`. */
  #localDay(t: number): number {
    const local = t + offsetAt(this.#zone, t);
    return Math.floor(local / DAY_MS) * DAY_MS;
  }
}

/** The zone's offsets around one local date: `change` is the instant `after` starts (infinity when it does not change). */
interface DayOffsets {
  readonly before: number;
  readonly after: number;
  readonly change: number;
}

/**
 * The instants at which the zone's clock shows wall time `wall` (milliseconds as if UTC): one normally, two in an
 * overlap (ascending), and in a gap the one instant at which the clock jumps over it. Pure.
 */
function instantsOf(wall: number, offsets: DayOffsets): number[] {
  const early = wall - offsets.before;
  const late = wall - offsets.after;
  const instants = [...new Set([early < offsets.change ? early : undefined, late >= offsets.change ? late : undefined])].filter((t): t is number => t !== undefined).sort((a, b) => a - b);
  return instants.length > 0 ? instants : [offsets.change];
}

/** Parses one field against its range; a string is the problem. */
function parseField(text: string, spec: (typeof FIELDS)[number], names: readonly string[] | undefined, nameBase: number): Field | string {
  if (text === '') return 'is empty';
  const values = new Set<number>();
  for (const item of text.split(',')) {
    if (item === '') return 'has an empty list item';
    const [rangeText = '', stepText, extra] = item.split('/');
    if (extra !== undefined) return `has more than one step in ${quote(item)}`;
    let step = 1;
    if (stepText !== undefined) {
      if (!/^[0-9]+$/.test(stepText)) return `has a step ${quote(stepText)} that is not a number`;
      step = Number(stepText);
      if (step < 1) return 'has a step of 0';
      if (step > spec.max) return `has a step ${step} larger than the field's maximum ${spec.max}`;
    }
    let low: number;
    let high: number;
    if (rangeText === '*') {
      low = spec.min;
      high = spec.max;
    } else {
      const bounds = rangeText.split('-');
      if (bounds.length > 2) return `has an invalid range ${quote(rangeText)}`;
      const first = value(bounds[0] ?? '', spec, names, nameBase);
      if (typeof first === 'string') return first;
      low = first;
      if (bounds.length === 2) {
        const second = value(bounds[1] ?? '', spec, names, nameBase);
        if (typeof second === 'string') return second;
        high = second;
        if (high < low) return `has a range ${quote(rangeText)} that ends before it starts`;
      } else {
        // `a/n` is `a-max/n`; a plain `a` is `a`.
        high = stepText === undefined ? low : spec.max;
      }
    }
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return { values, star: text.startsWith('*') };
}

/** One value of a field: a number in range, or a name (months and days of the week). */
function value(text: string, spec: (typeof FIELDS)[number], names: readonly string[] | undefined, nameBase: number): number | string {
  if (/^[0-9]+$/.test(text)) {
    const n = Number(text);
    if (n < spec.min || n > spec.max) return `has ${n}, outside ${spec.min}-${spec.max}`;
    return n;
  }
  const index = names?.indexOf(text.toUpperCase()) ?? -1;
  if (index >= 0) return index + nameBase;
  if (text === '') return 'has an empty value';
  return names === undefined ? `has ${quote(text)}, which is not a number` : `has ${quote(text)}, which is neither a number nor one of ${names.join(', ')}`;
}

const ZONES = new Map<string, Intl.DateTimeFormat>();

/** The formatter that reads wall times in `timeZone`, or the problem with the name. Cached per zone. */
function zoneFormat(timeZone: string): Intl.DateTimeFormat | string {
  const cached = ZONES.get(timeZone);
  if (cached !== undefined) return cached;
  // Intl also takes UTC offsets such as +01:00; a schedule's zone must be a name, whose offset follows the zone's rules.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timeZone)) return `timeZone ${quote(timeZone)} is not an IANA time zone name (such as UTC or Europe/Berlin)`;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  } catch {
    return `timeZone ${quote(timeZone)} is not a time zone this operator knows (an IANA name such as UTC or Europe/Berlin)`;
  }
  ZONES.set(timeZone, format);
  return format;
}

/** The zone's offset from UTC at instant `t`, in milliseconds (wall time = t + offset), to the second. */
function offsetAt(zone: Intl.DateTimeFormat, t: number): number {
  const at = Math.floor(t / 1_000) * 1_000;
  const parts: Partial<Record<keyof Wall | 'second', number>> = {};
  for (const part of zone.formatToParts(at)) {
    if (part.type === 'year' || part.type === 'month' || part.type === 'day' || part.type === 'hour' || part.type === 'minute' || part.type === 'second') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall - at;
}

function quote(text: string): string {
  return JSON.stringify(text);
}
