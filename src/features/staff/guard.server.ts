import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError, Forbidden } from '../../server/errors.ts';
import { grantsOf } from './access.server.ts';
import { type AccessGrant, can, canSomewhere, type Scope } from './access.ts';
import type { Permission } from './permissions.ts';
import { ADMIN_API } from './schemas.ts';
import { readStaffSession } from './sessions.server.ts';
import { staffMembers, staffSessions } from './tables.ts';

/**
 * What an admin route needs, declared in its route config (`config: { staff: … }`) and checked
 * before its body is read (decision 131):
 * - `{ access: 'public' }`: the login steps, enrolment and reset (they check what they need);
 * - `{ access: 'signed-in' }`: any signed-in staff member (their own profile);
 * - `{ permission }`: a permission some grant gives; with `scope`, for the site and language
 *   the request names; lists without `scope` limit their rows with `scopeWhere`.
 * `reauth: true` also needs the password or a code given in the last 5 minutes. A route under
 * `/api/admin` that declares nothing is refused (and fails the route walk test).
 */
export type StaffRouteAccess =
  | { access: 'public' }
  | { access: 'signed-in'; reauth?: boolean }
  | { permission: Permission; reauth?: boolean; scope?: (request: FastifyRequest) => Scope };

export interface SignedInStaff {
  staffId: string;
  sessionId: string;
  email: string;
  name: string;
  lang: 'fi' | 'sv' | 'en';
  grants: AccessGrant[];
  verifiedAt: Date;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    staff?: StaffRouteAccess;
  }
  interface FastifyRequest {
    /** The signed-in staff member of an admin route (null on public ones). */
    staff: SignedInStaff | null;
  }
  interface FastifyInstance {
    /** Every route under /api/admin, as registered: method, URL and what it declared. */
    adminRoutes: { method: string; url: string; staff: StaffRouteAccess | undefined }[];
  }
}

export class NotSignedIn extends AppError {
  constructor() {
    super(401, 'unauthorized', 'Not signed in', 'Sign in to the back office.');
  }
}

export class ReauthRequired extends AppError {
  constructor() {
    super(
      403,
      'reauth',
      'Re-authentication required',
      'Give your password or a code again to do this.',
    );
  }
}

export function isAdminApi(url: string): boolean {
  return url === ADMIN_API || url.startsWith(`${ADMIN_API}/`);
}

/** The signed-in staff member of a session row (one just started by a sign-in step). */
export async function signedInStaff(db: Database, sessionId: string): Promise<SignedInStaff> {
  const [row] = await db
    .select({
      staffId: staffSessions.staffId,
      verifiedAt: staffSessions.verifiedAt,
      email: staffMembers.email,
      name: staffMembers.name,
      lang: staffMembers.lang,
    })
    .from(staffSessions)
    .innerJoin(staffMembers, eq(staffMembers.id, staffSessions.staffId))
    .where(eq(staffSessions.id, sessionId));
  if (!row) throw new NotSignedIn();
  return {
    ...row,
    sessionId,
    lang: row.lang as SignedInStaff['lang'],
    grants: await grantsOf(db, row.staffId),
  };
}

async function guard(request: FastifyRequest): Promise<void> {
  const declared = request.routeOptions.config.staff;
  if (!declared) throw new Forbidden('This admin route declares no permission.', 'forbidden');
  if ('access' in declared && declared.access === 'public') return;
  const db = request.server.db;
  const session = await readStaffSession(db, request);
  if (session?.stage !== 'full') throw new NotSignedIn();
  const grants = await grantsOf(db, session.staffId);
  request.staff = {
    staffId: session.staffId,
    sessionId: session.id,
    email: session.email,
    name: session.name,
    lang: session.lang,
    grants,
    verifiedAt: session.verifiedAt,
  };
  if ('permission' in declared) {
    const allowed = declared.scope
      ? can(grants, declared.permission, declared.scope(request))
      : canSomewhere(grants, declared.permission);
    if (!allowed) throw new Forbidden(`This needs the permission ${declared.permission}.`);
  }
  if (
    declared.reauth &&
    Date.now() - session.verifiedAt.getTime() > request.server.config.staffReauthMs
  ) {
    throw new ReauthRequired();
  }
}

/**
 * Puts the guard in front of every route under /api/admin registered after this (the staff
 * plugin is registered before any feature's admin routes), and lists them in `app.adminRoutes`.
 */
export function installGuard(app: FastifyInstance): void {
  app.decorate('adminRoutes', []);
  app.decorateRequest('staff', null);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isAdminApi(route.url)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.adminRoutes.push({
        method,
        url: route.url,
        staff: (route.config as { staff?: StaffRouteAccess } | undefined)?.staff,
      });
    }
    const own = route.onRequest;
    route.onRequest = [...(own ? (Array.isArray(own) ? own : [own]) : []), guard];
  });
}

/** The site and language an admin request names in its query (`?site=…&lang=…`). */
export function queryScope(request: FastifyRequest): Scope {
  const query = request.query as { site?: unknown; lang?: unknown } | undefined;
  return {
    siteId: typeof query?.site === 'string' ? query.site : undefined,
    lang: typeof query?.lang === 'string' ? query.lang : undefined,
  };
}
