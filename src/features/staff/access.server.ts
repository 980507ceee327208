import { and, asc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { type AccessGrant, can, type Scope } from './access.ts';
import { GLOBAL_PERMISSIONS, isPermission, type Permission } from './permissions.ts';
import { staffGrants, staffMembers, staffRoles } from './tables.ts';

/** The grants of a staff member with their roles' permissions, as they are now in the database. */
export async function grantsOf(db: Database, staffId: string): Promise<AccessGrant[]> {
  const rows = await db
    .select({
      role: staffGrants.roleKey,
      roleName: staffRoles.name,
      permissions: staffRoles.permissions,
      sites: staffGrants.sites,
      langs: staffGrants.langs,
    })
    .from(staffGrants)
    .innerJoin(staffRoles, eq(staffRoles.key, staffGrants.roleKey))
    .where(eq(staffGrants.staffId, staffId))
    .orderBy(staffGrants.id);
  return rows.map((row) => ({
    role: row.role,
    roleName: row.roleName,
    // A permission the code no longer names gives nothing.
    permissions: row.permissions.filter(isPermission),
    sites: row.sites,
    langs: row.langs,
  }));
}

/**
 * The one helper every back-office list query takes its scope from (decision 131): the `where`
 * clause that keeps the rows of the sites and languages the grants give `permission` for. Rows
 * are matched on their site column and, when given, their language column; a grant for all
 * sites (or languages) puts no limit on that column. No grant at all: a clause no row meets.
 * `lang` may be omitted for tables without a language (then only the sites limit).
 */
export function scopeWhere(
  grants: readonly AccessGrant[],
  permission: Permission,
  columns: { site: AnyPgColumn; lang?: AnyPgColumn },
): SQL {
  const global = GLOBAL_PERMISSIONS.has(permission);
  const clauses: SQL[] = [];
  for (const grant of grants) {
    if (!grant.permissions.includes(permission)) continue;
    if (global && (grant.sites !== null || grant.langs !== null)) continue;
    const parts: SQL[] = [];
    if (grant.sites !== null) parts.push(inArray(columns.site, [...grant.sites]));
    if (grant.langs !== null && columns.lang) parts.push(inArray(columns.lang, [...grant.langs]));
    if (parts.length === 0) return sql`true`;
    clauses.push(parts.length === 1 ? (parts[0] as SQL) : (and(...parts) as SQL));
  }
  if (clauses.length === 0) return sql`false`;
  return clauses.length === 1 ? (clauses[0] as SQL) : (or(...clauses) as SQL);
}

/**
 * The enrolled, enabled staff members whose grants give `permission` for `scope` (for example
 * whom a form submission of a site and language may be given to), by name.
 */
export async function staffWhoMay(
  db: Database,
  permission: Permission,
  scope: Scope,
): Promise<{ id: string; name: string }[]> {
  const people = await db
    .select({ id: staffMembers.id, name: staffMembers.name })
    .from(staffMembers)
    .where(and(isNotNull(staffMembers.enrolledAt), isNull(staffMembers.disabledAt)))
    .orderBy(asc(staffMembers.name), asc(staffMembers.id));
  const may: { id: string; name: string }[] = [];
  for (const person of people) {
    if (can(await grantsOf(db, person.id), permission, scope)) may.push(person);
  }
  return may;
}
