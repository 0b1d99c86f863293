import type { AdmissionCaseTable } from '@domain-operators/reconcile';

/** The cases both the admission policies and the operator's tenancy checks decide (prefix `{namespace}-`). */
export const tenancyCases: AdmissionCaseTable = {
  tenancy: { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { team: 'yes' } } },
  namespaceLabels: { team: 'yes' },
  cases: [
    { title: 'an index under the prefix', kind: 'OpenSearchIndex', name: 'logs', spec: {} },
    { title: 'an index named inside explicitly', kind: 'OpenSearchIndex', name: 'logs2', spec: { indexName: '{ns}-other' } },
    { title: 'an index named outside', kind: 'OpenSearchIndex', name: 'logs3', spec: { indexName: 'team-b-logs' }, refused: 'index name "team-b-logs" is outside the prefix "{ns}-"' },
    {
      title: 'a role on its own patterns',
      kind: 'OpenSearchRole',
      name: 'reader',
      spec: { indexPermissions: [{ indexPatterns: ['{ns}-*'], allowedActions: ['read'] }] },
    },
    {
      title: 'a role on a foreign pattern',
      kind: 'OpenSearchRole',
      name: 'grabber',
      spec: { indexPermissions: [{ indexPatterns: ['{ns}-a', 'team-b-*'], allowedActions: ['read'] }] },
      refused: '"team-b-*" is outside the prefix "{ns}-"',
    },
    { title: 'a role on every index', kind: 'OpenSearchRole', name: 'all', spec: { indexPermissions: [{ indexPatterns: ['*'], allowedActions: ['read'] }] }, refused: '"*" is outside the prefix "{ns}-"' },
    { title: 'a user with its own backend role', kind: 'OpenSearchUser', name: 'app', spec: { backendRoles: ['{ns}-readers'] } },
    { title: 'a user claiming a foreign backend role', kind: 'OpenSearchUser', name: 'sneak', spec: { backendRoles: ['{ns}-readers', 'team-b-admins'] }, refused: '"team-b-admins" is outside the prefix "{ns}-"' },
  ],
};
