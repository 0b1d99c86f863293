/** What the security configuration is rendered from. */
export interface SecurityConfigInput {
  /** Name of the internal user mapped to `all_access`. */
  readonly adminUsername: string;
  /** bcrypt hash of that user's password (`$2a$`, `$2b$` or `$2y$`). */
  readonly adminPasswordHash: string;
}

/** The backend role that `roles_mapping.yml` maps to `all_access`. */
export const ADMIN_BACKEND_ROLE = 'admin';

/**
 * The files the security plugin reads from `config/opensearch-security/` when it creates its index on a
 * fresh data directory (`plugins.security.allow_default_init_securityindex`), keyed by file name.
 * Basic authentication against the internal user database only; one admin user mapped to `all_access`
 * through a backend role; no extra roles, action groups or tenants (the built-in static ones remain).
 * Pure: same input, same text.
 */
export function renderSecurityConfig(input: SecurityConfigInput): Readonly<Record<string, string>> {
  return {
    'config.yml': [
      meta('config'),
      'config:',
      '  dynamic:',
      '    http:',
      '      anonymous_auth_enabled: false',
      '    authc:',
      '      basic_internal_auth_domain:',
      '        description: "HTTP basic authentication against the internal user database"',
      '        http_enabled: true',
      '        transport_enabled: true',
      '        order: 0',
      '        http_authenticator:',
      '          type: basic',
      '          challenge: true',
      '        authentication_backend:',
      '          type: intern',
      '',
    ].join('\n'),
    'internal_users.yml': [
      meta('internalusers'),
      `${yamlString(input.adminUsername)}:`,
      `  hash: ${yamlString(input.adminPasswordHash)}`,
      '  reserved: true',
      `  backend_roles: [${yamlString(ADMIN_BACKEND_ROLE)}]`,
      '  description: "testenv administrator"',
      '',
    ].join('\n'),
    'roles_mapping.yml': [
      meta('rolesmapping'),
      'all_access:',
      '  reserved: false',
      `  backend_roles: [${yamlString(ADMIN_BACKEND_ROLE)}]`,
      '  description: "testenv administrator"',
      '',
    ].join('\n'),
    'roles.yml': `${meta('roles')}\n`,
    'action_groups.yml': `${meta('actiongroups')}\n`,
    'tenants.yml': `${meta('tenants')}\n`,
  };
}

function meta(type: string): string {
  return `_meta:\n  type: "${type}"\n  config_version: 2`;
}

/** A YAML double-quoted scalar; JSON string syntax is a subset of it. */
export function yamlString(value: string): string {
  return JSON.stringify(value);
}
