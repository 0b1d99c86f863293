/** Verbs that change state; everything else (get, list, watch) is left out of the audit log. */
export const auditedVerbs = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

/**
 * The audit policy: one `Metadata` event per write request and nothing else, so a test can count the
 * writes a client made by filtering `audit.log` on `user.username` (and `verb`, `objectRef`).
 * `RequestReceived` is omitted so each request yields exactly one line (stage `ResponseComplete`, or
 * `Panic`). Pure.
 */
export function auditPolicyYaml(): string {
  return [
    'apiVersion: audit.k8s.io/v1',
    'kind: Policy',
    'omitStages: [RequestReceived]',
    'rules:',
    '- level: Metadata',
    `  verbs: [${auditedVerbs.join(', ')}]`,
    '- level: None',
    '',
  ].join('\n');
}
