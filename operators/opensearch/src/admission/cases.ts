// The OpenSearch tenancy cases (issue #20): every case is run through the chart's ValidatingAdmissionPolicies in a
// real apiserver (policies.int.spec.ts) and through the operator's own checks (the reconcilers' desired-state
// functions, cases.spec.ts), and both must agree on it: admitted, or refused with a message containing `refused` (the
// operator's words; the policies add which connection gives the prefix). A table is one namespace with its labels
// and one OpenSearchConnection with its tenancy. Data only.
import type { AdmissionCase, AdmissionCaseTable } from '@domain-operators/reconcile';

const OUTSIDE = 'is outside the prefix "{ns}-"';
const ALLOWED = 'cluster_composite_ops, cluster_composite_ops_ro, cluster_monitor, indices:data/read/mget, indices:data/read/msearch, indices:data/read/scroll, indices:data/read/scroll/clear, indices:data/write/bulk';
const PROTECTED = 'is a protected security object and is never modified';

const of =
  (kind: string) =>
  (title: string, name: string, spec: Readonly<Record<string, unknown>>, refused?: string): AdmissionCase => ({ title, kind, name, spec, ...(refused !== undefined && { refused }) });
const index = of('OpenSearchIndex');
const indexTemplate = of('OpenSearchIndexTemplate');
const componentTemplate = of('OpenSearchComponentTemplate');
const role = of('OpenSearchRole');
const roleBinding = of('OpenSearchRoleBinding');
const user = of('OpenSearchUser');
const actionGroup = of('OpenSearchActionGroup');
const tenant = of('OpenSearchTenant');
const dataStream = of('OpenSearchDataStream');
const snapshotPolicy = of('OpenSearchSnapshotPolicy');
const snapshotRestore = of('OpenSearchSnapshotRestore');

const reading = (...indexPatterns: string[]) => ({ indexPermissions: [{ indexPatterns, allowedActions: ['read'] }] });
const nightly = (...indices: string[]) => ({ repositoryRef: { name: 'backups' }, schedule: '0 2 * * *', indices });
const restoring = (...indices: string[]) => ({ repositoryRef: { name: 'backups' }, snapshot: 'nightly', indices });

/** A team's namespace: the prefix `{namespace}-`, selected by a label, two roles it may bind by name. */
const team: AdmissionCaseTable = {
  tenancy: { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { team: 'yes' } }, bindableRoles: ['readall', 'all_access'] },
  namespaceLabels: { team: 'yes' },
  cases: [
    index('an index under the prefix', 'logs', {}),
    index('an index named inside explicitly, with an alias inside', 'logs2', { indexName: '{ns}-other', aliases: { '{ns}-all': {} } }),
    index('an index named outside', 'logs3', { indexName: 'team-b-logs' }, `index name "team-b-logs" ${OUTSIDE}`),
    index('an index name that is not lowercase', 'logs4', { indexName: '{ns}-Logs' }, 'index name "{ns}-Logs" must be lowercase letters, digits and . _ + -, not starting with . _ + -'),
    index('an index with an alias outside', 'logs5', { aliases: { 'team-b-all': {} } }, `aliases "team-b-all" ${OUTSIDE}`),
    index('an index naming a connection that does not exist (the operator reports ConnectionNotFound)', 'logs6', { connectionRef: { name: 'no-such-connection' }, indexName: 'team-b-logs' }),
    indexTemplate('a template of its own indices, with an {index} alias and one inside', 'logs', { indexPatterns: ['{ns}-logs-*'], template: { aliases: { '{index}-alias': {}, '{ns}-logs': {} } } }),
    indexTemplate('a template named outside', 'tpl', { templateName: 'team-b-tpl', indexPatterns: ['{ns}-x-*'] }, `index template name "team-b-tpl" ${OUTSIDE}`),
    indexTemplate('a template on foreign indices', 'tpl2', { indexPatterns: ['{ns}-a-*', 'logs-*'] }, `indexPatterns[1] "logs-*" ${OUTSIDE}`),
    indexTemplate('a template on a regular expression', 'tpl3', { indexPatterns: ['/{ns}-.*/'] }, 'indexPatterns[0] "/{ns}-.*/" is a regular expression, which cannot be confined to the prefix "{ns}-"'),
    indexTemplate('a template with an alias outside', 'tpl4', { indexPatterns: ['{ns}-y-*'], template: { aliases: { shared: {} } } }, `template.aliases "shared" ${OUTSIDE}`),
    componentTemplate('a component template with an alias inside', 'base', { template: { aliases: { '{ns}-base': {} } } }),
    componentTemplate('a component template without aliases', 'plain', { template: { settings: { numberOfReplicas: 0 } } }),
    componentTemplate('a component template named outside', 'base2', { templateName: 'shared-settings', template: {} }, `component template name "shared-settings" ${OUTSIDE}`),
    role('a role on its own patterns, tenants and allowed cluster permissions', 'reader', {
      clusterPermissions: ['cluster_composite_ops_ro'],
      ...reading('{ns}-*', '<{ns}-logs-{now/d}>'),
      tenantPermissions: [{ tenantPatterns: ['{ns}-dash*'], allowedActions: ['kibana_all_read'] }],
    }),
    role('a role on a foreign pattern', 'grabber', reading('{ns}-a', 'team-b-*'), `indexPermissions[0].indexPatterns[1] "team-b-*" ${OUTSIDE}`),
    role('a role on every index', 'all', reading('*'), `indexPermissions[0].indexPatterns[0] "*" ${OUTSIDE}`),
    role('a role on attribute substitution', 'attr', reading('{ns}-${user.name}'), 'indexPermissions[0].indexPatterns[0] "{ns}-${user.name}" uses attribute substitution, which is resolved per request and cannot be confined'),
    role('a role on a list in one pattern', 'list', reading('{ns}-a,{ns}-b'), 'indexPermissions[0].indexPatterns[0] "{ns}-a,{ns}-b" is a list; give one pattern per entry'),
    role('a role on date math outside', 'dated', reading('<logs-{now/d}>'), 'indexPermissions[0].indexPatterns[0] "<logs-{now/d}>" resolves outside the prefix "{ns}-"'),
    role(
      'a role on a foreign tenant',
      'dash',
      { tenantPermissions: [{ tenantPatterns: ['{ns}-dash'] }, { tenantPatterns: ['{ns}-x', 'global_tenant'] }].map((p) => ({ ...p, allowedActions: ['kibana_all_read'] })) },
      `tenantPermissions[1].tenantPatterns[1] "global_tenant" ${OUTSIDE}`,
    ),
    role('a role granting the cluster', 'boss', { clusterPermissions: ['cluster_monitor', 'cluster_all'] }, `clusterPermissions[1] "cluster_all" is not allowed for a namespace (allowed: ${ALLOWED})`),
    role('a role named as a protected role', 'sm', { roleName: 'security_manager' }, `role "security_manager" ${PROTECTED}`),
    role('a role named outside', 'r', { roleName: 'team-b-reader' }, `role name "team-b-reader" ${OUTSIDE}`),
    roleBinding('a binding of its own users to a bindable role', 'readers', { externalRole: 'readall', users: ['{ns}-alice'], backendRoles: ['any-group'] }),
    roleBinding('a binding of backend roles only', 'groups', { externalRole: 'readall', backendRoles: ['any-group'] }),
    roleBinding('a binding to a role the connection does not list', 'kib', { externalRole: 'kibana_user' }, 'externalRole "kibana_user" is not listed in the connection\'s tenancy.bindableRoles'),
    roleBinding('a binding to a protected role, even listed', 'root', { externalRole: 'all_access', users: ['{ns}-alice'] }, `role "all_access" ${PROTECTED}`),
    roleBinding('a binding of a foreign user', 'bob', { externalRole: 'readall', users: ['{ns}-alice', 'team-b-bob'] }, `users[1] "team-b-bob" ${OUTSIDE}`),
    user('a user with its own backend role', 'app', { backendRoles: ['{ns}-readers'] }),
    user('a user without backend roles', 'plain', {}),
    user('a user claiming a foreign backend role', 'sneak', { backendRoles: ['{ns}-readers', 'team-b-admins'] }, `backendRoles[1] "team-b-admins" ${OUTSIDE}`),
    user('a user claiming a protected backend role', 'admin2', { backendRoles: ['admin'] }, `backend role "admin" ${PROTECTED}`),
    user('a user named as a protected user', 'ks', { username: 'kibanaserver' }, `user "kibanaserver" ${PROTECTED}`),
    user('a user named outside', 'bob', { username: 'bob' }, `user name "bob" ${OUTSIDE}`),
    actionGroup('an index action group of any actions', 'search', { type: 'index', allowedActions: ['indices:data/read/search*'] }),
    actionGroup('a cluster action group of allowed actions', 'mon', { type: 'cluster', allowedActions: ['cluster_monitor'] }),
    actionGroup('a cluster action group granting the cluster', 'adm', { type: 'cluster', allowedActions: ['cluster:admin/*'] }, `allowedActions[0] "cluster:admin/*" is not allowed in a cluster action group of a namespace (allowed: ${ALLOWED})`),
    actionGroup('an action group named outside', 'shared', { name: 'shared-read', type: 'index', allowedActions: ['read'] }, `action group name "shared-read" ${OUTSIDE}`),
    tenant('a tenant under the prefix', 'dashboards', {}),
    tenant('a tenant named outside', 'global', { name: 'global_tenant' }, `tenant name "global_tenant" ${OUTSIDE}`),
    dataStream('a data stream under the prefix', 'events', {}),
    dataStream('a data stream named outside', 'events2', { name: 'logs-app' }, `data stream name "logs-app" ${OUTSIDE}`),
    snapshotPolicy('a snapshot policy of its own indices', 'nightly', nightly('{ns}-*')),
    snapshotPolicy('a snapshot policy of every index', 'grab', nightly('{ns}-*', '*'), `indices[1] "*" ${OUTSIDE}`),
    snapshotRestore('a restore of its own index', 'drill', restoring('{ns}-logs')),
    snapshotRestore('a restore of a foreign index', 'steal', restoring('team-b-logs'), `indices[0] "team-b-logs" ${OUTSIDE}`),
  ],
};

/** A trusted namespace: no prefix (no name rule, no cluster allow-list), yet protected names stay refused. */
const trusted: AdmissionCaseTable = {
  tenancy: { namespaceSelector: { matchLabels: { trusted: 'yes' } }, bindableRoles: ['all_access'] },
  namespaceLabels: { trusted: 'yes' },
  cases: [
    index('without a prefix, an index of any name', 'shared', { indexName: 'shared-logs' }),
    indexTemplate('without a prefix, a template on every index, without a template body', 'all', { indexPatterns: ['*'] }),
    role('without a prefix, a role on every index with any cluster permission', 'ops', { clusterPermissions: ['cluster_all'], ...reading('*') }),
    role('without a prefix, a protected role name', 'sm', { roleName: 'security_manager' }, `role "security_manager" ${PROTECTED}`),
    tenant('without a prefix, a protected tenant name', 'admin', { name: 'admin' }, `tenant "admin" ${PROTECTED}`),
    user('without a prefix, a protected backend role', 'app', { backendRoles: ['all_access'] }, `backend role "all_access" ${PROTECTED}`),
    roleBinding('without a prefix, a binding to a protected role, even listed', 'root', { externalRole: 'all_access' }, `role "all_access" ${PROTECTED}`),
  ],
};

/** The team's connection seen from a namespace it does not select: every kind is refused for that alone. */
const unselected: AdmissionCaseTable = {
  tenancy: team.tenancy ?? {},
  namespaceLabels: {},
  cases: [
    index('a namespace the connection does not select', 'logs', {}, 'namespace "{ns}" is not selected by OpenSearchConnection "{connection}" (tenancy.namespaceSelector)'),
    snapshotRestore('a restore from a namespace the connection does not select', 'drill', restoring('{ns}-logs'), 'namespace "{ns}" is not selected by OpenSearchConnection "{connection}"'),
  ],
};

/** A connection without tenancy: every namespace, no rule but the protected names. */
const open: AdmissionCaseTable = {
  cases: [index('without tenancy, an index of any name', 'anything', { indexName: 'anything-goes' }), role('without tenancy, a role on every index', 'ops', reading('*'))],
};

/** The tables, in the order the tests run them; titles are unique across them. */
export const tenancyTables: readonly AdmissionCaseTable[] = [team, trusted, unselected, open];
