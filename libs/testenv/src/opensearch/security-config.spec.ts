import { describe, expect, it } from 'vitest';
import { renderSecurityConfig } from './security-config.ts';

describe('renderSecurityConfig', () => {
  const files = renderSecurityConfig({ adminUsername: 'admin', adminPasswordHash: '$2y$10$abc/def' });

  it('renders the six files the plugin loads at first start, each with its _meta type', () => {
    expect(Object.keys(files).sort()).toEqual([
      'action_groups.yml',
      'config.yml',
      'internal_users.yml',
      'roles.yml',
      'roles_mapping.yml',
      'tenants.yml',
    ]);
    expect(files['roles.yml']).toContain('type: "roles"');
    expect(files['action_groups.yml']).toContain('type: "actiongroups"');
  });

  it('gives the admin user the hash and the backend role that all_access is mapped to', () => {
    expect(files['internal_users.yml']).toContain('"admin":\n  hash: "$2y$10$abc/def"');
    expect(files['internal_users.yml']).toContain('backend_roles: ["admin"]');
    expect(files['roles_mapping.yml']).toContain('all_access:\n  reserved: false\n  backend_roles: ["admin"]');
  });

  it('authenticates with HTTP basic against the internal users', () => {
    expect(files['config.yml']).toMatch(/type: basic\n\s+challenge: true/);
    expect(files['config.yml']).toContain('type: intern');
  });
});
