import { asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import { Conflict, Invalid, NotFound } from '../../server/errors.ts';
import { actorOf, changesBetween, recordAudit } from './audit.server.ts';
import { checkGrants } from './enrolment.server.ts';
import { NotSignedIn } from './guard.server.ts';
import { isPermission, PERMISSIONS } from './permissions.ts';
import type { Grant, RoleAnswer, StaffRow } from './schemas.ts';
import { revokeStaffSessions } from './sessions.server.ts';
import { staffGrants, staffMembers, staffRoles } from './tables.ts';

/** Staff accounts and roles as administrators manage them (`staff.manage`). */

class LastAdministrator extends Conflict {
  constructor() {
    super('The change would leave no active staff member who may manage staff.');
  }
}

/**
 * Refuses (409) a change after which no active, enrolled staff member holds `staff.manage` for
 * every site and language: nobody could then give anyone anything again.
 */
async function assertAnAdministratorRemains(tx: Transaction): Promise<void> {
  const result = (await tx.execute(sql`
    select 1 from ${staffGrants} g
    join ${staffRoles} r on r.key = g.role_key
    join ${staffMembers} m on m.id = g.staff_id
    where 'staff.manage' = any(r.permissions) and g.sites is null and g.langs is null
      and m.disabled_at is null and m.enrolled_at is not null
    limit 1`)) as unknown as { rows: unknown[] };
  if (result.rows.length === 0) throw new LastAdministrator();
}

async function grantsByStaff(db: Database | Transaction): Promise<Map<string, Grant[]>> {
  const rows = await db
    .select({
      staffId: staffGrants.staffId,
      role: staffGrants.roleKey,
      sites: staffGrants.sites,
      langs: staffGrants.langs,
    })
    .from(staffGrants)
    .orderBy(asc(staffGrants.id));
  const map = new Map<string, Grant[]>();
  for (const row of rows) {
    const list = map.get(row.staffId) ?? [];
    list.push({ role: row.role, sites: row.sites, langs: row.langs as Grant['langs'] });
    map.set(row.staffId, list);
  }
  return map;
}

function rowOf(member: typeof staffMembers.$inferSelect, grants: Grant[]): StaffRow {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    lang: member.lang as StaffRow['lang'],
    enrolled: member.enrolledAt !== null,
    disabled: member.disabledAt !== null,
    grants,
    createdAt: member.createdAt.toISOString(),
  };
}

export async function listStaff(db: Database): Promise<StaffRow[]> {
  const members = await db.select().from(staffMembers).orderBy(asc(staffMembers.name));
  const grants = await grantsByStaff(db);
  return members.map((m) => rowOf(m, grants.get(m.id) ?? []));
}

export async function getStaff(db: Database, id: string): Promise<StaffRow> {
  const [member] = await db.select().from(staffMembers).where(eq(staffMembers.id, id));
  if (!member) throw new NotFound('No such staff member.');
  const grants = await db
    .select({ role: staffGrants.roleKey, sites: staffGrants.sites, langs: staffGrants.langs })
    .from(staffGrants)
    .where(eq(staffGrants.staffId, id))
    .orderBy(asc(staffGrants.id));
  return rowOf(member, grants as Grant[]);
}

/**
 * Replaces a staff member's grants; their sessions end (a role change takes effect at once and
 * signs them out everywhere). Audited with the grants before and after.
 */
export async function setGrants(request: FastifyRequest, id: string, grants: Grant[]) {
  const db = request.server.db;
  await db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(eq(staffMembers.id, id))
      .for('update');
    if (!member) throw new NotFound('No such staff member.');
    await checkGrants(tx, grants);
    const before = (await grantsByStaff(tx)).get(id) ?? [];
    await tx.delete(staffGrants).where(eq(staffGrants.staffId, id));
    if (grants.length) {
      await tx
        .insert(staffGrants)
        .values(
          grants.map((g) => ({ staffId: id, roleKey: g.role, sites: g.sites, langs: g.langs })),
        );
    }
    await assertAnAdministratorRemains(tx);
    await revokeStaffSessions(tx, id);
    await recordAudit(tx, actorOf(request), {
      action: 'staff.grants',
      subjectType: 'staff',
      subjectId: id,
      changes: changesBetween({ grants: before }, { grants }),
    });
  });
}

/** Disables (or enables again) a staff member; a disabled one's sessions end at once. */
export async function setDisabled(request: FastifyRequest, id: string, disabled: boolean) {
  const db = request.server.db;
  await db.transaction(async (tx) => {
    const [member] = await tx
      .select({ disabledAt: staffMembers.disabledAt })
      .from(staffMembers)
      .where(eq(staffMembers.id, id))
      .for('update');
    if (!member) throw new NotFound('No such staff member.');
    await tx
      .update(staffMembers)
      .set({
        disabledAt: disabled ? (member.disabledAt ?? new Date()) : null,
        updatedAt: new Date(),
      })
      .where(eq(staffMembers.id, id));
    if (disabled) {
      await assertAnAdministratorRemains(tx);
      await revokeStaffSessions(tx, id);
    }
    await recordAudit(tx, actorOf(request), {
      action: disabled ? 'staff.disable' : 'staff.enable',
      subjectType: 'staff',
      subjectId: id,
      changes: changesBetween({ disabled: member.disabledAt !== null }, { disabled }),
    });
  });
}

export async function listRoles(db: Database): Promise<RoleAnswer[]> {
  const holders = await db
    .select({ key: staffGrants.roleKey, n: count() })
    .from(staffGrants)
    .groupBy(staffGrants.roleKey);
  const byKey = new Map(holders.map((h) => [h.key, Number(h.n)]));
  const roles = await db
    .select()
    .from(staffRoles)
    .orderBy(asc(staffRoles.createdAt), asc(staffRoles.key));
  return roles.map((role) => ({
    key: role.key,
    name: role.name,
    permissions: role.permissions.filter(isPermission),
    grantCount: byKey.get(role.key) ?? 0,
  }));
}

const ordered = (permissions: readonly string[]) =>
  PERMISSIONS.filter((p) => permissions.includes(p));

export async function createRole(
  request: FastifyRequest,
  input: { key: string; name: RoleAnswer['name']; permissions: string[] },
) {
  if (!request.staff) throw new NotSignedIn();
  const permissions = ordered(input.permissions);
  await request.server.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staffRoles)
      .values({ key: input.key, name: input.name, permissions })
      .onConflictDoNothing()
      .returning({ key: staffRoles.key });
    if (!row) throw new Invalid({ key: 'admin.error.roleTaken' }, 'The role key is taken.');
    await recordAudit(tx, actorOf(request), {
      action: 'role.create',
      subjectType: 'role',
      subjectId: input.key,
      changes: changesBetween(null, { name: input.name, permissions }),
    });
  });
}

/** Changes a role's name and permissions; effective at once for everyone holding it. */
export async function updateRole(
  request: FastifyRequest,
  key: string,
  input: { name: RoleAnswer['name']; permissions: string[] },
) {
  const permissions = ordered(input.permissions);
  await request.server.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: staffRoles.name, permissions: staffRoles.permissions })
      .from(staffRoles)
      .where(eq(staffRoles.key, key))
      .for('update');
    if (!before) throw new NotFound('No such role.');
    await tx
      .update(staffRoles)
      .set({ name: input.name, permissions, updatedAt: new Date() })
      .where(eq(staffRoles.key, key));
    await assertAnAdministratorRemains(tx);
    await recordAudit(tx, actorOf(request), {
      action: 'role.update',
      subjectType: 'role',
      subjectId: key,
      changes: changesBetween(before, { name: input.name, permissions }),
    });
  });
}
