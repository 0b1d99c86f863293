import { describe, expect, it } from 'vitest';
import { effectiveUserQuotas, setsNoQuotas } from './quota-policy.ts';
import type { TenancyResult } from './tenancy.ts';
import type { KafkaTenancy, KafkaUserQuotas } from '../api/v1alpha1/index.ts';

const defaults = { producerByteRate: 1_048_576, consumerByteRate: 2_097_152 };
const ceiling = { producerByteRate: 4_194_304, consumerByteRate: 4_194_304, requestPercentage: 50 };
const tenancy: KafkaTenancy = { namePrefix: '{namespace}.', defaultUserQuotas: defaults, maxUserQuotas: ceiling };

function valueOf(result: TenancyResult<KafkaUserQuotas>): KafkaUserQuotas {
  if (!result.ok) throw new Error(`unexpected violation: ${result.violation.message}`);
  return result.value;
}

function messageOf(result: TenancyResult<KafkaUserQuotas>): string {
  if (result.ok) throw new Error('expected a violation');
  expect(result.violation.reason).toBe('TenancyViolation');
  return result.violation.message;
}

describe('setsNoQuotas', () => {
  it('is true for an absent or empty quotas object, false once any value or client-id entry is set', () => {
    expect(setsNoQuotas(undefined)).toBe(true);
    expect(setsNoQuotas({})).toBe(true);
    expect(setsNoQuotas({ clients: [] })).toBe(true);
    expect(setsNoQuotas({ requestPercentage: 0 })).toBe(false);
    expect(setsNoQuotas({ clients: [{ clientId: 'batch', producerByteRate: 1 }] })).toBe(false);
  });
});

describe('effectiveUserQuotas', () => {
  it('returns the spec unchanged when the connection sets neither defaults nor a ceiling', () => {
    const quotas = { producerByteRate: 10, clients: [{ clientId: 'batch', consumerByteRate: 5 }] };
    expect(valueOf(effectiveUserQuotas(quotas, { namePrefix: '{namespace}.' }))).toEqual(quotas);
    expect(valueOf(effectiveUserQuotas(undefined, undefined))).toEqual({});
  });

  it('gives a user that sets none the defaults, with the keys only the ceiling names filled from it', () => {
    expect(valueOf(effectiveUserQuotas(undefined, tenancy))).toEqual({ ...defaults, requestPercentage: 50 });
    expect(valueOf(effectiveUserQuotas({}, { defaultUserQuotas: defaults }))).toEqual(defaults);
  });

  it('keeps a user that sets its own quotas on them (no defaults mixed in), filling the keys the ceiling names', () => {
    const quotas = { consumerByteRate: 1024, clients: [{ clientId: 'batch', producerByteRate: 512 }] };
    expect(valueOf(effectiveUserQuotas(quotas, tenancy))).toEqual({ consumerByteRate: 1024, producerByteRate: 4_194_304, requestPercentage: 50, clients: quotas.clients });
  });

  it('accepts values equal to the ceiling', () => {
    expect(valueOf(effectiveUserQuotas({ ...ceiling }, tenancy))).toEqual(ceiling);
  });

  it('refuses a user-level value above the ceiling, naming the field, the value and the ceiling', () => {
    expect(messageOf(effectiveUserQuotas({ producerByteRate: 10_000_000 }, tenancy))).toBe(
      "quotas.producerByteRate 10000000 is above the ceiling 4194304 that the connection's tenancy.maxUserQuotas.producerByteRate sets for this namespace",
    );
    expect(messageOf(effectiveUserQuotas({ requestPercentage: 50.5 }, tenancy))).toContain('quotas.requestPercentage 50.5 is above the ceiling 50');
  });

  it('refuses a per-client-id value above the ceiling, naming the entry by its client id', () => {
    const quotas = { clients: [{ clientId: 'ok', consumerByteRate: 1 }, { clientId: 'greedy', consumerByteRate: 8_388_608 }] };
    expect(messageOf(effectiveUserQuotas(quotas, tenancy))).toBe(
      'quotas.clients[1] (clientId "greedy").consumerByteRate 8388608 is above the ceiling 4194304 that the connection\'s tenancy.maxUserQuotas.consumerByteRate sets for this namespace',
    );
  });

  it('does not limit a key the ceiling does not name', () => {
    expect(valueOf(effectiveUserQuotas({ controllerMutationRate: 1e9 }, tenancy))).toMatchObject({ controllerMutationRate: 1e9 });
  });
});
