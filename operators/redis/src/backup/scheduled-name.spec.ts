import { describe, expect, it } from 'vitest';
import { MAX_SLOT_NAME_LENGTH, scheduleLabelValue, slotName, slotStamp } from './scheduled-name.ts';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

describe('slot names', () => {
  it('are the replication and the UTC minute of the slot', () => {
    expect(slotStamp(new Date('2026-12-01T02:03:59.999Z'))).toBe('202612010203');
    expect(slotName('cache', new Date('2026-12-01T02:03:00Z'))).toBe('cache-202612010203');
    // A slot read in another zone is named by its UTC minute.
    expect(slotName('cache', new Date('2026-12-01T03:03:00+01:00'))).toBe('cache-202612010203');
  });

  it('are the same for the same slot and differ between slots', () => {
    const a = slotName('cache', new Date('2026-12-01T02:03:00Z'));
    expect(slotName('cache', new Date('2026-12-01T02:03:00Z'))).toBe(a);
    expect(slotName('cache', new Date('2026-12-01T02:04:00Z'))).not.toBe(a);
  });

  it('cut a long replication name safely: at most 63 characters, valid, and distinct for names sharing a beginning', () => {
    const slot = new Date('2026-12-01T02:03:00Z');
    const long = `${'a'.repeat(45)}-b.c-${'d'.repeat(200)}`;
    const other = `${long.slice(0, -1)}e`;
    // The cut of the last two falls on a '.' and a '-'.
    for (const name of [long, other, `${'x'.repeat(40)}.${'y'.repeat(30)}`, `${'x'.repeat(40)}-${'y'.repeat(30)}`]) {
      const made = slotName(name, slot);
      expect(made.length).toBeLessThanOrEqual(MAX_SLOT_NAME_LENGTH);
      expect(made).toMatch(DNS_SUBDOMAIN);
      expect(made.endsWith('-202612010203')).toBe(true);
    }
    expect(slotName(long, slot)).not.toBe(slotName(other, slot));
    // The longest name that fits is kept whole.
    const fits = 'f'.repeat(MAX_SLOT_NAME_LENGTH - 13);
    expect(slotName(fits, slot)).toBe(`${fits}-202612010203`);
    expect(slotName(`${fits}g`, slot)).not.toContain(`${fits}g`);
  });

  it('give a label value of at most 63 characters', () => {
    expect(scheduleLabelValue('cache')).toBe('cache');
    const value = scheduleLabelValue('z'.repeat(100));
    expect(value.length).toBeLessThanOrEqual(63);
    expect(value).toMatch(LABEL_VALUE);
    expect(scheduleLabelValue('z'.repeat(100))).toBe(value);
  });
});
