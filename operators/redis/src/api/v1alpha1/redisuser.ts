/**
 * The RedisUser kind: one ACL user on every member of a RedisReplication.
 */
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { conditionColumn, defineCustomResource, immutable, READY_CONDITION } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { ConditionsSchema, GROUP, SecretKeyRefSchema, VERSION } from './common.ts';

/** The desired state of a RedisUser. */
export const RedisUserSpec = Type.Object(
  {
    replicationRef: Type.Object(
      { name: Type.String({ description: 'Name of the RedisReplication in the same namespace.', minLength: 1 }) },
      { description: 'The RedisReplication whose members get this user.' },
    ),
    username: Type.String({
      description: 'The ACL user name. Immutable. May be "default" to restrict the default user; the operator keeps its own admin user.',
      minLength: 1,
      maxLength: 256,
      pattern: '^[^\\s]+$',
      'x-kubernetes-validations': [immutable('username is immutable')],
    }),
    passwordSecretRef: Type.Optional(SecretKeyRefSchema),
    rules: Type.Array(Type.String({ description: 'One or more ACL rules separated by spaces, e.g. "+@read ~app:*".' }), {
      description: 'ACL rules: commands and categories (+get, -@dangerous), key patterns (~app:*), channel patterns (&news). Passwords are not rules.',
    }),
  },
  { description: 'RedisUserSpec is the desired state of a RedisUser. Without passwordSecretRef a password is generated into the Secret <name>-redis-credentials.' },
);

/** The observed state of a RedisUser. */
export const RedisUserStatus = Type.Object(
  {
    conditions: Type.Optional(ConditionsSchema),
    observedGeneration: Type.Optional(Type.Integer({ description: 'The generation the status describes.' })),
    secretName: Type.Optional(Type.String({ description: 'The Secret holding the password the user was applied with.' })),
    appliedMembers: Type.Optional(Type.Integer({ description: 'Members on which the user is applied as specified.' })),
  },
  { description: 'RedisUserStatus is the observed state of a RedisUser.' },
);

/** The RedisUser kind: `redisusers.redis.domain-operators.io`. */
export const redisUsers = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'RedisUser',
  plural: 'redisusers',
  singular: 'redisuser',
  shortNames: ['ru'],
  categories: ['redis'],
  scope: 'Namespaced',
  description: 'A RedisUser is an ACL user applied on every member of a RedisReplication, managed by the redis operator.',
  spec: RedisUserSpec,
  status: RedisUserStatus,
  printerColumns: [
    { name: 'Username', type: 'string', jsonPath: '.spec.username' },
    { name: 'Replication', type: 'string', jsonPath: '.spec.replicationRef.name' },
    conditionColumn(READY_CONDITION),
  ],
});

/** A RedisUser object. */
export type RedisUser = ResourceOf<typeof redisUsers>;
/** A RedisUser's spec. */
export type RedisUserSpec = Static<typeof RedisUserSpec>;
