import { describe, expect, it } from 'vitest';
import { flushMicrotasks, VirtualClock } from '../core/clock.ts';
import { InMemoryLedgerDocument } from '../testing/in-memory-ledger-document.ts';
import { ClaimsLedger } from './claims-ledger.ts';

function setup(options: { maxBytes?: number } = {}) {
  const clock = new VirtualClock();
  const document = new InMemoryLedgerDocument();
  const ledger = new ClaimsLedger({ document, clock }, { lingerMs: 10, releaseLingerMs: 2_000, ...options });
  return { clock, document, ledger, other: () => new ClaimsLedger({ document, clock }, { lingerMs: 10 }) };
}

/** Settles `promise` while the clock runs every timer; resolves to its value. */
async function settled<T>(clock: VirtualClock, promise: Promise<T>): Promise<T> {
  const outcome = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  await clock.runAll();
  const result = await outcome;
  if (!result.ok) throw result.error;
  return result.value;
}

describe('ClaimsLedger', () => {
  it('writes the claims of concurrent creates in one write, and each resolves only once that write is stored', async () => {
    const { clock, document, ledger } = setup();
    let resolved = 0;
    const claims = Array.from({ length: 50 }, (_, i) =>
      ledger.claim(`uid-${i}`, `topic-${i}`).then((recorded) => {
        resolved++;
        return recorded;
      }),
    );
    await flushMicrotasks();
    expect(resolved).toBe(0);
    expect(document.entries.size).toBe(0);

    expect(await settled(clock, Promise.all(claims))).toEqual(Array.from({ length: 50 }, () => true));
    expect(document.writes).toBe(1);
    expect(document.entries.get('uid-7')).toBe('topic-7');
    expect(ledger.holds('uid-7', 'topic-7')).toBe(true);
    expect(ledger.holds('uid-7', 'topic-8')).toBe(false);
  });

  it('collects the claims made while a write is in flight into the next write (one write at a time)', async () => {
    const { clock, document, ledger } = setup();
    const first = ledger.claim('a', 'topic-a');
    await clock.advance(10); // the first write is on its way
    const later = [ledger.claim('b', 'topic-b'), ledger.claim('c', 'topic-c')];
    await settled(clock, Promise.all([first, ...later]));
    expect(document.writes).toBe(2);
    expect([...document.entries.keys()].sort()).toEqual(['a', 'b', 'c']);
  });

  it('answers a claim it already stored at once, without a write', async () => {
    const { clock, document, ledger } = setup();
    await settled(clock, ledger.claim('a', 'topic-a'));
    await expect(ledger.claim('a', 'topic-a')).resolves.toBe(true);
    expect(document.writes).toBe(1);
  });

  it('releases lazily: removals ride on the next write of claims, or go alone after the release linger', async () => {
    const { clock, document, ledger } = setup();
    await settled(clock, Promise.all([ledger.claim('a', 'topic-a'), ledger.claim('b', 'topic-b')]));
    ledger.release('a');
    await clock.advance(1_000);
    expect(document.entries.has('a')).toBe(true);
    await settled(clock, ledger.claim('c', 'topic-c'));
    expect(document.writes).toBe(2);
    expect([...document.entries.keys()].sort()).toEqual(['b', 'c']);

    ledger.release('b');
    ledger.release('c');
    await clock.advance(2_000);
    expect(document.writes).toBe(3);
    expect(document.entries.size).toBe(0);
    ledger.release('never-claimed');
    await clock.runAll();
    expect(document.writes).toBe(3);
  });

  it('keeps another process’s entries: a conflict re-reads the document and applies the same change to it', async () => {
    const { clock, document, ledger } = setup();
    await settled(clock, ledger.claim('a', 'topic-a'));
    // A former leader, still finishing its reconciles, claims meanwhile.
    document.writeByOther((entries) => entries.set('x', 'topic-x'));
    await expect(settled(clock, ledger.claim('b', 'topic-b'))).resolves.toBe(true);
    expect([...document.entries.keys()].sort()).toEqual(['a', 'b', 'x']);
  });

  it('confirms a claim another process stored, from a read made after the call', async () => {
    const { clock, document, ledger, other } = setup();
    await expect(ledger.confirm('x', 'topic-x')).resolves.toBe(false);
    await settled(clock, other().claim('x', 'topic-x'));
    const reads = document.reads;
    await expect(ledger.confirm('x', 'topic-x')).resolves.toBe(true);
    expect(document.reads).toBe(reads + 1);
    await expect(ledger.confirm('x', 'topic-y')).resolves.toBe(false);
    // And its release of that entry removes it, although this process never wrote it.
    ledger.release('x');
    await clock.runAll();
    expect(document.entries.has('x')).toBe(false);
  });

  it('shares a read among concurrent confirms, but never one that started before the call', async () => {
    const { clock, document, other } = setup();
    const ledger = new ClaimsLedger({ document, clock });
    const first = ledger.confirm('x', 'topic-x'); // a read in flight, started before the claim below
    await settled(clock, other().claim('x', 'topic-x'));
    const after = [ledger.confirm('x', 'topic-x'), ledger.confirm('x', 'topic-x')];
    await expect(first).resolves.toBe(false);
    await expect(Promise.all(after)).resolves.toEqual([true, true]);
  });

  it('refuses a claim that would take the document past its size (the caller claims in status instead)', async () => {
    const { clock, document, ledger } = setup({ maxBytes: 40 });
    await expect(settled(clock, ledger.claim('uid-a', 'topic-aaaaaaaa'))).resolves.toBe(true);
    await expect(settled(clock, ledger.claim('uid-b', 'topic-bbbbbbbb'))).resolves.toBe(false);
    expect([...document.entries.keys()]).toEqual(['uid-a']);
    expect(ledger.holds('uid-b', 'topic-bbbbbbbb')).toBe(false);
  });

  it('rejects the claims of a failed write, and the next claim writes again', async () => {
    const { clock, document, ledger } = setup();
    document.failNextWrite(new Error('apiserver gone'));
    await expect(settled(clock, ledger.claim('a', 'topic-a'))).rejects.toThrow('apiserver gone');
    expect(ledger.holds('a', 'topic-a')).toBe(false);
    await expect(settled(clock, ledger.claim('a', 'topic-a'))).resolves.toBe(true);
    expect(document.entries.get('a')).toBe('topic-a');
  });

  it('reads the document at the first use, not before', () => {
    const { document } = setup();
    expect(document.reads).toBe(0);
  });
});
