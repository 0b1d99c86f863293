import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { LeaderElector } from './leader-election.ts';
import { FakeLeaseLock } from '../testing/fake-lease-lock.ts';

function setup(identity = 'me') {
  const clock = new VirtualClock(1_000_000);
  const lock = new FakeLeaseLock();
  const leaderChanges: boolean[] = [];
  const elector = new LeaderElector(
    { lock, clock, wallTime: () => new Date(clock.now()), metrics: { setLeader: (_name, isLeader) => leaderChanges.push(isLeader) } },
    { identity, leaseName: 'lease' },
  );
  return { clock, lock, elector, leaderChanges };
}

/** Settles `promise` while advancing virtual time in small steps; fails if it does not settle within `limitMs`. */
async function within<R>(clock: VirtualClock, limitMs: number, promise: Promise<R>): Promise<{ value: R; elapsedMs: number }> {
  let settled: { value: R } | undefined;
  void promise.then((value) => (settled = { value }));
  const start = clock.now();
  while (settled === undefined) {
    if (clock.now() - start > limitMs) throw new Error(`did not settle within ${limitMs} ms`);
    await clock.advance(100);
  }
  return { value: settled.value, elapsedMs: clock.now() - start };
}

describe('LeaderElector', () => {
  it('creates the lease when there is none and becomes leader at once', async () => {
    const { clock, lock, elector, leaderChanges } = setup();
    const { value } = await within(clock, 0, elector.acquire(new AbortController().signal));
    expect(value).toBe(true);
    expect(elector.isLeader()).toBe(true);
    expect(leaderChanges).toEqual([true]);
    expect(lock.lease?.record).toMatchObject({ holderIdentity: 'me', leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(lock.lease?.record.acquireTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('takes a free (released) lease at once and counts the transition', async () => {
    const { clock, lock, elector } = setup();
    lock.set({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 3 });
    const { value } = await within(clock, 0, elector.acquire(new AbortController().signal));
    expect(value).toBe(true);
    expect(lock.lease?.record).toMatchObject({ holderIdentity: 'me', leaseTransitions: 4 });
  });

  it('does not take a lease another candidate keeps renewing', async () => {
    const { clock, lock, elector } = setup();
    lock.set({ holderIdentity: 'other', renewTime: 'a' });
    const stop = new AbortController();
    const acquiring = elector.acquire(stop.signal);
    for (let i = 0; i < 30; i++) {
      await clock.advance(2_000);
      lock.set({ renewTime: `renew-${i}` });
    }
    expect(elector.isLeader()).toBe(false);
    expect(elector.observedLeader()).toBe('other');
    stop.abort();
    expect(await acquiring).toBe(false);
    expect(lock.lease?.record.holderIdentity).toBe('other');
  });

  it('takes an expired lease one lease duration after it last saw it change, on its own clock', async () => {
    const { clock, lock, elector } = setup();
    // The holder's timestamps are far in the future: they must not matter (clock skew).
    lock.set({ holderIdentity: 'crashed', renewTime: '2999-01-01T00:00:00.000000Z', leaseTransitions: 1 });
    const { value, elapsedMs } = await within(clock, 20_000, elector.acquire(new AbortController().signal));
    expect(value).toBe(true);
    // Seen at t=0; valid until 15 s; retried exactly at expiry rather than at the next 2 s tick.
    expect(elapsedMs).toBeGreaterThanOrEqual(15_000);
    expect(elapsedMs).toBeLessThanOrEqual(15_100);
    expect(lock.lease?.record).toMatchObject({ holderIdentity: 'me', leaseTransitions: 2 });
  });

  it('renews every retry period while holding, keeping acquireTime', async () => {
    const { clock, lock, elector } = setup();
    await within(clock, 0, elector.acquire(new AbortController().signal));
    const acquireTime = lock.lease?.record.acquireTime;
    const stop = new AbortController();
    const holding = elector.hold(stop.signal);
    const writes = lock.writes;
    await clock.advance(10_000);
    expect(lock.writes - writes).toBe(5);
    expect(lock.lease?.record.acquireTime).toBe(acquireTime);
    expect(lock.lease?.record.renewTime).not.toBe(acquireTime);
    stop.abort();
    expect(await holding).toBe('released');
  });

  it('loses leadership when it cannot renew within the renew deadline, before the lease expires for others', async () => {
    const { clock, lock, elector, leaderChanges } = setup();
    await within(clock, 0, elector.acquire(new AbortController().signal));
    const holding = elector.hold(new AbortController().signal);
    await clock.advance(2_000); // one good renewal at t=2 s
    lock.failWith = new Error('apiserver unavailable');
    const { value, elapsedMs } = await within(clock, 15_000, holding);
    expect(value).toBe('lost');
    expect(elector.isLeader()).toBe(false);
    expect(leaderChanges).toEqual([true, false]);
    // Renewed at 2 s, deadline 10 s later: lost 10 s after that renewal, 5 s before others may take over.
    expect(elapsedMs).toBeLessThanOrEqual(10_100);
  });

  it('loses leadership on time even when renew requests hang', async () => {
    const { clock, lock, elector } = setup();
    await within(clock, 0, elector.acquire(new AbortController().signal));
    const holding = elector.hold(new AbortController().signal);
    lock.hang = true;
    const { value, elapsedMs } = await within(clock, 15_000, holding);
    expect(value).toBe('lost');
    expect(elapsedMs).toBeLessThanOrEqual(10_100);
  });

  it('loses leadership at once when another holder took the lease', async () => {
    const { clock, lock, elector } = setup();
    await within(clock, 0, elector.acquire(new AbortController().signal));
    const holding = elector.hold(new AbortController().signal);
    lock.set({ holderIdentity: 'usurper' });
    const { value, elapsedMs } = await within(clock, 3_000, holding);
    expect(value).toBe('lost');
    expect(elapsedMs).toBeLessThanOrEqual(2_100);
  });

  it('survives a failed renewal that recovers before the deadline', async () => {
    const { clock, lock, elector } = setup();
    await within(clock, 0, elector.acquire(new AbortController().signal));
    const stop = new AbortController();
    const holding = elector.hold(stop.signal);
    lock.failWith = new Error('blip');
    await clock.advance(5_000);
    lock.failWith = undefined;
    await clock.advance(20_000);
    expect(elector.isLeader()).toBe(true);
    stop.abort();
    expect(await holding).toBe('released');
  });

  it('releases on stop so a successor acquires at its next attempt', async () => {
    const { clock, lock, elector } = setup('first');
    await within(clock, 0, elector.acquire(new AbortController().signal));
    const stop = new AbortController();
    const holding = elector.hold(stop.signal);
    const successor = new LeaderElector({ lock, clock, wallTime: () => new Date(clock.now()) }, { identity: 'second', leaseName: 'lease' });
    const acquiring = successor.acquire(new AbortController().signal);
    await clock.advance(5_000);
    expect(successor.isLeader()).toBe(false);
    stop.abort();
    expect(await holding).toBe('released');
    expect(lock.lease?.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    const { value, elapsedMs } = await within(clock, 3_000, acquiring);
    expect(value).toBe(true);
    expect(elapsedMs).toBeLessThanOrEqual(2_000);
    expect(lock.lease?.record).toMatchObject({ holderIdentity: 'second', leaseDurationSeconds: 15 });
  });

  it('does not release a lease it no longer holds', async () => {
    const { clock, lock, elector } = setup();
    await within(clock, 0, elector.acquire(new AbortController().signal));
    const stop = new AbortController();
    const holding = elector.hold(stop.signal);
    lock.set({ holderIdentity: 'usurper' });
    stop.abort();
    await within(clock, 3_000, holding);
    expect(lock.lease?.record.holderIdentity).toBe('usurper');
  });

  it('exactly one of two candidates wins a race for a free lease', async () => {
    const clock = new VirtualClock();
    const lock = new FakeLeaseLock();
    const a = new LeaderElector({ lock, clock }, { identity: 'a', leaseName: 'lease' });
    const b = new LeaderElector({ lock, clock }, { identity: 'b', leaseName: 'lease' });
    const stop = new AbortController();
    const run = async (elector: LeaderElector): Promise<void> => {
      if (await elector.acquire(stop.signal)) await elector.hold(stop.signal);
    };
    const results = [run(a), run(b)];
    await clock.advance(60_000);
    expect([a.isLeader(), b.isLeader()].filter(Boolean)).toHaveLength(1);
    stop.abort();
    await Promise.all(results);
  });

  it('rejects timings that could make two leaders', () => {
    expect(() => new LeaderElector({ lock: new FakeLeaseLock() }, { leaseName: 'l', leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).toThrow(/lease duration > renew deadline/);
  });
});
