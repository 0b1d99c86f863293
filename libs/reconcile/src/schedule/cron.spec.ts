import { describe, expect, it } from 'vitest';
import type { CronSchedule } from './cron.ts';
import { parseSchedule } from './cron.ts';

function schedule(expression: string, timeZone?: string): CronSchedule {
  const result = parseSchedule(expression, timeZone);
  if (!result.ok) throw new Error(result.message);
  return result.schedule;
}

function problem(expression: string, timeZone?: string): string {
  const result = parseSchedule(expression, timeZone);
  if (result.ok) throw new Error(`${expression} was accepted`);
  return result.message;
}

/** The first `count` slots strictly after `from`, as ISO strings. */
function slots(expression: string, from: string, count: number, timeZone?: string): string[] {
  const s = schedule(expression, timeZone);
  const found: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < count; i++) {
    const next = s.next(at);
    if (next === undefined) break;
    found.push(next.toISOString());
    at = next;
  }
  return found;
}

const iso = (text: string): string => new Date(text).toISOString();

describe('parseSchedule', () => {
  it('reads *, values, lists, ranges and steps', () => {
    expect(slots('* * * * *', '2026-12-01T12:00:30Z', 3)).toEqual([iso('2026-12-01T12:01Z'), iso('2026-12-01T12:02Z'), iso('2026-12-01T12:03Z')]);
    expect(slots('*/20 * * * *', '2026-12-01T12:00:00Z', 4)).toEqual([iso('2026-12-01T12:20Z'), iso('2026-12-01T12:40Z'), iso('2026-12-01T13:00Z'), iso('2026-12-01T13:20Z')]);
    expect(slots('5,10-12 9 * * *', '2026-12-01T00:00Z', 5)).toEqual([
      iso('2026-12-01T09:05Z'),
      iso('2026-12-01T09:10Z'),
      iso('2026-12-01T09:11Z'),
      iso('2026-12-01T09:12Z'),
      iso('2026-12-02T09:05Z'),
    ]);
    expect(slots('10-40/15 8-10/2 * * *', '2026-12-01T00:00Z', 5)).toEqual([
      iso('2026-12-01T08:10Z'),
      iso('2026-12-01T08:25Z'),
      iso('2026-12-01T08:40Z'),
      iso('2026-12-01T10:10Z'),
      iso('2026-12-01T10:25Z'),
    ]);
    // `a/n` is `a-max/n`.
    expect(slots('50/5 * * * *', '2026-12-01T12:00Z', 3)).toEqual([iso('2026-12-01T12:50Z'), iso('2026-12-01T12:55Z'), iso('2026-12-01T13:50Z')]);
  });

  it('reads month and weekday names in any case, in lists and ranges, and 7 as Sunday', () => {
    expect(slots('0 0 1 jan,JUL *', '2026-02-01T00:00Z', 3)).toEqual([iso('2026-07-01T00:00Z'), iso('2027-01-01T00:00Z'), iso('2027-07-01T00:00Z')]);
    // 2026-12-04 is a Friday.
    expect(slots('0 6 * * Mon-Fri', '2026-12-04T07:00Z', 2)).toEqual([iso('2026-12-07T06:00Z'), iso('2026-12-08T06:00Z')]);
    expect(slots('0 0 * * 7', '2026-12-01T00:00Z', 2)).toEqual(slots('0 0 * * SUN', '2026-12-01T00:00Z', 2));
    expect(slots('0 0 * * 0', '2026-12-01T00:00Z', 1)).toEqual([iso('2026-12-06T00:00Z')]);
    expect(slots('0 0 * * 5-7', '2026-12-01T00:00Z', 3)).toEqual([iso('2026-12-04T00:00Z'), iso('2026-12-05T00:00Z'), iso('2026-12-06T00:00Z')]);
  });

  it('takes a day when the day of month OR the day of week matches, if both are restricted (Vixie cron)', () => {
    // The 13th, and every Friday: Fri 4th, Fri 11th, Sun 13th, Fri 18th.
    expect(slots('0 0 13 * FRI', '2026-12-01T00:00Z', 4)).toEqual([iso('2026-12-04T00:00Z'), iso('2026-12-11T00:00Z'), iso('2026-12-13T00:00Z'), iso('2026-12-18T00:00Z')]);
    // Only one restricted: the other is `*`, so the restricted one alone decides.
    expect(slots('0 0 13 * *', '2026-12-01T00:00Z', 2)).toEqual([iso('2026-12-13T00:00Z'), iso('2027-01-13T00:00Z')]);
    expect(slots('0 0 * * FRI', '2026-12-01T00:00Z', 2)).toEqual([iso('2026-12-04T00:00Z'), iso('2026-12-11T00:00Z')]);
    // A field starting with `*` counts as unrestricted even with a step: then both must match (Mondays on odd days).
    expect(slots('0 0 */2 * MON', '2026-12-01T00:00Z', 3)).toEqual([iso('2026-12-07T00:00Z'), iso('2026-12-21T00:00Z'), iso('2027-01-11T00:00Z')]);
  });

  it('finds a slot years away (29 February)', () => {
    expect(slots('0 0 29 2 *', '2026-03-01T00:00Z', 2)).toEqual([iso('2028-02-29T00:00Z'), iso('2032-02-29T00:00Z')]);
    expect(slots('0 0 29 FEB *', '2096-03-01T00:00Z', 1)).toEqual([iso('2104-02-29T00:00Z')]);
  });

  it('refuses invalid expressions with a message naming the field and the value', () => {
    expect(problem('0 2 * *')).toBe('schedule "0 2 * *" must have five fields (minute hour day-of-month month day-of-week), found 4');
    expect(problem('0 0 2 * * *')).toMatch(/five fields.*found 6/);
    expect(problem('')).toMatch(/found 0/);
    expect(problem('60 * * * *')).toBe('schedule "60 * * * *": minute field "60" has 60, outside 0-59');
    expect(problem('0 24 * * *')).toMatch(/hour field "24" has 24, outside 0-23/);
    expect(problem('0 0 0 * *')).toMatch(/day of month field "0" has 0, outside 1-31/);
    expect(problem('0 0 * 13 *')).toMatch(/month field "13" has 13, outside 1-12/);
    expect(problem('0 0 * * 8')).toMatch(/day of week field "8" has 8, outside 0-7/);
    expect(problem('*/0 * * * *')).toMatch(/minute field "\*\/0" has a step of 0/);
    expect(problem('*/x * * * *')).toMatch(/step "x" that is not a number/);
    expect(problem('*/1/2 * * * *')).toMatch(/more than one step/);
    expect(problem('30-10 * * * *')).toMatch(/range "30-10" that ends before it starts/);
    expect(problem('1-2-3 * * * *')).toMatch(/invalid range "1-2-3"/);
    expect(problem('0 0 * FOO *')).toMatch(/month field "FOO" has "FOO", which is neither a number nor one of JAN, FEB/);
    expect(problem('0 0 * * FRIDAY')).toMatch(/day of week field "FRIDAY"/);
    expect(problem('0 0 ? * MON')).toMatch(/day of month field "\?" has "\?", which is not a number/);
    expect(problem('0 0 L * *')).toMatch(/day of month field "L"/);
    expect(problem('0 0 1,,2 * *')).toMatch(/empty list item/);
    expect(problem('0 0 -1 * *')).toMatch(/empty value/);
    expect(problem('@daily')).toMatch(/five fields/);
    expect(problem('0 0 30 2 *')).toBe('schedule "0 0 30 2 *" never fires: no month it names has the days of the month it names');
    expect(problem('0 0 31 4,6,9,11 *')).toMatch(/never fires/);
    // With a restricted weekday the OR rule makes it fire on those weekdays.
    expect(parseSchedule('0 0 30 2 MON').ok).toBe(true);
  });

  it('refuses unknown time zones and offsets with a message naming the zone', () => {
    expect(problem('0 2 * * *', 'Mars/Olympus_Mons')).toBe('timeZone "Mars/Olympus_Mons" is not a time zone this operator knows (an IANA name such as UTC or Europe/Berlin)');
    expect(problem('0 2 * * *', '+01:00')).toBe('timeZone "+01:00" is not an IANA time zone name (such as UTC or Europe/Berlin)');
    expect(problem('0 2 * * *', '')).toMatch(/not an IANA time zone name/);
    expect(parseSchedule('0 2 * * *', 'America/Argentina/Buenos_Aires').ok).toBe(true);
    expect(parseSchedule('0 2 * * *', 'Etc/GMT+5').ok).toBe(true);
  });
});

describe('slots in a time zone', () => {
  it('reads wall times in the zone: 02:00 in Berlin is 01:00 UTC in winter and 00:00 UTC in summer', () => {
    expect(slots('0 2 * * *', '2026-01-10T00:00Z', 1, 'Europe/Berlin')).toEqual([iso('2026-01-10T01:00Z')]);
    expect(slots('0 2 * * *', '2026-07-10T00:00Z', 1, 'Europe/Berlin')).toEqual([iso('2026-07-11T00:00Z')]);
    expect(slots('0 9 * * *', '2026-07-10T00:00Z', 1, 'Asia/Kolkata')).toEqual([iso('2026-07-10T03:30Z')]);
    // The local date decides the day: Monday 00:30 in Tokyo is Sunday 15:30 UTC.
    expect(slots('30 0 * * MON', '2026-12-01T00:00Z', 1, 'Asia/Tokyo')).toEqual([iso('2026-12-06T15:30Z')]);
  });

  it('takes a slot skipped by the spring-forward gap once, at the first instant after it (Berlin, 29 March 2026)', () => {
    // At 01:00 UTC the clock jumps from 02:00 to 03:00 local: 02:30 does not exist that day.
    expect(slots('30 2 * * *', '2026-03-28T12:00Z', 3, 'Europe/Berlin')).toEqual([iso('2026-03-29T01:00Z'), iso('2026-03-30T00:30Z'), iso('2026-03-31T00:30Z')]);
    // Every slot in the gap and 03:00 itself are one instant; 03:30 follows.
    expect(slots('0,30 2,3 * * *', '2026-03-28T23:00Z', 3, 'Europe/Berlin')).toEqual([iso('2026-03-29T01:00Z'), iso('2026-03-29T01:30Z'), iso('2026-03-30T00:00Z')]);
    // An hourly schedule keeps its other hours.
    expect(slots('15 * * * *', '2026-03-28T23:30Z', 4, 'Europe/Berlin')).toEqual([iso('2026-03-29T00:15Z'), iso('2026-03-29T01:00Z'), iso('2026-03-29T01:15Z'), iso('2026-03-29T02:15Z')]);
    expect(schedule('30 2 * * *', 'Europe/Berlin').latest(new Date('2026-03-29T05:00Z'))?.toISOString()).toBe(iso('2026-03-29T01:00Z'));
  });

  it('takes a fixed-hour slot in the fall-back overlap once, and an every-hour slot in both passes (Berlin, 25 October 2026)', () => {
    // At 01:00 UTC the clock goes back from 03:00 to 02:00 local: 02:30 happens at 00:30 and at 01:30 UTC.
    expect(slots('30 2 * * *', '2026-10-24T12:00Z', 2, 'Europe/Berlin')).toEqual([iso('2026-10-25T00:30Z'), iso('2026-10-26T01:30Z')]);
    expect(schedule('30 2 * * *', 'Europe/Berlin').latest(new Date('2026-10-25T01:45Z'))?.toISOString()).toBe(iso('2026-10-25T00:30Z'));
    expect(slots('30 * * * *', '2026-10-24T23:00Z', 4, 'Europe/Berlin')).toEqual([iso('2026-10-24T23:30Z'), iso('2026-10-25T00:30Z'), iso('2026-10-25T01:30Z'), iso('2026-10-25T02:30Z')]);
    expect(slots('0 */2 * * *', '2026-10-24T23:30Z', 3, 'Europe/Berlin')).toEqual([iso('2026-10-25T00:00Z'), iso('2026-10-25T01:00Z'), iso('2026-10-25T03:00Z')]);
    expect(schedule('30 * * * *', 'Europe/Berlin').latest(new Date('2026-10-25T01:45Z'))?.toISOString()).toBe(iso('2026-10-25T01:30Z'));
  });

  it('gives strictly increasing slots across both changes, each its own latest', () => {
    const s = schedule('*/30 * * * *', 'Europe/Berlin');
    // Four days around each change. An every-hour schedule keeps its UTC pace through both: in spring the wall times
    // 02:00, 02:30 (skipped) and 03:00 are one instant and the day has an hour less; in autumn 02:00 and 02:30 come twice.
    for (const [from, to] of [
      ['2026-03-27T00:00Z', '2026-03-31T00:00Z'],
      ['2026-10-23T00:00Z', '2026-10-27T00:00Z'],
    ] as const) {
      let at = new Date(Date.parse(from) - 1);
      let previous: number | undefined;
      let count = 0;
      for (;;) {
        const next = s.next(at);
        if (next === undefined || next.getTime() >= Date.parse(to)) break;
        expect(next.getTime()).toBeGreaterThan(at.getTime());
        expect(s.latest(next)?.getTime()).toBe(next.getTime());
        if (previous !== undefined) expect(s.latest(new Date(next.getTime() - 1))?.getTime()).toBe(previous);
        previous = next.getTime();
        at = next;
        count++;
      }
      expect(count).toBe(4 * 48);
    }
  });
});

describe('CronSchedule.latest', () => {
  const s = schedule('*/5 * * * *');
  it('is the slot at or before a time, within notBefore', () => {
    expect(s.latest(new Date('2026-12-01T12:07:30Z'))?.toISOString()).toBe(iso('2026-12-01T12:05Z'));
    expect(s.latest(new Date('2026-12-01T12:05:00Z'))?.toISOString()).toBe(iso('2026-12-01T12:05Z'));
    expect(s.latest(new Date('2026-12-01T12:07:30Z'), new Date('2026-12-01T12:05:00Z'))?.toISOString()).toBe(iso('2026-12-01T12:05Z'));
    expect(s.latest(new Date('2026-12-01T12:07:30Z'), new Date('2026-12-01T12:05:01Z'))).toBeUndefined();
  });

  it('is only the latest of many missed slots', () => {
    expect(schedule('0 * * * *').latest(new Date('2026-12-01T12:59:59Z'), new Date('2026-12-01T08:10Z'))?.toISOString()).toBe(iso('2026-12-01T12:00Z'));
    expect(schedule('0 0 29 2 *').latest(new Date('2026-12-01T00:00Z'))?.toISOString()).toBe(iso('2024-02-29T00:00Z'));
  });
});
