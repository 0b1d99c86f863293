import { describe, expect, it } from 'vitest';
import { compileRename, globMatches, parseReplacement, planRestore, renamePatternProblem, restoreBody } from './restore-plan.ts';
import type { Tenancy } from './tenancy.ts';
import { tenancyFor } from './tenancy.ts';

function tenancyOf(namespace: string, others: readonly string[] = []): Tenancy {
  const result = tenancyFor({ indexPrefix: '{namespace}-' }, namespace, others);
  if (!result.ok) throw new Error(result.violation.message);
  return result.tenancy;
}

const teamA = tenancyOf('team-a', ['team-a', 'team-b', 'team-a-b']);
const snapshot = { name: 'nightly', indices: ['team-a-logs', 'team-a-metrics', 'team-a-b-secrets', 'team-b-logs', '.kibana'] };

/** Java's `String.replaceAll` computed by hand for the cases below (Java 17 answers). */
function rename(pattern: string, replacement: string, name: string): string {
  const compiled = compileRename(pattern, replacement);
  if (!compiled.ok) throw new Error(compiled.problem);
  return compiled.rename(name);
}

describe('planRestore', () => {
  it('selects the snapshot indices matching the patterns and renames them inside the prefix', () => {
    const plan = planRestore(teamA, snapshot, { indices: ['team-a-l*', 'team-a-metrics'], renamePattern: 'team-a-(.+)', renameReplacement: 'team-a-restored-$1' });
    expect(plan).toEqual({
      kind: 'restore',
      targets: [
        { source: 'team-a-logs', target: 'team-a-restored-logs' },
        { source: 'team-a-metrics', target: 'team-a-restored-metrics' },
      ],
    });
  });

  it('keeps the names without a rename', () => {
    expect(planRestore(teamA, snapshot, { indices: ['team-a-logs'] })).toEqual({ kind: 'restore', targets: [{ source: 'team-a-logs', target: 'team-a-logs' }] });
  });

  it('refuses patterns outside the prefix or reaching a longer foreign prefix, before looking at the snapshot', () => {
    const outside = planRestore(teamA, snapshot, { indices: ['team-b-logs'] });
    expect(outside).toMatchObject({ kind: 'refused', reason: 'TenancyViolation' });
    expect(outside.kind === 'refused' && outside.message).toContain('indices[0] "team-b-logs" is outside the prefix "team-a-"');
    const everything = planRestore(teamA, snapshot, { indices: ['*'] });
    expect(everything).toMatchObject({ kind: 'refused', reason: 'TenancyViolation' });
    const foreign = planRestore(teamA, snapshot, { indices: ['team-a-*'] });
    expect(foreign.kind === 'refused' && foreign.message).toContain('reaches names of namespace "team-a-b"');
  });

  it('refuses a rename whose result leaves the prefix, naming the index', () => {
    const plan = planRestore(teamA, snapshot, { indices: ['team-a-logs'], renamePattern: 'team-a-(.+)', renameReplacement: 'team-b-$1' });
    expect(plan).toMatchObject({ kind: 'refused', reason: 'TenancyViolation' });
    expect(plan.kind === 'refused' && plan.message).toContain('restoring "team-a-logs" as "team-b-logs"');
    expect(plan.kind === 'refused' && plan.message).toContain('outside the prefix "team-a-"');
  });

  it('refuses a rename into another namespace whose prefix extends this one', () => {
    const plan = planRestore(teamA, snapshot, { indices: ['team-a-logs'], renamePattern: '^team-a-', renameReplacement: 'team-a-b-' });
    expect(plan.kind === 'refused' && plan.message).toContain('reaches names of namespace "team-a-b"');
  });

  it('refuses two indices renamed into one name', () => {
    const plan = planRestore(teamA, snapshot, { indices: ['team-a-logs', 'team-a-metrics'], renamePattern: '.+', renameReplacement: 'team-a-one' });
    expect(plan.kind === 'refused' && plan.message).toContain('"team-a-logs" and "team-a-metrics" would both be restored as "team-a-one"');
  });

  it('refuses an invalid target name (uppercase) as a tenancy refusal with the name rule', () => {
    const plan = planRestore(teamA, snapshot, { indices: ['team-a-logs'], renamePattern: 'logs', renameReplacement: 'LOGS' });
    expect(plan.kind === 'refused' && plan.message).toContain('must be lowercase');
  });

  it('refuses a named index the snapshot lacks, and patterns selecting nothing', () => {
    expect(planRestore(teamA, snapshot, { indices: ['team-a-nope'] })).toMatchObject({ kind: 'refused', reason: 'IndexNotInSnapshot', message: 'snapshot "nightly" has no index "team-a-nope"' });
    expect(planRestore(teamA, snapshot, { indices: ['team-a-x*'] })).toMatchObject({ kind: 'refused', reason: 'IndexNotInSnapshot' });
  });

  it('refuses includeAliases, whose aliases cannot be checked before the restore', () => {
    expect(planRestore(teamA, snapshot, { indices: ['team-a-logs'], includeAliases: true })).toMatchObject({ kind: 'refused', reason: 'InvalidSpec' });
  });

  it('refuses rename constructs on which Java and JavaScript differ', () => {
    expect(planRestore(teamA, snapshot, { indices: ['team-a-logs'], renamePattern: '(?<=team-a-)logs', renameReplacement: 'x' })).toMatchObject({ kind: 'refused', reason: 'InvalidSpec' });
    expect(planRestore(teamA, snapshot, { indices: ['team-a-logs'], renamePattern: '(.+)', renameReplacement: '${name}' })).toMatchObject({ kind: 'refused', reason: 'InvalidSpec' });
  });
});

describe('the rename, as Java replaceAll computes it', () => {
  it('replaces every match, with $n groups and greedy multi-digit references', () => {
    expect(rename('team-a-(.+)', 'team-a-restored-$1', 'team-a-logs')).toBe('team-a-restored-logs');
    expect(rename('-', '_', 'team-a-logs')).toBe('team_a_logs');
    expect(rename('(l)(o)(g)(s)(x?)(y?)(z?)(w?)(v?)(u?)', '$10|$1', 'logs')).toBe('|l');
    // With one group, "$12" is group 1 followed by a literal "2" (Java's greedy rule stops at the group count).
    expect(rename('(logs)', '$12', 'logs')).toBe('logs2');
    expect(rename('logs', '$0-copy', 'team-a-logs')).toBe('team-a-logs-copy');
  });

  it('leaves a name the pattern does not match unchanged', () => {
    expect(rename('^nothing$', 'x', 'team-a-logs')).toBe('team-a-logs');
  });

  it('advances past empty matches as Java does ("abc".replaceAll("x*", "-") is "-a-b-c-")', () => {
    expect(rename('x*', '-', 'abc')).toBe('-a-b-c-');
    expect(rename('b*', '-', 'abc')).toBe('-a--c-');
  });

  it('treats \\x in the replacement as a literal x and a non-participating group as empty', () => {
    expect(rename('(logs)', '\\$1-$1', 'logs')).toBe('$1-logs');
    expect(rename('(a)|(logs)', '[$1]', 'logs')).toBe('[]');
  });

  it('refuses what Java would refuse or read differently in the replacement', () => {
    expect(parseReplacement('$2', 1)).toEqual({ problem: '$2 refers to a group the pattern does not have (it has 1)' });
    expect(parseReplacement('cost$', 0)).toMatchObject({ problem: expect.stringContaining('not followed by a group number') as string });
    expect(parseReplacement('trailing\\', 0)).toEqual({ problem: 'ends with an unescaped \\' });
    expect(parseReplacement('a$1b', 1)).toEqual(['a', { group: 1 }, 'b']);
  });

  it('refuses pattern constructs outside the common subset, naming them', () => {
    expect(renamePatternProblem('(?<=a)b')).toContain('lookbehind');
    expect(renamePatternProblem('(?<n>a)')).toContain('named groups');
    expect(renamePatternProblem('(?>a)')).toContain('atomic groups');
    expect(renamePatternProblem('(?i)a')).toContain('inline flags');
    expect(renamePatternProblem('a*+')).toContain('possessive');
    expect(renamePatternProblem('a{2}+')).toContain('possessive');
    expect(renamePatternProblem('a{x')).toContain('does not start a quantifier');
    expect(renamePatternProblem('\\Qa\\E')).toContain('\\Q');
    expect(renamePatternProblem('\\1')).toContain('\\1');
    expect(renamePatternProblem('[a[b]]')).toContain('nests');
    expect(renamePatternProblem('[a-z&&[^b]]')).toContain('intersects');
    expect(renamePatternProblem('[a&&b]')).toContain('intersects');
    expect(renamePatternProblem('[]a]')).toContain('starting with ]');
    expect(renamePatternProblem('[abc')).toContain('not closed');
    expect(renamePatternProblem('é')).toContain('ASCII');
  });

  it('accepts the common subset', () => {
    for (const pattern of ['team-a-(.+)', '^(team-a)-(logs|metrics)$', '(?:x)?\\d{1,3}[a-z_.\\-]+\\.', '[^-]+-(?=logs)(?!x)\\w*\\b', 'a{2,}b{3}']) {
      expect(renamePatternProblem(pattern)).toBeUndefined();
    }
  });

  it('refuses to rename a source name that is not printable ASCII', () => {
    const plan = planRestore(teamA, { name: 's', indices: ['team-a-l\u00e9'] }, { indices: ['team-a-l*'], renamePattern: 'x', renameReplacement: 'y' });
    expect(plan).toMatchObject({ kind: 'refused', reason: 'InvalidSpec', message: expect.stringContaining('not printable ASCII') as string });
  });
});

describe('globMatches and restoreBody', () => {
  it('matches * as any run and ? as one character, all else literally', () => {
    expect(globMatches('team-a-*', 'team-a-logs')).toBe(true);
    expect(globMatches('team-a-l?gs', 'team-a-logs')).toBe(true);
    expect(globMatches('team-a.logs', 'team-a-logs')).toBe(false);
    expect(globMatches('team-a-logs', 'team-a-logs-2')).toBe(false);
  });

  it('names the selected sources, never the patterns, and carries rename and settings without aliases or global state', () => {
    const body = restoreBody([{ source: 'team-a-logs', target: 'team-a-r-logs' }], { indices: ['team-a-l*'], renamePattern: 'team-a-(.+)', renameReplacement: 'team-a-r-$1', indexSettings: { 'index.number_of_replicas': 0 } });
    expect(body).toEqual({
      indices: ['team-a-logs'],
      include_global_state: false,
      include_aliases: false,
      rename_pattern: 'team-a-(.+)',
      rename_replacement: 'team-a-r-$1',
      index_settings: { 'index.number_of_replicas': 0 },
    });
    expect(restoreBody([{ source: 'team-a-logs', target: 'team-a-logs' }], { indices: ['team-a-logs'] })).toEqual({ indices: ['team-a-logs'], include_global_state: false, include_aliases: false });
  });
});
