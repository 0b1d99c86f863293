import { isTerminalError, TerminalError } from '@domain-operators/reconcile';
import { AuthenticationError, MultipleErrors, NetworkError, ResponseError } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { classifyKafkaError, errorForCode, isConnectionFailure, isKafkaAdminError, KafkaAdminError } from './errors.ts';

const CREATE_TOPICS = 19;

describe('errorForCode', () => {
  it("makes invalid input a TerminalError carrying Kafka's message", () => {
    const err = errorForCode(40, 'Invalid value abc for configuration retention.ms: Not a number of type LONG', 'create topic t');
    expect(isTerminalError(err)).toBe(true);
    expect((err as TerminalError).reason).toBe('InvalidConfig');
    expect(err.message).toBe('create topic t: Invalid value abc for configuration retention.ms: Not a number of type LONG (INVALID_CONFIG)');
  });
  it('maps policy violations and bad replication factors to terminal reasons', () => {
    expect((errorForCode(44, 'no', 'x') as TerminalError).reason).toBe('PolicyViolation');
    expect((errorForCode(38, null, 'x') as TerminalError).reason).toBe('InvalidReplicationFactor');
  });
  it('makes an existing topic AlreadyExists and missing permissions NotAuthorized (retryable)', () => {
    expect(isKafkaAdminError(errorForCode(36, null, 'x'), 'AlreadyExists')).toBe(true);
    expect(isKafkaAdminError(errorForCode(31, null, 'x'), 'NotAuthorized')).toBe(true);
  });
  it("falls back to the library's text without a server message, and to KafkaError for the rest", () => {
    const err = errorForCode(5, null, 'describe topic t');
    expect(isKafkaAdminError(err, 'KafkaError')).toBe(true);
    expect(err.message).toMatch(/^describe topic t: .+ \(LEADER_NOT_AVAILABLE\)$/);
  });
});

describe('classifyKafkaError', () => {
  it('maps a refused connection to KafkaUnavailable, naming the address', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const err = classifyKafkaError(new NetworkError('Connection to 127.0.0.1:1 failed.', { cause: refused }), 'describe topics');
    expect(isKafkaAdminError(err, 'KafkaUnavailable')).toBe(true);
    expect(err.message).toBe('describe topics: Kafka is unavailable: Connection to 127.0.0.1:1 failed.: connect ECONNREFUSED 127.0.0.1:1');
    expect(isConnectionFailure(new MultipleErrors('Cannot connect to any broker.', [refused]))).toBe(true);
  });
  it('maps a SASL failure to AuthenticationFailed with the broker text', () => {
    const response = new ResponseError(36, 2, { '/': [58, 'Authentication failed due to invalid credentials with SASL mechanism SCRAM-SHA-512'] }, {});
    const auth = new AuthenticationError('SASL authentication failed.', { cause: response });
    const err = classifyKafkaError(new NetworkError('Connection to 127.0.0.1:19092 failed.', { cause: auth }), 'describe cluster');
    expect(isKafkaAdminError(err, 'AuthenticationFailed')).toBe(true);
    expect(err.message).toBe('describe cluster: authentication to Kafka failed: Authentication failed due to invalid credentials with SASL mechanism SCRAM-SHA-512');
    expect(isConnectionFailure(auth)).toBe(false);
  });
  it('maps a response error by its first code', () => {
    const err = classifyKafkaError(new ResponseError(CREATE_TOPICS, 7, { '/topics/0': [40, 'bad value'] }, {}), 'create topics');
    expect(isTerminalError(err) && err.reason).toBe('InvalidConfig');
  });
  it('passes classified errors through and wraps anything else as KafkaError', () => {
    const terminal = new TerminalError('x', 'Y');
    expect(classifyKafkaError(terminal, 'a')).toBe(terminal);
    const mine = new KafkaAdminError('KafkaUnavailable', 'down');
    expect(classifyKafkaError(mine, 'a')).toBe(mine);
    expect(isKafkaAdminError(classifyKafkaError(new Error('odd'), 'a'), 'KafkaError')).toBe(true);
    expect(classifyKafkaError('text', 'a').message).toBe('a: text');
  });
});
