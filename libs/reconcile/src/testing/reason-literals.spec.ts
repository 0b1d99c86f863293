import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reasonLiteralsIn, sharedReasonLiterals } from './reason-literals.ts';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('reasonLiteralsIn', () => {
  it('finds the runtime reasons and condition types spelled as literals, and the retired names', () => {
    const source = [
      "throw new OpenSearchError('Forbidden', text);",
      "return fail('NoPermission', message);",
      "throw new TerminalError(message, 'InvalidSpec');",
      "const ready = { type: 'Ready', status: 'True', reason: 'Available', message: '' };",
      "recorder.record(o, { type: 'Normal', reason: 'Created', action: 'Create' });",
      "if (err.reason !== 'AlreadyExists') throw err;",
      "return new KafkaAdminError('AlreadyExists', message);",
    ].join('\n');
    expect(reasonLiteralsIn(source)).toEqual(["1: 'Forbidden'", "2: 'NoPermission'", "3: 'InvalidSpec'", "4: 'Ready'", "4: 'Available'", "5: 'Created'", "6: 'AlreadyExists'", "7: 'AlreadyExists'"]);
  });

  it('leaves domain reasons, comments and the words that mean something else outside a reason or type', () => {
    const source = [
      "throw new KafkaAdminError('KafkaUnavailable', message);",
      " * 403 → 'Forbidden' before 0.2",
      "const ownership = Type.Union([Type.Literal('Created'), Type.Literal('Adopted')]);",
      "if (change.type === 'Deleted') forget(change.object);",
      "listener({ type: 'Deleted', object });",
      "return apiStatusOf(err) === 409 && reasonOf(err) === 'AlreadyExists';",
      "{ name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type==\"Ready\")].status' }",
      "override readonly name = 'TerminalError';",
    ].join('\n');
    expect(reasonLiteralsIn(source)).toEqual([]);
  });
});

describe('the runtime itself', () => {
  it('spells its reasons and condition types only where it declares them', () => {
    expect(sharedReasonLiterals(SRC, ['core/reasons.ts', 'core/conditions.ts', 'connection/connection-reasons.ts', 'testing/reason-literals.ts'])).toEqual([]);
  });
});
