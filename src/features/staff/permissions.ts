/**
 * The back office's permissions, named in code (decision 131). Roles in the database are sets of
 * these; a grant gives a role for some sites and languages. Every admin route names the one it
 * needs (`config.staff`), and the server refuses the request without it. Adding a permission
 * here gives it to nobody: a migration or an administrator adds it to the roles that should have it.
 */
export const PERMISSIONS = [
  'staff.manage',
  'audit.read',
  'content.edit',
  'content.publish',
  'submissions.read',
  'submissions.manage',
  'customers.read',
  'customers.manage',
  'orders.read',
  'orders.manage',
  'orders.refund',
  'shop.manage',
  'reviews.moderate',
  'subscribers.read',
  'subscribers.manage',
  'subscribers.export',
  'personal-data.export',
  'personal-data.erase',
  // The search's synonym sets (decision 164).
  'search.synonyms',
  // Recipients and success pages of the forms per site (decision 170).
  'forms.settings',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/**
 * Permissions that only a grant for every site and language gives: managing staff and roles
 * reaches past any one site, so a site-limited grant of it would be a way out of the limit.
 */
export const GLOBAL_PERMISSIONS: ReadonlySet<Permission> = new Set(['staff.manage']);

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** The starting roles (the migration writes them; administrators may change them). */
export const STARTING_ROLES: Record<string, readonly Permission[]> = {
  admin: PERMISSIONS,
  editor: ['content.edit'],
  publisher: ['content.edit', 'content.publish', 'search.synonyms', 'forms.settings'],
  'customer-service': [
    'submissions.read',
    'submissions.manage',
    'customers.read',
    'customers.manage',
    'orders.read',
    'reviews.moderate',
    'subscribers.read',
    'subscribers.manage',
  ],
  'shop-staff': [
    'customers.read',
    'customers.manage',
    'orders.read',
    'orders.manage',
    'orders.refund',
    'shop.manage',
    'reviews.moderate',
  ],
  dpo: [
    'audit.read',
    'customers.read',
    'submissions.read',
    'subscribers.read',
    'subscribers.export',
    'personal-data.export',
    'personal-data.erase',
  ],
};
