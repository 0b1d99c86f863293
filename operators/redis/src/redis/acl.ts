/**
 * ACL users: validation of a RedisUser's rules, the declarative `ACL SETUSER` argument list, and reading
 * `ACL GETUSER`. Pure. Passwords appear only in the argument list sent to Redis (`>password`); anything that
 * is logged or compared uses the `#<sha256>` form Redis itself reports.
 */
import { createHash } from 'node:crypto';

/** The ACL categories of Redis 7 (`ACL CAT`). */
export const ACL_CATEGORIES: ReadonlySet<string> = new Set([
  'keyspace',
  'read',
  'write',
  'set',
  'sortedset',
  'list',
  'hash',
  'string',
  'bitmap',
  'hyperloglog',
  'geo',
  'stream',
  'pubsub',
  'admin',
  'fast',
  'slow',
  'blocking',
  'dangerous',
  'connection',
  'transaction',
  'scripting',
]);

const PERMISSION_KEYWORDS = new Set(['allkeys', 'resetkeys', 'allchannels', 'resetchannels', 'allcommands', 'nocommands']);
const USER_KEYWORDS = new Set(['on', 'off', 'clearselectors', 'sanitize-payload', 'skip-sanitize-payload']);
const COMMAND = /^[A-Za-z][A-Za-z0-9_.:-]*(\|[^\s|]+)?$/;

/** One refused rule and why, in words a user can act on. */
export interface AclRuleProblem {
  /** The rule as it may be shown (in a condition, an Event, a log): a password rule (`>…`, `<…`, `#…`, `!…`) is cut to its first character. */
  readonly rule: string;
  readonly message: string;
}

/**
 * Splits rules into single ACL SETUSER arguments: each entry may hold several rules separated by spaces; a
 * selector `( … )` stays one argument with its spaces. Pure.
 */
export function tokenizeAclRules(rules: readonly string[]): string[] {
  const tokens: string[] = [];
  for (const entry of rules) {
    let current = '';
    let depth = 0;
    for (const ch of entry) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (/\s/.test(ch) && depth === 0) {
        if (current !== '') tokens.push(current);
        current = '';
      } else {
        current += ch;
      }
    }
    if (current !== '') tokens.push(current);
  }
  return tokens;
}

function permissionProblem(rule: string): string | undefined {
  if (PERMISSION_KEYWORDS.has(rule)) return undefined;
  const first = rule[0];
  if (first === '~' || first === '&') return rule.length > 1 ? undefined : `an empty ${first === '~' ? 'key' : 'channel'} pattern`;
  if (first === '%') {
    return /^%[RW]+~./.test(rule) ? undefined : 'a key pattern with permissions is written %R~pattern, %W~pattern or %RW~pattern';
  }
  if (first === '+' || first === '-') {
    const body = rule.slice(1);
    if (body.startsWith('@')) {
      const category = body.slice(1);
      return ACL_CATEGORIES.has(category) ? undefined : `unknown ACL category "${category}"; known: ${[...ACL_CATEGORIES].join(', ')}`;
    }
    return COMMAND.test(body) ? undefined : `"${body}" is not a command name (or command|subcommand)`;
  }
  return undefined;
}

/** A rule as it may be shown: one that carries a password or its hash keeps only its first character. Pure. */
function shownRule(rule: string): string {
  return /^[<>#!]/.test(rule) ? `${rule.charAt(0)}…` : rule;
}

function ruleProblem(rule: string): string | undefined {
  if (rule === 'reset') return 'reset is not allowed: the operator already starts every user from reset';
  if (rule === 'nopass' || rule === 'resetpass' || /^[<>#!]/.test(rule)) {
    return 'passwords are not rules: they come from passwordSecretRef';
  }
  if (USER_KEYWORDS.has(rule)) return undefined;
  if (rule.startsWith('(')) {
    if (!rule.endsWith(')')) return 'a selector must be closed with ")"';
    const inner = tokenizeAclRules([rule.slice(1, -1)]);
    if (inner.length === 0) return 'an empty selector';
    for (const part of inner) {
      const problem = PERMISSION_KEYWORDS.has(part) || /^[~&%+-]/.test(part) ? permissionProblem(part) : 'a selector holds only commands, key and channel patterns';
      if (problem !== undefined) return `in selector: ${part}: ${problem}`;
    }
    return undefined;
  }
  if (/\s/.test(rule)) return 'a rule cannot contain spaces';
  if (/^[~&%+-]/.test(rule) || PERMISSION_KEYWORDS.has(rule)) return permissionProblem(rule);
  return 'not an ACL rule: expected on/off, +command, -command, +@category, -@category, ~keypattern, %R~keypattern, &channelpattern, allkeys, resetkeys, allchannels, resetchannels, allcommands, nocommands or a (selector)';
}

/**
 * Checks the syntax of RedisUser rules (after {@link tokenizeAclRules}); an empty result means valid. It
 * cannot know every command name (modules add some), so Redis may still refuse a rule that passes here: apply
 * through the client, which turns Redis's refusal into a `TerminalError` with reason `InvalidAclRule`. Pure.
 */
export function validateAclRules(rules: readonly string[]): AclRuleProblem[] {
  return tokenizeAclRules(rules).flatMap((rule) => {
    const message = ruleProblem(rule);
    return message === undefined ? [] : [{ rule: shownRule(rule), message }];
  });
}

/**
 * Checks an ACL user name: non-empty, at most 256 characters, no spaces or control characters (the ACL file
 * format separates by spaces), and not one of `reserved` (the operator's own users). Returns the problem or
 * `undefined`. Pure.
 */
export function usernameProblem(username: string, reserved: readonly string[] = []): string | undefined {
  if (username === '') return 'the username is empty';
  if (username.length > 256) return 'the username is longer than 256 characters';
  if (/[\s\p{Cc}]/u.test(username)) return 'the username contains spaces or control characters';
  if (reserved.includes(username)) return `the username ${username} is reserved for the operator`;
  return undefined;
}

/** A user as it should exist on every member. `password` is a secret. */
export interface DesiredAclUser {
  readonly username: string;
  readonly password: string;
  readonly rules: readonly string[];
}

/** The hex SHA-256 of a password, as `ACL GETUSER` lists it and `#<hash>` rules take it. Pure. */
export function passwordHash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex');
}

/**
 * The arguments after `ACL SETUSER` that make the user exactly `user`, whatever it was before: `reset` first,
 * then `on` unless the rules say `on` or `off`, then the rules, then `>password` (the only secret in the
 * list; log {@link redactAclArgs} instead). Idempotent on the server; validate the rules first. Pure.
 */
export function aclSetUserArgs(user: DesiredAclUser): string[] {
  const rules = tokenizeAclRules(user.rules);
  const state = rules.some((r) => r === 'on' || r === 'off') ? [] : ['on'];
  return [user.username, 'reset', ...state, ...rules, `>${user.password}`];
}

/** `args` with every `>password` and `<password` replaced by `#<sha256>`, safe to log. Pure. */
export function redactAclArgs(args: readonly string[]): string[] {
  return args.map((arg) => (arg.startsWith('>') || arg.startsWith('<') ? `#${passwordHash(arg.slice(1))}` : arg));
}

/** What `ACL GETUSER` reports about a user (Redis 7 shape; Redis 6 lists are joined with spaces). */
export interface AclUserInfo {
  /** `on` or `off`, plus `nopass`, `sanitize-payload`, … */
  readonly flags: readonly string[];
  /** Hex SHA-256 of each password. */
  readonly passwords: readonly string[];
  /** Normalised command rules, e.g. `-@all +@read -flushall`. */
  readonly commands: string;
  readonly keys: string;
  readonly channels: string;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (Array.isArray(value)) return value.map(asText).join(' ');
  return '';
}

function asList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(asText) : [];
}

/** Reads a raw `ACL GETUSER` reply (a flat field/value array); `undefined` for a nil reply (no such user). Pure. */
export function parseAclGetUser(reply: unknown): AclUserInfo | undefined {
  if (reply === null || reply === undefined) return undefined;
  if (!Array.isArray(reply)) throw new TypeError('ACL GETUSER: expected an array reply');
  const fields = new Map<string, unknown>();
  for (let i = 0; i + 1 < reply.length; i += 2) fields.set(asText(reply[i]), reply[i + 1]);
  return {
    flags: asList(fields.get('flags')),
    passwords: asList(fields.get('passwords')),
    commands: asText(fields.get('commands')),
    keys: asText(fields.get('keys')),
    channels: asText(fields.get('channels')),
  };
}

/** True when the user's only password is `password`, i.e. no rotation is pending. Pure. */
export function passwordMatches(user: AclUserInfo, password: string): boolean {
  return user.passwords.length === 1 && user.passwords[0] === passwordHash(password);
}
