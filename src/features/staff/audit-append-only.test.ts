import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { auditLog } from './tables.ts';

/**
 * The audit log refuses UPDATE, DELETE and TRUNCATE (decision 132), on the engine the tests run
 * on: PostgreSQL in the unit project with DATABASE_URL, PGlite in the parity project beside it
 * (and in the unit project without DATABASE_URL).
 */
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase(inject('templateDatabase'));
});
afterAll(async () => {
  await handle?.close();
});

async function oneRow(): Promise<number> {
  const [row] = await handle.db
    .insert(auditLog)
    .values({ actor: 'test', action: 'test.write', changes: { name: { before: 'a', after: 'b' } } })
    .returning({ id: auditLog.id });
  if (!row) throw new Error('no row');
  return row.id;
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    const messages: string[] = [];
    for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message);
    return messages.join(' / ');
  }
  return 'not refused';
}

describe(`the audit log (${inject('templateDatabase').engine})`, () => {
  it('takes new rows', async () => {
    const id = await oneRow();
    const [row] = await handle.db.select().from(auditLog).where(eq(auditLog.id, id));
    expect(row?.action).toBe('test.write');
    expect(row?.at).toBeInstanceOf(Date);
  });

  it('refuses to change a row', async () => {
    const id = await oneRow();
    const message = await refusal(() =>
      handle.db.update(auditLog).set({ action: 'forged' }).where(eq(auditLog.id, id)),
    );
    expect(message).toContain('audit_log is append-only: UPDATE refused');
    const [row] = await handle.db.select().from(auditLog).where(eq(auditLog.id, id));
    expect(row?.action).toBe('test.write');
  });

  it('refuses to delete a row, or all of them', async () => {
    const id = await oneRow();
    expect(await refusal(() => handle.db.delete(auditLog).where(eq(auditLog.id, id)))).toContain(
      'audit_log is append-only: DELETE refused',
    );
    expect(await refusal(() => handle.db.delete(auditLog))).toContain('DELETE refused');
    expect(await refusal(() => handle.db.execute(sql`truncate audit_log`))).toContain(
      'TRUNCATE refused',
    );
    expect(await handle.db.$count(auditLog, eq(auditLog.id, id))).toBe(1);
  });

  it('refuses inside a transaction too, and the transaction rolls back', async () => {
    const id = await oneRow();
    const message = await refusal(() =>
      handle.db.transaction(async (tx) => {
        await tx.insert(auditLog).values({ actor: 'test', action: 'inside' });
        await tx.update(auditLog).set({ actor: 'x' }).where(eq(auditLog.id, id));
      }),
    );
    expect(message).toContain('UPDATE refused');
    expect(await handle.db.$count(auditLog, eq(auditLog.action, 'inside'))).toBe(0);
  });
});
