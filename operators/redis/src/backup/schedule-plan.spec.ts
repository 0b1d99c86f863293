import { parseSchedule } from '@domain-operators/reconcile';
import type { CronSchedule } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { NameHolder, SlotPlanInput } from './schedule-plan.ts';
import { planSlot } from './schedule-plan.ts';

function cron(expression: string, timeZone?: string): CronSchedule {
  const parsed = parseSchedule(expression, timeZone);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.schedule;
}

function input(overrides: Partial<SlotPlanInput> = {}): SlotPlanInput {
  return {
    schedule: cron('0 * * * *'),
    now: new Date('2026-12-01T12:34:56Z'),
    notBefore: new Date('2026-11-01T00:00:00Z'),
    suspended: false,
    lastTaken: undefined,
    active: [],
    holder: () => undefined,
    replication: 'cache',
    ...overrides,
  };
}

describe('a schedule’s slot plan', () => {
  it('takes the most recent slot when none is taken, named by its UTC minute, and names the next slot', () => {
    expect(planSlot(input())).toEqual({ create: { slot: new Date('2026-12-01T12:00:00Z'), name: 'cache-202612011200' }, next: new Date('2026-12-01T13:00:00Z') });
  });

  it('takes only the most recent of many missed slots (the operator was down for hours)', () => {
    const plan = planSlot(input({ lastTaken: new Date('2026-12-01T07:00:00Z') }));
    expect(plan.create?.slot).toEqual(new Date('2026-12-01T12:00:00Z'));
  });

  it('takes nothing when the most recent slot is taken, by its backup or by the status record', () => {
    expect(planSlot(input({ lastTaken: new Date('2026-12-01T12:00:00Z') }))).toEqual({ next: new Date('2026-12-01T13:00:00Z') });
    const holder = (name: string): NameHolder => (name === 'cache-202612011200' ? 'schedule' : undefined);
    expect(planSlot(input({ holder })).create).toBeUndefined();
  });

  it('takes no slot from before the replication existed', () => {
    expect(planSlot(input({ notBefore: new Date('2026-12-01T12:00:01Z') })).create).toBeUndefined();
  });

  it('reads the slots in the schedule’s zone', () => {
    const plan = planSlot(input({ schedule: cron('30 13 * * *', 'Europe/Berlin') }));
    expect(plan.create?.slot).toEqual(new Date('2026-12-01T12:30:00Z'));
    expect(plan.next).toEqual(new Date('2026-12-02T12:30:00Z'));
  });

  it('waits while one of its backups is still active, saying which', () => {
    const plan = planSlot(input({ active: ['cache-202612011100'], lastTaken: new Date('2026-12-01T11:00:00Z') }));
    expect(plan.create).toBeUndefined();
    expect(plan.message).toBe('the slot of 2026-12-01T12:00:00.000Z waits for cache-202612011100 to finish');
  });

  it('skips a slot whose name a hand-made RedisBackup holds, and says so', () => {
    const plan = planSlot(input({ holder: () => 'other' }));
    expect(plan.create).toBeUndefined();
    expect(plan.message).toContain('RedisBackup cache-202612011200 exists and was not created by this schedule');
  });

  it('takes nothing while suspended and names no next slot', () => {
    expect(planSlot(input({ suspended: true }))).toEqual({ message: 'suspended: no new backups are taken (retention still runs)' });
  });
});
