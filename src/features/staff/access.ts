import { GLOBAL_PERMISSIONS, type Permission } from './permissions.ts';

/**
 * What a staff member may do (decision 131): the union of their grants, each a role's
 * permissions for some sites and languages (null: all). Browser-safe: the /admin app hides what
 * these say no to, the server decides with the same function.
 */
export interface AccessGrant {
  role: string;
  /** The role's name per language, where it was read with the grant. */
  roleName?: Record<'fi' | 'sv' | 'en', string>;
  permissions: readonly Permission[];
  sites: readonly string[] | null;
  langs: readonly string[] | null;
}

export interface Scope {
  siteId?: string | undefined;
  lang?: string | undefined;
}

function covers(list: readonly string[] | null, value: string | undefined): boolean {
  if (list === null) return true;
  return value !== undefined && list.includes(value);
}

/** Whether a grant gives `permission` for the scope (a global permission needs an all/all grant). */
export function grantAllows(grant: AccessGrant, permission: Permission, scope: Scope): boolean {
  if (!grant.permissions.includes(permission)) return false;
  if (GLOBAL_PERMISSIONS.has(permission)) return grant.sites === null && grant.langs === null;
  return covers(grant.sites, scope.siteId) && covers(grant.langs, scope.lang);
}

/**
 * Whether any grant gives `permission` for the scope. Without a site (or language) in the scope,
 * only a grant for every site (or language) does: "may do it anywhere".
 */
export function can(grants: readonly AccessGrant[], permission: Permission, scope: Scope = {}) {
  return grants.some((grant) => grantAllows(grant, permission, scope));
}

/** Whether some grant gives `permission` for at least one site and language. */
export function canSomewhere(grants: readonly AccessGrant[], permission: Permission): boolean {
  return grants.some(
    (grant) =>
      grant.permissions.includes(permission) &&
      (!GLOBAL_PERMISSIONS.has(permission) || (grant.sites === null && grant.langs === null)),
  );
}

/** Every permission some grant gives, somewhere. */
export function permissionsOf(grants: readonly AccessGrant[]): Permission[] {
  const all = new Set<Permission>();
  for (const grant of grants) for (const p of grant.permissions) all.add(p);
  return [...all].filter((p) => canSomewhere(grants, p)).sort();
}
