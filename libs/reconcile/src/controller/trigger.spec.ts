import { describe, expect, it } from 'vitest';
import { TriggerLedger } from './trigger.ts';

describe('TriggerLedger', () => {
  it('gives the first event since the key was last taken', () => {
    const ledger = new TriggerLedger();
    ledger.noteEvent('ns/a', 'RelatedObjectChanged');
    ledger.noteEvent('ns/a', 'ObjectChanged');
    expect(ledger.take('ns/a')).toBe('RelatedObjectChanged');
    expect(ledger.take('ns/a')).toBe('Unknown');
  });

  it('keeps a scheduled requeue for when it comes due, even when an event runs the key first', () => {
    const ledger = new TriggerLedger();
    ledger.noteScheduled('ns/a', 'DriftCheck');
    ledger.noteEvent('ns/a', 'ObjectChanged');
    expect(ledger.take('ns/a')).toBe('ObjectChanged');
    expect(ledger.take('ns/a')).toBe('DriftCheck');
    expect(ledger.size).toBe(0);
  });

  it('lets a later schedule replace an earlier one, and forgets a key entirely', () => {
    const ledger = new TriggerLedger();
    ledger.noteScheduled('ns/a', 'Requeue');
    ledger.noteScheduled('ns/a', 'RetryAfterError');
    ledger.noteEvent('ns/b', 'OwnedObjectChanged');
    expect(ledger.take('ns/a')).toBe('RetryAfterError');
    ledger.forget('ns/b');
    expect(ledger.size).toBe(0);
    expect(ledger.take('ns/b')).toBe('Unknown');
  });
});
