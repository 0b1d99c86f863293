import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedReasonLiterals } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';

describe('the reasons this operator writes', () => {
  it("spell the runtime's shared reasons and condition types by its constants, never as literals", () => {
    expect(sharedReasonLiterals(dirname(fileURLToPath(import.meta.url)))).toEqual([]);
  });
});
